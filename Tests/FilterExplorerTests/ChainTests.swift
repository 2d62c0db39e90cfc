import FilterEngine
import FilterPipeline
import Foundation
import Testing
@testable import FilterExplorer

/// `"bypass"` in recipes (read, written, skipped by `render --recipe`) and the explorer's chain model (steps with
/// their own sessions, links to earlier outputs, reordering, the recipe it writes and reads back).
@Suite struct RecipeBypassTests {
    let cli = CommandLineTests()
    static let photo = RecipeCommandLineTests.photo

    static func parse(_ text: String, source: String = "chain.json") throws -> Recipe {
        try Recipe.parse(Data(text.utf8), source: source)
    }

    @Test func bypassIsReadAndWrittenBack() throws {
        let recipe = try Self.parse("""
            [{"filter": "CISepiaTone", "bypass": true, "inputs": {"inputIntensity": 0.5}},
             {"filter": "CIVignette", "bypass": false}, {"filter": "CIColorInvert"}]
            """)
        #expect(recipe.steps.map(\.bypass) == [true, false, false])
        let json = recipe.json
        #expect(json.contains("{\"filter\": \"CISepiaTone\", \"bypass\": true, \"inputs\": {\"inputIntensity\": 0.5}}"), "\(json)")
        // Only a bypassed step says so.
        #expect(json.components(separatedBy: "bypass").count == 2, "\(json)")
        #expect(try Self.parse(json) == recipe)
    }

    @Test(arguments: [
        ("\"yes\"", "a string"), ("1", "a number"), ("null", "null"), ("[true]", "an array"),
    ])
    func badBypassValuesAreRefusedWithOneLine(_ value: String, kind: String) throws {
        let text = "[{\"filter\": \"CIVignette\"}, {\"filter\": \"CISepiaTone\", \"bypass\": \(value)}]"
        do {
            _ = try Self.parse(text, source: "looks/bad.json")
            Issue.record("bypass \(value) was accepted")
        } catch {
            let message = "\(error)"
            #expect(message.hasPrefix("looks/bad.json: step 2 (CISepiaTone): \"bypass\" is true or false"), "\(message)")
            #expect(!message.contains("\n"))
            #expect(message.contains(kind) || kind == "null", "\(message)")
        }
    }

    @Test func aBypassedStepRendersAsIfItWereNotThere() throws {
        let directory = try RecipeCommandLineTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let with = try RecipeCommandLineTests.write("""
            [{"filter": "CIColorControls", "inputs": {"inputSaturation": 0.4}},
             {"filter": "CISepiaTone", "bypass": true, "inputs": {"inputIntensity": 1}},
             {"filter": "CIVignette", "inputs": {"inputIntensity": 1}}]
            """, "with.json", in: directory)
        let without = try RecipeCommandLineTests.write("""
            [{"filter": "CIColorControls", "inputs": {"inputSaturation": 0.4}},
             {"filter": "CIVignette", "inputs": {"inputIntensity": 1}}]
            """, "without.json", in: directory)
        let on = try RecipeCommandLineTests.write("""
            [{"filter": "CIColorControls", "inputs": {"inputSaturation": 0.4}},
             {"filter": "CISepiaTone", "inputs": {"inputIntensity": 1}},
             {"filter": "CIVignette", "inputs": {"inputIntensity": 1}}]
            """, "on.json", in: directory)
        var outputs: [String] = []
        for (name, recipe) in [("with", with), ("without", without), ("on", on)] {
            let output = directory.appendingPathComponent("\(name).png").path
            let result = try cli.run(["render", "--recipe", recipe, "-i", Self.photo, "-o", output])
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(output)
        }
        let bytes = try outputs.map(RecipeCommandLineTests.bytes)
        #expect(bytes[0] == bytes[1], "the bypassed step changed the output")
        #expect(bytes[0] != bytes[2], "the step, when on, must change it (else this test proves nothing)")
    }

    /// A bypassed step's id names the image it passes on; its filter must still exist.
    @Test func aBypassedStepsIDNamesItsInput() throws {
        let photo = try ImageFile.read(Self.photo)
        let bypassed = try Self.parse("""
            [{"filter": "CIColorInvert", "id": "kept", "bypass": true},
             {"filter": "CISepiaTone"},
             {"filter": "CIMultiplyCompositing", "inputs": {"inputBackgroundImage": {"image": "kept"}}}]
            """)
        let plain = try Self.parse("""
            [{"filter": "CISepiaTone"},
             {"filter": "CIMultiplyCompositing", "inputs": {"inputBackgroundImage": {"image": "input"}}}]
            """)
        let context = RenderContext()
        let a = try context.renderRGBA8(try bypassed.makeImage(input: photo), rect: photo.extent)
        let b = try context.renderRGBA8(try plain.makeImage(input: photo), rect: photo.extent)
        #expect(a.bytes == b.bytes)
        #expect(throws: (any Error).self) { try Self.parse("[{\"filter\": \"CINoSuchFilter\", \"bypass\": true}]").makeImage(input: photo) }
        // A bypassed generator passes the input on; with no input there is nothing to pass.
        let generator = try Self.parse("[{\"filter\": \"CICheckerboardGenerator\", \"bypass\": true}]")
        #expect(try generator.makeImage(input: photo).extent == photo.extent)
        #expect(throws: (any Error).self) { try generator.makeImage(input: nil) }
    }

