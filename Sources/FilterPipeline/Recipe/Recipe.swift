import FilterEngine
import Foundation

/// A render recipe: the one format of `render --recipe`, `animate --recipe`, `Looks/*.json`, the command line's
/// filter words, and the explorer's exports. In JSON it is a list of steps,
/// `[{"filter": NAME, "id": ID, "inputs": {KEY: VALUE}}]`, or an object that also says what to render it on and
/// which rectangle to write, `{"input": PATH, "crop": [x, y, width, height], "steps": [...]}` (what the explorer
/// writes, so that the recipe alone reproduces its export). Each step's inputImage is the previous step's output
/// (the first step's: the input image); an image input may take an earlier step's output, `{"image": ID}`, or the
/// input image, `{"image": "input"}`. A step with `"bypass": true` is skipped: its output is the image its
/// inputImage would get (the previous step's output, or the image it names), and its id names that image.
public struct Recipe: Equatable, Sendable {
    /// The image the first step gets (the command line's `-i` replaces it).
    public var input: String?
    /// The rectangle written (bottom-left origin); nil: the output's extent (the command line's `--crop` replaces it).
    public var crop: Rect?
    public var steps: [Step]

    public init(input: String? = nil, crop: Rect? = nil, steps: [Step]) {
        (self.input, self.crop, self.steps) = (input, crop, steps)
    }

    public struct Step: Equatable, Sendable {
        public var filter: String
        /// The name later steps use for this step's output.
        public var id: String?
        /// Skipped when rendering: the step passes its inputImage through (written `"bypass": true`).
        public var bypass: Bool
        public var inputs: [Input]

        public init(filter: String, id: String? = nil, bypass: Bool = false, inputs: [Input] = []) {
            (self.filter, self.id, self.bypass, self.inputs) = (filter, id, bypass, inputs)
        }
    }

    public struct Input: Equatable, Sendable {
        public var key: String
        public var value: Value

        public init(_ key: String, _ value: Value) { (self.key, self.value) = (key, value) }
    }

    /// A value as the recipe holds it. JSON numbers and lists of numbers become filter values directly (typed by
    /// the input: a colour, a transform, a vector); text (a JSON string, a command-line word) is read by
    /// `ValueParser` (a path for images and tables, `#rrggbb`, a message). Either way `Filter.setValue` validates.
    public enum Value: Equatable, Sendable {
        case number(Double)
        case numbers([Double])
        case text(String)
        /// An earlier step's output, by its id, or the input image ("input").
        case image(String)
    }

    /// The id that names the input image in `{"image": "input"}`.
    public static let inputID = "input"

    // MARK: Reading

    /// The largest recipe file read (32 MiB: a chain of several hundred thousand steps); a larger one is
    /// refused before it is parsed, whose tree of values takes many times the file's size.
    public static let maximumFileBytes = 32 << 20
    /// The most steps a recipe may have: each is a filter object and an image to plan.
    public static let maximumSteps = 1 << 18

    /// Reads a recipe file; every problem is one line naming the file, the step and the key.
    public static func load(_ path: String) throws -> Recipe {
        let data: Data
        do { data = try RegularFile.read(path, maximumBytes: maximumFileBytes) } catch let error as ImageFileError {
            throw FilterError("\(error.path): \(error.message) (a recipe file is at most \(maximumFileBytes >> 20) MiB)")
        } catch {
            throw FilterError("\(error)")
        }
        return try parse(data, source: path)
    }

