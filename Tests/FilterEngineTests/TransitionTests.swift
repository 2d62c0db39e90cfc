import Foundation
import Testing
@testable import FilterEngine

/// Transitions: the ends of time, known pixels midway, extents, and Core Image's renders.
@Suite struct TransitionTests {
    static let names = ["CIDissolveTransition", "CISwipeTransition", "CIBarsSwipeTransition", "CIFlashTransition",
                        "CIModTransition", "CICopyMachineTransition", "CIDisintegrateWithMaskTransition",
                        "CIRippleTransition", "CIAccordionFoldTransition", "CIPageCurlTransition",
                        "CIPageCurlWithShadowTransition"]

    static let source = TestImages.pattern(width: 48, height: 40)
    static let target = TestImages.make(width: 48, height: 40) { x, y in
        Pixel(0.1 + Float(y) / 80, 0.6, 0.3 + Float(x) / 100, 1)
    }
    static let a = Pixel(0.8, 0.2, 0.1, 1)
    static let clear = TestImages.make(width: 10, height: 10) { _, _ in Pixel(0, 0, 0, 0) }
    static let b = Pixel(0.1, 0.3, 0.9, 1)
    static func flat(_ p: Pixel, _ w: Int = 100, _ h: Int = 100) -> Image { TestImages.make(width: w, height: h) { _, _ in p } }

    static func transition(_ name: String, time: Double, _ extra: [String: FilterValue] = [:],
                           source: Image = source, target: Image = target) throws -> Image {
        var values: [String: FilterValue] = ["inputImage": .image(source), "inputTargetImage": .image(target),
                                             "inputTime": .number(time)]
        let descriptor = Catalog.builtIn.filter(named: name)!
        for input in descriptor.inputs where input.isImage && values[input.key] == nil {
            values[input.key] = .image(TestImages.pattern(width: 48, height: 40))
        }
        // The ripple lays its light map over everything, flat water showing the map's centre (an opaque centre
        // covers both images, as in Apple's render): a clear map leaves the two images alone.
        if name == "CIRippleTransition", extra["inputShadingImage"] == nil { values["inputShadingImage"] = .image(clear) }
        for (k, v) in extra { values[k] = v }
        return try TestImages.filter(name, values)
    }

    @Test(arguments: names) func timeZeroIsSourceAndOneIsTarget(_ name: String) throws {
        let start = try Self.transition(name, time: 0)
        let end = try Self.transition(name, time: 1)
        #expect(start.extent == Self.source.extent)
        #expect(end.extent == Self.source.extent)
        let rect = Self.source.extent
        #expect(TestImages.maxDifference(try TestImages.render(start, rect), try TestImages.render(Self.source, rect)) < 1e-5)
        #expect(TestImages.maxDifference(try TestImages.render(end, rect), try TestImages.render(Self.target, rect)) < 1e-5)
    }

