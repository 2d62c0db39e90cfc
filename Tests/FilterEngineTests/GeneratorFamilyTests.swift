import Foundation
import Testing
@testable import FilterEngine

/// Gradients, shapes, lights, distance field and mesh: known pixels worked out from the formulas, extents.
@Suite struct GeneratorFamilyTests {
    static let white = FilterValue.color(.white)
    static let black = FilterValue.color(.black)

    func px(_ image: Image, _ x: Int, _ y: Int) throws -> Pixel { try TestImages.pixel(image, x: x, y: y) }

    func grey(_ v: Float) -> Pixel { Pixel(v, v, v, 1) }

    // MARK: Gradients

    @Test func linearGradientEndsAndMiddle() throws {
        let g = try TestImages.filter("CILinearGradient", [
            "inputPoint0": .vector([0, 0]), "inputPoint1": .vector([100, 0]),
            "inputColor0": Self.white, "inputColor1": Self.black,
        ])
        #expect(g.extent.isInfinite)
        #expect(close(try px(g, -20, 7), grey(1)))
        #expect(close(try px(g, 140, 7), grey(0)))
        // Pixel 49 has its centre at x = 49.5: t = 0.495, linear mix of linear white (1) and black (0).
        #expect(close(try px(g, 49, 30), grey(0.505)))
        #expect(close(try px(g, 24, -30), grey(0.755)))
    }

    @Test func linearGradientMixesInLinearPremultipliedSpace() throws {
        // Opaque red to transparent: the midpoint is half of linear red, premultiplied, alpha 0.5.
        let g = try TestImages.filter("CILinearGradient", [
            "inputPoint0": .vector([0.5, 0]), "inputPoint1": .vector([10.5, 0]),
            "inputColor0": .color(Color(red: 1, green: 0, blue: 0)), "inputColor1": .color(.clear),
        ])
        #expect(close(try px(g, 5, 0), Pixel(0.5, 0, 0, 0.5)))
    }

    @Test func linearGradientWithCoincidentPointsIsColourZero() throws {
        let g = try TestImages.filter("CILinearGradient", [
            "inputPoint0": .vector([5, 5]), "inputPoint1": .vector([5, 5]),
            "inputColor0": Self.white, "inputColor1": Self.black,
        ])
        let p = try px(g, 40, 2)
        #expect(close(p, grey(1)))
    }

    @Test func smoothLinearGradientEasesTheRamp() throws {
        let g = try TestImages.filter("CISmoothLinearGradient", [
            "inputPoint0": .vector([0, 0]), "inputPoint1": .vector([100, 0]),
            "inputColor0": Self.white, "inputColor1": Self.black,
        ])
        #expect(g.extent.isInfinite)
        let t: Float = 0.245
        #expect(close(try px(g, 24, 3), grey(1 - t * t * (3 - 2 * t))))
        #expect(close(try px(g, 49, 3), grey(1 - 0.495 * 0.495 * (3 - 0.99))))
        #expect(close(try px(g, -5, 3), grey(1)))
        #expect(close(try px(g, 105, 3), grey(0)))
    }

    @Test func radialGradient() throws {
        let g = try TestImages.filter("CIRadialGradient", [
            "inputCenter": .vector([50, 50]), "inputRadius0": .number(10), "inputRadius1": .number(30),
            "inputColor0": Self.white, "inputColor1": Self.black,
        ])
        #expect(g.extent.isInfinite)
        #expect(close(try px(g, 50, 50), grey(1)))
        #expect(close(try px(g, 95, 50), grey(0)))
        let d = Float((19.5 * 19.5 + 0.5 * 0.5).squareRoot())
        #expect(close(try px(g, 69, 50), grey(1 - (d - 10) / 20)))
        // Radii swapped: colour 1 inside radius 1.
        let h = try TestImages.filter("CIRadialGradient", [
            "inputCenter": .vector([50, 50]), "inputRadius0": .number(30), "inputRadius1": .number(10),
            "inputColor0": Self.white, "inputColor1": Self.black,
        ])
        #expect(close(try px(h, 50, 50), grey(0)))
        #expect(close(try px(h, 95, 50), grey(1)))
        // Equal radii: a hard circle.
        let e = try TestImages.filter("CIRadialGradient", [
            "inputCenter": .vector([50, 50]), "inputRadius0": .number(20), "inputRadius1": .number(20),
            "inputColor0": Self.white, "inputColor1": Self.black,
        ])
        #expect(close(try px(e, 60, 50), grey(1)))
        #expect(close(try px(e, 75, 50), grey(0)))
    }

