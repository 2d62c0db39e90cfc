import Foundation
import Testing
@testable import FilterEngine

/// Porter-Duff operators, blend modes, mask blends and mix, on a few pixels against the published formulas
/// written out again here (W3C Compositing and Blending Level 1 for the blend modes), plus neutral cases and
/// output extents.
@Suite struct CompositeOperationTests {
    /// Foreground and background pairs (premultiplied linear), covering opaque, partial alpha, transparent,
    /// black, white and mid values so that each branch of each mode is visited.
    static let foreground: [Pixel] = [
        Pixel(0.2, 0.4, 0.6, 1), Pixel(0.1, 0.2, 0.35, 0.5), Pixel(0.9, 0.05, 0.5, 1), Pixel(0, 0, 0, 0),
        Pixel(0.24, 0.06, 0.54, 0.6), Pixel(1, 1, 1, 1), Pixel(0, 0, 0, 1), Pixel(0.7, 0.3, 0.1, 0.8),
    ]
    static let background: [Pixel] = [
        Pixel(0.5, 0.25, 0.8, 1), Pixel(0.3, 0.6, 0.1, 1), Pixel(0.2, 0.1, 0.15, 0.5), Pixel(0.4, 0.3, 0.2, 1),
        Pixel(0, 0, 0, 0), Pixel(0.1, 0.6, 0.9, 1), Pixel(0.45, 0.2, 0.7, 0.7), Pixel(0.05, 0.5, 0.3, 0.5),
    ]

    static func row(_ pixels: [Pixel]) -> Image {
        TestImages.make(width: pixels.count, height: 1) { x, _ in pixels[x] }
    }

    /// Renders `filter` on the pixel pairs above and returns the pixels of row 0.
    static func run(_ filter: String, _ extra: [String: FilterValue] = [:],
                    foreground: [Pixel] = foreground, background: [Pixel] = background) throws -> [Pixel] {
        var values = extra
        values["inputImage"] = .image(row(foreground))
        values["inputBackgroundImage"] = .image(row(background))
        let out = try TestImages.filter(filter, values)
        let buffer = try TestImages.render(out, Rect(x: 0, y: 0, width: Double(foreground.count), height: 1))
        return (0..<foreground.count).map { buffer.pixel(x: $0, y: 0) }
    }

    static func expectPixels(_ filter: String, _ got: [Pixel], _ expected: [Pixel], tolerance: Float = 2e-4) {
        for (i, (g, e)) in zip(got, expected).enumerated() {
            #expect(close(g, e, tolerance: tolerance), "\(filter) pixel \(i): got \(g), expected \(e)")
        }
    }

    // MARK: Porter-Duff and simple composites

    @Test func porterDuffOperators() throws {
        let f = Self.foreground, b = Self.background
        Self.expectPixels("atop", try Self.run("CISourceAtopCompositing"),
                          zip(f, b).map { s, d in
                              let rgb = SIMD3(s.x, s.y, s.z) * d.w + SIMD3(d.x, d.y, d.z) * (1 - s.w)
                              return Pixel(rgb.x, rgb.y, rgb.z, d.w)
                          })
        Self.expectPixels("in", try Self.run("CISourceInCompositing"), zip(f, b).map { s, d in s * d.w })
        Self.expectPixels("out", try Self.run("CISourceOutCompositing"), zip(f, b).map { s, d in s * (1 - d.w) })
        Self.expectPixels("add", try Self.run("CIAdditionCompositing"), zip(f, b).map { s, d in
            Pixel(s.x + d.x, s.y + d.y, s.z + d.z, Swift.min(1, s.w + d.w))
        })
        Self.expectPixels("max", try Self.run("CIMaximumCompositing"), zip(f, b).map { s, d in
            Pixel(Swift.max(s.x, d.x), Swift.max(s.y, d.y), Swift.max(s.z, d.z), Swift.max(s.w, d.w))
        })
        Self.expectPixels("min", try Self.run("CIMinimumCompositing"), zip(f, b).map { s, d in
            Pixel(Swift.min(s.x, d.x), Swift.min(s.y, d.y), Swift.min(s.z, d.z), Swift.min(s.w, d.w))
        })
    }

