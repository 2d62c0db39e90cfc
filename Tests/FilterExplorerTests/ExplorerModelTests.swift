import FilterEngine
import FilterPipeline
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
        // Emboss: grey relief where alpha is kept, relief on the picture (weights summing to 1) where it is not.
        let convolution = try ExplorerFixtures.session("CIConvolutionRGB3X3", samples: samples)
        #expect(convolution.value(forKey: "inputWeights").map(ValueParser.format) == "[1 0 0 0 0 0 0 0 -1]")
        #expect(convolution.value(forKey: "inputBias").map(ValueParser.format) == "0.5")
        let withAlpha = try ExplorerFixtures.session("CIConvolution9Horizontal", samples: samples)
        #expect(withAlpha.value(forKey: "inputWeights").map(ValueParser.format) == "[1 0 0 0 1 0 0 0 -1]")
        #expect(withAlpha.value(forKey: "inputBias").map(ValueParser.format) == "0")
        #expect(FilterSession.stockPosition(key: "inputTopLeft", in: samples.sourceRect) == [102, 435])
        #expect(FilterSession.stockPosition(key: "inputPoint1", in: samples.sourceRect) == [384, 384])
    }

    @Test func transitionsStartHalfWayOverTheWholeImage() throws {
        let samples = try ExplorerFixtures.samples()
        for name in ["CIDissolveTransition", "CIRippleTransition", "CIPageCurlTransition", "CICopyMachineTransition"] {
            let transition = try ExplorerFixtures.session(name, samples: samples)
            #expect(transition.value(forKey: "inputTime").map(ValueParser.format) == "0.5", "\(name)")
            #expect(transition.imageChoices["inputTargetImage"] == .second, "\(name)")
            if transition.descriptor.input("inputExtent") != nil {
                #expect(transition.value(forKey: "inputExtent").map(ValueParser.format) == "[0 0 512 512]", "\(name)")
            }
        }
        let ripple = try ExplorerFixtures.session("CIRippleTransition", samples: samples)
        #expect(ripple.value(forKey: "inputCenter").map(ValueParser.format) == "[256 256]")
        #expect(ripple.imageChoices["inputShadingImage"] == .shading)
        let curl = try ExplorerFixtures.session("CIPageCurlTransition", samples: samples)
        #expect(curl.imageChoices["inputShadingImage"] == .shading)
        #expect(curl.imageChoices["inputBacksideImage"] == .second)
        // Reset keeps the stock time, not the catalogue's 0.
        try curl.set(.number(0.9), forKey: "inputTime")
        curl.reset("inputTime")
        #expect(curl.value(forKey: "inputTime").map(ValueParser.format) == "0.5")
    }

    @Test func imageInputsOfTheNewFamiliesGetTheirOwnPictures() throws {
        let samples = try ExplorerFixtures.samples()
        #expect(try ExplorerFixtures.session("CIShadedMaterial", samples: samples).imageChoices["inputShadingImage"] == .shading)
        // The small image is the source downscaled, so the upsampler has the right picture to enlarge.
        let upsample = try ExplorerFixtures.session("CIEdgePreserveUpsampleFilter", samples: samples)
        #expect(upsample.imageChoices["inputSmallImage"] == .smallSource)
        #expect(try samples.image(.smallSource).extent == Rect(x: 0, y: 0, width: 128, height: 128))
        #expect(samples.choices(for: .small).first == .smallSource)
        // The guided filter upsamples its inputImage along the edges of the full-size guide.
        let guided = try ExplorerFixtures.session("CIGuidedFilter", samples: samples)
        #expect(guided.imageChoices["inputImage"] == .smallSource)
        #expect(guided.imageChoices["inputGuideImage"] == .source)
        #expect(try guided.framedOutput().rect == samples.sourceRect)
        #expect(try ExplorerFixtures.session("CIKMeans", samples: samples).imageChoices["inputMeans"]
            == .palette(StockImages.paletteNames[0]))
        // The histogram display draws the source's area histogram, 256 bins in a row.
        let display = try ExplorerFixtures.session("CIHistogramDisplayFilter", samples: samples)
        #expect(display.kind(forKey: "inputImage") == .image(.histogram))
        #expect(display.imageChoices["inputImage"] == .histogram)
        #expect(try samples.image(.histogram).extent == Rect(x: 0, y: 0, width: 256, height: 1))
        #expect(try ExplorerFixtures.session("CIAreaHistogram", samples: samples).kind(forKey: "inputImage") == .image(.picture))
        // The shading ball is offered to every picture input, like the mask.
        #expect(samples.choices.starts(with: [.source, .second, .mask, .alphaMask, .shading]))
        // The samples are opaque: the alpha mask gets the radial mask in alpha.
        #expect(try ExplorerFixtures.session("CIBlendWithAlphaMask", samples: samples).imageChoices["inputMaskImage"] == .alphaMask)
        let corner = try RenderContext().renderRGBA8(try samples.image(.alphaMask), rect: Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(corner.bytes[3] == 0)
        for choice in [ImageChoice.alphaMask, .shading, .smallSource, .histogram] {
            #expect(ImageChoice(persisted: choice.persisted) == choice)
        }
    }

    @Test func theShadingBallIsLitFromTheTopLeft() throws {
        let ball = SampleLibrary.makeShading()
        #expect(ball.extent == Rect(x: 0, y: 0, width: 256, height: 256))
        let context = RenderContext()
        func encoded(_ x: Double, _ y: Double) throws -> Double {
            Double(try context.renderRGBA8(ball, rect: Rect(x: x, y: y, width: 1, height: 1)).bytes[0]) / 255
        }
        // Light L = (-0.5, 0.5, 0.7)/0.995, half-vector H = (L + z)/|L + z|. At the centre the normal is z:
        // 0.04 + 0.8 (L·z = 0.7035) + 0.6 (H·z = 0.9226)^30 = 0.04 + 0.563 + 0.053 = 0.656.
        #expect(abs(try encoded(128, 128) - 0.656) < 0.01)
        // Where the normal is H (up and to the left of the centre) the highlight saturates.
        #expect(try encoded(128 - 0.5025 / 1.8465 * 128, 128 + 0.5025 / 1.8465 * 128) > 0.99)
        // The bottom-right rim faces away from the light: ambient only.
        #expect(abs(try encoded(255, 0) - 0.04) < 0.01)
    }

    @Test func fourCornersMakeAQuadrilateralInsideTheImage() throws {
        let rect = Rect(x: 0, y: 0, width: 512, height: 512)
        func corner(_ name: String) -> [Double] { FilterSession.stockPosition(key: "input" + name, in: rect) }
        let (topLeft, topRight) = (corner("TopLeft"), corner("TopRight"))
        let (bottomLeft, bottomRight) = (corner("BottomLeft"), corner("BottomRight"))
        for point in [topLeft, topRight, bottomLeft, bottomRight] {
            #expect(point[0] > 0 && point[0] < 512 && point[1] > 0 && point[1] < 512)
        }
        #expect(topLeft[1] > bottomLeft[1] && topRight[1] > bottomRight[1] && topRight[0] > topLeft[0])
        // Not a rectangle: narrower at the top (vertical keystone), taller on the right (horizontal keystone).
        #expect(topRight[0] - topLeft[0] < bottomRight[0] - bottomLeft[0])
        #expect(topRight[1] - bottomRight[1] > topLeft[1] - bottomLeft[1])
        // Keystone and perspective filters start on these corners and change the picture.
        let keystone = try ExplorerFixtures.session("CIKeystoneCorrectionCombined")
        #expect(keystone.value(forKey: "inputTopLeft").map(ValueParser.format) == "[102 435]")
        let perspective = try ExplorerFixtures.session("CIPerspectiveCorrection")
        #expect(perspective.value(forKey: "inputBottomRight").map(ValueParser.format) == "[486 26]")
    }

    @Test func editsResetsAndRefusals() throws {
        let sepia = try ExplorerFixtures.session("CISepiaTone")
        try sepia.setText("0.25", forKey: "inputIntensity")
        #expect(sepia.edited == ["inputIntensity"])
        // Outside the catalogue's range but finite: taken, as Core Image takes it. Not finite or not a number: refused.
        try sepia.setText("-2", forKey: "inputIntensity")
        #expect(sepia.value(forKey: "inputIntensity").map(ValueParser.format) == "-2")
        try sepia.setText("0.25", forKey: "inputIntensity")
        #expect(throws: FilterError.self) { try sepia.setText("nan", forKey: "inputIntensity") }
        #expect(throws: FilterError.self) { try sepia.setText("inf", forKey: "inputIntensity") }
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
        // Names rank first; n then goes through every match (descriptions and input keys too) and wraps around.
        let all = tree.matches("vignette") + tree.describedMatches("vignette")
        let first = tree.nextMatch("vignette", forward: true)!
        #expect(tree.matches("vignette").contains(first))
        var seen = [first]
        tree.reveal(filterNamed: first)
        for _ in 1..<all.count {
            let next = tree.nextMatch("vignette", forward: true)!
            seen.append(next)
            tree.reveal(filterNamed: next)
        }
        #expect(Set(seen) == Set(all) && seen.count == all.count)
        #expect(tree.nextMatch("vignette", forward: true) == first)  // wraps around
        // Input keys and descriptions are searched too, after the names.
        #expect(tree.matches("inputradius").isEmpty)
        #expect(tree.describedMatches("inputRadius").contains("CIGaussianBlur"))
        #expect(!tree.describedMatches("sepia").contains("CISepiaTone"))
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
        #expect(unique == tree.list.catalog.filters.count)
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
        // By category or name: blur family, sharpening, bloom and gloom, convolutions.
        for name in ["CIMedianFilter", "CINoiseReduction", "CIMorphologyGradient", "CIBokehBlur", "CISharpenLuminance",
                     "CIUnsharpMask", "CIBloom", "CIGloom", "CIConvolutionRGB9Vertical"] {
            #expect(PreviewPlanner.readsBeyondEdge(try #require(Catalog.builtIn.filter(named: name))), "\(name)")
        }
        // Filters that clamp their input themselves, or whose look depends on the edge, are not clamped.
        for name in ["CIEdges", "CIEdgeWork", "CIHighlightShadowAdjust", "CILineOverlay", "CIDepthOfField", "CIPixellate",
                     "CIGuidedFilter", "CIPageCurlTransition"] {
            #expect(!PreviewPlanner.readsBeyondEdge(try #require(Catalog.builtIn.filter(named: name))), "\(name)")
        }
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

    @Test func reductionsAreShownOpaque() throws {
        let samples = try ExplorerFixtures.samples()
        let context = RenderContext()
        // A histogram's alpha bins are empty but the top one for an opaque source; shown opaque, with the bins'
        // values (scaled by the stock 64 / 4 = 16) as colours.
        let histogram = try ExplorerFixtures.session("CIAreaHistogram", samples: samples)
        #expect(histogram.value(forKey: "inputScale").map(ValueParser.format) == "16")
        let framing = try histogram.framedOutput()
        #expect(framing.rect == Rect(x: 0, y: 0, width: 64, height: 1))
        let bins = try context.renderRGBA8(framing.image, rect: framing.rect).bytes
        #expect(stride(from: 3, to: bins.count, by: 4).allSatisfy { bins[$0] == 255 })
        #expect(stride(from: 0, to: bins.count, by: 4).contains { bins[$0] > 128 })
        // K-means weights each mean by its share: shown un-premultiplied, at full strength.
        let descriptor = try #require(Catalog.builtIn.filter(named: "CIKMeans"))
        let half = Image(color: Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5)).cropped(to: Rect(x: 0, y: 0, width: 2, height: 1))
        let shown = PreviewPlanner.frame(output: half, descriptor: descriptor, sourceRect: samples.sourceRect)
        let pixel = try context.renderRGBA8(shown.image, rect: shown.rect).bytes
        #expect(pixel[3] == 255 && abs(Int(pixel[0]) - 128) <= 1)
        // Pictures keep their alpha.
        let sepia = try #require(Catalog.builtIn.filter(named: "CISepiaTone"))
        let kept = PreviewPlanner.frame(output: half, descriptor: sepia, sourceRect: samples.sourceRect)
        #expect(try context.renderRGBA8(kept.image, rect: kept.rect).bytes[3] == 128)
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