    @Test func gaussianGradient() throws {
        let g = try TestImages.filter("CIGaussianGradient", [
            "inputCenter": .vector([50, 50]), "inputRadius": .number(30),
            "inputColor0": Self.white, "inputColor1": .color(.clear),
        ])
        #expect(g.extent.isInfinite)
        // Weight of colour 0: 1 − smoothstep(0, radius, d) (Apple's iOS 7 render; a Gaussian does not fit it).
        func weight(_ dx: Float, _ dy: Float) -> Float {
            let t = min((dx * dx + dy * dy).squareRoot() / 30, 1)
            return 1 - t * t * (3 - 2 * t)
        }
        let w = weight(10.5, 0.5)
        #expect(close(try px(g, 60, 50), Pixel(w, w, w, w)))
        // Half way out, half of each colour (a Gaussian of σ = r/3 would give 0.32 here, of σ = r/2 0.61).
        let half = weight(14.5, 0.5)
        #expect(abs(half - 0.5) < 0.03)
        #expect(close(try px(g, 64, 49), Pixel(half, half, half, half)))
        #expect(try px(g, 50, 50).w > 0.99)
        // Colour 1 exactly from the radius on (a Gaussian never gets there).
        #expect(try px(g, 50, 80).w == 0)
        #expect(try px(g, 90, 50).w == 0)
        let zero = try TestImages.filter("CIGaussianGradient", ["inputRadius": .number(0), "inputColor1": Self.black])
        #expect(close(try px(zero, 150, 150), grey(0)))
    }

    /// Independent HSV → RGB (sector form).
    func hsv(_ h: Double, _ s: Double, _ v: Double) -> (Double, Double, Double) {
        let h6 = (h.truncatingRemainder(dividingBy: 1) + 1).truncatingRemainder(dividingBy: 1) * 6
        let sector = Int(h6), f = h6 - Double(sector)
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        switch sector {
        case 0: return (v, t, p)
        case 1: return (q, v, p)
        case 2: return (p, v, t)
        case 3: return (p, q, v)
        case 4: return (t, p, v)
        default: return (v, p, q)
        }
    }

    @Test func hueSaturationValueWheel() throws {
        let g = try TestImages.filter("CIHueSaturationValueGradient", [
            "inputRadius": .number(50), "inputValue": .number(0.8), "inputDither": .number(0), "inputSoftness": .number(0),
        ])
        #expect(g.extent == Rect(x: 0, y: 0, width: 100, height: 100))
        for (x, y) in [(95, 50), (50, 90), (20, 30), (60, 10), (52, 51)] {
            let dx = Double(x) + 0.5 - 50, dy = Double(y) + 0.5 - 50
            let angle = atan2(dy, dx) / (2 * Double.pi)
            let (r, gr, b) = hsv(angle, min((dx * dx + dy * dy).squareRoot() / 50, 1), 0.8)
            let expected = Pixel(ColorMath.linear(fromSRGB: Float(r)), ColorMath.linear(fromSRGB: Float(gr)),
                                 ColorMath.linear(fromSRGB: Float(b)), 1)
            #expect(close(try px(g, x, y), expected, tolerance: 1e-3), "pixel \(x) \(y)")
        }
        // Outside the disc (the corners of the square) it is transparent.
        #expect(try px(g, 1, 1).w == 0)
    }

