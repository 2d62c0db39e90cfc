import ArgumentParser
import Foundation
import FilterEngine

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a filter (or a chain of filters) to a PNG or JPEG file.",
        discussion: """
        Each filter name may be followed by KEY=VALUE inputs; several names form a chain, each filter's output
        becoming the next one's inputImage. Values are typed by the catalogue: numbers (0.5, true), vectors
        ("[x y]", "x,y"), colours ("r g b a" in 0…1 or #rrggbb[aa]), rectangles ("[x y w h]"), transforms
        ("[a b c d tx ty]"), strings, and file paths for image inputs. Data inputs take text, an Adobe .cube file
        for colour cube tables (give its size as inputCubeDimension too), or a .f32 file of raw little-endian
        float32 values (CIColorCurves' RGB triples).

          cifiltertest render CISepiaTone inputIntensity=0.8 -i photo.png -o sepia.png
          cifiltertest render CIGaussianBlur inputRadius=4 CIVignette inputIntensity=1.2 -i in.jpg -o out.jpg
          cifiltertest render CICheckerboardGenerator inputWidth=40 --crop 0,0,400,300 -o board.png
          cifiltertest render --recipe look.json -i in.png -o out.png
          cifiltertest render CIColorCube inputCubeData=look.cube inputCubeDimension=33 -i in.png -o out.png

        A recipe file is a JSON list of steps: [{"filter": "CISepiaTone", "inputs": {"inputIntensity": 0.8}}].
        Each step's inputImage is the previous step's output. A step may have an "id", and an image input may name
        an earlier step's output, {"image": "ID"}, or the input file, {"image": "input"}: a small graph, such as
        grain from CIRandomGenerator multiplied over the photo (see Looks/vintage-film.json).

        Several -i (or a quoted pattern) render a batch: every file through the same chain into the directory -o,
        names kept (extension from --format or the input's), one file per core, existing outputs left alone
        unless --overwrite; per-file errors are reported and the batch goes on (exit status 1 if any failed).

          cifiltertest render --recipe Looks/warm-fade.json -i 'photos/*.jpg' -o out/
        """
    )

    @Argument(help: "Filter names, each followed by its KEY=VALUE inputs.")
    var steps: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "The input image (inputImage of the first filter). Repeat it, or quote a pattern ('photos/*.jpg'), to render many files into the directory -o names.",
        valueName: "file or pattern"))
    var input: [String] = []

    @Option(name: .shortAndLong, help: "The output file (.png, .jpg or .jpeg), or a directory for a batch.")
    var output: String

    @Option(help: "The output format (png or jpeg); default: the output's extension (in a batch: each input's).")
    var format: String?

    @Flag(help: "In a batch, replace output files that exist (default: leave them and report them).")
    var overwrite = false

    @Option(help: ArgumentHelp("Files a batch renders at once (default: one per core).", valueName: "n"))
    var jobs: Int?

    @Option(help: "The rectangle to write, x,y,width,height (bottom-left origin); required for infinite outputs.")
    var crop: String?

    @Option(help: "A JSON recipe file with the steps of a chain.")
    var recipe: String?

    @Flag(name: .customLong("16bit"), help: "Write a 16-bit linear PNG instead of 8-bit sRGB.")
    var sixteenBit = false

    @Option(help: "JPEG quality, 1–100.")
    var quality = 92

    @Option(name: .customLong("core-image-version"), help: ArgumentHelp(
        "Reproduce an older Core Image, named by the iOS version that shipped it (12, 8.1); default: the current one.",
        valueName: "N"))
    var coreImageVersion: String?

    @Option(help: ArgumentHelp("The most pixels the output or any intermediate image may cover (default 268435456 = 2^28, or CIFILTERTEST_MAX_PIXELS).", valueName: "n"))
    var maxPixels: Double?

    @Option(help: ArgumentHelp("The most bytes the intermediate images of the render may take together (default 8 GiB, or CIFILTERTEST_MAX_BYTES).", valueName: "bytes"))
    var maxMemory: Double?

    func run() throws {
        do {
            guard (1...100).contains(quality) else { throw ValidationError("--quality must be in 1…100") }
            for (name, limit) in [("--max-pixels", maxPixels), ("--max-memory", maxMemory)] {
                if let limit, !(limit >= 1 && limit < 1e18) { throw ValidationError("\(name) needs a positive number") }
            }
            let format = try format.map { text in
                guard let format = ImageFile.Format(path: "x." + text) else { throw ValidationError("--format is png or jpeg, not \(text)") }
                return format
            }
            if let batch = try BatchRender(command: self, format: format) {
                try batch.run()
                return
            }
            let chain = try makeChain()
            let source: Image? = try input.first.map { try loadInput($0) }
            let image = try chain.makeImage(input: source)
            let rect = try Self.outputRect(crop: crop, image: image, input: source)
            try ImageFile.write(image, to: output, rect: rect, format: format, sixteenBit: sixteenBit, quality: quality,
                                context: RenderContext(options: renderOptions(threads: nil)))
        } catch let error as ValidationError {
            throw error
        } catch {
            // A render problem (a bad value, a missing file): its message alone, without the usage text.
            throw CommandError(message: "\(error)")
        }
    }

    func renderOptions(threads: Int?) -> RenderContext.Options {
        RenderContext.Options(threads: threads ?? ProcessInfo.processInfo.activeProcessorCount,
                              maxPixels: maxPixels.map { Int($0) }, maxBytes: maxMemory.map { Int($0) })
    }

    /// `--max-pixels` also bounds the pixels an input file may declare (as the environment variable does).
    var decodeOptions: ImageFile.DecodeOptions {
        guard let maxPixels, maxPixels >= 1, maxPixels < 1e18 else { return .init() }
        return .init(maximumPixels: Int(maxPixels))
    }

    func loadInput(_ path: String) throws -> Image {
        let loaded = try ImageFile.load(path, options: decodeOptions)
        for warning in loaded.properties.warnings { Diagnostics.warn("\(path): \(warning)") }
        return loaded.image
    }

    /// The steps of the command line after those of the recipe, under the Core Image version asked for.
    func makeChain() throws -> RenderChain {
        var steps = try RenderStep.parse(self.steps)
        if let recipe { steps = try RenderStep.load(recipe: recipe) + steps }
        guard !steps.isEmpty else { throw ValidationError("name a filter to render (see `cifiltertest list`)") }
        return try RenderChain(steps: steps, version: try Self.version(coreImageVersion))
    }

    static func version(_ text: String?) throws -> CoreImageVersion {
        guard let text else { return .current }
        guard let parsed = CoreImageVersion(parsing: text) else {
            throw ValidationError("--core-image-version takes an iOS version such as 12 or 8.1, not \"\(text)\"")
        }
        return parsed
    }

    /// The rectangle to write: `--crop`, else the image's extent, else (an infinite output such as grain over a
    /// photo) the input image's extent.
    static func outputRect(crop: String?, image: Image, input: Image?) throws -> Rect {
        if let crop {
            guard let n = ValueParser.numbers(in: crop), n.count == 4, n[2] > 0, n[3] > 0 else {
                throw ValidationError("--crop needs x,y,width,height with a positive width and height")
            }
            return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
        }
        if !image.extent.isInfinite { return image.extent }
        if let input, !input.extent.isInfinite { return input.extent }
        throw ValidationError("the output is infinite (a generator or a clamp): give --crop x,y,width,height")
    }
}

