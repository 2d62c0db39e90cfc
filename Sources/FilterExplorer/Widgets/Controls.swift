import FilterEngine
import Foundation

// Foundation has its own AffineTransform; the explorer always means the engine's.
typealias AffineTransform = FilterEngine.AffineTransform

/// What kind of control an input gets: the identity of its widget (`InputWidget.kind`), which tests and the
/// session compare. The behaviour lives in the widgets (`Widgets/*Widget.swift`).
public enum ControlKind: Equatable, Sendable {
    case slider(SliderSpec)
    case toggle
    /// A fixed set of values (`ExplorerHints.choices`), picked from a list.
    case choice([Choice])
    case color
    /// A position moved on the preview; `offset` inputs are drawn relative to the image centre.
    case point(offset: Bool)
    case rectangle
    /// Other vectors (3-D positions, weights, colour-matrix rows), edited as text.
    case vector
    case text
    /// An image chooser; the role decides what it offers first (pictures, gradients, palettes).
    case image(ImageRole)
    case transform
    /// A colour cube table (CIColorCube's family): ← → step through the looks, Enter reads a .cube file.
    case colorCube
    /// CIColorCurves' table: ← → step through generated curves.
    case colorCurves
    /// A named colour space: ← → step through sRGB, linear, Display P3.
    case colorSpace
    /// One of CIToneCurve's five points (`index` 0…4), edited together in the curve editor.
    case curvePoint(index: Int)
    /// An input the explorer cannot edit, with the reason shown beside it.
    case readOnly(String)
    /// A widget with no case of its own here (a new kind needs none), by name.
    case other(String)

    /// Whether ← → step through a list of choices.
    public var isChooser: Bool {
        switch self {
        case .image, .colorCube, .colorCurves, .colorSpace, .choice: true
        default: false
        }
    }
}

/// One value of an input with a fixed set of them, and how the picker shows it.
public struct Choice: Equatable, Sendable {
    public enum Value: Equatable, Sendable {
        case number(Double)
        case string(String)
    }
    public let value: Value
    public let label: String

    public init(_ value: Value, _ label: String) {
        self.value = value
        self.label = label
    }

    public var filterValue: FilterValue {
        switch value {
        case .number(let n): .number(n)
        case .string(let s): .string(s)
        }
    }

    /// Whether `value` is this choice.
    public func matches(_ value: FilterValue?) -> Bool {
        switch (self.value, value) {
        case (.number(let a), .number(let b)?): a == b
        case (.string(let a), .string(let b)?): a == b
        default: false
        }
    }
}

/// Maps an input to its control: `widget(for:filter:)` (in `InputWidget.swift`) is the factory; `kind` is
/// the widget's identity.
public enum ControlFactory {
    /// `filter` is the input's filter, for the few inputs whose meaning depends on it.
    public static func kind(for input: InputDescriptor, filter: String? = nil) -> ControlKind {
        widget(for: input, filter: filter).kind
    }
}

/// A slider's range and steps. The range is the catalogue's slider range clamped to the legal range. Like Core
/// Image, which treats both ranges as hints, a typed value outside either is kept; arrow keys and clicks never
/// push a value beyond them (from a value already outside, stepping stays on that side of it).
public struct SliderSpec: Equatable, Sendable {
    public let lower: Double
    public let upper: Double
    public let legalLower: Double?
    public let legalUpper: Double?
    public let isInteger: Bool
    public let isAngle: Bool

    public init(lower: Double, upper: Double, legalLower: Double? = nil, legalUpper: Double? = nil,
                isInteger: Bool = false, isAngle: Bool = false) {
        var lo = lower, hi = upper
        if let legalLower { lo = max(lo, legalLower); hi = max(hi, legalLower) }
        if let legalUpper { hi = min(hi, legalUpper); lo = min(lo, legalUpper) }
        if !(hi > lo) {
            // A degenerate range: give the slider room on the side the legal range allows.
            let room = max(1, abs(lo))
            if let legalUpper, lo + room > legalUpper { lo = max(legalLower ?? -.infinity, legalUpper - room); hi = legalUpper }
            else { hi = lo + room }
        }
        (self.lower, self.upper, self.legalLower, self.legalUpper) = (lo, hi, legalLower, legalUpper)
        (self.isInteger, self.isAngle) = (isInteger, isAngle)
    }