    @Test func porterDuffByHand() throws {
        // Half-transparent foreground (straight 0.2, 0.4, 0.7) over a half-transparent grey background.
        let s = Pixel(0.1, 0.2, 0.35, 0.5), d = Pixel(0.25, 0.25, 0.25, 0.5)
        let atop = try Self.run("CISourceAtopCompositing", foreground: [s], background: [d])[0]
        #expect(close(atop, Pixel(0.175, 0.225, 0.3, 0.5)))
        let sourceIn = try Self.run("CISourceInCompositing", foreground: [s], background: [d])[0]
        #expect(close(sourceIn, Pixel(0.05, 0.1, 0.175, 0.25)))
        let sourceOut = try Self.run("CISourceOutCompositing", foreground: [s], background: [d])[0]
        #expect(close(sourceOut, Pixel(0.05, 0.1, 0.175, 0.25)))
        let sum = try Self.run("CIAdditionCompositing", foreground: [s], background: [d])[0]
        #expect(close(sum, Pixel(0.35, 0.45, 0.6, 1)))
    }

    /// Foreground 4×4 at the origin, background 4×4 at (2, 1), mask 3×3 at (1, 2).
    static let shiftedForeground = TestImages.make(width: 4, height: 4) { _, _ in Pixel(0.5, 0.25, 0.125, 1) }
    static let shiftedBackground = TestImages.make(width: 4, height: 4) { _, _ in Pixel(0.1, 0.2, 0.3, 1) }
        .transformed(by: .translation(x: 2, y: 1))
    static let shiftedMask = TestImages.make(width: 3, height: 3) { _, _ in Pixel(1, 1, 1, 1) }
        .transformed(by: .translation(x: 1, y: 2))

    static func extent(_ filter: String, _ extra: [String: FilterValue] = [:]) throws -> Rect {
        var values = extra
        values["inputImage"] = .image(shiftedForeground)
        values["inputBackgroundImage"] = .image(shiftedBackground)
        return try TestImages.filter(filter, values).extent
    }

    @Test func extents() throws {
        let union = Rect(x: 0, y: 0, width: 6, height: 5)
        #expect(try Self.extent("CISourceAtopCompositing") == Rect(x: 2, y: 1, width: 4, height: 4))
        #expect(try Self.extent("CISourceInCompositing") == Rect(x: 2, y: 1, width: 2, height: 3))
        #expect(try Self.extent("CISourceOutCompositing") == Rect(x: 0, y: 0, width: 4, height: 4))
        // Minimum: transparent wherever either input is, so only the overlap (Apple's iOS 7 render).
        #expect(try Self.extent("CIMinimumCompositing") == Rect(x: 2, y: 1, width: 2, height: 3))
        for name in ["CIAdditionCompositing", "CIMaximumCompositing",
                     "CIMultiplyBlendMode", "CIHueBlendMode", "CIVividLightBlendMode"] {
            #expect(try Self.extent(name) == union, "\(name)")
        }
        #expect(try Self.extent("CIMix", ["inputAmount": .number(0.5)]) == union)
        // Mask blends: the background, plus the image where the mask covers it ([1 2 3 2] here).
        for name in ["CIBlendWithMask", "CIBlendWithAlphaMask", "CIBlendWithRedMask", "CIBlendWithBlueMask"] {
            let e = try Self.extent(name, ["inputMaskImage": .image(Self.shiftedMask)])
            #expect(e == Rect(x: 1, y: 1, width: 5, height: 4), "\(name): \(e)")
        }
    }

    @Test func sourceInOutsideTheOverlapIsTransparent() throws {
        let out = try TestImages.filter("CISourceOutCompositing", [
            "inputImage": .image(Self.shiftedForeground), "inputBackgroundImage": .image(Self.shiftedBackground)])
        #expect(close(try TestImages.pixel(out, x: 3, y: 2), .zero))
        #expect(close(try TestImages.pixel(out, x: 0, y: 3), Pixel(0.5, 0.25, 0.125, 1)))
    }

