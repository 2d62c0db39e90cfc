import ArgumentParser
import FilterEngine
import FilterPipeline
import Foundation

/// What `render`, `animate` and `stream` render: a chain given by filter words or a recipe file, the rectangle
/// written and the Core Image version.
struct ChainOptions: ParsableArguments {
    @Argument(help: "Filter names, each followed by its KEY=VALUE inputs.")
    var steps: [String] = []

    @Option(help: ArgumentHelp(
        "A JSON recipe: a list of steps, or {\"input\": PATH, \"crop\": [x, y, w, h], \"steps\": [...]} (-i and --crop replace those).",
        valueName: "file"))
    var recipe: String?

    // Unconditional: a negative origin (--crop -600,-400,1200,800) is the option's value, not another option.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The rectangle to write (of each frame), x,y,width,height (bottom-left origin); default: the output's extent "
            + "(a stream's: the frame); required for infinite outputs.",
        valueName: "x,y,width,height"))
    var crop: String?

    @Option(name: .customLong("core-image-version"), help: ArgumentHelp(
        "Reproduce an older Core Image, named by the iOS version that shipped it (12, 8.1); default: the current one.",
        valueName: "N"))
    var coreImageVersion: String?

    /// `allowsNoStep`: an empty chain passes its input through (`stream` converting a format).
    func makeChain(allowsNoStep: Bool = false) throws -> RenderChain {
        try RenderChain(options: self, allowsNoStep: allowsNoStep)
    }

    static func version(_ text: String?) throws -> CoreImageVersion {
        guard let text else { return .current }
        guard let parsed = CoreImageVersion(parsing: text) else {
            throw ValidationError("--core-image-version takes an iOS version such as 12 or 8.1, not \"\(text)\"")
        }
        return parsed
    }

    /// `--crop x,y,width,height`, if given.
    static func cropRect(_ text: String?) throws -> Rect? {
        guard let text else { return nil }
        guard let n = ValueParser.numbers(in: text), n.count == 4, n.allSatisfy(\.isFinite), n[2] > 0, n[3] > 0 else {
            throw ValidationError("--crop needs x,y,width,height with a positive width and height, not \"\(text)\"")
        }
        return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
    }
}

/// The recipe a command renders: the steps of its --recipe file, then those of the command line, under the Core
/// Image version asked for. The recipe's input image and crop apply unless -i or --crop replace them.
struct RenderChain {
    let recipe: Recipe
    /// The recipe with its files read, once for every image and frame rendered.
    let resolved: ResolvedRecipe
    let version: CoreImageVersion

    /// `allowsNoStep`: an empty chain passes its input through (`stream` converting a format).
    /// --crop, else the recipe's.
    let crop: Rect?

    init(options: ChainOptions, allowsNoStep: Bool = false) throws {
        var recipe = try options.recipe.map(Recipe.load) ?? Recipe(steps: [])
        recipe.steps += try Recipe.steps(commandLine: options.steps)
        guard allowsNoStep || !recipe.steps.isEmpty else { throw ValidationError("name a filter to render (see `cifiltertest list`)") }
        self.recipe = recipe
        version = try ChainOptions.version(options.coreImageVersion)
        crop = try ChainOptions.cropRect(options.crop) ?? recipe.crop
        resolved = try recipe.resolve(version: version)
    }

    var steps: [Recipe.Step] { recipe.steps }

    /// `overrides` replaces inputs of some steps (by index): an animation's values for one frame.
    func makeImage(input: Image?, overrides: [Int: [(key: String, value: FilterValue)]] = [:]) throws -> Image {
        try resolved.image(input: input, overrides: overrides)
    }

    func makeFilter(_ step: Recipe.Step) throws -> Filter {
        let filter = try Filter(named: step.filter)
        filter.coreImageVersion = version
        return filter
    }

    /// The image files to render: -i's, else the recipe's input.
    func inputs(_ given: [String]) -> [String] {
        given.isEmpty ? recipe.input.map { [$0] } ?? [] : given
    }

    /// The rectangle to write: --crop, the recipe's crop, or the output's (or the input's) extent. An infinite
    /// output with none of these is a usage error (exit status 64, as for any missing option), not a render error.
    func outputRect(image: Image, input: Image?) throws -> Rect {
        if crop == nil, image.extent.isInfinite, input?.extent.isInfinite ?? true {
            throw ValidationError("the output is infinite (a generator or a clamp): give --crop x,y,width,height")
        }
        return try Recipe.outputRect(crop: crop, image: image, input: input)
    }
}