    public static func parse(_ data: Data, source: String) throws -> Recipe {
        func fail(_ text: String) -> FilterError { FilterError("\(source): \(text)") }
        guard data.count <= maximumFileBytes else {
            throw fail("the recipe is \(data.count) bytes, over the limit of \(maximumFileBytes) (32 MiB)")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch {
            throw fail("not valid JSON (a recipe is a list of steps, or {\"input\": PATH, \"crop\": [x, y, w, h], \"steps\": [...]})")
        }
        var recipe = Recipe(steps: [])
        let stepList: [JSONValue]
        switch json {
        case .array(let items):
            stepList = items
        case .object(let fields, _):
            for key in fields.keys.sorted() where !["input", "crop", "steps"].contains(key) {
                throw fail("unknown field \"\(key)\" (a recipe object has \"input\", \"crop\" and \"steps\")")
            }
            guard case .array(let items)? = fields["steps"] else { throw fail("\"steps\" must be a list of steps") }
            stepList = items
            switch fields["input"] {
            case nil: break
            case .string(let path)?: recipe.input = path
            case let other?: throw fail("\"input\" is the input image's path, not \(other.kindName)")
            }
            if let crop = fields["crop"] {
                let numbers: [Double] = if case .array(let items) = crop { items.compactMap(\.number) } else { [] }
                guard case .array(let items) = crop, items.count == 4, numbers.count == 4, numbers[2] > 0, numbers[3] > 0 else {
                    throw fail("\"crop\" is [x, y, width, height] with a positive width and height")
                }
                recipe.crop = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            }
        default:
            throw fail("a recipe is a list of steps, or an object with \"steps\", not \(json.kindName)")
        }
        guard stepList.count <= maximumSteps else {
            throw fail("the recipe has \(stepList.count) steps, over the limit of \(maximumSteps)")
        }
        recipe.steps = try stepList.enumerated().map { index, entry in
            let place = "step \(index + 1)"
            guard case .object(let fields, _) = entry else { throw fail("\(place) is \(entry.kindName), not {\"filter\": NAME, ...}") }
            for key in fields.keys.sorted() where !["filter", "id", "bypass", "inputs"].contains(key) {
                throw fail("\(place): unknown field \"\(key)\" (a step has \"filter\", \"id\", \"bypass\" and \"inputs\")")
            }
            guard case .string(let name)? = fields["filter"], !name.isEmpty else { throw fail("\(place) has no \"filter\" name") }
            var step = Step(filter: name)
            if let id = fields["id"] {
                guard case .string(let id) = id, !id.isEmpty else { throw fail("\(place) (\(name)): an id is a non-empty string") }
                step.id = id
            }
            switch fields["bypass"] {
            case nil: break
            case .bool(let bypass)?: step.bypass = bypass
            case let other?: throw fail("\(place) (\(name)): \"bypass\" is true or false, not \(other.kindName)")
            }
            switch fields["inputs"] {
            case nil: break
            case .object(let values, _)?:
                for key in values.keys.sorted() {
                    guard let value = Value(json: values[key]!) else {
                        throw fail("\(name).\(key): \(values[key]!.kindName) is not a value (a number, a list of numbers, "
                            + "a boolean, a string, or {\"image\": ID})")
                    }
                    step.inputs.append(Input(key, value))
                }
            case let other?: throw fail("\(place) (\(name)): \"inputs\" is an object of KEY: VALUE, not \(other.kindName)")
            }
            return step
        }
        try recipe.checkReferences()
        return recipe
    }

    /// The command line's filter words, `NAME KEY=VALUE ... NAME KEY=VALUE`: a word without "=" starts a step.
    public static func steps(commandLine words: [String]) throws -> [Step] {
        var steps: [Step] = []
        for word in words {
            if let equals = word.firstIndex(of: "=") {
                guard !steps.isEmpty else { throw FilterError("\(word): name a filter before its inputs") }
                steps[steps.count - 1].inputs.append(Input(String(word[..<equals]), .text(String(word[word.index(after: equals)...]))))
            } else {
                steps.append(Step(filter: word))
            }
        }
        return steps
    }

    /// Every image reference names an earlier step or the input; ids are unique.
    public func checkReferences() throws {
        var ids: Set<String> = []
        for step in steps {
            for input in step.inputs {
                guard case .image(let source) = input.value, source != Self.inputID, !ids.contains(source) else { continue }
                throw FilterError("\(step.filter).\(input.key) takes the image \"\(source)\", but no earlier step has that id")
            }
            if let id = step.id {
                guard id != Self.inputID, ids.insert(id).inserted else {
                    throw FilterError("the step id \"\(id)\" is used twice (or is \"\(Self.inputID)\")")
                }
            }
        }
    }

    // MARK: Rendering

    /// The rectangle to write: `crop`, else the image's extent, else (an infinite output such as grain over a
    /// photo) the input image's extent.
    public static func outputRect(crop: Rect?, image: Image, input: Image?) throws -> Rect {
        if let crop { return crop }
        if !image.extent.isInfinite { return image.extent }
        if let input, !input.extent.isInfinite { return input.extent }
        throw FilterError("the output is infinite (a generator or a clamp): give --crop x,y,width,height")
    }

    // MARK: Writing

    /// The recipe as JSON: always the object form, one step a line.
    public var json: String {
        var fields: [String] = []
        if let input { fields.append("  \"input\": " + Self.quoted(input)) }
        if let crop { fields.append("  \"crop\": " + Self.list([crop.x, crop.y, crop.width, crop.height])) }
        let lines = steps.map { step -> String in
            var parts = ["\"filter\": " + Self.quoted(step.filter)]
            if let id = step.id { parts.append("\"id\": " + Self.quoted(id)) }
            if step.bypass { parts.append("\"bypass\": true") }
            if !step.inputs.isEmpty {
                parts.append("\"inputs\": {" + step.inputs.map { Self.quoted($0.key) + ": " + $0.value.json }.joined(separator: ", ") + "}")
            }
            return "    {" + parts.joined(separator: ", ") + "}"
        }
        fields.append("  \"steps\": [\n" + lines.joined(separator: ",\n") + "\n  ]")
        return "{\n" + fields.joined(separator: ",\n") + "\n}\n"
    }

    /// The words of a `cifiltertest render` command that renders this recipe into `output`, or nil when the
    /// command line cannot say it (a step's output used by a later step: only a recipe file names steps).
    public func commandArguments(output: String) -> [String]? {
        var words = ["cifiltertest", "render"]
        // A bypassed step changes nothing, so the command leaves it out (unless it names its own inputImage).
        guard steps.contains(where: { !$0.bypass }) else { return nil }
        for step in steps {
            guard step.id == nil else { return nil }
            if step.bypass {
                if step.inputs.contains(where: { $0.key == "inputImage" }) { return nil }
                continue
            }
            words.append(step.filter)
            for input in step.inputs {
                let text: String
                switch input.value {
                case .image(Self.inputID):
                    guard let input = self.input else { return nil }
                    text = input
                case .image: return nil
                default: text = input.value.commandText
                }
                words.append(input.key + "=" + text)
            }
        }
        if let input { words += ["-i", input] }
        // An option with a negative number after it is read as its value (`render --crop` is parsed unconditionally).
        if let crop { words += ["--crop", [crop.x, crop.y, crop.width, crop.height].map(Self.exact).joined(separator: ",")] }
        return words + ["-o", output]
    }

    /// A number written the shortest way that reads back as the same Double (whole numbers without ".0").
    public static func exact(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    static func list(_ numbers: [Double]) -> String { "[" + numbers.map(exact).joined(separator: ", ") + "]" }

    static func quoted(_ text: String) -> String { JSONValue.quoted(text) }
}

extension Recipe.Value {
    /// A JSON value as a recipe value: numbers and booleans (NSNumber's rule: true is 1) stay numbers.
    init?(json: JSONValue) {
        switch json {
        case .number(let n): self = .number(n)
        case .bool(let b): self = .number(b ? 1 : 0)
        case .string(let s): self = .text(s)
        case .array(let items):
            let numbers = items.compactMap(\.number)
            guard numbers.count == items.count else { return nil }
            self = .numbers(numbers)
        case .object(let fields, _):
            guard fields.count == 1, case .string(let id)? = fields["image"] else { return nil }
            self = .image(id)
        case .null:
            return nil
        }
    }

    /// A filter's value as a recipe holds it; nil for images (a recipe names them by path or step).
    public init?(_ value: FilterValue) {
        switch value {
        case .number(let n): self = .number(n)
        case .vector(let v): self = .numbers(v)
        case .color(let c): self = .numbers(c.components)
        case .transform(let t): self = .numbers(t.values)
        case .string(let s): self = .text(s)
        case .data(let d): self = .text(String(decoding: d, as: UTF8.self))
        case .barcode(let b): self = .text(b.description)
        case .image: return nil
        }
    }

    /// The filter value for `input`. Lists become the input's kind when their length fits it (a colour of 3
    /// or 4, a transform of 6), else a vector, which `Filter.setValue` refuses for a colour or transform with
    /// a message naming what it expects.
    public func filterValue(for input: InputDescriptor, filter: String) throws -> FilterValue {
        switch self {
        case .number(let n): return .number(n)
        case .numbers(let v):
            switch input.valueClass {
            case .color where (3...4).contains(v.count): return .color(Color(v))
            case .transform where v.count == 6: return .transform(AffineTransform(v))
            default: return .vector(v)
            }
        case .text(let text): return try ValueParser.parse(text, for: input, filter: filter)
        case .image(let id): throw FilterError("\(filter).\(input.key): the image \"\(id)\" is an image, not a value")
        }
    }

    /// The value as a command line's KEY=VALUE text (read back by `ValueParser` to the same value).
    public var commandText: String {
        switch self {
        case .number(let n): Recipe.exact(n)
        case .numbers(let v): "[" + v.map(Recipe.exact).joined(separator: " ") + "]"
        case .text(let s): s
        case .image(let id): id
        }
    }

    var json: String {
        switch self {
        case .number(let n): Recipe.exact(n)
        case .numbers(let v): Recipe.list(v)
        case .text(let s): Recipe.quoted(s)
        case .image(let id): "{\"image\": " + Recipe.quoted(id) + "}"
        }
    }
}

extension JSONValue {
    var number: Double? { if case .number(let n) = self { n } else { nil } }
}
