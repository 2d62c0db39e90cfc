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
    static func warp<F: TileFold>(_ image: Image, frame: TileFrame, fold: F, name: String,
                                  clampingToExtent: Bool = false) -> Image {
        let f = frame
        let invW = 1 / f.width
        // Clamping the sample points to the pixel centres inside the extent reads the image as if clamped to
        // its extent, while the region of interest stays the image itself (a huge tile no longer asks for a
        // huge clamped intermediate).
        let e = image.extent
        let clamp = clampingToExtent && !e.isInfinite && !e.isEmpty
        let (loX, hiX) = clamp ? (Float(e.minX) + 0.5, Float(e.maxX) - 0.5) : (-Float.infinity, Float.infinity)
        let (loY, hiY) = clamp ? (Float(e.minY) + 0.5, Float(e.maxY) - 0.5) : (-Float.infinity, Float.infinity)
        let kernel = WarpKernel(name: name) { coords, x0, y, count in
            let dy = Float(y) + 0.5 - f.cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - f.cx
                let u = (dx * f.cosA + dy * f.sinA) * invW
                let v = (dy * f.cosA - dx * f.sinA) * invW
                let q = fold.fold(u, v)
                let su = q.x * f.width, sv = q.y * f.width
                let x = f.cx + su * f.cosA - sv * f.sinA, y = f.cy + su * f.sinA + sv * f.cosA
                coords[i] = SIMD2(min(max(x, loX), hiX), min(max(y, loY), hiY))
            }
        }
        let r = fold.reach * Double(f.width) + 2
        let region = Rect(x: Double(f.cx) - r, y: Double(f.cy) - r, width: 2 * r, height: 2 * r)
        let needed = clamp ? e.insetBy(dx: -1, dy: -1) : e
        return kernel.apply(extent: .infinite, input: image) { _ in region.intersection(needed) }
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
        // The four corners of the lattice cell; unrolled (an array of candidates would allocate per pixel).
        var bx = m0 * s3, by = n0 + m0 * 0.5
        var bestD = (u - bx) * (u - bx) + (v - by) * (v - by)
        @inline(__always) func consider(_ mm: Float, _ nn: Float) {
            let px = mm * s3, py = nn + mm * 0.5
            let d = (u - px) * (u - px) + (v - py) * (v - py)
            if d < bestD { bestD = d; bx = px; by = py }
        }
        consider(m0 + 1, n0)
        consider(m0, n0 + 1)
        consider(m0 + 1, n0 + 1)
        let best = SIMD2<Float>(bx, by)
        return best
    }

    /// atan2 to about 1e-5 radians (a minimax polynomial on [0, 1] and the octant symmetries): only used to pick
    /// a sector, where that error moves a sector boundary by about a hundred-thousandth of the radius.
    @inline(__always) static func fastAtan2(_ y: Float, _ x: Float) -> Float {
        let ax = abs(x), ay = abs(y)
        let hi = max(ax, ay), lo = min(ax, ay)
        if hi == 0 { return 0 }
        let a = lo / hi, s = a * a
        var r = ((-0.0464964749 * s + 0.15931422) * s - 0.327622764) * s * a + a
        if ay > ax { r = 1.57079637 - r }
        if x < 0 { r = 3.14159274 - r }
        return y < 0 ? -r : r
    }

    /// Point-group folds about the origin: turn into the sector [0, sector) and, with `mirror`, reflect the
    /// second half of it onto the first. One atan2 a pixel finds the sector; the turn and the reflection use
    /// precomputed cosines and sines.
    @inline(__always) static func polarFold(_ x: Float, _ y: Float, _ g: PointGroup) -> SIMD2<Float> {
        let t = fastAtan2(y, x)
        // Clamped as a float before the conversion (selects: NaN, from a centre at 1e30, goes to -count).
        let top = Float(g.count)
        var kf = (t * g.inverseSector).rounded(.down)
        kf = kf > -top ? kf : -top
        kf = kf < top ? kf : top
        let k = Int(kf)
        let c = g.cosTable[k + g.count], s = g.sinTable[k + g.count]
        // Turn by -k sectors.
        let px = x * c + y * s, py = y * c - x * s
        if g.mirror, py * g.cosHalf - px * g.sinHalf > 0 {
            return SIMD2(px * g.cosFull + py * g.sinFull, px * g.sinFull - py * g.cosFull)
        }
        return SIMD2(px, py)
    }
}

// MARK: Folds

/// A parallelogram lattice (sides 1 and 1 at `acute` from each other), in lattice coordinates (a, b): b runs
/// along the slanted side, a along the u axis. Its sine is held away from 0 so the lattice never degenerates.
struct ParallelogramLattice: Sendable {
    let cosB: Float, sinB: Float, invSinB: Float
    init(acute: Double) {
        let s = sin(acute)
        cosB = Float(cos(acute)); sinB = Float(abs(s) < 0.01 ? (s < 0 ? -0.01 : 0.01) : s)
        invSinB = 1 / sinB
    }

