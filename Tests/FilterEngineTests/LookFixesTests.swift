import Foundation
import Testing
@testable import FilterEngine
@testable import FilterPipeline

/// The filters the visual review found wrong (../shared/reviews/visual-review.md), checked on what was wrong.
@Suite struct LookFixesTests {
    static func render(_ image: Image, _ rect: Rect) throws -> PixelBuffer { try TestImages.render(image, rect) }

    @Test func starShineIsABrightStarWithLongVisibleRays() throws {
        // The Xamarin sample's Apple render: radius 20, other inputs at their defaults; a white star whose rays
        // cross most of a 320-pixel frame.
        let star = try TestImages.filter("CIStarShineGenerator", ["inputRadius": .number(20)])
        let core = try TestImages.pixel(star, x: 150, y: 150)
        #expect(core.x >= 1 && core.y >= 1 && core.z >= 1 && core.w == 1)
        // Along the ray at 0.6 rad, 100 px (5 radii) out: clearly visible; the same distance off the rays: dark.
        let (c, s) = (cos(0.6), sin(0.6))
        let onRay = try TestImages.pixel(star, x: Int(150 + 100 * c), y: Int(150 + 100 * s))
        let offRay = try TestImages.pixel(star, x: Int(150 + 100 * cos(0.6 + .pi / 4)), y: Int(150 + 100 * sin(0.6 + .pi / 4)))
        #expect(onRay.w > 0.5, "on the ray: \(onRay)")
        #expect(offRay.w < 0.1, "between the rays: \(offRay)")
        // The perpendicular ray too, and still visible 200 px out.
        let far = try TestImages.pixel(star, x: Int(150 - 200 * s), y: Int(150 + 200 * c))
        #expect(far.w > 0.15, "far along the second ray: \(far)")
    }
}

extension LookFixesTests {
    /// Apple's iOS 7 render (Xamarin docs) shows a rectangular lattice of period 2 × width at the default right
    /// angle, not the diamond lattice this test once demanded: the cell [0, w]² beside the centre mirrored across
    /// its sides. Core Image passes CIParallelogramTile the same lattice and cell, so the two now agree.
    @Test func fourfoldReflectedTileMirrorsTheCellBesideTheCentre() throws {
        let image = TestImages.pattern(width: 64, height: 48)
        let values: [String: FilterValue] = ["inputImage": .image(image), "inputCenter": .vector([30, 20]),
                                             "inputWidth": .number(16)]
        var offGrid = values
        offGrid["inputCenter"] = .vector([30.3, 20.1])
        let shifted = try TestImages.filter("CIFourfoldReflectedTile", offGrid)
        try TileEffectTests.expectPeriodic(shifted, period: (32, 0), "fourfold reflected x", tolerance: 1e-3)
        try TileEffectTests.expectPeriodic(shifted, period: (0, 32), "fourfold reflected y", tolerance: 1e-3)
        let out = try TestImages.filter("CIFourfoldReflectedTile", values)
        // Mirrors through the centre along both axes; the quarter x, y ≥ centre is the source.
        let src = try TestImages.render(image)
        let b = try TestImages.render(out, Rect(x: 0, y: 0, width: 64, height: 48))
        for (dx, dy) in [(3, 2), (6, 1), (1, 5)] {
            let p = b.pixel(x: 30 + dx, y: 20 + dy)
            #expect(close(p, src.pixel(x: 30 + dx, y: 20 + dy), tolerance: 1e-4))
            #expect(close(p, b.pixel(x: 29 - dx, y: 20 + dy), tolerance: 1e-4), "mirror in x (\(dx), \(dy))")
            #expect(close(p, b.pixel(x: 30 + dx, y: 19 - dy), tolerance: 1e-4), "mirror in y (\(dx), \(dy))")
        }
        let parallelogram = try TestImages.render(try TestImages.filter("CIParallelogramTile", values),
                                                  Rect(x: 0, y: 0, width: 64, height: 48))
        #expect(TestImages.maxDifference(b, parallelogram) < 1e-5)
    }

    @Test func opTileHasNoTransparentBandsAndCoversThePlane() throws {
        let image = TestImages.make(width: 120, height: 80) { x, y in Pixel(Float(x) / 120, Float(y) / 80, 0.5, 1) }
        let out = try TestImages.filter("CIOpTile", ["inputImage": .image(image), "inputCenter": .vector([60, 40]),
                                                      "inputWidth": .number(20)])
        // Inside the image and far outside it: every pixel opaque (the review found transparent bands).
        for rect in [Rect(x: 0, y: 0, width: 120, height: 80), Rect(x: -300, y: -200, width: 120, height: 80)] {
            let b = try TestImages.render(out, rect)
            var transparent = 0
            for i in 0..<b.rect.area where b.pixels[i].w < 0.999 { transparent += 1 }
            #expect(transparent == 0, "\(rect): \(transparent) transparent pixels")
        }
        // A cell far outside shows the same as the cell whose centre is whole image sizes away, inside.
        #expect(close(try TestImages.pixel(out, x: 62 + 120 * 2, y: 43 - 80 * 3), try TestImages.pixel(out, x: 62, y: 43), tolerance: 1e-4))
        // At scale 1 the image itself is unchanged (the catalogue's identity).
        let identity = try TestImages.filter("CIOpTile", ["inputImage": .image(image), "inputScale": .number(1),
                                                          "inputCenter": .vector([60, 40]), "inputWidth": .number(20)])
        let rect = Rect(x: 0, y: 0, width: 120, height: 80)
        #expect(TestImages.maxDifference(try TestImages.render(identity, rect), try TestImages.render(image, rect)) < 1e-4)
    }
}

