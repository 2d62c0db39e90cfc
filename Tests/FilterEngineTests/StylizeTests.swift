import Foundation
import Testing
@testable import FilterEngine

/// Pixel effects and stylize filters on small images with pixels worked out by hand.
@Suite struct StylizeTests {
    static let grey = Pixel(0.3, 0.5, 0.2, 1)
    static func constant(_ p: Pixel = grey, _ w: Int = 24, _ h: Int = 20) -> Image {
        TestImages.make(width: w, height: h) { _, _ in p }
    }
    /// Red and green ramps: a bilinear sample anywhere inside gives back the coordinates it was taken at.
    static func ramp(_ w: Int = 64, _ h: Int = 64) -> Image {
        TestImages.make(width: w, height: h) { x, y in Pixel((Float(x) + 0.5) / 100, (Float(y) + 0.5) / 100, 0, 1) }
    }
    static func stepEdge() -> Image {
        TestImages.make(width: 8, height: 8) { x, _ in x >= 4 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
    }

    // MARK: Pixellate

    /// The extent grows by half a square (Apple's iOS 7 render: 646×483 from (−4, −4) for 638×475 at scale 8);
    /// squares whose middle lies outside the input are transparent, those whose middle is on its edge half so.
    @Test func pixellateExtentGrowsByHalfASquare() throws {
        let image = Self.constant(Self.grey, 10, 10)
        let out = try TestImages.filter("CIPixellate", ["inputImage": .image(image), "inputScale": .number(4),
                                                        "inputCenter": .vector([0, 0])])
        #expect(out.extent == Rect(x: -2, y: -2, width: 14, height: 14))
        // Square [−4, 0) has its middle at −2: nothing there. Square [8, 12) has its middle at 10, the input's
        // edge: half the edge pixel. Square [4, 8) is inside.
        #expect(try TestImages.pixel(out, x: -1, y: 5) == Pixel(0, 0, 0, 0))
        #expect(close(try TestImages.pixel(out, x: 9, y: 5), Pixel(0.15, 0.25, 0.1, 0.5)))
        #expect(close(try TestImages.pixel(out, x: 5, y: 5), Self.grey))
        let odd = try TestImages.filter("CIPixellate", ["inputImage": .image(image), "inputScale": .number(5)])
        #expect(odd.extent == Rect(x: -3, y: -3, width: 16, height: 16))
        let flower = TestImages.make(width: 638, height: 475) { _, _ in Self.grey }
        let apple = try TestImages.filter("CIPixellate", ["inputImage": .image(flower), "inputScale": .number(8)])
        #expect(apple.extent == Rect(x: -4, y: -4, width: 646, height: 483))
        // Opaque exactly on the squares of the grid through (150, 150) that have their middle inside: [−2, 638) × [−2, 478).
        #expect(try TestImages.pixel(apple, x: -3, y: 100).w == 0)
        #expect(try TestImages.pixel(apple, x: -2, y: 100).w == 1)
        #expect(try TestImages.pixel(apple, x: 637, y: 477).w == 1)
        #expect(try TestImages.pixel(apple, x: 638, y: 100).w == 0)
        #expect(try TestImages.pixel(apple, x: 100, y: 478).w == 0)
    }

    @Test func pixellateOfConstantIsConstant() throws {
        let out = try TestImages.filter("CIPixellate", ["inputImage": .image(Self.constant()), "inputScale": .number(7)])
        // Grid lines through 150 every 7: 3, 10, 17, 24. The squares with their middle inside the 24×20 input
        // cover [3, 24) × [3, 17) and take its colour; the square [−4, 3) reads at −0.5, outside: transparent.
        let buffer = try TestImages.render(out, Rect(x: 3, y: 3, width: 21, height: 14))
        for i in 0..<buffer.rect.area { #expect(close(buffer.pixels[i], Self.grey)) }
        #expect(try TestImages.pixel(out, x: 1, y: 5) == Pixel(0, 0, 0, 0))
    }

    @Test func pixellateCellsTakeTheSampleAtTheirCentre() throws {
        let image = Self.ramp()
        // Scale 5 from the origin: the cell [5, 10) × [10, 15) has its centre at (7.5, 12.5), pixel (7, 12)'s centre.
        let out = try TestImages.filter("CIPixellate", ["inputImage": .image(image), "inputScale": .number(5),
                                                        "inputCenter": .vector([0, 0])])
        for (x, y) in [(5, 10), (9, 14), (7, 12), (6, 13)] {
            #expect(close(try TestImages.pixel(out, x: x, y: y), Pixel(0.075, 0.125, 0, 1)))
        }
        // Scale 4: the centre (6, 6) of the cell [4, 8)² lies between four pixels; bilinear gives their mean.
        let even = try TestImages.filter("CIPixellate", ["inputImage": .image(image), "inputScale": .number(4),
                                                         "inputCenter": .vector([0, 0])])
        #expect(close(try TestImages.pixel(even, x: 4, y: 7), Pixel(0.06, 0.06, 0, 1)))
    }

    // MARK: Hexagonal pixellate

    @Test func hexagonalPixellate() throws {
        let constant = try TestImages.filter("CIHexagonalPixellate", ["inputImage": .image(Self.constant())])
        let buffer = try TestImages.render(constant)
        for i in 0..<buffer.rect.area { #expect(close(buffer.pixels[i], Self.grey)) }
        #expect(constant.extent == Rect(x: -4, y: -4, width: 32, height: 28))
        // With the centre at (20.5, 20.5) and spacing 10, pixels within 4 px of (20.5, 20.5) take its colour,
        // and so do those around the neighbouring centres (30.5, 20.5) and (25.5, 20.5 + 5√3).
        let out = try TestImages.filter("CIHexagonalPixellate", ["inputImage": .image(Self.ramp()),
                                                                 "inputScale": .number(10), "inputCenter": .vector([20.5, 20.5])])
        for (x, y) in [(20, 20), (23, 21), (17, 18)] {
            #expect(close(try TestImages.pixel(out, x: x, y: y), Pixel(0.205, 0.205, 0, 1)))
        }
        #expect(close(try TestImages.pixel(out, x: 31, y: 19), Pixel(0.305, 0.205, 0, 1)))
        #expect(close(try TestImages.pixel(out, x: 25, y: 29), Pixel(0.255, Float(20.5 + 5 * 3.0.squareRoot()) / 100, 0, 1)))
        // Core Image's description: each hexagon is the average of the pixels it replaces. One white pixel 1.5 px
        // right of a centre spreads over the whole hexagon (area √3/2 · 10² ≈ 86.6 px): about 1/87 everywhere in
        // it, where sampling the centre alone would give black.
        let dot = TestImages.make(width: 40, height: 40) { x, y in x == 22 && y == 20 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
        let spread = try TestImages.filter("CIHexagonalPixellate", ["inputImage": .image(dot), "inputScale": .number(10),
                                                                    "inputCenter": .vector([20.5, 20.5])])
        for (x, y) in [(20, 20), (17, 22), (23, 18)] {
            let p = try TestImages.pixel(spread, x: x, y: y)
            #expect(p.x > 0.009 && p.x < 0.014 && p.w == 1, "(\(x), \(y)): \(p)")
        }
        #expect(try TestImages.pixel(spread, x: 31, y: 20).x == 0)
    }

    // MARK: Crystallize

    @Test func crystallizeIsAVoronoiDiagramOfItsSeeds() throws {
        let constant = try TestImages.filter("CICrystallize", ["inputImage": .image(Self.constant()), "inputRadius": .number(6)])
        #expect(constant.extent == Rect(x: -6, y: -6, width: 36, height: 32))
        let cbuffer = try TestImages.render(constant)
        for i in 0..<cbuffer.rect.area { #expect(close(cbuffer.pixels[i], Self.grey)) }

        // On the ramp each pixel's colour tells where its seed is. Each seed must be within reach, and no
        // neighbour's seed may be nearer to the pixel than its own (the Voronoi property).
        let radius: Float = 8
        let out = try TestImages.filter("CICrystallize", ["inputImage": .image(Self.ramp()), "inputRadius": .number(8),
                                                          "inputCenter": .vector([0, 0])])
        let rect = Rect(x: 16, y: 16, width: 32, height: 32)
        let buffer = try TestImages.render(out, rect)
        func seed(_ x: Int, _ y: Int) -> SIMD2<Float> {
            let p = buffer.pixel(x: x, y: y)
            return SIMD2(p.x * 100, p.y * 100)
        }
        var seeds = Set<SIMD2<Float>>()
        for y in 17..<47 {
            for x in 17..<47 {
                let c = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
                let own = seed(x, y)
                seeds.insert((own * 8).rounded(.toNearestOrEven))
                let d = ((own - c) * (own - c)).sum()
                #expect(d <= 8 * radius * radius + 0.1)
                for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                    let other = seed(nx, ny)
                    #expect(d <= ((other - c) * (other - c)).sum() + 0.05)
                }
            }
        }
        // About one seed per 8×8 cell over the 30×30 area.
        #expect(seeds.count >= 9 && seeds.count <= 40)
    }

    // MARK: Pointillize

    @Test func pointillizeDotsOfTheInputColour() throws {
        let out = try TestImages.filter("CIPointillize", ["inputImage": .image(Self.constant(Self.grey, 60, 60)),
                                                          "inputRadius": .number(5)])
        #expect(out.extent == Rect(x: -5, y: -5, width: 70, height: 70))
        let buffer = try TestImages.render(out, Rect(x: 0, y: 0, width: 60, height: 60))
        var covered = 0
        for i in 0..<buffer.rect.area {
            let p = buffer.pixels[i]
            // Every pixel is the input colour times its dot coverage.
            #expect(close(p, Self.grey * p.w))
            if p.w > 0.999 { covered += 1 }
        }
        #expect(covered > buffer.rect.area / 4 && covered < buffer.rect.area)
    }

    @Test func cellsOfOnePixelAreTheIdentity() throws {
        let image = TestImages.pattern()
        let original = try TestImages.render(image)
        for (name, key) in [("CIHexagonalPixellate", "inputScale"), ("CICrystallize", "inputRadius"), ("CIPointillize", "inputRadius")] {
            let out = try TestImages.filter(name, ["inputImage": .image(image), key: .number(1)])
            #expect(TestImages.maxDifference(try TestImages.render(out, image.extent), original) == 0, "\(name)")
        }
        // Pixellate at scale 1 from an integer centre samples every pixel at its own centre.
        // (The extent grows by half a pixel, in whole pixels one, where the squares read outside: transparent.)
        let one = try TestImages.filter("CIPixellate", ["inputImage": .image(image), "inputScale": .number(1)])
        #expect(one.extent == image.extent.insetBy(dx: -1, dy: -1))
        #expect(TestImages.maxDifference(try TestImages.render(one, image.extent), original) < 1e-6)
    }

    // MARK: Edges and gradients

    @Test func edgesOfAFlatImageAreBlack() throws {
        let out = try TestImages.filter("CIEdges", ["inputImage": .image(Self.constant())])
        #expect(out.extent == Self.constant().extent)
        let buffer = try TestImages.render(out)
        for i in 0..<buffer.rect.area { #expect(close(buffer.pixels[i], Pixel(0, 0, 0, 1))) }
    }

    @Test func edgesOfAStep() throws {
        // A 0→1 step between columns 3 and 4: the 3×3 Sobel sum is (1 + 2 + 1) × 1 = 4 on both sides.
        let out = try TestImages.filter("CIEdges", ["inputImage": .image(Self.stepEdge()), "inputIntensity": .number(0.25)])
        #expect(close(try TestImages.pixel(out, x: 3, y: 4), Pixel(1, 1, 1, 1)))
        #expect(close(try TestImages.pixel(out, x: 4, y: 4), Pixel(1, 1, 1, 1)))
        #expect(close(try TestImages.pixel(out, x: 1, y: 4), Pixel(0, 0, 0, 1)))
        let none = try TestImages.filter("CIEdges", ["inputImage": .image(Self.stepEdge()), "inputIntensity": .number(0)])
        #expect(close(try TestImages.pixel(none, x: 3, y: 4), Pixel(0, 0, 0, 1)))
    }

    @Test func sobelAndGaborGradientsOfARamp() throws {
        // Red rises 0.01 per pixel to the right, green 0.01 upward: inside, Sobel gives the slopes, Gabor twice
        // them (its scale fitted on Apple's iOS 14 render: the difference across two pixels).
        for (name, gain) in [("CISobelGradients", Float(1)), ("CIGaborGradients", Float(2))] {
            let out = try TestImages.filter(name, ["inputImage": .image(Self.ramp(16, 16))])
            #expect(out.extent == Rect(x: 0, y: 0, width: 16, height: 16))
            let p = try TestImages.pixel(out, x: 8, y: 8)
            // The strongest channel: red and green tie, so either gives its slope: (slope, 0) or (0, slope).
            #expect(close(p, Pixel(0.01 * gain, 0, 0, 1), tolerance: 1e-5) || close(p, Pixel(0, 0.01 * gain, 0, 1), tolerance: 1e-5),
                    "\(name) \(p)")
            let flat = try TestImages.pixel(try TestImages.filter(name, ["inputImage": .image(Self.constant())]), x: 5, y: 5)
            #expect(close(flat, Pixel(0, 0, 0, 1)))
        }
    }

    // MARK: Height field and shaded material

    @Test func heightFieldFromMask() throws {
        let mask = TestImages.make(width: 40, height: 40) { x, y in
            (x >= 10 && x < 30 && y >= 10 && y < 30) ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1)
        }
        let out = try TestImages.filter("CIHeightFieldFromMask", ["inputImage": .image(mask), "inputRadius": .number(5)])
        #expect(out.extent == mask.extent)
        let outside = try TestImages.pixel(out, x: 5, y: 20)
        #expect(close(outside, Pixel(0, 0, 0, 1)))
        let middle = try TestImages.pixel(out, x: 20, y: 20), edge = try TestImages.pixel(out, x: 10, y: 20)
        #expect(middle.x > edge.x && edge.x > 0 && middle.w == 1)
        // Radius 0: no blur, so the height is 0.91 (read as sRGB) where the mask is white.
        let sharp = try TestImages.filter("CIHeightFieldFromMask", ["inputImage": .image(mask), "inputRadius": .number(0)])
        let v = ColorMath.linear(fromSRGB: 0.91)
        #expect(close(try TestImages.pixel(sharp, x: 10, y: 10), Pixel(v, v, v, 1)))
    }

    @Test func shadedMaterialOfAFlatFieldShowsTheBallsCentre() throws {
        let shading = TestImages.make(width: 3, height: 3) { x, y in x == 1 && y == 1 ? Pixel(0.2, 0.4, 0.6, 1) : Pixel(1, 0, 0, 1) }
        let out = try TestImages.filter("CIShadedMaterial", ["inputImage": .image(Self.constant()),
                                                             "inputShadingImage": .image(shading)])
        #expect(out.extent == Self.constant().extent)
        #expect(close(try TestImages.pixel(out, x: 5, y: 5), Pixel(0.2, 0.4, 0.6, 1)))
        // A slope to the right tilts the normal left: the look-up moves left of the centre.
        let tilted = try TestImages.filter("CIShadedMaterial", ["inputImage": .image(Self.ramp(16, 16)),
                                                                "inputShadingImage": .image(shading), "inputScale": .number(100)])
        let p = try TestImages.pixel(tilted, x: 8, y: 8)
        #expect(p.x > 0.3)
    }

    // MARK: Highlight and shadow, sketches

    @Test func highlightShadowAdjust() throws {
        let image = TestImages.pattern()
        let same = try TestImages.filter("CIHighlightShadowAdjust", ["inputImage": .image(image)])
        #expect(TestImages.maxDifference(try TestImages.render(same), try TestImages.render(image)) < 1e-6)
        // The rule fitted on Apple's iOS 7 render: out = c + shadow·(1 − M)²·(c^0.62 − c)
        // − (1 − highlight)·M·c^(1/3)·(1 − c)^2.5, M the largest component (of the neighbourhood).
        /// The adjusted colour of a flat 8×8 image of `colour`.
        func adjusted(_ colour: Pixel, _ values: [String: FilterValue]) throws -> Pixel {
            let flat = Self.constant(colour, 8, 8)
            return try TestImages.pixel(try TestImages.filter("CIHighlightShadowAdjust", values.merging(["inputImage": .image(flat)]) { $1 }),
                                        x: 3, y: 3)
        }
        let grey02 = Pixel(0.2, 0.2, 0.2, 1)
        // Flat linear grey 0.2, radius 0, shadows +1: 0.2 + 0.64·(0.2^0.62 − 0.2) = 0.307949.
        #expect(close(try adjusted(grey02, ["inputShadowAmount": .number(1)]), Pixel(0.307949, 0.307949, 0.307949, 1)))
        // Shadows −1 (no render) deepen along c^(1/0.62): 0.2 + 0.64·(0.2^1.612903 − 0.2) = 0.119732.
        #expect(close(try adjusted(grey02, ["inputShadowAmount": .number(-1)]), Pixel(0.119732, 0.119732, 0.119732, 1)))
        // Apple's case (shadow 1.5, highlight 0.75) on a bright red (0.9, 0.1, 0.05), M = 0.9: the red stays,
        // green falls to 0.021846 and blue to 0 (the highlight term deepens bright colours) ...
        let apple: [String: FilterValue] = ["inputShadowAmount": .number(1.5), "inputHighlightAmount": .number(0.75)]
        #expect(close(try adjusted(Pixel(0.9, 0.1, 0.05, 1), apple), Pixel(0.899865, 0.021846, 0, 1)))
        // ... and on a dark brown (0.05, 0.02, 0.01): every channel lifted along the power curve.
        #expect(close(try adjusted(Pixel(0.05, 0.02, 0.01, 1), apple), Pixel(0.189562, 0.109422, 0.071736, 1)))
        // Highlights 0: white stays white (the term vanishes at 1), mid grey 0.5 falls to 0.5 − 0.5·0.5^(1/3)·0.5^2.5.
        let noHighlights: [String: FilterValue] = ["inputHighlightAmount": .number(0), "inputRadius": .number(2)]
        #expect(close(try adjusted(Pixel(1, 1, 1, 1), noHighlights), Pixel(1, 1, 1, 1)))
        #expect(close(try adjusted(Pixel(0.5, 0.5, 0.5, 1), noHighlights), Pixel(0.429846, 0.429846, 0.429846, 1)))
        // Half-covered, the key is the straight colour's: the same grey at alpha ½ gives the same colour, halved.
        #expect(close(try adjusted(Pixel(0.25, 0.25, 0.25, 0.5), noHighlights), Pixel(0.214923, 0.214923, 0.214923, 0.5)))
    }

    @Test func lineOverlayOutlinesInBlackOnTransparent() throws {
        let flat = try TestImages.filter("CILineOverlay", ["inputImage": .image(Self.constant())])
        #expect(flat.extent == Self.constant().extent)
        let buffer = try TestImages.render(flat)
        for i in 0..<buffer.rect.area { #expect(close(buffer.pixels[i], Pixel(0, 0, 0, 0))) }
        let step = try TestImages.filter("CILineOverlay", ["inputImage": .image(Self.stepEdge())])
        #expect(close(try TestImages.pixel(step, x: 4, y: 4), Pixel(0, 0, 0, 1)))
        #expect(close(try TestImages.pixel(step, x: 0, y: 4), Pixel(0, 0, 0, 0)))
    }

    @Test func edgeWorkAndComicEffect() throws {
        let flat = try TestImages.filter("CIEdgeWork", ["inputImage": .image(Self.constant())])
        #expect(flat.extent == Self.constant().extent)
        #expect(close(try TestImages.pixel(flat, x: 5, y: 5), Pixel(1, 1, 1, 1)))
        // The dark side of a step is inked, the bright side stays paper.
        let step = try TestImages.filter("CIEdgeWork", ["inputImage": .image(Self.stepEdge()), "inputRadius": .number(2)])
        #expect(close(try TestImages.pixel(step, x: 3, y: 4), Pixel(0, 0, 0, 1)))
        #expect(close(try TestImages.pixel(step, x: 4, y: 4), Pixel(1, 1, 1, 1)))
        let comic = try TestImages.filter("CIComicEffect", ["inputImage": .image(Self.stepEdge())])
        #expect(comic.extent == Self.stepEdge().extent)
        // White paper far from the edge stays white; the outline is black.
        #expect(close(try TestImages.pixel(comic, x: 7, y: 4), Pixel(1, 1, 1, 1)))
        #expect(close(try TestImages.pixel(comic, x: 4, y: 4), Pixel(0, 0, 0, 1)))
    }
}
