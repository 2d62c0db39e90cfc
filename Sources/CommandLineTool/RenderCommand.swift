import ArgumentParser
import Foundation
import FilterEngine
import FilterPipeline

public struct RenderCommand: ParsableCommand, Sendable {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a filter (or a chain of filters) to a PNG or JPEG file.",
        // Each paragraph is one line here (`\` continues it): ArgumentParser wraps the text to the terminal's width
        // (COLUMNS, else 80 columns when the output is not a terminal); the examples keep their lines, each under
        // 80 columns.
        discussion: """
        Each filter name may be followed by KEY=VALUE inputs; several names form a chain, each filter's output \
        becoming the next one's inputImage. Values are typed by the catalogue: numbers (0.5, true), vectors \
        ("[x y]", "x,y"), colours ("r g b a" in 0…1, #rrggbb[aa], red, "hsv(0,1,1)", "hsl(0,100%,50%)"), rectangles ("[x y w h]"), transforms \
        ("[a b c d tx ty]"), strings, and file paths for image inputs. Data inputs take text, an Adobe .cube file \
        for colour cube tables (give its size as inputCubeDimension too), or a .f32 file of raw little-endian \
        float32 values (CIColorCurves' RGB triples).

          cifiltertest render CISepiaTone inputIntensity=0.8 -i photo.png -o sepia.png
          cifiltertest render CIGaussianBlur inputRadius=4 \\
              CIVignette inputIntensity=1.2 -i in.jpg -o out.jpg
          cifiltertest render CICheckerboardGenerator inputWidth=40 \\
              --crop -200,-150,400,300 -o board.png
          cifiltertest render --recipe look.json -i in.png -o out.png
          cifiltertest render CIColorCube inputCubeData=look.cube \\
              inputCubeDimension=33 -i in.png -o out.png

        A recipe file is a JSON list of steps: [{"filter": "CISepiaTone", "inputs": {"inputIntensity": 0.8}}]. \
        Each step's inputImage is the previous step's output. A step may have an "id", and an image input may \
        name an earlier step's output, {"image": "ID"}, or the input file, {"image": "input"}: a small graph, such \
        as grain from CIRandomGenerator multiplied over the photo (see Looks/vintage-film.json). A step with \
        "bypass": true is skipped (its output is its inputImage). A recipe may \
        also be an object, {"input": "photo.png", "crop": [x, y, width, height], "steps": [...]}, that names its \
        input image and the rectangle to write (the explorer's export writes one beside the image); -i and \
        --crop replace them.

        Several -i (or a quoted pattern) render a batch: every file through the same chain into the directory \
        -o, names kept (extension from --format or the input's), one file per core, existing outputs left alone \
        unless --overwrite (so a batch run again resumes where it stopped); per-file errors are reported and the \
        batch goes on (exit status 1 if any failed). --shard I/N renders the I-th of N disjoint parts of the sorted \
        inputs, for N machines or scheduler tasks sharing one batch.

          cifiltertest render --recipe Looks/warm-fade.json -i 'photos/*.jpg' -o out/
          cifiltertest render --recipe look.json -i 'photos/*.jpg' -o out/ --shard 2/8
        """
    )

    @OptionGroup var chainOptions: ChainOptions

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

    // The index may come from the environment (auto/N), so the value is parsed again in run() to report errors.
    @Option(parsing: .unconditional, help: ArgumentHelp("Render only part I of N of a batch's sorted inputs (0 ≤ I < N); auto/N reads I from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID.", valueName: "I/N"))
    var shard: String?



    @Flag(name: .customLong("16bit"), help: "Write a 16-bit linear PNG instead of 8-bit sRGB.")
    var sixteenBit = false

    @Option(help: "JPEG quality, 1–100.")
    var quality = 92

    @Flag(help: "Render colour filters on 8-bit pictures in floating point throughout (default: per-channel, affine and luminance colour chains by tables, within one level).")
    var exact = false

    /// The budget's options, with colour tables unless `--exact`.
    func renderOptions(threads: Int? = nil) -> RenderContext.Options {
        var options = budget.renderOptions(threads: threads)
        options.colorTables = !exact
        return options
    }


    @OptionGroup(title: "Render budget") var budget: RenderBudgetOptions

    public func run() throws {
        do {
            guard (1...100).contains(quality) else { throw ValidationError("--quality must be in 1…100") }
            let format = try format.map { text in
                guard let format = ImageFile.Format(path: "x." + text) else { throw ValidationError("--format is png or jpeg, not \(text)") }
                return format
            }
            if let batch = try BatchRender(command: self, format: format) {
                try batch.run()
                return
            }
            let chain = try makeChain()
            let source: Image? = try chain.inputs(input).first.map { try loadInput($0) }
            let image = try chain.makeImage(input: source)
            let rect = try chain.outputRect(image: image, input: source)
            try ImageFile.write(image, to: output, rect: rect, format: format, sixteenBit: sixteenBit, quality: quality,
                                context: RenderContext(options: renderOptions()))
        } catch let error as ValidationError {
            throw error
        } catch {
            // A render problem (a bad value, a missing file): its message alone, without the usage text.
            throw CommandError(message: "\(error)")
        }
    }


    func loadInput(_ path: String) throws -> Image {
        let loaded = try ImageFile.load(path, options: budget.decodeOptions)
        for warning in loaded.properties.warnings { Diagnostics.warn("\(path): \(warning)") }
        return loaded.image
    }

    func makeChain() throws -> RenderChain {
        try chainOptions.makeChain()
    }


    /// Frames whose rectangle covers no whole pixel (a crop far outside the coordinates images may have).
    static func emptyFrames(_ rect: Rect) -> CommandError {
        let place = [rect.x, rect.y, rect.width, rect.height].map(formatNumber).joined(separator: ",")
        return CommandError(message: "the frames are empty: the rectangle \(place) covers no pixel "
            + "(a --crop lies within ±\(1 << 28) and has a positive size)")
    }

}

/// An error shown as its message alone (exit status 1).
public struct CommandError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
