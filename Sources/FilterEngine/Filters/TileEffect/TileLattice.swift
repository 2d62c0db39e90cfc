import Foundation

/// The lattice maths shared by the tile filters. Every tile filter is a warp: an output point is expressed in a
/// local frame (origin at inputCenter, axes turned by inputAngle, unit = inputWidth), folded by the pattern's
/// symmetry group into one fundamental region near the origin, and mapped back to image space. So every output
/// pixel reads the same small region of the input, whose bounds are the warp's region of interest.
protocol TileFold: Sendable {
    /// Folds a point of the local frame into the fundamental region.
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float>
    /// A radius (in local units) around the origin that contains every folded point.
    var reach: Double { get }
}

/// The local frame of a tile pattern.
struct TileFrame: Sendable {
    let cx: Float, cy: Float, cosA: Float, sinA: Float, width: Float

    init(center: SIMD2<Double>, angle: Double, width: Double) {
        cx = Float(center.x); cy = Float(center.y)
        cosA = Float(cos(angle)); sinA = Float(sin(angle))
        self.width = Float(width)
    }
}

enum TileLattice {
    /// A warp that folds every output pixel into the fundamental region of `fold`; infinite extent.
    static func warp<F: TileFold>(_ image: Image, frame: TileFrame, fold: F, name: String) -> Image {
        let f = frame
        let invW = 1 / f.width
        let kernel = WarpKernel(name: name) { coords, x0, y, count in
            let dy = Float(y) + 0.5 - f.cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - f.cx
                let u = (dx * f.cosA + dy * f.sinA) * invW
                let v = (dy * f.cosA - dx * f.sinA) * invW
                let q = fold.fold(u, v)
                let su = q.x * f.width, sv = q.y * f.width
                coords[i] = SIMD2(f.cx + su * f.cosA - sv * f.sinA, f.cy + su * f.sinA + sv * f.cosA)
            }
        }
        let r = fold.reach * Double(f.width) + 2
        let region = Rect(x: Double(f.cx) - r, y: Double(f.cy) - r, width: 2 * r, height: 2 * r)
        let inputExtent = image.extent
        return kernel.apply(extent: .infinite, input: image) { _ in region.intersection(inputExtent) }
    }

    /// x wrapped into [-0.5, 0.5).
    @inline(__always) static func wrap(_ x: Float) -> Float { x - (x + 0.5).rounded(.down) }

    /// A triangle wave: x reflected back and forth inside [-0.5, 0.5] (period 2).
    @inline(__always) static func reflect(_ x: Float) -> Float {
        let t = x + 0.5
        let m = t - 2 * (t * 0.5).rounded(.down)
        return (m > 1 ? 2 - m : m) - 0.5
    }

    /// The nearest point of the hexagonal lattice with unit spacing and basis vectors at 30° and 90°.
    @inline(__always) static func nearestHexPoint(_ u: Float, _ v: Float) -> SIMD2<Float> {
        let s3 = Float(3).squareRoot() / 2
        let m = u / s3
        let n = v - m * 0.5
        let m0 = m.rounded(.down), n0 = n.rounded(.down)
        var best = SIMD2<Float>(0, 0)
        var bestD = Float.greatestFiniteMagnitude
        for (dm, dn) in [(Float(0), Float(0)), (1, 0), (0, 1), (1, 1)] {
            let mm = m0 + dm, nn = n0 + dn
            let px = mm * s3, py = nn + mm * 0.5
            let d = (u - px) * (u - px) + (v - py) * (v - py)
            if d < bestD { bestD = d; best = SIMD2(px, py) }
        }
        return best
    }

    /// Point-group folds about the origin: turn into the sector [0, sector) and, with `mirror`, reflect the
    /// second half of it onto the first.
    @inline(__always) static func polarFold(_ x: Float, _ y: Float, sector: Float, mirror: Bool) -> SIMD2<Float> {
        let r = (x * x + y * y).squareRoot()
        if r == 0 { return SIMD2(0, 0) }
        var t = atan2(y, x)
        t -= sector * (t / sector).rounded(.down)
        if mirror, t > sector * 0.5 { t = sector - t }
        return SIMD2(r * cos(t), r * sin(t))
    }
}

