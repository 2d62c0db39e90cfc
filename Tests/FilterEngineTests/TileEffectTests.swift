import Foundation
import Testing
@testable import FilterEngine

/// Tile effects: infinite extents, periodicity, and known source positions.
@Suite struct TileEffectTests {
    static let names = ["CIAffineTile", "CIPerspectiveTile", "CIFourfoldTranslatedTile", "CIFourfoldReflectedTile",
                        "CIParallelogramTile", "CIFourfoldRotatedTile", "CIEightfoldReflectedTile",
                        "CIGlideReflectedTile", "CISixfoldRotatedTile", "CISixfoldReflectedTile",
                        "CITwelvefoldReflectedTile", "CITriangleTile", "CITriangleKaleidoscope", "CIOpTile"]

    static let image = TestImages.pattern(width: 64, height: 48)

    @Test func tilesAreInfinite() throws {
        for name in Self.names {
            let out = try TestImages.filter(name, ["inputImage": .image(Self.image)])
            #expect(out.extent.isInfinite, "\(name)")
        }
    }

    /// Renders a window and checks pixel p equals pixel p + period.
    static func expectPeriodic(_ out: Image, period: (Int, Int), _ label: String, tolerance: Float = 1e-4) throws {
        let buffer = try TestImages.render(out, Rect(x: -40, y: -40, width: 200, height: 200))
        var worst: Float = 0
        for y in stride(from: -30, to: 60, by: 7) {
            for x in stride(from: -30, to: 60, by: 5) {
                let a = buffer.pixel(x: x, y: y), b = buffer.pixel(x: x + period.0, y: y + period.1)
                worst = max(worst, largestComponent(a - b))
            }
        }
        #expect(worst <= tolerance, "\(label): \(worst)")
    }

    @Test func squareTilesRepeatWithTheirPeriod() throws {
        let base: [String: FilterValue] = ["inputImage": .image(Self.image), "inputCenter": .vector([30, 20]),
                                           "inputWidth": .number(16)]
        var values = base
        try Self.expectPeriodic(try TestImages.filter("CIFourfoldTranslatedTile", values), period: (16, 0), "translated x")
        try Self.expectPeriodic(try TestImages.filter("CIFourfoldTranslatedTile", values), period: (0, 16), "translated y")
        for name in ["CIParallelogramTile", "CIFourfoldRotatedTile", "CIEightfoldReflectedTile"] {
            try Self.expectPeriodic(try TestImages.filter(name, values), period: (32, 0), name)
            try Self.expectPeriodic(try TestImages.filter(name, values), period: (0, 32), name)
        }
        try Self.expectPeriodic(try TestImages.filter("CIGlideReflectedTile", values), period: (32, 0), "glide")
        try Self.expectPeriodic(try TestImages.filter("CIGlideReflectedTile", values), period: (0, 16), "glide")
        values["inputTransform"] = .transform(AffineTransform(a: 0.5, b: 0, c: 0, d: 0.25, tx: 3, ty: 1))
        values["inputCenter"] = nil; values["inputWidth"] = nil
        try Self.expectPeriodic(try TestImages.filter("CIAffineTile", values), period: (32, 12), "affine")
    }

    @Test func hexagonalTilesRepeatWithTheirPeriod() throws {
        // Width 20 at angle 0: lattice vectors (0, 20) and (10√3, 10); along y the period is exact in pixels.
        let values: [String: FilterValue] = ["inputImage": .image(Self.image), "inputCenter": .vector([30, 20]),
                                             "inputWidth": .number(20)]
        for name in ["CISixfoldRotatedTile", "CISixfoldReflectedTile", "CITwelvefoldReflectedTile"] {
            try Self.expectPeriodic(try TestImages.filter(name, values), period: (0, 20), name, tolerance: 1e-3)
        }
    }

