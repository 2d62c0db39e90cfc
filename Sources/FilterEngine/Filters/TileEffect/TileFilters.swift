import Foundation

/// The tile effects: every output is infinite, each pixel read from one tile (or fundamental region) of the
/// input. The symmetry folds live in TileLattice.swift.
enum TileFilters {
    static let all: [String: FilterImplementation] = [
        "CIAffineTile": affineTile,
        "CIPerspectiveTile": perspectiveTile,
        "CIFourfoldTranslatedTile": fourfoldTranslated,
        "CIFourfoldReflectedTile": fourfoldReflected,
        "CIParallelogramTile": parallelogram,
        "CIFourfoldRotatedTile": fourfoldRotated,
        "CIEightfoldReflectedTile": eightfoldReflected,
        "CIGlideReflectedTile": glideReflected,
        "CISixfoldRotatedTile": sixfoldRotated,
        "CISixfoldReflectedTile": sixfoldReflected,
        "CITwelvefoldReflectedTile": twelvefoldReflected,
        "CITriangleTile": triangleTile,
        "CITriangleKaleidoscope": triangleKaleidoscope,
        "CIKaleidoscope": kaleidoscope,
        "CIOpTile": opTile,
    ]

    /// Centre, angle and width of the common tile inputs. A zero width is taken as a tiny one: the limit, every
    /// pixel showing the colour at the centre.
    static func frame(_ inputs: FilterInputs) throws -> TileFrame {
        let width = max(1e-3, try inputs.number("inputWidth"))
        return TileFrame(center: try inputs.point("inputCenter"), angle: try inputs.number("inputAngle"), width: width)
    }

    static func tiled<F: TileFold>(_ inputs: FilterInputs, _ fold: F, _ name: String) throws -> Image {
        let image = try inputs.image("inputImage")
        return TileLattice.warp(image, frame: try frame(inputs), fold: fold, name: name)
    }

    static func fourfoldTranslated(_ inputs: FilterInputs) throws -> Image {
        try tiled(inputs, TranslatedFold(acute: try inputs.number("inputAcuteAngle")), "fourfoldTranslated")
    }

    static func fourfoldReflected(_ inputs: FilterInputs) throws -> Image {
        try tiled(inputs, ReflectedFold(acute: try inputs.number("inputAcuteAngle")), "fourfoldReflected")
    }

    /// The same lattice, cell and reflection as CIFourfoldReflectedTile: Core Image passes both kernels the same
    /// arguments and declares the same region of interest (no render of this one).
    static func parallelogram(_ inputs: FilterInputs) throws -> Image {
        try tiled(inputs, ReflectedFold(acute: try inputs.number("inputAcuteAngle")), "parallelogramTile")
    }

    static func fourfoldRotated(_ inputs: FilterInputs) throws -> Image {
        try tiled(inputs, RotatedFourFold(), "fourfoldRotated")
    }

    static func eightfoldReflected(_ inputs: FilterInputs) throws -> Image {
        try tiled(inputs, ReflectedEightFold(), "eightfoldReflected")
    }

    static func glideReflected(_ inputs: FilterInputs) throws -> Image {
        try tiled(inputs, GlideFold(), "glideReflected")
    }

    // The hexagonal tiles share a lattice of spacing inputWidth spanned by width-long vectors at inputAngle ± 30°,
    // with a lattice point on inputCenter (Core Image's arguments for all of them).

    /// Six turns about each lattice point (p6); the region is the kite between the centre, the midpoints of the
    /// two lattice vectors and the cell's middle, i.e. the sector [-30°, 30°] of the centre's hexagon (Core
    /// Image's region of interest; no render).
    static func sixfoldRotated(_ inputs: FilterInputs) throws -> Image {
        try tiled(inputs, HexFold(scale: 1, group: PointGroup(count: 6, mirror: false), offset: .zero,
                                  start: -Double.pi / 6), "sixfoldRotated")
    }

    /// Reflections across the sides of an equilateral triangle of side width/√3 (p3m1) whose corners are the
    /// lattice point at width·(cos 30°, sin 30°) and the middles of the two lattice triangles beside it on the
    /// axis: the region is (w/√3, 0), (2w/√3, 0), (w√3/2, w/2). The three-mirror fold of each hexagon lands in
    /// its sector [0°, 60°]; a turn of 240° and that lattice vector bring it onto Core Image's triangle.
    /// CISixfoldReflectedTile: 35.3 dB on Apple's iOS 7 render (width 100).
    static let sixfoldReflectedFold = HexFold(scale: 1, group: PointGroup(count: 3, mirror: true), offset: .zero,
                                              turn: 4 * Double.pi / 3,
                                              shift: SIMD2(Float(3).squareRoot() / 2, 0.5))