// MARK: Folds

/// Translations along a parallelogram lattice (sides 1 and 1 at `acute` from each other).
struct TranslatedFold: TileFold {
    let cosB: Float, sinB: Float
    init(acute: Double) {
        let s = sin(acute)
        cosB = Float(cos(acute)); sinB = Float(abs(s) < 0.01 ? (s < 0 ? -0.01 : 0.01) : s)
    }
    var reach: Double { 1.5 }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> {
        let b = TileLattice.wrap(v / sinB)
        let a = TileLattice.wrap(u - (v / sinB) * cosB)
        return SIMD2(a + b * cosB, b * sinB)
    }
}

/// Reflections across the sides of a parallelogram (a rectangle at a right angle: four-way symmetry).
struct ReflectedFold: TileFold {
    let cosB: Float, sinB: Float
    init(acute: Double) {
        let s = sin(acute)
        cosB = Float(cos(acute)); sinB = Float(abs(s) < 0.01 ? (s < 0 ? -0.01 : 0.01) : s)
    }
    var reach: Double { 1.5 }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> {
        let b = TileLattice.reflect(v / sinB)
        let a = TileLattice.reflect(u - (v / sinB) * cosB)
        return SIMD2(a + b * cosB, b * sinB)
    }
}

/// Quarter turns about the tile corners (wallpaper group p4).
struct RotatedFourFold: TileFold {
    var reach: Double { 0.75 }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> {
        let x = u + 0.5, y = v + 0.5
        let dx = x - 2 * (x * 0.5).rounded(.down) - 1, dy = y - 2 * (y * 0.5).rounded(.down) - 1
        var px = dx, py = dy
        if dx >= 0 && dy < 0 { px = dy; py = -dx }          // quarter turn clockwise
        else if dx >= 0 && dy >= 0 { px = -dx; py = -dy }   // half turn
        else if dx < 0 && dy >= 0 { px = -dy; py = dx }     // quarter turn anticlockwise
        return SIMD2(px + 0.5, py + 0.5)
    }
}

/// Reflections across the sides and the diagonals of a square (p4m: eight-way symmetry).
struct ReflectedEightFold: TileFold {
    var reach: Double { 0.75 }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> {
        let a = TileLattice.reflect(u), b = TileLattice.reflect(v)
        return a >= b ? SIMD2(a, b) : SIMD2(b, a)
    }
}

/// A translation combined with a reflection across the tile's middle line (glide reflection, group pg).
struct GlideFold: TileFold {
    var reach: Double { 0.75 }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> {
        let x = u + 0.5
        let column = x.rounded(.down)
        var b = TileLattice.wrap(v)
        if Int(column) & 1 != 0 { b = -b }
        return SIMD2(x - column - 0.5, b)
    }
}

/// A hexagonal lattice (spacing `scale`) with a point group about each lattice point: turns by `sector`, and
/// reflections when `mirror` (six-fold turns p6, three mirrors p3m1, six mirrors p6m). `offset` moves the
/// fundamental region's centre to the frame's origin.
struct HexFold: TileFold {
    let scale: Float
    let sector: Float
    let mirror: Bool
    let offset: SIMD2<Float>
    var reach: Double { Double(scale) * 0.6 + Double((offset * offset).sum().squareRoot()) }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> {
        let x = u / scale + offset.x / scale, y = v / scale + offset.y / scale
        let c = TileLattice.nearestHexPoint(x, y)
        let q = TileLattice.polarFold(x - c.x, y - c.y, sector: sector, mirror: mirror)
        return q * scale - offset
    }
}
