import ArgumentParser
import FilterEngine
import FilterPipeline
import Foundation

/// The render budget's options, shared by `render`, `animate` and `stream`: how many pixels one render may cover,
/// how much memory its intermediates may take and how long it may last. The library has no time limit by default,
/// as Apple's contexts have none; the command line has one, so that a runaway render ends with a message.
struct RenderBudgetOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The most pixels the output, a frame or any intermediate image may cover, and an input may declare (default 268435456 = 2^28, or CIFILTERTEST_MAX_PIXELS).",
        valueName: "n"))
    var maxPixels: Double?

    @Option(help: ArgumentHelp(
        "The most bytes the intermediate images of one render may take together (default 8 GiB, or CIFILTERTEST_MAX_BYTES).",
        valueName: "bytes"))
    var maxMemory: Double?

    @Option(help: ArgumentHelp(
        "The most seconds one render (an image, or a frame) may take; 0 for no limit (default 600, or CIFILTERTEST_TIME_LIMIT).",
        valueName: "seconds"))
    var timeLimit: Double?

    static let defaultTimeLimit = 600.0

    func validate() throws {
        for (name, limit) in [("--max-pixels", maxPixels), ("--max-memory", maxMemory)] {
            if let limit, !(limit >= 1 && limit < 1e18) { throw ValidationError("\(name) needs a positive number") }
        }
        if let timeLimit, !(timeLimit >= 0 && timeLimit.isFinite) { throw ValidationError("--time-limit needs a number of seconds, 0 or more") }
    }

    /// The option, else `CIFILTERTEST_TIME_LIMIT`, else 600 s; 0 turns it off.
    var seconds: Double? {
        let limit = timeLimit ?? RenderContext.Options.environmentNumber("CIFILTERTEST_TIME_LIMIT") ?? Self.defaultTimeLimit
        return limit > 0 ? limit : nil
    }

    func renderOptions(threads: Int? = nil) -> RenderContext.Options {
        RenderContext.Options(threads: threads ?? ProcessInfo.processInfo.activeProcessorCount,
                              maxPixels: maxPixels.map { Int($0) }, maxBytes: maxMemory.map { Int($0) }, timeLimit: seconds)
    }

    /// `--max-pixels` also bounds the pixels an input file may declare (as the environment variable does).
    var decodeOptions: ImageFile.DecodeOptions {
        maxPixels.map { ImageFile.DecodeOptions(maximumPixels: Int($0)) } ?? .init()
    }
}