    public init(_ input: InputDescriptor) {
        let defaultNumber: Double? = if case .number(let n)? = input.defaultValue { n } else { nil }
        let lower = input.sliderMinimum ?? input.minimum ?? min(0, (defaultNumber ?? 0) * 2)
        let upper = input.sliderMaximum ?? input.maximum ?? max(1, (defaultNumber ?? 0) * 2)
        self.init(lower: lower, upper: upper, legalLower: input.minimum, legalUpper: input.maximum,
                  isInteger: input.isInteger, isAngle: input.type == .angle)
    }

    /// A hundredth of the range (whole numbers: 1).
    public var fineStep: Double { isInteger ? 1 : Self.niceStep((upper - lower) / 100) }
    /// A tenth of the range.
    public var coarseStep: Double { isInteger ? max(1, ((upper - lower) / 10).rounded()) : Self.niceStep((upper - lower) / 10) }

    /// `value` moved by `steps` fine or coarse steps, kept within the slider range (or the value itself when it
    /// already lies outside) and the legal range.
    public func stepped(_ value: Double, by steps: Int, coarse: Bool = false) -> Double {
        let step = coarse ? coarseStep : fineStep
        var next = value + Double(steps) * step
        next = min(max(next, min(lower, value)), max(upper, value))
        if isInteger { next = next.rounded() }
        next = Self.tidy(next)
        // Within the legal range widened to the current value: a typed 1.2 above a maximum of 1 may step down.
        if let legalLower { next = max(next, min(legalLower, value)) }
        if let legalUpper { next = min(next, max(legalUpper, value)) }
        return next
    }

    public func clampedToLegal(_ value: Double) -> Double {
        var v = value
        if let legalLower { v = max(v, legalLower) }
        if let legalUpper { v = min(v, legalUpper) }
        return v
    }

    /// Where `value` sits on the slider, 0…1.
    public func fraction(of value: Double) -> Double {
        min(1, max(0, (value - lower) / (upper - lower)))
    }

    /// The value at a fraction of the slider (a mouse click on the bar).
    public func value(atFraction fraction: Double) -> Double {
        let raw = lower + min(1, max(0, fraction)) * (upper - lower)
        let step = fineStep
        return clampedToLegal(Self.tidy(isInteger ? raw.rounded() : (raw / step).rounded() * step))
    }

    /// 1, 2 or 5 times a power of ten, at most `raw`: steps that print as short numbers.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, (log10(raw)).rounded(.down))
        for m in [5.0, 2.0, 1.0] where m * power <= raw * 1.000001 { return m * power }
        return power
    }

    /// Drops floating-point dust from repeated steps (0.30000000000000004 → 0.3).
    static func tidy(_ value: Double) -> Double {
        Double(String(format: "%.10g", value)) ?? value
    }
}

/// Steps a colour component (0…1; typed values may go beyond, stepping keeps within 0…1).
public enum ColorStepper {
    public static let componentNames = ["r", "g", "b", "a"]

    public static func stepped(_ color: Color, component: Int, by steps: Int, coarse: Bool) -> Color {
        var parts = color.components
        let step = coarse ? 0.1 : 0.01
        parts[component] = SliderSpec.tidy(min(1, max(0, parts[component] + Double(steps) * step)))
        return Color(parts)
    }

    /// "#rrggbbaa" of a colour's 0…1 components (clamped).
    public static func hex(_ color: Color) -> String {
        "#" + color.components.map { String(format: "%02x", Int((min(1, max(0, $0)) * 255).rounded())) }.joined()
    }
}

/// Moves points and rectangles in image coordinates by a fraction of the image.
public enum GeometryStepper {
    /// A point moved by (dx, dy) steps of 1% of `bounds` (10% when coarse).
    public static func moved(_ point: [Double], dx: Int, dy: Int, coarse: Bool, bounds: Rect) -> [Double] {
        let fraction = coarse ? 0.1 : 0.01
        let sx = max(1, (bounds.width * fraction).rounded()), sy = max(1, (bounds.height * fraction).rounded())
        var p = point + [Double](repeating: 0, count: max(0, 2 - point.count))
        p[0] = SliderSpec.tidy(p[0] + Double(dx) * sx)
        p[1] = SliderSpec.tidy(p[1] + Double(dy) * sy)
        return p
    }

