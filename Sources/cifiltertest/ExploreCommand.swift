import ArgumentParser
import FilterEngine
import FilterPipeline
import CommandLineTool
import FilterExplorer
import FilterPipeline
import Foundation

struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Browse the filters and tweak their inputs with a live preview (the default command).",
        discussion: """
            Opens the terminal explorer on IMAGE, or on the bundled sample image (found in SampleImages beside \
            the executable or in the current directory's tree, or in $CIFILTERTEST_SAMPLES). Press ? inside for \
            every key. The last filter and edited values are kept in $XDG_STATE_HOME/cifiltertest/state.json.

            --video PATH makes a YUV4MPEG2 stream the source instead of an image: a .y4m file, played at its \
            frame rate and looping at its end, or - for standard input (ffmpeg -i in.mp4 -f yuv4mpegpipe - | \
            cifiltertest explore --video -), shown as fast as it arrives and kept on its last frame at its end. \
            The current filter is applied to every frame with its inputs live; when the preview is slower than \
            the video, frames are dropped (the status line counts them and gives the frame rate shown). v \
            pauses and resumes. Keys are read from the terminal (/dev/tty) when standard input is the video.

            a animates the selected input (A types FROM → TO over SECONDS s [linear|ease-in-out]); e during an \
            animation also gives the cifiltertest animate command that plays it.

            --bench measures keypress-to-preview latency over the implemented filters without a terminal: the \
            render, chafa's cells and the escape sequences the preview writes (to /dev/null), in a terminal of \
            --size cells (truecolor unless --colors 256), and the first frame's time from opening the image.
            """)

    @Argument(help: ArgumentHelp("A PNG or JPEG to explore.", valueName: "image"))
    var image: String?

    @Option(help: ArgumentHelp("Start on this filter (a Core Image name); with --bench, only these (comma-separated).",
                               valueName: "name"))
    var filter: String?

    @Option(help: ArgumentHelp(
        "Colours: auto (as the terminal announces: NO_COLOR, COLORTERM, terminfo RGB/Tc, *-direct, its colour count), "
            + "or force truecolor, 256, 16, 8 or none.", valueName: "depth"))
    var colors = "auto"

    @Option(help: ArgumentHelp(
        "Preview pixels: auto (a graphics protocol the terminal offers, judged from TERM, TERM_PROGRAM, "
            + "KITTY_WINDOW_ID and chafa's terminal database; symbols inside tmux or screen), or force kitty, sixel, "
            + "iterm or symbols (character cells).", valueName: "protocol"))
    var graphics = "auto"

    @Option(help: ArgumentHelp(
        "Open a recipe (a JSON file as render --recipe reads, such as an export's): every step as an editable step of the chain, the last selected, "
            + "on its input image (IMAGE replaces it).", valueName: "file"))
    var recipe: String?

    @Option(help: ArgumentHelp(
        "A Y4M video as the source instead of an image: a file (played at its frame rate, looping) or - for standard input.",
        valueName: "path"))
    var video: String?

    @Flag(help: "Measure keypress-to-preview latency (median and 95th percentile) over the implemented filters.")
    var bench = false

    @Option(help: ArgumentHelp("Preview size for --bench, in terminal cells.", valueName: "COLSxROWS"))
    var size = "120x40"

    // For scripts/generate-docs: the help's key table as Markdown, the key section of docs/explorer.md.
    @Flag(help: .hidden)
    var printKeys = false

    func run() throws {
        if printKeys {
            print(Explorer.keyReference, terminator: "")
            return
        }
        if bench {
            let parts = size.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2 else { throw ValidationError("--size must look like 120x40") }
            // Without a terminal to ask, the bench assumes truecolor unless --colors says otherwise.
            let mode: ColorMode? = colors.lowercased() == "auto" ? .truecolor : ColorDepth.parse(colors)
            guard let mode, mode == .truecolor || mode == .indexed256 else {
                throw ValidationError("--bench measures the truecolor (default) or 256-colour preview: --colors truecolor or 256")
            }
            // Each name as `explore --filter` takes it (`sepia`), a typo failing with suggestions.
            let only = try filter.map { list in
                try list.split(separator: ",").map { try Listing.resolveFilter(String($0), in: FiltersList.shared.catalog).name }
            }
            try ExplorerBenchmark.run(imagePath: image, columns: parts[0], rows: parts[1], only: only, mode: mode)
            return
        }
        // A name as `info` takes it (any case, without CI, a display name); an unknown one fails here, with
        // suggestions, before the terminal is taken over.
        let filterName = try filter.map { try Listing.resolveFilter($0, in: FiltersList.shared.catalog).name }
        let forced = colors.lowercased() == "auto" ? nil : ColorDepth.parse(colors)
        guard colors.lowercased() == "auto" || forced != nil else {
            throw ValidationError("--colors is auto, truecolor, 256, 16, 8 or none")
        }
        let forcedGraphics = graphics.lowercased() == "auto" ? nil : GraphicsProtocol.parse(graphics)
        guard graphics.lowercased() == "auto" || forcedGraphics != nil else {
            throw ValidationError("--graphics is auto, kitty, sixel, iterm or symbols")
        }
        let opened: Recipe?
        do { opened = try recipe.map(Recipe.load) } catch { throw CommandError(message: "\(error)") }
        if let opened, opened.steps.isEmpty { throw CommandError(message: "\(recipe ?? ""): the recipe has no steps") }
        if video != nil {
            if image != nil {
                throw ValidationError("--video and an image cannot go together: the video's frames are the source")
            }
            if video == "-", isatty(STDIN_FILENO) != 0 {
                throw ValidationError("--video - reads standard input, which is the terminal here: pipe a Y4M stream in "
                    + "(ffmpeg -i in.mp4 -f yuv4mpegpipe - | cifiltertest explore --video -)")
            }
        }
        do {
            let signal = try Explorer.run(ExplorerOptions(imagePath: image, filterName: filterName, colors: forced,
                                                          graphics: forcedGraphics, recipe: opened, videoPath: video))
            // Ended by a signal (the terminal is restored and the state saved by now): die of the same signal,
            // so the parent shell sees it (and stops a script on Ctrl-C) as with any other program.
            if signal != 0 {
                Foundation.signal(signal, SIG_DFL)
                raise(signal)
            }
        } catch let error as TerminalUnsupported {
            FileHandle.standardError.write(Data("cifiltertest explore: \(error.message)\n".utf8))
            throw ExitCode(2)
        } catch let error as ExportsLost {
            // q during an export: the explorer waited, and the export failed (or a second q abandoned it).
            for failure in error.failures { FileHandle.standardError.write(Data("cifiltertest explore: \(failure)\n".utf8)) }
            throw ExitCode(1)
        } catch let error as FilterExplorerError {
            throw ValidationError(error.message)
        } catch let error as FilterError where video != nil {
            // A video that is not usable Y4M (the reader's message names the file and the reason).
            throw CommandError(message: error.message)
        }
    }
}
