import Foundation
import Testing
import FilterEngine
import FilterExplorer

/// The command line under hostile recipes, crops, limits and long animations (issue #30, and the option-flow
/// bugs of #28): one clear line each, no crash, no hang, bounded memory.
@Suite struct ReliabilityCommandLineTests {
    let cli = CommandLineTests()

    static func directory() throws -> URL { try RecipeCommandLineTests.directory() }
    static func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        try RecipeCommandLineTests.write(text, name, in: directory)
    }

    /// One line on standard error, no crash report.
    static func isOneClearLine(_ stderr: String) -> Bool {
        let lines = stderr.split(separator: "\n")
        return lines.count == 1 && lines[0].hasPrefix("Error: ") && lines[0].count < 600
    }

    @Test func aRecipeWhoseStepsReuseEarlierOutputsRendersQuickly() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var steps = [#"{"filter": "CIConstantColorGenerator", "id": "s0", "inputs": {"inputColor": [0.5, 0.2, 0.1, 1]}}"#]
        for i in 1...24 {
            steps.append(#"{"filter": "CIAdditionCompositing", "id": "s\#(i)", "inputs": {"inputImage": {"image": "s\#(i - 1)"}, "#
                + #""inputBackgroundImage": {"image": "s\#(i - 1)"}}}"#)
        }
        let recipe = try Self.write("[" + steps.joined(separator: ",\n") + "]", "fan.json", in: directory)
        let output = directory.appendingPathComponent("fan.png").path
        let start = Date()
        let result = try cli.run("render", "--recipe", recipe, "--crop", "0,0,16,16", "-o", output)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(start) < 20, "a tree of 2^24 evaluations a pixel took minutes")
    }

    @Test func aChainOf100000ColourStepsRendersOrSaysWhy() throws {
        try renders100000(#"{"filter": "CIExposureAdjust", "inputs": {"inputEV": 0}}"#, after: "")
    }

    /// 100,000 vignettes (kernels that scale colour, which the colour tables look under, one level a kernel):
    /// the render ends, as through 100,000 exposure steps.
    @Test func aChainOf100000VignettesRendersOrSaysWhy() throws {
        try renders100000(#"{"filter": "CIVignette", "inputs": {"inputIntensity": 0.001}}"#,
                          after: #"{"filter": "CICrop", "inputs": {"inputRectangle": [0, 0, 8, 8]}},"#)
    }

    /// `render` of a constant colour, then `after`, then 100,000 of `step`, over its 4 × 4 corner: a file comes out.
    private func renders100000(_ step: String, after: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = #"[{"filter": "CIConstantColorGenerator", "inputs": {"inputColor": [0.5, 0.2, 0.1, 1]}},"# + after
            + Array(repeating: step, count: 100_000).joined(separator: ",") + "]"
        let recipe = try Self.write(text, "chain.json", in: directory)
        let output = directory.appendingPathComponent("chain.png").path
        let result = try cli.run("render", "--recipe", recipe, "--crop", "0,0,4,4", "-o", output)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test func aRecipeOverTheSizeLimitIsRefusedWithOneLine() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let big = directory.appendingPathComponent("big.json").path
        FileManager.default.createFile(atPath: big, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: big))
        let chunk = Data(("[" + String(repeating: #"{"filter": "CISepiaTone"},"#, count: 40_000)).utf8)
        for _ in 0..<40 { handle.write(chunk) }
        try handle.close()
        let result = try cli.run("render", "--recipe", big, "--crop", "0,0,4,4", "-o", directory.appendingPathComponent("x.png").path)
        #expect(result.status != 0)
        #expect(Self.isOneClearLine(result.stderr) && result.stderr.contains("a recipe file is at most 32 MiB"), "\(result.stderr)")
    }

    @Test func aTenMegabyteFilterNameInARecipeIsRefusedQuickly() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recipe = try Self.write(#"[{"filter": "CI"# + String(repeating: "x", count: 10_000_000) + #""}]"#, "name.json", in: directory)
        let start = Date()
        let result = try cli.run("render", "--recipe", recipe, "--crop", "0,0,4,4", "-o", directory.appendingPathComponent("x.png").path)
        #expect(result.status != 0)
        #expect(Self.isOneClearLine(result.stderr) && result.stderr.contains("unknown filter"), "\(result.stderr.prefix(300))")
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func animateCropOutsideEveryImageSaysTheFramesAreEmpty() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try cli.run("animate", "CICheckerboardGenerator", "--animate", "inputWidth=10:20", "--frames", "2",
                                 "--crop", "-1e9,-1e9,1,1", "-o", directory.appendingPathComponent("a.gif").path)
        #expect(result.status != 0)
        #expect(Self.isOneClearLine(result.stderr) && result.stderr.contains("the frames are empty"), "\(result.stderr)")
        #expect(!result.stderr.contains("render budget"), "\(result.stderr)")
    }

    @Test func animateMaxPixelsHoldsForGIFAndY4M() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 64×64 frames (4096 pixels) fit; the blur reads a larger area of the board, which does not.
        for name in ["frames.gif", "frames.y4m", "frames"] {
            var arguments = ["animate", "CICheckerboardGenerator", "CIGaussianBlur", "inputRadius=20", "--animate",
                             "inputWidth=10:20", "--frames", "2", "--crop", "0,0,64,64", "--max-pixels", "5000",
                             "-o", directory.appendingPathComponent(name).path]
            if name.hasSuffix(".y4m") { arguments.append("--y4m") }
            let result = try cli.run(arguments)
            #expect(result.status != 0, "\(name): the budget of 5000 pixels was not applied")
            #expect(result.stderr.contains("the limit is 5000"), "\(name): \(result.stderr)")
        }
    }

    @Test func maxPixelsFromTheEnvironmentLimitsTheRenderBudgetToo() throws {
        let binary = try #require(CommandLineTests.binary).path
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("board.png").path
        // "100_000" was read by the decoder but ignored by the render budget.
        let over = try Tmux.spawnWithErrors("/usr/bin/env", ["CIFILTERTEST_MAX_PIXELS=100_000", "SWIFT_BACKTRACE=enable=no", binary,
                                                             "render", "CICheckerboardGenerator", "--crop", "0,0,400,400", "-o", output])
        #expect(over.0 != 0)
        #expect(over.1.contains("the limit is 100000"), "\(over.1)")
        let under = try Tmux.spawnWithErrors("/usr/bin/env", ["CIFILTERTEST_MAX_PIXELS=100_000", "SWIFT_BACKTRACE=enable=no", binary,
                                                              "render", "CICheckerboardGenerator", "--crop", "0,0,300,300", "-o", output])
        #expect(under.0 == 0, "\(under.1)")
    }

    @Test func aRenderOverItsTimeLimitStopsWithOneLineAndNoFile() throws {
        let binary = try #require(CommandLineTests.binary).path
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("slow.png").path
        let heavy = ["CIZoomBlur", "inputAmount=200", "-i", RecipeCommandLineTests.photo, "-o", output]
        // The command line has a time limit by default (600 s); a tiny one stops a heavy render at once.
        let stopped = try cli.run(["render"] + heavy + ["--time-limit", "0.001"])
        #expect(stopped.status != 0 && Self.isOneClearLine(stopped.stderr), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("time limit of 0.001 s") && stopped.stderr.contains("--time-limit"), "\(stopped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let fromEnvironment = try Tmux.spawnWithErrors("/usr/bin/env", ["CIFILTERTEST_TIME_LIMIT=0.001", "SWIFT_BACKTRACE=enable=no",
                                                                        binary, "render"] + heavy)
        #expect(fromEnvironment.0 != 0 && fromEnvironment.1.contains("time limit"), "\(fromEnvironment.1)")
        // 0 turns it off, and the option wins over the environment.
        let unlimited = try Tmux.spawnWithErrors("/usr/bin/env", ["CIFILTERTEST_TIME_LIMIT=0.001", "SWIFT_BACKTRACE=enable=no",
                                                                 binary, "render", "CISepiaTone", "-i", RecipeCommandLineTests.photo,
                                                                 "-o", output, "--time-limit", "0"])
        #expect(unlimited.0 == 0, "\(unlimited.1)")
        for bad in ["-1", "nan", "inf"] {
            let refused = try cli.run(["render", "CISepiaTone", "-i", RecipeCommandLineTests.photo, "-o", output, "--overwrite",
                                       "--time-limit", bad])
            #expect(refused.status != 0 && refused.stderr.contains("--time-limit"), "\(bad): \(refused.stderr)")
        }
        // Frames have the same limit.
        let frames = try cli.run(["animate", "CIZoomBlur", "--animate", "inputAmount=150:200", "--frames", "2", "-i",
                                  RecipeCommandLineTests.photo, "-o", directory.appendingPathComponent("slow.gif").path,
                                  "--time-limit", "0.001"])
        #expect(frames.status != 0 && frames.stderr.contains("time limit"), "\(frames.stderr)")
    }

    @Test func aGIFIsWrittenToItsFileAsFramesAreEncoded() throws {
        let binary = try #require(CommandLineTests.binary).path
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("long.gif").path
        let pid = try Spawn.start(binary, ["animate", "CICheckerboardGenerator", "--animate", "inputWidth=10:40",
                                           "--frames", "100000", "--crop", "0,0,32,32", "-o", output])
        // The partial file beside the output grows while the animation runs (it was all held in memory before).
        var grown = 0
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline, grown < 100_000 {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names where name.hasPrefix(".long.gif.partial-") {
                let size = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int) ?? 0
                grown = max(grown, size)
            }
            usleep(100_000)
        }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(grown >= 100_000, "the partial GIF stayed at \(grown) bytes")
        // Stopped by a signal: no partial file and no output left behind.
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        #expect(left.isEmpty, "\(left)")
    }
}
