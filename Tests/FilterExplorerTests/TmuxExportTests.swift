import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The explorer's export (`e`), driven for real in tmux: the image it writes, the `render` command it prints
/// (read back from tmux's paste buffer, where its OSC 52 copy lands) and `render --recipe` on the recipe written
/// beside it make the same bytes, for a broad sample of filters.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: the end-to-end explorer tests need it"))
struct TmuxExportTests {
    struct Case: CustomStringConvertible, Sendable {
        let filter: String
        /// tmux key names sent after the explorer starts (Tab: to the inputs).
        let keys: [String]
        /// Text the recipe must hold (what this case is about).
        let recipeHolds: [String]
        var description: String { filter }
    }

    static let cases: [Case] = [
        // A colour filter with a slider stepped down three times (values such as 0.97 must travel exactly).
        Case(filter: "CISepiaTone", keys: ["Tab", "Down", "Left", "Left", "Left"], recipeHolds: ["\"inputIntensity\": 0.97"]),
        // A blur: the clamp the preview puts before it, and the crop back to the source.
        Case(filter: "CIGaussianBlur", keys: ["Tab", "Down", "Right", "Right", "Right"],
             recipeHolds: ["{\"filter\": \"CIAffineClamp\"}", "\"inputRadius\": 13", "\"crop\": [0, 0, 512, 512]"]),
        // An infinite generator: only the crop makes it finite.
        Case(filter: "CICheckerboardGenerator", keys: ["Tab", "Down", "Down", "Down", "Right", "Right"],
             recipeHolds: ["\"crop\": [0, 0, 512, 512]", "\"inputWidth\""]),
        // A transition: a second image by path, the time changed.
        Case(filter: "CIDissolveTransition", keys: ["Tab", "Down", "Down", "Right"],
             recipeHolds: ["\"inputTargetImage\": \"/", "coffee.png\""]),
        Case(filter: "CIMultiplyCompositing", keys: [], recipeHolds: ["\"inputBackgroundImage\": \"/"]),
        // A transform rotated 2° in its editor (cosines and sines: no short decimal says them).
        Case(filter: "CIAffineTransform", keys: ["Tab", "Down", "Enter", "Right", "Right", "Enter"],
             recipeHolds: ["\"inputTransform\": [0.99939"]),
        // A rectangle input, inset by the explorer: the output is the rectangle itself.
        Case(filter: "CICrop", keys: [], recipeHolds: ["\"inputRectangle\": [64, 64, 384, 384]"]),
        // A colour cube: the look's table travels as a .cube file written beside the export.
        Case(filter: "CIColorCube", keys: [], recipeHolds: ["-cube.cube\"", "\"inputCubeDimension\": 32"]),
        // A point moved in its editor.
        Case(filter: "CITwirlDistortion", keys: ["Tab", "Down", "Enter", "Right", "Right", "Up", "Enter"],
             recipeHolds: ["\"inputCenter\": [266, 261]"]),
        // An output larger than the source, cut to it; the preview zoomed in (an export is the whole output).
        Case(filter: "CILanczosScaleTransform", keys: ["Tab", "Down", "S-Right", "+", "+"],
             recipeHolds: ["\"crop\": [0, 0, 512, 512]"]),
        // A generated mask, written beside the export as a PNG.
        Case(filter: "CIBlendWithMask", keys: [], recipeHolds: ["-mask.png\""]),
    ]