    @Test(arguments: names) func midwayIsFiniteOverTheUnion(_ name: String) throws {
        let wide = TestImages.make(width: 60, height: 20) { x, _ in Pixel(Float(x) / 60, 0.5, 0.2, 1) }
        for time in [0.25, 0.5, 0.75, 0.97] {
            let out = try Self.transition(name, time: time, target: wide)
            // Bars swipe keeps the source's extent (Core Image's iOS 7 render), the others the union.
            // The accordion's box: as wide as the wider image, its height between the two (the 60×20 target is
            // the lower one, so s = 1 − t), centred between their middles (30 and 24).
            let s = 1 - time
            let expected = name == "CIBarsSwipeTransition" ? Self.source.extent
                : name == "CIAccordionFoldTransition" ? Rect(x: 30 - 6 * s - 30, y: 0, width: 60, height: 20 + 20 * s)
                : Rect(x: 0, y: 0, width: 60, height: 40)
            if name.hasPrefix("CIPageCurl") {
                // Page curls add the curled sheet, which sticks out past the images (Apple's renders; see
                // pageCurlExtentCoversTheCurledSheet).
                #expect(out.extent.union(expected) == out.extent, "\(name)")
            } else {
                #expect(abs(out.extent.minX - expected.minX) < 1e-9 && abs(out.extent.maxX - expected.maxX) < 1e-9
                        && abs(out.extent.minY - expected.minY) < 1e-9 && abs(out.extent.maxY - expected.maxY) < 1e-9,
                        "\(name): \(out.extent)")
            }
            RegistryTests.checkFinite(try TestImages.render(out), "\(name) t=\(time)")
        }
    }

    /// Midway, every number input at its slider and legal extremes still renders finite pixels quickly.
    @Test(arguments: names) func midwayAtExtremes(_ name: String) throws {
        let descriptor = Catalog.builtIn.filter(named: name)!
        let start = Date()
        for input in descriptor.inputs where input.valueClass == .number && input.key != "inputTime" {
            let candidates = [input.sliderMinimum, input.sliderMaximum, input.minimum, input.maximum]
                .compactMap { $0 }.filter { abs($0) <= 10_000 }
            for value in candidates {
                let out = try Self.transition(name, time: 0.5, [input.key: .number(value)])
                RegistryTests.checkFinite(try TestImages.render(out), "\(name).\(input.key)=\(value)")
            }
        }
        #expect(Date().timeIntervalSince(start) < 5, "\(name)")
    }

    /// Bands of one row, many threads and one whole pass give the same pixels (warps and general kernels with
    /// their regions of interest).
    @Test(arguments: names) func tiledEqualsUntiled(_ name: String) throws {
        let extra: [String: FilterValue] = ["inputExtent": .vector([0, 0, 48, 40]), "inputCenter": .vector([20, 18]),
                                            "inputRadius": .number(8), "inputAngle": .number(0.7)]
        let descriptor = Catalog.builtIn.filter(named: name)!
        let out = try Self.transition(name, time: 0.45, extra.filter { descriptor.input($0.key) != nil })
        let whole = try TestImages.render(out, context: RenderContext(options: .init(threads: 1, bandHeight: 10_000)))
        let rows = try TestImages.render(out, context: RenderContext(options: .init(threads: 1, bandHeight: 1)))
        let many = try TestImages.render(out, context: RenderContext(options: .init(threads: 4, bandHeight: 7)))
        #expect(TestImages.maxDifference(whole, rows) < 1e-6, "\(name)")
        #expect(TestImages.maxDifference(whole, many) < 1e-6, "\(name)")
    }

    @Test func dissolveIsTheLinearPremultipliedMean() throws {
        let half = TestImages.make(width: 2, height: 1) { x, _ in x == 0 ? Pixel(0.4, 0.2, 0, 0.5) : Self.a }
        let out = try Self.transition("CIDissolveTransition", time: 0.5, source: half, target: Self.flat(Self.b, 2, 1))
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(0.25, 0.25, 0.45, 0.75)))
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), (Self.a + Self.b) / 2))
        let quarter = try Self.transition("CIDissolveTransition", time: 0.25, source: Self.flat(Self.a, 2, 1),
                                          target: Self.flat(Self.b, 2, 1))
        #expect(close(try TestImages.pixel(quarter, x: 1, y: 0), Self.a * 0.75 + Self.b * 0.25))
    }

    @Test func swipeShowsSourceAheadAndTargetBehind() throws {
        // Angle 0, extent 0…100, width 20: at t = 0.5 the band's centre is at x = −10 + 120·0.5 = 50, its edges at
        // 40 and 60.
        let params: [String: FilterValue] = ["inputExtent": .vector([0, 0, 100, 100]), "inputAngle": .number(0),
                                             "inputWidth": .number(20), "inputOpacity": .number(0)]
        let out = try Self.transition("CISwipeTransition", time: 0.5, params, source: Self.flat(Self.a), target: Self.flat(Self.b))
        #expect(close(try TestImages.pixel(out, x: 60, y: 10), Self.a))
        #expect(close(try TestImages.pixel(out, x: 39, y: 10), Self.b))
        #expect(close(try TestImages.pixel(out, x: 90, y: 60), Self.a))
        #expect(close(try TestImages.pixel(out, x: 5, y: 60), Self.b))
        // Inside the band a linear cross-fade: pixel 44 (centre 44.5, u = −0.55) is 22.5 % source.
        #expect(close(try TestImages.pixel(out, x: 44, y: 10), Self.a * 0.225 + Self.b * 0.775))
        // With opacity 0.8 the white colour weighs 0.8·(1 − |u|) on top of the cross-fade.
        var tinted = params; tinted["inputOpacity"] = .number(0.8)
        let lit = try Self.transition("CISwipeTransition", time: 0.5, tinted, source: Self.flat(Self.a), target: Self.flat(Self.b))
        let k: Float = 0.8 * (1 - 0.55)
        let expected = (Self.a * 0.225 + Self.b * 0.775) * (1 - k) + Pixel(1, 1, 1, 1) * k
        #expect(close(try TestImages.pixel(lit, x: 44, y: 10), expected))
        #expect(close(try TestImages.pixel(lit, x: 61, y: 10), Self.a))
        #expect(close(try TestImages.pixel(lit, x: 38, y: 10), Self.b))
    }

    @Test func barsSwipeMovesWholeBarsUpOffTheTarget() throws {
        // Angle π: vertical bars that slide up. In each column the target shows below the moved source.
        let out = try Self.transition("CIBarsSwipeTransition", time: 0.1, ["inputAngle": .number(Double.pi),
                                      "inputWidth": .number(10), "inputBarOffset": .number(1)],
                                      source: Self.flat(Self.a, 40, 40), target: Self.flat(Self.b, 40, 40))
        let buffer = try TestImages.render(out)
        var sawTarget = false, sawSource = false
        for x in 0..<40 {
            var reachedSource = false
            for y in 0..<40 {
                let p = buffer.pixel(x: x, y: y)
                if close(p, Self.b, tolerance: 1e-3) { #expect(!reachedSource, "target above source at \(x),\(y)"); sawTarget = true }
                else if close(p, Self.a, tolerance: 1e-3) { reachedSource = true; sawSource = true }
            }
        }
        #expect(sawTarget && sawSource)
        // The bars are staggered: the columns' lowest source pixels are not all at the same height.
        let lowest = (0..<4).map { bar in (0..<40).first { close(buffer.pixel(x: bar * 10 + 5, y: $0), Self.a, tolerance: 1e-3) } ?? 40 }
        #expect(Set(lowest).count > 1, "\(lowest)")
        // Bars are counted from the right (p·d = −x, low end −40): x 0…10 is bar 3, which moves
        // (62.92·0.1 − √1·3)² ≈ 10.84 px: row 5 is target, row 12 source; bar 0 (x 30…40) moves (6.292)² ≈ 39.6 px.
        #expect(close(buffer.pixel(x: 5, y: 5), Self.b))
        #expect(close(buffer.pixel(x: 5, y: 12), Self.a))
        #expect(close(buffer.pixel(x: 35, y: 38), Self.b))
        #expect(close(buffer.pixel(x: 15, y: 16), Self.b) && close(buffer.pixel(x: 15, y: 21), Self.a)) // bar 2: 18.3 px
    }

    @Test func barsSwipeCoversTheSourceOnly() throws {
        // Core Image's iOS 7 render (a 500×267 source on a 640×478 target) is the source's size: the target shows
        // only inside the source's extent, at every time including the end.
        let big = Self.flat(Self.b, 60, 30)
        for time in [0.0, 0.3, 1.0] {
            let out = try Self.transition("CIBarsSwipeTransition", time: time, source: Self.flat(Self.a, 40, 40), target: big)
            #expect(out.extent == Rect(x: 0, y: 0, width: 40, height: 40), "t=\(time)")
        }
        let end = try Self.transition("CIBarsSwipeTransition", time: 1, source: Self.flat(Self.a, 40, 40), target: big)
        #expect(close(try TestImages.pixel(end, x: 20, y: 10), Self.b))
        #expect(try TestImages.pixel(end, x: 20, y: 35).w == 0)
    }

    @Test func flashFadesLinearlyIntoTheTarget() throws {
        // Past the fade threshold, without striations, the target shows under (1 − q) of white.
        let out = try Self.transition("CIFlashTransition", time: 0.9, ["inputFadeThreshold": .number(0.8),
                                      "inputStriationStrength": .number(0)],
                                      source: Self.flat(Self.a), target: Self.flat(Self.b))
        #expect(close(try TestImages.pixel(out, x: 20, y: 70), Self.b * 0.5 + Pixel(1, 1, 1, 1) * 0.5))
        // Before it the flash brightens the source around the centre.
        let early = try Self.transition("CIFlashTransition", time: 0.4, ["inputCenter": .vector([50, 50]),
                                        "inputExtent": .vector([0, 0, 100, 100])],
                                        source: Self.flat(Self.a), target: Self.flat(Self.b))
        let centre = try TestImages.pixel(early, x: 50, y: 50)
        #expect(centre.y > Self.a.y + 0.1)
    }

    @Test func modMixesOnlyTheTwoImages() throws {
        let out = try Self.transition("CIModTransition", time: 0.5, ["inputCenter": .vector([50, 50]), "inputRadius": .number(20),
                                      "inputCompression": .number(30)],
                                      source: Self.flat(Self.a), target: Self.flat(Self.b))
        let buffer = try TestImages.render(out)
        var counts = (0, 0)
        for i in 0..<buffer.rect.area {
            let p = buffer.pixels[i]
            if close(p, Self.a) { counts.0 += 1 } else if close(p, Self.b) { counts.1 += 1 } else {
                // On a hole's soft rim: a mix of the two, w·b + (1 − w)·a.
                let w = (p.x - Self.a.x) / (Self.b.x - Self.a.x)
                if !(w > 0 && w < 1 && close(p, Self.a * (1 - w) + Self.b * w, tolerance: 1e-4)) {
                    Issue.record("pixel \(i) is no mix of the two images: \(p)")
                }
            }
        }
        #expect(counts.0 > 2000 && counts.1 > 2000, "\(counts)")
    }

    /// The lattice rule: a hole centred on inputCenter, lattice points r apart turned by
    /// θ = t·(angle − π/4) + π/4 (angle 0.7854 keeps θ = 0.7854), the hole's radius 1.47303709·t half-cells.
    @Test func modHolesSitOnTheTurnedLattice() throws {
        let r = 20 * 2.0.squareRoot()
        let out = try Self.transition("CIModTransition", time: 0.5, ["inputCenter": .vector([50.5, 50]),
                                      "inputRadius": .number(r), "inputAngle": .number(0.7854),
                                      "inputCompression": .number(30)],
                                      source: Self.flat(Self.a), target: Self.flat(Self.b))
        // The centre is a hole's centre; 9.5 px above it p = (0.24, 0.24), d = 0.67 < 0.97·0.7365: still the hole;
        // 20.5 px above it p ≈ (0.51, 0.51), nearly as far as can be from every lattice point: the source.
        #expect(close(try TestImages.pixel(out, x: 50, y: 49), Self.b))
        #expect(close(try TestImages.pixel(out, x: 50, y: 59), Self.b))
        #expect(close(try TestImages.pixel(out, x: 50, y: 70), Self.a))
        // On the rim the target's share is 1 − (17·d/τ − 16.5): at 10.5 px, d = 2√2·10.5/40 = 0.7425.
        let d = 2 * 2.0.squareRoot() * 10.5 / 40, tau = 0.5 * 1.47303709
        let w = Float(1 - min(max(17 * d / tau - 16.5, 0), 1))
        #expect(w > 0.1 && w < 0.9)
        // (Pixel row 60's centre is 60.5 − 50 = 10.5 above the centre.)
        #expect(close(try TestImages.pixel(out, x: 50, y: 60), Self.a * (1 - w) + Self.b * w, tolerance: 1e-4))
    }

    /// A small compression squeezes x: away from the centre x moves the pattern by a tenth of a pixel at most,
    /// less than a hole's rim, so no row holds both images unmixed (Apple's iOS 13 render at compression 1 shows
    /// bands across y only).
    @Test func modSmallCompressionLeavesBandsAcrossY() throws {
        let out = try Self.transition("CIModTransition", time: 0.5, ["inputCenter": .vector([0, 0]), "inputRadius": .number(10),
                                      "inputAngle": .number(3), "inputCompression": .number(1)],
                                      source: Self.flat(Self.a), target: Self.flat(Self.b))
        let buffer = try TestImages.render(out)
        var rows = (0, 0)
        for y in 0..<100 {
            let row = (20..<100).map { buffer.pixels[y * 100 + $0] }
            let hasA = row.contains { close($0, Self.a) }, hasB = row.contains { close($0, Self.b) }
            #expect(!(hasA && hasB), "row \(y)")
            if hasA { rows.0 += 1 }
            if hasB { rows.1 += 1 }
        }
        #expect(rows.0 > 10 && rows.1 > 10, "\(rows)")
    }

    @Test func copyMachineBarSeparatesTargetAndSource() throws {
        // Angle 0, extent 0…100, width 20: at t = 0.5 the bar's leading edge is at x = 1.535·0.5·120 = 92.1, its
        // trailing one at 72.1; the source fades in over the last 2.5 px.
        let out = try Self.transition("CICopyMachineTransition", time: 0.5, ["inputExtent": .vector([0, 0, 100, 100]),
                                      "inputAngle": .number(0), "inputWidth": .number(20), "inputOpacity": .number(1),
                                      "inputColor": .color(Color(red: 1, green: 0.5, blue: 0.25))],
                                      source: Self.flat(Self.a), target: Self.flat(Self.b))
        #expect(close(try TestImages.pixel(out, x: 93, y: 30), Self.a))
        #expect(close(try TestImages.pixel(out, x: 71, y: 30), Self.b))
        // At x = 81.5 (s = 0.47) the light adds 1.5·s times the colour's sRGB components to the target.
        let k: Float = 1.5 * (1 + (81.5 - 92.1) / 20)
        let lit = try TestImages.pixel(out, x: 81, y: 30)
        #expect(close(lit, Pixel(Self.b.x + k, Self.b.y + 0.5 * k, Self.b.z + 0.25 * k, 1), tolerance: 2e-3), "\(lit)")
    }

    @Test func disintegrateFollowsTheMask() throws {
        let mask = TestImages.make(width: 100, height: 100) { x, _ in x < 50 ? Pixel(0.1, 0.1, 0.1, 1) : Pixel(0.9, 0.9, 0.9, 1) }
        let out = try Self.transition("CIDisintegrateWithMaskTransition", time: 0.5,
                                      ["inputMaskImage": .image(mask), "inputShadowDensity": .number(0)],
                                      source: Self.flat(Self.a), target: Self.flat(Self.b))
        #expect(close(try TestImages.pixel(out, x: 10, y: 10), Self.b))
        #expect(close(try TestImages.pixel(out, x: 90, y: 10), Self.a))
        // With a shadow, the uncovered target next to the remaining source (offset towards it) darkens.
        let shaded = try Self.transition("CIDisintegrateWithMaskTransition", time: 0.5,
                                         ["inputMaskImage": .image(mask), "inputShadowOffset": .vector([-10, 0])],
                                         source: Self.flat(Self.a), target: Self.flat(Self.b))
        let near = try TestImages.pixel(shaded, x: 45, y: 50), far = try TestImages.pixel(shaded, x: 5, y: 50)
        #expect(near.z < far.z - 0.1)
        // Away from the shadow the target is dimmed and the source lifted by c = 0.516·t·(1 − t) (density 1).
        let c: Float = 0.516 * 0.25
        let dimmed = Pixel(Self.b.x * (1 - c), Self.b.y * (1 - c), Self.b.z * (1 - c), 1)
        let lifted = Pixel(Self.a.x * (1 + c), Self.a.y * (1 + c), Self.a.z * (1 + c), 1)
        // (The shadow's tail still reaches both probes a little: within 0.05.)
        #expect(close(far, dimmed, tolerance: 0.05), "\(far) \(dimmed)")
        #expect(close(try TestImages.pixel(shaded, x: 90, y: 50), lifted, tolerance: 0.05), "\(lifted)")
    }

    @Test func rippleRingSeparatesTargetInsideFromSourceOutside() throws {
        let out = try Self.transition("CIRippleTransition", time: 0.4, ["inputCenter": .vector([50, 50]),
                                      "inputExtent": .vector([0, 0, 100, 100]), "inputWidth": .number(20)],
                                      source: Self.flat(Self.a), target: Self.flat(Self.b))
        // Reach √(50² + 50²) ≈ 70.7, half width W = 1.125·20 = 22.5; the ring's middle at 0.4·(70.7 + 45) − 22.5
        // ≈ 23.8, so the centre is behind the ring (target) and the far corner ahead of it (source).
        #expect(close(try TestImages.pixel(out, x: 50, y: 50), Self.b))
        #expect(close(try TestImages.pixel(out, x: 95, y: 95), Self.a))
    }

    /// The rule fitted on Apple's iOS 13.3 render, at known points along the ray y = 50.5 from the centre
    /// (0.5, 50.5): extent 100², width 20 (W = 22.5), scale 4, t = 0.5, so the reach is √(99.5² + 50.5²) and the
    /// ring's middle R = 0.5·(reach + 45) − 22.5 ≈ 55.79; pixel x lies at distance x, u = (x − R)/22.5.
    static let rippleProbe: [String: FilterValue] = ["inputCenter": .vector([0.5, 50.5]), "inputExtent": .vector([0, 0, 100, 100]),
                                                     "inputWidth": .number(20), "inputScale": .number(4)]
    static let redRamp = TestImages.make(width: 100, height: 100) { x, _ in Pixel(Float(x) / 200, 0.2, 0, 1) }

    @Test func rippleMixesAndRefractsAcrossTheRing() throws {
        let out = try Self.transition("CIRippleTransition", time: 0.5, Self.rippleProbe,
                                      source: Self.redRamp, target: Self.flat(Self.b))
        // (pixel, the target's share 1 − smoothstep((3u + 1)/2), the source's red read at distance + 4·slope)
        let probes: [(Int, Float, Float)] = [(40, 1, 0), (50, 0.96401, 0.26856), (56, 0.4791, 0.27916),
                                             (60, 0.12328, 0.28493), (70, 0, 0.33842), (90, 0, 0.45)]
        for (x, share, red) in probes {
            let expected = Pixel(red, 0.2, 0, 1) * (1 - share) + Self.b * share
            let got = try TestImages.pixel(out, x: x, y: 50)
            #expect(close(got, expected, tolerance: 5e-4), "x = \(x): \(got) vs \(expected)")
        }
    }

    @Test func rippleLightMapFollowsTheSlope() throws {
        // An opaque light map covers the images: its red ramp (x/100) read at its centre + slope·half width.
        let map = TestImages.make(width: 100, height: 100) { x, _ in Pixel(Float(x) / 100, 0.5, 0, 1) }
        var values = Self.rippleProbe
        values["inputShadingImage"] = .image(map)
        let out = try Self.transition("CIRippleTransition", time: 0.5, values, source: Self.redRamp, target: Self.flat(Self.b))
        // (pixel, slope n): rising smoothstep 0 → +1 on u ∈ [−1, −⅓], falling +1 → −1 on [−⅓, ⅓], back to 0 by u = 1.
        let probes: [(Int, Float)] = [(10, 0), (40, 0.4212), (50, 0.92802), (56, -0.04181), (70, -0.5788), (76, -0.06285), (95, 0)]
        for (x, n) in probes {
            let expected = Pixel((50 + 50 * n - 0.5) / 100, 0.5, 0, 1)
            let got = try TestImages.pixel(out, x: x, y: 50)
            #expect(close(got, expected, tolerance: 5e-4), "x = \(x): \(got) vs \(expected)")
        }
    }

    /// The accordion's extent: a box as wide as the wider image and h_A + s·(h_B − h_A) high (A the lower
    /// image; s = t when A is the source, 1 − t when not), its bottom-middle moved from A's to B's by s.
    @Test func accordionExtentLiesBetweenTheTwoImages() throws {
        // Apple's render: a 1000×562 source, a 1500² target at t = 0.497 give 1501×1029 pixels.
        let t = 0.49699938297271729
        let apple = try Self.transition("CIAccordionFoldTransition", time: t, ["inputBottomHeight": .number(100),
                                        "inputNumberOfFolds": .number(6)],
                                        source: Self.flat(Self.a, 1000, 562), target: Self.flat(Self.b, 1500, 1500))
        let x = 500 + t * 250 - 750
        #expect(abs(apple.extent.minX - x) < 1e-9 && apple.extent.minY == 0 && apple.extent.width == 1500)
        #expect(abs(apple.extent.height - (562 + t * 938)) < 1e-9)
        #expect(apple.pixelExtent.width == 1501 && apple.pixelExtent.height == 1029)
        // A taller source: A is the target and s = 1 − t.
        let swapped = try Self.transition("CIAccordionFoldTransition", time: 0.25, [:],
                                          source: Self.flat(Self.a, 100, 100), target: Self.flat(Self.b, 100, 50))
        #expect(swapped.extent == Rect(x: 0, y: 0, width: 100, height: 87.5))
        // An infinite image folds as the other's rectangle (was an empty output).
        let generated = try Self.transition("CIAccordionFoldTransition", time: 0.25, [:],
                                            source: Self.flat(Self.a, 100, 50), target: Self.flat(Self.b, 10, 10).clampedToExtent())
        #expect(generated.extent == Rect(x: 0, y: 0, width: 100, height: 50))
        #expect(close(try TestImages.pixel(generated, x: 50, y: 40), Self.a * 0.75 + Self.b * 0.25))
    }

    @Test func accordionFoldsTheTallerImageAndStretchesTheLowerOnesRow() throws {
        // Source 100×50 (A), target 100×100 (B), t = 0.5, bottom 10, 2 folds, shadow 1: box 100×75, the fold from
        // y = 10 to 35 in 4 strips of 6.25; above it the two cross-fade half and half.
        let out = try Self.transition("CIAccordionFoldTransition", time: 0.5, ["inputBottomHeight": .number(10),
                                      "inputNumberOfFolds": .number(2), "inputFoldShadowAmount": .number(1)],
                                      source: Self.flat(Self.a, 100, 50), target: Self.flat(Self.b, 100, 100))
        #expect(out.extent == Rect(x: 0, y: 0, width: 100, height: 75))
        let mid = (Self.a + Self.b) / 2
        #expect(close(try TestImages.pixel(out, x: 50, y: 60), mid))
        #expect(close(try TestImages.pixel(out, x: 50, y: 5), mid))
        // Row 12 (centre 12.5) is 0.4 up its strip: colour × (1 − 0.5·0.4), alpha untouched.
        let k: Float = 1 - 0.5 * 0.4
        #expect(close(try TestImages.pixel(out, x: 50, y: 12), Pixel(mid.x * k, mid.y * k, mid.z * k, 1)))
        // Towards the strips' joins x is read from x·(1 + 0.0625·d): at the edge of the box the images fall
        // short, so the rim pixel near the first join (row 16, d = 0.96) is transparent.
        #expect(try TestImages.pixel(out, x: 99, y: 16).w < 0.01)
        #expect(try TestImages.pixel(out, x: 99, y: 60).w > 0.99)
    }

    @Test func pageCurlShowsSheetBackAndTarget() throws {
        // Angle 0, extent 0…100, radius 10, t = 0.5: the sheet leaves the table at a = 0 + 0.5·(100 + 10) = 55;
        // the curl's outer edge is at a − R = 45. (Replaces the earlier model, whose axis swept from the far side
        // and whose output kept the images' extent: Apple's renders show this one.)
        let c = Pixel(0.3, 0.9, 0.3, 1)
        let params: [String: FilterValue] = ["inputExtent": .vector([0, 0, 100, 100]), "inputAngle": .number(0),
                                             "inputRadius": .number(10), "inputBacksideImage": .image(Self.flat(c)),
                                             "inputShadingImage": .image(Self.flat(Pixel(0, 0, 0, 1)))]
        let out = try Self.transition("CIPageCurlTransition", time: 0.5, params, source: Self.flat(Self.a), target: Self.flat(Self.b))
        #expect(out.extent == Rect(x: 0, y: 0, width: 100, height: 100))
        // x = 20: past the curl's edge, the target.
        #expect(close(try TestImages.pixel(out, x: 20, y: 50), Self.b))
        // x = 50: on the cylinder; its upper quarter holds sheet point 55 − 10·(π − asin 0.45) ≈ 28: the back.
        #expect(close(try TestImages.pixel(out, x: 50, y: 50), c))
        // x = 60: the flipped layer holds sheet point 55 − 10π − 5.5 ≈ 18: the back, over the flat source.
        #expect(close(try TestImages.pixel(out, x: 60, y: 50), c))
        // x = 90: the flipped layer would hold sheet point ≈ −12, off the sheet: the flat source.
        #expect(close(try TestImages.pixel(out, x: 90, y: 50), Self.a))
        // A white shading image makes the back white (Apple's render with one).
        var shaded = params; shaded["inputShadingImage"] = .image(Self.flat(Pixel(1, 1, 1, 1)))
        let white = try Self.transition("CIPageCurlTransition", time: 0.5, shaded, source: Self.flat(Self.a), target: Self.flat(Self.b))
        #expect(close(try TestImages.pixel(white, x: 60, y: 50), Pixel(1, 1, 1, 1)))

        var shadowed = params; shadowed["inputShadowAmount"] = .number(0.7); shadowed["inputShadowSize"] = .number(0.1)
        shadowed["inputShadowExtent"] = .vector([0, 0, 100, 100]); shadowed["inputShadingImage"] = nil
        let shadow = try Self.transition("CIPageCurlWithShadowTransition", time: 0.5, shadowed,
                                         source: Self.flat(Self.a), target: Self.flat(Self.b))
        // The shadow reaches 290·0.1 = 29 px past the edge: at x = 40 (4.5 px in, mid-row, full span) the
        // target under black of opacity 0.45·0.7·f^1.5, f = 1 − 4.5/29; at x = 10 (34.5 px) untouched.
        let f: Float = 1 - 4.5 / 29, k: Float = 0.45 * 0.7 * f * f.squareRoot()
        #expect(close(try TestImages.pixel(shadow, x: 40, y: 50), Pixel(Self.b.x * (1 - k), Self.b.y * (1 - k), Self.b.z * (1 - k), 1), tolerance: 1e-3))
        #expect(close(try TestImages.pixel(shadow, x: 10, y: 50), Self.b))
        // The highlight: at x = 46 the upper quarter's angle is π − asin 0.85 ≈ 2.126, mixed to white by
        // 0.49·(2.49 − 2.126); at x = 50 (angle ≈ 2.675) none.
        let w: Float = 0.49 * (2.49 - (Float.pi - asin(0.85)))
        #expect(close(try TestImages.pixel(shadow, x: 46, y: 50), c + (Pixel(1, 1, 1, 1) - c) * w, tolerance: 2e-3))
        #expect(close(try TestImages.pixel(shadow, x: 50, y: 50), c))
    }

    @Test func pageCurlExtentCoversTheCurledSheet() throws {
        // t = 0.9: a = 99; sheet x = 0 lies on the flipped layer at 0 + 2·99 − 10π ≈ 166.6, so the output runs to 167.
        let c = Pixel(0.3, 0.9, 0.3, 1)
        let params: [String: FilterValue] = ["inputExtent": .vector([0, 0, 100, 100]), "inputAngle": .number(0),
                                             "inputRadius": .number(10), "inputBacksideImage": .image(Self.flat(c))]
        let out = try Self.transition("CIPageCurlTransition", time: 0.9, params, source: Self.flat(Self.a), target: Self.flat(Self.b))
        #expect(out.extent == Rect(x: 0, y: 0, width: 167, height: 100))
        // Apple's two renders (conformance F2E76407 and 213A5CB5): 1500×1500 images, angle 3, radius 400.
        let image = Rect(x: 0, y: 0, width: 1500, height: 1500)
        #expect(TransitionFilters.pageCurlExtent(source: image, target: image, extent: Rect(x: 0, y: 0, width: 500, height: 500),
                                                 angle: 3, radius: 400, time: 0.99418264627456665, shadowSize: 0)
                == Rect(x: -1117, y: 0, width: 2617, height: 1814))
        #expect(TransitionFilters.pageCurlExtent(source: image, target: image, extent: Rect(x: 0, y: 0, width: 500, height: 800),
                                                 angle: 3, radius: 400, time: 0.82591038942337036, shadowSize: 1)
                == Rect(x: -1108, y: -244, width: 2608, height: 2265))
    }
}
