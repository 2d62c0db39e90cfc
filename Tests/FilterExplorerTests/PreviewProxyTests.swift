import FilterEngine
import FilterPipeline
import Foundation
import Testing
@testable import FilterExplorer

/// Previews of large photos render from a proxy; exports and their printed commands stay exact.
@Suite struct PreviewProxyTests {
    /// A photo-sized source: the bundled sample enlarged 8× (4096×4096), written as a PNG once for every run (one
    /// name, so runs do not leave a copy each; the file is written whole or not at all).
    static let bigSource: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-big-4096.png").path
        if FileManager.default.fileExists(atPath: path) { return path }
        let samples = try! ExplorerFixtures.samples()
        // Clamped before the enlargement, so its edges stay opaque.
        let big = samples.source.clampedToExtent().transformed(by: .scale(x: 8, y: 8))
            .cropped(to: Rect(x: 0, y: 0, width: 4096, height: 4096))
        try! ImageFile.write(big, to: path, rect: big.extent, context: RenderContext())
        return path
    }()

    /// An opaque grey image of `width`×`height` pixels at the origin.
    static func solid(width: Int, height: Int) -> Image {
        let buffer = PixelBuffer(rect: PixelRect(x: 0, y: 0, width: width, height: height))
        for y in 0..<height {
            let row = buffer.row(y)
            for x in 0..<width { row[x] = Pixel(0.5, 0.5, 0.5, 1) }
        }
        return Image(buffer: buffer)
    }

    @Test func theProxyFactorKeepsTheProxyNearlyAsLargeAsThePreview() throws {
        let samples = try SampleLibrary(imagePath: Self.bigSource)
        #expect(samples.proxyFactor(forPreview: (664, 528)) == 6)   // 4096 / 664 = 6.2
        #expect(samples.proxyFactor(forPreview: (5000, 5000)) == 1)
        let small = try ExplorerFixtures.samples()
        #expect(small.proxyFactor(forPreview: (664, 528)) == 1)
        // Up to 10% smaller than the preview: 4096 / 7 = 585 is 95% of 616; 4096 / 8 = 512 would be 83%.
        #expect(samples.proxyFactor(forPreview: (616, 616)) == 7)
        // A source just larger than the preview is not shrunk (÷2 would halve it).
        #expect(samples.proxyFactor(forPreview: (3000, 3000)) == 1)
    }

    /// A 24 MP photo (6000×4000) in the explorer's preview of a 140×45 and a 200×60 terminal.
    @Test(arguments: [(140, 45, 8, 776), (200, 60, 5, 1224)])
    func theProxyFactorOfA24MegapixelPhoto(columns: Int, rows: Int, factor: Int, previewWidth: Int) {
        let source = Rect(x: 0, y: 0, width: 6000, height: 4000)
        let layout = ExplorerLayout(columns: columns, rows: rows, controlCount: 4)
        let pixels = PreviewGeometry(imageRect: source, area: layout.preview).pixelSize
        #expect(pixels.width == previewWidth)
        #expect(SampleLibrary.proxyFactor(source: source, preview: pixels) == factor)
        // The proxy's columns are at least 90% of the preview's, and one more step of the factor would not be.
        #expect(Double(6000 / factor) >= 0.9 * Double(pixels.width))
        #expect(Double(6000 / (factor + 1)) < 0.9 * Double(pixels.width))
    }

    /// A proxy a few percent smaller than the preview is a photo, scaled smoothly by chafa; an output much
    /// smaller than the preview (a reduction, a QR code) is still enlarged with nearest-neighbour.
    @Test func aProxySlightlySmallerThanThePreviewIsNotEnlargedWithNearestNeighbour() throws {
        let context = RenderContext()
        let geometry = PreviewGeometry(imageRect: Rect(x: 0, y: 0, width: 600, height: 400), area: CellRect(x: 0, y: 0, width: 40, height: 20))
        #expect(geometry.pixelSize.width == 320 && geometry.pixelSize.height == 208)
        // A ÷2 proxy of 300×200: 94% of the preview's width, 96% of its height.
        let proxy = Self.solid(width: 300, height: 200)
        let shown = try PreviewRenderer.pixels(for: PreviewRequest(image: proxy, geometry: geometry, proxyFactor: 2), context: context)
        #expect(shown.width == 300 && shown.height == 200)
        let small = Self.solid(width: 30, height: 20)
        let smallGeometry = PreviewGeometry(imageRect: Rect(x: 0, y: 0, width: 60, height: 40), area: CellRect(x: 0, y: 0, width: 40, height: 20))
        let enlarged = try PreviewRenderer.pixels(for: PreviewRequest(image: small, geometry: smallGeometry, proxyFactor: 2), context: context)
        #expect(enlarged.width == smallGeometry.pixelSize.width && enlarged.height == smallGeometry.pixelSize.height)
    }

    @Test func pixelInputsAreScaledForTheProxy() {
        let scaled = { (value: FilterValue, type: AttributeType?) in FilterSession.scaled(value, type: type, by: 0.25) }
        #expect("\(scaled(.number(40), .distance))" == "10")
        #expect("\(scaled(.number(40), .scalar))" == "40")
        #expect("\(scaled(.vector([100, 60]), .position))" == "[25 15]")
        #expect("\(scaled(.vector([8, 8, 400, 200]), .rectangle))" == "[2 2 100 50]")
        #expect("\(scaled(.transform(AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 40, ty: 80)), .transform))" == "[0 1 -1 0 10 20]")
    }

    /// A blur on the proxy looks like the full-size blur shrunk: compare the two at the proxy's size.
    @Test func aProxyPreviewLooksLikeTheFullSizeOutput() throws {
        let samples = try SampleLibrary(imagePath: Self.bigSource)
        let session = try FilterSession(descriptor: try #require(Catalog.builtIn.filter(named: "CIGaussianBlur")), samples: samples)
        try session.set(.number(40), forKey: "inputRadius")
        let context = RenderContext()
        let proxy = try session.framedOutput(proxyFactor: 8, context: context)
        #expect(proxy.proxyFactor == 8)
        #expect(proxy.rect == Rect(x: 0, y: 0, width: 512, height: 512))
        #expect(proxy.fullSizeRect == samples.sourceRect)
        let full = try session.framedOutput(context: context)
        let shrunk = full.image.downsampled(by: 8)
        let a = try context.renderRGBA8(proxy.image, rect: proxy.rect).bytes
        let b = try context.renderRGBA8(shrunk, rect: proxy.rect).bytes
        var worst = 0, total = 0, count = 0
        for y in 2..<510 {
            for x in 2..<510 {
                for c in 0..<4 {
                    let i = (y * 512 + x) * 4 + c
                    let d = abs(Int(a[i]) - Int(b[i]))
                    worst = max(worst, d)
                    total += d
                    count += 1
                }
            }
        }
        #expect(Double(total) / Double(count) < 1, "mean difference \(Double(total) / Double(count)) levels")
        #expect(worst <= 12, "proxy and full-size blur differ by up to \(worst) levels")
    }

    /// The renderer shows the proxy frame first, then the full-size refinement of the same request.
    @Test func theProxyFrameIsRefinedAtFullSize() throws {
        let samples = try SampleLibrary(imagePath: Self.bigSource)
        let session = try FilterSession(descriptor: try #require(Catalog.builtIn.filter(named: "CISepiaTone")), samples: samples)
        let context = RenderContext()
        let renderer = PreviewRenderer(context: context, mode: .truecolor, unicode: true)
        defer { renderer.stop() }
        let proxy = try session.framedOutput(proxyFactor: 8, context: context)
        let geometry = PreviewGeometry(imageRect: proxy.fullSizeRect, area: CellRect(x: 0, y: 0, width: 64, height: 32))
        let generation = renderer.submit(PreviewRequest(image: proxy.image, geometry: geometry, proxyFactor: 8,
                                                        refinement: try session.framedOutput(context: context).image))
        var factors: [Int] = []
        let deadline = Date(timeIntervalSinceNow: 60)
        while factors.last != 1, Date() < deadline {
            guard let frame = renderer.waitForFrame(atLeast: generation, timeout: 30) else { break }
            #expect(frame.error == nil)
            factors.append(frame.proxyFactor)
        }
        #expect(factors.last == 1, "frames seen: \(factors)")
    }

    /// A refinement whose intermediates pass the preview's budget is not rendered: the proxy frame comes again,
    /// marked as staying, and nothing is allocated for the full size.
    @Test func theProxyFrameStaysWhenItsRefinementIsOverBudget() throws {
        let renderer = PreviewRenderer(context: RenderContext(), mode: .truecolor, unicode: true)
        defer { renderer.stop() }
        renderer.refinementDelay = 0
        // 20000² floats through a blur: 6.4 GB at full size, far over the budget; its proxy at ÷80 is 250².
        let extent = Rect(x: 0, y: 0, width: 20_000, height: 20_000)
        let full = try Self.solid(width: 1, height: 1).clampedToExtent().cropped(to: extent)
            .applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(4)])
        let geometry = PreviewGeometry(imageRect: extent, area: CellRect(x: 0, y: 0, width: 64, height: 32))
        let generation = renderer.submit(PreviewRequest(image: Self.solid(width: 250, height: 250), geometry: geometry,
                                                        proxyFactor: 80, refinement: full))
        // The proxy frame, then the same frame again marked as staying (the first may be replaced by the second
        // before it is taken: only the newest finished frame is kept).
        var frames: [PreviewFrame] = []
        while frames.last?.refinementSkipped != true, frames.count < 2,
              let frame = renderer.waitForFrame(atLeast: generation, timeout: 30) {
            frames.append(frame)
        }
        #expect(frames.last?.refinementSkipped == true, "frames: \(frames.map(\.refinementSkipped))")
        #expect(frames.allSatisfy { $0.error == nil && $0.proxyFactor == 80 && $0.cells != nil })
    }

    @Test func transparentPixelsShowOverACheckerboard() {
        var bytes: [UInt8] = [10, 20, 30, 255, 200, 0, 0, 0, 200, 0, 0, 128]
        PreviewRenderer.composeOverCheckerboard(&bytes, width: 3, height: 1)
        #expect(bytes == [10, 20, 30, 255, 204, 204, 204, 255, 202, 102, 102, 255])
    }
}

