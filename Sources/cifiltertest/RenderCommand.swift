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
        """
    )

    @Argument(help: "Filter names, each followed by its KEY=VALUE inputs.")
    var steps: [String] = []

    @Option(name: .shortAndLong, help: "The input image (inputImage of the first filter).")
    var input: String?

    @Option(name: .shortAndLong, help: "The output file (.png, .jpg or .jpeg).")
    var output: String

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
            let image = try makeImage()
            let rect: Rect
            if let crop {
                guard let n = ValueParser.numbers(in: crop), n.count == 4, n[2] > 0, n[3] > 0 else {
                    throw ValidationError("--crop needs x,y,width,height with a positive width and height")
                }
                rect = Rect(x: n[0], y: n[1], width: n[2], height: n[3])
            } else {
                guard !image.extent.isInfinite else {
                    throw ValidationError("the output is infinite (a generator or a clamp): give --crop x,y,width,height")
                }
                rect = image.extent
            }
            guard (1...100).contains(quality) else { throw ValidationError("--quality must be in 1…100") }
            for (name, limit) in [("--max-pixels", maxPixels), ("--max-memory", maxMemory)] {
                if let limit, !(limit >= 1 && limit < 1e18) { throw ValidationError("\(name) needs a positive number") }
            }
            let options = RenderContext.Options(maxPixels: maxPixels.map { Int($0) }, maxBytes: maxMemory.map { Int($0) })
            try ImageFile.write(image, to: output, rect: rect, sixteenBit: sixteenBit, quality: quality,
                                context: RenderContext(options: options))
        } catch let error as ValidationError {
            throw error
        } catch {
            // A render problem (a bad value, a missing file): its message alone, without the usage text.
            throw CommandError(message: "\(error)")
        }
    }

    /// `--max-pixels` also bounds the pixels an input file may declare (as the environment variable does).
    var decodeOptions: ImageFile.DecodeOptions {
        guard let maxPixels, maxPixels >= 1, maxPixels < 1e18 else { return .init() }
        return .init(maximumPixels: Int(maxPixels))
    }

    func makeImage() throws -> Image {
        var chain = try RenderStep.parse(steps)
        if let recipe { chain = try RenderStep.load(recipe: recipe) + chain }
        guard !chain.isEmpty else { throw ValidationError("name a filter to render (see `cifiltertest list`)") }
        var version = CoreImageVersion.current
        if let coreImageVersion {
            guard let parsed = CoreImageVersion(parsing: coreImageVersion) else {
                throw ValidationError("--core-image-version takes an iOS version such as 12 or 8.1, not \"\(coreImageVersion)\"")
            }
            version = parsed
        }
        var current: Image? = try input.map { path in
            let loaded = try ImageFile.load(path, options: decodeOptions)
            for warning in loaded.properties.warnings { Diagnostics.warn("\(path): \(warning)") }
            return loaded.image
        }
        for step in chain {
            let filter = try Filter(named: step.filter)
            filter.coreImageVersion = version
            if let current, filter.descriptor.input("inputImage") != nil {
                try filter.setValue(.image(current), forKey: "inputImage")
            }
            for (key, text) in step.inputs {
                guard let descriptor = filter.descriptor.input(key) else {
                    throw FilterError("\(filter.name) has no input \(key); its inputs are \(filter.inputKeys.joined(separator: ", "))")
                }
                try filter.setValue(try ValueParser.parse(text, for: descriptor, filter: filter.name), forKey: key)
            }
            current = try filter.makeOutputImage()
        }
        return current!
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
        let usage = "\(path): a recipe is a JSON list of {\"filter\": NAME, \"inputs\": {KEY: VALUE}}"
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
            var inputs: [(String, String)] = []
            if case .object(let values, _)? = fields["inputs"] {
                for key in values.keys.sorted() {
                    guard let value = text(values[key]!) else { throw ValidationError("\(path): \(name).\(key) has a value that is not a number, list of numbers, boolean or string") }
                    inputs.append((key, value))
                }
            }
            return RenderStep(filter: name, inputs: inputs)
        }
    }
}
