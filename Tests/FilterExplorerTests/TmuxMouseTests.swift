import FilterEngine
@testable import FilterExplorer
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The mouse as a GUI user expects it, end to end in tmux through a real client (`TmuxMouseClient`): the wheel
/// over the list scrolls it without changing a chain's step, over a slider steps the value (a burst is one
/// undo step), a click on the chain strip selects the step, and after a drag the status shows the new value.
/// Then the prompts: Tab completes a path, and an export asks before replacing an earlier one's files.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: the end-to-end explorer tests need it"))
struct TmuxMouseTests {
    static func mouseConfig(_ tmux: Tmux) throws -> String {
        let config = tmux.stateDirectory.appendingPathComponent("tmux.conf")
        // No status bar: the attached client's 40 rows are all the window's.
        try "set -g mouse on\nset -g status off\n".write(to: config, atomically: true, encoding: .utf8)
        return config.path
    }

    /// The row of the slider labelled `label` and the column of its knob.
    static func knob(of label: String, in screen: String) throws -> (x: Int, y: Int) {
        for (row, line) in Tmux.lines(screen).enumerated() where line.contains(" \(label) ") && line.contains("●") {
            let knob = line.distance(from: line.startIndex, to: line.firstIndex(of: "●")!)
            return (knob, row)
        }
        throw TmuxError("no slider \(label) on the screen:\n\(screen)")
    }

    /// The value at the end of the slider row labelled `label` (selected or not).
    static func sliderValue(_ label: String, in screen: String) -> String? {
        Tmux.lines(screen).first { $0.contains(" \(label) ") && $0.contains("●") }
            .flatMap { $0.split(separator: " ").last.map(String.init) }
    }