    /// A rectangle [x y w h] moved, or resized from its top-right corner (the size never below 1).
    public static func rectangle(_ rect: [Double], dx: Int, dy: Int, coarse: Bool, resize: Bool, bounds: Rect) -> [Double] {
        guard rect.count == 4 else { return rect }
        if !resize {
            let origin = moved([rect[0], rect[1]], dx: dx, dy: dy, coarse: coarse, bounds: bounds)
            return [origin[0], origin[1], rect[2], rect[3]]
        }
        let size = moved([rect[2], rect[3]], dx: dx, dy: dy, coarse: coarse, bounds: bounds)
        return [rect[0], rect[1], max(1, size[0]), max(1, size[1])]
    }
}

/// The affine transform editor's four handles, each changing the matrix by one step.
public enum TransformHandle: Int, CaseIterable, Sendable {
    case rotate, scale, translateX, translateY

    public var label: String {
        switch self {
        case .rotate: "rotate"
        case .scale: "scale"
        case .translateX: "move x"
        case .translateY: "move y"
        }
    }

    /// `transform` followed by one step of this handle (rotation 1°/15°, scale ×1.01/×1.1, move 1/10 px).
    public func applied(to transform: FilterEngine.AffineTransform, steps: Int, coarse: Bool) -> FilterEngine.AffineTransform {
        let n = Double(steps)
        let step: AffineTransform = switch self {
        case .rotate: .rotation(n * (coarse ? 15 : 1) * .pi / 180)
        case .scale: .scale(x: pow(coarse ? 1.1 : 1.01, n), y: pow(coarse ? 1.1 : 1.01, n))
        case .translateX: .translation(x: n * (coarse ? 10 : 1), y: 0)
        case .translateY: .translation(x: 0, y: n * (coarse ? 10 : 1))
        }
        let t = transform.concatenating(step)
        return AffineTransform(t.values.map(SliderSpec.tidy))
    }
}

/// Text and geometry shared by the control rows and their tests.
public enum ControlDisplay {
    /// A slider's knob column in a bar of `width` cells.
    public static func knobColumn(fraction: Double, width: Int) -> Int {
        guard width > 1 else { return 0 }
        return Int((min(1, max(0, fraction)) * Double(width - 1)).rounded())
    }

    /// The fraction a click at `column` of a bar of `width` cells stands for.
    public static func fraction(column: Int, width: Int) -> Double {
        guard width > 1 else { return 0 }
        return min(1, max(0, Double(column) / Double(width - 1)))
    }

    /// A value as a control row shows it; angles also in degrees.
    public static func text(_ value: FilterValue?, kind: ControlKind) -> String {
        if value == nil, case .colorSpace = kind { return ColorSpaceChoice.unsetLabel }
        guard let value else { return "(not set)" }
        switch (kind, value) {
        case (.toggle, .number(let n)): return n != 0 ? "[x] on" : "[ ] off"
        case (.slider(let spec), .number(let n)) where spec.isAngle:
            return formatNumber(n) + String(format: " (%.1f°)", n * 180 / .pi)
        case (.slider, .number(let n)): return formatNumber(n)
        case (.color, .color(let c)):
            return ColorStepper.hex(c) + "  " + zip(ColorStepper.componentNames, c.components)
                .map { "\($0) \(String(format: "%.2f", $1))" }.joined(separator: " ")
        case (.rectangle, .vector(let v)) where v.count == 4 && Rect(x: v[0], y: v[1], width: v[2], height: v[3]).isInfinite:
            // Core Image's infinite rectangle, whose numbers (-8.98847e+307 …) say nothing.
            return "infinite"
        case (.point, .vector(let v)), (.rectangle, .vector(let v)), (.vector, .vector(let v)), (.curvePoint, .vector(let v)):
            return "[" + v.map(formatNumber).joined(separator: " ") + "]"
        case (.text, .string(let s)): return "\"\(s)\""
        case (.colorSpace, .string(let s)): return s
        case (.text, .data(let d)): return "\"\(String(decoding: d, as: UTF8.self))\""
        default: return value.description
        }
    }
}
