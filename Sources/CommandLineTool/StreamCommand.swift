import ArgumentParser
import FilterEngine
import FilterPipeline
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public struct StreamCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Filter a YUV4MPEG2 (Y4M) video stream through a chain or recipe: Y4M in, Y4M out.",
        // As render's: each paragraph one line (`\` continues it), wrapped by ArgumentParser; examples under 80 columns.
        discussion: """
        Reads 8-bit Y4M (C420jpeg, C420, C420mpeg2, C420paldv, C422, C444, Cmono) from standard input or -i FILE, \
        converts each frame from Y'CbCr to the engine's linear working space (chroma upsampled bilinearly at its \
        siting), renders the chain (given as for `render`) over the frame and writes Y4M in the same layout, \
        matrix and range to standard output or -o FILE. Rate, interlacing and pixel aspect are carried through.

        Colour: Y4M has no matrix tag; BT.709 is used for HD frames (1280 wide or 720 high and up), BT.601 \
        otherwise. XCOLORRANGE=FULL|LIMITED gives the range (video range when absent). --matrix and --range \
        override what the input is read as; --output-matrix, --output-range and --output-chroma change the output.

        Frames pass through bounded queues (--queue, 4 frames) between a reader, the renderer and a writer \
        thread, so memory stays flat however long the stream. When the renderer falls behind, the reader waits \
        (no frame lost: right for files) or with --drop drops the newest input frames (right for live sources). \
        A summary goes to standard error: frames in, out and dropped, and frames per second.

          ffmpeg -i in.mp4 -f yuv4mpegpipe - \\
              | cifiltertest stream --recipe Looks/vintage-film.json | ffplay -
          cifiltertest stream HistogramEqualization < in.y4m > out.y4m
          cifiltertest stream --bench --recipe Looks/vintage-film.json   # fps, 1080p
        """
    )

    @OptionGroup var chainOptions: ChainOptions


    @Option(name: .shortAndLong, help: "The Y4M input file, or - for standard input.")
    var input = "-"

    @Option(name: .shortAndLong, help: "The Y4M output file, or - for standard output.")
    var output = "-"

    @Option(help: "Read the input as BT.601 or BT.709 Y'CbCr (601 or 709; default: 709 for HD, 601 below).")
    var matrix: String?

    @Option(help: "Read the input as video (16–235) or full (0–255) range (default: its XCOLORRANGE tag, else video).")
    var range: String?

    @Option(help: "Write the output in this matrix (601 or 709; default: the input's).")
    var outputMatrix: String?

    @Option(help: "Write the output in this range (video or full; default: the input's).")
    var outputRange: String?

    @Option(help: "Write the output with this chroma layout (420jpeg, 420mpeg2, 420paldv, 420, 422, 444, mono; default: the input's).")
    var outputChroma: String?

    @Flag(help: "Drop input frames while the render queue is full (live sources); default: wait, losing none.")
    var drop = false

    @Option(help: "Frames each queue holds (reader → renderer → writer).")
    var queue = 4



    @OptionGroup(title: "Render budget") var budget: RenderBudgetOptions

    @Option(help: ArgumentHelp("Render threads (default: every core).", valueName: "n"))
    var threads: Int?

    @Flag(help: "Measure frames per second on a synthetic stream held in memory (no input or output).")
    var bench = false

    @Option(help: "With --bench: the number of frames.")
    var frames = 300

    @Option(help: "With --bench: the frame size, 1080p, 720p or 4k.")
    var size = "1080p"

    public func run() throws {
        do {
            guard (1...64).contains(queue) else { throw ValidationError("--queue must be in 1…64") }
            if let threads, threads < 1 { throw ValidationError("--threads must be positive") }
            let chain = try makeChain()
            let readMatrix = try Self.matrix(matrix, "--matrix"), readRange = try Self.range(range, "--range")
            let source: any Y4MFrameSource
            if bench {
                guard (1...100_000).contains(frames) else { throw ValidationError("--frames must be in 1…100000") }
                let (w, h) = switch size.lowercased() {
                case "1080p": (1920, 1080)
                case "720p": (1280, 720)
                case "4k": (3840, 2160)
                default: throw ValidationError("--size is 1080p, 720p or 4k")
                }
                source = SyntheticY4MFrames(format: Y4MFormat(width: w, height: h, matrix: readMatrix, fullRange: readRange ?? false), count: frames)
            } else {
                source = try Y4MReader(path: input, matrix: readMatrix, fullRange: readRange, maximumPixels: maximumPixels)
            }
            let inFormat = source.format
            let frameRect = Rect(x: 0, y: 0, width: Double(inFormat.width), height: Double(inFormat.height))
            let rect = chain.crop ?? frameRect
            let area = PixelRect(covering: rect)
            guard !area.isEmpty else {
                throw RenderCommand.emptyFrames(rect)
            }
            guard area.area <= maximumPixels else {
                throw CommandError(message: "the output frames (\(area.width)×\(area.height)) exceed the limit of \(maximumPixels) pixels (--max-pixels)")
            }
            var outFormat = inFormat
            (outFormat.width, outFormat.height) = (area.width, area.height)
            if let m = try Self.matrix(outputMatrix, "--output-matrix") { outFormat.matrix = m }
            if let r = try Self.range(outputRange, "--output-range") { outFormat.fullRange = r }
            if let outputChroma {
                guard let chroma = Y4MFormat.Chroma(rawValue: outputChroma.lowercased().replacingOccurrences(of: "c", with: "", options: .anchored)) else {
                    throw ValidationError("--output-chroma is one of \(Y4MFormat.Chroma.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                outFormat.chroma = chroma
            }
            let context = RenderContext(options: budget.renderOptions(threads: threads))
            let writer = try Y4MWriter(path: bench ? nil : output, format: outFormat, context: context)
            // Frame-sized byte buffers (the decoded and the rendered 8-bit frame: 33 MB at 4K) are freed and
            // allocated again every frame. glibc would map and unmap them each time, and every page of the new
            // mapping faults on first touch; kept in the heap, the next frame's buffer reuses it. (The engine's
            // float intermediates are kept by its own `StoragePool`.)
            Self.keepLargeBuffersInTheHeap()
            let capacity = Y4MFormat.queueCapacity(queue, input: inFormat, outputPixels: area.area)
            let pipeline = StreamPipeline(source: source, writer: writer, capacity: capacity, dropWhenFull: drop)
            let decoder = Y4MDecoder(format: inFormat)
            let summary = pipeline.run { frame, bytes in
                let image = try chain.makeImage(input: decoder.image(frame))
                try context.renderRGBA8(image, rect: rect, into: bytes)
            }
            var line = "stream: \(summary.framesIn) frames in, \(summary.framesOut) out, \(summary.dropped) dropped, "
                + String(format: "%.1f fps (%.2f s)", summary.seconds > 0 ? Double(summary.framesOut) / summary.seconds : 0, summary.seconds)
                + "; \(inFormat.summary)"
            if outFormat != inFormat { line += " → \(outFormat.summary)" }
            if bench { line += "; \(context.options.threads) render threads" }
            Diagnostics.printError(line)
            if let error = summary.error {
                // The frames written before the error stay: the output is a shorter stream, not nothing.
                if summary.framesOut > 0 { try? writer.finish() }
                throw error
            }
            try writer.finish()
        } catch let error as ValidationError {
            throw error
        } catch {
            throw CommandError(message: "\(error)")
        }
    }

    /// glibc's mallopt (not in its Swift module): M_MMAP_THRESHOLD (-3) 512 MiB, M_TRIM_THRESHOLD (-1) 1 GiB.
    static func keepLargeBuffersInTheHeap() {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-3, 512 << 20)
        _ = mallopt(-1, 1 << 30)
        #endif
    }

    var maximumPixels: Int {
        budget.decodeOptions.maximumPixels
    }

    func makeChain() throws -> RenderChain {
        // No filter: the frames pass through unchanged (a format conversion with --output-…).
        try chainOptions.makeChain(allowsNoStep: true)
    }

    static func matrix(_ text: String?, _ flag: String) throws -> Y4MFormat.Matrix? {
        guard let text else { return nil }
        guard let matrix = Y4MFormat.Matrix(rawValue: text.lowercased().replacingOccurrences(of: "bt.", with: "").replacingOccurrences(of: "bt", with: "")) else {
            throw ValidationError("\(flag) is 601 or 709, not \(text)")
        }
        return matrix
    }

    static func range(_ text: String?, _ flag: String) throws -> Bool? {
        switch text?.lowercased() {
        case nil: return nil
        case "video", "limited", "tv": return false
        case "full", "pc", "jpeg": return true
        default: throw ValidationError("\(flag) is video or full, not \(text!)")
        }
    }
}

