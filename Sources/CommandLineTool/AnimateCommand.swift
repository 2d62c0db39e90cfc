import ArgumentParser
import FilterEngine
import FilterPipeline
import Foundation

public struct AnimateCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "animate",
        abstract: "Render a filter chain over frames while inputs move between two values: PNG frames, a GIF or Y4M video.",
        // As render's: one line per paragraph (`\` continues it), wrapped by ArgumentParser to the terminal.
        discussion: """
        The chain is given as for `render` (filter names with KEY=VALUE inputs, or --recipe). Each --animate \
        KEY=FROM:TO moves one numeric, vector or colour input from FROM (first frame) to TO (last frame). KEY is \
        an input key (the first step that has it), or STEP.KEY where STEP is a filter name, a recipe step's id or \
        a step number from 1.

        The output names the format: a directory (frame-0001.png …), a .gif file (the 6×7×6 colour cube with \
        8×8 ordered dithering, looping), or with --y4m a .y4m file or - for standard output (4:2:0 by default, \
        BT.601 video range).

        Apple's render-destination sample (a red and yellow checkerboard sliding 25 points a second, its hue \
        turning by one radian a second), 4 seconds at 25 frames a second:

          cifiltertest animate --recipe Looks/render-destination.json \\
              --animate 'inputCenter=[0 0]:[100 100]' --animate inputAngle=0:4 \\
              --frames 100 --fps 25 --crop 0,0,1024,768 -o checkerboard.gif
          cifiltertest animate CIGaussianBlur --animate inputRadius=0:20 \\
              --frames 30 -i photo.jpg -o frames/
          cifiltertest animate --recipe Looks/render-destination.json \\
              --animate inputAngle=0:6.283 --crop 0,0,640,480 --frames 250 \\
              --y4m -o - | ffplay -
        """
    )

    @OptionGroup var chainOptions: ChainOptions

    @Option(name: .shortAndLong, help: "The input image (inputImage of the first filter).")
    var input: String?

    @Option(name: .shortAndLong, help: "A directory (PNG frames), a .gif file, or with --y4m a .y4m file or - (stdout).")
    var output: String


    @Option(help: ArgumentHelp("An input to animate, KEY=FROM:TO (repeatable).", valueName: "KEY=FROM:TO"))
    var animate: [String] = []

    @Option(help: "The number of frames (the first at FROM, the last at TO).")
    var frames = 30

    @Option(help: "Frames per second (GIF delays are whole hundredths of a second).")
    var fps = 25

    @Option(help: "linear or ease-in-out (smoothstep).")
    var ease = "linear"

    @Flag(help: "Write a YUV4MPEG2 stream (to -o FILE.y4m, or - for standard output).")
    var y4m = false

    @Option(help: "Y4M chroma subsampling: 420 or 444.")
    var chroma = 420


    @Flag(help: "Replace existing output files.")
    var overwrite = false


    @OptionGroup(title: "Render budget") var budget: RenderBudgetOptions

    enum Destination { case pngFrames, gif, y4m }

    public func run() throws {
        do {
            guard (1...100_000).contains(frames) else { throw ValidationError("--frames must be in 1…100000") }
            guard (1...1000).contains(fps) else { throw ValidationError("--fps must be in 1…1000") }
            guard ["linear", "ease-in-out"].contains(ease) else { throw ValidationError("--ease is linear or ease-in-out") }
            guard chroma == 420 || chroma == 444 else { throw ValidationError("--chroma is 420 or 444") }
            let destination: Destination
            if y4m {
                destination = .y4m
            } else if output == "-" {
                throw ValidationError("standard output takes a Y4M stream: add --y4m")
            } else if output.lowercased().hasSuffix(".gif") {
                destination = .gif
            } else {
                destination = .pngFrames
            }
            let chain = try chainOptions.makeChain()
            guard !animate.isEmpty else { throw ValidationError("give at least one --animate KEY=FROM:TO") }
            let tracks = try animate.map { try AnimationTrack(parsing: $0, chain: chain) }
            let source: Image? = try (input ?? chain.recipe.input).map { path in
                try ImageFile.load(path, options: budget.decodeOptions).image
            }
            let context = RenderContext(options: budget.renderOptions())
            let first = try chain.makeImage(input: source, overrides: overrides(tracks, frame: 0))
            let rect = try chain.outputRect(image: first, input: source)
            let area = PixelRect(covering: rect)
            // The writers allocate their frame buffers before the first render checks the budget.
            guard !area.isEmpty else {
                throw RenderCommand.emptyFrames(rect)
            }
            guard area.area <= context.options.maxPixels else {
                throw CommandError(message: "the frames (\(area.width)×\(area.height)) exceed the render budget of \(context.options.maxPixels) pixels (--max-pixels)")
            }
            if destination != .y4m || output != "-" { try checkOutput(destination) }

            var sink: FrameSink
            switch destination {
            case .pngFrames: sink = PNGFrames(directory: output, frames: frames, context: context)
            case .gif: sink = try GIFWriter(path: output, width: area.width, height: area.height, fps: fps, context: context)
            case .y4m: sink = try Y4MWriter(path: output, width: area.width, height: area.height, fps: fps, chroma: chroma,
                                            context: context)
            }
            for frame in 0..<frames {
                let image = frame == 0 ? first : try chain.makeImage(input: source, overrides: overrides(tracks, frame: frame))
                try sink.add(image, rect: rect, index: frame)
            }
            try sink.finish()
        } catch let error as ValidationError {
            throw error
        } catch {
            throw CommandError(message: "\(error)")
        }
    }

    /// Where the animation is at `frame`: 0 at the first frame, 1 at the last, eased if asked.
    func progress(frame: Int) -> Double {
        let t = frames > 1 ? Double(frame) / Double(frames - 1) : 0
        return ease == "ease-in-out" ? t * t * (3 - 2 * t) : t
    }

    func overrides(_ tracks: [AnimationTrack], frame: Int) -> [Int: [(key: String, value: FilterValue)]] {
        var result: [Int: [(key: String, value: FilterValue)]] = [:]
        for track in tracks { result[track.step, default: []].append((track.key, track.value(at: progress(frame: frame)))) }
        return result
    }

    func checkOutput(_ destination: Destination) throws {
        let target = destination == .pngFrames ? PNGFrames.path(directory: output, index: 0, frames: frames) : output
        if !overwrite, FileManager.default.fileExists(atPath: target) {
            throw CommandError(message: "\(target) exists; not replaced (--overwrite replaces it)")
        }
        if destination == .pngFrames {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        }
    }
}