    static func sixfoldReflected(_ inputs: FilterInputs) throws -> Image {
        try tiled(inputs, sixfoldReflectedFold, "sixfoldReflected")
    }

    /// Six mirrors through each lattice point (twelve copies: p6m); the region, the sector [0°, 30°] of the
    /// centre's hexagon, is Core Image's region of interest (no render).
    static func twelvefoldReflected(_ inputs: FilterInputs) throws -> Image {
        try tiled(inputs, HexFold(scale: 1, group: PointGroup(count: 6, mirror: true), offset: .zero), "twelvefoldReflected")
    }

    /// An equilateral triangle of side inputWidth centred on inputCenter, reflected across its sides (the
    /// geometry of CITriangleKaleidoscope).
    static let triangleFold: HexFold = {
        let s3 = Float(3).squareRoot()
        return HexFold(scale: s3, group: PointGroup(count: 3, mirror: true), offset: SIMD2(0.5, s3 / 6))
    }()

    /// Core Image gives CITriangleTile the same lattice, triangle and region of interest as
    /// CISixfoldReflectedTile; a triangle only tiles the plane by itself through reflections across its sides,
    /// so this reads it as the same fold (no render).
    static func triangleTile(_ inputs: FilterInputs) throws -> Image {
        try tiled(inputs, sixfoldReflectedFold, "triangleTile")
    }

    /// Like a kaleidoscope of three mirrors: a triangle of side inputSize centred on inputPoint, turned by
    /// inputRotation, reflected across its sides; the image is read clamped to its extent, so a triangle larger
    /// than the image shows its edge colours, never a transparent corner. Each reflection darkens the colour by
    /// inputDecay: a copy k mirror lines away from the central triangle is scaled by decay^k (alpha kept).
    /// Fitted on Apple's iOS 7 render (heron, size 200, decay 0.85): the measured ratio is 1, 0.850, 0.721,
    /// 0.615, 0.522 for k = 0…4 and the render matches at 45 dB; a fade by radial distance gave 28.9 dB.
    static func triangleKaleidoscope(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let point = try inputs.point("inputPoint")
        let size = max(1e-3, abs(try inputs.number("inputSize")))
        let rotation = try inputs.number("inputRotation")
        let decay = max(0, min(1, try inputs.float("inputDecay")))
        let frame = TileFrame(center: point, angle: rotation, width: size)
        let folded = TileLattice.warp(image, frame: frame, fold: triangleFold, name: "triangleKaleidoscope",
                                      clampingToExtent: true)
        if decay >= 1 { return folded }
        let f = frame
        // The mirror lines form three families of parallel lines, one triangle height apart; in the local frame
        // the central triangle is 0 ≤ d_i ≤ h for d_i = n_i · p + h/3, n_i the inward normals of its sides.
        let height = Float(size) * Float(3).squareRoot() / 2
        let invH = 1 / height
        let s32 = Float(3).squareRoot() / 2
        return ColorKernel(name: "triangleKaleidoscopeDecay") { span in
            let o = span.out
            let dy = Float(span.y) + 0.5 - f.cy
            for i in 0..<span.count {
                let dx = Float(span.x0 + i) + 0.5 - f.cx
                let u = dx * f.cosA + dy * f.sinA, v = dy * f.cosA - dx * f.sinA
                let k0 = ((v * invH) + 1 / 3).rounded(.down)
                let k1 = ((-s32 * u - 0.5 * v) * invH + 1 / 3).rounded(.down)
                let k2 = ((s32 * u - 0.5 * v) * invH + 1 / 3).rounded(.down)
                // Selects keep a NaN or huge count finite: decay^k underflows to 0 long before k reaches 1e6.
                var k = abs(k0) + abs(k1) + abs(k2)
                k = k < 1e6 ? k : 1e6
                let g = decay > 0 ? pow(decay, k) : (k == 0 ? 1 : 0)
                o.r[i] *= g; o.g[i] *= g; o.b[i] *= g
            }
        }.apply(extent: .infinite, inputs: [folded])
    }

