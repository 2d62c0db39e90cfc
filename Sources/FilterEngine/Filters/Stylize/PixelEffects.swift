import Foundation

/// Pixellate, hexagonal pixellate, crystallize and pointillize: each output pixel takes the colour of a cell's
/// representative point (a square's or hexagon's centre, or a jittered seed point), sampled bilinearly; the
/// hexagons and the seeds move the point onto the input's extent, so that cells straddling the edge keep the
/// edge colour, while pixellate reads its squares' middles as they are (as Apple's render shows).
///
/// Extents: the output grows by half a square (pixellate, as Apple's render), half a spacing (hexagonal
/// pixellate), or by one cell spacing (crystallize, pointillize), as Core Image's renders of these filters are
/// larger than their input.
enum PixelEffects {
    /// A deterministic pair of numbers in [0, 1) for grid cell (i, j): the jitter of its seed point.
    @inline(__always) static func jitter(_ i: Int32, _ j: Int32) -> SIMD2<Float> {
        var h = UInt32(bitPattern: i) &* 0x8DA6_B343 ^ UInt32(bitPattern: j) &* 0xD816_3841 ^ 0x9E37_79B9
        h ^= h >> 15
        h &*= 0x2C1B_3C6D
        h ^= h >> 12
        h &*= 0x297A_2D39
        h ^= h >> 15
        let k = h &* 0x85EB_CA6B ^ (h >> 13)
        return SIMD2(Float(h >> 8) * (1 / 16_777_216), Float((k ^ (k >> 16)) >> 8) * (1 / 16_777_216))
    }

    /// Sample positions kept on the input's pixel centres: bilinear sampling there equals sampling the input
    /// clamped to its extent, but the input read stays inside the extent (a warp's region of interest is cut to
    /// it), so huge cells never make the renderer materialise a huge clamped area.
    struct Bounds: Sendable {
        let x0: Float, x1: Float, y0: Float, y1: Float
        init(_ extent: Rect) {
            if extent.isInfinite {
                (x0, x1, y0, y1) = (-.greatestFiniteMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .greatestFiniteMagnitude)
            } else {
                x0 = Float(extent.minX) + 0.5; x1 = max(Float(extent.maxX) - 0.5, x0)
                y0 = Float(extent.minY) + 0.5; y1 = max(Float(extent.maxY) - 0.5, y0)
            }
        }
        @inline(__always) func clamp(_ x: Float, _ y: Float) -> SIMD2<Float> {
            SIMD2(min(max(x, x0), x1), min(max(y, y0), y1))
        }
    }

    /// The largest cell size (pixellate scale, crystallize and pointillize spacing) honoured. Over a finite
    /// image 1e12, where nothing the renderer holds (±2^28 px) changes any more: the cost per pixel does not
    /// grow with the cell (one sample, or nine seeds, a pixel), only the extent does, as Core Image's, and an
    /// uncropped render of a huge one is refused by the render budget. Over infinite inputs (generators), whose
    /// region of interest no extent cuts, 256: a cost cap, not Core Image's.
    static func sizeLimit(_ image: Image) -> Double { image.extent.isInfinite ? 256 : 1e12 }