    // MARK: Blend modes

    static func burn(_ s: Double, _ b: Double) -> Double {
        b >= 1 ? 1 : (s <= 0 ? 0 : 1 - Swift.min(1, (1 - b) / s))
    }
    static func dodge(_ s: Double, _ b: Double) -> Double {
        b <= 0 ? 0 : (s >= 1 ? 1 : Swift.min(1, b / (1 - s)))
    }
    static func hardLight(_ s: Double, _ b: Double) -> Double {
        s <= 0.5 ? b * 2 * s : 1 - (1 - b) * (1 - (2 * s - 1))
    }
    static func clip(_ v: Double) -> Double { Swift.min(1, Swift.max(0, v)) }

    /// B(cs, cb) for the separable modes, written from the W3C text (and the usual definitions of the rest).
    static let separableModes: [String: @Sendable (Double, Double) -> Double] = [
        "CIMultiplyBlendMode": { s, b in s * b },
        "CIScreenBlendMode": { s, b in 1 - (1 - s) * (1 - b) },
        "CIOverlayBlendMode": { s, b in hardLight(b, s) },
        "CIDarkenBlendMode": { s, b in Swift.min(s, b) },
        "CILightenBlendMode": { s, b in Swift.max(s, b) },
        "CIColorDodgeBlendMode": dodge,
        "CIColorBurnBlendMode": burn,
        "CIHardLightBlendMode": hardLight,
        "CISoftLightBlendMode": { s, b in
            if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
            let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
            return b + (2 * s - 1) * (d - b)
        },
        "CIDifferenceBlendMode": { s, b in Swift.abs(s - b) },
        "CIExclusionBlendMode": { s, b in s + b - 2 * s * b },
        "CISubtractBlendMode": { s, b in clip(b - s) },
        "CIDivideBlendMode": { s, b in s == 0 ? (b > 0 ? 1 : 0) : clip(b / s) },
        "CILinearBurnBlendMode": { s, b in clip(s + b - 1) },
        "CILinearDodgeBlendMode": { s, b in clip(s + b) },
        "CILinearLightBlendMode": { s, b in clip(b + 2 * s - 1) },
        "CIPinLightBlendMode": { s, b in s <= 0.5 ? Swift.min(b, 2 * s) : Swift.max(b, 2 * s - 1) },
        "CIVividLightBlendMode": { s, b in s <= 0.5 ? burn(2 * s, b) : dodge(2 * s - 1, b) },
    ]

    typealias RGB = (Double, Double, Double)
    typealias HSL = (h: Double, s: Double, l: Double)

    /// The textbook RGB to HSL conversion (hue in turns, 0 for a grey), written independently of the engine's.
    static func hsl(_ c: RGB) -> HSL {
        let x = Swift.max(c.0, c.1, c.2), n = Swift.min(c.0, c.1, c.2), l = (x + n) / 2, d = x - n
        if d <= 0 { return (0, 0, l) }
        let s = d / (1 - Swift.abs(2 * l - 1))
        var h: Double
        if x == c.0 { h = (c.1 - c.2) / d } else if x == c.1 { h = (c.2 - c.0) / d + 2 } else { h = (c.0 - c.1) / d + 4 }
        h /= 6
        if h < 0 { h += 1 }
        return (h, s, l)
    }

    static func rgb(_ v: HSL) -> RGB {
        let q = v.l < 0.5 ? v.l * (1 + v.s) : v.l + v.s - v.l * v.s, p = 2 * v.l - q
        func f(_ t0: Double) -> Double {
            var t = t0.truncatingRemainder(dividingBy: 1)
            if t < 0 { t += 1 }
            if t < 1.0 / 6 { return p + (q - p) * 6 * t }
            if t < 0.5 { return q }
            if t < 2.0 / 3 { return p + (q - p) * (2.0 / 3 - t) * 6 }
            return p
        }
        return (f(v.h + 1.0 / 3), f(v.h), f(v.h - 1.0 / 3))
    }