    /// Folds (u, v) by folding each lattice coordinate into [-0.5, 0.5] with `f` (wrap or reflect).
    @inline(__always) func fold(_ u: Float, _ v: Float, _ f: (Float) -> Float) -> SIMD2<Float> {
        let t = v * invSinB
        let b = f(t)
        let a = f(u - t * cosB)
        return SIMD2(a + b * cosB, b * sinB)
    }
}

/// Translations along a parallelogram lattice.
struct TranslatedFold: TileFold {
    let lattice: ParallelogramLattice
    init(acute: Double) { lattice = ParallelogramLattice(acute: acute) }
    var reach: Double { 1.5 }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> { lattice.fold(u, v, TileLattice.wrap) }
}

/// Reflections across the sides of a parallelogram (a rectangle at a right angle: four-way symmetry).
struct ReflectedFold: TileFold {
    let lattice: ParallelogramLattice
    init(acute: Double) { lattice = ParallelogramLattice(acute: acute) }
    var reach: Double { 1.5 }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> { lattice.fold(u, v, TileLattice.reflect) }
}

/// Four-way reflected symmetry on a lattice of diamonds (rhombi of side 1 with the acute angle between their
/// sides; wallpaper group cmm): mirrors along both diagonals of every diamond. Apple documents
/// CIFourfoldReflectedTile as "4-way reflected symmetry" whose acute angle makes "thin diamond tiles" when small
/// and fatter ones when large; mirrors along the diamond's two perpendicular diagonals are the isometric reading
/// of that (reflecting across a slanted parallelogram's sides is not an isometry, and is CIParallelogramTile's
/// look). The diamond's long diagonal lies along u. The fundamental region is the quarter diamond u, v ≥ 0.
struct DiamondReflectedFold: TileFold {
    let halfU: Float, halfV: Float
    init(acute: Double) {
        let a = min(max(abs(acute), 0.02), Double.pi - 0.02)
        halfU = Float(cos(a / 2)); halfV = Float(sin(a / 2))
    }
    var reach: Double { 1.1 }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> {
        // The centred rectangular lattice of diamond centres: cells 2·halfU × 2·halfV, plus their corners.
        var x = u - 2 * halfU * (u / (2 * halfU)).rounded()
        var y = v - 2 * halfV * (v / (2 * halfV)).rounded()
        if abs(x) / halfU + abs(y) / halfV > 1 {
            x -= x < 0 ? -halfU : halfU
            y -= y < 0 ? -halfV : halfV
        }
        return SIMD2(abs(x), abs(y))
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
        // Odd columns reflect: parity taken in floats (an integer conversion of a huge column is undefined).
        if column - 2 * (column * 0.5).rounded(.down) != 0 { b = -b }
        return SIMD2(x - column - 0.5, b)
    }
}

/// A rotation group of `count` sectors about the origin, with mirrors when `mirror`. The cosines and sines of
/// the sector turns sit in raw memory owned by `storage` (which lives as long as the group), so the per-pixel
/// code reads plain pointers.
struct PointGroup: @unchecked Sendable {
    final class Storage: @unchecked Sendable {
        let table: UnsafeMutablePointer<Float>
        init(count: Int) { table = .allocate(capacity: 2 * (2 * count + 1)) }
        deinit { table.deallocate() }
    }

    let count: Int
    let mirror: Bool
    let inverseSector: Float
    let storage: Storage
    let cosTable: UnsafeMutablePointer<Float>, sinTable: UnsafeMutablePointer<Float>
    /// The half-sector line (cosHalf, sinHalf) and the reflection across it (by twice its angle).
    let cosHalf: Float, sinHalf: Float, cosFull: Float, sinFull: Float

    init(count: Int, mirror: Bool) {
        self.count = count
        self.mirror = mirror
        let sector = 2 * Double.pi / Double(count)
        inverseSector = Float(1 / sector)
        storage = Storage(count: count)
        cosTable = storage.table
        sinTable = storage.table + (2 * count + 1)
        for k in -count...count {
            cosTable[k + count] = Float(cos(Double(k) * sector))
            sinTable[k + count] = Float(sin(Double(k) * sector))
        }
        cosHalf = Float(cos(sector / 2)); sinHalf = Float(sin(sector / 2))
        cosFull = Float(cos(sector)); sinFull = Float(sin(sector))
    }
}

/// A hexagonal lattice (spacing `scale`, basis vectors at 30° and 90°) with a point group about each lattice
/// point: six turns (p6), three mirrors (p3m1) or six mirrors (p6m). The mirrors include the directions of the
/// hexagonal cell's edges, so the reflected patterns are continuous across cells. `offset` moves the
/// fundamental region's centre to the frame's origin.
struct HexFold: TileFold {
    let scale: Float
    let group: PointGroup
    let offset: SIMD2<Float>
    var reach: Double { Double(scale) * 0.6 + Double((offset * offset).sum().squareRoot()) }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> {
        let x = u / scale + offset.x / scale, y = v / scale + offset.y / scale
        let c = TileLattice.nearestHexPoint(x, y)
        let q = TileLattice.polarFold(x - c.x, y - c.y, group)
        return q * scale - offset
    }
}
