import FilterEngine
import FilterPipeline
import Foundation
import Testing
@testable import FilterExplorer

/// Work is never lost, driven for real in tmux: the chain survives a quit and a restart; removing a step is
/// undone and redone in order with value edits; browsing the list in a chain only previews; `q` during a large
/// export waits for a complete file; text the filter refuses does not stay.
@Suite(.enabled(if: Tmux.isAvailable, "tmux is not installed: the end-to-end explorer tests need it"), .serialized)
struct TmuxSafetyTests {
    static let strip = TmuxChainTests.strip

    /// CIColorControls › CIVignette › CISepiaTone, step 3 selected, the list focused.
    static func threeSteps(_ tmux: Tmux) throws {
        try tmux.start(["explore", "--filter", "CIColorControls"])
        try tmux.waitFor("color controls opens") {
            $0.contains("Inputs: Color Controls (CIColorControls)") && Tmux.statusLine($0).contains(" ms ")
        }
        try TmuxChainTests.addStep(tmux, "CIVignette", number: 2)
        try TmuxChainTests.addStep(tmux, "CISepiaTone", number: 3)
    }

    /// Types `value` into the selected input.
    static func type(_ tmux: Tmux, _ value: String) {
        tmux.send("=", "C-u")
        tmux.type(value)
        tmux.send("Enter")
    }

    /// Starts the explorer again in the same state directory (the pane's shell is replaced).
    static func restart(_ tmux: Tmux, _ arguments: [String]) throws {
        _ = try? tmux.run(["kill-server"])
        for _ in 0..<40 where (try? tmux.run(["list-sessions"])) != nil { usleep(50_000) }
        try tmux.start(arguments)
    }

    @Test func aThreeStepChainSurvivesQuitAndRestart() throws {
        let tmux = try Tmux(name: "safe-restart")
        defer { tmux.kill() }
        try Self.threeSteps(tmux)
        // Step 2's intensity, step 3 bypassed, then step 2 selected again.
        tmux.send("c", "Left", "Escape", "j")
        try tmux.waitFor("step 2's intensity is selected") { Tmux.statusLine($0).contains("inputIntensity = ") && $0.contains("Inputs: Vignette") }
        Self.type(tmux, "0.7")
        try tmux.waitFor("the intensity is 0.7") { Tmux.statusLine($0).contains("inputIntensity = 0.7 ") }
        tmux.send("c", "Right", "Space")
        try tmux.waitFor("step 3 is bypassed") { Self.strip($0).contains("3 ⊘CISepiaTone") }
        tmux.send("Left", "Escape")
        try tmux.waitFor("step 2 is selected again") { $0.contains("Inputs: Vignette (CIVignette)") }
        try tmux.quitAndCheckRestored()
        let stateURL = tmux.stateDirectory.appendingPathComponent("cifiltertest/state.json")
        let saved = ExplorerState.load(from: stateURL)
        #expect(saved.warning == nil)
        #expect(saved.state.chain?.steps.map(\.filter) == ["CIColorControls", "CIVignette", "CISepiaTone"])
        #expect(saved.state.chain?.selected == 1)

        try Self.restart(tmux, ["explore"])
        let screen = try tmux.waitFor("the chain comes back whole") {
            Self.strip($0).contains("1 CIColorControls") && Self.strip($0).contains("2 CIVignette")
                && Self.strip($0).contains("3 ⊘CISepiaTone") && $0.contains("Inputs: Vignette (CIVignette)")
                && Tmux.statusLine($0).contains(" ms ")
        }
        #expect(Tmux.value(of: "Intensity", in: screen) == "0.7", "\(screen)")
        try tmux.quitAndCheckRestored()

        // --filter opens that filter alone and keeps the saved chain for the next plain start.
        try Self.restart(tmux, ["explore", "--filter", "CIColorInvert"])
        try tmux.waitFor("color invert alone") { $0.contains("Inputs: Color Invert (CIColorInvert)") && Self.strip($0).isEmpty }
        try tmux.quitAndCheckRestored()
        #expect(ExplorerState.load(from: stateURL).state.chain?.steps.count == 3)
    }

    @Test func aCorruptStateFileStillStartsAndSaysSo() throws {
        let tmux = try Tmux(name: "safe-corrupt")
        defer { tmux.kill() }
        let directory = tmux.stateDirectory.appendingPathComponent("cifiltertest")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let text = """
            {"version": 2, "lastFilter": "CIVignette", "values": {"CISepiaTone": 7},
             "chain": {"steps": [{"filter": "CISepiaTone"}, {"nofilter": 1}, {"filter": "CIVignette", "values": {"inputIntensity": "0.4"}},
                                 {"filter": "CINoSuchFilter"}], "selected": 1}}
            """
        try Data(text.utf8).write(to: directory.appendingPathComponent("state.json"))
        try tmux.start(["explore"])
        let screen = try tmux.waitFor("the explorer starts with what could be read, and says what could not") {
            $0.contains("partly unreadable") && Self.strip($0).contains("2 CIVignette") && $0.contains("CINoSuchFilter")
        }
        #expect(Tmux.value(of: "Intensity", in: screen) == "0.4", "\(screen)")
        try tmux.quitAndCheckRestored()
    }

