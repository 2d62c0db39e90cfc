import Foundation
import Testing
import CoreImage
import FilterEngine

/// Real Core Image snippets (Snippets/, each with its source) compiled against `import CoreImage` and rendered:
/// sizes, pixels against the engine's own filters, or known values.
@Suite struct CompatibilitySnippetTests {
    let chelsea = CIImage(contentsOf: Samples.chelsea)!

    @Test func s01SepiaExtensionMatchesTheEngine() throws {
        let out = try #require(chelsea.sepiaToneFilter(intensity: 0.7))
        #expect(out.extent == chelsea.extent)
        let reference = try Pixels.engine([("CISepiaTone", ["inputIntensity": .number(0.7)])], on: Samples.chelsea)
        #expect(Pixels.maxDifference(Pixels.rgba8(out), reference) == 0)
        // The class form gives the same filter.
        let viaClass = try #require(SepiaTone(intensity: 0.7, image: chelsea).filter()?.outputImage)
        #expect(Pixels.rgba8(viaClass) == Pixels.rgba8(out))
    }

    @Test func s02OverlayIsCentred() throws {
        let background = CIImage(color: .red).cropped(to: CGRect(x: 0, y: 0, width: 100, height: 80))
        let overlay = CIImage(color: .blue).cropped(to: CGRect(x: 0, y: 0, width: 20, height: 10))
        let out = try #require(background.combined(with: overlay))
        #expect(out.extent == CGRect(x: 0, y: 0, width: 100, height: 80))
        let bytes = Pixels.rgba8(out)
        // The overlay covers x 40..<60, y 35..<45 (y up), i.e. rows 35..<45 from the top too (80 - 45 = 35).
        #expect(Pixels.at(bytes, width: 100, x: 50, yFromTop: 40) == [0, 0, 255, 255])
        #expect(Pixels.at(bytes, width: 100, x: 40, yFromTop: 35) == [0, 0, 255, 255])
        #expect(Pixels.at(bytes, width: 100, x: 39, yFromTop: 40) == [255, 0, 0, 255])
        #expect(Pixels.at(bytes, width: 100, x: 50, yFromTop: 34) == [255, 0, 0, 255])
    }

