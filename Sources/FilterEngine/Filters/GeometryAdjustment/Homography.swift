import Foundation

/// A 3×3 projective transform, x' = (m0 x + m1 y + m2) / (m6 x + m7 y + m8), and likewise y' with m3, m4, m5.
struct Homography: Sendable {
    var m: [Double]

    static let identity = Homography(m: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// The transform taking the unit square's corners (0,0), (1,0), (1,1), (0,1) to p0, p1, p2, p3
    /// (the classic square-to-quadrilateral construction), or nil when the quadrilateral is degenerate.
    static func squareToQuad(_ p0: SIMD2<Double>, _ p1: SIMD2<Double>, _ p2: SIMD2<Double>,
                             _ p3: SIMD2<Double>) -> Homography? {
        let sx = p0.x - p1.x + p2.x - p3.x, sy = p0.y - p1.y + p2.y - p3.y
        let dx1 = p1.x - p2.x, dx2 = p3.x - p2.x, dy1 = p1.y - p2.y, dy2 = p3.y - p2.y
        var g = 0.0, h = 0.0
        if abs(sx) > 1e-12 || abs(sy) > 1e-12 {
            let det = dx1 * dy2 - dx2 * dy1
            guard abs(det) > 1e-12 else { return nil }
            g = (sx * dy2 - dx2 * sy) / det
            h = (dx1 * sy - sx * dy1) / det
        }
        let a = p1.x - p0.x + g * p1.x, b = p3.x - p0.x + h * p3.x, c = p0.x
        let d = p1.y - p0.y + g * p1.y, e = p3.y - p0.y + h * p3.y, f = p0.y
        let result = Homography(m: [a, b, c, d, e, f, g, h, 1])
        guard let _ = result.inverted else { return nil }
        return result
    }

    /// The transform taking the rectangle's corners (bottom-left, bottom-right, top-right, top-left) to the
    /// four points in that order.
    static func rectToQuad(_ r: Rect, _ bl: SIMD2<Double>, _ br: SIMD2<Double>, _ tr: SIMD2<Double>,
                           _ tl: SIMD2<Double>) -> Homography? {
        guard r.width > 0, r.height > 0, let q = squareToQuad(bl, br, tr, tl) else { return nil }
        let toUnit = Homography(m: [1 / r.width, 0, -r.minX / r.width, 0, 1 / r.height, -r.minY / r.height, 0, 0, 1])
        return q.after(toUnit)
    }

    /// `self` applied after `first`.
    func after(_ first: Homography) -> Homography {
        let a = m, b = first.m
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { r[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j] } }
        return Homography(m: r)
    }

    var inverted: Homography? {
        let a = m
        let c0 = a[4] * a[8] - a[5] * a[7], c1 = a[5] * a[6] - a[3] * a[8], c2 = a[3] * a[7] - a[4] * a[6]
        let det = a[0] * c0 + a[1] * c1 + a[2] * c2
        guard abs(det) > 1e-15, det.isFinite else { return nil }
        let inv = [c0, a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
                   c1, a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
                   c2, a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3]].map { $0 / det }
        return Homography(m: inv)
    }

    /// The mapped point, or nil at or beyond the horizon (non-positive w).
    func apply(_ x: Double, _ y: Double) -> SIMD2<Double>? {
        let w = m[6] * x + m[7] * y + m[8]
        guard w > 1e-12 else { return nil }
        return SIMD2((m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w)
    }

    /// Bounding box of a mapped rectangle, or nil when part of it crosses the horizon.
    func apply(to r: Rect) -> Rect? {
        if r.isInfinite || r.isEmpty { return nil }
        var pts: [SIMD2<Double>] = []
        for (x, y) in [(r.minX, r.minY), (r.maxX, r.minY), (r.maxX, r.maxY), (r.minX, r.maxY)] {
            guard let p = apply(x, y) else { return nil }
            pts.append(p)
        }
        return bounds(pts)
    }

    /// The warp sampling through this homography (this maps output coordinates to source coordinates).
    /// Points beyond the horizon sample nothing.
    func warp(_ image: Image, extent: Rect, name: String, sampling: WarpKernel.Sampling = .linear) -> Image {
        let f = m.map { Float($0) }
        let (a, b, c, d, e, g, h, i, j) = (f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8])
        let kernel = WarpKernel(name: name, sampling: sampling) { coords, x0, y, count in
            let py = Float(y) + 0.5
            for k in 0..<count {
                let px = Float(x0 + k) + 0.5
                let w = h * px + i * py + j
                if w > 1e-9 {
                    let inv = 1 / w
                    coords[k] = SIMD2((a * px + b * py + c) * inv, (d * px + e * py + g) * inv)
                } else {
                    coords[k] = SIMD2(-1e30, -1e30)
                }
            }
        }
        let inputExtent = image.extent
        let me = self
        return kernel.apply(extent: extent, input: image) { rect in
            guard let r = me.apply(to: rect) else { return inputExtent }
            return r.insetBy(dx: -1, dy: -1).intersection(inputExtent)
        }
    }
}

func bounds(_ points: [SIMD2<Double>]) -> Rect {
    let xs = points.map(\.x), ys = points.map(\.y)
    let x0 = xs.min()!, y0 = ys.min()!
    return Rect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
}