    /// inputCount mirror-pairs around inputCenter: the wedge of half-angle π/count starting at inputAngle is
    /// reflected and turned around the centre. The extent is the square around the centre reaching the
    /// input's farthest corner, as Core Image's.
    static func kaleidoscope(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        // Clamp: beyond 2^16 sectors a wedge is under a pixel wide at 16384 px from the centre, so the picture
        // (every direction showing the ray at inputAngle: a radial smear) no longer changes, while the fold's
        // table would grow with the count (1e9 sectors asked for 16 GB).
        let count = min(max(1, try inputs.number("inputCount")), 65536)
        let center = try inputs.point("inputCenter")
        // The fold is periodic in the angle: reduced to one turn, where its float arithmetic keeps precision
        // (1e30 rad has no meaningful fraction of a turn left; the sector bounds looped over it for minutes).
        let angle = try inputs.number("inputAngle").truncatingRemainder(dividingBy: 2 * Double.pi)
        let e = image.extent
        if e.isEmpty { return .empty }
        let cx = Float(center.x), cy = Float(center.y)
        // count sectors, each mirrored about its middle line. In the frame turned by inputAngle, a point is turned
        // forward half a sector, folded into [0, sector) by the rotation group, turned back (now within half a
        // sector of the x axis) and mirrored onto the upper side.
        let n = max(1, Int(count.rounded(.down)))
        let group = PointGroup(count: n, mirror: false)
        let fractional = Double(n) != count
        let sector = Float(2 * Double.pi / count)
        let a0 = Float(angle)
        let (ca, sa) = (Float(cos(angle)), Float(sin(angle)))
        let (ch, sh) = (group.cosHalf, group.sinHalf)
        let kernel = WarpKernel(name: "kaleidoscope") { coords, x0, y, m in
            let dy = Float(y) + 0.5 - cy
            if fractional {
                // A count that is not whole: sectors do not close the circle, so fold by angle directly.
                for i in 0..<m {
                    let dx = Float(x0 + i) + 0.5 - cx
                    let r = (dx * dx + dy * dy).squareRoot()
                    var t = atan2(dy, dx) - a0
                    t -= sector * (t / sector + 0.5).rounded(.down)
                    t = abs(t) + a0
                    coords[i] = SIMD2(cx + r * cos(t), cy + r * sin(t))
                }
                return
            }
            for i in 0..<m {
                let dx = Float(x0 + i) + 0.5 - cx
                let lx = dx * ca + dy * sa, ly = dy * ca - dx * sa
                let q = TileLattice.polarFold(lx * ch - ly * sh, lx * sh + ly * ch, group)
                let fx = q.x * ch + q.y * sh, fy = abs(q.y * ch - q.x * sh)
                coords[i] = SIMD2(cx + fx * ca - fy * sa, cy + fx * sa + fy * ca)
            }
        }
        let extent = e.isInfinite ? Rect.infinite
            : DistortionGeometry.discBox(center.x, center.y, DistortionGeometry.distanceRange(e, center.x, center.y).1).integral
        let half = Double.pi / count
        return kernel.apply(extent: extent, input: image) { rect in
            if rect.isInfinite { return e }
            // The source wedge from the centre to the rectangle's farthest corner.
            let reach = DistortionGeometry.distanceRange(rect, center.x, center.y).1
            return sectorBounds(center: center, radius: reach, from: angle, to: angle + half)
                .insetBy(dx: -1, dy: -1).intersection(e)
        }
    }

    /// Bounding box of a circular sector.
    static func sectorBounds(center: SIMD2<Double>, radius: Double, from a: Double, to b: Double) -> Rect {
        var points = [center, center + radius * SIMD2(cos(a), sin(a)), center + radius * SIMD2(cos(b), sin(b))]
        if b - a >= 2 * Double.pi - 1e-9 {
            return Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
        }
        var k = (a / (Double.pi / 2)).rounded(.up)
        // At most the five quadrant directions of one turn (the bound also ends the loop where k + 1 == k).
        for _ in 0..<5 where k * Double.pi / 2 <= b {
            let t = k * Double.pi / 2
            points.append(center + radius * SIMD2(cos(t), sin(t)))
            k += 1
        }
        return bounds(points)
    }

    /// The image's extent, transformed, repeated along the transformed axes forever.
    static func affineTile(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let transform = try inputs.transform("inputTransform")
        let e = image.extent
        guard !e.isInfinite else { return image.transformed(by: transform) }
        guard !e.isEmpty, transform.isInvertible else { return .empty }
        let inv = transform.inverted
        let (a, b, c, d) = (Float(inv.a), Float(inv.b), Float(inv.c), Float(inv.d))
        let (tx, ty) = (Float(inv.tx), Float(inv.ty))
        let (ex, ey, ew, eh) = (Float(e.minX), Float(e.minY), Float(e.width), Float(e.height))
        let kernel = WarpKernel(name: "affineTile") { coords, x0, y, count in
            let py = Float(y) + 0.5
            for i in 0..<count {
                let px = Float(x0 + i) + 0.5
                let sx = a * px + c * py + tx - ex, sy = b * px + d * py + ty - ey
                coords[i] = SIMD2(ex + sx - ew * (sx / ew).rounded(.down), ey + sy - eh * (sy / eh).rounded(.down))
            }
        }
        // The clamp keeps bilinear taps at the tile's seams on real pixels.
        let region = e.insetBy(dx: -1, dy: -1)
        return kernel.apply(extent: .infinite, input: image.clampedToExtent()) { _ in region }
    }