// MARK: Sources

/// The benchmark's stream: a photo-like frame (`BenchCases.testImage`) encoded once, copied into each frame as a
/// reader would fill it.
final class SyntheticY4MFrames: Y4MFrameSource, @unchecked Sendable {
    let format: Y4MFormat
    private let count: Int
    private var index = 0
    private let planes: [UInt8]

    init(format: Y4MFormat, count: Int) {
        self.format = format
        self.count = count
        let image = BenchCases.testImage(width: format.width, height: format.height)
        let rgba = (try? RenderContext().renderRGBA8(image, rect: image.extent).bytes) ?? []
        var encoder = Y4MEncoder(format: format)
        var planes = [UInt8](repeating: 0, count: format.frameBytes)
        rgba.withUnsafeBufferPointer { source in
            planes.withUnsafeMutableBufferPointer { encoder.encode(source.baseAddress!, into: $0.baseAddress!) }
        }
        self.planes = planes
    }

    func next(reusing: Y4MFrame?) throws -> Y4MFrame? {
        guard index < count else { return nil }
        let frame = reusing ?? Y4MFrame(format: format)
        frame.index = index
        planes.withUnsafeBufferPointer { frame.bytes.update(from: $0.baseAddress!, count: $0.count) }
        index += 1
        return frame
    }
}
