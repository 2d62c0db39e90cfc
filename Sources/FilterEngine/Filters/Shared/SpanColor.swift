import Foundation

/// Span helpers shared by the colour adjustments: straight (un-premultiplied) colour in place, and conversions
/// between the working space and a named colour space. Each is its own short loop over a span that is still in
/// L1 cache, so every loop vectorises; a kernel chains them (unpremultiply, convert, work, convert back,
/// premultiply).
enum SpanColor {
    /// Divides colour by alpha (transparent pixels get colour 0).
    @inline(__always) static func unpremultiply(_ p: PlanarRow, _ count: Int) {
        let (r, g, b, a) = (p.r, p.g, p.b, p.a)
        for i in 0..<count {
            let alpha = a[i]
            let inv: Float = alpha > 0 ? 1 / alpha : 0
            r[i] *= inv; g[i] *= inv; b[i] *= inv
        }
    }

    /// Multiplies colour by alpha.
    @inline(__always) static func premultiply(_ p: PlanarRow, _ count: Int) {
        let (r, g, b, a) = (p.r, p.g, p.b, p.a)
        for i in 0..<count {
            let alpha = a[i]
            r[i] *= alpha; g[i] *= alpha; b[i] *= alpha
        }
    }

    /// The sRGB transfer curve applied to each colour channel (sign kept for extended range).
    @inline(__always) static func encodeSRGB(_ p: PlanarRow, _ count: Int) {
        let (r, g, b) = (p.r, p.g, p.b)
        for i in 0..<count {
            r[i] = ColorMath.sRGB(fromLinear: r[i])
            g[i] = ColorMath.sRGB(fromLinear: g[i])
            b[i] = ColorMath.sRGB(fromLinear: b[i])
        }
    }

    /// The inverse of `encodeSRGB`.
    @inline(__always) static func decodeSRGB(_ p: PlanarRow, _ count: Int) {
        let (r, g, b) = (p.r, p.g, p.b)
        for i in 0..<count {
            r[i] = ColorMath.linear(fromSRGB: r[i])
            g[i] = ColorMath.linear(fromSRGB: g[i])
            b[i] = ColorMath.linear(fromSRGB: b[i])
        }
    }

    /// A 3×3 matrix (rows) applied to the colour channels.
    @inline(__always) static func multiply(_ p: PlanarRow, _ count: Int, _ m: [Float]) {
        let (r, g, b) = (p.r, p.g, p.b)
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        for i in 0..<count {
            let cr = r[i], cg = g[i], cb = b[i]
            r[i] = m0 * cr + m1 * cg + m2 * cb
            g[i] = m3 * cr + m4 * cg + m5 * cb
            b[i] = m6 * cr + m7 * cg + m8 * cb
        }
    }
}