/// One input moving between two values: numbers, vectors, colours and transforms, component by component.
struct AnimationTrack {
    let step: Int
    let key: String
    let from: FilterValue
    let to: FilterValue

    /// `KEY=FROM:TO`, KEY being `inputKey` or `STEP.inputKey` (STEP: a filter name, a step id or a number from 1).
    init(parsing text: String, chain: RenderChain) throws {
        let usage = "--animate \(text): write KEY=FROM:TO, e.g. inputRadius=0:20 or 'inputCenter=[0 0]:[100 100]'"
        guard let equals = text.firstIndex(of: "=") else { throw ValidationError(usage) }
        let name = String(text[..<equals])
        let values = text[text.index(after: equals)...].split(separator: ":", omittingEmptySubsequences: false)
        guard values.count == 2 else { throw ValidationError(usage) }
        var stepName: String?, key = name
        if let dot = name.lastIndex(of: ".") {
            stepName = String(name[..<dot])
            key = String(name[name.index(after: dot)...])
        }
        var found: (Int, Filter, InputDescriptor)?
        for (index, step) in chain.steps.enumerated() {
            if let stepName, stepName != step.filter, stepName != step.id, stepName != String(index + 1) { continue }
            let filter = try chain.makeFilter(step)
            if let descriptor = filter.descriptor.input(key) { found = (index, filter, descriptor); break }
        }
        guard let (index, filter, descriptor) = found else {
            throw ValidationError("--animate \(text): no step of the chain has the input \(name)")
        }
        let from = try ValueParser.parse(String(values[0]), for: descriptor, filter: filter.name)
        let to = try ValueParser.parse(String(values[1]), for: descriptor, filter: filter.name)
        guard let a = Self.components(from), let b = Self.components(to), a.count == b.count else {
            throw ValidationError("--animate \(text): only numbers, vectors, colours and transforms of one size animate")
        }
        _ = (a, b)
        step = index
        self.key = key
        self.from = from
        self.to = to
    }

    static func components(_ value: FilterValue) -> [Double]? {
        switch value {
        case .number(let n): [n]
        case .vector(let v): v
        case .color(let c): c.components
        case .transform(let t): [t.a, t.b, t.c, t.d, t.tx, t.ty]
        default: nil
        }
    }

    func value(at t: Double) -> FilterValue {
        let a = Self.components(from)!, b = Self.components(to)!
        let mixed = zip(a, b).map { $0 + ($1 - $0) * t }
        switch from {
        case .number: return .number(mixed[0])
        case .color: return .color(Color(mixed))
        case .transform: return .transform(AffineTransform(mixed))
        default: return .vector(mixed)
        }
    }
}
