import Foundation
import Testing
import CoreImage
import FilterEngine
import FilterPipeline

/// Core Image snippets (Snippets/) written in the shapes that public apps use the API in, compiled against
/// `import CoreImage` and rendered: sizes, pixels against the engine's own filters, or known values.
@Suite struct CompatibilitySnippetTests {
    let chelsea = CIImage(contentsOf: Samples.chelsea)!

    @Test func s01SepiaByNameMatchesTheEngine() throws {
        let out = try #require(chelsea.agedPrint(amount: 0.7))
        #expect(out.extent == chelsea.extent)
        let reference = try Pixels.engine([("CISepiaTone", ["inputIntensity": .number(0.7)])], on: Samples.chelsea)
        #expect(Pixels.maxDifference(Pixels.rgba8(out), reference) == 0)
        // The value type's filter is the same filter, with its inputs readable by key.
        let filter = try #require(AgedPrintLook(picture: chelsea, amount: 0.7).makeFilter())
        #expect(filter.name == "CISepiaTone")
        #expect((filter.value(forKey: "inputIntensity") as? NSNumber)?.doubleValue == 0.7)
        #expect(Pixels.rgba8(try #require(filter.outputImage)) == Pixels.rgba8(out))
    }

    @Test func s02StampIsCentred() throws {
        let background = CIImage(color: .red).cropped(to: CGRect(x: 0, y: 0, width: 100, height: 80))
        let stamp = CIImage(color: .blue).cropped(to: CGRect(x: 0, y: 0, width: 20, height: 10))
        let out = try #require(background.withStampInMiddle(stamp))
        #expect(out.extent == CGRect(x: 0, y: 0, width: 100, height: 80))
        let bytes = Pixels.rgba8(out)
        // The stamp covers x 40..<60, y 35..<45 (y up), i.e. rows 35..<45 from the top too (80 - 45 = 35).
        #expect(Pixels.at(bytes, width: 100, x: 50, yFromTop: 40) == [0, 0, 255, 255])
        #expect(Pixels.at(bytes, width: 100, x: 40, yFromTop: 35) == [0, 0, 255, 255])
        #expect(Pixels.at(bytes, width: 100, x: 59, yFromTop: 44) == [0, 0, 255, 255])
        #expect(Pixels.at(bytes, width: 100, x: 39, yFromTop: 40) == [255, 0, 0, 255])
        #expect(Pixels.at(bytes, width: 100, x: 60, yFromTop: 40) == [255, 0, 0, 255])
        #expect(Pixels.at(bytes, width: 100, x: 50, yFromTop: 34) == [255, 0, 0, 255])
    }