    @Test(arguments: cases)
    func exportReproducesExactly(_ example: Case) throws {
        let tmux = try Tmux(name: "export-\(example.filter)")
        defer { tmux.kill() }
        let directory = try Self.outputDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try tmux.start(["explore", "--filter", example.filter], tmuxConfig: try Self.clipboardConfig(tmux))
        try tmux.waitFor("the explorer shows \(example.filter)") { Tmux.statusLine($0).contains(example.filter) }
        for key in example.keys { tmux.send(key) }
        let exported = try Self.export(tmux, to: directory.appendingPathComponent("export.png").path)
        #expect(exported.command.hasPrefix("cifiltertest render "), "\(exported.command)")

        let recipePath = directory.appendingPathComponent("export.json").path
        let recipe = try String(contentsOfFile: recipePath, encoding: .utf8)
        for text in example.recipeHolds { #expect(recipe.contains(text), "the recipe lacks \(text):\n\(recipe)") }
        let expected = try Data(contentsOf: URL(fileURLWithPath: exported.path))

        // The printed command, as a shell runs it, into another file.
        let byCommand = directory.appendingPathComponent("command.png").path
        try Self.runCommand(exported.command, output: exported.path, replacedBy: byCommand)
        #expect(try Data(contentsOf: URL(fileURLWithPath: byCommand)) == expected, "the command's image differs: \(exported.command)")

        // The recipe alone (its input image is in it: no -i).
        let byRecipe = directory.appendingPathComponent("recipe.png").path
        let (status, output) = try Tmux.spawnWithErrors(try Tmux.binary(), ["render", "--recipe", recipePath, "-o", byRecipe])
        #expect(status == 0, "render --recipe failed: \(output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: byRecipe)) == expected, "render --recipe's image differs:\n\(recipe)")
        try tmux.quitAndCheckRestored()
    }

    /// A recipe opens for editing: an export reopened shows its values and exports the same bytes; a chain (a
    /// shipped look) opens as editable steps, its last selected, and exports what `render` makes of the look.
    @Test func exploreOpensRecipes() throws {
        let tmux = try Tmux(name: "export-open")
        defer { tmux.kill() }
        let directory = try Self.outputDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("blur.png").path
        try tmux.start(["explore", "--filter", "CIGaussianBlur"], tmuxConfig: try Self.clipboardConfig(tmux))
        try tmux.waitFor("the explorer starts") { Tmux.statusLine($0).contains("CIGaussianBlur") }
        for key in ["Tab", "Down", "Right", "Right"] { tmux.send(key) }
        _ = try Self.export(tmux, to: first)
        tmux.send("q")
        try tmux.waitFor("the explorer exits") { $0.contains("EXITED:0") }
        tmux.kill()

        let reopened = try Tmux(name: "export-reopen")
        defer { reopened.kill() }
        try reopened.start(["explore", "--recipe", directory.appendingPathComponent("blur.json").path],
                           tmuxConfig: try Self.clipboardConfig(reopened))
        let screen = try reopened.waitFor("the recipe's filter and value show") {
            Tmux.statusLine($0).contains("recipe: CIGaussianBlur") && Tmux.value(of: "Radius", in: $0) == "12"
        }
        #expect(!Tmux.statusLine(screen).contains("earlier step"), "the explorer's own clamp is not an upstream step")
        let second = directory.appendingPathComponent("again.png").path
        _ = try Self.export(reopened, to: second)
        #expect(try Data(contentsOf: URL(fileURLWithPath: second)) == Data(contentsOf: URL(fileURLWithPath: first)))
        try reopened.quitAndCheckRestored()

        // A chain: every step of the look is a step of the explorer's chain, the last one selected.
        let look = Self.repository.appendingPathComponent("Looks/warm-fade.json").path
        let photo = Self.repository.appendingPathComponent("SampleImages/astronaut.png").path
        let chain = try Tmux(name: "export-chain")
        defer { chain.kill() }
        try chain.start(["explore", photo, "--recipe", look], tmuxConfig: try Self.clipboardConfig(chain))
        let opened = try chain.waitFor("the chain opens on its last step") {
            Tmux.statusLine($0).contains("recipe: CITemperatureAndTint › CIColorControls › CIColorMatrix")
        }
        #expect(opened.contains("Inputs: Color Matrix (CIColorMatrix)"))
        #expect(opened.contains("1 CITemperatureAndTint › 2 CIColorControls › 3 CIColorMatrix"))
        let lookExport = directory.appendingPathComponent("look.png").path
        _ = try Self.export(chain, to: lookExport)
        let rendered = directory.appendingPathComponent("look-render.png").path
        let (status, output) = try Tmux.spawnWithErrors(try Tmux.binary(), ["render", "--recipe", look, "-i", photo, "-o", rendered])
        #expect(status == 0, "\(output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: rendered)) == Data(contentsOf: URL(fileURLWithPath: lookExport)),
                "the unchanged look exported from the explorer differs from render --recipe")
        let written = try String(contentsOfFile: directory.appendingPathComponent("look.json").path, encoding: .utf8)
        #expect(written.contains("\"filter\": \"CITemperatureAndTint\"") && written.contains("\"filter\": \"CIColorMatrix\""))
        try chain.quitAndCheckRestored()
    }