    @Test func removingAStepIsUndoneAndRedoneInOrderWithValueEdits() throws {
        let tmux = try Tmux(name: "safe-undo")
        defer { tmux.kill() }
        try Self.threeSteps(tmux)
        // A value edit on step 2, then step 3 removed.
        tmux.send("c", "Left", "Escape", "j")
        try tmux.waitFor("step 2's intensity") { Tmux.statusLine($0).contains("inputIntensity = ") && $0.contains("Inputs: Vignette") }
        Self.type(tmux, "0.6")
        try tmux.waitFor("the intensity is 0.6") { Tmux.statusLine($0).contains("inputIntensity = 0.6 ") }
        tmux.send("c", "Right", "D")
        try tmux.waitFor("step 3 is removed") { $0.contains("step 3 (CISepiaTone) removed") && !Self.strip($0).contains("CISepiaTone") }
        tmux.send("Escape", "u")
        try tmux.waitFor("u brings step 3 back") {
            Self.strip($0).contains("3 CISepiaTone") && $0.contains("undone") && $0.contains("removed")
        }
        tmux.send("U")
        try tmux.waitFor("U removes it again") { $0.contains("redone") && !Self.strip($0).contains("CISepiaTone") }
        tmux.send("u")
        try tmux.waitFor("u brings it back again") { Self.strip($0).contains("3 CISepiaTone") }
        // The next undo is the value edit before the removal, on step 2, which is shown.
        tmux.send("u")
        let screen = try tmux.waitFor("u undoes step 2's intensity") {
            $0.contains("Inputs: Vignette (CIVignette)") && $0.contains("undone") && $0.contains("inputIntensity 0 → 0.6") && Tmux.value(of: "Intensity", in: $0) == "0"
        }
        #expect(Self.strip(screen).contains("3 CISepiaTone"))
        // Then the steps added, newest first.
        tmux.send("u")
        try tmux.waitFor("u removes the added step 3") { !Self.strip($0).contains("CISepiaTone") && $0.contains("undone") }
        try tmux.quitAndCheckRestored()
    }

    @Test func browsingTheListInAChainPreviewsAndOnlyEnterReplacesTheStep() throws {
        let tmux = try Tmux(name: "safe-browse")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIColorControls"])
        try tmux.waitFor("color controls opens") { $0.contains("Inputs: Color Controls") && Tmux.statusLine($0).contains(" ms ") }
        try TmuxChainTests.addStep(tmux, "CIVignette", number: 2)
        // Down the list: each filter is previewed, the step keeps CIVignette.
        tmux.send("j")
        let first = try tmux.waitFor("the next filter is previewed") { $0.contains("previewing ") && $0.contains("Enter to use it") }
        #expect(Self.strip(first).contains("2 CIVignette"), "\(first)")
        tmux.send("j", "j")
        try tmux.waitFor("still previewing, step 2 unchanged") {
            $0.contains("previewing ") && Self.strip($0).contains("2 CIVignette") && $0.contains("Inputs: Vignette (CIVignette)")
        }
        // A search previews too; Esc in the list keeps the step's filter.
        tmux.send("Escape")
        try tmux.waitFor("Esc keeps the vignette") { $0.contains("kept CIVignette in step 2") && Self.strip($0).contains("2 CIVignette") }
        // Enter puts the previewed filter in the step, as one undo step.
        tmux.send("j")
        let previewed = try tmux.waitFor("a filter is previewed") { $0.contains("previewing ") }
        let name = Tmux.statusLine(previewed).isEmpty ? "" : (Tmux.lines(previewed).first { $0.contains("previewing ") }
            .flatMap { $0.components(separatedBy: "previewing ").last?.split(separator: " ").first.map(String.init) } ?? "")
        #expect(!name.isEmpty, "\(previewed)")
        tmux.send("Enter")
        try tmux.waitFor("Enter puts \(name) in step 2") { Self.strip($0).contains("2 \(name)") && $0.contains("step 2 is now \(name)") }
        tmux.send("u")
        try tmux.waitFor("u puts the vignette back") { Self.strip($0).contains("2 CIVignette") && $0.contains("undone") }
        try tmux.quitAndCheckRestored()
    }