    /// The non-separable modes as Apple's iOS 7 renders show them: HSL parts of the linear colours.
    static let nonSeparableModes: [String: @Sendable (RGB, RGB) -> RGB] = [
        "CIHueBlendMode": { s, b in let f = hsl(s), g = hsl(b); return rgb((f.h, g.s, g.l)) },
        "CISaturationBlendMode": { s, b in let f = hsl(s), g = hsl(b); return rgb((g.h, f.s, g.l)) },
        "CIColorBlendMode": { s, b in let f = hsl(s), g = hsl(b); return rgb((f.h, f.s, g.l)) },
        "CILuminosityBlendMode": { s, b in let f = hsl(s), g = hsl(b); return rgb((g.h, g.s, f.l)) },
    ]

    /// The W3C compositing of a blend result with partial alpha, in premultiplied terms.
    static func composite(_ s: Pixel, _ d: Pixel, _ blend: (RGB, RGB) -> RGB) -> Pixel {
        let sa = Double(s.w), da = Double(d.w)
        let cs: RGB = sa > 0 ? (Double(s.x) / sa, Double(s.y) / sa, Double(s.z) / sa) : (0, 0, 0)
        let cb: RGB = da > 0 ? (Double(d.x) / da, Double(d.y) / da, Double(d.z) / da) : (0, 0, 0)
        let m = blend(cs, cb)
        func channel(_ sv: Float, _ dv: Float, _ bv: Double) -> Float {
            Float((1 - da) * Double(sv) + (1 - sa) * Double(dv) + sa * da * bv)
        }
        return Pixel(channel(s.x, d.x, m.0), channel(s.y, d.y, m.1), channel(s.z, d.z, m.2), Float(sa + da - sa * da))
    }

    @Test(arguments: separableModes.keys.sorted())
    func separableModeMatchesFormula(_ name: String) throws {
        let f = Self.separableModes[name]!
        let expected = zip(Self.foreground, Self.background).map { s, d in
            Self.composite(s, d) { cs, cb in (f(cs.0, cb.0), f(cs.1, cb.1), f(cs.2, cb.2)) }
        }
        Self.expectPixels(name, try Self.run(name), expected)
    }

    @Test(arguments: nonSeparableModes.keys.sorted())
    func nonSeparableModeMatchesFormula(_ name: String) throws {
        let expected = zip(Self.foreground, Self.background).map { s, d in
            Self.composite(s, d, Self.nonSeparableModes[name]!)
        }
        Self.expectPixels(name, try Self.run(name), expected)
    }