    /// OSC 52 reaches the terminal outside tmux too: with tmux's `allow-passthrough`, through an inner tmux (no
    /// set-clipboard there) to an outer one that keeps it as a buffer.
    @Test func clipboardPassesThroughAnInnerTmux() throws {
        let outer = try Tmux(name: "export-outer")
        defer { outer.kill() }
        let inner = "cifiltertest-export-inner-\(getpid())"
        defer { _ = try? Tmux.spawnWithErrors(Tmux.executable("tmux")!, ["-L", inner, "kill-server"]) }
        let directory = try Self.outputDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outerConfig = outer.stateDirectory.appendingPathComponent("outer.conf")
        try "set -g set-clipboard on\n".write(to: outerConfig, atomically: true, encoding: .utf8)
        let innerConfig = outer.stateDirectory.appendingPathComponent("inner.conf")
        try "set -g set-clipboard off\nset -g allow-passthrough on\nset -g status off\n".write(to: innerConfig, atomically: true, encoding: .utf8)
        let tmuxPath = try #require(Tmux.executable("tmux"))
        // The outer pane runs the inner tmux, which runs the explorer.
        try outer.start(program: [tmuxPath, "-L", inner, "-f", innerConfig.path, "new-session", "-s", "inner",
                                  try Tmux.binary(), "explore", "--filter", "CISepiaTone"], tmuxConfig: outerConfig.path)
        try outer.waitFor("the explorer runs inside the inner tmux") { Tmux.statusLine($0).contains("CISepiaTone") }
        let exported = try Self.export(outer, to: directory.appendingPathComponent("sepia.png").path)
        #expect(exported.command.hasPrefix("cifiltertest render CISepiaTone"))
    }

    // MARK: Helpers

    /// tmux keeps what a program copies with OSC 52 as a paste buffer when set-clipboard is on.
    static func clipboardConfig(_ tmux: Tmux) throws -> String {
        let config = tmux.stateDirectory.appendingPathComponent("tmux.conf")
        try "set -g set-clipboard on\n".write(to: config, atomically: true, encoding: .utf8)
        return config.path
    }

    static func outputDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-export-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Presses e, replaces the suggested path with `path`, waits for the export, and returns the command tmux's
    /// newest paste buffer holds (the explorer copied it with OSC 52) after checking the status line shows it.
    static func export(_ tmux: Tmux, to path: String) throws -> (path: String, command: String) {
        let before = (try? tmux.run(["list-buffers", "-F", "#{buffer_name}"])) ?? ""
        tmux.send("e")
        try tmux.waitFor("the export prompt") { Tmux.statusLine($0).contains("export to:") }
        tmux.send("C-u")
        tmux.type(path)
        tmux.send("Enter")
        let screen = try tmux.waitFor("the export is written", timeout: 60) {
            $0.contains("wrote ") || $0.contains("export failed")
        }
        #expect(!screen.contains("export failed"), "\(screen)")
        // The clipboard sequences are written between ncurses' updates: none of their text shows.
        #expect(!screen.contains("52;c;") && !screen.contains("tmux;"), "\(screen)")
        var command = ""
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            let names = (try? tmux.run(["list-buffers", "-F", "#{buffer_name}"])) ?? ""
            if names != before, let newest = names.split(separator: "\n").first {
                command = (try? tmux.run(["show-buffer", "-b", String(newest)])) ?? ""
                break
            }
            usleep(50_000)
        }
        #expect(!command.isEmpty, "no paste buffer from the export's OSC 52 copy")
        #expect(screen.contains("clipboard:"), "\(screen)")
        return (path, command)
    }

    /// Runs a printed command with sh, the binary for `cifiltertest` and another output file.
    static func runCommand(_ command: String, output: String, replacedBy other: String) throws {
        let ending = " -o " + output
        #expect(command.hasSuffix(ending), "\(command)")
        guard command.hasPrefix("cifiltertest "), command.hasSuffix(ending) else { return }
        let line = "'\(try Tmux.binary())' " + command.dropFirst("cifiltertest ".count).dropLast(ending.count) + " -o '\(other)'"
        let (status, output) = try Tmux.spawnWithErrors("/bin/sh", ["-c", line])
        #expect(status == 0, "\(line): \(output)")
    }
}

extension Tmux {
    /// Runs `program` (not the explorer's binary) in a 120×40 pane, with the clean environment `start` gives.
    func start(program: [String], tmuxConfig: String) throws {
        let command = program.map { "'\($0)'" }.joined(separator: " ")
        let script = "cd /tmp && env -i PATH=/usr/bin:/bin HOME=/tmp TERM=tmux-256color LANG=C.UTF-8 "
            + "XDG_STATE_HOME='\(stateDirectory.path)' XDG_CACHE_HOME='\(stateDirectory.path)/cache' "
            + "\(command); echo EXITED:$?; exec sleep 600"
        try newSession(script: script, tmuxConfig: tmuxConfig)
    }

    /// Runs a program to its end: exit status, and its standard output and error together.
    static func spawnWithErrors(_ path: String, _ arguments: [String]) throws -> (Int32, String) {
        try spawn("/bin/sh", ["-c", "exec \"$0\" \"$@\" 2>&1", path] + arguments, capture: true)
    }
}