    @Test func tilesReadTheSourceInsideTheirCentralTile() throws {
        let src = try TestImages.render(Self.image)
        let values: [String: FilterValue] = ["inputImage": .image(Self.image), "inputCenter": .vector([30, 20]),
                                             "inputWidth": .number(16)]
        // The central tile of the square tilings is the source itself (centred on inputCenter).
        for name in ["CIFourfoldTranslatedTile", "CIParallelogramTile",
                     "CIFourfoldRotatedTile", "CIGlideReflectedTile", "CIOpTile"] {
            var v = values
            if name == "CIOpTile" { v["inputScale"] = .number(1) }
            let out = try TestImages.filter(name, v)
            for (x, y) in [(25, 15), (33, 26), (30, 20)] {
                #expect(close(try TestImages.pixel(out, x: x, y: y), src.pixel(x: x, y: y), tolerance: 1e-4), "\(name) (\(x), \(y))")
            }
        }
        // Parallelogram (a rectangle at the default right angle): the tile to the right is the mirror image:
        // x = 38 + k ↔ 37 - k.
        let reflected = try TestImages.filter("CIParallelogramTile", values)
        #expect(close(try TestImages.pixel(reflected, x: 40, y: 20), src.pixel(x: 35, y: 20), tolerance: 1e-4))
        // Rotated: the tile to the right is the central one turned a quarter turn about its top-right corner
        // (38, 28): (x, y) → (38 - (y - 28), 28 + (x - 38)) read back, i.e. pixel (40, 22) shows (32, 26) … in
        // pixel-centre terms (40.5, 22.5) → (38 + (22.5 - 28), 28 - (40.5 - 38)) = (32.5, 25.5).
        let rotated = try TestImages.filter("CIFourfoldRotatedTile", values)
        #expect(close(try TestImages.pixel(rotated, x: 40, y: 22), src.pixel(x: 32, y: 25), tolerance: 1e-4))
        // Glide: the next column is the central tile flipped vertically about y = 20.
        let glide = try TestImages.filter("CIGlideReflectedTile", values)
        #expect(close(try TestImages.pixel(glide, x: 40, y: 23), src.pixel(x: 24, y: 16), tolerance: 1e-4))
    }

    @Test func affineTileWithIdentityRepeatsTheImage() throws {
        let out = try TestImages.filter("CIAffineTile", ["inputImage": .image(Self.image)])
        let src = try TestImages.render(Self.image)
        #expect(try TestImages.pixel(out, x: 10, y: 7) == src.pixel(x: 10, y: 7))
        #expect(try TestImages.pixel(out, x: 10 + 64 * 3, y: 7 - 48 * 2) == src.pixel(x: 10, y: 7))
    }

    @Test func perspectiveTileWithTheImagesCornersRepeatsTheImage() throws {
        var values = GeometryAdjustmentTests.corners(Self.image.extent)
        values["inputImage"] = .image(Self.image)
        let out = try TestImages.filter("CIPerspectiveTile", values)
        let src = try TestImages.render(Self.image)
        #expect(close(try TestImages.pixel(out, x: 12, y: 9), src.pixel(x: 12, y: 9), tolerance: 1e-4))
        #expect(close(try TestImages.pixel(out, x: 12 - 64, y: 9 + 96), src.pixel(x: 12, y: 9), tolerance: 1e-4))
    }

    @Test func twelvefoldIsSymmetricAboutItsCentre() throws {
        // Six mirrors through the centre: turning a point by 60° or mirroring it across the x axis shows the same.
        let out = try TestImages.filter("CITwelvefoldReflectedTile", ["inputImage": .image(Self.image),
            "inputCenter": .vector([32.5, 24.5]), "inputWidth": .number(30)])
        let buffer = try TestImages.render(out, Rect(x: 0, y: 0, width: 64, height: 48))
        // Offsets (dx, dy) from the centre pixel (32, 24); the mirror across the x axis is (dx, -dy).
        for (dx, dy) in [(5, 3), (2, 7), (9, 1)] {
            let a = buffer.pixel(x: 32 + dx, y: 24 + dy), b = buffer.pixel(x: 32 + dx, y: 24 - dy)
            #expect(close(a, b, tolerance: 1e-4), "(\(dx), \(dy))")
            let c = buffer.pixel(x: 32 - dx, y: 24 + dy)
            #expect(close(a, c, tolerance: 1e-4), "(\(dx), \(dy)) mirrored in y")
        }
    }

    @Test func kaleidoscopeMirrorsTheWedgeAndSizesTheExtent() throws {
        let out = try TestImages.filter("CIKaleidoscope", ["inputImage": .image(Self.image), "inputCount": .number(3),
                                                          "inputCenter": .vector([10, 10])])
        // Farthest corner (64, 48) is √(54² + 38²) ≈ 66.03 away: [10 - 66.03, 10 + 66.03] rounded out.
        #expect(out.extent == Rect(x: -57, y: -57, width: 134, height: 134))
        let src = try TestImages.render(Self.image)
        // Inside the first wedge (angle 0..60°) the source shows through; its mirror below the axis too.
        #expect(close(try TestImages.pixel(out, x: 30, y: 15), src.pixel(x: 30, y: 15), tolerance: 1e-4))
        #expect(close(try TestImages.pixel(out, x: 30, y: 4), src.pixel(x: 30, y: 15), tolerance: 1e-4))
    }

