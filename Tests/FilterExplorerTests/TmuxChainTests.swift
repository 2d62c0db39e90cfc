import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The chain panel driven for real in tmux: steps added from the filter list, moved, bypassed, a second image
/// wired to an earlier step's output, the whole chain exported (its recipe renders the same bytes) and reopened
/// with `explore --recipe` as the same editable steps.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: the end-to-end explorer tests need it"))
struct TmuxChainTests {
    /// The strip's row (the line holding "Chain").
    static func strip(_ screen: String) -> String {
        String(Tmux.lines(screen).first { $0.contains("Chain (c): ") || $0.contains("Chain: ") } ?? "")
    }

    /// Adds a step after the selected one and chooses its filter by searching for `name`.
    static func addStep(_ tmux: Tmux, _ name: String, number: Int) throws {
        tmux.send("c")
        try tmux.waitFor("the chain panel has the focus") { Tmux.statusLine($0).contains("chain: ←→") }
        tmux.send("o")
        try tmux.waitFor("step \(number) is added") { $0.contains("step \(number) added after") }
        tmux.send("/")
        tmux.type(name)
        tmux.send("Enter")
        // Enter on the search puts the found filter in the step, and says so until the next key.
        try tmux.waitFor("step \(number) is \(name)") {
            Self.strip($0).contains("\(number) \(name)") && $0.contains("(\(name))") && $0.contains("step \(number) is now \(name)")
        }
    }

    @Test func buildReorderBypassWireExportAndReopenAChain() throws {
        let tmux = try Tmux(name: "chain")
        defer { tmux.kill() }
        let directory = try TmuxExportTests.outputDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try tmux.start(["explore", "--filter", "CIColorControls"], tmuxConfig: try TmuxExportTests.clipboardConfig(tmux))
        let single = try tmux.waitFor("one filter, no strip") {
            $0.contains("Inputs: Color Controls (CIColorControls)") && Tmux.statusLine($0).contains(" ms ")
        }
        #expect(Self.strip(single).isEmpty, "a chain of one step shows no strip")

        // The help lists the chain's keys.
        tmux.send("?")
        try tmux.waitFor("the help lists the chain keys") { $0.contains("add a step after / before the selected one") }
        tmux.send("Escape")
        try tmux.waitFor("the help closes") { !$0.contains("add a step after / before") }

        // Build CIColorControls › CISepiaTone › CIVignette.
        try Self.addStep(tmux, "CISepiaTone", number: 2)
        try Self.addStep(tmux, "CIVignette", number: 3)
        let three = try tmux.waitFor("three steps in order") {
            Self.strip($0).contains("1 CIColorControls › 2 CISepiaTone › 3 CIVignette")
        }
        #expect(Tmux.lines(three)[0].contains("chain of 3"), "\(Tmux.lines(three)[0])")

        // Move the vignette one place earlier, then bypass it.
        tmux.send("c")
        try tmux.waitFor("the panel has the focus") { Tmux.statusLine($0).contains("chain: ←→") }
        tmux.send("<")
        try tmux.waitFor("the vignette is step 2") { Self.strip($0).contains("1 CIColorControls › 2 CIVignette › 3 CISepiaTone") }
        tmux.send("Space")
        try tmux.waitFor("step 2 is bypassed and marked") {
            Self.strip($0).contains("2 ⊘CIVignette") && $0.contains("bypassed: it passes its inputImage on")
        }

        // Select the last step and add a multiply after it; its background takes step 1's output.
        tmux.send("Right")
        try tmux.waitFor("step 3 is selected") { $0.contains("Inputs: Sepia Tone (CISepiaTone)") }
        tmux.send("Escape")
        try Self.addStep(tmux, "CIMultiplyCompositing", number: 4)
        tmux.send("Tab", "Down")
        try tmux.waitFor("the background image is selected") { Tmux.statusLine($0).contains("inputBackgroundImage = ") }
        tmux.send("Enter")
        try tmux.waitFor("the image prompt") { Tmux.statusLine($0).contains("inputBackgroundImage file:") }
        tmux.send("C-u")
        tmux.type("step 1")
        tmux.send("Enter")
        let wired = try tmux.waitFor("the background is step 1's output") {
            $0.contains("Background Image") && $0.contains("◂ output of step 1 (CIColorControls) ▸")
                && $0.contains("◂ output of step 3 (CISepiaTone) ▸") && Tmux.statusLine($0).contains(" ms ")
        }
        #expect(Tmux.lines(wired)[0].contains("chain of 4 (s: step 4)"))

        // s previews the selected step's output; the title says which.
        tmux.send("Escape", "c", "Left")
        try tmux.waitFor("step 3 is selected again") { $0.contains("Inputs: Sepia Tone (CISepiaTone)") }
        let chainOutput = try tmux.waitFor("rendered", colors: true) { Tmux.statusLine($0).contains(" ms ") }
        tmux.send("s")
        // (The status line says so until the next key; the preview's cells change when the frame arrives.)
        try tmux.waitFor("the preview shows step 3's output", colors: true) {
            Tmux.lines($0)[0].contains("step 3 of 4 (s: chain)") && $0.contains("preview: step 3's output")
                && Tmux.previewRows($0) != Tmux.previewRows(chainOutput)
        }
        tmux.send("s")
        try tmux.waitFor("the chain's output again") { Tmux.lines($0)[0].contains("chain of 4 (s: step 3)") }

        // Export: the whole chain's recipe, and its render gives the same bytes.
        tmux.send("Escape")
        let exported = try TmuxExportTests.export(tmux, to: directory.appendingPathComponent("chain.png").path)
        let recipePath = directory.appendingPathComponent("chain.json").path
        let recipe = try String(contentsOfFile: recipePath, encoding: .utf8)
        for text in ["{\"filter\": \"CIColorControls\", \"id\": \"step1\"", "{\"filter\": \"CIVignette\", \"bypass\": true",
                     "{\"filter\": \"CISepiaTone\"", "\"inputBackgroundImage\": {\"image\": \"step1\"}", "\"crop\": [0, 0, 512, 512]"] {
            #expect(recipe.contains(text), "the recipe lacks \(text):\n\(recipe)")
        }
        #expect(exported.command.contains("render --recipe "), "\(exported.command)")
        let expected = try Data(contentsOf: URL(fileURLWithPath: exported.path))
        let again = directory.appendingPathComponent("again.png").path
        let (status, output) = try Tmux.spawnWithErrors(try Tmux.binary(), ["render", "--recipe", recipePath, "-o", again])
        #expect(status == 0, "\(output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == expected, "render --recipe differs from the export:\n\(recipe)")

        // A narrow terminal: the strip keeps its own row above the inputs' header. (A key clears the export's message.)
        tmux.send("Escape")
        try tmux.waitFor("the export's message is cleared") { Tmux.statusLine($0).contains(" ms ") }
        tmux.resize(columns: 80, rows: 24)
        let narrow = try tmux.waitFor("the strip and the header at 80×24") { Tmux.statusLine($0).contains(" ms ") && !Self.strip($0).isEmpty }
        let lines = Tmux.lines(narrow)
        let stripRow = try #require(lines.firstIndex { $0.contains("Chain (c): ") })
        #expect(lines[stripRow + 1].contains("Inputs: "), "\(narrow)")
        #expect(lines.allSatisfy { $0.count <= 80 })
        tmux.resize(columns: 120, rows: 40)
        try tmux.quitAndCheckRestored()

        // Reopened: the same four steps, editable, the last selected; exported again, the same bytes.
        let reopened = try Tmux(name: "chain-reopen")
        defer { reopened.kill() }
        try reopened.start(["explore", "--recipe", recipePath], tmuxConfig: try TmuxExportTests.clipboardConfig(reopened))
        let screen = try reopened.waitFor("the chain's steps are shown") {
            Self.strip($0).contains("2 ⊘CIVignette") && Self.strip($0).contains("4 CIMultiplyCompositing")
                && $0.contains("◂ output of step 1 (CIColorControls) ▸")
                && Tmux.statusLine($0).contains("recipe: CIColorControls › CIVignette › CISepiaTone › CIMultiplyCompositing")
        }
        #expect(screen.contains("Inputs: Multiply (CIMultiplyCompositing)"))
        let second = directory.appendingPathComponent("second.png").path
        _ = try TmuxExportTests.export(reopened, to: second)
        #expect(try Data(contentsOf: URL(fileURLWithPath: second)) == expected, "the reopened chain exports other bytes")
        try reopened.quitAndCheckRestored()
    }