    @Test func wheelScrollsTheListStepsASliderAndAClickSelectsAChainStep() throws {
        let tmux = try Tmux(name: "mouse-wheel")
        defer { tmux.kill() }
        let recipe = tmux.stateDirectory.appendingPathComponent("two.json").path
        try #"[{"filter": "CISepiaTone", "inputs": {"inputIntensity": 0.5}}, {"filter": "CIVignette"}]"#
            .write(toFile: recipe, atomically: true, encoding: .utf8)
        try tmux.start(["explore", "--recipe", recipe], tmuxConfig: try Self.mouseConfig(tmux))
        let opened = try tmux.waitFor("the chain opens on its last step") {
            $0.contains("1 CISepiaTone › 2 CIVignette") && $0.contains("Inputs: Vignette")
        }
        let client = try TmuxMouseClient(tmux, columns: 120, rows: 40)
        defer { client.close() }

        // The wheel over the list scrolls it at most: the step keeps its filter and nothing is previewed.
        let listCell = (x: 10, y: 12)
        for _ in 0..<4 { client.wheelDown(listCell) }
        for _ in 0..<2 { client.wheelUp(listCell) }
        usleep(500_000)
        let scrolled = try tmux.capture()
        #expect(scrolled.contains("Inputs: Vignette") && scrolled.contains("2 CIVignette"), "\(scrolled)")
        #expect(!scrolled.contains("previewing"), "the wheel previews nothing:\n\(scrolled)")
        #expect(opened.contains("Inputs: Vignette"))

        // A click on step 1 in the strip selects it, as ← does in the strip.
        let step1 = try Tmux.position(of: "1 CISepiaTone", in: scrolled)
        client.press((step1.column + 3, step1.row))
        client.release((step1.column + 3, step1.row))
        let selected = try tmux.waitFor("the click selects step 1") {
            $0.contains("Inputs: Sepia Tone") && Tmux.value(of: "Intensity", in: $0) == "0.5"
        }

        // The wheel over the slider steps it: up twice, then one undo takes back the whole burst.
        let spec = SliderSpec(try #require(Catalog.builtIn.filter(named: "CISepiaTone")?.input("inputIntensity")))
        let expected = formatNumber(spec.stepped(spec.stepped(0.5, by: 1, coarse: false), by: 1, coarse: false))
        let knob = try Self.knob(of: "Intensity", in: selected)
        client.wheelUp((knob.x + 2, knob.y))
        client.wheelUp((knob.x + 2, knob.y))
        let stepped = try tmux.waitFor("two notches step the value twice") {
            Self.sliderValue("Intensity", in: $0) == expected && Tmux.statusLine($0).contains("inputIntensity = \(expected) ")
        }
        #expect(stepped.contains("1 CISepiaTone"), "the chain is unchanged")
        tmux.send("u")
        let undone = try tmux.waitFor("one undo takes back the burst") { Self.sliderValue("Intensity", in: $0) == "0.5" }
        #expect(undone.contains("undone"), "\(undone)")

        // After a drag the status line shows the new value, not the undo's message.
        let bar = try Self.knob(of: "Intensity", in: undone)
        client.press((bar.x, bar.y))
        client.drag((bar.x - 6, bar.y))
        client.release((bar.x - 6, bar.y))
        let dragged = try tmux.waitFor("the drag's value is on the status line") {
            Tmux.statusLine($0).contains("inputIntensity = ") && !Tmux.statusLine($0).contains("inputIntensity = 0.5 ")
        }
        #expect(!dragged.contains("undone"), "the undo's message is gone after the drag:\n\(dragged)")
        try tmux.quitAndCheckRestored()
    }

    @Test func tabCompletesAPathAndAnExportAsksBeforeReplacing() throws {
        let tmux = try Tmux(name: "prompt-paths")
        defer { tmux.kill() }
        let directory = try TmuxExportTests.outputDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("looks-folder"), withIntermediateDirectories: true)
        try tmux.start(["explore", "--filter", "CISepiaTone"])
        try tmux.waitFor("sepia is rendered") { Tmux.statusLine($0).contains(" ms") }

        // Tab in the export prompt: the folder is completed with its slash.
        tmux.send("e")
        try tmux.waitFor("the export prompt") { Tmux.statusLine($0).contains("export to:") }
        tmux.send("C-u")
        tmux.type(directory.path + "/looks-f")
        tmux.send("Tab")
        try tmux.waitFor("the folder is completed") { Tmux.statusLine($0).contains("looks-folder/") }
        tmux.type("x.png")
        tmux.send("Enter")
        try tmux.waitFor("the export is written", timeout: 60) { $0.contains("wrote ") }
        let png = directory.appendingPathComponent("looks-folder/x.png").path
        #expect(FileManager.default.fileExists(atPath: png))

        // The next e offers a new name in that folder.
        tmux.send("e")
        let offered = try tmux.waitFor("the export prompt again") { Tmux.statusLine($0).contains("export to:") }
        #expect(Tmux.statusLine(offered).contains("looks-folder/CISepiaTone-export.png"), "\(Tmux.statusLine(offered))")

        // x.jpg after x.png: its recipe x.json is x.png's, so it asks; n goes back to the name.
        let recipe = directory.appendingPathComponent("looks-folder/x.json").path
        let recipeBefore = try Data(contentsOf: URL(fileURLWithPath: recipe))
        tmux.send("C-u")
        tmux.type(directory.appendingPathComponent("looks-folder/x.jpg").path)
        tmux.send("Enter")
        try tmux.waitFor("it asks before replacing x.json") { Tmux.statusLine($0).contains("x.json exists: replace? (y/n)") }
        tmux.type("n")
        tmux.send("Enter")
        try tmux.waitFor("n goes back to the name") { Tmux.statusLine($0).contains("export to:") && $0.contains("nothing replaced") }
        tmux.send("Escape")
        #expect(try Data(contentsOf: URL(fileURLWithPath: recipe)) == recipeBefore, "x.json was not replaced")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("looks-folder/x.jpg").path))

        // The same name again, answered y: replaced.
        tmux.send("e")
        try tmux.waitFor("the export prompt") { Tmux.statusLine($0).contains("export to:") }
        tmux.send("C-u")
        tmux.type(png)
        tmux.send("Enter")
        try tmux.waitFor("it asks before replacing x.png and x.json") {
            Tmux.statusLine($0).contains("x.png, x.json exist: replace? (y/n)")
        }
        tmux.type("y")
        tmux.send("Enter")
        try tmux.waitFor("the export is written again", timeout: 60) { $0.contains("wrote \(png)") }
        try tmux.quitAndCheckRestored()
    }
}

extension TmuxMouseClient {
    /// A notch of the wheel up or down over a cell (SGR buttons 64 and 65).
    func wheelUp(_ cell: (x: Int, y: Int)) { send("\u{1B}[<64;\(cell.x + 1);\(cell.y + 1)M") }
    func wheelDown(_ cell: (x: Int, y: Int)) { send("\u{1B}[<65;\(cell.x + 1);\(cell.y + 1)M") }
}
