import Foundation
import Testing
@testable import FilterEngine

/// One pixel of straight colour (working space) with alpha, as an image at the origin.
private func pixelImage(_ r: Float, _ g: Float, _ b: Float, _ a: Float = 1) -> Image {
    TestImages.make(width: 1, height: 1) { _, _ in Pixel(r * a, g * a, b * a, a) }
}

/// The filter's output at the origin pixel.
private func apply(_ name: String, _ image: Image, _ values: [String: FilterValue] = [:]) throws -> Pixel {
    var all = values
    all["inputImage"] = .image(image)
    return try TestImages.pixel(TestImages.filter(name, all), x: 0, y: 0)
}

/// The error message a throwing body gives ("no error" when it does not throw).
private func message(_ body: () throws -> Void) -> String {
    do { try body(); return "no error" } catch { return "\(error)" }
}

/// sRGB transfer functions written out here, independent of ColorMath.
private func srgbToLinear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
private func linearToSRGB(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }

private func floatBytes(_ floats: [Float]) -> FilterValue { .data(ColorCubeData.bytes(floats)) }

/// Known pixels for the colour-adjustment family, worked out by hand in the comments.
@Suite struct ColorAdjustmentTests {
    // MARK: Differences, clamps, polynomials

    @Test func absoluteDifferenceIsPerChannelAndCoversTheFirstImage() throws {
        let a = pixelImage(0.2, 0.7, 0.5)
        let b = TestImages.make(width: 3, height: 2) { _, _ in Pixel(0.5, 0.2, 0.5, 1) }
        let out = try TestImages.filter("CIColorAbsoluteDifference", ["inputImage": .image(a), "inputImage2": .image(b)])
        #expect(out.extent == a.extent)
        // |0.2 − 0.5| = 0.3, |0.7 − 0.2| = 0.5, 0; alpha max(1, 1).
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(0.3, 0.5, 0, 1)))
    }

    @Test func colorClampHoldsStraightComponents() throws {
        // Straight (0.1, 0.5, 0.9) at alpha 0.8, min (0.2 0 0 0), max (1 0.4 1 0.6):
        // (0.2, 0.4, 0.9) at alpha 0.6 → premultiplied (0.12, 0.24, 0.54, 0.6).
        let out = try apply("CIColorClamp", pixelImage(0.1, 0.5, 0.9, 0.8), [
            "inputMinComponents": .vector([0.2, 0, 0, 0]), "inputMaxComponents": .vector([1, 0.4, 1, 0.6]),
        ])
        #expect(close(out, Pixel(0.12, 0.24, 0.54, 0.6)))
    }

    @Test func colorPolynomialPerChannel() throws {
        // Red 0.1 + 0.5x + 0.2x² + 0.4x³ at x = 0.5: 0.1 + 0.25 + 0.05 + 0.05 = 0.45; green 1 − x at 0.2 = 0.8;
        // blue x² at 0.6 = 0.36; alpha unchanged 0.5 (identity coefficients) → premultiplied by 0.5.
        let out = try apply("CIColorPolynomial", pixelImage(0.5, 0.2, 0.6, 0.5), [
            "inputRedCoefficients": .vector([0.1, 0.5, 0.2, 0.4]), "inputGreenCoefficients": .vector([1, -1, 0, 0]),
            "inputBlueCoefficients": .vector([0, 0, 1, 0]),
        ])
        #expect(close(out, Pixel(0.225, 0.4, 0.18, 0.5)))
        // Alpha has its own polynomial: 0.25 + a at a = 0.5 gives 0.75 (white stays white, now at alpha 0.75).
        let alpha = try apply("CIColorPolynomial", pixelImage(1, 1, 1, 0.5), ["inputAlphaCoefficients": .vector([0.25, 1, 0, 0])])
        #expect(close(alpha, Pixel(0.75, 0.75, 0.75, 0.75)))
    }

    @Test func colorCrossPolynomialMixesChannels() throws {
        // Straight (r, g, b) = (0.2, 0.4, 0.5). Red = rg + 0.1 = 0.18; green = gb = 0.2; blue = b² + br = 0.35.
        let out = try apply("CIColorCrossPolynomial", pixelImage(0.2, 0.4, 0.5), [
            "inputRedCoefficients": .vector([0, 0, 0, 0, 0, 0, 1, 0, 0, 0.1]),
            "inputGreenCoefficients": .vector([0, 0, 0, 0, 0, 0, 0, 1, 0, 0]),
            "inputBlueCoefficients": .vector([0, 0, 0, 0, 0, 1, 0, 0, 1, 0]),
        ])
        #expect(close(out, Pixel(0.18, 0.2, 0.35, 1)))
    }

    // MARK: Thresholds

    @Test func colorThresholdComparesLinearStraightColour() throws {
        // 0.3 → 0, 0.6 → 1, 0.5 is not above 0.5 → 0; alpha 0.5 kept (outputs premultiplied).
        #expect(close(try apply("CIColorThreshold", pixelImage(0.3, 0.6, 0.5)), Pixel(0, 1, 0, 1)))
        #expect(close(try apply("CIColorThreshold", pixelImage(0.3, 0.6, 0.5, 0.5)), Pixel(0, 0.5, 0, 0.5)))
        #expect(close(try apply("CIColorThreshold", pixelImage(0.3, 0.6, 0.5), ["inputThreshold": .number(0.25)]), Pixel(1, 1, 1, 1)))
    }

    @Test func otsuThresholdOfAHandWorkedHistogram() {
        // Four levels with counts [1, 1, 0, 2]: split after level 0 gives between-class variance
        // 1·3·(0 − 7/3)² = 16.3; after level 1, 2·2·(0.5 − 3)² = 25 (and the same after the empty level 2, which
        // does not beat it). So the classes are {0, 1} and {3}: the boundary 2/4.
        #expect(Otsu.threshold([1, 1, 0, 2]) == 0.5)
        #expect(Otsu.threshold([0, 0, 5, 0]) == 0.5)  // one level only: no split, the neutral 0.5
    }

    @Test func otsuSeparatesTwoPopulations() throws {
        // Left half 0.1, right half 0.8 (all channels): any split between them is optimal, and the threshold must
        // send the dark half to 0 and the light half to 1 — where a fixed 0.9 threshold would not.
        let image = TestImages.make(width: 8, height: 4) { x, _ in x < 4 ? Pixel(0.1, 0.1, 0.1, 1) : Pixel(0.8, 0.8, 0.8, 1) }
        let out = try TestImages.render(TestImages.filter("CIColorThresholdOtsu", ["inputImage": .image(image)]))
        #expect(close(out.pixel(x: 1, y: 1), Pixel(0, 0, 0, 1)))
        #expect(close(out.pixel(x: 6, y: 2), Pixel(1, 1, 1, 1)))
        // Tiled rendering measures the whole image each time: the same answer from a crop.
        let crop = try TestImages.context.render(TestImages.filter("CIColorThresholdOtsu", ["inputImage": .image(image)]),
                                                 rect: Rect(x: 6, y: 0, width: 2, height: 1))
        #expect(close(crop.pixel(x: 6, y: 0), Pixel(1, 1, 1, 1)))
    }

    // MARK: Transfer curves, depth

    @Test func depthAndDisparityAreReciprocals() throws {
        #expect(close(try apply("CIDepthToDisparity", pixelImage(0.5, 4, 0.25)), Pixel(2, 0.25, 4, 1)))
        #expect(close(try apply("CIDisparityToDepth", pixelImage(2, 0.25, 4)), Pixel(0.5, 4, 0.25, 1)))
        // Zero depth stays finite (1 / 1e-6).
        let zero = try apply("CIDepthToDisparity", pixelImage(0, 1, 1))
        #expect(zero.x == 1e6)
    }

    @Test func srgbToneCurves() throws {
        // Linear 0.5 → sRGB 1.055·0.5^(1/2.4) − 0.055 = 0.735357; sRGB 0.5 → ((0.555/1.055)^2.4) = 0.214041.
        let up = try apply("CILinearToSRGBToneCurve", pixelImage(0.5, 0.5, 0.5))
        #expect(close(up, Pixel(0.735357, 0.735357, 0.735357, 1), tolerance: 2e-5))
        let down = try apply("CISRGBToneCurveToLinear", pixelImage(0.5, 0.5, 0.5, 0.5))
        #expect(close(down, Pixel(0.1070205, 0.1070205, 0.1070205, 0.5), tolerance: 2e-5))
    }

    // MARK: Tone curve and colour curves

    @Test func toneCurvePassesThroughItsPointsInSRGBEncodedValues() throws {
        // Points (0,0) (0.25,0.5) (0.5,0.75) (0.75,0.9) (1,1) on sRGB-encoded values (Apple's iOS 7 render):
        // the linear value that encodes to 0.25 comes out as the one that encodes to 0.5, and so on.
        let points: [String: FilterValue] = [
            "inputPoint1": .vector([0.25, 0.5]), "inputPoint2": .vector([0.5, 0.75]), "inputPoint3": .vector([0.75, 0.9]),
        ]
        let decode = { (e: Float) in ColorMath.linear(fromSRGB: e) }
        let out = try apply("CIToneCurve", pixelImage(decode(0.25), decode(0.5), 1), points)
        #expect(close(out, Pixel(decode(0.5), decode(0.75), 1, 1), tolerance: 1e-5))
    }

    @Test func toneCurveThroughCollinearPointsIsThatLineAndExtrapolates() throws {
        // Points on y = 0.25 + 0.5x: the natural spline is the line, on sRGB-encoded values.
        // Linear 4 encodes above 1: held at the last point 0.75, or extrapolated along the line.
        var line: [String: FilterValue] = [:]
        for (i, x) in [0.0, 0.25, 0.5, 0.75, 1].enumerated() { line["inputPoint\(i)"] = .vector([x, 0.25 + 0.5 * x]) }
        let decode = { (e: Float) in ColorMath.linear(fromSRGB: e) }
        let mid = decode(0.25 + 0.5 * ColorMath.sRGB(fromLinear: 0.36))
        let held = try apply("CIToneCurve", pixelImage(0.36, 4, 0), line)
        #expect(close(held, Pixel(mid, decode(0.75), decode(0.25), 1), tolerance: 1e-5))
        line["inputExtrapolate"] = .number(1)
        let extended = try apply("CIToneCurve", pixelImage(0.36, 4, 0), line)
        let far = decode(0.25 + 0.5 * ColorMath.sRGB(fromLinear: 4))
        #expect(close(extended, Pixel(mid, far, decode(0.25), 1), tolerance: 1e-4))
    }

    @Test func colorCurvesInterpolateTheTable() throws {
        // Three entries over [0, 1]: red 0, 0.8, 1; green 1, 0.5, 0; blue 0.2 throughout.
        // Red 0.25 is halfway to entry 1: 0.4. Green 0.75 is halfway from entry 1 to 2: 0.25. Blue 0.2.
        let table = floatBytes([0, 1, 0.2, 0.8, 0.5, 0.2, 1, 0, 0.2])
        let out = try apply("CIColorCurves", pixelImage(0.25, 0.75, 0.5), ["inputCurvesData": table])
        #expect(close(out, Pixel(0.4, 0.25, 0.2, 1)))
        // Domain [0, 2]: 1.0 is the middle entry; values past the domain take the end entry.
        let wide = try apply("CIColorCurves", pixelImage(1, 5, -1), ["inputCurvesData": table, "inputCurvesDomain": .vector([0, 2])])
        #expect(close(wide, Pixel(0.8, 0, 0.2, 1)))
        #expect(message { _ = try apply("CIColorCurves", pixelImage(0, 0, 0), ["inputCurvesData": .data([1, 2, 3])]) }
            .contains("multiple of 12 bytes"))
    }

    @Test func colorCurvesInSRGBSpace() throws {
        // Curve "1 − x" on sRGB-encoded values: linear 0.5 is sRGB 0.735357 → 0.264643 → linear 0.056931.
        let invert = floatBytes([1, 1, 1, 0, 0, 0])
        let out = try apply("CIColorCurves", pixelImage(0.5, 0.5, 0.5), ["inputCurvesData": invert, "inputColorSpace": .string("sRGB")])
        let expected = Float(srgbToLinear(1 - linearToSRGB(0.5)))
        #expect(close(out, Pixel(expected, expected, expected, 1), tolerance: 2e-5))
    }

    // MARK: Colour cubes

    @Test func cubeLookupIsTrilinear() throws {
        // A 2³ table whose red is r·g at the corners: trilinear interpolation of that is exactly r·g inside.
        // Green is b, blue 1 − r. At (0.5, 0.5, 0.3): (0.25, 0.3, 0.5).
        let table = ColorCubeData.make(dimension: 2) { c in SIMD3(c.x * c.y, c.z, 1 - c.x) }
        let out = try apply("CIColorCube", pixelImage(0.5, 0.5, 0.3), ["inputCubeData": .data(table)])
        #expect(close(out, Pixel(0.25, 0.3, 0.5, 1)))
        // 3 entries a side of c ↦ c²: 0, 0.25, 1. Input 0.75 is halfway between the last two: 0.625.
        let square = ColorCubeData.make(dimension: 3) { $0 * $0 }
        let sq = try apply("CIColorCube", pixelImage(0.75, 0.25, 0.5), ["inputCubeDimension": .number(3), "inputCubeData": .data(square)])
        #expect(close(sq, Pixel(0.625, 0.125, 0.25, 1)))
    }

    @Test func cubeEntriesArePremultipliedAndScaledByThePixelAlpha() throws {
        // Every entry (0.5, 0, 0, 0.5): half-transparent red, premultiplied. A pixel of alpha 0.8 → (0.4, 0, 0, 0.4).
        let table = floatBytes(Array(repeating: [Float(0.5), 0, 0, 0.5], count: 8).flatMap { $0 })
        let out = try apply("CIColorCube", pixelImage(0.3, 0.6, 0.9, 0.8), ["inputCubeData": table])
        #expect(close(out, Pixel(0.4, 0, 0, 0.4)))
    }

    @Test func cubeClampsOrExtrapolates() throws {
        // The identity of dimension 2: straight 1.5 is held to 1, or continued to 1.5 with extrapolation.
        let held = try apply("CIColorCube", pixelImage(1.5, -0.5, 0.5))
        #expect(close(held, Pixel(1, 0, 0.5, 1)))
        let extended = try apply("CIColorCube", pixelImage(1.5, -0.5, 0.5), ["inputExtrapolate": .number(1)])
        #expect(close(extended, Pixel(1.5, -0.5, 0.5, 1)))
    }

    @Test func cubeDataIsValidated() throws {
        let wrongSize = message {
            _ = try apply("CIColorCube", pixelImage(0, 0, 0), ["inputCubeDimension": .number(4), "inputCubeData": .data(ColorCubeData.identity(dimension: 2))])
        }
        #expect(wrongSize.contains("inputCubeData") && wrongSize.contains("128 bytes") && wrongSize.contains("1024"), "\(wrongSize)")
        var nan = Array(repeating: Float(0), count: 32)
        nan[5] = .nan
        #expect(message { _ = try apply("CIColorCube", pixelImage(0, 0, 0), ["inputCubeData": floatBytes(nan)]) }.contains("finite"))
        #expect(message { _ = try apply("CIColorCubeWithColorSpace", pixelImage(0, 0, 0), ["inputColorSpace": .string("Adobe RGB")]) }
            .contains("unknown colour space \"Adobe RGB\""))
    }

    @Test func cubeWithColorSpaceLooksUpEncodedValues() throws {
        // Inverting cube applied in sRGB: linear 0.5 → sRGB 0.735357 → 0.264643 → linear 0.056931; linear
        // 0.214041 (sRGB 0.5) → 0.5 → 0.214041.
        let invert = ColorCubeData.make(dimension: 2) { 1 - $0 }
        let out = try apply("CIColorCubeWithColorSpace", pixelImage(0.5, 0.214041, 0), [
            "inputCubeData": .data(invert), "inputColorSpace": .string("srgb"),
        ])
        let expected = Float(srgbToLinear(1 - linearToSRGB(0.5)))
        #expect(close(out, Pixel(expected, 0.214041, 1, 1), tolerance: 2e-5))
        // The identity table leaves colours as they were, whatever the space (Display P3 converts and back).
        for space in ["linear", "sRGB", "Display P3", "kCGColorSpaceDisplayP3"] {
            let same = try apply("CIColorCubeWithColorSpace", pixelImage(0.3, 0.6, 0.1, 0.5), ["inputColorSpace": .string(space)])
            #expect(close(same, Pixel(0.15, 0.3, 0.05, 0.5), tolerance: 1e-5), "\(space)")
        }
    }

    @Test func displayP3Matrix() {
        // Linear sRGB red in linear Display P3 is about (0.8225, 0.0332, 0.0171); white stays white.
        let m = NamedColorSpace.linearSRGBToP3
        #expect(abs(m[0] - 0.8225) < 1e-3 && abs(m[3] - 0.0332) < 1e-3 && abs(m[6] - 0.0171) < 1e-3)
        for row in 0..<3 { #expect(abs(m[row * 3] + m[row * 3 + 1] + m[row * 3 + 2] - 1) < 1e-5) }
    }

    @Test func cubesMixedWithMask() throws {
        // Cube 0 identity, cube 1 inverts (1 − c); the mask's luminance picks: 0 → c, 1 → 1 − c,
        // 0.25 → c + (1 − 2c)·0.25. For c = 0.2: 0.2, 0.8, 0.35.
        let invert = ColorCubeData.make(dimension: 2) { 1 - $0 }
        let image = TestImages.make(width: 3, height: 1) { _, _ in Pixel(0.2, 0.2, 0.2, 1) }
        let mask = TestImages.make(width: 3, height: 1) { x, _ in Pixel(repeating: [0, 1, 0.25][x]) }
        let out = try TestImages.render(TestImages.filter("CIColorCubesMixedWithMask", [
            "inputImage": .image(image), "inputMaskImage": .image(mask), "inputCube1Data": .data(invert),
        ]))
        #expect(close(out.pixel(x: 0, y: 0), Pixel(0.2, 0.2, 0.2, 1)))
        #expect(close(out.pixel(x: 1, y: 0), Pixel(0.8, 0.8, 0.8, 1)))
        #expect(close(out.pixel(x: 2, y: 0), Pixel(0.35, 0.35, 0.35, 1)))
    }

    // MARK: Cube data: tables, looks, .cube files

    @Test func cubeDataTables() throws {
        let identity = ColorCubeData.identity(dimension: 2)
        #expect(identity.count == 128)  // Core Image's default: 2³ RGBA float32
        // Entry 1 is red (1, 0, 0, 1): red varies fastest.
        #expect(Array(try ColorCubeData.floats(identity, key: "t")[4..<8]) == [1, 0, 0, 1])
        for look in ColorCubeData.Look.allCases {
            let table = ColorCubeData.look(look, dimension: 17)
            #expect(table.count == 17 * 17 * 17 * 16)
            #expect(try ColorCubeData.floats(table, key: look.rawValue).allSatisfy(\.isFinite))
        }
        // Black & white: every output is grey.
        let grey = try apply("CIColorCube", pixelImage(0.8, 0.1, 0.3), [
            "inputCubeDimension": .number(17), "inputCubeData": .data(ColorCubeData.look(.blackAndWhite, dimension: 17)),
        ])
        #expect(abs(grey.x - grey.y) < 1e-5 && abs(grey.y - grey.z) < 1e-5)
        // The identity look is the identity in any space.
        let same = try apply("CIColorCube", pixelImage(0.8, 0.1, 0.3), [
            "inputCubeDimension": .number(9), "inputCubeData": .data(ColorCubeData.look(.identity, dimension: 9)),
        ])
        #expect(close(same, Pixel(0.8, 0.1, 0.3, 1), tolerance: 1e-5))
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test func parsesAdobeCubeFiles() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("swap-red-blue.cube"), encoding: .utf8)
        let (dimension, data) = try ColorCubeData.parseCubeFile(text)
        #expect(dimension == 2)
        #expect(data == ColorCubeData.make(dimension: 2) { SIMD3($0.z, $0.y, $0.x) })
        // Through the filter: straight (0.2, 0.4, 0.6) → (0.6, 0.4, 0.2).
        let out = try apply("CIColorCube", pixelImage(0.2, 0.4, 0.6), ["inputCubeData": .data(data)])
        #expect(close(out, Pixel(0.6, 0.4, 0.2, 1)))
    }

    @Test func malformedCubeFilesNameTheLine() {
        func error(_ text: String) -> String { message { _ = try ColorCubeData.parseCubeFile(text) } }
        let rows = "0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n"
        #expect(error("# nothing\n") == ".cube file: no LUT_3D_SIZE line")
        #expect(error("LUT_3D_SIZE 2\n0 0 0\n1 x 0\n") == ".cube line 3: cannot read \"1 x 0\" as three numbers")
        #expect(error("LUT_3D_SIZE 2\n0 0 0 0\n").hasPrefix(".cube line 2: a table line needs three numbers"))
        #expect(error("LUT_3D_SIZE 2\n0 0 0\n") == ".cube file: LUT_3D_SIZE 2 needs 8 table lines, found 1")
        #expect(error("LUT_3D_SIZE 2\n" + rows + "1 1 1\n") == ".cube line 10: more than 2³ = 8 table lines")
        #expect(error("LUT_3D_SIZE 65\n").hasPrefix(".cube line 1: LUT_3D_SIZE 65 is outside 2…64"))
        #expect(error("LUT_1D_SIZE 16\n").hasPrefix(".cube line 1: this is a 1-D LUT"))
        #expect(error("DOMAIN_MAX 2 2 2\nLUT_3D_SIZE 2\n" + rows).hasPrefix(".cube line 1: DOMAIN_MAX 2 2 2 is not supported"))
        #expect(error("0 0 0\n") == ".cube line 1: table data before LUT_3D_SIZE")
        #expect(error("LUT_3D_SIZE 2\nGAMMA 2.2\n") == ".cube line 2: unknown keyword GAMMA")
        #expect(error("LUT_3D_SIZE 2\r\n" + rows.replacingOccurrences(of: "\n", with: "\r\n")) == "no error")
    }

    // MARK: Lab

    @Test func rgbToLabKnownColours() throws {
        // D65 white: L* 100, a* = b* = 0; normalised (1, 0.5, 0.5).
        #expect(close(try apply("CIConvertRGBtoLab", pixelImage(1, 1, 1)), Pixel(100, 0, 0, 1), tolerance: 2e-3))
        #expect(close(try apply("CIConvertRGBtoLab", pixelImage(1, 1, 1), ["inputNormalize": .number(1)]), Pixel(1, 0.5, 0.5, 1), tolerance: 1e-5))
        // sRGB red: L* 53.2408, a* 80.0925, b* 67.2032 (published D65 values).
        #expect(close(try apply("CIConvertRGBtoLab", pixelImage(1, 0, 0)), Pixel(53.2408, 80.0925, 67.2032, 1), tolerance: 0.01))
        // L* 50 grey: Y = ((50 + 16)/116)³ = 0.184187 in every channel.
        #expect(close(try apply("CIConvertLabToRGB", pixelImage(50, 0, 0)), Pixel(0.184187, 0.184187, 0.184187, 1), tolerance: 1e-5))
    }

    @Test func labRoundTrips() throws {
        let source = TestImages.pattern()
        let original = try TestImages.render(source)
        for normalize in [0.0, 1.0] {
            let lab = try source.applyingFilter("CIConvertRGBtoLab", parameters: ["inputNormalize": .number(normalize)])
            let back = try lab.applyingFilter("CIConvertLabToRGB", parameters: ["inputNormalize": .number(normalize)])
            #expect(TestImages.maxDifference(try TestImages.render(back, source.extent), original) < 2e-5)
        }
    }

    @Test func deltaE94() throws {
        func lab(_ l: Float, _ a: Float, _ b: Float) throws -> Image {
            try pixelImage(l, a, b).applyingFilter("CIConvertLabToRGB")
        }
        func deltaE(_ first: Image, _ second: Image) throws -> Pixel {
            try apply("CILabDeltaE", first, ["inputImage2": .image(second)])
        }
        // Same colour: 0.
        #expect(close(try deltaE(pixelImage(0.3, 0.5, 0.1), pixelImage(0.3, 0.5, 0.1)), Pixel(0, 0, 0, 1), tolerance: 1e-3))
        // Grey sRGB 0.5 (linear 0.214041, L* = 116·0.214041^(1/3) − 16 = 53.3889) against black: ΔE = ΔL.
        #expect(close(try deltaE(pixelImage(0.214041, 0.214041, 0.214041), pixelImage(0, 0, 0)), Pixel(53.3889, 53.3889, 53.3889, 1), tolerance: 2e-3))
        // Chroma only: (50, 20, 0) against (50, 0, 0): ΔC = 20, SC = 1 + 0.045·20 = 1.9 → 10.5263. Reversed, the
        // reference has C = 0, SC = 1 → 20 (ΔE94 is not symmetric).
        #expect(abs(try deltaE(try lab(50, 20, 0), try lab(50, 0, 0)).x - 10.5263) < 2e-3)
        #expect(abs(try deltaE(try lab(50, 0, 0), try lab(50, 20, 0)).x - 20) < 2e-3)
        // Hue only: (50, 20, 0) against (50, 0, 20): ΔC = 0, ΔH = √800, SH = 1 + 0.015·20 = 1.3 → 21.7572.
        #expect(abs(try deltaE(try lab(50, 20, 0), try lab(50, 0, 20)).x - 21.7572) < 2e-3)
    }

    // MARK: Vibrance, white point, tone mapping

    @Test func vibrance() throws {
        // Grey has no saturation to change.
        for amount in [-1.0, 1.0] {
            #expect(close(try apply("CIVibrance", pixelImage(0.4, 0.4, 0.4), ["inputAmount": .number(amount)]), Pixel(0.4, 0.4, 0.4, 1)))
        }
        // The rule fitted on Apple's iOS 7 render (amount −1): colours move towards the mean of R, G, B by
        // (1 − skin)·(1 − s + s²). Blue (0.05, 0.1, 0.8): mean 0.316667, s = (m − 0.05)/m = 0.842105, skin 0.15,
        // boost −0.85·(1 − s + s²) = −0.736981: red 0.05 + (0.05 − m)·boost = 0.246528.
        let muted = try apply("CIVibrance", pixelImage(0.05, 0.1, 0.8), ["inputAmount": .number(-1)])
        #expect(close(muted, Pixel(0.246528, 0.259679, 0.443793, 1), tolerance: 1e-4))
        // The mean is kept (not Rec. 709 luma).
        #expect(abs((muted.x + muted.y + muted.z) / 3 - 0.316667) < 1e-4)
        // Skin (0.8, 0.5, 0.35): skin term 0.15 + 0.7·4·min(0.3, 0.65)·(1 − 0.555556)/0.55 = 0.828788, boost only
        // −0.128938 (s = 0.555556): red 0.8 + 0.25·boost = 0.767766.
        let skin = try apply("CIVibrance", pixelImage(0.8, 0.5, 0.35), ["inputAmount": .number(-1)])
        #expect(close(skin, Pixel(0.767766, 0.506447, 0.375788, 1), tolerance: 1e-4))
        // +1 (no Apple render: the curve is 1 − s) on a muted blue-grey (0.4, 0.45, 0.5): mean 0.45, s = 0.111111
        // (red's (0.45 − 0.4)/0.45 beats blue's 0.05/0.55), boost 0.85·0.888889 = 0.755556: red 0.362222.
        let boosted = try apply("CIVibrance", pixelImage(0.4, 0.45, 0.5), ["inputAmount": .number(1)])
        #expect(close(boosted, Pixel(0.362222, 0.45, 0.537778, 1), tolerance: 1e-4))
    }

    @Test func whitePointMultipliesByTheLinearColour() throws {
        // #ff56ac: linear (1, 0.093059, 0.412543). White becomes that colour; 0.5 grey half of it.
        let color = ValueParser.color("#ff56ac")!
        let g = Float(srgbToLinear(86.0 / 255)), b = Float(srgbToLinear(172.0 / 255))
        let white = try apply("CIWhitePointAdjust", pixelImage(1, 1, 1), ["inputColor": .color(color)])
        #expect(close(white, Pixel(1, g, b, 1), tolerance: 1e-5))
        let grey = try apply("CIWhitePointAdjust", pixelImage(0.5, 0.5, 0.5, 0.5), ["inputColor": .color(color)])
        #expect(close(grey, Pixel(0.25, 0.25 * g, 0.25 * b, 0.5), tolerance: 1e-5))
    }

    @Test func toneMapHeadroom() throws {
        let fit: [String: FilterValue] = ["inputSourceHeadroom": .number(2), "inputTargetHeadroom": .number(1)]
        // Below the knee (half the target, 0.5): unchanged.
        #expect(close(try apply("CIToneMapHeadroom", pixelImage(0.4, 0.2, 0.1), fit), Pixel(0.4, 0.2, 0.1, 1)))
        // The source peak 2 lands on the target 1; hue kept (all components scaled alike).
        #expect(close(try apply("CIToneMapHeadroom", pixelImage(2, 1, 0.5), fit), Pixel(1, 0.5, 0.25, 1)))
        // Between: k = (2 − 0.5)/(1 − 0.5) = 3, u = (1 − 0.5)/1.5 = 1/3, g = 3u/(1 + 2u) = 0.6 → 0.5 + 0.5·0.6 = 0.8.
        #expect(close(try apply("CIToneMapHeadroom", pixelImage(1, 0.5, 0), fit), Pixel(0.8, 0.4, 0, 1)))
        // Target not below the source: nothing to do.
        let wide: [String: FilterValue] = ["inputSourceHeadroom": .number(2), "inputTargetHeadroom": .number(4)]
        #expect(close(try apply("CIToneMapHeadroom", pixelImage(2, 1, 0.5), wide), Pixel(2, 1, 0.5, 1)))
        // No source headroom: the image's own peak (2 here) is used.
        let image = TestImages.make(width: 2, height: 1) { x, _ in x == 0 ? Pixel(2, 1, 0.5, 1) : Pixel(1, 0.5, 0, 1) }
        let out = try TestImages.render(TestImages.filter("CIToneMapHeadroom", ["inputImage": .image(image)]))
        #expect(close(out.pixel(x: 0, y: 0), Pixel(1, 0.5, 0.25, 1)))
        #expect(close(out.pixel(x: 1, y: 0), Pixel(0.8, 0.4, 0, 1)))
    }

    /// Every filter of the family, chained, still runs as one fused pass and gives the same pixels tiled.
    @Test func familyFusesAndTiles() throws {
        var image = TestImages.pattern()
        for (name, values) in [
            ("CIColorClamp", [String: FilterValue]()), ("CIColorPolynomial", [:]), ("CIVibrance", ["inputAmount": .number(0.5)]),
            ("CIToneCurve", ["inputPoint1": .vector([0.25, 0.3])]), ("CIColorCube", ["inputCubeDimension": .number(9),
             "inputCubeData": .data(ColorCubeData.look(.warm, dimension: 9))]), ("CILinearToSRGBToneCurve", [:]),
        ] {
            image = try image.applyingFilter(name, parameters: values)
        }
        let whole = try TestImages.render(image)
        let banded = try RenderContext(options: .init(threads: 2, bandHeight: 3)).render(image, rect: image.extent)
        #expect(TestImages.maxDifference(whole, banded) == 0)
    }
}