/// An error shown as its message alone (exit status 1).
struct CommandError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// One filter of a chain with its inputs as text.
struct RenderStep {
    var filter: String
    var inputs: [(String, String)]
    /// The name later steps use for this step's output (recipes only).
    var id: String? = nil
    /// Image inputs taken from an earlier step's output (by its id) or from the input file ("input").
    var references: [(key: String, source: String)] = []

    /// `NAME k=v k=v NAME k=v`: a word without "=" starts a new step.
    static func parse(_ words: [String]) throws -> [RenderStep] {
        var steps: [RenderStep] = []
        for word in words {
            if let equals = word.firstIndex(of: "=") {
                guard !steps.isEmpty else { throw ValidationError("\(word): name a filter before its inputs") }
                steps[steps.count - 1].inputs.append((String(word[..<equals]), String(word[word.index(after: equals)...])))
            } else {
                steps.append(RenderStep(filter: word, inputs: []))
            }
        }
        return steps
    }

    static func load(recipe path: String) throws -> [RenderStep] {
        let usage = "\(path): a recipe is a JSON list of {\"filter\": NAME, \"id\": NAME (optional), \"inputs\": {KEY: VALUE or {\"image\": ID}}}"
        let data: Data
        do { data = try RegularFile.read(path) } catch { throw ValidationError("\(error)") }
        guard case .array(let entries)? = try? JSONValue.parse(data) else { throw ValidationError(usage) }
        func text(_ value: JSONValue) -> String? {
            switch value {
            case .number(let n): formatNumber(n)
            case .bool(let b): b ? "1" : "0"
            case .string(let s): s
            case .array(let items):
                items.allSatisfy({ if case .number = $0 { true } else { false } }) ? items.compactMap(text).joined(separator: " ") : nil
            default: nil
            }
        }
        return try entries.map { entry in
            guard case .object(let fields, _) = entry, case .string(let name)? = fields["filter"] else { throw ValidationError(usage) }
            var step = RenderStep(filter: name, inputs: [])
            if let id = fields["id"] {
                guard case .string(let id) = id, !id.isEmpty else { throw ValidationError("\(path): \(name): an id is a non-empty string") }
                step.id = id
            }
            if case .object(let values, _)? = fields["inputs"] {
                for key in values.keys.sorted() {
                    if case .object(let reference, _)? = values[key] {
                        guard reference.count == 1, case .string(let source)? = reference["image"] else {
                            throw ValidationError("\(path): \(name).\(key): an object value is {\"image\": ID}, ID an earlier step's id or \"input\"")
                        }
                        step.references.append((key, source))
                        continue
                    }
                    guard let value = text(values[key]!) else { throw ValidationError("\(path): \(name).\(key) has a value that is not a number, list of numbers, boolean or string") }
                    step.inputs.append((key, value))
                }
            }
            return step
        }
    }
}

