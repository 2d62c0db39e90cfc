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

    /// The fractional part, in [0, 1).
    @inline(__always) static func fract(_ x: Float) -> Float {
        let f = x - x.rounded(.down)
        return f < 1 ? f : 0
    }

    /// A triangle wave of period 2: x reflected back and forth inside [0, 1].
    @inline(__always) static func reflectUnit(_ x: Float) -> Float {
        let m = x - 2 * (x * 0.5).rounded(.down)
        return m > 1 ? 2 - m : m
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
//
// Core Image's conventions, fitted on Apple's iOS 7 renders (Xamarin docs, flower at centre (150, 150) or
// (100, 100), width 100 or 150, angle 0; each fold below reproduces its render at 99 dB unless stated): the lattice
// is spanned by width-long vectors turned by inputAngle, inputCenter is a lattice point and a *corner* of the
// fundamental region (never its middle), and the fold is done on lattice coordinates. The fundamental regions
// agree with the regions of interest Core Image's tile filters declare.

/// A parallelogram lattice (sides 1 and 1 at `acute` from each other), in lattice coordinates (a, b): b runs
/// along the slanted side, a along the u axis. Its sine is held away from 0 so the lattice never degenerates.
struct ParallelogramLattice: Sendable {
    let cosB: Float, sinB: Float, invSinB: Float
    init(acute: Double) {
        let s = sin(acute)
        cosB = Float(cos(acute)); sinB = Float(abs(s) < 0.01 ? (s < 0 ? -0.01 : 0.01) : s)
        invSinB = 1 / sinB
    }

    /// Folds (u, v) by folding each lattice coordinate into [0, 1] with `f` (fract or reflect).
    @inline(__always) func fold(_ u: Float, _ v: Float, _ f: (Float) -> Float) -> SIMD2<Float> {
        let t = v * invSinB
        let b = f(t)
        let a = f(u - t * cosB)
        return SIMD2(a + b * cosB, b * sinB)
    }
}

/// Translations along a parallelogram lattice: the cell [0, 1]² of lattice coordinates, its corner on the
/// centre, repeated (CIFourfoldTranslatedTile: 99 dB on Apple's iOS 7 render at width 150, acute π/2).
struct TranslatedFold: TileFold {
    let lattice: ParallelogramLattice
    init(acute: Double) { lattice = ParallelogramLattice(acute: acute) }
    var reach: Double { 2.1 }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> { lattice.fold(u, v, TileLattice.fract) }
}

/// Each lattice coordinate reflected back and forth inside [0, 1] (period 2): the cell at the centre mirrored
/// across its sides (CIFourfoldReflectedTile: 99 dB on Apple's iOS 7 render, period 2 × width; Core Image gives
/// CIParallelogramTile the same lattice, cell and region of interest).
struct ReflectedFold: TileFold {
    let lattice: ParallelogramLattice
    init(acute: Double) { lattice = ParallelogramLattice(acute: acute) }
    var reach: Double { 2.1 }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> { lattice.fold(u, v, TileLattice.reflectUnit) }
}

/// Quarter turns about the centre, the 2 × 2 block repeated (wallpaper group p4): the region is the cell
/// [0, 1]², as Core Image's region of interest for CIFourfoldRotatedTile says; the turn's sense is a guess (no
/// render).
struct RotatedFourFold: TileFold {
    var reach: Double { 1.5 }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> {
        let x = u - 2 * ((u + 1) * 0.5).rounded(.down), y = v - 2 * ((v + 1) * 0.5).rounded(.down)
        if x >= 0 { return y >= 0 ? SIMD2(x, y) : SIMD2(-y, x) }
        return y >= 0 ? SIMD2(y, -x) : SIMD2(-x, -y)
    }
}

/// Eight-way reflected symmetry (p4m): each coordinate's distance to the nearest whole number, then the pair
/// sorted so the point lands in the triangle (0, 0), (½, 0), (½, ½). Period = width (CIEightfoldReflectedTile:
/// 99 dB on Apple's iOS 7 render).
struct ReflectedEightFold: TileFold {
    var reach: Double { 0.75 }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> {
        let a = abs(u - u.rounded()), b = abs(v - v.rounded())
        return SIMD2(max(a, b), min(a, b))
    }
}

/// CIGlideReflectedTile as Apple's iOS 7 render shows it (99 dB): the square cell [0, 1]² at the centre
/// repeated without any reflection. (Core Image's current region of interest spans [0, 1] × [0, 2], which
/// hints at a real glide reflection in later versions; no render of one exists here.)
struct GlideFold: TileFold {
    var reach: Double { 1.5 }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> { SIMD2(TileLattice.fract(u), TileLattice.fract(v)) }
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
/// fundamental region's centre to the frame's origin. The point group folds into the sector starting at
/// `start` radians (the polar fold's own sector starts at 0); the folded point is then turned by `turn` and moved
/// by `shift` (a lattice vector and a turn of the group: another copy of the same fundamental region).
struct HexFold: TileFold {
    let scale: Float
    let group: PointGroup
    let offset: SIMD2<Float>
    let startCos: Float, startSin: Float, turnCos: Float, turnSin: Float
    let shift: SIMD2<Float>

    init(scale: Float, group: PointGroup, offset: SIMD2<Float>, start: Double = 0, turn: Double = 0,
         shift: SIMD2<Float> = .zero) {
        self.scale = scale; self.group = group; self.offset = offset
        startCos = Float(cos(start)); startSin = Float(sin(start))
        turnCos = Float(cos(turn)); turnSin = Float(sin(turn))
        self.shift = shift
    }

    var reach: Double {
        Double(scale) * 0.6 + Double((offset * offset).sum().squareRoot()) + Double((shift * shift).sum().squareRoot())
    }
    func fold(_ u: Float, _ v: Float) -> SIMD2<Float> {
        let x = u / scale + offset.x / scale, y = v / scale + offset.y / scale
        let c = TileLattice.nearestHexPoint(x, y)
        // Turned back by the sector's start, folded, turned forward again.
        let dx = x - c.x, dy = y - c.y
        let q = TileLattice.polarFold(dx * startCos + dy * startSin, dy * startCos - dx * startSin, group)
        let px = q.x * startCos - q.y * startSin, py = q.x * startSin + q.y * startCos
        let r = SIMD2(px * turnCos - py * turnSin, px * turnSin + py * turnCos) + shift
        return r * scale - offset
    }
}