    @Test func s03WashIsSourceOverInLinearLight() throws {
        let tint = CIColor(red: 0, green: 1, blue: 0, alpha: 0.2)
        let softened = soften(by: 5)(chelsea)
        let washed = then(soften(by: 5), wash(tint))(chelsea)
        #expect(softened.extent.width > chelsea.extent.width) // a blur grows the extent, as in Core Image
        #expect(washed.extent == softened.extent)
        for (x, y) in [(100, 100), (250, 200), (3, 3)] {
            let under = Pixels.linear(softened, x: x, y: y), over = Pixels.linear(washed, x: x, y: y)
            // Source over with premultiplied (0, 0.2, 0, 0.2): out = 0.8 · background + (0, 0.2, 0, 0.2).
            let expected = [under[0] * 0.8, under[1] * 0.8 + 0.2, under[2] * 0.8, under[3] * 0.8 + 0.2]
            for c in 0..<4 { #expect(abs(over[c] - expected[c]) < 1e-4, "pixel \(x),\(y) channel \(c)") }
        }
    }

    @Test func s04NamedChainMatchesTheEngine() throws {
        let cgImage = try #require(instantCameraPrint(of: chelsea))
        #expect(cgImage.width == Int(chelsea.extent.width) && cgImage.height == Int(chelsea.extent.height))
        #expect(cgImage.bytesPerRow == cgImage.width * 4 && cgImage.bitsPerPixel == 32)
        let reference = try Pixels.engine([("CIPhotoEffectInstant", [:]),
                                           ("CIVignette", ["inputRadius": .number(1.75), "inputIntensity": .number(1)])],
                                          on: Samples.chelsea)
        let bytes = [UInt8](try #require(cgImage.dataProvider?.data))
        #expect(Pixels.maxDifference(bytes, reference) == 0)
    }

    @Test func s05MeanColourOfAUniformImageIsItsColour() throws {
        let probe = MeanColourProbe()
        let color = CIColor(red: 0.2, green: 0.4, blue: 0.6)
        let image = CIImage(color: color).cropped(to: CGRect(x: 0, y: 0, width: 16, height: 12))
        let meanColour = try #require(probe.meanColour(of: image))
        let mean = try #require(meanColour.components)
        for (got, want) in zip(mean, [0.2, 0.4, 0.6, 1.0] as [CGFloat]) { #expect(abs(got - want) <= 1.5 / 255) }
        // Half black, half white: the average is taken in linear light, then encoded (sRGB 0.5 linear ≈ 188).
        let black = CIImage(color: .black).cropped(to: CGRect(x: 0, y: 0, width: 8, height: 4))
        let white = CIImage(color: .white).cropped(to: CGRect(x: 8, y: 0, width: 8, height: 4))
        let halvesColour = try #require(probe.meanColour(of: white.composited(over: black)))
        let halves = try #require(halvesColour.components)
        #expect(abs(halves[0] * 255 - 188) <= 1 && halves[0] == halves[1] && halves[1] == halves[2])
    }

    @Test func s06QRCodeIsScaledByItsModuleSize() throws {
        let qr = try #require(PassCode(text: "hello").image)
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
        #expect(PassCode(text: "hello", moduleSize: 5).image?.extent.width == 115)
        #expect(PassCode(text: "naïve").image == nil) // not ASCII
    }

    @Test func s07TypedSepiaAdjustmentMatchesTheEngine() throws {
        var image = chelsea
        let step: any PhotoAdjustment = BrownTintAdjustment(strength: 0.5)
        step.adjust(&image)
        #expect(image !== chelsea)
        let reference = try Pixels.engine([("CISepiaTone", ["inputIntensity": .number(0.5)])], on: Samples.chelsea)
        #expect(Pixels.maxDifference(Pixels.rgba8(image), reference) == 0)
        var full = chelsea
        BrownTintAdjustment().adjust(&full)
        let fullReference = try Pixels.engine([("CISepiaTone", ["inputIntensity": .number(1)])], on: Samples.chelsea)
        #expect(Pixels.maxDifference(Pixels.rgba8(full), fullReference) == 0)
    }

    @Test func s08SubclassTakesItsInputsByKeyAndRenders() throws {
        let filter = NeonOutlineFilter()
        filter.setValue(chelsea, forKey: kCIInputImageKey)     // reaches the subclass's stored property
        filter.setValue(2.5, forKey: "inputGlowRadius")
        #expect(filter.inputImage === chelsea)
        #expect(filter.inputGlowRadius == 2.5)
        #expect(filter.value(forKey: kCIInputImageKey) as? CIImage === chelsea)
        #expect(filter.inputKeys == ["inputImage", "inputGlowRadius"])
        let out = try #require(filter.outputImage)
        #expect(out.extent == chelsea.extent)
        let bytes = Pixels.rgba8(out)
        // The same chain written directly on the engine.
        let source = try ImageFile.read(Samples.chelsea.path)
        let extent = source.extent
        func apply(_ name: String, _ image: FilterEngine.Image, _ params: [String: FilterValue]) throws -> FilterEngine.Image {
            let filter = try FilterEngine.Filter(named: name)
            try filter.setValue(.image(image), forKey: "inputImage")
            for (key, value) in params { try filter.setValue(value, forKey: key) }
            return try filter.makeOutputImage()
        }
        let outlines = try apply("CIEdges", source, ["inputIntensity": .number(8)])
        let glow = try apply("CIBloom", try apply("CIColorControls", outlines, ["inputSaturation": .number(2)]),
                             ["inputRadius": .number(2.5), "inputIntensity": .number(1)]).cropped(to: extent)
        let dimmed = try apply("CIExposureAdjust", try apply("CIPhotoEffectNoir", source, [:]), ["inputEV": .number(-1)])
        let composite = try apply("CIAdditionCompositing", glow, ["inputBackgroundImage": .image(dimmed)])
        let reference = try Pixels.engineContext.renderRGBA8(composite, rect: extent).bytes
        #expect(Pixels.maxDifference(bytes, reference) == 0)
        // The typed properties work as well.
        let direct = NeonOutlineFilter()
        direct.inputImage = chelsea
        direct.inputGlowRadius = 2.5
        #expect(Pixels.rgba8(try #require(direct.outputImage)) == bytes)
    }

    @Test func s09SepiaFromEncodedDataMatchesTheEngine() throws {
        let data = try Data(contentsOf: Samples.chelsea)
        let cgImage = try #require(DownloadToner.tonedBitmap(fromFile: data))
        #expect(cgImage.width == Int(chelsea.extent.width) && cgImage.height == Int(chelsea.extent.height))
        let reference = try Pixels.engine([("CISepiaTone", ["inputIntensity": .number(0.8)])], on: Samples.chelsea)
        #expect(Pixels.maxDifference([UInt8](try #require(cgImage.dataProvider?.data)), reference) == 0)
        #expect(DownloadToner.tonedBitmap(fromFile: Data("not an image".utf8)) == nil)
    }

    @Test func s10TypedFiltersKeptAsProperties() throws {
        let bank = SliderFilterBank()
        #expect(bank.all.map(\.name) == ["CISepiaTone", "CIVignette", "CIPhotoEffectNoir", "CINoiseReduction"])
        #expect(bank.initialBrightness == 0)
        let out = try #require(bank.rimmed(chelsea, strength: 1, reach: 2))
        let reference = try Pixels.engine([("CIVignette", ["inputIntensity": .number(1), "inputRadius": .number(2)])], on: Samples.chelsea)
        #expect(Pixels.maxDifference(Pixels.rgba8(out), reference) == 0)
        // The same filter object again, with other values: no state left from the first use.
        let again = try #require(bank.rimmed(chelsea, strength: 0.5, reach: 1))
        let second = try Pixels.engine([("CIVignette", ["inputIntensity": .number(0.5), "inputRadius": .number(1)])], on: Samples.chelsea)
        #expect(Pixels.maxDifference(Pixels.rgba8(again), second) == 0)
    }

    @Test func s11VignetteWithDefaultsMatchesTheEngine() throws {
        let out = chelsea.darkCorners(1.0)
        let reference = try Pixels.engine([("CIVignette", ["inputIntensity": .number(1)])], on: Samples.chelsea)
        #expect(Pixels.maxDifference(Pixels.rgba8(out), reference) == 0)
    }

    @Test func s12LanczosToWidthMatchesTheEngine() throws {
        let out = try #require(chelsea.lanczosScaled(toWidth: 28))
        let scale = 28 / Double(chelsea.extent.width)
        #expect(abs(out.extent.width - 28) <= 1)
        let reference = try Pixels.engine([("CILanczosScaleTransform", ["inputScale": .number(scale), "inputAspectRatio": .number(1)])],
                                          on: Samples.chelsea, rect: FilterEngine.Rect(x: Double(out.extent.minX), y: Double(out.extent.minY),
                                                                                 width: Double(out.extent.width), height: Double(out.extent.height)))
        #expect(Pixels.maxDifference(Pixels.rgba8(out), reference) == 0)
    }

    // MARK: Custom kernels in the Core Image Kernel Language

    /// sRGB-encoded component to linear light (the working space).
    static func linear(_ c: CGFloat) -> CGFloat { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }

    @Test func s13DuotoneColourKernelIsALinearColourMatrix() throws {
        let duotone = DuotoneFilter()
        duotone.setValue(chelsea, forKey: kCIInputImageKey)
        #expect(duotone.inputKeys == ["inputImage", "inputShadowColor", "inputHighlightColor"])
        let out = try #require(duotone.outputImage)
        #expect(out.extent == chelsea.extent)
        // mix(dark, light, w·rgb) = dark + (light − dark)(w·rgb): CIColorMatrix with rows (light − dark)·w and
        // the dark colour as bias, all in the linear working space.
        let dark = [duotone.inputShadowColor.red, duotone.inputShadowColor.green, duotone.inputShadowColor.blue].map(Self.linear)
        let light = [duotone.inputHighlightColor.red, duotone.inputHighlightColor.green, duotone.inputHighlightColor.blue].map(Self.linear)
        let weights: [CGFloat] = [0.2126, 0.7152, 0.0722]
        func row(_ c: Int) -> CIVector { CIVector(x: (light[c] - dark[c]) * weights[0], y: (light[c] - dark[c]) * weights[1],
                                                  z: (light[c] - dark[c]) * weights[2], w: 0) }
        let matrix = try #require(CIFilter(name: "CIColorMatrix", parameters: [
            kCIInputImageKey: chelsea, "inputRVector": row(0), "inputGVector": row(1), "inputBVector": row(2),
            "inputAVector": CIVector(x: 0, y: 0, z: 0, w: 1), "inputBiasVector": CIVector(x: dark[0], y: dark[1], z: dark[2], w: 0),
        ])?.outputImage)
        let difference = Pixels.maxDifference(Pixels.rgba8(out), Pixels.rgba8(matrix, chelsea.extent))
        #expect(difference <= 1, "duotone kernel vs colour matrix: \(difference) levels")

        // Known values: black takes the shadow colour, white the highlight colour (sRGB bytes of the CIColors).
        let patch = CGRect(x: 0, y: 0, width: 2, height: 2)
        duotone.inputImage = CIImage(color: .black).cropped(to: patch)
        let shadow = Pixels.rgba8(try #require(duotone.outputImage)).prefix(4).map(Int.init)
        for (got, want) in zip(shadow, [31, 13, 89, 255]) { #expect(abs(got - want) <= 1, "shadow \(shadow)") }
        duotone.inputImage = CIImage(color: .white).cropped(to: patch)
        let highlight = Pixels.rgba8(try #require(duotone.outputImage)).prefix(4).map(Int.init)
        for (got, want) in zip(highlight, [255, 204, 115, 255]) { #expect(abs(got - want) <= 1, "highlight \(highlight)") }
        // Half-transparent white: the highlight colour at half coverage (premultiplied), alpha kept.
        duotone.inputImage = CIImage(color: CIColor(red: 1, green: 1, blue: 1, alpha: 0.5)).cropped(to: patch)
        let half = Pixels.linear(try #require(duotone.outputImage), x: 0, y: 0)
        for c in 0..<3 { #expect(abs(CGFloat(half[c]) - light[c] * 0.5) < 1e-4, "channel \(c): \(half)") }
        #expect(abs(half[3] - 0.5) < 1e-6)
    }

    @Test func s14RippleWarpKernelShiftsEachRow() throws {
        let ripple = RippleFilter()
        ripple.inputImage = chelsea
        // No amplitude: the warp samples every pixel at its own centre, so the picture comes back unchanged.
        ripple.setValue(0.0, forKey: "inputAmplitude")
        #expect(Pixels.rgba8(try #require(ripple.outputImage)) == Pixels.rgba8(chelsea))

        ripple.inputAmplitude = 6
        ripple.inputWavelength = 40
        let out = try #require(ripple.outputImage)
        #expect(out.extent == chelsea.extent)
        let width = Int(chelsea.extent.width), height = Int(chelsea.extent.height)
        let warped = Pixels.rgba8(out)
        // Each row is the picture moved left by the row's shift (taken at the pixel centre's height), which a
        // translation renders with the same bilinear sampling. Columns near the sides read outside: skipped.
        for y in [0, 5, 10, 17, 30, 101, height - 1] {
            let shift = 6 * sin(2 * Double.pi * (Double(y) + 0.5) / 40)
            let moved = chelsea.transformed(by: CGAffineTransform(translationX: -shift, y: 0))
            let rowRect = CGRect(x: 10, y: y, width: width - 20, height: 1)
            let expected = Pixels.rgba8(moved, rowRect)
            let top = height - 1 - y
            let got = Array(warped[(top * width + 10) * 4 ..< (top * width + width - 10) * 4])
            let difference = Pixels.maxDifference(got, expected)
            #expect(difference <= 1, "row \(y) (shift \(shift)): \(difference) levels")
        }
    }

    @Test func s15DirectionalBlurKernelIsAFivePixelBox() throws {
        let streak = StreakBlurFilter()
        streak.inputImage = chelsea
        let fifth: CGFloat = 0.2
        let box = CIVector(values: [0, 0, fifth, fifth, fifth, fifth, fifth, 0, 0])
        for (step, convolution) in [(CIVector(x: 1, y: 0), "CIConvolution9Horizontal"), (CIVector(x: 0, y: 1), "CIConvolution9Vertical")] {
            streak.setValue(step, forKey: "inputStep")
            let out = try #require(streak.outputImage)
            #expect(out.extent == chelsea.extent.insetBy(dx: -2 * step.x, dy: -2 * step.y))
            // Core Image's 9-tap convolution with five equal weights in the middle is the same average; outside
            // the picture both read transparent pixels.
            let reference = try #require(CIFilter(name: convolution, parameters: [kCIInputImageKey: chelsea,
                                                                                  kCIInputWeightsKey: box])?.outputImage)
            let difference = Pixels.maxDifference(Pixels.rgba8(out), Pixels.rgba8(reference, out.extent))
            #expect(difference <= 1, "\(convolution): \(difference) levels")
        }
        // A uniform picture stays uniform inside (the five samples are equal there).
        streak.inputImage = CIImage(color: CIColor(red: 0.25, green: 0.5, blue: 0.75)).cropped(to: CGRect(x: 0, y: 0, width: 12, height: 12))
        streak.inputStep = CIVector(x: 1, y: 1)
        let uniform = try #require(streak.outputImage)
        #expect(Pixels.linear(uniform, x: 6, y: 6) == Pixels.linear(try #require(streak.inputImage), x: 6, y: 6))
    }
}
