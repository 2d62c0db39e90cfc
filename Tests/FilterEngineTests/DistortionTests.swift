import Foundation
import Testing
@testable import FilterEngine

/// Distortion warps on an image whose pixels encode their own coordinates (red = x / 100, green = y / 100, so a
/// bilinear sample at (sx, sy) reads red (sx − 0.5) / 100): each test checks where a pixel reads from against a
/// source point worked out by hand from the filter's geometry.
@Suite struct DistortionTests {
    static let size = 100

    /// The twirl's vectorisable sine and cosine against the C library's, over several turns both ways and
    /// across each quadrant boundary; zero gives exactly (0, 1), so the outside of a twirl stays unmoved.
    @Test func fastSineAndCosineMatchTheLibrary() {
        var worst: Double = 0
        for k in -20_000...20_000 {
            let x = Float(k) * 0.0013
            let (s, c) = FastTrig.sinCos(x)
            worst = max(worst, abs(Double(s) - sin(Double(x))), abs(Double(c) - cos(Double(x))))
        }
        #expect(worst < 2e-7)
        #expect(FastTrig.sinCos(0) == (0, 1))
        #expect(FastTrig.sinCos(.pi / 2).sin == 1)
        #expect(FastTrig.sinCos(.nan).sin.isNaN)
    }
    /// Pixel (x, y) holds (x / 100, y / 100, 0, 1).
    static let coords = TestImages.make(width: size, height: size) { x, y in Pixel(Float(x) / 100, Float(y) / 100, 0, 1) }
    /// Pixel (x, y)'s centre is at (x + 0.5, y + 0.5): from this centre, pixel (50 + k, 50) is exactly k to the right.
    static let center = FilterValue.vector([50.5, 50.5])

    /// The source point a pixel of a warp of `coords` read.
    static func source(_ image: Image, _ x: Int, _ y: Int) throws -> SIMD2<Double> {
        let p = try TestImages.pixel(image, x: x, y: y)
        return SIMD2(Double(p.x) * 100 + 0.5, Double(p.y) * 100 + 0.5)
    }

