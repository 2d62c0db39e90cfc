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
        // Core Image's cell has its corner on inputCenter: [30, 46] × [20, 36] is the source itself.
        for name in ["CIFourfoldTranslatedTile", "CIFourfoldReflectedTile", "CIParallelogramTile",
                     "CIFourfoldRotatedTile", "CIGlideReflectedTile"] {
            let out = try TestImages.filter(name, values)
            for (x, y) in [(31, 21), (40, 27), (45, 35)] {
                #expect(close(try TestImages.pixel(out, x: x, y: y), src.pixel(x: x, y: y), tolerance: 1e-4), "\(name) (\(x), \(y))")
            }
        }
        // The op tile's cells are centred on inputCenter.
        var op = values
        op["inputScale"] = .number(1)
        let opOut = try TestImages.filter("CIOpTile", op)
        for (x, y) in [(25, 15), (33, 26), (30, 20)] {
            #expect(close(try TestImages.pixel(opOut, x: x, y: y), src.pixel(x: x, y: y), tolerance: 1e-4), "op (\(x), \(y))")
        }
        // Translated: the cell to the right repeats it.
        let translated = try TestImages.filter("CIFourfoldTranslatedTile", values)
        #expect(close(try TestImages.pixel(translated, x: 56, y: 27), src.pixel(x: 40, y: 27), tolerance: 1e-4))
        // Reflected (and parallelogram): the cell to the right is the mirror image across x = 46:
        // pixel centre 48.5 ↔ 43.5.
        for name in ["CIFourfoldReflectedTile", "CIParallelogramTile"] {
            let reflected = try TestImages.filter(name, values)
            #expect(close(try TestImages.pixel(reflected, x: 48, y: 22), src.pixel(x: 43, y: 22), tolerance: 1e-4), "\(name)")
            // and below the centre the mirror across y = 20: 17.5 ↔ 22.5.
            #expect(close(try TestImages.pixel(reflected, x: 33, y: 17), src.pixel(x: 33, y: 22), tolerance: 1e-4), "\(name)")
        }
        // Rotated: left of the centre, the cell turned a quarter turn about the centre: offset (-4.5, 3.5) reads
        // (3.5, 4.5), i.e. pixel (25, 23) shows (33, 24).
        let rotated = try TestImages.filter("CIFourfoldRotatedTile", values)
        #expect(close(try TestImages.pixel(rotated, x: 25, y: 23), src.pixel(x: 33, y: 24), tolerance: 1e-4))
        // Glide, as Apple's iOS 7 render shows it: the cell repeated without reflection.
        let glide = try TestImages.filter("CIGlideReflectedTile", values)
        #expect(close(try TestImages.pixel(glide, x: 56, y: 23), src.pixel(x: 40, y: 23), tolerance: 1e-4))
        #expect(close(try TestImages.pixel(glide, x: 40, y: 7), src.pixel(x: 40, y: 23), tolerance: 1e-4))
    }

    /// Eightfold: period = width; each offset folded to its distance from the nearest multiple of the width, the
    /// larger one along x: the triangle (0, 0), (w/2, 0), (w/2, w/2) beside the centre.
    @Test func eightfoldFoldsIntoTheHalfCellTriangle() throws {
        let src = try TestImages.render(Self.image)
        let values: [String: FilterValue] = ["inputImage": .image(Self.image), "inputCenter": .vector([30, 20]),
                                             "inputWidth": .number(16)]
        let out = try TestImages.filter("CIEightfoldReflectedTile", values)
        try Self.expectPeriodic(out, period: (16, 0), "eightfold x")
        try Self.expectPeriodic(out, period: (0, 16), "eightfold y")
        // Offset (3.5, 5.5) → (5.5, 3.5); offset (19.5, 5.5) → (3.5, 5.5) → (5.5, 3.5); (-2.5, 1.5) → (2.5, 1.5).
        #expect(close(try TestImages.pixel(out, x: 33, y: 25), src.pixel(x: 35, y: 23), tolerance: 1e-4))
        #expect(close(try TestImages.pixel(out, x: 49, y: 25), src.pixel(x: 35, y: 23), tolerance: 1e-4))
        #expect(close(try TestImages.pixel(out, x: 27, y: 21), src.pixel(x: 32, y: 21), tolerance: 1e-4))
    }

    /// Sixfold reflected (and triangle tile): the triangle (w/√3, 0), (2w/√3, 0), (w√3/2, w/2) beside the centre
    /// is the source itself; across the axis, its mirror image.
    @Test func sixfoldReflectedReadsCoreImagesTriangle() throws {
        let src = try TestImages.render(Self.image)
        let values: [String: FilterValue] = ["inputImage": .image(Self.image), "inputCenter": .vector([30, 20]),
                                             "inputWidth": .number(20)]
        for name in ["CISixfoldReflectedTile", "CITriangleTile"] {
            let out = try TestImages.filter(name, values)
            // Offset (17.5, 4.5) lies inside the triangle (x from 14.1 to 20.5 at that height).
            #expect(close(try TestImages.pixel(out, x: 47, y: 24), src.pixel(x: 47, y: 24), tolerance: 1e-4), "\(name)")
            #expect(close(try TestImages.pixel(out, x: 47, y: 15), src.pixel(x: 47, y: 24), tolerance: 1e-4), "\(name)")
        }
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

    @Test func triangleKaleidoscopeFadesPerReflection() throws {
        // A constant image folds to itself; only the decay remains: decay^k for a copy k mirror lines away from
        // the central triangle (the fit of Apple's iOS 7 render).
        let c = Pixel(0.2, 0.4, 0.6, 1)
        let image = TestImages.make(width: 64, height: 48) { _, _ in c }
        let out = try TestImages.filter("CITriangleKaleidoscope", ["inputImage": .image(image),
            "inputPoint": .vector([32.5, 24.5]), "inputSize": .number(30), "inputDecay": .number(0.5),
            "inputRotation": .number(0)])
        #expect(out.extent.isInfinite)
        #expect(close(try TestImages.pixel(out, x: 32, y: 24), c))
        // Along the axis to the right: the central triangle's side at offset 10, a line of the second family at
        // 20, one of the first at 40. Offsets 15 and 38 lie one and two lines away.
        #expect(close(try TestImages.pixel(out, x: 47, y: 24), Pixel(c.x * 0.5, c.y * 0.5, c.z * 0.5, 1), tolerance: 1e-4))
        // The colour fades, the tile stays opaque.
        #expect(close(try TestImages.pixel(out, x: 70, y: 24), Pixel(c.x * 0.25, c.y * 0.25, c.z * 0.25, 1), tolerance: 1e-4))
        let none = try TestImages.filter("CITriangleKaleidoscope", ["inputImage": .image(image),
            "inputPoint": .vector([32.5, 24.5]), "inputSize": .number(30), "inputDecay": .number(1)])
        #expect(close(try TestImages.pixel(none, x: -300, y: 500), c))
    }
}
