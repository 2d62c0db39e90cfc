import FilterEngine
import FilterPipeline
import Foundation

/// One input moving from one value to another over a duration, played live in the explorer and looping (at the
/// end it starts again from FROM, as `animate`'s looping GIF does). Numbers, vectors (points, rectangles,
/// offsets), colours and transforms move component by component, linearly or eased with smoothstep (what
/// `cifiltertest animate --ease ease-in-out` does). Pure: values in, values out.
public struct LiveAnimation: Equatable, Sendable {
    public enum Shape: Equatable, Sendable { case number, vector, color, transform }

    public let key: String
    public let shape: Shape
    public let from: [Double]
    public let to: [Double]
    /// How long one pass from FROM to TO takes.
    public let seconds: Double
    /// Smoothstep easing (slow at both ends) instead of a constant speed.
    public let eased: Bool
    /// Whole-number inputs (counts) get rounded values.
    public let isInteger: Bool

    public static let defaultSeconds = 2.0
    /// The frame rate of the `animate` command an export prints (its own default).
    public static let exportFPS = 25

    /// Nil when the two values are not of one animatable shape and size.
    public init?(key: String, from: FilterValue, to: FilterValue, seconds: Double = defaultSeconds, eased: Bool = false,
                 isInteger: Bool = false) {
        guard let (shape, a) = Self.components(from), let (otherShape, b) = Self.components(to), shape == otherShape,
              a.count == b.count, seconds > 0, seconds.isFinite else { return nil }
        self.key = key
        self.shape = shape
        self.from = a
        self.to = b
        self.seconds = seconds
        self.eased = eased
        self.isInteger = isInteger
    }

    /// A value's numbers and shape; nil for what does not animate (images, strings, data).
    public static func components(_ value: FilterValue) -> (Shape, [Double])? {
        switch value {
        case .number(let n): (.number, [n])
        case .vector(let v) where !v.isEmpty: (.vector, v)
        case .color(let c): (.color, c.components)
        case .transform(let t): (.transform, t.values)
        default: nil
        }
    }

    /// Smoothstep: 3t² − 2t³, 0 at 0 and 1 at 1 with zero slope at both.
    public static func smoothstep(_ t: Double) -> Double { t * t * (3 - 2 * t) }

    /// The value at `progress` (0: FROM, 1: TO, clamped). Both ends are exact: each component is
    /// FROM × (1 − e) + TO × e, which is FROM at e = 0 and TO at e = 1 without rounding error.
    public func value(atProgress progress: Double) -> FilterValue {
        let t = min(max(progress.isFinite ? progress : 0, 0), 1)
        let e = eased ? Self.smoothstep(t) : t
        var mixed = zip(from, to).map { a, b in e == 0 ? a : (e == 1 ? b : a * (1 - e) + b * e) }
        if isInteger { mixed = mixed.map { $0.rounded() } }
        return make(mixed)
    }

    /// Where a loop started `elapsed` seconds ago is: 0 at the start, back to 0 after each `seconds`.
    public func progress(elapsed: Double) -> Double {
        guard elapsed.isFinite, elapsed > 0 else { return 0 }
        let passes = elapsed / seconds
        return passes - passes.rounded(.down)
    }

    /// The seconds into a loop at which the value is nearest `value` (for a single number; 0 otherwise): lets
    /// an animation that starts from a value inside its range continue from there instead of jumping.
    public func elapsed(atValue value: Double) -> Double {
        guard shape == .number, let a = from.first, let b = to.first, a != b else { return 0 }
        let t = min(max((value - a) / (b - a), 0), 1)
        // Smoothstep's inverse for eased loops: t = 1/2 − sin(asin(1 − 2y) / 3).
        let p = eased ? 0.5 - sin(asin(1 - 2 * t) / 3) : t
        return p * seconds
    }

    func make(_ numbers: [Double]) -> FilterValue {
        switch shape {
        case .number: .number(numbers[0])
        case .vector: .vector(numbers)
        case .color: .color(Color(numbers))
        case .transform: .transform(AffineTransform(numbers))
        }
    }

    public var fromValue: FilterValue { make(from) }
    public var toValue: FilterValue { make(to) }

    /// A value as the prompt and the status line write it: numbers alone, the others in brackets.
    static func text(_ numbers: [Double], shape: Shape) -> String {
        shape == .number ? formatNumber(numbers[0]) : "[" + numbers.map(formatNumber).joined(separator: " ") + "]"
    }