    /// inputColorSpace picks the space whose encoded values the HSV wheel is drawn in.
    @Test func hueSaturationValueWheelColorSpace() throws {
        func wheel(_ space: String?) throws -> Image {
            var values: [String: FilterValue] = ["inputRadius": .number(50), "inputValue": .number(0.8),
                                                 "inputDither": .number(0), "inputSoftness": .number(0)]
            if let space { values["inputColorSpace"] = .string(space) }
            return try TestImages.filter("CIHueSaturationValueGradient", values)
        }
        let linear = try wheel("linear"), p3 = try wheel("Display P3"), srgb = try wheel(nil)
        for (x, y) in [(95, 50), (50, 90), (20, 30)] {
            let dx = Double(x) + 0.5 - 50, dy = Double(y) + 0.5 - 50
            let (r, gr, b) = hsv(atan2(dy, dx) / (2 * Double.pi), min((dx * dx + dy * dy).squareRoot() / 50, 1), 0.8)
            // Linear: the HSV values are the working-space values themselves.
            #expect(close(try px(linear, x, y), Pixel(Float(r), Float(gr), Float(b), 1), tolerance: 1e-3), "linear \(x) \(y)")
            let w = NamedColorSpace.displayP3.toWorking(SIMD3(Float(r), Float(gr), Float(b)))
            #expect(close(try px(p3, x, y), Pixel(w.x, w.y, w.z, 1), tolerance: 1e-3), "P3 \(x) \(y)")
        }
        // Display P3's red is redder than sRGB's: outside the working gamut's red.
        #expect(try px(p3, 95, 50).x > px(srgb, 95, 50).x + 0.1)
        #expect(throws: FilterError.self) { try wheel("no such space") }
    }

    // MARK: Shapes

    @Test func stripes() throws {
        // Apple's phase: an edge at the centre, colour 1 in the stripe to its right, colour 0 to its left (both
        // Apple renders, iOS 7 and 13.3).
        let g = try TestImages.filter("CIStripesGenerator", [
            "inputCenter": .vector([0, 0]), "inputWidth": .number(10), "inputSharpness": .number(1),
            "inputColor0": Self.white, "inputColor1": Self.black,
        ])
        #expect(g.extent.isInfinite)
        #expect(close(try px(g, 5, 3), grey(0)))
        #expect(close(try px(g, 9, 3), grey(0)))
        #expect(close(try px(g, 10, 3), grey(1)))
        #expect(close(try px(g, 15, 100), grey(1)))
        #expect(close(try px(g, 25, -7), grey(0)))
        #expect(close(try px(g, -5, 0), grey(1)))
        #expect(close(try px(g, -15, 0), grey(0)))
        // Sharpness 0: a blend band of half a stripe each side; a quarter of the way into stripe 0 (colour 1's),
        // 3/4 of colour 1.
        let soft = try TestImages.filter("CIStripesGenerator", [
            "inputCenter": .vector([0.5, 0]), "inputWidth": .number(8), "inputSharpness": .number(0),
            "inputColor0": Self.white, "inputColor1": Self.black,
        ])
        #expect(close(try px(soft, 2, 0), grey(0.25)))
        #expect(close(try px(soft, 4, 0), grey(0)))
        #expect(close(try px(soft, 8, 0), grey(0.5)))
        #expect(close(try px(soft, 12, 0), grey(1)))
    }

    @Test func roundedRectangle() throws {
        let g = try TestImages.filter("CIRoundedRectangleGenerator", [
            "inputExtent": .vector([10, 10, 40, 20]), "inputRadius": .number(5), "inputColor": Self.white,
        ])
        #expect(g.extent == Rect(x: 10, y: 10, width: 40, height: 20))
        #expect(close(try px(g, 30, 20), grey(1)))
        #expect(close(try px(g, 10, 20), grey(1)))   // on the straight edge
        #expect(close(try px(g, 49, 29), Pixel(0, 0, 0, 0)))  // the rounded-off corner
        #expect(close(try px(g, 5, 20), Pixel(0, 0, 0, 0)))
        // A radius beyond half the height gives a stadium: the corner circle has radius 10.
        let s = try TestImages.filter("CIRoundedRectangleGenerator", [
            "inputExtent": .vector([0, 0, 40, 20]), "inputRadius": .number(100), "inputColor": Self.white,
        ])
        #expect(close(try px(s, 1, 10), grey(1)))
        #expect(close(try px(s, 1, 3), Pixel(0, 0, 0, 0)))
        #expect(close(try px(s, 20, 0), grey(1)))
    }

