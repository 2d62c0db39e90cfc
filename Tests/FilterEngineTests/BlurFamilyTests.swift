import Foundation
import Testing
@testable import FilterEngine

/// Blur, sharpen, convolution and morphology filters: known pixels worked out by hand, identities, extents,
/// tiled against untiled, and bounded cost at huge radii.
@Suite struct BlurFamilyTests {
    static let opaqueWhite = Pixel(1, 1, 1, 1)

    /// A w×h opaque image of one grey value except `special` pixels.
    static func flat(_ w: Int, _ h: Int, value: Float = 0.25, special: [(Int, Int, Pixel)] = []) -> Image {
        TestImages.make(width: w, height: h) { x, y in
            for (sx, sy, p) in special where sx == x && sy == y { return p }
            return Pixel(value, value, value, 1)
        }
    }

    static func render(_ image: Image, _ rect: Rect) throws -> PixelBuffer { try TestImages.render(image, rect) }

    // MARK: Box blur

    @Test func boxBlurOfAStepIsHandComputedAverages() throws {
        // Radius 5 → a 5-pixel box (half-width 2). Left half 0, right half 1, alpha 1 everywhere; on row 4 the
        // vertical window stays inside the 9-row image.
        let image = TestImages.make(width: 20, height: 9) { x, _ in x >= 10 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
        let out = try TestImages.filter("CIBoxBlur", ["inputImage": .image(image), "inputRadius": .number(5)])
        #expect(out.extent == Rect(x: -2, y: -2, width: 24, height: 13))
        let buffer = try Self.render(out, out.extent)
        #expect(close(buffer.pixel(x: 9, y: 4), Pixel(0.4, 0.4, 0.4, 1)))
        #expect(close(buffer.pixel(x: 10, y: 4), Pixel(0.6, 0.6, 0.6, 1)))
        #expect(close(buffer.pixel(x: 5, y: 4), Pixel(0, 0, 0, 1)))
        #expect(close(buffer.pixel(x: 15, y: 4), Pixel(1, 1, 1, 1)))
        // Corner of the image: a 3×3 of the 5×5 window is inside (transparent outside).
        #expect(close(buffer.pixel(x: 19, y: 0), Pixel(0.36, 0.36, 0.36, 0.36)))
        // Outside the input by 2: one column of the window inside.
        #expect(close(buffer.pixel(x: 21, y: 4), Pixel(0.2, 0.2, 0.2, 0.2)))
    }

    @Test func flatImagesStayFlatInside() throws {
        let image = Self.flat(80, 80)
        let cases: [(String, [String: FilterValue])] = [
            ("CIBoxBlur", ["inputRadius": .number(9)]), ("CIDiscBlur", ["inputRadius": .number(6)]),
            ("CIDiscBlur", ["inputRadius": .number(30)]),
            ("CIMotionBlur", ["inputRadius": .number(6), "inputAngle": .number(0.7)]),
            ("CIZoomBlur", ["inputCenter": .vector([40, 40]), "inputAmount": .number(20)]),
            ("CIMedianFilter", [:]), ("CINoiseReduction", [:]), ("CIUnsharpMask", [:]), ("CISharpenLuminance", [:]),
            ("CIBloom", ["inputRadius": .number(3)]), ("CIGloom", ["inputRadius": .number(3)]),
            ("CIBokehBlur", ["inputRadius": .number(5), "inputRingAmount": .number(0.5), "inputSoftness": .number(0.5)]),
            ("CIMorphologyMaximum", ["inputRadius": .number(4)]), ("CIMorphologyMinimum", ["inputRadius": .number(4)]),
            ("CIMorphologyRectangleMaximum", [:]), ("CIMorphologyRectangleMinimum", [:]),
        ]
        for (name, parameters) in cases {
            var values = parameters
            values["inputImage"] = .image(image)
            let out = try TestImages.filter(name, values)
            let inside = try Self.render(out, Rect(x: 36, y: 36, width: 8, height: 8))
            var worst: Float = 0
            for i in 0..<inside.rect.area { worst = max(worst, largestComponent(inside.pixels[i] - Pixel(0.25, 0.25, 0.25, 1))) }
            #expect(worst < 2e-3, "\(name) \(parameters): \(worst)")
        }
    }

    // MARK: Disc blur, morphology shapes

    @Test func discBlurSpreadsAPixelOverADisc() throws {
        let image = TestImages.make(width: 21, height: 21) { x, y in x == 10 && y == 10 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 0) }
        let out = try TestImages.filter("CIDiscBlur", ["inputImage": .image(image), "inputRadius": .number(3)])
        // Disc of radius 3: rows dy = 0, ±1, ±2, ±3 with half-widths 3, 2, 2, 0 → 7 + 2·5 + 2·5 + 2·1 = 29 pixels.
        let n: Float = 29
        let buffer = try Self.render(out, out.extent)
        // Grown ⌈r⌉ + 2 a side (Apple's iOS 12.1 render).
        #expect(out.extent == Rect(x: -5, y: -5, width: 31, height: 31))
        #expect(close(buffer.pixel(x: 13, y: 10), Pixel(1, 1, 1, 1) / n))
        #expect(close(buffer.pixel(x: 12, y: 12), Pixel(1, 1, 1, 1) / n))
        #expect(close(buffer.pixel(x: 10, y: 7), Pixel(1, 1, 1, 1) / n))
        #expect(close(buffer.pixel(x: 13, y: 11), Pixel(0, 0, 0, 0)))
        #expect(close(buffer.pixel(x: 11, y: 7), Pixel(0, 0, 0, 0)))
    }