    @Test func theCommandLineLeavesABypassedStepOut() throws {
        let recipe = try Self.parse("""
            {"input": "in.png", "steps": [{"filter": "CISepiaTone", "bypass": true}, {"filter": "CIColorInvert"}]}
            """)
        #expect(recipe.commandArguments(output: "out.png") == ["cifiltertest", "render", "CIColorInvert", "-i", "in.png", "-o", "out.png"])
        let all = try Self.parse("[{\"filter\": \"CISepiaTone\", \"bypass\": true}]")
        #expect(all.commandArguments(output: "out.png") == nil)
    }
}

@Suite struct ChainModelTests {
    static func chain(_ names: [String], samples: SampleLibrary) throws -> Chain {
        let chain = Chain()
        for name in names {
            let session = try ExplorerFixtures.session(name, samples: samples)
            if chain.count == 0 { chain.setSelectedSession(session) } else { chain.insert(session, after: true) }
        }
        return chain
    }

    @Test func stepsAreAddedMovedBypassedAndRemoved() throws {
        let samples = try ExplorerFixtures.samples()
        let chain = try Self.chain(["CISepiaTone", "CIVignette"], samples: samples)
        #expect(chain.steps.map(\.session.name) == ["CISepiaTone", "CIVignette"])
        #expect(chain.selected == 1)
        // Before the selected step.
        chain.insert(try ExplorerFixtures.session("CIColorInvert", samples: samples), after: false)
        #expect(chain.steps.map(\.session.name) == ["CISepiaTone", "CIColorInvert", "CIVignette"])
        #expect(chain.selected == 1)
        try chain.moveSelected(by: -1)
        #expect(chain.steps.map(\.session.name) == ["CIColorInvert", "CISepiaTone", "CIVignette"])
        #expect(chain.selected == 0)
        #expect(throws: (any Error).self) { try chain.moveSelected(by: -1) }
        chain.toggleBypassSelected()
        #expect(chain.steps.map(\.bypass) == [true, false, false])
        // The filter list replaces the selected step's filter, keeping its place.
        chain.setSelectedSession(try ExplorerFixtures.session("CIPhotoEffectMono", samples: samples))
        #expect(chain.steps.map(\.session.name) == ["CIPhotoEffectMono", "CISepiaTone", "CIVignette"])
        try chain.removeSelected()
        #expect(chain.steps.map(\.session.name) == ["CISepiaTone", "CIVignette"])
        try chain.removeSelected()
        #expect(throws: (any Error).self) { try chain.removeSelected() }
        #expect(chain.count == 1)
    }

    @Test func linksLookBackAndFollowTheirStep() throws {
        let samples = try ExplorerFixtures.samples()
        let chain = try Self.chain(["CIColorControls", "CISepiaTone", "CIMultiplyCompositing"], samples: samples)
        let first = chain.steps[0].uid
        // A later inputImage takes the previous output unless linked; the options are the earlier outputs.
        #expect(chain.link(step: 1, key: "inputImage") == .step(first))
        #expect(chain.links(forStep: 2, key: "inputBackgroundImage") == [.step(first), .step(chain.steps[1].uid)])
        #expect(chain.links(forStep: 0, key: "inputBackgroundImage").isEmpty)
        chain.setLink(.step(first), step: 2, key: "inputBackgroundImage")
        #expect(chain.label(chain.link(step: 2, key: "inputBackgroundImage")!) == "output of step 1 (CIColorControls)")
        // The step it reads cannot move after it; the others can move around it.
        chain.selected = 0
        try chain.moveSelected(by: 1)
        #expect(throws: (any Error).self) { try chain.moveSelected(by: 1) }
        #expect(chain.label(.step(first)) == "output of step 2 (CIColorControls)")
        // Removing it puts the input back on its own image.
        chain.selected = 1
        let unlinked = try chain.removeSelected()
        #expect(unlinked == ["step 2's inputBackgroundImage"])
        #expect(chain.steps[1].links.isEmpty)
    }