    @Test func roundedRectangleStroke() throws {
        let g = try TestImages.filter("CIRoundedRectangleStrokeGenerator", [
            "inputExtent": .vector([10, 10, 40, 20]), "inputRadius": .number(5), "inputWidth": .number(4),
            "inputColor": Self.white,
        ])
        #expect(g.extent == Rect(x: 8, y: 8, width: 44, height: 24))
        #expect(close(try px(g, 10, 20), grey(1)))
        #expect(close(try px(g, 8, 20), grey(1)))
        #expect(close(try px(g, 30, 20), Pixel(0, 0, 0, 0)))
        #expect(close(try px(g, 14, 20), Pixel(0, 0, 0, 0)))
        // No colour given: opaque white.
        let d = try TestImages.filter("CIRoundedRectangleStrokeGenerator", [:])
        #expect(close(try px(d, 0, 50), grey(1)))
    }

    @Test func blurredRectangle() throws {
        let g = try TestImages.filter("CIBlurredRectangleGenerator", [
            "inputExtent": .vector([0, 0, 100, 60]), "inputSigma": .number(10), "inputColor": Self.white,
        ])
        #expect(g.extent == Rect(x: -30, y: -30, width: 160, height: 120))
        func cover(_ p: Double, _ a: Double, _ b: Double) -> Float {
            Float(0.5 * (erf((b - p) / (10 * 2.0.squareRoot())) - erf((a - p) / (10 * 2.0.squareRoot()))))
        }
        for (x, y) in [(50, 30), (0, 30), (-10, -5), (99, 59)] {
            let c = cover(Double(x) + 0.5, 0, 100) * cover(Double(y) + 0.5, 0, 60)
            #expect(close(try px(g, x, y), Pixel(c, c, c, c), tolerance: 1e-3), "pixel \(x) \(y)")
        }
        // Sigma 0: the plain rectangle.
        let hard = try TestImages.filter("CIBlurredRectangleGenerator", [
            "inputExtent": .vector([0, 0, 10, 10]), "inputSigma": .number(0),
        ])
        #expect(hard.extent == Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(close(try px(hard, 0, 9), grey(1)))
    }

    // MARK: Lights

    @Test func spotLight() throws {
        let image = TestImages.make(width: 80, height: 20) { _, _ in Pixel(0.5, 0.5, 0.5, 1) }
        let lit = try TestImages.filter("CISpotLight", [
            "inputImage": .image(image), "inputLightPosition": .vector([10, 10, 100]),
            "inputLightPointsAt": .vector([10, 10, 0]), "inputBrightness": .number(1),
            "inputConcentration": .number(1), "inputColor": Self.white,
        ])
        #expect(lit.extent == image.extent)
        // Straight below the light both cosines are ~1; 49.5 px away each is 100 / |L|.
        let below = Float(100 / (0.5 * 0.5 * 2 + 10_000).squareRoot())
        #expect(close(try px(lit, 9, 9), Pixel(0.5 * below * below, 0.5 * below * below, 0.5 * below * below, 1)))
        let c = Float(100 / (49.5 * 49.5 + 0.25 + 10_000).squareRoot())
        #expect(close(try px(lit, 59, 9), Pixel(0.5 * c * c, 0.5 * c * c, 0.5 * c * c, 1)))
    }