    @Test func morphologyMaximumOfAPixelIsADisc() throws {
        let image = TestImages.make(width: 21, height: 21) { x, y in x == 10 && y == 10 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
        let out = try TestImages.filter("CIMorphologyMaximum", ["inputImage": .image(image), "inputRadius": .number(3)])
        #expect(out.extent == Rect(x: -3, y: -3, width: 27, height: 27))
        let buffer = try Self.render(out, Rect(x: 0, y: 0, width: 21, height: 21))
        var lit = 0
        for y in 0..<21 {
            for x in 0..<21 {
                let dx = x - 10, dy = y - 10
                let inside = dx * dx + dy * dy <= 9
                let p = buffer.pixel(x: x, y: y)
                #expect(p == (inside ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1)), "(\(x), \(y))")
                if inside { lit += 1 }
            }
        }
        #expect(lit == 29)
    }

    @Test func morphologyMinimumOfADarkPixelIsADisc() throws {
        let image = TestImages.make(width: 21, height: 21) { x, y in x == 10 && y == 10 ? Pixel(0, 0, 0, 1) : Pixel(1, 1, 1, 1) }
        let out = try TestImages.filter("CIMorphologyMinimum", ["inputImage": .image(image), "inputRadius": .number(2)])
        // Grown by the reach, as the maximum (Apple's iOS 12.1 render, conformance CIMorphologyMinimum).
        #expect(out.extent == Rect(x: -2, y: -2, width: 25, height: 25))
        let buffer = try Self.render(out, Rect(x: 5, y: 5, width: 11, height: 11))
        for y in 5..<16 {
            for x in 5..<16 {
                let dx = x - 10, dy = y - 10
                let expected: Pixel = dx * dx + dy * dy <= 4 ? Pixel(0, 0, 0, 1) : Pixel(1, 1, 1, 1)
                #expect(buffer.pixel(x: x, y: y) == expected, "(\(x), \(y))")
            }
        }
        // Near the edge the transparent outside wins, and the grown border is transparent.
        #expect(try TestImages.pixel(out, x: 0, y: 10) == Pixel(0, 0, 0, 0))
        #expect(try TestImages.pixel(out, x: -2, y: 10) == Pixel(0, 0, 0, 0))
    }

    @Test func rectangleMorphologyGivesARectangle() throws {
        let image = TestImages.make(width: 21, height: 21) { x, y in x == 10 && y == 10 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
        let out = try TestImages.filter("CIMorphologyRectangleMaximum", ["inputImage": .image(image),
                                                                        "inputWidth": .number(3), "inputHeight": .number(5)])
        #expect(out.extent == Rect(x: -1, y: -2, width: 23, height: 25))
        let buffer = try Self.render(out, Rect(x: 0, y: 0, width: 21, height: 21))
        for y in 0..<21 {
            for x in 0..<21 {
                let inside = abs(x - 10) <= 1 && abs(y - 10) <= 2
                #expect(buffer.pixel(x: x, y: y) == (inside ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1)), "(\(x), \(y))")
            }
        }
        // Minimum of the inverted picture: a dark 3×5 rectangle; even sizes reach one pixel less before.
        let dark = TestImages.make(width: 21, height: 21) { x, y in x == 10 && y == 10 ? Pixel(0, 0, 0, 1) : Pixel(1, 1, 1, 1) }
        let low = try TestImages.filter("CIMorphologyRectangleMinimum", ["inputImage": .image(dark),
                                                                        "inputWidth": .number(4), "inputHeight": .number(1)])
        // Grown like the rectangle maximum (window x − 1 ... x + 2), the disc minimum's convention.
        // Output x sees input x − 1 ... x + 2, so it covers x = −2 ... 21.
        #expect(low.extent == Rect(x: -2, y: 0, width: 24, height: 21))
        let row = try Self.render(low, Rect(x: 0, y: 10, width: 21, height: 1))
        for x in 5..<16 {
            // Window [x − 1, x + 2] contains 10 for x in 8...11.
            #expect(row.pixel(x: x, y: 10) == ((8...11).contains(x) ? Pixel(0, 0, 0, 1) : Pixel(1, 1, 1, 1)), "x \(x)")
        }
    }

    @Test func morphologyGradientOutlinesAnEdge() throws {
        let image = TestImages.make(width: 20, height: 20) { x, _ in x >= 10 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
        let out = try TestImages.filter("CIMorphologyGradient", ["inputImage": .image(image), "inputRadius": .number(2)])
        // The input's extent (Apple's iOS 12.1 render, conformance CIMorphologyGradient).
        #expect(out.extent == image.extent)
        let row = try Self.render(out, Rect(x: 0, y: 10, width: 20, height: 1))
        for x in 3..<17 {
            // Half the difference (Apple's render: 60.6 dB that way, 24.9 the full difference).
            let expected: Float = (8...11).contains(x) ? 0.5 : 0
            // The colour is differenced, the alpha is the dilation's: visible edges on opaque black.
            #expect(close(row.pixel(x: x, y: 10), Pixel(expected, expected, expected, 1)), "x \(x)")
        }
        // At the border the transparent outside is the minimum: white there gives half white.
        #expect(close(row.pixel(x: 19, y: 10), Pixel(0.5, 0.5, 0.5, 1)))
        // Radius 0 is the catalogue's identity; a radius under one pixel gives opaque black (no edges).
        let zero = try TestImages.filter("CIMorphologyGradient", ["inputImage": .image(image), "inputRadius": .number(0)])
        #expect(try TestImages.pixel(zero, x: 10, y: 10) == Pixel(1, 1, 1, 1))
        let tiny = try TestImages.filter("CIMorphologyGradient", ["inputImage": .image(image), "inputRadius": .number(0.5)])
        #expect(try TestImages.pixel(tiny, x: 10, y: 10) == Pixel(0, 0, 0, 1))
    }

    // MARK: Median

    @Test func medianRemovesALoneOutlierAndMatchesASort() throws {
        let image = Self.flat(9, 9, special: [(4, 4, Pixel(1, 1, 1, 1))])
        let out = try TestImages.filter("CIMedianFilter", ["inputImage": .image(image)])
        #expect(out.extent == image.extent)
        #expect(close(try TestImages.pixel(out, x: 4, y: 4), Pixel(0.25, 0.25, 0.25, 1)))
        // Against a plain sort on a scrambled image.
        let scrambled = TestImages.make(width: 12, height: 10) { x, y in
            let v = { (k: Int) in Float((x * 37 + y * 91 + k * 53) % 29) / 29 }
            return Pixel(v(1), v(2), v(3), v(4))
        }
        let buffer = try Self.render(try TestImages.filter("CIMedianFilter", ["inputImage": .image(scrambled)]), scrambled.extent)
        let source = try Self.render(scrambled, scrambled.extent)
        for y in 1..<9 {
            for x in 1..<11 {
                var expected = Pixel(0, 0, 0, 0)
                for c in 0..<4 {
                    var values: [Float] = []
                    for j in -1...1 { for i in -1...1 { values.append(source.pixel(x: x + i, y: y + j)[c]) } }
                    expected[c] = values.sorted()[4]
                }
                #expect(buffer.pixel(x: x, y: y) == expected, "(\(x), \(y))")
            }
        }
    }

    // MARK: Convolution

    @Test func identityConvolutionsLeaveTheImageUnchanged() throws {
        let image = TestImages.pattern(width: 24, height: 20)
        let source = try Self.render(image, image.extent)
        for name in ["CIConvolution3X3", "CIConvolution5X5", "CIConvolution7X7", "CIConvolution9Horizontal",
                     "CIConvolution9Vertical", "CIConvolutionRGB3X3", "CIConvolutionRGB5X5", "CIConvolutionRGB7X7",
                     "CIConvolutionRGB9Horizontal", "CIConvolutionRGB9Vertical"] {
            let out = try TestImages.filter(name, ["inputImage": .image(image)])
            #expect(TestImages.maxDifference(try Self.render(out, image.extent), source) < 1e-6, "\(name)")
        }
    }

    @Test func convolutionWeightsReadFromTheTopLeft() throws {
        let image = TestImages.pattern(width: 24, height: 20)
        var weights = [Double](repeating: 0, count: 9)
        weights[0] = 1  // top-left: output(x, y) = input(x − 1, y + 1)
        let out = try TestImages.filter("CIConvolution3X3", ["inputImage": .image(image), "inputWeights": .vector(weights),
                                                             "inputBias": .number(0.1)])
        #expect(out.extent == Rect(x: -1, y: -1, width: 26, height: 22))
        let source = try Self.render(image, image.extent)
        let buffer = try Self.render(out, out.extent)
        for (x, y) in [(5, 5), (10, 3), (20, 15)] {
            let shifted = source.pixel(x: x - 1, y: y + 1) + Pixel(0.1, 0.1, 0.1, 0.1)
            let clamped = Pixel(min(shifted.x, 1), min(shifted.y, 1), min(shifted.z, 1), min(shifted.w, 1))
            #expect(close(buffer.pixel(x: x, y: y), clamped))
        }
        // The RGB variant keeps alpha and adds the bias to colour only.
        let rgb = try TestImages.filter("CIConvolutionRGB3X3", ["inputImage": .image(image), "inputWeights": .vector(weights),
                                                                "inputBias": .number(0.1)])
        let b2 = try Self.render(rgb, image.extent)
        let p = source.pixel(x: 4, y: 4), q = source.pixel(x: 3, y: 5)  // alpha 0.5 corner
        #expect(close(b2.pixel(x: 4, y: 4), Pixel(q.x + 0.1, q.y + 0.1, q.z + 0.1, p.w)))
        // 9-tap vertical: the first weight is the top (y + 4); a [1, 2, 1]-style sum by hand.
        var vertical = [Double](repeating: 0, count: 9)
        vertical[0] = 0.5; vertical[8] = 0.25
        let v = try TestImages.filter("CIConvolution9Vertical", ["inputImage": .image(image), "inputWeights": .vector(vertical)])
        #expect(v.extent == Rect(x: 0, y: -4, width: 24, height: 28))
        #expect(close(try TestImages.pixel(v, x: 12, y: 10), source.pixel(x: 12, y: 14) * 0.5 + source.pixel(x: 12, y: 6) * 0.25))
        // Results are clamped to 0...1: a bias of 2 gives white, −2 transparent.
        let bright = try TestImages.filter("CIConvolution3X3", ["inputImage": .image(image), "inputBias": .number(2)])
        #expect(try TestImages.pixel(bright, x: 10, y: 10) == Pixel(1, 1, 1, 1))
        let dark = try TestImages.filter("CIConvolutionRGB3X3", ["inputImage": .image(image), "inputBias": .number(-2)])
        #expect(try TestImages.pixel(dark, x: 10, y: 10) == Pixel(0, 0, 0, 1))
        var horizontal = [Double](repeating: 0, count: 9)
        horizontal[0] = 1
        let h = try TestImages.filter("CIConvolution9Horizontal", ["inputImage": .image(image), "inputWeights": .vector(horizontal)])
        #expect(close(try TestImages.pixel(h, x: 12, y: 10), source.pixel(x: 8, y: 10)))
    }

    /// Before iOS 8.3 the weighted sum ran on sRGB-encoded values (Apple's iOS 7 renders); today on linear ones.
    /// A [0.5, 0.5] average of linear black and linear 0.5: 0.25 today; (0 + enc(0.5)) / 2 decoded under iOS 7.
    @Test func convolutionSpaceFollowsTheVersion() throws {
        let image = TestImages.make(width: 4, height: 1) { x, _ in x < 2 ? Pixel(0, 0, 0, 1) : Pixel(0.5, 0.5, 0.5, 1) }
        var weights = [Double](repeating: 0, count: 9)
        weights[3] = 0.5; weights[4] = 0.5  // output(x) = (input(x − 1) + input(x)) / 2
        func run(_ version: CoreImageVersion) throws -> Pixel {
            let filter = try Filter(named: "CIConvolution3X3")
            filter.coreImageVersion = version
            try filter.setValue(.image(image), forKey: "inputImage")
            try filter.setValue(.vector(weights), forKey: "inputWeights")
            return try TestImages.pixel(try filter.makeOutputImage(), x: 2, y: 0)
        }
        let today = try run(.current), old = try run(CoreImageVersion(7))
        #expect(close(today, Pixel(0.25, 0.25, 0.25, 1)))
        let expected = ColorMath.linear(fromSRGB: ColorMath.sRGB(fromLinear: 0.5) / 2)  // 0.1113
        #expect(close(old, Pixel(expected, expected, expected, 1), tolerance: 2e-3))
        #expect(close(try run(CoreImageVersion(8, 3)), today))
    }

    // MARK: Motion, zoom

    @Test func motionBlurIsAGaussianAlongItsDirection() throws {
        // A vertical white line, blurred horizontally by radius (σ) 3: Gaussian weights one pixel apart over ±9.
        let image = TestImages.make(width: 41, height: 9) { x, _ in x == 20 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
        let out = try TestImages.filter("CIMotionBlur", ["inputImage": .image(image), "inputRadius": .number(3)])
        #expect(out.extent == Rect(x: -9, y: 0, width: 59, height: 9))
        let weights = (-9...9).map { exp(-Double($0 * $0) / 18) }, total = weights.reduce(0, +)
        for d in -9...9 {
            let w = Float(weights[d + 9] / total)
            #expect(close(try TestImages.pixel(out, x: 20 + d, y: 4), Pixel(w, w, w, 1), tolerance: 1e-5), "offset \(d)")
        }
        // iOS 9–12 declared 6σ along the line, rounded to the pyramid level (none at σ 3): 18 px each side here.
        let filter = try Filter(named: "CIMotionBlur")
        filter.coreImageVersion = CoreImageVersion(12)
        try filter.setValue(.image(image), forKey: "inputImage")
        try filter.setValue(.number(3), forKey: "inputRadius")
        #expect(try filter.makeOutputImage().extent == Rect(x: -18, y: 0, width: 77, height: 9))
        // At a right angle the line keeps its colour; the weights past the image's 9 rows read transparent.
        let along = try TestImages.filter("CIMotionBlur", ["inputImage": .image(image), "inputRadius": .number(3),
                                                           "inputAngle": .number(Double.pi / 2)])
        #expect(along.extent == Rect(x: 0, y: -9, width: 41, height: 27))
        let a = Float(weights[5...13].reduce(0, +) / total)
        #expect(close(try TestImages.pixel(along, x: 20, y: 4), Pixel(a, a, a, a), tolerance: 1e-5))
        #expect(close(try TestImages.pixel(along, x: 19, y: 4), Pixel(0, 0, 0, a), tolerance: 1e-5))
    }

    @Test func zoomBlurKeepsTheCentreAndIdentityAtZero() throws {
        let image = TestImages.pattern()
        let source = try Self.render(image, image.extent)
        let zero = try TestImages.filter("CIZoomBlur", ["inputImage": .image(image), "inputAmount": .number(0)])
        #expect(TestImages.maxDifference(try Self.render(zero, image.extent), source) == 0)
        let out = try TestImages.filter("CIZoomBlur", ["inputImage": .image(image), "inputCenter": .vector([30.5, 20.5]),
                                                       "inputAmount": .number(33)])
        // Amount 33: k = 33/66 = 0.5, the extent doubles about the centre (−30.5 → −31, 97.5 → 98, −20.5, 75.5).
        #expect(out.extent == Rect(x: -31, y: -21, width: 129, height: 97))
        #expect(close(try TestImages.pixel(out, x: 30, y: 20), source.pixel(x: 30, y: 20)))
        // On a ramp linear in x, bilinear samples are exact and the segment's mean is the ramp at its middle: the
        // pixel 10 right of the centre averages its segment towards the centre over k = 0.5 of the distance (the
        // rays' exact mean), so it shows the ramp 10·k/2 nearer the centre.
        let ramp = TestImages.make(width: 64, height: 48) { x, _ in Pixel(Float(x) / 64, 0.5, 0.5, 1) }
        let zoomed = try TestImages.filter("CIZoomBlur", ["inputImage": .image(ramp), "inputCenter": .vector([30.5, 20.5]),
                                                          "inputAmount": .number(33)])
        let position = 40.5 - 10 * 0.5 / 2
        let expected = Float((position - 0.5) / 64)
        #expect(close(try TestImages.pixel(zoomed, x: 40, y: 20), Pixel(expected, 0.5, 0.5, 1)))
    }

    // MARK: Sharpen, noise, glow, masked

    @Test func sharpenFormulas() throws {
        let image = TestImages.make(width: 30, height: 30) { x, _ in x >= 15 ? Pixel(0.8, 0.6, 0.4, 1) : Pixel(0.2, 0.3, 0.1, 1) }
        let blurred = BlurFilters.gaussian(image, sigma: 2)
        let b = try TestImages.pixel(blurred, x: 15, y: 15), p = Pixel(0.8, 0.6, 0.4, 1)
        let unsharp = try TestImages.filter("CIUnsharpMask", ["inputImage": .image(image), "inputRadius": .number(2),
                                                              "inputIntensity": .number(0.7)])
        #expect(close(try TestImages.pixel(unsharp, x: 15, y: 15), p + (p - b) * 0.7))
        #expect(unsharp.extent == image.extent)
        let luma = try TestImages.filter("CISharpenLuminance", ["inputImage": .image(image), "inputRadius": .number(2),
                                                                "inputSharpness": .number(0.5)])
        let w = ColorMath.lumaWeights
        let d = 0.5 * ((p.x - b.x) * w.x + (p.y - b.y) * w.y + (p.z - b.z) * w.z)
        let q = try TestImages.pixel(luma, x: 15, y: 15)
        #expect(close(q, Pixel(p.x + d, p.y + d, p.z + d, 1)))
        // Equal change on every channel: the chroma differences stay.
        #expect(abs((q.x - q.y) - (p.x - p.y)) < 1e-5)
        for (name, key) in [("CIUnsharpMask", "inputIntensity"), ("CISharpenLuminance", "inputSharpness"),
                            ("CIBloom", "inputIntensity"), ("CIGloom", "inputIntensity"), ("CINoiseReduction", "inputNoiseLevel")] {
            var values: [String: FilterValue] = ["inputImage": .image(image), key: .number(0)]
            if name == "CINoiseReduction" { values["inputSharpness"] = .number(0) }
            let out = try TestImages.filter(name, values)
            #expect(TestImages.maxDifference(try Self.render(out, image.extent), try Self.render(image, image.extent)) < 1e-6, "\(name)")
        }
    }

    @Test func noiseReductionRemovesSmallDetail() throws {
        // A ±0.01 ripple on grey is below the noise level 0.02: it is flattened to the blurred value.
        let image = TestImages.make(width: 20, height: 20) { x, y in
            let v: Float = 0.5 + ((x + y) % 2 == 0 ? 0.01 : -0.01)
            return Pixel(v, v, v, 1)
        }
        let out = try TestImages.filter("CINoiseReduction", ["inputImage": .image(image)])
        let blurred = try TestImages.pixel(BlurFilters.gaussian(image, sigma: 1), x: 10, y: 10)
        #expect(close(try TestImages.pixel(out, x: 10, y: 10), blurred))
        // A big step survives, boosted by 1 + sharpness beyond the threshold.
        let step = TestImages.make(width: 20, height: 20) { x, _ in x >= 10 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
        let b = try TestImages.pixel(BlurFilters.gaussian(step, sigma: 1), x: 10, y: 10)
        let o = try TestImages.pixel(try TestImages.filter("CINoiseReduction", ["inputImage": .image(step)]), x: 10, y: 10)
        #expect(abs(o.x - (b.x + (1 - b.x - 0.02) * 1.4)) < 1e-4)
    }

    @Test func bloomAndGloomMoveTowardsTheBlur() throws {
        let image = TestImages.make(width: 30, height: 30) { x, _ in x >= 15 ? Pixel(0.9, 0.9, 0.9, 1) : Pixel(0.1, 0.1, 0.1, 1) }
        let blurred = try Self.render(BlurFilters.gaussian(image, sigma: 4), Rect(x: 0, y: 15, width: 30, height: 1))
        let bloom = try Self.render(try TestImages.filter("CIBloom", ["inputImage": .image(image), "inputRadius": .number(4),
                                                                      "inputIntensity": .number(0.5)]), Rect(x: 0, y: 15, width: 30, height: 1))
        let gloom = try Self.render(try TestImages.filter("CIGloom", ["inputImage": .image(image), "inputRadius": .number(4),
                                                                      "inputIntensity": .number(0.5)]), Rect(x: 0, y: 15, width: 30, height: 1))
        // Dark side next to the edge brightens half way to the blur; bright side stays (bloom) or darkens (gloom).
        let b13 = blurred.pixel(x: 13, y: 15).x, b16 = blurred.pixel(x: 16, y: 15).x
        #expect(abs(bloom.pixel(x: 13, y: 15).x - (0.1 + 0.5 * (b13 - 0.1))) < 1e-5)
        #expect(abs(bloom.pixel(x: 16, y: 15).x - 0.9) < 1e-5)
        #expect(abs(gloom.pixel(x: 16, y: 15).x - (0.9 + 0.5 * (b16 - 0.9))) < 1e-5)
        #expect(abs(gloom.pixel(x: 13, y: 15).x - 0.1) < 1e-5)
    }

    @Test func maskedVariableBlurFollowsTheMask() throws {
        let image = TestImages.make(width: 40, height: 40) { x, y in (x / 3 + y / 3) % 2 == 0 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
        let mask = TestImages.make(width: 40, height: 40) { x, _ in x >= 20 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
        let out = try TestImages.filter("CIMaskedVariableBlur", ["inputImage": .image(image), "inputMask": .image(mask),
                                                                 "inputRadius": .number(4)])
        // Grown by the largest level's reach, ⌈3·4⌉ (today's Gaussian extents).
        #expect(out.extent == Rect(x: -12, y: -12, width: 64, height: 64))
        // Black mask: the image itself; white mask: the full Gaussian blur.
        #expect(close(try TestImages.pixel(out, x: 5, y: 10), try TestImages.pixel(image, x: 5, y: 10)))
        #expect(close(try TestImages.pixel(out, x: 30, y: 10), try TestImages.pixel(BlurFilters.gaussian(image, sigma: 4), x: 30, y: 10)))
    }

    /// The extents of Apple's iOS 12.1 renders (shared/conformance), from the inputs' sizes alone: disc r 20,
    /// bokeh r 30, zoom (amount 30 about (200, 200)), motion r 20 at angle 3 and masked variable blur r 20 under
    /// iOS 12 (and today's).
    @Test func blurExtentsOfApplesRenders() throws {
        let photo = Rect(x: 0, y: 0, width: 660, height: 483)
        #expect(BlurStages.grow(photo, 22, 22) == Rect(x: -22, y: -22, width: 704, height: 527))
        let image = TestImages.make(width: 660, height: 483) { _, _ in Pixel(1, 1, 1, 1) }
        let disc = try TestImages.filter("CIDiscBlur", ["inputImage": .image(image), "inputRadius": .number(20)])
        #expect(disc.extent == Rect(x: -22, y: -22, width: 704, height: 527))
        let bokeh = try TestImages.filter("CIBokehBlur", ["inputImage": .image(image), "inputRadius": .number(30),
                                                          "inputRingAmount": .number(1), "inputRingSize": .number(7),
                                                          "inputSoftness": .number(0)])
        #expect(bokeh.extent == Rect(x: -34, y: -34, width: 728, height: 552))
        let zoom = try TestImages.filter("CIZoomBlur", ["inputImage": .image(image), "inputCenter": .vector([200, 200]),
                                                        "inputAmount": .number(30)])
        #expect(zoom.extent == Rect(x: -167, y: -167, width: 1211, height: 886))
        let motion = try Filter(named: "CIMotionBlur")
        motion.coreImageVersion = CoreImageVersion(12)
        try motion.setValue(.image(image), forKey: "inputImage")
        try motion.setValue(.number(20), forKey: "inputRadius")
        try motion.setValue(.number(3), forKey: "inputAngle")
        #expect(try motion.makeOutputImage().extent == Rect(x: -120, y: -16, width: 900, height: 515))
        let mask = TestImages.make(width: 1000, height: 562) { _, _ in Pixel(1, 1, 1, 1) }
        for (version, expected) in [(CoreImageVersion(12), Rect(x: -192, y: -192, width: 1088, height: 896)),
                                    (.current, Rect(x: -60, y: -60, width: 780, height: 603))] {
            let filter = try Filter(named: "CIMaskedVariableBlur")
            filter.coreImageVersion = version
            try filter.setValue(.image(image), forKey: "inputImage")
            try filter.setValue(.image(mask), forKey: "inputMask")
            try filter.setValue(.number(20), forKey: "inputRadius")
            #expect(try filter.makeOutputImage().extent == expected, "\(version)")
        }
    }

    @Test func bokehIsADiscBlurAtItsSimplest() throws {
        let image = TestImages.pattern()
        let bokeh = try TestImages.filter("CIBokehBlur", ["inputImage": .image(image), "inputRadius": .number(5),
                                                          "inputSoftness": .number(0)])
        let disc = try TestImages.filter("CIDiscBlur", ["inputImage": .image(image), "inputRadius": .number(5)])
        // Bokeh: 64×48 on even coordinates, grown 2·⌈5/2⌉ + 4 = 10; disc: ⌈5⌉ + 2 = 7.
        #expect(bokeh.extent == Rect(x: -10, y: -10, width: 84, height: 68))
        #expect(disc.extent == Rect(x: -7, y: -7, width: 78, height: 62))
        #expect(TestImages.maxDifference(try Self.render(bokeh, disc.extent), try Self.render(disc, disc.extent)) < 1e-6)
    }

    // MARK: Tiling and bounds

    @Test func tiledEqualsUntiled() throws {
        let image = TestImages.pattern(width: 64, height: 48)
        let mask = TestImages.pattern(width: 64, height: 48)
        let cases: [(String, [String: FilterValue])] = [
            ("CIBoxBlur", ["inputRadius": .number(7)]), ("CIDiscBlur", ["inputRadius": .number(5)]),
            ("CIDiscBlur", ["inputRadius": .number(30)]), ("CIMotionBlur", ["inputRadius": .number(40), "inputAngle": .number(0.4)]),
            ("CIZoomBlur", ["inputCenter": .vector([20, 30])]), ("CIMedianFilter", [:]), ("CINoiseReduction", [:]),
            ("CIUnsharpMask", [:]), ("CISharpenLuminance", [:]), ("CIBloom", [:]), ("CIGloom", [:]),
            ("CIMaskedVariableBlur", ["inputMask": .image(mask)]), ("CIBokehBlur", ["inputRingAmount": .number(0.5)]),
            ("CIConvolution5X5", ["inputWeights": .vector((0..<25).map { Double($0) / 300 })]),
            ("CIMorphologyMaximum", ["inputRadius": .number(6)]), ("CIMorphologyMinimum", ["inputRadius": .number(6)]),
            ("CIMorphologyGradient", [:]), ("CIMorphologyRectangleMaximum", ["inputWidth": .number(6), "inputHeight": .number(9)]),
            ("CIMorphologyRectangleMinimum", [:]),
        ]
        for (name, parameters) in cases {
            var values = parameters
            values["inputImage"] = .image(image)
            let out = try TestImages.filter(name, values)
            let e = out.extent
            let whole = try Self.render(out, e)
            let half = (e.height / 2).rounded(.down)
            let low = try TestImages.render(out, Rect(x: e.minX, y: e.minY, width: e.width, height: half),
                                            context: RenderContext())
            let high = try TestImages.render(out, Rect(x: e.minX, y: e.minY + half, width: e.width, height: e.height - half),
                                             context: RenderContext())
            var worst: Float = 0
            for y in whole.rect.y..<whole.rect.maxY {
                for x in whole.rect.x..<whole.rect.maxX {
                    let part = y < low.rect.maxY ? low.pixel(x: x, y: y) : high.pixel(x: x, y: y)
                    worst = max(worst, largestComponent(part - whole.pixel(x: x, y: y)))
                }
            }
            #expect(worst < 1e-4, "\(name) \(parameters): \(worst)")
        }
    }

    /// The explorer clamps the source to an infinite extent before blurs; every filter must render a window of it.
    @Test func clampedInfiniteInputsRender() throws {
        let image = TestImages.pattern().clampedToExtent()
        let window = Rect(x: -10, y: -10, width: 80, height: 60)
        let cases: [(String, [String: FilterValue])] = [
            ("CIBoxBlur", [:]), ("CIDiscBlur", ["inputRadius": .number(40)]), ("CIMotionBlur", ["inputRadius": .number(60)]),
            ("CIZoomBlur", [:]), ("CIMedianFilter", [:]), ("CINoiseReduction", [:]), ("CIUnsharpMask", [:]),
            ("CISharpenLuminance", [:]), ("CIBloom", [:]), ("CIGloom", [:]), ("CIMaskedVariableBlur", ["inputMask": .image(image)]),
            ("CIBokehBlur", ["inputRingAmount": .number(0.5)]), ("CIConvolution7X7", [:]), ("CIMorphologyMaximum", ["inputRadius": .number(3)]),
            ("CIMorphologyMinimum", ["inputRadius": .number(3)]), ("CIMorphologyGradient", [:]),
            ("CIMorphologyRectangleMaximum", [:]), ("CIMorphologyRectangleMinimum", [:]),
        ]
        let flat = Self.flat(4, 4).clampedToExtent()
        for (name, parameters) in cases {
            var values = parameters
            values["inputImage"] = .image(image)
            let out = try TestImages.filter(name, values)
            #expect(out.extent.isInfinite, "\(name)")
            let buffer = try Self.render(out, window)
            var bad = 0
            for i in 0..<buffer.rect.area where !buffer.pixels[i].x.isFinite { bad += 1 }
            #expect(bad == 0, "\(name)")
            // A clamped flat image stays flat everywhere (no transparent border creeps in).
            values["inputImage"] = .image(flat)
            if values["inputMask"] != nil { values["inputMask"] = .image(flat) }
            let f = try Self.render(try TestImages.filter(name, values), window)
            var worst: Float = 0
            for i in 0..<f.rect.area { worst = max(worst, largestComponent(f.pixels[i] - Pixel(0.25, 0.25, 0.25, 1))) }
            #expect(worst < 2e-3 || name == "CIMorphologyGradient", "\(name): \(worst)")
        }
    }

    @Test func hugeRadiiStayBounded() throws {
        let image = TestImages.pattern()
        let start = Date()
        for (name, key) in [("CIBoxBlur", "inputRadius"), ("CIDiscBlur", "inputRadius"), ("CIMotionBlur", "inputRadius"),
                            ("CIMorphologyMaximum", "inputRadius"), ("CIMorphologyGradient", "inputRadius"),
                            ("CIMorphologyRectangleMaximum", "inputWidth"), ("CIZoomBlur", "inputAmount"),
                            ("CIBokehBlur", "inputRadius"), ("CIMaskedVariableBlur", "inputRadius")] {
            var values: [String: FilterValue] = ["inputImage": .image(image), key: .number(name == "CIBokehBlur" ? 500 : 100_000)]
            if name == "CIMaskedVariableBlur" { values["inputMask"] = .image(image) }
            let out = try TestImages.filter(name, values)
            let buffer = try Self.render(out, image.extent)
            for i in 0..<buffer.rect.area { #expect(buffer.pixels[i].x.isFinite, "\(name)"); break }
        }
        #expect(Date().timeIntervalSince(start) < 10)
    }
}