    @Test func aSingleFilterStillChangesAsTheListMoves() throws {
        let tmux = try Tmux(name: "safe-single")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CISepiaTone"])
        try tmux.waitFor("sepia opens") { $0.contains("Inputs: Sepia Tone (CISepiaTone)") && Tmux.statusLine($0).contains(" ms ") }
        tmux.send("j")
        try tmux.waitFor("the next filter opens at once") { !$0.contains("Inputs: Sepia Tone") && !$0.contains("previewing") }
        try tmux.quitAndCheckRestored()
    }

    /// A 24 MP photo (6144×4096) made by the command line from the sample photo, once for every run: one name,
    /// so runs do not leave a copy each (the command line writes it whole or not at all).
    static func photo24() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-photo24.jpg").path
        if FileManager.default.fileExists(atPath: path) { return path }
        let (made, output) = try Tmux.spawn(try Tmux.binary(), [
            "render", "CILanczosScaleTransform", "inputScale=8", "inputAspectRatio=1.5",
            "-i", RecipeCommandLineTests.photo, "-o", path,
        ], capture: true)
        #expect(made == 0, "\(output)")
        let size = try ImageFile.read(path).extent
        #expect(size.width == 6144 && size.height == 4096, "\(size)")
        return path
    }

    /// The explorer on the 24 MP photo with sepia; `e` to `path`, Enter, then `q` at once.
    static func exportThenQuit(_ tmux: Tmux, to path: String) throws {
        try tmux.start(["explore", try photo24(), "--filter", "CISepiaTone"])
        try tmux.waitFor("the photo opens", timeout: 60) { $0.contains("Inputs: Sepia Tone") && Tmux.statusLine($0).contains(" ms ") }
        tmux.send("e")
        try tmux.waitFor("the export prompt") { Tmux.statusLine($0).contains("export to:") }
        tmux.send("C-u")
        tmux.type(path)
        tmux.send("Enter", "q")
    }

    @Test func quitDuringALargeExportWaitsForACompleteFile() throws {
        let tmux = try Tmux(name: "safe-export")
        defer { tmux.kill() }
        let directory = try TmuxExportTests.outputDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let exported = directory.appendingPathComponent("big.png").path
        try Self.exportThenQuit(tmux, to: exported)
        let waiting = try tmux.waitFor("q waits, showing the export's progress") {
            $0.contains("finishing the export before quitting") && Tmux.statusLine($0).contains("exporting big.png… ")
        }
        #expect(Tmux.statusLine(waiting).contains("quits when done"), "\(waiting)")
        try tmux.waitFor("the explorer exits once the file is written", timeout: 240) { $0.contains("EXITED:") }
        #expect(try tmux.capture().contains("EXITED:0"))
        let image = try ImageFile.read(exported)
        #expect(image.extent.width == 6144 && image.extent.height == 4096)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("big.json").path))
    }

    @Test func aSecondQAbandonsTheExportAndTheExitStatusSaysSo() throws {
        let tmux = try Tmux(name: "safe-abandon")
        defer { tmux.kill() }
        let directory = try TmuxExportTests.outputDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let exported = directory.appendingPathComponent("abandoned.png").path
        try Self.exportThenQuit(tmux, to: exported)
        try tmux.waitFor("q waits") { $0.contains("finishing the export before quitting") }
        tmux.send("q")
        let screen = try tmux.waitFor("a second q abandons it, and the exit status says so", timeout: 30) { $0.contains("EXITED:") }
        #expect(screen.contains("EXITED:1") && screen.contains("abandoned"), "\(screen)")
        #expect(!FileManager.default.fileExists(atPath: exported))
    }

    @Test func textTheFilterRefusesDoesNotStay() throws {
        let tmux = try Tmux(name: "safe-text")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CICode128BarcodeGenerator"])
        try tmux.waitFor("the barcode opens") { $0.contains("(CICode128BarcodeGenerator)") && Tmux.statusLine($0).contains(" ms ") }
        tmux.send("Tab")
        let before = try tmux.waitFor("the message is selected") { Tmux.statusLine($0).contains("inputMessage = ") }
        let shown = Tmux.statusLine(before).components(separatedBy: "inputMessage = ").last?.components(separatedBy: " · ").first ?? ""
        tmux.send("Enter", "C-u")
        tmux.type("héllo €")
        tmux.send("Enter")
        try tmux.waitFor("the text is refused with the filter's reason") { $0.contains("the message must be ASCII") }
        tmux.send("Escape", "Escape")
        let after = try tmux.waitFor("the last good message is back") {
            Tmux.statusLine($0).contains("inputMessage = \(shown)") && !$0.contains("héllo")
        }
        #expect(!after.contains("héllo"), "\(after)")
        try tmux.quitAndCheckRestored()
    }
}