    static func expectSource(_ image: Image, _ x: Int, _ y: Int, _ sx: Double, _ sy: Double,
                             tolerance: Double = 0.01, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let s = try source(image, x, y)
        #expect(abs(s.x - sx) <= tolerance && abs(s.y - sy) <= tolerance,
                "pixel (\(x), \(y)) read (\(s.x), \(s.y)), expected (\(sx), \(sy))", sourceLocation: sourceLocation)
    }

    static func expectUnchanged(_ image: Image, _ x: Int, _ y: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expectSource(image, x, y, Double(x) + 0.5, Double(y) + 0.5, tolerance: 1e-3, sourceLocation: sourceLocation)
    }

    static func expectIdentity(_ image: Image, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let full = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
        let difference = TestImages.maxDifference(try TestImages.render(image, full), try TestImages.render(coords, full))
        #expect(difference < 1e-5, "identity differs by \(difference)", sourceLocation: sourceLocation)
    }

    static func run(_ name: String, _ values: [String: FilterValue]) throws -> Image {
        var all = values
        all["inputImage"] = .image(coords)
        return try TestImages.filter(name, all)
    }

    static let inputExtent = Rect(x: 0, y: 0, width: 100, height: 100)

    // MARK: Pinch

    /// The pinch reads relative distance v = (1 − scale)·u + scale·√u for an output at u = d / radius (the rule
    /// fitted on Apple's iOS 7 render), inside and outside the radius alike; the extent is the input (grown
    /// half a pixel) pushed forwards, in whole pixels.
    @Test func pinchReadsTheMixOfIdentityAndSquareRoot() throws {
        let out = try Self.run("CIPinchDistortion", ["inputCenter": Self.center, "inputRadius": .number(40), "inputScale": .number(0.5)])
        // 20 px out: u = 0.5, v = 0.25 + 0.5·√0.5 = 0.60355, so 24.14 px out.
        try Self.expectSource(out, 70, 50, 50.5 + 40 * (0.25 + 0.5 * 0.5.squareRoot()), 50.5)
        // 45 px out (beyond the radius): u = 1.125, v = 0.5625 + 0.5·√1.125 = 1.0928, 43.71 px out.
        try Self.expectSource(out, 50, 95, 50.5, 50.5 + 40 * (0.5625 + 0.5 * 1.125.squareRoot()))
        try Self.expectUnchanged(out, 50, 50)
        // Extent: the corner (−0.5, −0.5) is 51·√2 = 72.12 from the centre, v = 1.803; √u solves
        // 0.5·w² + 0.5·w = v: w = −0.5 + √(0.25 + 2v) = 1.4637, u = 2.1425, 85.70 px out, so x = −10.10 → −11.
        let v = 51 * 2.0.squareRoot() / 40
        let w = -0.5 + (0.25 + 2 * v).squareRoot()
        let reach = 51 * (w * w) / v
        let lo = (50.5 - reach).rounded(.down), hi = (50.5 + reach).rounded(.up)
        #expect(lo == -11)
        #expect(out.extent.minX == lo && out.extent.minY == lo, "\(out.extent) from \(lo) (up to \(hi))")
        // The circle of the radius stays in place: 40 px out reads 40 px out.
        try Self.expectSource(out, 10, 50, 10.5, 50.5, tolerance: 0.02)
        try Self.expectIdentity(try Self.run("CIPinchDistortion", ["inputCenter": Self.center, "inputScale": .number(0)]))
        try Self.expectIdentity(try Self.run("CIPinchDistortion", ["inputCenter": Self.center, "inputRadius": .number(0)]))
    }

    /// Apple's iOS 7 render of the pinch at its defaults on the 638×475 flower is 753×572 from (−10, −27).
    @Test func pinchExtentMatchesApplesRender() throws {
        let image = TestImages.make(width: 638, height: 475) { _, _ in Pixel(1, 1, 1, 1) }
        let out = try TestImages.filter("CIPinchDistortion", ["inputImage": .image(image)])
        #expect(out.extent == Rect(x: -10, y: -27, width: 753, height: 572))
        let scaled = try TestImages.filter("CIPinchDistortion", ["inputImage": .image(image), "inputScale": .number(1.5)])
        #expect(!scaled.extent.isInfinite && scaled.extent.width > 638)
    }

    // MARK: Bump

    @Test func bumpMagnifiesTheMiddle() throws {
        let out = try Self.run("CIBumpDistortion", ["inputCenter": Self.center, "inputRadius": .number(40), "inputScale": .number(0.5)])
        #expect(out.extent == Self.inputExtent)
        // t = 0.5: smoothstep 0.5, factor 1 − 0.5 · 0.5 = 0.75: 20 px out reads 15 px out.
        try Self.expectSource(out, 70, 50, 65.5, 50.5)
        try Self.expectSource(out, 50, 30, 50.5, 35.5)
        try Self.expectUnchanged(out, 50, 50)
        try Self.expectUnchanged(out, 5, 50)
        try Self.expectIdentity(try Self.run("CIBumpDistortion", ["inputCenter": Self.center, "inputScale": .number(0)]))
    }

    @Test func bumpLinearMovesAcrossTheLine() throws {
        let out = try Self.run("CIBumpDistortionLinear", [
            "inputCenter": Self.center, "inputRadius": .number(40), "inputAngle": .number(0), "inputScale": .number(0.5),
        ])
        #expect(out.extent == Self.inputExtent)
        // Horizontal line through y = 50.5; 20 above it: shift 20 · (1 − 0.5) · (1 − 0.5) = 5 towards the line.
        try Self.expectSource(out, 30, 70, 30.5, 65.5)
        try Self.expectSource(out, 90, 30, 90.5, 35.5)
        try Self.expectUnchanged(out, 30, 95)
        // At angle π/2 the line is vertical: the same shift in x.
        let vertical = try Self.run("CIBumpDistortionLinear", [
            "inputCenter": Self.center, "inputRadius": .number(40), "inputAngle": .number(Double.pi / 2), "inputScale": .number(0.5),
        ])
        try Self.expectSource(vertical, 70, 10, 65.5, 10.5)
        try Self.expectIdentity(try Self.run("CIBumpDistortionLinear", ["inputCenter": Self.center, "inputScale": .number(1)]))
        try Self.expectIdentity(try Self.run("CIBumpDistortionLinear", ["inputCenter": Self.center, "inputRadius": .number(0)]))
    }

    // MARK: Twirl

    /// A positive angle turns the content anticlockwise (y up), as every Core Image angle does; the evidence is
    /// written at `DistortionFilters.twirl`. A pixel 10 px right of the centre (t = 0.75, smoothstep 0.84375)
    /// therefore shows the point that far clockwise of it, below the centre line.
    /// The twirl's extent is the input's united with the circle's square (Apple's iOS 7 render: 788×625 from
    /// (−150, −150) for the 638×475 flower at the defaults, centre 150,150, radius 300).
    @Test func twirlExtentCoversTheCircle() throws {
        let image = TestImages.make(width: 638, height: 475) { _, _ in Pixel(1, 1, 1, 1) }
        let out = try TestImages.filter("CITwirlDistortion", ["inputImage": .image(image)])
        #expect(out.extent == Rect(x: -150, y: -150, width: 788, height: 625))
        let odd = try TestImages.filter("CITwirlDistortion", ["inputImage": .image(image), "inputCenter": .vector([600.5, 10]),
                                                              "inputRadius": .number(50.2)])
        #expect(odd.extent == Rect(x: 0, y: -41, width: 651, height: 516))
    }

    @Test func twirlTurnsAnticlockwiseForAPositiveAngle() throws {
        let out = try Self.run("CITwirlDistortion", ["inputCenter": Self.center, "inputRadius": .number(40), "inputAngle": .number(1)])
        #expect(out.extent == Self.inputExtent)
        let theta = 0.75 * 0.75 * (3 - 2 * 0.75)
        try Self.expectSource(out, 60, 50, 50.5 + 10 * cos(theta), 50.5 - 10 * sin(theta))
        // 10 px above the centre the content comes from the right of it.
        try Self.expectSource(out, 50, 60, 50.5 + 10 * sin(theta), 50.5 + 10 * cos(theta))
        let negative = try Self.run("CITwirlDistortion", ["inputCenter": Self.center, "inputRadius": .number(40), "inputAngle": .number(-1)])
        try Self.expectSource(negative, 60, 50, 50.5 + 10 * cos(theta), 50.5 + 10 * sin(theta))
        try Self.expectUnchanged(out, 95, 50)
    }

    // MARK: Vortex

    @Test func vortexTurnsByTheFalloffAngle() throws {
        let angle = Double.pi / 2
        let out = try Self.run("CIVortexDistortion", ["inputCenter": Self.center, "inputRadius": .number(40), "inputAngle": .number(angle)])
        #expect(out.extent == Self.inputExtent)
        // 10 px right of the centre: t = 0.75. The content turns anticlockwise by angle · 0.75², so this pixel
        // shows the point that far clockwise of it (below the centre line).
        let theta = angle * 0.75 * 0.75
        try Self.expectSource(out, 60, 50, 50.5 + 10 * cos(theta), 50.5 - 10 * sin(theta))
        try Self.expectUnchanged(out, 95, 50)
        try Self.expectIdentity(try Self.run("CIVortexDistortion", ["inputCenter": Self.center, "inputAngle": .number(0)]))
        try Self.expectIdentity(try Self.run("CIVortexDistortion", ["inputCenter": Self.center, "inputRadius": .number(0)]))
    }

    // MARK: Hole

    /// The hole reads distance d − radius²/d (the rule fitted on Apple's iOS 7 render); its extent is the input
    /// pushed forwards (s goes to (s + √(s² + 4·radius²)) / 2), in whole pixels.
    @Test func holePushesOutwards() throws {
        let out = try Self.run("CIHoleDistortion", ["inputCenter": Self.center, "inputRadius": .number(30)])
        // The left side's nearest point (0, 50.5), 50.5 out, goes to (50.5 + √(50.5² + 3600)) / 2 = 64.46 out:
        // x = −13.96 → −14; the right side's (100, 50.5), 49.5 out, to 63.64 out: x = 114.14 → 115.
        #expect(out.extent == Rect(x: -14, y: -14, width: 129, height: 129))
        // 50 out reads 50 − 900/50 = 32 out; 45 out reads 45 − 20 = 25 out.
        try Self.expectSource(out, 100, 50, 82.5, 50.5)
        try Self.expectSource(out, 50, 95, 50.5, 75.5)
        // Inside the hole (the centre, and (15, 10) from it) nothing.
        #expect(try TestImages.pixel(out, x: 50, y: 50) == Pixel(0, 0, 0, 0))
        #expect(try TestImages.pixel(out, x: 65, y: 60) == Pixel(0, 0, 0, 0))
        // The smallest legal radius moves nothing visibly.
        let tiny = try Self.run("CIHoleDistortion", ["inputCenter": .vector([0, 0]), "inputRadius": .number(0.01)])
        try Self.expectUnchanged(tiny, 50, 50)
    }

    /// Apple's iOS 7 render of the hole (radius 85, centre 150,150) on the 500×267 heron is 559×351 from (−39, −39).
    @Test func holeExtentMatchesApplesRender() throws {
        let image = TestImages.make(width: 500, height: 267) { _, _ in Pixel(1, 1, 1, 1) }
        let out = try TestImages.filter("CIHoleDistortion", ["inputImage": .image(image), "inputRadius": .number(85)])
        #expect(out.extent == Rect(x: -39, y: -39, width: 559, height: 351))
    }

    // MARK: Circle splash and light tunnel

    @Test func circleSplashRepeatsTheRim() throws {
        let out = try Self.run("CICircleSplashDistortion", ["inputCenter": Self.center, "inputRadius": .number(20)])
        #expect(out.extent.isInfinite)
        try Self.expectSource(out, 90, 50, 70.5, 50.5)
        try Self.expectSource(out, 50, 10, 50.5, 30.5)
        try Self.expectUnchanged(out, 60, 50)
        // Far outside the input the rim still shows.
        let far = try TestImages.pixel(out, x: 500, y: 50)
        #expect(close(far, Pixel(0.7, 0.5, 0, 1)))
        try Self.expectIdentity(try Self.run("CICircleSplashDistortion", ["inputCenter": Self.center, "inputRadius": .number(0)]))
    }

    /// The rule fitted on Apple's iOS 7 render: outside the radius a pixel at distance d and angle θ reads the
    /// rim at θ + (radius/2π)·ln(d/radius) − rotation; inside, the image itself.
    @Test func lightTunnelWindsTheRimIntoALogSpiral() throws {
        let out = try Self.run("CILightTunnel", ["inputCenter": Self.center, "inputRadius": .number(20), "inputRotation": .number(1)])
        #expect(out.extent.isInfinite)
        // 40 px right of the centre: (20/2π)·ln 2 − 1 ≈ 1.206 rad round the rim, counter-clockwise.
        let turned = 20 / (2 * Double.pi) * log(2.0) - 1
        try Self.expectSource(out, 90, 50, 50.5 + 20 * cos(turned), 50.5 + 20 * sin(turned))
        try Self.expectUnchanged(out, 60, 50)
        let straight = try Self.run("CILightTunnel", ["inputCenter": Self.center, "inputRadius": .number(20), "inputRotation": .number(0)])
        // 30 px out: (20/2π)·ln 1.5 ≈ 1.29 rad.
        let winds = 20 / (2 * Double.pi) * log(30.0 / 20)
        try Self.expectSource(straight, 80, 50, 50.5 + 20 * cos(winds), 50.5 + 20 * sin(winds))
        // Straight up, 35 out: a quarter turn plus the winding.
        let up = Double.pi / 2 + 20 / (2 * Double.pi) * log(35.0 / 20)
        try Self.expectSource(straight, 50, 85, 50.5 + 20 * cos(up), 50.5 + 20 * sin(up))
        try Self.expectIdentity(try Self.run("CILightTunnel", ["inputCenter": Self.center, "inputRadius": .number(0)]))
    }

    // MARK: Circular wrap

    @Test func circularWrapBendsTheImageAroundTheCircle() throws {
        let strip = TestImages.make(width: 100, height: 50) { x, y in Pixel(Float(x) / 100, Float(y) / 100, 0, 1) }
        let out = try TestImages.filter("CICircularWrap", [
            "inputImage": .image(strip), "inputCenter": .vector([200.5, 200.5]), "inputRadius": .number(30),
        ])
        #expect(out.extent == Rect(x: 120.5, y: 120.5, width: 160, height: 160))
        // Straight above the centre, 40 out: the middle column (x = 50), 10 rows above the bottom.
        try Self.expectSource(out, 200, 240, 50, 10)
        // A quarter turn clockwise, 40 out: 30 · π/2 px to the right of the middle.
        try Self.expectSource(out, 240, 200, 50 + 30 * Double.pi / 2, 10)
        // The angle turns the ring anticlockwise: with a quarter turn the middle column points left.
        let turned = try TestImages.filter("CICircularWrap", [
            "inputImage": .image(strip), "inputCenter": .vector([200.5, 200.5]), "inputRadius": .number(30),
            "inputAngle": .number(Double.pi / 2),
        ])
        try Self.expectSource(turned, 160, 200, 50, 10)
        // The inside of the circle is empty.
        #expect(try TestImages.pixel(out, x: 200, y: 200) == Pixel(0, 0, 0, 0))
    }

    // MARK: Lenses

    /// The distance from the lens axis read by the point at distance s: Snell's law through a round glass
    /// cross-section of half-width h.
    static func refracted(_ s: Double, _ h: Double, _ index: Double) -> Double {
        let thetaI = asin(s / h), thetaT = asin(s / h / index)
        return s - (h * h - s * s).squareRoot() * tan(thetaI - thetaT)
    }

    @Test func torusLensRefractsInsideTheRing() throws {
        let out = try Self.run("CITorusLensDistortion", [
            "inputCenter": Self.center, "inputRadius": .number(30), "inputWidth": .number(20), "inputRefraction": .number(1.5),
        ])
        #expect(out.extent == Self.inputExtent)
        // Pixel 84 is 34 right of the centre: 4 outside the ring's middle line.
        try Self.expectSource(out, 84, 50, 80.5 + Self.refracted(4, 10, 1.5), 50.5)
        try Self.expectSource(out, 50, 24, 50.5, 20.5 + Self.refracted(4, 10, 1.5))
        try Self.expectUnchanged(out, 50, 50)
        try Self.expectUnchanged(out, 95, 50)
        try Self.expectIdentity(try Self.run("CITorusLensDistortion", ["inputCenter": Self.center, "inputRefraction": .number(1)]))
        try Self.expectIdentity(try Self.run("CITorusLensDistortion", ["inputCenter": Self.center, "inputWidth": .number(0)]))
    }

    @Test func glassLozengeRefractsAroundItsSegment() throws {
        let out = try Self.run("CIGlassLozenge", [
            "inputPoint0": .vector([30.5, 50.5]), "inputPoint1": .vector([70.5, 50.5]), "inputRadius": .number(20),
            "inputRefraction": .number(1.5),
        ])
        #expect(out.extent == Self.inputExtent)
        try Self.expectSource(out, 50, 60, 50.5, 50.5 + Self.refracted(10, 20, 1.5))
        // Beyond an end the lens is round: along the axis past point 1.
        try Self.expectSource(out, 75, 50, 70.5 + Self.refracted(5, 20, 1.5), 50.5)
        try Self.expectUnchanged(out, 50, 80)
        try Self.expectUnchanged(out, 50, 50)
        try Self.expectIdentity(try Self.run("CIGlassLozenge", ["inputRefraction": .number(1)]))
        // Coincident points make a round lens, without trouble.
        let round = try Self.run("CIGlassLozenge", [
            "inputPoint0": Self.center, "inputPoint1": Self.center, "inputRadius": .number(20), "inputRefraction": .number(1.5),
        ])
        try Self.expectSource(round, 60, 50, 50.5 + Self.refracted(10, 20, 1.5), 50.5)
    }

    // MARK: Displacement and glass

    @Test func displacementMovesByTheMapColour() throws {
        let map = TestImages.make(width: 100, height: 100) { _, _ in Pixel(0.75, 0.25, 0, 1) }
        let out = try Self.run("CIDisplacementDistortion", ["inputDisplacementImage": .image(map), "inputScale": .number(40)])
        #expect(out.extent == Self.inputExtent)
        // Offset 40 · (0.75 − 0.5, 0.25 − 0.5) = (10, −10).
        try Self.expectSource(out, 50, 50, 60.5, 40.5)
        try Self.expectSource(out, 20, 70, 30.5, 60.5)
        let grey = TestImages.make(width: 100, height: 100) { _, _ in Pixel(0.25, 0.25, 0, 0.5) }
        try Self.expectIdentity(try Self.run("CIDisplacementDistortion", ["inputDisplacementImage": .image(grey)]))
        try Self.expectIdentity(try Self.run("CIDisplacementDistortion", ["inputDisplacementImage": .image(map), "inputScale": .number(0)]))
    }

    @Test func glassFollowsTheTextureSlope() throws {
        // Heights rise by 0.01 per pixel to the right within each 20-pixel tile: slope 0.01, times scale 200.
        let texture = TestImages.make(width: 20, height: 20) { x, _ in
            let v = Float(x) / 100
            return Pixel(v, v, v, 1)
        }
        let out = try Self.run("CIGlassDistortion", ["inputTexture": .image(texture), "inputScale": .number(200)])
        #expect(out.extent == Self.inputExtent)
        // The default centre (150, 150) puts a tile's middle there: tiles start at multiples of 20.
        try Self.expectSource(out, 45, 50, 47.5, 50.5)
        try Self.expectSource(out, 73, 10, 75.5, 10.5)
        // The same along y.
        let rising = TestImages.make(width: 20, height: 20) { _, y in
            let v = Float(y) / 100
            return Pixel(v, v, v, 1)
        }
        let up = try Self.run("CIGlassDistortion", ["inputTexture": .image(rising), "inputScale": .number(200)])
        try Self.expectSource(up, 45, 53, 45.5, 55.5)
        try Self.expectIdentity(try Self.run("CIGlassDistortion", ["inputTexture": .image(texture), "inputScale": .number(0)]))
        let flat = TestImages.make(width: 8, height: 8) { _, _ in Pixel(0.3, 0.3, 0.3, 1) }
        try Self.expectIdentity(try Self.run("CIGlassDistortion", ["inputTexture": .image(flat)]))
    }

    // MARK: Stretch crop and nine parts

    @Test func stretchCropStretchesOrCrops() throws {
        let stretched = try Self.run("CIStretchCrop", [
            "inputSize": .vector([200, 100]), "inputCropAmount": .number(0), "inputCenterStretchAmount": .number(0),
        ])
        #expect(stretched.extent == Rect(x: 0, y: 0, width: 200, height: 100))
        try Self.expectSource(stretched, 101, 30, 50.75, 30.5)
        // Cropping all the way keeps proportions: scale 2 both ways on the middle 100 × 50.
        let cropped = try Self.run("CIStretchCrop", [
            "inputSize": .vector([200, 100]), "inputCropAmount": .number(1), "inputCenterStretchAmount": .number(0),
        ])
        try Self.expectSource(cropped, 101, 30, 50.75, 25 + 15.25)
        // Centre stretch: near the left edge the source advances (1 + 0.95) times faster than uniformly.
        let bent = try Self.run("CIStretchCrop", [
            "inputSize": .vector([200, 100]), "inputCropAmount": .number(0), "inputCenterStretchAmount": .number(1),
        ])
        let u = 10.5 / 200
        try Self.expectSource(bent, 10, 30, (u + 0.95 * sin(2 * Double.pi * u) / (2 * Double.pi)) * 100, 30.5)
        // Near the middle it advances only 1 − 0.95 times as fast.
        let m = 99.5 / 200
        try Self.expectSource(bent, 99, 30, (m + 0.95 * sin(2 * Double.pi * m) / (2 * Double.pi)) * 100, 30.5)
        #expect(abs(try Self.source(bent, 99, 30).x - (50 - 0.25 * 0.05)) < 0.01)
        try Self.expectIdentity(try Self.run("CIStretchCrop", ["inputSize": .vector([100, 100])]))
    }

    @Test func ninePartStretchedKeepsTheCorners() throws {
        let out = try Self.run("CINinePartStretched", [
            "inputBreakpoint0": .vector([20, 30]), "inputBreakpoint1": .vector([60, 70]), "inputGrowAmount": .vector([40, 0]),
        ])
        #expect(out.extent == Rect(x: 0, y: 0, width: 140, height: 100))
        try Self.expectUnchanged(out, 10, 50)
        // The 40-pixel band becomes 80: half speed.
        try Self.expectSource(out, 59, 50, 20 + 39.5 / 2, 50.5)
        try Self.expectSource(out, 120, 80, 80.5, 80.5)
        try Self.expectIdentity(try Self.run("CINinePartStretched", ["inputGrowAmount": .vector([0, 0])]))
        // A shrink larger than the band removes it and no more.
        let shrunk = try Self.run("CINinePartStretched", [
            "inputBreakpoint0": .vector([20, 30]), "inputBreakpoint1": .vector([60, 70]), "inputGrowAmount": .vector([-500, 0]),
        ])
        #expect(shrunk.extent == Rect(x: 0, y: 0, width: 60, height: 100))
        try Self.expectSource(shrunk, 30, 50, 70.5, 50.5)
    }

    @Test func ninePartTiledRepeatsTheMiddle() throws {
        func tiled(_ flip: Bool) throws -> Image {
            try Self.run("CINinePartTiled", [
                "inputBreakpoint0": .vector([20, 20]), "inputBreakpoint1": .vector([60, 60]),
                "inputGrowAmount": .vector([30, 30]), "inputFlipYTiles": .number(flip ? 1 : 0),
            ])
        }
        let up = try tiled(false), down = try tiled(true)
        #expect(up.extent == Rect(x: 0, y: 0, width: 130, height: 130))
        // x 70.5 is 50.5 into the 40-wide band: 10.5 into its second copy.
        try Self.expectSource(up, 70, 10, 30.5, 10.5)
        try Self.expectSource(up, 120, 10, 90.5, 10.5)
        // The first tile starts at y 20 either way; with inputFlipYTiles the second copy is upside down:
        // y 85.5 is 25.5 into it, i.e. source 60 - 25.5 (45.5 without the flip).
        try Self.expectSource(up, 10, 25, 10.5, 25.5)
        try Self.expectSource(down, 10, 25, 10.5, 25.5)
        try Self.expectSource(up, 10, 85, 10.5, 45.5)
        try Self.expectSource(down, 10, 85, 10.5, 34.5)
        // x never flips.
        try Self.expectSource(down, 70, 10, 30.5, 10.5)
        try Self.expectIdentity(try Self.run("CINinePartTiled", ["inputGrowAmount": .vector([0, 0])]))
    }

    // MARK: Droste

    @Test func drosteRecursesIntoTheInset() throws {
        func droste(_ strands: Double) throws -> Image {
            try Self.run("CIDroste", [
                "inputInsetPoint0": .vector([25, 25]), "inputInsetPoint1": .vector([75, 75]), "inputStrands": .number(strands),
                "inputPeriodicity": .number(1), "inputRotation": .number(0), "inputZoom": .number(1),
            ])
        }
        let plain = try droste(0)
        #expect(plain.extent.isInfinite)
        // The inset is the image halved about (50, 50): the frame stays, the inset shows the frame scaled.
        try Self.expectUnchanged(plain, 10, 50)
        try Self.expectUnchanged(plain, 80, 90)
        // (55.5, 50.5) is (5.5, 0.5) from the fixed point: ×8 lands in the frame at (94, 54).
        try Self.expectSource(plain, 55, 50, 94, 54)
        // Outside the image: (80.5, 0.5) from it, halved to (40.25, 0.25).
        try Self.expectSource(plain, 130, 50, 90.25, 50.25)
        // The spiral is continuous and finite everywhere near the centre.
        let spiral = try droste(1)
        let buffer = try TestImages.render(spiral, Rect(x: 40, y: 40, width: 20, height: 20))
        for i in 0..<buffer.rect.area { #expect(buffer.pixels[i].w.isFinite && buffer.pixels[i].x.isFinite) }
    }

    // MARK: Degenerate geometry

    static func expectFinite(_ image: Image, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let window = image.extent.isInfinite ? Rect(x: -20, y: -20, width: 140, height: 140) : image.extent
        guard !window.isEmpty else { return }
        let buffer = try TestImages.render(image, window)
        var bad = 0
        for i in 0..<buffer.rect.area {
            let p = buffer.pixels[i]
            if !(p.x.isFinite && p.y.isFinite && p.z.isFinite && p.w.isFinite) { bad += 1 }
        }
        #expect(bad == 0, "\(label): \(bad) non-finite pixels", sourceLocation: sourceLocation)
    }

    @Test func degenerateGeometryIsSafe() throws {
        // A centre on a pixel centre (distance 0 there), coincident points, empty bands and sizes.
        let onPixel = FilterValue.vector([50.5, 50.5])
        for name in ["CIPinchDistortion", "CIBumpDistortion", "CIBumpDistortionLinear", "CIVortexDistortion",
                     "CIHoleDistortion", "CICircleSplashDistortion", "CILightTunnel", "CICircularWrap",
                     "CITorusLensDistortion"] {
            try Self.expectFinite(try Self.run(name, ["inputCenter": onPixel, "inputRadius": .number(30)]), name)
        }
        try Self.expectFinite(try Self.run("CITorusLensDistortion", [
            "inputCenter": onPixel, "inputRadius": .number(0), "inputWidth": .number(40), "inputRefraction": .number(0),
        ]), "torus refraction 0")
        try Self.expectFinite(try Self.run("CIGlassLozenge", [
            "inputPoint0": onPixel, "inputPoint1": onPixel, "inputRefraction": .number(0),
        ]), "lozenge refraction 0")
        let droste = try Self.run("CIDroste", ["inputInsetPoint0": .vector([40, 40]), "inputInsetPoint1": .vector([40, 40])])
        try Self.expectIdentity(droste.cropped(to: Self.inputExtent))
        try Self.expectFinite(try Self.run("CIDroste", [
            "inputInsetPoint0": .vector([0, 0]), "inputInsetPoint1": .vector([99, 99]), "inputStrands": .number(-10),
            "inputPeriodicity": .number(5), "inputZoom": .number(0.01),
        ]), "droste extreme")
        let flatBand = try Self.run("CINinePartTiled", [
            "inputBreakpoint0": .vector([40, 40]), "inputBreakpoint1": .vector([40, 40]), "inputGrowAmount": .vector([20, 20]),
        ])
        #expect(flatBand.extent == Rect(x: 0, y: 0, width: 120, height: 120))
        try Self.expectFinite(flatBand, "nine-part with an empty band")
        #expect(try Self.run("CIStretchCrop", ["inputSize": .vector([0, 0])]).extent.isEmpty)
    }

    // MARK: Whole renders

    /// Tiled renders equal whole ones: the regions of interest are large enough.
    @Test(arguments: ["CIPinchDistortion", "CIBumpDistortion", "CIBumpDistortionLinear", "CIVortexDistortion",
                      "CIHoleDistortion", "CICircleSplashDistortion", "CILightTunnel", "CICircularWrap",
                      "CITorusLensDistortion", "CIGlassLozenge", "CIStretchCrop", "CINinePartStretched",
                      "CINinePartTiled", "CIDroste"])
    func tilesMatchTheWhole(_ name: String) throws {
        let out = try Self.run(name, [:])
        let window = Rect(x: 0, y: 0, width: 100, height: 100)
        let whole = try TestImages.render(out, window)
        for (x, y) in [(0, 0), (50, 0), (0, 50), (50, 50)] {
            let quarter = Rect(x: Double(x), y: Double(y), width: 50, height: 50)
            let part = try TestImages.render(out, quarter)
            var worst: Float = 0
            for j in 0..<50 {
                for i in 0..<50 {
                    worst = max(worst, largestComponent(part.pixel(x: x + i, y: y + j) - whole.pixel(x: x + i, y: y + j)))
                }
            }
            #expect(worst < 1e-5, "\(name) quarter at (\(x), \(y)) differs by \(worst)")
        }
    }
}
