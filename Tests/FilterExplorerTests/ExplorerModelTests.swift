import FilterEngine
import Foundation
import Testing
@testable import FilterExplorer

/// The explorer's model without a terminal: samples, stock inputs, persistence, preview framing and rendering.
enum ExplorerFixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let samplesDirectory = repository.appendingPathComponent("SampleImages").path
    static let environment = ["CIFILTERTEST_SAMPLES": samplesDirectory]

    static func samples() throws -> SampleLibrary { try SampleLibrary(imagePath: nil, environment: environment) }

    static func session(_ name: String, samples: SampleLibrary? = nil) throws -> FilterSession {
        try FilterSession(descriptor: try #require(Catalog.builtIn.filter(named: name)), samples: samples ?? self.samples())
    }
}

@Suite struct ExplorerSamplesTests {
    @Test func bundledSamplesAreFound() throws {
        let samples = try ExplorerFixtures.samples()
        #expect(samples.sourceName == "astronaut.png")
        #expect(samples.sourceRect == Rect(x: 0, y: 0, width: 512, height: 512))
        #expect((samples.secondPath as NSString).lastPathComponent == "coffee.png")
        #expect(samples.mask.extent == samples.sourceRect)
        #expect(samples.choices.starts(with: [.source, .second, .mask]))
        #expect(samples.choices.contains(.sample("chelsea.png")))
    }

    @Test func aMissingImageIsAClearError() {
        #expect(throws: ImageFileError.self) {
            try SampleLibrary(imagePath: "/nonexistent/picture.png", environment: ExplorerFixtures.environment)
        }
        let error = #expect(throws: FilterExplorerError.self) {
            try SampleLibrary(imagePath: nil, environment: ["CIFILTERTEST_SAMPLES": "/nonexistent"])
        }
        #expect(error?.message.contains("SampleImages") == true)
    }

    @Test func imageChoicesPersist() {
        for choice in [ImageChoice.source, .second, .mask, .sample("coffee.png"), .file("/tmp/a b.png")] {
            #expect(ImageChoice(persisted: choice.persisted) == choice)
        }
        #expect(ImageChoice(persisted: "nonsense") == nil)
    }
}

@Suite struct ExplorerSessionTests {
    @Test func stockInputsAsCIFilterTestSetsThemUp() throws {
        let samples = try ExplorerFixtures.samples()
        let twirl = try ExplorerFixtures.session("CITwirlDistortion", samples: samples)
        #expect(twirl.value(forKey: "inputCenter").map(ValueParser.format) == "[256 256]")
        #expect(twirl.imageChoices["inputImage"] == .source)
        let crop = try ExplorerFixtures.session("CICrop", samples: samples)
        #expect(crop.value(forKey: "inputRectangle").map(ValueParser.format) == "[64 64 384 384]")
        let mask = try ExplorerFixtures.session("CIBlendWithMask", samples: samples)
        #expect(mask.imageChoices["inputMaskImage"] == .mask)
        #expect(mask.imageChoices["inputBackgroundImage"] == .second)
        let qr = try ExplorerFixtures.session("CIQRCodeGenerator", samples: samples)
        #expect(qr.value(forKey: "inputMessage").map(ValueParser.format) == FilterSession.stockMessage)
        let convolution = try ExplorerFixtures.session("CIConvolution3X3", samples: samples)
        #expect(convolution.value(forKey: "inputWeights").map(ValueParser.format) == "[1 0 0 0 0 0 0 0 -1]")
        #expect(convolution.value(forKey: "inputBias").map(ValueParser.format) == "0.5")
        #expect(FilterSession.stockPosition(key: "inputTopLeft", in: samples.sourceRect) == [51, 461])
        #expect(FilterSession.stockPosition(key: "inputPoint1", in: samples.sourceRect) == [384, 384])
    }

    @Test func editsResetsAndRefusals() throws {
        let sepia = try ExplorerFixtures.session("CISepiaTone")
        try sepia.setText("0.25", forKey: "inputIntensity")
        #expect(sepia.edited == ["inputIntensity"])
        #expect(throws: FilterError.self) { try sepia.setText("-2", forKey: "inputIntensity") }
        #expect(throws: FilterError.self) { try sepia.setText("lots", forKey: "inputIntensity") }
        #expect(sepia.value(forKey: "inputIntensity").map(ValueParser.format) == "0.25")
        sepia.reset("inputIntensity")
        #expect(sepia.value(forKey: "inputIntensity").map(ValueParser.format) == "1")
        #expect(sepia.edited.isEmpty)
        try sepia.setImage(.second, forKey: "inputImage")
        sepia.resetAll()
        #expect(sepia.imageChoices["inputImage"] == .source)
    }