    /// "0 → 20 over 2 s linear": what the `A` prompt is filled with, and reads back.
    public var promptText: String {
        "\(Self.text(from, shape: shape)) → \(Self.text(to, shape: shape)) over \(formatNumber(seconds)) s \(eased ? "ease-in-out" : "linear")"
    }

    /// "inputRadius 0 → 20 over 2 s linear" for the status line.
    public var summary: String { "\(key) \(promptText)" }

    /// How many frames `animate --frames` needs at `fps` for one pass as long as this one (the first at FROM,
    /// the last at TO).
    public func frameCount(fps: Int = exportFPS) -> Int { max(2, Int((seconds * Double(fps)).rounded())) }

    /// `STEP.KEY=FROM:TO` as `cifiltertest animate --animate` reads it, every number written in full.
    public func animateArgument(step: String) -> String {
        func exact(_ numbers: [Double]) -> String {
            shape == .number ? Recipe.exact(numbers[0]) : "[" + numbers.map(Recipe.exact).joined(separator: " ") + "]"
        }
        return "\(step).\(key)=\(exact(from)):\(exact(to))"
    }

    /// The options that make `cifiltertest animate` play this animation: `--animate`, `--frames`, `--fps` and
    /// `--ease` when eased.
    public func animateOptions(step: String) -> [String] {
        ["--animate", animateArgument(step: step), "--frames", String(frameCount()), "--fps", String(Self.exportFPS)]
            + (eased ? ["--ease", "ease-in-out"] : [])
    }

    /// A `cifiltertest render … -o out.png` command's words turned into the `cifiltertest animate` command
    /// that plays this animation over the same chain into a looping GIF beside it (`out.gif`); nil when the
    /// words are not a render command.
    public func animateArguments(render words: [String], step: String) -> [String]? {
        guard words.count > 2, words[1] == "render", let o = words.lastIndex(of: "-o"), o + 1 < words.count else { return nil }
        var words = words
        words[1] = "animate"
        words[o + 1] = (words[o + 1] as NSString).deletingPathExtension + ".gif"
        words.insert(contentsOf: animateOptions(step: step), at: o)
        return words
    }
}

// MARK: The prompt

extension LiveAnimation {
    /// The words that ask for easing, and for none.
    static let easedWords: Set<String> = ["ease-in-out", "ease", "eased", "smoothstep", "smooth"]
    static let linearWords: Set<String> = ["linear"]

    /// What the prompt's text says before its values are read for an input: FROM and TO as typed, the
    /// duration and the easing.
    public struct Spec: Equatable, Sendable {
        public var from: String
        public var to: String
        public var seconds: Double
        public var eased: Bool
    }

    public static let promptUsage = "write FROM → TO over SECONDS s [linear|ease-in-out], e.g. 0 → 20 over 2 s linear (or FROM:TO SECONDS)"