    /// The image mapped onto the quadrilateral of the four points, the mapping continued so that copies of the
    /// image repeat across the whole perspective plane (nothing beyond its horizon).
    static func perspectiveTile(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let p = [try inputs.point("inputBottomLeft"), try inputs.point("inputBottomRight"),
                 try inputs.point("inputTopRight"), try inputs.point("inputTopLeft")]
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else { return image }
        guard let forward = Homography.rectToQuad(e, p[0], p[1], p[2], p[3]), let inv = forward.inverted else {
            return .empty
        }
        let m = inv.m.map { Float($0) }
        let (ex, ey, ew, eh) = (Float(e.minX), Float(e.minY), Float(e.width), Float(e.height))
        let kernel = WarpKernel(name: "perspectiveTile") { coords, x0, y, count in
            let py = Float(y) + 0.5
            for i in 0..<count {
                let px = Float(x0 + i) + 0.5
                let w = m[6] * px + m[7] * py + m[8]
                guard w > 1e-9 else { coords[i] = SIMD2(-1e30, -1e30); continue }
                let sx = (m[0] * px + m[1] * py + m[2]) / w - ex, sy = (m[3] * px + m[4] * py + m[5]) / w - ey
                guard abs(sx) < 1e12, abs(sy) < 1e12 else { coords[i] = SIMD2(-1e30, -1e30); continue }
                coords[i] = SIMD2(ex + sx - ew * (sx / ew).rounded(.down), ey + sy - eh * (sy / eh).rounded(.down))
            }
        }
        let region = e.insetBy(dx: -1, dy: -1)
        return kernel.apply(extent: .infinite, input: image.clampedToExtent()) { _ in region }
    }

    /// Op-art cells: the plane is cut into square cells of inputWidth (turned by inputAngle about inputCenter);
    /// each cell shows the part of the image around its own centre, magnified by inputScale (1: unchanged).
    /// Apple's documentation: the filter "extracts a tile from the image, applies any specified scaling and
    /// rotation, and then assembles the image again"; its output is infinite like every tile effect. So the cells
    /// read the image clamped to its extent (a cell near an edge never shows transparent bands), and a cell whose
    /// centre lies more than a cell outside the image takes its content from the centre wrapped back into the
    /// extent: the pattern continues over the whole plane instead of stopping at the image's edge.
    static func opTile(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let scale = try inputs.number("inputScale")
        let f = try frame(inputs)
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else { return image }
        let s = Float(scale), invW = 1 / f.width
        let (ex, ey, ew, eh) = (Float(e.minX), Float(e.minY), Float(e.width), Float(e.height))
        let (loX, hiX, loY, hiY) = (ex + 0.5, ex + ew - 0.5, ey + 0.5, ey + eh - 0.5)
        let kernel = WarpKernel(name: "opTile") { coords, x0, y, count in
            let dy = Float(y) + 0.5 - f.cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - f.cx
                let u = (dx * f.cosA + dy * f.sinA) * invW
                let v = (dy * f.cosA - dx * f.sinA) * invW
                let cu = (u + 0.5).rounded(.down), cv = (v + 0.5).rounded(.down)
                // The cell's centre in image coordinates, relative to the extent's corner.
                let mx = f.cx + (cu * f.cosA - cv * f.sinA) * f.width - ex
                let my = f.cy + (cu * f.sinA + cv * f.cosA) * f.width - ey
                guard abs(mx) < 1e12, abs(my) < 1e12 else { coords[i] = SIMD2(-1e30, -1e30); continue }
                // Cells over or beside the image keep their own centre (at scale 1 the image is unchanged);
                // farther out the centre is moved back by whole image sizes.
                let shiftX = mx < -f.width || mx > ew + f.width ? -ew * (mx / ew).rounded(.down) : 0
                let shiftY = my < -f.width || my > eh + f.width ? -eh * (my / eh).rounded(.down) : 0
                let su = (cu + (u - cu) * s) * f.width, sv = (cv + (v - cv) * s) * f.width
                let x = f.cx + su * f.cosA - sv * f.sinA + shiftX, y = f.cy + su * f.sinA + sv * f.cosA + shiftY
                // Clamped to the pixel centres inside the image: it reads as if clamped to its extent, while the
                // region of interest stays the image (a huge scale asks for no huge clamped intermediate).
                coords[i] = SIMD2(min(max(x, loX), hiX), min(max(y, loY), hiY))
            }
        }
        return kernel.apply(extent: .infinite, input: image) { _ in e.insetBy(dx: -1, dy: -1) }
    }
}
