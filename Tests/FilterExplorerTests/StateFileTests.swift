import FilterEngine
import Foundation
import Testing
@testable import FilterExplorer

/// The state file's chain: written and read back whole; a file from version 1 (no chain) and files partly of the
/// wrong shape load what they can and say what was left out; the chain's undo snapshots.
@Suite struct StateFileTests {
    static func temporaryURL(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("state-file-\(name)-\(UUID())/state.json")
    }

    static let threeSteps = SavedChain(steps: [
        SavedStep(filter: "CIColorControls", values: ["inputSaturation": "0.5"]),
        SavedStep(filter: "CIVignette", values: ["inputIntensity": "0.7", "inputRadius": "2"], bypass: true),
        SavedStep(filter: "CIMultiplyCompositing", values: [:], id: "mix", links: ["inputBackgroundImage": "step 1"]),
    ], selected: 1, previewsSelectedStep: true)

    @Test func theChainRoundTripsThroughTheStateFile() throws {
        let url = Self.temporaryURL("roundtrip")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let state = ExplorerState(lastFilter: "CIVignette", values: ["CIVignette": ["inputIntensity": "0.7"]], chain: Self.threeSteps)
        try state.save(to: url)
        let (loaded, warning) = ExplorerState.load(from: url)
        #expect(warning == nil)
        #expect(loaded == state)
        #expect(loaded.version == 2)
        #expect(loaded.chain?.steps.map(\.filter) == ["CIColorControls", "CIVignette", "CIMultiplyCompositing"])
        #expect(loaded.chain?.steps[1].bypass == true)
        #expect(loaded.chain?.steps[2].links == ["inputBackgroundImage": "step 1"])
        #expect(loaded.chain?.selected == 1)
    }

    @Test func aVersionOneFileLoadsWithoutAChain() throws {
        let text = #"{"version": 1, "lastFilter": "CISepiaTone", "values": {"CISepiaTone": {"inputIntensity": "0.5"}}}"#
        let (state, warning) = try ExplorerState.decode(Data(text.utf8), path: "state.json")
        #expect(warning == nil)
        #expect(state.lastFilter == "CISepiaTone")
        #expect(state.values == ["CISepiaTone": ["inputIntensity": "0.5"]])
        #expect(state.chain == nil)
    }

    @Test func partsOfTheWrongShapeAreLeftOutAndNamed() throws {
        // One filter's values are a number, the second step has no filter, the selection is text: the rest stays.
        let text = """
            {"version": 2, "lastFilter": "CIVignette",
             "values": {"CISepiaTone": 3, "CIVignette": {"inputIntensity": "0.7"}},
             "chain": {"steps": [{"filter": "CIColorControls"}, {"values": {}}, {"filter": "CIVignette", "bypass": true}],
                       "selected": "two"}}
            """
        let (state, warning) = try ExplorerState.decode(Data(text.utf8), path: "state.json")
        #expect(state.lastFilter == "CIVignette")
        #expect(state.values == ["CIVignette": ["inputIntensity": "0.7"]])
        #expect(state.chain?.steps.map(\.filter) == ["CIColorControls", "CIVignette"])
        #expect(state.chain?.steps[1].bypass == true)
        #expect(state.chain?.selected == 1, "an unreadable selection selects the last step")
        let text2 = warning ?? ""
        #expect(text2.contains("partly unreadable") && text2.contains("the values of CISepiaTone") && text2.contains("chain step 2"), "\(text2)")
    }

    @Test func aChainOfTheWrongShapeIsLeftOutAndTheRestLoads() throws {
        let text = #"{"lastFilter": "CISepiaTone", "values": {}, "chain": [1, 2]}"#
        let (state, warning) = try ExplorerState.decode(Data(text.utf8), path: "state.json")
        #expect(state.lastFilter == "CISepiaTone")
        #expect(state.chain == nil)
        #expect(warning?.contains("left out: the chain") == true, "\(warning ?? "")")
    }

    @Test(arguments: ["{ not json", "", "[1, 2, 3]", "\"text\"", #"{"values": {"#])
    func aFileThatIsNotAStateStartsFreshWithAWarning(_ text: String) throws {
        let url = Self.temporaryURL("corrupt")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        let (state, warning) = ExplorerState.load(from: url)
        #expect(state == ExplorerState())
        #expect(warning?.contains("not valid") == true, "\(warning ?? "")")
    }

    @Test func linksAreReadAsInputOrAnEarlierStep() {
        #expect(SavedStep.parseLink("input")?.isInput == true)
        #expect(SavedStep.parseLink("step 2")?.step == 2)
        #expect(SavedStep.parseLink("step 0") == nil)
        #expect(SavedStep.parseLink("step two") == nil)
        #expect(SavedStep.parseLink("output") == nil)
    }

    @Test func aChainSnapshotPutsBackStepsLinksBypassAndValues() throws {
        let samples = try ExplorerFixtures.samples()
        let chain = Chain()
        let controls = try ExplorerFixtures.session("CIColorControls", samples: samples)
        chain.setSelectedSession(controls)
        let vignette = try ExplorerFixtures.session("CIVignette", samples: samples)
        chain.insert(vignette, after: true)
        let multiply = try ExplorerFixtures.session("CIMultiplyCompositing", samples: samples)
        chain.insert(multiply, after: true)
        chain.setLink(.step(chain.steps[0].uid), step: 2, key: "inputBackgroundImage")
        try vignette.set(.number(0.7), forKey: "inputIntensity")
        let before = chain.snapshot(label: "test")

        // Edits after it: a value, a bypass, a removed step (with the link that took it).
        try vignette.set(.number(0.2), forKey: "inputIntensity")
        chain.selected = 1
        chain.toggleBypassSelected()
        chain.selected = 0
        _ = try chain.removeSelected()
        #expect(chain.count == 2)

        chain.restore(before)
        #expect(chain.steps.map(\.session.name) == ["CIColorControls", "CIVignette", "CIMultiplyCompositing"])
        #expect(chain.steps[0].session === controls)
        #expect(chain.steps.map(\.bypass) == [false, false, false])
        #expect(chain.steps[2].links["inputBackgroundImage"] == .step(chain.steps[0].uid))
        #expect(vignette.value(forKey: "inputIntensity").map(ValueParser.format) == "0.7")
        #expect(chain.selected == 2)
        // New steps never reuse a restored step's id.
        let added = chain.insert(try ExplorerFixtures.session("CISepiaTone", samples: samples), after: true)
        #expect(Set(chain.steps.map(\.uid)).count == chain.count, "step \(added + 1) has a fresh uid")
    }
}