    /// A step removed, then brought back by undo: the chain's edits are undone in order (the removal, the filter
    /// chosen for the added step, the added step), then the single filter's own edit from before the chain.
    @Test func removeAStepAndUndoInOrder() throws {
        let tmux = try Tmux(name: "chain-remove")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CISepiaTone"])
        try tmux.waitFor("sepia opens") { $0.contains("Inputs: Sepia Tone (CISepiaTone)") && Tmux.statusLine($0).contains(" ms ") }
        tmux.send("Tab", "Down", "Left")
        try tmux.waitFor("step 1's intensity changes") { Tmux.statusLine($0).contains("inputIntensity = 0.99") }
        try Self.addStep(tmux, "CIColorInvert", number: 2)
        tmux.send("c", "D")
        try tmux.waitFor("step 2 is removed") {
            $0.contains("step 2 (CIColorInvert) removed") && Self.strip($0).contains("1 CISepiaTone") && !$0.contains("CIColorInvert ›")
        }
        tmux.send("D")
        try tmux.waitFor("the last step stays") { $0.contains("the chain keeps at least one step") }
        tmux.send("Escape", "u")
        try tmux.waitFor("u brings step 2 back") { Self.strip($0).contains("2 CIColorInvert") && $0.contains("undone") }
        tmux.send("u")
        try tmux.waitFor("u undoes the filter chosen for step 2") {
            Self.strip($0).contains("2 CISepiaTone") && $0.contains("CISepiaTone → CIColorInvert")
        }
        tmux.send("u")
        try tmux.waitFor("u undoes the added step") { Self.strip($0).isEmpty && $0.contains("added") }
        tmux.send("u")
        try tmux.waitFor("then the filter's own edit") {
            $0.contains("undone") && $0.contains("inputIntensity 1 → 0.99") && Tmux.value(of: "Intensity", in: $0) == "1"
        }
        try tmux.quitAndCheckRestored()
    }
}