    @Test func spotColorReplacesNearColoursOnly() throws {
        let center = Color(red: 0.0784, green: 0.0627, blue: 0.0706)
        let replacement = Color(red: 0.4392, green: 0.1922, blue: 0.1961)
        let image = TestImages.make(width: 2, height: 1) { x, _ in
            x == 0 ? center.workingPixel : Color(red: 0, green: 0, blue: 1).workingPixel
        }
        let out = try TestImages.filter("CISpotColor", ["inputImage": .image(image)])
        #expect(out.extent == image.extent)
        #expect(close(try px(out, 0, 0), replacement.workingPixel, tolerance: 1e-4))
        #expect(close(try px(out, 1, 0), Pixel(0, 0, 1, 1)))
        // Closeness 0 everywhere: identity.
        let none = try TestImages.filter("CISpotColor", [
            "inputImage": .image(image), "inputCloseness1": .number(0), "inputCloseness2": .number(0),
            "inputCloseness3": .number(0),
        ])
        #expect(close(try px(none, 0, 0), center.workingPixel))
    }

    @Test func flareGenerators() throws {
        let star = try TestImages.filter("CIStarShineGenerator", ["inputColor": Self.white])
        #expect(star.extent.isInfinite)
        // The core is brighter than its colour (additive light): white, opaque.
        let core = try px(star, 150, 150)
        #expect(core.x >= 1 && core.y >= 1 && core.z >= 1 && core.w == 1)
        #expect(try px(star, 150, 450).w < 0.2)

        // Sunbeams: finite, the square around the disc of radius sunRadius × maxStriationRadius (Apple's 500×500
        // at 50 × 5); a white core.
        let sun = try TestImages.filter("CISunbeamsGenerator", ["inputColor": Self.white])
        let outer = 40 * 2.58
        #expect(sun.extent == Rect(x: 150 - outer, y: 150 - outer, width: 2 * outer, height: 2 * outer))
        #expect(close(try px(sun, 150, 150), grey(1)))
        #expect(try px(sun, 600, 600).w == 0)
        // Without striations, outside the core: the colour's glow (R/d)² · (1 − d/Rmax), premultiplied.
        let plain = try TestImages.filter("CISunbeamsGenerator", [
            "inputCenter": .vector([0, 0]), "inputSunRadius": .number(10), "inputMaxStriationRadius": .number(10),
            "inputStriationStrength": .number(0), "inputColor": .color(Color(red: 1, green: 0, blue: 0)),
        ])
        #expect(plain.extent == Rect(x: -100, y: -100, width: 200, height: 200))
        let d = Float((49.5 * 49.5 + 0.25).squareRoot())
        let glow = 100 / (d * d) * (1 - d / 100)
        #expect(close(try px(plain, 49, 0), Pixel(glow, 0, 0, glow)))
        // Inside the sun (d < 0.6 R) the core is white and opaque.
        #expect(close(try px(plain, 3, 2), Pixel(1, 1, 1, 1)))
        #expect(try px(plain, 99, 60).w == 0)  // outside the disc of radius 100

        // Halo with full overlap and no striation: a cos² ring from radius 50 to 100, peak 1 at radius 75.
        let halo = try TestImages.filter("CILenticularHaloGenerator", [
            "inputCenter": .vector([100, 100]), "inputHaloRadius": .number(50), "inputHaloWidth": .number(50),
            "inputHaloOverlap": .number(1), "inputStriationStrength": .number(0), "inputColor": Self.white,
        ])
        #expect(halo.extent == Rect(x: 0, y: 0, width: 200, height: 200))
        #expect(try px(halo, 100, 100).w == 0)
        let u = Float((74.5 * 74.5 + 0.25).squareRoot() - 75) / 25
        let ring = cosf(u * .pi / 2) * cosf(u * .pi / 2)
        #expect(close(try px(halo, 174, 100), Pixel(ring, ring, ring, ring)))
        let v = Float((62.5 * 62.5 + 0.25).squareRoot() - 75) / 25
        let ring2 = cosf(v * .pi / 2) * cosf(v * .pi / 2)
        #expect(close(try px(halo, 100, 162), Pixel(ring2, ring2, ring2, ring2)))
    }