/// A chain of steps ready to build images: each step's filter gets the previous output as its inputImage, its
/// text inputs, and the images its references name.
struct RenderChain {
    let steps: [RenderStep]
    let version: CoreImageVersion

    init(steps: [RenderStep], version: CoreImageVersion) throws {
        var ids: Set<String> = []
        for step in steps {
            for reference in step.references where reference.source != "input" && !ids.contains(reference.source) {
                throw ValidationError("\(step.filter).\(reference.key) takes the image \"\(reference.source)\", but no earlier step has that id")
            }
            if let id = step.id {
                guard id != "input", ids.insert(id).inserted else { throw ValidationError("the step id \"\(id)\" is used twice (or is \"input\")") }
            }
        }
        self.steps = steps
        self.version = version
    }

    /// `overrides` replaces inputs of some steps (by index): an animation's values for one frame.
    func makeImage(input: Image?, overrides: [Int: [(key: String, value: FilterValue)]] = [:]) throws -> Image {
        var outputs: [String: Image] = [:]
        if let input { outputs["input"] = input }
        var current = input
        for (index, step) in steps.enumerated() {
            let filter = try makeFilter(step)
            if let current, filter.descriptor.input("inputImage") != nil {
                try filter.setValue(.image(current), forKey: "inputImage")
            }
            for (key, text) in step.inputs {
                try filter.setValue(try ValueParser.parse(text, for: try descriptor(key, of: filter), filter: filter.name), forKey: key)
            }
            for (key, source) in step.references {
                _ = try descriptor(key, of: filter)
                guard let image = outputs[source] else { throw FilterError("\(filter.name).\(key) takes the input image, but none was given (-i)") }
                try filter.setValue(.image(image), forKey: key)
            }
            for (key, value) in overrides[index] ?? [] { try filter.setValue(value, forKey: key) }
            let output = try filter.makeOutputImage()
            if let id = step.id { outputs[id] = output }
            current = output
        }
        return current!
    }

    func makeFilter(_ step: RenderStep) throws -> Filter {
        let filter = try Filter(named: step.filter)
        filter.coreImageVersion = version
        return filter
    }

    func descriptor(_ key: String, of filter: Filter) throws -> InputDescriptor {
        guard let descriptor = filter.descriptor.input(key) else {
            throw FilterError("\(filter.name) has no input \(key); its inputs are \(filter.inputKeys.joined(separator: ", "))")
        }
        return descriptor
    }
}