    @Test func blendModesByHand() throws {
        let s = Pixel(0.2, 0.4, 0.6, 1), d = Pixel(0.5, 0.25, 0.8, 1)
        func one(_ name: String) throws -> Pixel { try Self.run(name, foreground: [s], background: [d])[0] }
        #expect(close(try one("CIMultiplyBlendMode"), Pixel(0.1, 0.1, 0.48, 1)))
        #expect(close(try one("CIScreenBlendMode"), Pixel(0.6, 0.55, 0.92, 1)))
        #expect(close(try one("CIDifferenceBlendMode"), Pixel(0.3, 0.15, 0.2, 1)))
        #expect(close(try one("CISubtractBlendMode"), Pixel(0.3, 0, 0.2, 1)))
        // Core Image's descriptions: linear burn inverts both, sums and inverts (s + b − 1, here clamped at 0);
        // linear dodge adds them (above); subtract takes the input from the background (above).
        #expect(close(try one("CILinearBurnBlendMode"), Pixel(0, 0, 0.4, 1)))
        // Apple's divideBlendMode(): the background divided by the input, 0.5/0.2 and 0.8/0.6 clamped to 1.
        #expect(close(try one("CIDivideBlendMode"), Pixel(1, 0.625, 1, 1)))
        #expect(close(try one("CILinearDodgeBlendMode"), Pixel(0.7, 0.65, 1, 1)))
        // Hard light: 0.2, 0.4 multiply twice the foreground; 0.6 screens with 0.2: 1 - 0.2 * 0.8 = 0.84.
        #expect(close(try one("CIHardLightBlendMode"), Pixel(0.2, 0.2, 0.84, 1)))
        // Half-transparent multiply: 0.25·s + 0.5·d·... (s = (0.1, 0.2, 0.3, 0.5) over opaque d)
        let half = try Self.run("CIMultiplyBlendMode", foreground: [Pixel(0.1, 0.2, 0.3, 0.5)], background: [d])[0]
        // (1 - 1)·s + 0.5·d + 0.5·(cs·cb) with cs = (0.2, 0.4, 0.6)
        #expect(close(half, Pixel(0.25 + 0.05, 0.125 + 0.05, 0.4 + 0.24, 1)))
        // Luminosity of a grey foreground over a colour: the colour's hue and HSL saturation at the grey's
        // lightness. (0.4, 0.3, 0.2): L 0.3, S 0.2 / 0.6 = 1/3; at L 0.5 the chroma is 1/3, so 0.5 ± 1/6.
        let lumOut = try Self.run("CILuminosityBlendMode", foreground: [Pixel(0.5, 0.5, 0.5, 1)],
                                  background: [Pixel(0.4, 0.3, 0.2, 1)])[0]
        #expect(close(lumOut, Pixel(0.5 + 1.0 / 6, 0.5, 0.5 - 1.0 / 6, 1)))
        // Over black the luminosity is the foreground's (max + min) / 2 as a grey (iOS 7 render: the heron over
        // the black treeline), not a weighted luminance.
        let overBlack = try Self.run("CILuminosityBlendMode", foreground: [Pixel(0.6, 0.2, 0.1, 1)],
                                     background: [Pixel(0, 0, 0, 1)])[0]
        #expect(close(overBlack, Pixel(0.35, 0.35, 0.35, 1)))
        // A dark saturated backdrop keeps its saturation: (0.01, 0.01, 0) lit to L 0.25 is (0.5, 0.5, 0).
        let darkYellow = try Self.run("CILuminosityBlendMode", foreground: [Pixel(0.25, 0.25, 0.25, 1)],
                                      background: [Pixel(0.01, 0.01, 0, 1)])[0]
        #expect(close(darkYellow, Pixel(0.5, 0.5, 0, 1)))
        // Colour mode: the foreground's hue and saturation at the background's lightness.
        let colourOut = try Self.run("CIColorBlendMode", foreground: [Pixel(0.4, 0.3, 0.2, 1)],
                                     background: [Pixel(0.5, 0.5, 0.5, 1)])[0]
        #expect(close(colourOut, Pixel(0.5 + 1.0 / 6, 0.5, 0.5 - 1.0 / 6, 1)))
    }

    /// A transparent background leaves the foreground, a transparent foreground leaves the background.
    @Test func blendModesWithTransparencyAreNeutral() throws {
        let clear = [Pixel](repeating: .zero, count: Self.foreground.count)
        for name in Self.separableModes.keys.sorted() + Self.nonSeparableModes.keys.sorted() {
            Self.expectPixels(name, try Self.run(name, background: clear), Self.foreground, tolerance: 1e-6)
            Self.expectPixels(name, try Self.run(name, foreground: clear), Self.background, tolerance: 1e-6)
        }
    }

