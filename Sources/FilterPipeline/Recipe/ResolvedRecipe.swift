import FilterEngine
import Foundation

/// A recipe with every value read: text parsed, files loaded (`Recipe.resolve`), names and keys checked. Making
/// its image touches no file, so a stream or an animation makes one per frame. The one place a chain of filters is
/// built: `render`, batches, `animate`, `stream`, the explorer's preview and its export all come here.
public struct ResolvedRecipe: @unchecked Sendable {
    public struct Step {
        public var filter: String
        /// The name later steps use for this step's output.
        public var id: String?
        public var bypass: Bool
        public var inputs: [(key: String, source: Source)]

        public init(filter: String, id: String? = nil, bypass: Bool = false, inputs: [(key: String, source: Source)] = []) {
            (self.filter, self.id, self.bypass, self.inputs) = (filter, id, bypass, inputs)
        }
    }

    public enum Source {
        case value(FilterValue)
        /// An earlier step's output, by its id, or the input image (`Recipe.inputID`).
        case image(String)
    }

    public var steps: [Step]
    public var version: CoreImageVersion

    public init(steps: [Step], version: CoreImageVersion = .current) {
        (self.steps, self.version) = (steps, version)
    }

    /// The chain's output on `input` (nil: none, for a chain that starts with a generator). `overrides` replaces
    /// inputs of some steps (by index): an animation's frame. Each step's inputImage is the previous step's output
    /// (the first's: `input`); a bypassed step is checked like any other and passes its inputImage on.
    public func image(input: Image?, overrides: [Int: [(key: String, value: FilterValue)]] = [:]) throws -> Image {
        try image(input: input, through: steps.count - 1, overrides: overrides)
    }

    /// The output of step `last` (from 0).
    public func image(input: Image?, through last: Int, overrides: [Int: [(key: String, value: FilterValue)]] = [:]) throws -> Image {
        guard steps.indices.contains(last) else {
            if steps.isEmpty, let input { return input }
            throw FilterError(steps.isEmpty ? "the recipe has no steps" : "the recipe has no step \(last + 1)")
        }
        var outputs: [String: Image] = [:]
        if let input { outputs[Recipe.inputID] = input }
        var current = input
        for (index, step) in steps[...last].enumerated() {
            let filter = try Filter(named: step.filter)
            filter.coreImageVersion = version
            if let current, filter.descriptor.input("inputImage") != nil {
                try filter.setValue(.image(current), forKey: "inputImage")
            }
            for (key, source) in step.inputs {
                switch source {
                case .value(let value):
                    try filter.setValue(value, forKey: key)
                case .image(let id):
                    guard let image = outputs[id] else {
                        throw FilterError(id == Recipe.inputID
                            ? "\(step.filter).\(key) takes the input image, but none was given (-i)"
                            : "\(step.filter).\(key) takes the image \"\(id)\", but no earlier step has that id")
                    }
                    try filter.setValue(.image(image), forKey: key)
                }
            }
            for (key, value) in overrides[index] ?? [] { try filter.setValue(value, forKey: key) }
            let output: Image
            if step.bypass {
                let passed: Image? = if case .image(let image)? = filter.value(forKey: "inputImage") { image } else { current }
                guard let passed else {
                    throw FilterError("step \(index + 1) (\(step.filter)) is bypassed, but there is no image for it to pass on")
                }
                output = passed
            } else {
                output = try filter.makeOutputImage()
            }
            if let id = step.id { outputs[id] = output }
            current = output
        }
        return current!
    }
}

extension Recipe {
    /// The recipe with every value read, each file once through `files`: a step's filter and keys are checked,
    /// text is parsed for its input (`ValueFiles.value`), numbers and lists are typed by the input.
    public func resolve(version: CoreImageVersion = .current, files: ValueFiles = ValueFiles()) throws -> ResolvedRecipe {
        try checkReferences()
        let resolved = try steps.map { step -> ResolvedRecipe.Step in
            let filter = try Filter(named: step.filter)
            var made = ResolvedRecipe.Step(filter: step.filter, id: step.id, bypass: step.bypass)
            for input in step.inputs {
                guard let descriptor = filter.descriptor.input(input.key) else {
                    throw FilterError("\(filter.name) has no input \(input.key); its inputs are \(filter.inputKeys.joined(separator: ", "))")
                }
                switch input.value {
                case .image(let id): made.inputs.append((input.key, .image(id)))
                case .text(let text): made.inputs.append((input.key, .value(try files.value(text, for: descriptor, filter: filter.name))))
                default: made.inputs.append((input.key, .value(try input.value.filterValue(for: descriptor, filter: filter.name))))
                }
            }
            return made
        }
        return ResolvedRecipe(steps: resolved, version: version)
    }

    /// The chain's output on `input`, resolved for this one use (`resolve`, then `ResolvedRecipe.image`).
    public func makeImage(input: Image?, version: CoreImageVersion = .current,
                          overrides: [Int: [(key: String, value: FilterValue)]] = [:]) throws -> Image {
        guard !steps.isEmpty else { throw FilterError("the recipe has no steps") }
        return try resolve(version: version).image(input: input, overrides: overrides)
    }
}