    @Test func valuesRoundTripThroughTheStateFile() throws {
        let samples = try ExplorerFixtures.samples()
        let twirl = try ExplorerFixtures.session("CITwirlDistortion", samples: samples)
        try twirl.set(.vector([100, 200]), forKey: "inputCenter")
        try twirl.set(.number(1.5), forKey: "inputAngle")
        try twirl.setImage(.sample("chelsea.png"), forKey: "inputImage")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-state-\(getpid())/state.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try ExplorerState(lastFilter: "CITwirlDistortion", values: ["CITwirlDistortion": twirl.persistedValues()]).save(to: url)

        let (loaded, warning) = ExplorerState.load(from: url)
        #expect(warning == nil)
        #expect(loaded.lastFilter == "CITwirlDistortion")
        let restored = try ExplorerFixtures.session("CITwirlDistortion", samples: samples)
        #expect(restored.restore(loaded.values["CITwirlDistortion"] ?? [:]).isEmpty)
        #expect(restored.value(forKey: "inputCenter").map(ValueParser.format) == "[100 200]")
        #expect(restored.value(forKey: "inputAngle").map(ValueParser.format) == "1.5")
        #expect(restored.imageChoices["inputImage"] == .sample("chelsea.png"))
        #expect(restored.restore(["inputNope": "1", "inputAngle": "x"]).count == 2)
    }

    @Test func aCorruptStateFileIsIgnoredWithAWarning() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-corrupt-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("{ not json".utf8).write(to: url)
        let (state, warning) = ExplorerState.load(from: url)
        #expect(state == ExplorerState())
        #expect(warning?.contains("not valid") == true)
        #expect(ExplorerState.load(from: URL(fileURLWithPath: "/nonexistent/state.json")).warning == nil)
    }

    @Test func stateLivesInTheXDGStateDirectory() {
        #expect(ExplorerState.defaultURL(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"]).path
            == "/x/state/cifiltertest/state.json")
        #expect(ExplorerState.defaultURL(environment: ["HOME": "/home/u"]).path
            == "/home/u/.local/state/cifiltertest/state.json")
    }

    @Test func renderCommandLine() throws {
        let samples = try ExplorerFixtures.samples()
        let sepia = try ExplorerFixtures.session("CISepiaTone", samples: samples)
        try sepia.set(.number(0.5), forKey: "inputIntensity")
        #expect(sepia.renderCommand(output: "out.png")
            == "cifiltertest render CISepiaTone inputIntensity=0.5 -i \(samples.sourcePath) -o out.png")
        let twirl = try ExplorerFixtures.session("CITwirlDistortion", samples: samples)
        #expect(twirl.renderCommand(output: "my out.png")
            == "cifiltertest render CITwirlDistortion 'inputCenter=[256 256]' -i \(samples.sourcePath) -o 'my out.png'")
    }
}

// Serialized: expansion state lives in the shared FiltersList.
@Suite(.serialized) struct ExplorerTreeTests {
    @Test func browseAndSearch() {
        let tree = FilterTree(list: .shared)
        tree.list.collapseAll()
        tree.showAllCategories = false
        let categories = tree.rows.count
        #expect(tree.rows.allSatisfy { if case .category = $0 { true } else { false } })
        tree.moveCursor(to: 0)
        tree.toggle()
        #expect(tree.rows.count > categories)
        tree.moveCursor(by: 1)
        #expect(tree.currentFilter != nil)
        tree.moveToParent()
        #expect(tree.cursor == 0)
        tree.toggle()
        #expect(tree.rows.count == categories)

        #expect(tree.reveal(filterNamed: "CIGaussianBlur"))
        #expect(tree.currentFilter?.filterName == "CIGaussianBlur")
        #expect(tree.matches("sepia") == ["CISepiaTone"])
        #expect(tree.matches("VIGNETTE").count == 2)
        let first = tree.nextMatch("vignette", forward: true)!
        tree.reveal(filterNamed: first)
        let second = tree.nextMatch("vignette", forward: true)!
        #expect(second != first)
        tree.reveal(filterNamed: second)
        #expect(tree.nextMatch("vignette", forward: true) == first)  // wraps around
        #expect(tree.nextMatch("no such filter", forward: true) == nil)
        tree.list.collapseAll()
    }

    @Test func everyMembershipView() {
        let tree = FilterTree(list: .shared)
        tree.list.expandAll()
        tree.showAllCategories = false
        let unique = tree.rows.filter { if case .filter = $0 { true } else { false } }.count
        tree.showAllCategories = true
        let all = tree.rows.filter { if case .filter = $0 { true } else { false } }.count
        #expect(unique == Catalog.builtIn.filters.count)
        #expect(all > unique)
        tree.list.collapseAll()
    }
}