    @Test func blendModesStayFiniteOnExtendedRange() throws {
        let odd = [Pixel(-0.2, 1.5, 0.5, 1), Pixel(2, 2, 2, 1), Pixel(0, 0, 0, 1e-30), Pixel(0.5, 0.5, 0.5, 0.5)]
        let other = [Pixel(1.2, -0.1, 0.3, 1), Pixel(0, 0, 0, 1), Pixel(0.2, 0.1, 0.3, 0.3), Pixel(0.5, 0.5, 0.5, 0.5)]
        for name in Self.separableModes.keys.sorted() + Self.nonSeparableModes.keys.sorted() {
            for p in try Self.run(name, foreground: odd, background: other) + Self.run(name, foreground: other, background: odd) {
                #expect(p.x.isFinite && p.y.isFinite && p.z.isFinite && p.w.isFinite, "\(name): \(p)")
            }
        }
    }

    // MARK: Masks and mix

    @Test func maskBlendsUseTheirChannel() throws {
        let f = Self.foreground, b = Self.background
        let maskPixels = [Pixel](repeating: Pixel(0.25, 0.5, 0.75, 1), count: f.count).enumerated().map { i, p in
            i.isMultiple(of: 2) ? p : Pixel(0.1, 0.3, 0.2, 0.4)
        }
        let mask = Self.row(maskPixels)
        let channels: [(String, (Pixel) -> Float)] = [
            ("CIBlendWithMask", { $0.y }), ("CIBlendWithAlphaMask", { $0.w }),
            ("CIBlendWithRedMask", { $0.x }), ("CIBlendWithBlueMask", { $0.z }),
        ]
        for (name, weight) in channels {
            let expected = (0..<f.count).map { i in b[i] + (f[i] - b[i]) * weight(maskPixels[i]) }
            Self.expectPixels(name, try Self.run(name, ["inputMaskImage": .image(mask)]), expected)
        }
    }

    @Test func maskBlendByHandAndOutsideTheMask() throws {
        // Green 0.25: a quarter of the way from the background to the image.
        let out = try TestImages.filter("CIBlendWithMask", [
            "inputImage": .image(Self.shiftedForeground), "inputBackgroundImage": .image(Self.shiftedBackground),
            "inputMaskImage": .image(TestImages.make(width: 3, height: 3) { _, _ in Pixel(0, 0.25, 0, 1) }
                .transformed(by: .translation(x: 1, y: 2))),
        ])
        // (2, 2): all three present. 0.1 + 0.4·0.25, 0.2 + 0.05·0.25, 0.3 − 0.175·0.25
        #expect(close(try TestImages.pixel(out, x: 2, y: 2), Pixel(0.2, 0.2125, 0.25625, 1)))
        // (1, 3): image and mask, no background: a quarter of the image.
        #expect(close(try TestImages.pixel(out, x: 1, y: 3), Pixel(0.125, 0.0625, 0.03125, 0.25)))
        // (3, 1): no mask: the background.
        #expect(close(try TestImages.pixel(out, x: 3, y: 1), Pixel(0.1, 0.2, 0.3, 1)))
        // (0, 0): image only, no mask: transparent.
        #expect(close(try TestImages.pixel(out, x: 1, y: 1), .zero))
    }

    @Test func mix() throws {
        let f = Self.foreground, b = Self.background
        Self.expectPixels("mix", try Self.run("CIMix", ["inputAmount": .number(0.25)]),
                          zip(f, b).map { s, d in d + (s - d) * 0.25 })
        // Identity (1) gives the image, 0 the background.
        Self.expectPixels("mix 1", try Self.run("CIMix", ["inputAmount": .number(1)]), f, tolerance: 0)
        Self.expectPixels("mix 0", try Self.run("CIMix", ["inputAmount": .number(0)]), b, tolerance: 0)
        // At the identity the background is not needed at all.
        let alone = try TestImages.filter("CIMix", ["inputImage": .image(Self.shiftedForeground), "inputAmount": .number(1)])
        #expect(alone.extent == Self.shiftedForeground.extent)
        let s = Pixel(0.2, 0.4, 0.6, 1), d = Pixel(0.6, 0.4, 0.2, 0.5)
        #expect(close(try Self.run("CIMix", ["inputAmount": .number(0.5)], foreground: [s], background: [d])[0],
                      Pixel(0.4, 0.4, 0.4, 0.75)))
    }
}
