import Foundation
import Testing
@testable import FilterEngine
@testable import FilterPipeline

/// The zoom blur's ray path (`ZoomRays`) against the passes it replaces and against the segment's mean.
extension SpeedPathTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleImages")

    /// PSNR of two 8-bit renders over the same rectangle.
    static func psnr(_ a: Image, _ b: Image, rect: Rect) throws -> Double {
        TestImages.psnr(try TestImages.context.renderRGBA8(a, rect: rect).bytes, try TestImages.context.renderRGBA8(b, rect: rect).bytes)
    }

    /// On a photo, the rays give the passes' look: PSNR ≥ 45 dB for centres inside, on a pixel centre, on
    /// corners, outside, and amounts up to the rays' limit either way.
    @Test(arguments: [(0.5, 0.5, 20.0), (0.3, 0.6, 20), (-0.1, 0.2, 10), (0.5, 0.5, -15), (1.0, 1.0, 20), (0.5, 1.3, 5),
                      (0.7, 0.4, -20), (0.0, 0.0, 20), (1.0, 0.0, -20)])
    func zoomRaysMatchThePassesOnAPhoto(_ fx: Double, _ fy: Double, _ amount: Double) throws {
        let photo = try ImageFile.read(Self.samples.appendingPathComponent("chelsea.png").path)
        let e = photo.extent
        // A centre on a pixel centre for the second case, anywhere for the others.
        let centre = SIMD2((e.minX + e.width * fx).rounded(.down) + (fx == 0.3 ? 0.5 : 0.37), e.minY + e.height * fy)
        let k = amount / 100
        #expect(ZoomRays.applies(extent: e, centre: centre, k: k))
        let rays = ZoomRays.apply(photo, centre: centre, k: k, extent: e,
                                  passes: BlurEffectFilters.zoomPassCount(e, centre: centre, k: k))
        let passes = BlurEffectFilters.zoomPasses(photo, centre: centre, k: k)
        // The filter takes the rays here (its k is inputAmount / 66, over the grown extent).
        let filterAmount = amount * 0.66, filterK = filterAmount / 66
        let filtered = try TestImages.filter("CIZoomBlur", ["inputImage": .image(photo), "inputCenter": .vector([centre.x, centre.y]),
                                                            "inputAmount": .number(filterAmount)])
        let grownRays = ZoomRays.apply(photo, centre: centre, k: filterK,
                                       extent: BlurEffectFilters.zoomExtent(e, centre: centre, k: filterK),
                                       passes: BlurEffectFilters.zoomPassCount(e, centre: centre, k: filterK))
        #expect(filtered.extent == grownRays.extent)
        #expect(TestImages.maxDifference(try TestImages.render(filtered), try TestImages.render(grownRays)) == 0)
        let value = try Self.psnr(rays, passes, rect: e)
        #expect(value >= 45, "PSNR \(value) dB")
    }

    /// A crop renders the pixels of the whole render, and one thread the pixels of several, wherever the centre
    /// (inside, on a pixel centre, next to an edge, on a corner, outside) and however small the image (where the
    /// coarsest levels, every 2^L-th ray, are used nearly everywhere).
    @Test(arguments: [(150, 90, 61.3, 40.5), (150, 90, 75.5, 45.5), (150, 90, 0.4, 45.0), (150, 90, 149.8, 0.2),
                      (150, 90, -20.0, 100.0), (9, 6, 4.2, 3.1), (3, 2, 0.0, 0.0)])
    func zoomRaysTiledEqualsUntiled(_ width: Int, _ height: Int, _ cx: Double, _ cy: Double) throws {
        let image = Self.pattern(width: width, height: height)
        let zoomed = ZoomRays.apply(image, centre: SIMD2(cx, cy), k: 0.2, extent: image.extent, passes: 2)
        let whole = try TestImages.render(zoomed)
        let w = Double(width), h = Double(height)
        for rect in [Rect(x: (w / 15).rounded(), y: (h / 12).rounded(), width: max(1, (w * 0.27).rounded()), height: max(1, (h / 3).rounded())),
                     Rect(x: (w * 0.4).rounded(), y: 0, width: w - (w * 0.4).rounded(), height: max(1, (h * 0.46).rounded())),
                     Rect(x: 0, y: (h * 0.55).rounded(), width: w, height: h - (h * 0.55).rounded())] {
            let part = try TestImages.render(zoomed, rect)
            var worst: Float = 0
            for y in part.rect.y..<part.rect.maxY {
                for x in part.rect.x..<part.rect.maxX { worst = max(worst, largestComponent(part.pixel(x: x, y: y) - whole.pixel(x: x, y: y))) }
            }
            #expect(worst < 1e-5, "\(rect): \(worst)")
        }
        let one = try TestImages.render(zoomed, context: RenderContext(options: .init(threads: 1)))
        let four = try TestImages.render(zoomed, context: RenderContext(options: .init(threads: 4)))
        #expect(TestImages.maxDifference(one, whole) == 0)
        #expect(TestImages.maxDifference(four, whole) == 0)
    }

    /// On a smooth image each pixel is the mean of the bilinear image along its segment, p to p + (c − p)·k,
    /// within 1/255 (the straightforward integral: 2048 samples at the midpoints of equal steps), away from the
    /// image's edges.
    @Test(arguments: [0.4, -0.25, 1.0])
    func zoomRaysGiveTheSegmentMean(_ k: Double) throws {
        let image = TestImages.make(width: 80, height: 60) { x, y in
            let u = Float(x) / 80, v = Float(y) / 60
            return Pixel(0.5 + 0.4 * sin(6 * u + 2 * v), 0.5 + 0.4 * cos(5 * v - u), u * v, 1)
        }
        let source = try TestImages.render(image)
        let centre = SIMD2<Double>(30.2, 33.7)
        let out = try TestImages.render(ZoomRays.apply(image, centre: centre, k: k, extent: image.extent, passes: 2))
        var worst: Float = 0, at = (0, 0)
        for y in 0..<60 {
            for x in 0..<80 {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                // Where a segment runs within 1.5 pixels of the image's edge, the two rays either side of the pixel
                // can differ in how much transparency they read (the edge is a sharp step across them): those
                // pixels are left to the PSNR test. A segment's nearest point to the border is one of its ends.
                let ex = px + (centre.x - px) * k, ey = py + (centre.y - py) * k
                let margin = [px, py, ex, ey, 80 - px, 80 - ex, 60 - py, 60 - ey].min()!
                if margin < 1.5 { continue }
                var sum = Pixel(0, 0, 0, 0)
                for j in 0..<2048 {
                    let t = (Double(j) + 0.5) / 2048 * k
                    sum += source.sampleLinear(Float(px + (centre.x - px) * t), Float(py + (centre.y - py) * t))
                }
                let d = largestComponent(out.pixel(x: x, y: y) - sum / 2048)
                if d > worst { worst = d; at = (x, y) }
            }
        }
        #expect(worst < 1 / 255, "\(worst) at \(at)")
    }

    /// The default amount (20) and the rest up to the cap are served by the rays, over the grown extent: the
    /// filter's pixels are the rays' own (bench case i takes this path).
    @Test(arguments: [20.0, 30, 60, -40])
    func zoomUpToTheCapTakesTheRays(_ amount: Double) throws {
        let photo = try ImageFile.read(Self.samples.appendingPathComponent("chelsea.png").path)
        let e = photo.extent, centre = SIMD2(e.midX + 0.37, e.midY - 11), k = amount / 66
        let filtered = try TestImages.filter("CIZoomBlur", ["inputImage": .image(photo), "inputCenter": .vector([centre.x, centre.y]),
                                                            "inputAmount": .number(amount)])
        let extent = BlurEffectFilters.zoomExtent(e, centre: centre, k: k)
        #expect(ZoomRays.applies(extent: extent, centre: centre, k: k))
        let rays = ZoomRays.apply(photo, centre: centre, k: k, extent: extent,
                                  passes: BlurEffectFilters.zoomPassCount(e, centre: centre, k: k))
        #expect(filtered.extent == rays.extent)
        #expect(TestImages.maxDifference(try TestImages.render(filtered), try TestImages.render(rays)) == 0)
    }

    /// Beyond the rays' amount, infinite extents and far centres take the passes.
    @Test func zoomBeyondTheRaysTakesThePasses() throws {
        let image = Self.pattern(width: 60, height: 40)
        // Amount -70 and -100 beyond the rays; 1e5 too far; amount 1 here streaks under 8 pixels (one pass).
        // (k = amount / 66.)
        for (centre, amount) in [([30.0, 20.0], -70.0), ([30, 20], -100), ([1e5, 20], 10), ([30, 20], 1)] {
            let filtered = try TestImages.filter("CIZoomBlur", ["inputImage": .image(image), "inputCenter": .vector(centre),
                                                                "inputAmount": .number(amount)])
            // A centre whose grown extent passes 128 times the image's size works over the image's extent.
            let c = SIMD2(centre[0], centre[1]), k = amount / 66
            let extent = c.x > 1000 ? image.extent : BlurEffectFilters.zoomExtent(image.extent, centre: c, k: k)
            let passes = BlurEffectFilters.zoomPasses(image, centre: c, k: k, extent: extent)
            #expect(filtered.extent == passes.extent)
            #expect(TestImages.maxDifference(try TestImages.render(filtered), try TestImages.render(passes)) == 0)
        }
        #expect(!ZoomRays.applies(extent: .infinite, centre: SIMD2(0, 0), k: 0.1))
    }
}