    /// Reads `FROM → TO over SECONDS s [linear|ease-in-out]`; `->` or `:` may stand for the arrow, `over` and
    /// the `s` may be left out (`0:20 2 ease-in-out`), and without a duration it is 2 s. FROM and TO are kept
    /// as text (a number expression, `[x y …]`, `#rrggbb`), read for the input by `parse`.
    public static func parseSpec(_ text: String) throws -> Spec {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw FilterExplorerError("nothing typed: " + promptUsage) }
        guard let separator = Self.separator(in: trimmed) else {
            throw FilterExplorerError("no → between FROM and TO: " + promptUsage)
        }
        let from = String(trimmed[..<separator.lowerBound]).trimmingCharacters(in: .whitespaces)
        var words = Self.words(String(trimmed[separator.upperBound...]))
        guard !from.isEmpty else { throw FilterExplorerError("no FROM value before the arrow: " + promptUsage) }
        var eased = false
        if let last = words.last?.lowercased(), easedWords.contains(last) || linearWords.contains(last) {
            eased = easedWords.contains(last)
            words.removeLast()
        }
        var toWords: [String], durationWords: [String]
        if let over = words.lastIndex(where: { $0.lowercased() == "over" }) {
            toWords = Array(words[..<over])
            durationWords = Array(words[(over + 1)...])
            guard !durationWords.isEmpty else { throw FilterExplorerError("no duration after \"over\": " + promptUsage) }
        } else if words.count <= 1 {
            (toWords, durationWords) = (words, [])
        } else {
            // FROM:TO SECONDS, the unit written apart or not.
            let unitApart = ["s", "sec", "secs", "second", "seconds"].contains(words.last!.lowercased())
            let count = unitApart && words.count >= 3 ? 2 : 1
            toWords = Array(words.dropLast(count))
            durationWords = Array(words.suffix(count))
        }
        guard !toWords.isEmpty else { throw FilterExplorerError("no TO value after the arrow: " + promptUsage) }
        var seconds = defaultSeconds
        if !durationWords.isEmpty {
            var duration = durationWords.joined(separator: " ").trimmingCharacters(in: .whitespaces)
            for unit in ["seconds", "second", "secs", "sec", "s"] where duration.lowercased().hasSuffix(unit) {
                duration = String(duration.dropLast(unit.count)).trimmingCharacters(in: .whitespaces)
                break
            }
            do { seconds = try NumberExpression.evaluate(duration, default: nil).value } catch let failure as NumberExpression.Failure {
                throw FilterExplorerError("the duration \"\(durationWords.joined(separator: " "))\": \(failure.reason)")
            }
            guard seconds >= 0.05 else {
                throw FilterExplorerError("the duration must be at least 0.05 s, not \(formatNumber(seconds)) s")
            }
            guard seconds <= 3600 else { throw FilterExplorerError("the duration must be at most 3600 s, not \(formatNumber(seconds)) s") }
        }
        return Spec(from: from, to: toWords.joined(separator: " "), seconds: seconds, eased: eased)
    }

    /// The arrow between FROM and TO: the first `→`, else `->`, else `:` (none of which an expression uses).
    static func separator(in text: String) -> Range<String.Index>? {
        text.range(of: "→") ?? text.range(of: "->") ?? text.range(of: ":")
    }

    /// Words separated by spaces, a bracketed list (`[100 100]`) kept as one word.
    static func words(_ text: String) -> [String] {
        var words: [String] = [], current = "", depth = 0
        for character in text {
            if character == "[" || character == "(" { depth += 1 }
            if character == "]" || character == ")" { depth = max(0, depth - 1) }
            if character.isWhitespace && depth == 0 {
                if !current.isEmpty { words.append(current); current = "" }
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The prompt's text read for `input`, whose value now is `current` (its shape and size are the ones FROM
    /// and TO must have). Refused text throws with the reason and the part it is in.
    public static func parse(_ text: String, input: InputDescriptor, current: FilterValue) throws -> LiveAnimation {
        let spec = try parseSpec(text)
        guard let (shape, numbers) = components(current) else {
            throw FilterExplorerError("\(input.key) is not a number, vector, colour or transform: it cannot be animated")
        }
        let from = try value(spec.from, part: "FROM", input: input, shape: shape, count: numbers.count)
        let to = try value(spec.to, part: "TO", input: input, shape: shape, count: numbers.count)
        guard let animation = LiveAnimation(key: input.key, from: from, to: to, seconds: spec.seconds, eased: spec.eased,
                                            isInteger: input.isInteger) else {
            throw FilterExplorerError("\(input.key): FROM and TO must be of the same kind")
        }
        return animation
    }

    /// One end's text as a value of the input's shape: a number expression (`pi/4`, `45°` for angles,
    /// `2*default`), a list of them in brackets, or for colours also what `ColorText` reads (hex, names, hsv/hsl).
    static func value(_ text: String, part: String, input: InputDescriptor, shape: Shape, count: Int) throws -> FilterValue {
        func failed(_ reason: String) -> FilterExplorerError { FilterExplorerError("\(part) \"\(text)\": \(reason)") }
        let defaults = defaultNumbers(input)
        do {
            switch shape {
            case .number:
                let result = try NumberExpression.evaluate(text, default: defaults.first)
                if result.usedDegrees && input.type != .angle {
                    throw failed("\(input.key) is not an angle: ° and deg apply to angle inputs only")
                }
                return .number(result.value)
            case .color where text.hasPrefix("#"):
                guard let color = ColorText.parse(text) else { throw failed("a colour is #rrggbb or #rrggbbaa") }
                return .color(color)
            case .color where ColorText.parse(text) != nil:
                return .color(ColorText.parse(text)!)
            case .vector, .color, .transform:
                let numbers = try NumberExpression.evaluateList(text, defaults: defaults)
                let allowed = shape == .color ? [3, 4] : [count]
                guard allowed.contains(numbers.count) else {
                    let wanted = shape == .color ? "3 or 4 numbers (r g b [a]) or #rrggbb" : "\(count) numbers"
                    throw failed("\(input.key) takes \(wanted), not \(numbers.count)")
                }
                switch shape {
                case .color: return .color(Color(numbers))
                case .transform: return .transform(AffineTransform(numbers))
                default: return .vector(numbers)
                }
            }
        } catch let failure as NumberExpression.Failure {
            throw failed(failure.reason)
        }
    }
}

// MARK: Sensible other ends

extension LiveAnimation {
    /// What `a` animates an input to from `current` over the default duration: a slider to the end of its range
    /// farther from the value; a point to its mirror through the source's centre (an offset to its opposite); a
    /// rectangle to half its size around its centre; a colour to its complement (white from mid-grey); a
    /// transform to itself turned 45° about the source's centre; another vector to its default, or to twice
    /// itself when at its default. Nil for inputs that do not animate.
    public static func defaultAnimation(for input: InputDescriptor, kind: ControlKind, current: FilterValue,
                                        source: Rect) -> LiveAnimation? {
        guard let (shape, numbers) = components(current) else { return nil }
        let key = input.key
        func to(_ value: FilterValue) -> LiveAnimation? {
            LiveAnimation(key: key, from: current, to: value, isInteger: input.isInteger)
        }
        switch (kind, shape) {
        case (.slider(let spec), .number):
            let n = numbers[0]
            let target = n - spec.lower < spec.upper - n ? spec.upper : spec.lower
            return to(.number(target != n ? target : (n == spec.upper ? spec.lower : spec.upper)))
        case (.point(offset: false), .vector) where numbers.count == 2:
            let mirrored = [2 * source.midX - numbers[0], 2 * source.midY - numbers[1]].map { $0.rounded() }
            let apart = abs(mirrored[0] - numbers[0]) + abs(mirrored[1] - numbers[1]) >= 2
            return to(.vector(apart ? mirrored : [(numbers[0] + source.width / 4).rounded(), numbers[1]]))
        case (.point(offset: true), .vector) where numbers.count == 2:
            let opposite = numbers.map { -$0 }
            return to(.vector(opposite != numbers ? opposite : [(source.width / 8).rounded(), 0]))
        case (.rectangle, .vector) where numbers.count == 4:
            let (x, y, w, h) = (numbers[0], numbers[1], numbers[2], numbers[3])
            return to(.vector([x + w / 4, y + h / 4, w / 2, h / 2].map { $0.rounded() }))
        case (.color, .color):
            let rgb = Array(numbers.prefix(3)), alpha = numbers.count > 3 ? numbers[3] : 1
            let complement = rgb.map { 1 - $0 }
            let far = zip(rgb, complement).map { abs($0 - $1) }.max() ?? 0
            return to(.color(Color(far >= 0.25 ? complement + [alpha] : [1, 1, 1, alpha])))
        case (.transform, .transform):
            let (cx, cy) = (source.midX, source.midY)
            let turn = AffineTransform.translation(x: -cx, y: -cy).concatenating(.rotation(.pi / 4))
                .concatenating(.translation(x: cx, y: cy))
            return to(.transform(AffineTransform(numbers).concatenating(turn)))
        case (.readOnly, _), (.toggle, _), (.choice, _), (.text, _), (.image, _), (.colorCube, _), (.colorCurves, _),
             (.colorSpace, _):
            return nil
        default:
            // Other vectors (weights, colour-matrix rows, 3-D positions, tone-curve points).
            let defaults: [Double]? = defaultNumbers(input)
            if let defaults, !defaults.isEmpty, defaults.count == numbers.count, defaults != numbers, shape != .number {
                return to(make(defaults, shape: shape))
            }
            return to(make(numbers.map { $0 == 0 ? 1 : 2 * $0 }, shape: shape))
        }
    }

    /// The catalogue default's numbers (empty when it has none).
    static func defaultNumbers(_ input: InputDescriptor) -> [Double] {
        switch input.defaultValue {
        case .number(let n)?: [n]
        case .vector(let v)?: v
        default: []
        }
    }

    static func make(_ numbers: [Double], shape: Shape) -> FilterValue {
        switch shape {
        case .number: .number(numbers[0])
        case .vector: .vector(numbers)
        case .color: .color(Color(numbers))
        case .transform: .transform(AffineTransform(numbers))
        }
    }
}