    @Test func s03FunctionalOverlayIsSourceOverInLinearLight() throws {
        // The playground's usage, with a CIColor for UIColor.green.withAlphaComponent(0.2).
        let image = chelsea
        let blurRadius = 5.0
        let overlayColor = CIColor(red: 0, green: 1, blue: 0, alpha: 0.2)
        let blurredImage = blur(radius: blurRadius)(image)
        let result = colorOverlay(color: overlayColor)(blur(radius: blurRadius)(image))
        #expect(blurredImage.extent.width > image.extent.width) // a blur grows the extent, as in Core Image
        #expect(result.extent == blurredImage.extent)
        for (x, y) in [(100, 100), (250, 200), (3, 3)] {
            let under = Pixels.linear(blurredImage, x: x, y: y), over = Pixels.linear(result, x: x, y: y)
            // Source over with premultiplied (0, 0.2, 0, 0.2): out = 0.8 · background + (0, 0.2, 0, 0.2).
            let expected = [under[0] * 0.8, under[1] * 0.8 + 0.2, under[2] * 0.8, under[3] * 0.8 + 0.2]
            for c in 0..<4 { #expect(abs(over[c] - expected[c]) < 1e-4, "pixel \(x),\(y) channel \(c)") }
        }
    }

    @Test func s04ChainMatchesTheEngine() throws {
        let cgImage = try #require(postProcessImage(chelsea))
        #expect(cgImage.width == Int(chelsea.extent.width) && cgImage.height == Int(chelsea.extent.height))
        #expect(cgImage.bytesPerRow == cgImage.width * 4 && cgImage.bitsPerPixel == 32)
        let reference = try Pixels.engine([("CIPhotoEffectInstant", [:]),
                                           ("CIVignette", ["inputRadius": .number(1.75), "inputIntensity": .number(1)])],
                                          on: Samples.chelsea)
        let bytes = [UInt8](try #require(cgImage.dataProvider?.data))
        #expect(Pixels.maxDifference(bytes, reference) == 0)
    }

    @Test func s05AverageColorOfAUniformImageIsItsColor() throws {
        let color = CIColor(red: 0.2, green: 0.4, blue: 0.6)
        let image = CIImage(color: color).cropped(to: CGRect(x: 0, y: 0, width: 16, height: 12))
        let average = try #require(image.averageColor)
        let c = try #require(average.components)
        for (got, want) in zip(c, [0.2, 0.4, 0.6, 1.0] as [CGFloat]) { #expect(abs(got - want) <= 1.5 / 255) }
    }

    @Test func s06QRCodeIsScaledByThree() throws {
        let qr = try #require(QRCodeGenerator().generateQRCode(from: "hello"))
        let plain = try #require(CIFilter(name: "CIQRCodeGenerator", parameters: ["inputMessage": Data("hello".utf8)])?.outputImage)
        #expect(qr.extent.width == plain.extent.width * 3 && qr.extent.height == plain.extent.height * 3)
        #expect(plain.extent.width == 23) // version 1: 21 modules and Core Image's one-module quiet zone
        let width = Int(qr.extent.width)
        let bytes = Pixels.rgba8(qr)
        // Quiet zone white; the top-left finder pattern's outer ring black; its gap ring white; its core black.
        #expect(Pixels.at(bytes, width: width, x: 1, yFromTop: 1) == [255, 255, 255, 255])
        #expect(Pixels.at(bytes, width: width, x: 4, yFromTop: 4) == [0, 0, 0, 255])
        #expect(Pixels.at(bytes, width: width, x: 7, yFromTop: 7) == [255, 255, 255, 255])
        #expect(Pixels.at(bytes, width: width, x: 13, yFromTop: 13) == [0, 0, 0, 255])
    }

    @Test func s07TypedSepiaMatchesTheEngine() throws {
        var image = chelsea
        SignalPhotoEditor.SepiaFilter(intensity: 0.5).applyFilter(image: &image)
        #expect(image !== chelsea)
        let reference = try Pixels.engine([("CISepiaTone", ["inputIntensity": .number(0.5)])], on: Samples.chelsea)
        #expect(Pixels.maxDifference(Pixels.rgba8(image), reference) == 0)
    }

    @Test func s08SubclassTakesItsInputByKeyAndRenders() throws {
        let filter = EdgeGlowFilter()
        filter.setValue(chelsea, forKey: kCIInputImageKey)     // reaches the subclass's stored property
        #expect(filter.inputImage === chelsea)
        #expect(filter.value(forKey: kCIInputImageKey) as? CIImage === chelsea)
        #expect(filter.inputKeys == ["inputImage"])
        let out = try #require(filter.outputImage)
        #expect(out.extent == chelsea.extent)
        let bytes = Pixels.rgba8(out)
        // The same chain written directly on the engine.
        var source = try ImageFile.read(Samples.chelsea.path)
        let extent = source.extent
        func apply(_ name: String, _ image: FilterEngine.Image, _ params: [String: FilterValue]) throws -> FilterEngine.Image {
            let filter = try FilterEngine.Filter(named: name)
            try filter.setValue(.image(image), forKey: "inputImage")
            for (key, value) in params { try filter.setValue(value, forKey: key) }
            return try filter.makeOutputImage()
        }
        let edges = try apply("CIEdges", source, ["inputIntensity": .number(10)])
        let glowing = try apply("CIBloom", try apply("CIColorControls", edges, ["inputSaturation": .number(1.75)]),
                                ["inputRadius": .number(2.5), "inputIntensity": .number(1.25)]).cropped(to: extent)
        let dark = try apply("CIExposureAdjust", try apply("CIPhotoEffectNoir", source, [:]), ["inputEV": .number(-1.5)])
        source = try apply("CIAdditionCompositing", glowing, ["inputBackgroundImage": .image(dark)])
        let reference = try Pixels.engineContext.renderRGBA8(source, rect: extent).bytes
        #expect(Pixels.maxDifference(bytes, reference) == 0)
        // The typed property works as well.
        let direct = EdgeGlowFilter()
        direct.inputImage = chelsea
        #expect(Pixels.rgba8(try #require(direct.outputImage)) == bytes)
    }

    @Test func s09SepiaFromDataMatchesTheEngine() throws {
        let data = try Data(contentsOf: Samples.chelsea)
        let cgImage = try #require(SepiaFilter().applySepiaFilter(data))
        #expect(cgImage.width == Int(chelsea.extent.width) && cgImage.height == Int(chelsea.extent.height))
        let reference = try Pixels.engine([("CISepiaTone", ["inputIntensity": .number(0.8)])], on: Samples.chelsea)
        #expect(Pixels.maxDifference([UInt8](try #require(cgImage.dataProvider?.data)), reference) == 0)
    }

    @Test func s10TypedFiltersKeptAsProperties() throws {
        let controller = FiltersViewController()
        #expect(controller.filters.map(\.name) == ["CISepiaTone", "CIVignette", "CIPhotoEffectNoir", "CINoiseReduction"])
        #expect(controller.brightness == 0)
        let out = try #require(controller.vignette(chelsea, intensity: 1, radius: 2))
        let reference = try Pixels.engine([("CIVignette", ["inputIntensity": .number(1), "inputRadius": .number(2)])], on: Samples.chelsea)
        #expect(Pixels.maxDifference(Pixels.rgba8(out), reference) == 0)
    }

    @Test func s11VignetteExtensionMatchesTheEngine() throws {
        let out = try #require(chelsea.VigentteFilter(1.0))
        let reference = try Pixels.engine([("CIVignette", ["inputIntensity": .number(1)])], on: Samples.chelsea)
        #expect(Pixels.maxDifference(Pixels.rgba8(out), reference) == 0)
    }

    @Test func s12LanczosResizeMatchesTheEngine() throws {
        let out = try #require(chelsea.resizedImage(with: CGSize(width: 28, height: 28)))
        let scale = 28 / Double(chelsea.extent.width)
        #expect(abs(out.extent.width - 28) <= 1)
        let reference = try Pixels.engine([("CILanczosScaleTransform", ["inputScale": .number(scale), "inputAspectRatio": .number(1)])],
                                          on: Samples.chelsea, rect: FilterEngine.Rect(x: Double(out.extent.minX), y: Double(out.extent.minY),
                                                                                 width: Double(out.extent.width), height: Double(out.extent.height)))
        #expect(Pixels.maxDifference(Pixels.rgba8(out), reference) == 0)
    }
}