    @Test func starShineIsAColouredGlowPlusAWhiteCross() throws {
        // Glow colour × (R/d)², cross b · [R²/(w²+u²) · R²/(w²+v²)]^1.5 · (1 − d/L)² with w = crossWidth · 10^(ε/2),
        // b = 2.42 · e^(1.86 (crossOpacity + 2)), L = R · crossScale (fitted on Apple's iOS 7 and 13.3 renders).
        let star = try TestImages.filter("CIStarShineGenerator", [
            "inputCenter": .vector([0, 0]), "inputRadius": .number(10), "inputCrossScale": .number(10),
            "inputCrossAngle": .number(0), "inputCrossWidth": .number(1), "inputEpsilon": .number(0),
            "inputCrossOpacity": .number(-2), "inputColor": .color(Color(red: 1, green: 0, blue: 0)),
        ])
        #expect(star.extent.isInfinite)
        let (u, v): (Float, Float) = (30.5, 20.5)
        let d = (u * u + v * v).squareRoot()
        let glow = 100 / (d * d)
        let p = 100 / (1 + u * u) * (100 / (1 + v * v))
        let cross = 2.42 * p * p.squareRoot() * (1 - d / 100) * (1 - d / 100)
        #expect(close(try px(star, 30, 20), Pixel(glow + cross, cross, cross, glow + cross)))
        // Beyond L only the glow is left; on the cross's axis the white light saturates.
        let far = try px(star, 0, -120)
        let farGlow = 100 / Float(0.25 + 119.5 * 119.5)
        #expect(close(far, Pixel(farGlow, 0, 0, farGlow)))
        let onAxis = try px(star, 40, 0)
        #expect(onAxis.y > 1 && onAxis.w == 1)
        // Apple's iOS 13.3 inputs (epsilon 2, crossWidth 20): no visible cross, a round glow (same at 45°).
        let round = try TestImages.filter("CIStarShineGenerator", [
            "inputCenter": .vector([0, 0]), "inputRadius": .number(50), "inputCrossScale": .number(3),
            "inputCrossAngle": .number(0.78), "inputCrossWidth": .number(20), "inputEpsilon": .number(2),
            "inputCrossOpacity": .number(1), "inputColor": Self.white,
        ])
        // The white part (alpha less the glow) about 80 px out, on the cross's axis (0.78 rad) and 45° off it.
        func white(_ x: Int, _ y: Int) throws -> Float {
            let dx = Float(x) + 0.5, dy = Float(y) + 0.5
            return try px(round, x, y).w - 2500 / (dx * dx + dy * dy)
        }
        let onAxis13 = try white(57, 55), offAxis13 = try white(80, 0)
        #expect(onAxis13 > 0.02 && abs(onAxis13 - offAxis13) < 0.003, "\(onAxis13) \(offAxis13)")
    }

    @Test func randomRepeatsEvery256Pixels() throws {
        // Apple's noise is a 256×256 texture repeated (its iOS 7 and 13.3 renders agree and repeat at 256).
        let noise = try Filter(named: "CIRandomGenerator").makeOutputImage()
        // The same 16×8 window read at the origin, one period away in x and two down in y, and one pixel aside.
        func window(_ x: Int, _ y: Int) throws -> [Pixel] {
            let buffer = try TestImages.render(noise, Rect(x: Double(x), y: Double(y), width: 16, height: 8))
            return (0..<8).flatMap { j in (0..<16).map { i in buffer.pixel(x: x + i, y: y + j) } }
        }
        let a = try window(0, 0), b = try window(256, -512), c = try window(1, 0)
        #expect(a == b)
        #expect(zip(a, c).map { p, q in (0..<4).map { abs(p[$0] - q[$0]) }.max()! }.max()! > 0.1)
    }