extension LookFixesTests {
    @Test func triangleKaleidoscopeLargerThanTheImageHasNoTransparentCorner() throws {
        // The defaults (size 700 at (150, 150)) on a 600×400 photo: the review found a transparent corner.
        let image = TestImages.make(width: 600, height: 400) { x, y in Pixel(Float(x) / 600, Float(y) / 400, 0.3, 1) }
        let out = try TestImages.filter("CITriangleKaleidoscope", ["inputImage": .image(image)])
        let b = try TestImages.render(out, Rect(x: 0, y: 0, width: 600, height: 400))
        var transparent = 0
        for i in 0..<b.rect.area where b.pixels[i].w < 0.999 { transparent += 1 }
        #expect(transparent == 0)
    }
}

extension LookFixesTests {
    /// Counts pixels that are not opaque.
    static func translucentCount(_ b: PixelBuffer) -> Int {
        var n = 0
        for i in 0..<b.rect.area where b.pixels[i].w < 0.999 { n += 1 }
        return n
    }

    @Test func drosteOnANonSquareImageIsOpaqueEverywhere() throws {
        // The review: defaults on a 600×400 image gave a wedge of partly transparent pixels (44,315), and a
        // centred inset gave thin grey (half-transparent) seams.
        let image = TestImages.make(width: 600, height: 400) { x, y in Pixel(Float(x) / 600, Float(y) / 400, 0.4, 1) }
        let rect = Rect(x: 0, y: 0, width: 600, height: 400)
        let defaults = try TestImages.render(try TestImages.filter("CIDroste", ["inputImage": .image(image)]), rect)
        #expect(Self.translucentCount(defaults) == 0)
        let centred = try TestImages.render(try TestImages.filter("CIDroste", [
            "inputImage": .image(image), "inputInsetPoint0": .vector([200, 130]), "inputInsetPoint1": .vector([400, 270]),
        ]), rect)
        #expect(Self.translucentCount(centred) == 0)
    }
}

extension LookFixesTests {
    /// Mean absolute difference of luminance between neighbours (both directions): how sharp a render is.
    static func gradientEnergy(_ b: PixelBuffer) -> Double {
        let w = ColorMath.lumaWeights
        func luma(_ x: Int, _ y: Int) -> Double {
            let p = b.pixel(x: x, y: y)
            return Double(ColorMath.sRGB(fromLinear: p.x * w.x + p.y * w.y + p.z * w.z))
        }
        var total = 0.0, n = 0
        for y in b.rect.y..<(b.rect.maxY - 1) {
            for x in b.rect.x..<(b.rect.maxX - 1) {
                total += abs(luma(x + 1, y) - luma(x, y)) + abs(luma(x, y + 1) - luma(x, y)); n += 2
            }
        }
        return total / Double(n)
    }

    @Test func edgePreserveUpsampleIsAtLeastAsSharpAsBilinearAndCloserToTheGuide() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let guide = try ImageFile.read(root.appendingPathComponent("SampleImages/coffee.png").path)
            .cropped(to: Rect(x: 0, y: 0, width: 240, height: 160))
        let full = try TestImages.render(guide)
        // The small image: 4×4 box averages of the guide (60×40).
        let small = TestImages.make(width: 60, height: 40) { x, y in
            var sum = Pixel(0, 0, 0, 0)
            for j in 0..<4 { for i in 0..<4 { sum += full.pixel(x: 4 * x + i, y: 4 * y + j) } }
            return sum / 16
        }
        func upsample(_ spatial: Double) throws -> PixelBuffer {
            try TestImages.render(try TestImages.filter("CIEdgePreserveUpsampleFilter", [
                "inputImage": .image(guide), "inputSmallImage": .image(small), "inputSpatialSigma": .number(spatial)]))
        }
        let edgePreserving = try upsample(3), bilinear = try upsample(0)
        let (sharp, plain) = (Self.gradientEnergy(edgePreserving), Self.gradientEnergy(bilinear))
        print("CIEdgePreserveUpsampleFilter gradient energy \(sharp), bilinear \(plain), guide \(Self.gradientEnergy(full))")
        #expect(sharp >= plain)
        // Following the guide's edges brings the result closer to the guide than bilinear gets.
        func meanSquaredError(_ a: PixelBuffer) -> Float {
            var e: Float = 0
            for i in 0..<a.rect.area { let d = a.pixels[i] - full.pixels[i]; e += (d * d).sum() }
            return e / Float(a.rect.area)
        }
        #expect(meanSquaredError(edgePreserving) < meanSquaredError(bilinear))
    }
}