    /// The extent grown outwards to a grid of `cell` pixels anchored at `origin` (a single axis).
    static func snapped(_ extent: Rect, origin: SIMD2<Double>, cellX: Double, cellY: Double) -> Rect {
        guard !extent.isInfinite, !extent.isEmpty else { return extent }
        let x0 = origin.x + ((extent.minX - origin.x) / cellX).rounded(.down) * cellX
        let x1 = origin.x + ((extent.maxX - origin.x) / cellX).rounded(.up) * cellX
        let y0 = origin.y + ((extent.minY - origin.y) / cellY).rounded(.down) * cellY
        let y1 = origin.y + ((extent.maxY - origin.y) / cellY).rounded(.up) * cellY
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Squares of `inputScale` pixels on a grid with a corner at the centre; each takes the colour at its middle,
    /// read bilinearly from the input as it is (a square whose middle lies outside the input is transparent).
    /// Extent: the input grown by half a square on every side, in whole pixels: every square with its middle
    /// inside the input lies within it. Apple's iOS 7 render (xamarin-docs-pixellate-flower: scale 8, centre
    /// 150,150 on 638×475) is 646×483 from −4,−4, opaque exactly on the squares [−2, 638) × [−2, 478) of the
    /// grid through the centre, transparent around them; this rule matches it at 40.0 dB.
    static func pixellate(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let scale = min(max(try inputs.number("inputScale"), 1), sizeLimit(image))
        guard !image.extent.isEmpty else { return image }
        let s = Float(scale), cx = Float(center.x), cy = Float(center.y)
        let kernel = WarpKernel(name: "pixellate") { coords, x0, y, count in
            let sy = (((Float(y) + 0.5 - cy) / s).rounded(.down) + 0.5) * s + cy
            for i in 0..<count {
                let sx = (((Float(x0 + i) + 0.5 - cx) / s).rounded(.down) + 0.5) * s + cx
                coords[i] = SIMD2(sx, sy)
            }
        }
        let extent = image.extent.isInfinite ? image.extent
            : image.extent.insetBy(dx: -scale / 2, dy: -scale / 2).integral
        return kernel.apply(extent: extent, input: image) { rect in
            snapped(rect, origin: center, cellX: scale, cellY: scale).insetBy(dx: -1, dy: -1)
        }
    }

    /// Hexagons whose neighbouring centres are `inputScale` pixels apart, one centre at inputCenter. Each takes
    /// the average of the pixels it replaces, as Core Image's own filter description says ("colored hexagons
    /// whose color is an average of the pixels they replace"): here the mean over the disc of the hexagon's
    /// area centred on it (radius s·√(√3 / 2π) ≈ 0.525 s, which differs from the hexagon only at its corners),
    /// read at the centre, with the image's edge pixels repeated outside it so that border hexagons stay
    /// opaque. The centres form two rectangular lattices (s × s√3, the second offset by half a cell); the nearer
    /// of the two candidate centres is the pixel's hexagon.
    static func hexagonalPixellate(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let scale = min(try inputs.number("inputScale"), sizeLimit(image))
        let bounds = Bounds(image.extent)
        // Cells of a pixel or less show the pixels themselves (the catalogue's identity, scale 1).
        guard !image.extent.isEmpty, scale > 1 else { return image }
        let s = Float(scale), h = Float(scale * 3.0.squareRoot()), cx = Float(center.x), cy = Float(center.y)
        // A cost cap, not Core Image's: beyond the image's own size the disc only adds repeated edge pixels (and an
        // infinite image is averaged over at most 256 pixels), so a huge scale asks for no huge intermediate.
        let e = image.extent
        let widest = e.isInfinite ? 256 : max(e.width, e.height)
        let averaged = BlurEffectFilters.disc(image.clampedToExtent(),
                                              radius: min(scale * (3.0.squareRoot() / (2 * Double.pi)).squareRoot(), widest))
        let kernel = WarpKernel(name: "hexagonalPixellate") { coords, x0, y, count in
            let py = Float(y) + 0.5 - cy
            let ay = (py / h).rounded() * h
            let by = ((py / h - 0.5).rounded() + 0.5) * h
            for i in 0..<count {
                let px = Float(x0 + i) + 0.5 - cx
                let ax = (px / s).rounded() * s
                let bx = ((px / s - 0.5).rounded() + 0.5) * s
                let da = (px - ax) * (px - ax) + (py - ay) * (py - ay)
                let db = (px - bx) * (px - bx) + (py - by) * (py - by)
                coords[i] = da <= db ? bounds.clamp(ax + cx, ay + cy) : bounds.clamp(bx + cx, by + cy)
            }
        }
        let reach = scale // a hexagon's centre is within one spacing of its pixels
        let extent = image.extent.isInfinite ? image.extent : image.extent.insetBy(dx: -reach / 2, dy: -reach / 2).integral
        // The sample points are clamped to the image, so the averages are needed over the image only.
        let sampled = image.extent.insetBy(dx: -1, dy: -1)
        return kernel.apply(extent: extent, input: averaged) { rect in
            rect.insetBy(dx: -reach - 1, dy: -reach - 1).intersection(sampled)
        }
    }

    /// The seed point nearest to (px, py) among the 3×3 grid cells around it; points relative to the centre.
    /// Seeds sit at (i + u, j + v)·spacing with (u, v) a hash of the cell, spread over `spread` of the cell.
    @inline(__always) static func nearestSeed(_ px: Float, _ py: Float, spacing: Float, spread: Float)
        -> (point: SIMD2<Float>, distanceSquared: Float)
    {
        let ci = (px / spacing).rounded(.down), cj = (py / spacing).rounded(.down)
        let margin = (1 - spread) * 0.5
        var best = SIMD2<Float>(0, 0)
        var bestD = Float.greatestFiniteMagnitude
        for dj in -1...1 {
            for di in -1...1 {
                let i = ci + Float(di), j = cj + Float(dj)
                let u = jitter(Int32(truncatingIfNeeded: Int(saturating: i)), Int32(truncatingIfNeeded: Int(saturating: j)))
                let qx = (i + margin + u.x * spread) * spacing, qy = (j + margin + u.y * spread) * spacing
                let d = (qx - px) * (qx - px) + (qy - py) * (qy - py)
                if d < bestD { bestD = d; best = SIMD2(qx, qy) }
            }
        }
        return (best, bestD)
    }

    /// A warp that reads each pixel's colour at its nearest seed (see `nearestSeed`), seeds placed about `center`.
    static func seedWarp(_ name: String, _ bounds: Bounds, center: SIMD2<Double>, spacing: Float,
                         spread: Float) -> WarpKernel {
        let cx = Float(center.x), cy = Float(center.y)
        return WarpKernel(name: name) { coords, x0, y, count in
            let py = Float(y) + 0.5 - cy
            for i in 0..<count {
                let seed = nearestSeed(Float(x0 + i) + 0.5 - cx, py, spacing: spacing, spread: spread).point
                coords[i] = bounds.clamp(seed.x + cx, seed.y + cy)
            }
        }
    }

    /// Polygonal cells around random seed points (one per `inputRadius` grid square), each filled with the
    /// input colour at its seed: a Voronoi diagram of the seeds.
    static func crystallize(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let radius = min(try inputs.number("inputRadius"), sizeLimit(image))
        let bounds = Bounds(image.extent)
        // Cells of a pixel show the pixels themselves (the catalogue's identity, radius 1).
        guard !image.extent.isEmpty, radius > 1 else { return image }
        let kernel = seedWarp("crystallize", bounds, center: center, spacing: Float(radius), spread: 1)
        let extent = image.extent.isInfinite ? image.extent : image.extent.insetBy(dx: -radius, dy: -radius).integral
        return kernel.apply(extent: extent, input: image) { rect in
            rect.insetBy(dx: -2 * radius - 1, dy: -2 * radius - 1)
        }
    }

    /// Round dots of `inputRadius`, one per grid square of twice the radius at a jittered point, each of the
    /// input colour at its centre, on a transparent background. Where dots overlap the nearest centre wins.
    static func pointillize(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let radius = min(try inputs.number("inputRadius"), sizeLimit(image))
        let bounds = Bounds(image.extent)
        // Dots of a pixel show the pixels themselves (the catalogue's identity, radius 1).
        guard !image.extent.isEmpty, radius > 1 else { return image }
        let r = Float(radius), spacing = 2 * r, cx = Float(center.x), cy = Float(center.y)
        // Seeds spread over the middle half of each square: neighbouring dots sit between r and 3r apart.
        let spread: Float = 0.5
        let colours = seedWarp("pointillizeColour", bounds, center: center, spacing: spacing, spread: spread)
        let extent = image.extent.isInfinite ? image.extent : image.extent.insetBy(dx: -radius, dy: -radius).integral
        let dots = colours.apply(extent: extent, input: image) { rect in
            rect.insetBy(dx: -2 * Double(spacing) - 1, dy: -2 * Double(spacing) - 1)
        }
        // Coverage of the nearest dot, antialiased over one pixel.
        let mask = ColorKernel(name: "pointillizeMask") { span in
            let out = span.out
            let py = Float(span.y) + 0.5 - cy
            for i in 0..<span.count {
                let d = nearestSeed(Float(span.x0 + i) + 0.5 - cx, py, spacing: spacing, spread: spread)
                    .distanceSquared.squareRoot()
                let k = min(max(r - d + 0.5, 0), 1)
                out.r[i] *= k; out.g[i] *= k; out.b[i] *= k; out.a[i] *= k
            }
        }
        return mask.apply(extent: extent, inputs: [dots])
    }
}