    /// Colour kernels that never read their place, over the random generator, are made once on its texture (film
    /// grain: a colour matrix, then CIColorControls): the same pixels as the kernels run on every span, in windows
    /// across the texture's edges. A kernel of no declared dependence (`.general`: it may read its place; here a
    /// matrix mixing colour into alpha) stays a node.
    @Test func kernelsOverTheRandomTextureAreMadeOnceWithTheSamePixels() throws {
        let noise = try Filter(named: "CIRandomGenerator").makeOutputImage()
        let grey: FilterValue = .vector([0.03, 0.01, 0, 0])
        let steps: [(String, [String: FilterValue])] = [
            ("CIColorMatrix", ["inputRVector": grey, "inputGVector": grey, "inputBVector": .vector([0, 0, 0.05, 0]),
                               "inputAVector": .vector([0, 0, 0, 0]), "inputBiasVector": .vector([0.97, 0.96, 0.95, 1])]),
            ("CIColorControls", ["inputSaturation": .number(0.5), "inputContrast": .number(1.2)]),
        ]
        // The same kernels taken from a generator without a texture, as nodes of their own over the noise.
        let stand = try Filter(named: "CIConstantColorGenerator").makeOutputImage()
        var grain = noise, nodes = noise
        for (name, parameters) in steps {
            grain = try grain.applyingFilter(name, parameters: parameters)
            guard case .color(let kernel, _) = try stand.applyingFilter(name, parameters: parameters).kind else {
                Issue.record("\(name) is not a colour kernel"); return
            }
            nodes = Image(extent: nodes.extent, kind: .color(kernel, [nodes]))
        }
        guard case .color(let made, let sources) = grain.kind, sources.isEmpty, made.texture != nil else {
            Issue.record("the grain is not one repeating texture"); return
        }
        for rect in [Rect(x: 0, y: 0, width: 40, height: 20), Rect(x: 240, y: -9, width: 40, height: 30),
                     Rect(x: -1000, y: 700, width: 600, height: 3)] {
            #expect(TestImages.maxDifference(try TestImages.render(grain, rect), try TestImages.render(nodes, rect)) == 0,
                    "\(rect)")
        }
        let mixed = try noise.applyingFilter("CIColorMatrix", parameters: ["inputRVector": .vector([1, 0.5, 0, 0]),
                                                                           "inputAVector": .vector([0.5, 0, 0, 0.5])])
        guard case .color(_, let inputs) = mixed.kind else { Issue.record("a colour kernel"); return }
        #expect(inputs.count == 1)
    }

    @Test func randomIsTheCLibraryRandomSeeded42() throws {
        // The C library's random() unseeded (seed 1) starts 1804289383, 846930886, 1681692777: their low bytes.
        #expect(RandomTexture.randomBytes(seed: 1, count: 3) == [0x67, 0xC6, 0x69])
        // After srandom(42) the low bytes run 70, 100, 49, 41, 100, 134, 237, 156: the top row's (y 255) first
        // two pixels, alpha first; each byte k is the value k / 255, colour above alpha kept as is.
        let noise = try Filter(named: "CIRandomGenerator").makeOutputImage()
        #expect(close(try px(noise, 0, 255), Pixel(100, 49, 41, 70) / 255))
        #expect(close(try px(noise, 1, 255), Pixel(134, 237, 156, 100) / 255))
        #expect(close(try px(noise, 0, -1), Pixel(100, 49, 41, 70) / 255))  // one period down
        #expect(close(try px(noise, -255, 511), Pixel(134, 237, 156, 100) / 255))
    }

    @Test func striationsReadTheNoiseTextureAroundACircle() throws {
        // Halo at full overlap, strength 1, contrast 1: alpha = ring × n. At time 1 the circle's centre is
        // (158, 128) in the texture; straight right of the halo's centre the read is at (208, 128), texel
        // centres at whole + ½: the mean of the red bytes 92, 92, 105, 245 at x 207…208, y 127…128.
        let halo = try TestImages.filter("CILenticularHaloGenerator", [
            "inputCenter": .vector([100, 100.5]), "inputHaloRadius": .number(50), "inputHaloWidth": .number(50),
            "inputHaloOverlap": .number(1), "inputStriationStrength": .number(1), "inputStriationContrast": .number(1),
            "inputTime": .number(1), "inputColor": Self.white,
        ])
        let n: Float = (92 + 92 + 105 + 245) / 4 / 255
        let ring = cosf(0.01 * .pi) * cosf(0.01 * .pi)  // 74.5 px out: u = −0.02
        #expect(abs(try px(halo, 174, 100).w - ring * n) < 1e-4)
    }

    // MARK: Distance gradient and mesh

    @Test func distanceGradientKnownPixels() throws {
        let mask = TestImages.make(width: 20, height: 20) { x, y in x == 5 && y == 5 ? grey(1) : grey(0) }
        let g = try TestImages.filter("CIDistanceGradientFromRedMask", [
            "inputImage": .image(mask), "inputMaximumDistance": .number(10),
        ])
        #expect(g.extent.isInfinite)
        #expect(close(try px(g, 5, 5), grey(0)))
        #expect(close(try px(g, 8, 9), grey(0.5)))
        #expect(close(try px(g, 5, -3), grey(0.8)))
        #expect(close(try px(g, 30, 5), grey(1)))
    }

    @Test func distanceGradientIsExact() throws {
        // A scattered mask against brute force.
        let w = 37, h = 23
        func inMask(_ x: Int, _ y: Int) -> Bool { (x * 7 + y * 13) % 41 == 0 || (x == 30 && y > 10) }
        let mask = TestImages.make(width: w, height: h) { x, y in inMask(x, y) ? grey(1) : grey(0) }
        let maximum = 12.0
        let g = try TestImages.filter("CIDistanceGradientFromRedMask", [
            "inputImage": .image(mask), "inputMaximumDistance": .number(maximum),
        ])
        let window = Rect(x: -5, y: -5, width: Double(w + 10), height: Double(h + 10))
        let out = try TestImages.render(g, window)
        var worst: Float = 0
        for y in -5..<(h + 5) {
            for x in -5..<(w + 5) {
                var best = Double.infinity
                for my in 0..<h { for mx in 0..<w where inMask(mx, my) {
                    best = min(best, Double((mx - x) * (mx - x) + (my - y) * (my - y)))
                } }
                let expected = Float(min(best.squareRoot() / maximum, 1))
                worst = max(worst, abs(out.pixel(x: x, y: y).x - expected))
            }
        }
        #expect(worst < 1e-5)
    }

    @Test func meshSegments() throws {
        let g = try TestImages.filter("CIMeshGenerator", [
            "inputMesh": .vector([10, 10, 50, 10]), "inputWidth": .number(2), "inputColor": Self.white,
        ])
        #expect(g.extent == Rect(x: 8, y: 8, width: 44, height: 4))
        #expect(close(try px(g, 30, 10), grey(1)))
        #expect(close(try px(g, 30, 9), grey(1)))
        #expect(close(try px(g, 30, 11), Pixel(0, 0, 0, 0)))
        #expect(close(try px(g, 5, 10), Pixel(0, 0, 0, 0)))
        // Two segments, parsed from text as the command line gives them.
        let descriptor = try Filter(named: "CIMeshGenerator").descriptor.input("inputMesh")!
        let mesh = try ValueParser.parse("0 0 0 20 0 0 20 0", for: descriptor, filter: "CIMeshGenerator")
        let two = try TestImages.filter("CIMeshGenerator", ["inputMesh": mesh, "inputWidth": .number(2), "inputColor": Self.white])
        #expect(close(try px(two, 0, 15), grey(1)))
        #expect(close(try px(two, 15, 0), grey(1)))
        #expect(close(try px(two, 15, 15), Pixel(0, 0, 0, 0)))
        // A count that is not a multiple of four is refused; no mesh gives a transparent image.
        #expect(throws: FilterError.self) { try TestImages.filter("CIMeshGenerator", ["inputMesh": .vector([1, 2, 3])]) }
        let empty = try TestImages.filter("CIMeshGenerator", [:])
        #expect(try px(empty, 0, 0).w == 0)
    }
}