@Suite struct ExplorerPreviewTests {
    let source = Image(color: Color(red: 1, green: 0, blue: 0)).cropped(to: Rect(x: 0, y: 0, width: 64, height: 48))

    @Test func blursGetAClampedSourceAndAreCroppedBack() throws {
        let blur = try #require(Catalog.builtIn.filter(named: "CIGaussianBlur"))
        #expect(PreviewPlanner.readsBeyondEdge(blur))
        #expect(!PreviewPlanner.readsBeyondEdge(try #require(Catalog.builtIn.filter(named: "CISepiaTone"))))
        #expect(PreviewPlanner.input(for: blur, source: source).extent.isInfinite)
        let output = try PreviewPlanner.input(for: blur, source: source).applyingFilter("CIGaussianBlur")
        #expect(PreviewPlanner.frame(output: output, descriptor: blur, sourceRect: source.extent).rect == source.extent)
    }

    @Test func generatorsAndLargeOutputsAreCroppedToTheSource() throws {
        let generator = try Filter(named: "CICheckerboardGenerator").makeOutputImage()
        #expect(PreviewPlanner.frame(output: generator, descriptor: nil, sourceRect: source.extent).rect == source.extent)
        let larger = source.transformed(by: .scale(x: 2, y: 2))
        #expect(PreviewPlanner.frame(output: larger, descriptor: nil, sourceRect: source.extent).rect == source.extent)
        let small = source.cropped(to: Rect(x: 0, y: 0, width: 8, height: 8))
        #expect(PreviewPlanner.frame(output: small, descriptor: nil, sourceRect: source.extent).rect.width == 8)
    }

    @Test func nearestNeighbourUpscale() {
        let pixels: [UInt8] = [1, 1, 1, 255, 2, 2, 2, 255,
                               3, 3, 3, 255, 4, 4, 4, 255]
        let big = PreviewRenderer.upscaleNearest(pixels, width: 2, height: 2, to: 4, 4)
        #expect(big.count == 64)
        #expect(stride(from: 0, to: 64, by: 4).map { big[$0] } == [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4])
    }

    @Test func rendererMakesCellsOffTheCallingThread() throws {
        let renderer = PreviewRenderer(context: RenderContext(), mode: .indexed256, unicode: true)
        defer { renderer.stop() }
        let geometry = PreviewGeometry(imageRect: source.extent, area: CellRect(x: 0, y: 0, width: 32, height: 12))
        let generation = renderer.submit(PreviewRequest(image: source, geometry: geometry))
        let frame = try #require(renderer.waitForFrame(atLeast: generation))
        #expect(frame.error == nil)
        let cells = try #require(frame.cells)
        #expect(cells.width == geometry.cells.width && cells.height == geometry.cells.height)
        // Pure red is xterm-256 colour 196 wherever it lands (as foreground or background).
        #expect(zip(cells.foreground, cells.background).allSatisfy { $0 == 196 || $1 == 196 })
    }

    @Test func onlyTheNewestRequestIsDelivered() throws {
        let renderer = PreviewRenderer(context: RenderContext(), mode: .indexed16, unicode: false)
        defer { renderer.stop() }
        let geometry = PreviewGeometry(imageRect: source.extent, area: CellRect(x: 0, y: 0, width: 16, height: 6))
        var last = 0
        for _ in 0..<20 { last = renderer.submit(PreviewRequest(image: source, geometry: geometry)) }
        let frame = try #require(renderer.waitForFrame(atLeast: last))
        #expect(frame.generation == last)
        #expect(renderer.takeFrame() == nil)
    }

    @Test func renderErrorsComeBackAsFrames() throws {
        let renderer = PreviewRenderer(context: RenderContext(), mode: .monochrome, unicode: true)
        defer { renderer.stop() }
        let geometry = PreviewGeometry(imageRect: Rect(x: 0, y: 0, width: 64, height: 48),
                                       area: CellRect(x: 0, y: 0, width: 16, height: 6))
        // An infinite rectangle cannot be rendered: the engine's error arrives as the frame's error.
        let bad = PreviewRequest(image: Image(color: .white), geometry:
            PreviewGeometry(imageRect: .infinite, area: geometry.cells))
        let generation = renderer.submit(bad)
        let frame = try #require(renderer.waitForFrame(atLeast: generation))
        #expect(frame.error != nil && frame.cells == nil)
    }
}