    /// The chain's recipe renders what the chain shows, and reads back as the same chain.
    @Test func theRecipeRendersTheChainAndOpensAgain() throws {
        let samples = try ExplorerFixtures.samples()
        let chain = try Self.chain(["CIColorControls", "CISepiaTone", "CIGaussianBlur", "CIMultiplyCompositing"], samples: samples)
        try chain.steps[0].session.set(.number(0.3), forKey: "inputSaturation")
        try chain.steps[2].session.set(.number(6), forKey: "inputRadius")
        chain.selected = 1
        chain.toggleBypassSelected()
        chain.setLink(.step(chain.steps[0].uid), step: 3, key: "inputBackgroundImage")
        let context = RenderContext()
        let framing = try chain.framedOutput(samples: samples, context: context, forExport: true)
        let recipe = chain.recipe(output: "/tmp/chain-test.png", crop: framing.rect, allValues: true, samples: samples)
        #expect(recipe.steps.map(\.filter) == ["CIColorControls", "CISepiaTone", "CIAffineClamp", "CIGaussianBlur", "CIMultiplyCompositing"])
        #expect(recipe.steps.map(\.bypass) == [false, true, false, false, false])
        #expect(recipe.steps[0].id == "step1")
        #expect(recipe.steps[4].inputs.contains(.init("inputBackgroundImage", .image("step1"))))
        let reread = try Recipe.parse(Data(recipe.json.utf8), source: "chain.json")
        let source = try ImageFile.read(try #require(reread.input))
        let byRecipe = try context.renderRGBA8(try reread.makeImage(input: source), rect: framing.rect)
        let byChain = try context.renderRGBA8(framing.image, rect: framing.rect)
        #expect(byRecipe.bytes == byChain.bytes)

        // Opened again: the explorer's clamp is left out, the link and the bypass come back.
        let opened = Chain()
        let warnings = opened.open(reread) { try? ExplorerFixtures.session($0, samples: samples) }
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(opened.steps.map(\.session.name) == ["CIColorControls", "CISepiaTone", "CIGaussianBlur", "CIMultiplyCompositing"])
        #expect(opened.steps.map(\.bypass) == [false, true, false, false])
        #expect(opened.link(step: 3, key: "inputBackgroundImage") == .step(opened.steps[0].uid))
        #expect(opened.selected == 3)
        let again = opened.recipe(output: "/tmp/chain-test.png", crop: framing.rect, allValues: true, samples: samples)
        // The same recipe, its inputs in the controls' order rather than the file's (read back sorted by key).
        func sorted(_ recipe: Recipe) -> Recipe {
            var copy = recipe
            for i in copy.steps.indices { copy.steps[i].inputs.sort { $0.key < $1.key } }
            return copy
        }
        #expect(sorted(again) == sorted(reread))
    }

    /// The shipped looks open as chains that render what `render --recipe` makes of them.
    @Test(arguments: ["vintage-film.json", "warm-fade.json", "duotone.json", "sketch.json"])
    func shippedLooksOpenAsTheSameChain(_ name: String) throws {
        let samples = try ExplorerFixtures.samples()
        let look = try Recipe.load(ExplorerFixtures.repository.appendingPathComponent("Looks/\(name)").path)
        let chain = Chain()
        let warnings = chain.open(look) { try? ExplorerFixtures.session($0, samples: samples) }
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(chain.count == look.steps.count)
        let context = RenderContext()
        let framing = try chain.framedOutput(samples: samples, context: context, forExport: true)
        let made = try look.makeImage(input: samples.source)
        let rect = try Recipe.outputRect(crop: nil, image: made, input: samples.source)
        #expect(framing.rect == rect)
        #expect(try context.renderRGBA8(framing.image, rect: rect).bytes == context.renderRGBA8(made, rect: rect).bytes)
    }

    /// The preview's proxy applies to the whole chain: every step renders from images that many times smaller.
    @Test func aProxyFramesTheChainSmaller() throws {
        let samples = try ExplorerFixtures.samples()
        let chain = try Self.chain(["CIGaussianBlur", "CIVignette"], samples: samples)
        let framing = try chain.framedOutput(samples: samples, proxyFactor: 4)
        #expect(framing.proxyFactor == 4)
        #expect(framing.rect == Rect(x: 0, y: 0, width: 128, height: 128))
        #expect(framing.fullSizeRect == samples.sourceRect)
        // The selected step's own output, framed as the filter alone frames it.
        let first = try chain.framedOutput(through: 0, samples: samples, proxyFactor: 4)
        let alone = try chain.steps[0].session.framedOutput(proxyFactor: 4)
        let context = RenderContext()
        #expect(try context.renderRGBA8(first.image, rect: first.rect).bytes == context.renderRGBA8(alone.image, rect: alone.rect).bytes)
    }

    @Test func theStripKeepsTheSelectedStepInView() {
        let names = ["CITemperatureAndTint", "CIVignette", "CIRandomGenerator", "CIColorMatrix", "CIMultiplyCompositing"]
        let all = ChainStrip.items(names: names, bypassed: [false, true, false, false, false], selected: 1, width: 200)
        #expect(all.map(\.text) == ["1 CITemperatureAndTint", "2 ⊘CIVignette", "3 CIRandomGenerator", "4 CIColorMatrix",
                                    "5 CIMultiplyCompositing"])
        for selected in names.indices {
            for width in [20, 30, 45, 60] {
                let items = ChainStrip.items(names: names, bypassed: Array(repeating: false, count: 5), selected: selected, width: width)
                #expect(items.contains { $0.selected }, "step \(selected + 1) at \(width) columns")
                let length = items.map(\.text.count).reduce(0, +) + (items.count - 1) * ChainStrip.separator.count
                #expect(length <= width || items.filter { $0.text != "…" }.count == 1, "\(items.map(\.text)) at \(width)")
            }
        }
        #expect(ChainStrip.items(names: names, bypassed: Array(repeating: false, count: 5), selected: 4, width: 45).first?.text == "…")
    }
}