    @Test func zeroWidthShowsTheCentreColourEverywhere() throws {
        let src = try TestImages.render(Self.image)
        for name in ["CIFourfoldTranslatedTile", "CISixfoldRotatedTile", "CIEightfoldReflectedTile"] {
            let out = try TestImages.filter(name, ["inputImage": .image(Self.image), "inputWidth": .number(0),
                                                   "inputCenter": .vector([20.5, 10.5])])
            #expect(close(try TestImages.pixel(out, x: -300, y: 77), src.pixel(x: 20, y: 10), tolerance: 1e-3), "\(name)")
        }
        let flat = try TestImages.filter("CIFourfoldTranslatedTile", ["inputImage": .image(Self.image), "inputAcuteAngle": .number(0)])
        let buffer = try TestImages.render(flat, Rect(x: 0, y: 0, width: 32, height: 32))
        RegistryTests.checkFinite(buffer, "acute 0")
    }

    /// The source pixels a render asks for (the plan's request for the source node).
    static func sourceRequest(_ out: Image, source: Image, rect: Rect) -> PixelRect {
        let plan = RenderPlan(root: out, rect: PixelRect(covering: rect))
        let index = plan.nodes.firstIndex { $0 === source }!
        return plan.requests[index]
    }

    @Test func tilesAskOnlyForTheirSourceTile() throws {
        let big = TestImages.pattern(width: 400, height: 300)
        let out = try TestImages.filter("CITwelvefoldReflectedTile", ["inputImage": .image(big),
            "inputCenter": .vector([200, 150]), "inputWidth": .number(20)])
        let asked = Self.sourceRequest(out, source: big, rect: Rect(x: -5000, y: 3000, width: 512, height: 512))
        // The fundamental region lies within 0.6 × width of the centre (plus a pixel or two for sampling).
        #expect(PixelRect(x: 185, y: 135, width: 30, height: 30).contains(asked), "\(asked)")
        let scaled = try TestImages.filter("CILanczosScaleTransform", ["inputImage": .image(big), "inputScale": .number(0.5)])
        // A decoded picture is read row by row by the scale's horizontal pass (Resampling.horizontalFromSource),
        // which takes only the columns its taps need: a crop of the output renders as the same part of the whole.
        let crop = Rect(x: 50, y: 50, width: 10, height: 10)
        let part = try TestImages.render(scaled, crop)
        let whole = try TestImages.render(scaled, scaled.extent)
        for y in 50..<60 {
            for x in 50..<60 {
                #expect(part.row(y)[x - 50] == whole.row(y)[x - whole.rect.x], "(\(x), \(y))")
            }
        }
    }

    @Test func triangleKaleidoscopeFadesWithDistance() throws {
        // A constant image folds to itself; only the decay remains: decay^((d - h/3) / h) beyond the central
        // triangle's inscribed circle (h the triangle's height), 1 inside it.
        let c = Pixel(0.2, 0.4, 0.6, 1)
        let image = TestImages.make(width: 64, height: 48) { _, _ in c }
        let out = try TestImages.filter("CITriangleKaleidoscope", ["inputImage": .image(image),
            "inputPoint": .vector([32.5, 24.5]), "inputSize": .number(30), "inputDecay": .number(0.5)])
        #expect(out.extent.isInfinite)
        #expect(close(try TestImages.pixel(out, x: 32, y: 24), c))
        let h = 30 * Float(3).squareRoot() / 2
        let f = pow(0.5, (40 - h / 3) / h)
        // The colour fades, the tile stays opaque.
        #expect(close(try TestImages.pixel(out, x: 72, y: 24), Pixel(c.x * f, c.y * f, c.z * f, 1), tolerance: 1e-4))
        let none = try TestImages.filter("CITriangleKaleidoscope", ["inputImage": .image(image),
            "inputPoint": .vector([32.5, 24.5]), "inputSize": .number(30), "inputDecay": .number(1)])
        #expect(close(try TestImages.pixel(none, x: -300, y: 500), c))
    }
}