/// The export (`e`) and the `render` command it prints make the same file, for filters whose preview clamps,
/// crops an infinite output, or reads generated images.
@Suite struct ExportReproductionTests {
    @Test(arguments: [
        ("CIGaussianBlur", ["inputRadius": FilterValue.number(40)]),
        ("CIRandomGenerator", [:]),
        ("CILinearGradient", [:]),
        ("CIBlendWithMask", [:]),
        ("CIPageCurlTransition", ["inputTime": .number(0.5)]),
        ("CIMorphologyGradient", [:]),
        ("CISepiaTone", ["inputIntensity": .number(0.7)]),
    ] as [(String, [String: FilterValue])])
    func thePrintedCommandReproducesTheExport(filter name: String, values: [String: FilterValue]) throws {
        let binary = try #require(CommandLineTests.binary, "cifiltertest must be built before the tests")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-export-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples = try ExplorerFixtures.samples()
        let session = try ExplorerFixtures.session(name, samples: samples)
        for (key, value) in values { try session.set(value, forKey: key) }
        let context = RenderContext()
        let output = directory.appendingPathComponent("out.png").path
        let framing = try session.framedOutput(context: context, forExport: true)
        for file in session.exportFiles(output: output) { try file.write(context: context) }
        let expected = try context.renderRGBA8(framing.image, rect: framing.rect)

        let process = Process()
        process.executableURL = binary
        process.arguments = Array(session.renderArguments(output: output, crop: framing.isCropped ? framing.rect : nil).dropFirst())
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(process.arguments ?? [])")
        let written = try ImageFile.read(output)
        let reproduced = try context.renderRGBA8(written, rect: written.extent)
        #expect(reproduced.width == expected.width && reproduced.height == expected.height,
                "\(name): command \(reproduced.width)×\(reproduced.height), export \(expected.width)×\(expected.height)")
        guard reproduced.bytes.count == expected.bytes.count else { return }
        // Generated images travel as 16-bit PNG: one level of difference is allowed; faint alpha amplifies it.
        var worst = 0
        for i in stride(from: 0, to: expected.bytes.count, by: 4) where expected.bytes[i + 3] >= 32 {
            for c in 0..<4 { worst = max(worst, abs(Int(expected.bytes[i + c]) - Int(reproduced.bytes[i + c]))) }
        }
        #expect(worst <= 1, "\(name): the command's output differs from the export by up to \(worst) levels")
    }
}
