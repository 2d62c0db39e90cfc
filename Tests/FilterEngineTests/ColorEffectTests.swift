import Foundation
import Testing
@testable import FilterEngine

/// The colour-effect family on known pixels. Expected values come from each filter's definition worked out by
/// hand, with the sRGB curves computed here independently of the engine's tables.
@Suite struct ColorEffectTests {
    /// The standard sRGB curves, in Double, written out again on purpose.
    static func decode(_ e: Double) -> Float { Float(e <= 0.04045 ? e / 12.92 : pow((e + 0.055) / 1.055, 2.4)) }
    static func encode(_ v: Float) -> Double {
        let v = Double(v)
        return v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    /// x = 0: opaque (0.2, 0.4, 0.6); x = 1: the same colour at half coverage; x = 2: transparent.
    static let input = TestImages.make(width: 3, height: 1) { x, _ in
        [Pixel(0.2, 0.4, 0.6, 1), Pixel(0.1, 0.2, 0.3, 0.5), Pixel(0, 0, 0, 0)][x]
    }
    /// Rec. 709 luminance of (0.2, 0.4, 0.6).
    static let luma: Float = 0.2126 * 0.2 + 0.7152 * 0.4 + 0.0722 * 0.6

    static func flat(_ p: Pixel, width: Int = 8, height: Int = 8) -> Image {
        TestImages.make(width: width, height: height) { _, _ in p }
    }

    static func apply(_ name: String, _ image: Image, _ values: [String: FilterValue] = [:]) throws -> Image {
        var all = values
        all["inputImage"] = .image(image)
        return try TestImages.filter(name, all)
    }

    static func grey(encoded e: Double) -> Pixel { let v = decode(e); return Pixel(v, v, v, 1) }

    // MARK: Tables

    @Test func encodedCurveTablesMatchTheSRGBFormula() {
        var worstEncode: Double = 0, worstDecode: Double = 0
        for i in 0...20_000 {
            let x = Double(i) / 20_000
            let e = EncodedCurves.encode(Float(x), EncodedCurves.encodeBySquareRoot.values)
            worstEncode = max(worstEncode, abs(Double(e) - Self.encode(Float(x))))
            let d = EncodedCurves.lookup(EncodedCurves.decode.values, Float(x))
            worstDecode = max(worstDecode, abs(Double(d) - Double(Self.decode(x))))
        }
        #expect(worstEncode < 4e-6, "encode error \(worstEncode)")
        #expect(worstDecode < 1e-6, "decode error \(worstDecode)")
        // NaN and infinities never index outside the table.
        _ = EncodedCurves.lookup(EncodedCurves.decode.values, .nan)
        _ = EncodedCurves.lookup(EncodedCurves.decode.values, .infinity)
        _ = EncodedCurves.lookup(EncodedCurves.decode.values, -.infinity)
    }

    // MARK: Luminance effects

    /// CIColorInvert inverts in Core Image's linear working space (1 − c on linear, premultiplied: a − c), not
    /// the sRGB-encoded values. Apple's output: SDWebImage's test08UIImageTransformFilter
    /// (Tests/Tests/SDImageTransformerTests.m) expects (0.85098, 0.992157, 0.992157) ± 0.01 after CIColorInvert
    /// at a point of its test picture whose colour its blur test reads as about (0.59, 0.14, 0.12), i.e. sRGB
    /// (150, 35, 35). Linear inversion maps that to (217, 253, 253); inverting encoded values would give
    /// (105, 220, 220) and would need an input of (38, 2, 2), which the blur test rules out.
    @Test func invertWorksInLinearLightAsApplesOutputShows() throws {
        let input = Pixel(Self.decode(150 / 255), Self.decode(35 / 255), Self.decode(35 / 255), 1)
        let out = try TestImages.pixel(try Self.apply("CIColorInvert", Self.flat(input)), x: 0, y: 0)
        let apple: [Double] = [0.85098, 0.992157, 0.992157]
        let encoded = [Self.encode(out.x), Self.encode(out.y), Self.encode(out.z)]
        for (e, a) in zip(encoded, apple) { #expect(abs(e - a) <= 0.01, "encoded \(encoded), Apple \(apple)") }
        #expect(out.w == 1)
        // Premultiplied: half coverage inverts within its coverage; transparent stays transparent.
        let partial = try Self.apply("CIColorInvert", Self.input)
        #expect(close(try TestImages.pixel(partial, x: 1, y: 0), Pixel(0.4, 0.3, 0.2, 0.5)))
        #expect(close(try TestImages.pixel(partial, x: 2, y: 0), Pixel(0, 0, 0, 0)))
    }

    @Test func monochromeIsAnOverlayOfTheTintOnLuminance() throws {
        let out = try Self.apply("CIColorMonochrome", Self.input)  // default tint (0.6, 0.45, 0.3), intensity 1
        let tint = Pixel(Self.decode(0.6), Self.decode(0.45), Self.decode(0.3), 1)
        // L below 0.5: 2·L·c (Apple's iOS 7 render); the old rule was L·c.
        #expect(Self.luma < 0.5)
        let full = Pixel(2 * Self.luma * tint.x, 2 * Self.luma * tint.y, 2 * Self.luma * tint.z, 1)
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), full))
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), full * 0.5))
        #expect(close(try TestImages.pixel(out, x: 2, y: 0), Pixel(0, 0, 0, 0)))
        let half = try Self.apply("CIColorMonochrome", Self.input, ["inputIntensity": .number(0.5)])
        #expect(close(try TestImages.pixel(half, x: 0, y: 0), (full + Pixel(0.2, 0.4, 0.6, 1)) / 2))
        // L above 0.5: 1 − 2·(1 − L)·(1 − c); magenta on light grey 0.8 gives (1, 0.6, 1).
        let light = try Self.apply("CIColorMonochrome", Self.flat(Pixel(0.8, 0.8, 0.8, 1)),
                                   ["inputColor": .color(Color(red: 1, green: 0, blue: 1))])
        #expect(close(try TestImages.pixel(light, x: 0, y: 0), Pixel(1, 0.6, 1, 1)))
        // A white tint lifts: 2L below mid-grey.
        let white = try Self.apply("CIColorMonochrome", Self.input, ["inputColor": .color(.white)])
        #expect(close(try TestImages.pixel(white, x: 0, y: 0), Pixel(2 * Self.luma, 2 * Self.luma, 2 * Self.luma, 1)))
    }

    @Test func falseColorInterpolatesBetweenTheTwoColours() throws {
        let out = try Self.apply("CIFalseColor", Self.input, [
            "inputColor0": .color(Color(red: 1, green: 0, blue: 0)), "inputColor1": .color(Color(red: 0, green: 0, blue: 1))])
        let l = Self.luma
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(1 - l, 0, l, 1)))
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), Pixel(1 - l, 0, l, 1) * 0.5))
        #expect(close(try TestImages.pixel(out, x: 2, y: 0), Pixel(0, 0, 0, 0)))
        // The defaults: dark red (0.3, 0, 0) for black, (1, 0.9, 0.8) for white.
        let ends = TestImages.make(width: 2, height: 1) { x, _ in x == 0 ? Pixel(0, 0, 0, 1) : Pixel(1, 1, 1, 1) }
        let byDefault = try Self.apply("CIFalseColor", ends)
        #expect(close(try TestImages.pixel(byDefault, x: 0, y: 0), Pixel(Self.decode(0.3), 0, 0, 1)))
        #expect(close(try TestImages.pixel(byDefault, x: 1, y: 0), Pixel(1, Self.decode(0.9), Self.decode(0.8), 1)))
    }

    @Test func maskToAlphaMakesWhiteCoveredByLuminance() throws {
        let out = try Self.apply("CIMaskToAlpha", Self.input)
        let l = Self.luma
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(l, l, l, l)))
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), Pixel(l, l, l, l) * 0.5))
        #expect(close(try TestImages.pixel(out, x: 2, y: 0), Pixel(0, 0, 0, 0)))
    }

    @Test func maximumAndMinimumComponent() throws {
        let maximum = try Self.apply("CIMaximumComponent", Self.input)
        #expect(close(try TestImages.pixel(maximum, x: 0, y: 0), Pixel(0.6, 0.6, 0.6, 1)))
        #expect(close(try TestImages.pixel(maximum, x: 1, y: 0), Pixel(0.3, 0.3, 0.3, 0.5)))
        let minimum = try Self.apply("CIMinimumComponent", Self.input)
        #expect(close(try TestImages.pixel(minimum, x: 0, y: 0), Pixel(0.2, 0.2, 0.2, 1)))
        #expect(close(try TestImages.pixel(minimum, x: 1, y: 0), Pixel(0.1, 0.1, 0.1, 0.5)))
    }

    // MARK: Posterize and dither

    @Test func posterizeRoundsLinearChannelsToTheLevels() throws {
        // Straight linear colour rounded to evenly spaced levels (Apple's iOS 7 render), premultiplied after.
        let p = TestImages.make(width: 2, height: 1) { x, _ in x == 0 ? Pixel(0.2, 0.3, 0.6, 1) : Pixel(0.1, 0.15, 0.3, 0.5) }
        let two = try Self.apply("CIColorPosterize", p, ["inputLevels": .number(2)])
        #expect(close(try TestImages.pixel(two, x: 0, y: 0), Pixel(0, 0, 1, 1)))
        #expect(close(try TestImages.pixel(two, x: 1, y: 0), Pixel(0, 0, 0.5, 0.5)))
        // Three levels 0, 0.5, 1: 0.2 → 0, 0.3 → 0.5, 0.6 → 0.5.
        let three = try Self.apply("CIColorPosterize", p, ["inputLevels": .number(3)])
        #expect(close(try TestImages.pixel(three, x: 0, y: 0), Pixel(0, 0.5, 0.5, 1)))
        let one = try Self.apply("CIColorPosterize", p, ["inputLevels": .number(1)])
        #expect(close(try TestImages.pixel(one, x: 0, y: 0), Pixel(0.5, 0.5, 0.5, 1)))
        // Six levels (the default): steps of 0.2; 0.3 → 0.4 (1.5 rounds up), 0.6 → 0.6.
        let six = try Self.apply("CIColorPosterize", p)
        #expect(close(try TestImages.pixel(six, x: 0, y: 0), Pixel(0.2, 0.4, 0.6, 1)))
        // A ramp through 8 levels gives the linear levels k/7 (sRGB bytes 0, 106, 146, 175, 199, 220, 238, 255).
        let ramp = TestImages.make(width: 8, height: 1) { x, _ in
            let v = Float(x) / 7 + 0.04
            return Pixel(v, v, v, 1)
        }
        let eight = try Self.apply("CIColorPosterize", ramp, ["inputLevels": .number(8)])
        for x in 0..<8 { #expect(abs(try TestImages.pixel(eight, x: x, y: 0).x - Float(x) / 7) < 1e-6) }
    }

    @Test func ditherAddsBoundedZeroMeanNoiseTheSameInEveryRender() throws {
        let source = Self.flat(Pixel(0.2, 0.2, 0.2, 1), width: 64, height: 64)
        let out = try Self.apply("CIDither", source, ["inputIntensity": .number(0.1)])
        let buffer = try TestImages.render(out)
        let e = Self.encode(0.2)
        var sum = 0.0, sumSquares = 0.0, worst = 0.0, n = 0.0
        var channelsDiffer = false
        for i in 0..<buffer.rect.area {
            let p = buffer.pixels[i]
            if p.x != p.y { channelsDiffer = true }
            for v in [p.x, p.y, p.z] {
                let d = Self.encode(v) - e
                sum += d; sumSquares += d * d; worst = max(worst, abs(d)); n += 1
            }
        }
        #expect(worst <= 0.05 + 1e-4, "noise reaches \(worst)")
        #expect(abs(sum / n) < 0.003, "mean offset \(sum / n)")
        let deviation = (sumSquares / n).squareRoot()
        #expect(abs(deviation - 0.1 / 12.0.squareRoot()) < 0.003, "deviation \(deviation)")  // uniform noise
        #expect(channelsDiffer)
        // A window rendered alone has the same grain (tiles, threads, re-renders agree).
        let window = try TestImages.render(out, Rect(x: 10, y: 20, width: 7, height: 5))
        for y in 20..<25 { for x in 10..<17 { #expect(window.pixel(x: x, y: y) == buffer.pixel(x: x, y: y)) } }
        #expect(TestImages.maxDifference(try TestImages.render(out), buffer) == 0)
    }

    // MARK: Vignette effect

    @Test func vignetteEffectShadesOutsideTheCircle() throws {
        let white = Self.flat(Pixel(1, 1, 1, 1), width: 100, height: 100)
        let center: FilterValue = .vector([50.5, 50.5])
        let out = try Self.apply("CIVignetteEffect", white, [
            "inputCenter": center, "inputRadius": .number(20), "inputFalloff": .number(0.5), "inputIntensity": .number(1)])
        #expect(close(try TestImages.pixel(out, x: 50, y: 50), Pixel(1, 1, 1, 1)))
        #expect(close(try TestImages.pixel(out, x: 65, y: 50), Pixel(1, 1, 1, 1)))     // distance 15
        #expect(close(try TestImages.pixel(out, x: 75, y: 50), Pixel(0.5, 0.5, 0.5, 1))) // 25: half-way, smoothstep 0.5
        #expect(close(try TestImages.pixel(out, x: 80, y: 50), Pixel(0, 0, 0, 1)))     // 30: the transition's end
        #expect(close(try TestImages.pixel(out, x: 95, y: 95), Pixel(0, 0, 0, 1)))
        // Distance 22.5: a quarter of the way, smoothstep(0.25) = 0.15625.
        let quarter = try TestImages.render(try Self.apply("CIVignetteEffect", Self.flat(Pixel(1, 1, 1, 1), width: 100, height: 100), [
            "inputCenter": .vector([50, 50.5]), "inputRadius": .number(20), "inputFalloff": .number(0.5), "inputIntensity": .number(0.5)]),
            Rect(x: 72, y: 50, width: 1, height: 1)).pixel(x: 72, y: 50)
        #expect(close(quarter, Pixel(1, 1, 1, 1) * (1 - 0.5 * 0.15625) + Pixel(0, 0, 0, 0.5 * 0.15625)))
        // Negative intensity lightens towards white; falloff 0 is a hard edge.
        let black = Self.flat(Pixel(0, 0, 0, 1), width: 100, height: 100)
        let light = try Self.apply("CIVignetteEffect", black, [
            "inputCenter": center, "inputRadius": .number(20), "inputFalloff": .number(0), "inputIntensity": .number(-1)])
        #expect(close(try TestImages.pixel(light, x: 69, y: 50), Pixel(0, 0, 0, 1)))     // 19
        #expect(close(try TestImages.pixel(light, x: 71, y: 50), Pixel(1, 1, 1, 1)))     // 21
        // Half coverage stays half coverage.
        let halfWhite = Self.flat(Pixel(0.5, 0.5, 0.5, 0.5), width: 100, height: 100)
        let shaded = try Self.apply("CIVignetteEffect", halfWhite, ["inputCenter": center, "inputRadius": .number(20),
                                                                   "inputFalloff": .number(0.5), "inputIntensity": .number(1)])
        #expect(close(try TestImages.pixel(shaded, x: 75, y: 50), Pixel(0.25, 0.25, 0.25, 0.5)))
    }

    // MARK: Looks

    /// What black, mid-grey (encoded 0.5) and white become under each look, from each look's definition
    /// (PhotoEffects.swift; Mono, Noir, Chrome, Fade and Instant are the fits to Apple's renders), in encoded values.
    @Test(arguments: [
        ("CIPhotoEffectMono", [0.020506, 0.020506, 0.020506], [0.426191, 0.426191, 0.426191], [0.967581, 0.967581, 0.967581]),
        ("CIPhotoEffectTonal", [0.05, 0.05, 0.05], [0.5, 0.5, 0.5], [0.95, 0.95, 0.95]),
        ("CIPhotoEffectNoir", [0.0, 0, 0], [0.568154, 0.568154, 0.568154], [1.0, 1, 1]),
        ("CIPhotoEffectChrome", [0.004039, 0.0078, 0.020116], [0.605208, 0.617618, 0.61987], [0.971759, 0.99162, 0.9828]),
        ("CIPhotoEffectFade", [0.001364, 0, 0.0025], [0.539563, 0.540537, 0.537149], [0.980364, 0.990945, 0.9923]),
        ("CIPhotoEffectInstant", [0.0137, 0.097252, 0.178696], [0.437089, 0.619347, 0.434579], [0.9814, 0.9719, 0.5721]),
        ("CIPhotoEffectProcess", [0.0, 0.03, 0.14], [0.5, 0.5, 0.46], [1.0, 0.97, 0.78]),
        ("CIPhotoEffectTransfer", [0.04, 0, 0], [0.04 + 0.96 * pow(0.5, 0.85), 0.5, 0.85 * pow(0.5, 1.1)], [1.0, 1, 0.85]),
        ("CIThermal", [0.0, 0, 0.15], [0.8, 0.075, 0.375], [1.0, 1, 0.75]),
        ("CIXRay", [0.85, 0.95, 1], [0.425, 0.485, 0.54], [0.0, 0.02, 0.08]),
    ] as [(String, [Double], [Double], [Double])])
    func lookOnGreys(_ name: String, black: [Double], mid: [Double], white: [Double]) throws {
        let greys = TestImages.make(width: 3, height: 1) { x, _ in Self.grey(encoded: [0, 0.5, 1][x]) }
        let out = try Self.apply(name, greys)
        for (x, expected) in [black, mid, white].enumerated() {
            let p = try TestImages.pixel(out, x: x, y: 0)
            let want = Pixel(Self.decode(expected[0]), Self.decode(expected[1]), Self.decode(expected[2]), 1)
            // The table holds the sRGB values to six digits: 5e-4 in linear light covers their rounding.
            #expect(close(p, want, tolerance: 5e-4), "\(name) grey \(x): \(p) vs \(want)")
        }
    }

    @Test func blackAndWhiteLooksAreGreyAndUseTheirWeights() throws {
        let mono = try TestImages.pixel(try Self.apply("CIPhotoEffectMono", Self.input), x: 0, y: 0)
        #expect(mono.x == mono.y && mono.y == mono.z)
        // Mono's fitted quadratic form and curve on the encoded colour (0.2, 0.4, 0.6 linear): encoded 0.691834.
        #expect(abs(mono.x - Self.decode(0.691834)) < 5e-5)
        let noir = try TestImages.pixel(try Self.apply("CIPhotoEffectNoir", Self.input), x: 1, y: 0)
        #expect(noir.x == noir.y && noir.w == 0.5)
        // Noir: red light, blue dark (Apple's iOS 7 render: red petals near white).
        let primaries = TestImages.make(width: 2, height: 1) { x, _ in x == 0 ? Pixel(1, 0, 0, 1) : Pixel(0, 0, 1, 1) }
        let out = try Self.apply("CIPhotoEffectNoir", primaries)
        let red = try TestImages.pixel(out, x: 0, y: 0), blue = try TestImages.pixel(out, x: 1, y: 0)
        #expect(red.x > 0.7 && blue.x < 0.05)
    }

    @Test func extrapolateCarriesExtendedRangeThrough() throws {
        let bright = Self.flat(Pixel(2, 2, 2, 1), width: 1, height: 1)
        // Tonal (the same kernel as every look; Chrome, used before, is now a fit whose curves end flat).
        let clamped = try TestImages.pixel(try Self.apply("CIPhotoEffectTonal", bright), x: 0, y: 0)
        let white = Self.decode(0.95)
        #expect(close(clamped, Pixel(white, white, white, 1), tolerance: 2e-5))
        let extended = try TestImages.pixel(try Self.apply("CIPhotoEffectTonal", bright, ["inputExtrapolate": .number(1)]), x: 0, y: 0)
        #expect(extended.x > 1.5 && extended.z > 1.5)
    }

    // MARK: Gradient and palette images

    @Test func colorMapLooksUpLuminanceAlongTheGradient() throws {
        // Two pixels: black at the left centre, (1, 0, 0.5) at the right; linear in between.
        let gradient = TestImages.make(width: 2, height: 1) { x, _ in x == 0 ? Pixel(0, 0, 0, 1) : Pixel(1, 0, 0.5, 1) }
        let out = try Self.apply("CIColorMap", Self.input, ["inputGradientImage": .image(gradient)])
        let l = Self.luma
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(l, 0, 0.5 * l, 1)))
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), Pixel(l, 0, 0.5 * l, 1) * 0.5))
        #expect(close(try TestImages.pixel(out, x: 2, y: 0), Pixel(0, 0, 0, 0)))
        // The stock greys gradient holds encoded i/255 at pixel i. Luminance is linear light: sRGB mid-grey
        // (linear 0.2140) lands 0.2140 × 255 = 54.58 pixels along, between the encoded levels 54 and 55.
        let stock = try #require(StockImages.gradient(named: "Greys"))
        let mid = Self.decode(0.5)
        let mapped = try TestImages.pixel(try Self.apply("CIColorMap", Self.flat(Pixel(mid, mid, mid, 1), width: 1, height: 1),
                                                         ["inputGradientImage": .image(stock)]), x: 0, y: 0)
        let position = Double(mid) * 255, k = position.rounded(.down), f = Float(position - k)
        let expected = Self.decode(k / 255) * (1 - f) + Self.decode((k + 1) / 255) * f
        #expect(abs(mapped.x - expected) < 1e-4, "\(mapped.x) vs \(expected)")
    }

    static let blackWhiteRed = StockImages.palette([.black, .white, Color(red: 1, green: 0, blue: 0)])

    @Test func palettizePicksTheNearestPaletteColour() throws {
        let pixels = TestImages.make(width: 3, height: 1) { x, _ in
            [Pixel(0.9, 0.1, 0.1, 1), Pixel(0.2, 0.4, 0.6, 1), Pixel(0.45, 0.05, 0.05, 0.5)][x]
        }
        let out = try Self.apply("CIPalettize", pixels, ["inputPaletteImage": .image(Self.blackWhiteRed)])
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(1, 0, 0, 1)))
        // Squared distances 0.56 (black), 1.16 (white), 1.16 (red).
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), Pixel(0, 0, 0, 1)))
        #expect(close(try TestImages.pixel(out, x: 2, y: 0), Pixel(0.5, 0, 0, 0.5)))
        // Linear 0.2 grey is nearer black in linear light (0.2 vs 0.8 per channel) but nearer white perceptually
        // (Oklab lightness ∛0.2 = 0.585).
        let grey = Self.flat(Pixel(0.2, 0.2, 0.2, 1), width: 1, height: 1)
        let bw = try #require(StockImages.palette(named: "Black & White"))
        let linear = try Self.apply("CIPalettize", grey, ["inputPaletteImage": .image(bw)])
        #expect(close(try TestImages.pixel(linear, x: 0, y: 0), Pixel(0, 0, 0, 1)))
        let perceptual = try Self.apply("CIPalettize", grey, ["inputPaletteImage": .image(bw), "inputPerceptual": .number(1)])
        #expect(close(try TestImages.pixel(perceptual, x: 0, y: 0), Pixel(1, 1, 1, 1), tolerance: 1e-3))
    }

    @Test func paletteCentroidLocatesEachPaletteColour() throws {
        // 4×2: the left half red, the right half blue.
        let image = TestImages.make(width: 4, height: 2) { x, _ in x < 2 ? Pixel(1, 0, 0, 1) : Pixel(0, 0, 1, 1) }
        let palette = StockImages.palette([Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1),
                                           Color(red: 0, green: 1, blue: 0)])
        let out = try Self.apply("CIPaletteCentroid", image, ["inputPaletteImage": .image(palette)])
        #expect(out.extent == Rect(x: 0, y: 0, width: 3, height: 1))
        let buffer = try TestImages.render(out)
        #expect(close(buffer.pixel(x: 0, y: 0), Pixel(0.25, 0.5, 0.5, 1)))  // centres x 0.5, 1.5 of 4; y 1 of 2
        #expect(close(buffer.pixel(x: 1, y: 0), Pixel(0.75, 0.5, 0.5, 1)))
        #expect(close(buffer.pixel(x: 2, y: 0), Pixel(0, 0, 0, 0)))         // chosen by no pixel
    }

    @Test func infinitePalettesAreClearErrors() throws {
        let error = #expect(throws: FilterError.self) {
            _ = try Self.apply("CIPalettize", Self.input, ["inputPaletteImage": .image(Image(color: .white))])
        }
        #expect(error?.message.contains("finite") == true)
    }

    @Test func stockImagesHaveTheirShapes() throws {
        for name in StockImages.gradientNames {
            let image = try #require(StockImages.gradient(named: name), "\(name)")
            #expect(image.extent == Rect(x: 0, y: 0, width: 256, height: 1))
        }
        for name in StockImages.paletteNames {
            let image = try #require(StockImages.palette(named: name), "\(name)")
            #expect(image.extent.height == 1 && image.extent.width >= 2)
        }
        let palette = try TestImages.render(Self.blackWhiteRed)
        #expect(palette.pixel(x: 2, y: 0) == Pixel(1, 0, 0, 1))
        let greys = try TestImages.render(try #require(StockImages.gradient(named: "Greys")))
        #expect(greys.pixel(x: 0, y: 0) == Pixel(0, 0, 0, 1) && close(greys.pixel(x: 255, y: 0), Pixel(1, 1, 1, 1)))
    }

    // MARK: Document enhancer

    @Test func documentEnhancerWhitensPaperAndDarkensInk() throws {
        // Grey paper (linear 0.3) with an 8×8 ink square (0.03) in the middle.
        let page = TestImages.make(width: 64, height: 64) { x, y in
            (28..<36).contains(x) && (28..<36).contains(y) ? Pixel(0.03, 0.03, 0.03, 1) : Pixel(0.3, 0.3, 0.3, 1)
        }
        let out = try TestImages.render(try Self.apply("CIDocumentEnhancer", page))
        // Far from the ink, the blur of the paper is the paper: ratio 1, white.
        #expect(close(out.pixel(x: 2, y: 2), Pixel(1, 1, 1, 1), tolerance: 0.02))
        #expect(out.pixel(x: 32, y: 32).x < 0.03)
        let unchanged = try TestImages.render(try Self.apply("CIDocumentEnhancer", page, ["inputAmount": .number(0)]))
        #expect(TestImages.maxDifference(unchanged, try TestImages.render(page)) == 0)
    }

    // MARK: Alpha, across the family

    @Test(arguments: ["CIColorMonochrome", "CIColorPosterize", "CIDither", "CIFalseColor", "CIMaximumComponent",
                      "CIMinimumComponent", "CIPhotoEffectChrome", "CIPhotoEffectFade", "CIPhotoEffectInstant",
                      "CIPhotoEffectMono", "CIPhotoEffectNoir", "CIPhotoEffectProcess", "CIPhotoEffectTonal",
                      "CIPhotoEffectTransfer", "CIThermal", "CIXRay", "CIVignetteEffect", "CIDocumentEnhancer",
                      "CIColorMap", "CIPalettize"])
    func keepsCoverage(_ name: String) throws {
        let filter = try RegistryTests.stocked(name)
        let source = TestImages.pattern()
        try filter.setValue(.image(source), forKey: "inputImage")
        let out = try TestImages.render(try filter.makeOutputImage(), source.extent)
        let original = try TestImages.render(source)
        var alphaChange: Float = 0, overCoverage = 0
        for i in 0..<out.rect.area {
            let p = out.pixels[i]
            alphaChange = max(alphaChange, abs(p.w - original.pixels[i].w))
            // On this SDR input, premultiplied colour stays within its coverage.
            if max(p.x, p.y, p.z) > p.w + 1e-4 { overCoverage += 1 }
        }
        #expect(alphaChange < 1e-5, "\(name): alpha changed by \(alphaChange)")
        #expect(overCoverage == 0, "\(name): \(overCoverage) pixels brighter than their coverage")
    }
}
