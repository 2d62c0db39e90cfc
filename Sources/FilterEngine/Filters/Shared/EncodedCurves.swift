import Foundation

/// Per-pixel curves for the colour effects that Core Image defines on sRGB-encoded values (posterize, dither,
/// the photo-effect looks): table look-ups with linear interpolation instead of `powf`, which would cost more
/// than everything else in those kernels together.
///
/// A table holds `steps + 1` samples of a function on [0, 1]. Between samples it interpolates; outside [0, 1]
/// it continues the end segment's line, so callers that want clamping clamp first, and callers that want
/// extended-range values carried through ("extrapolate") get a sensible linear continuation.
enum EncodedCurves {
    static let steps = 1024

    /// A table of `steps + 1` floats that lives as long as the kernels that captured it.
    final class Table: @unchecked Sendable {
        let values: UnsafeMutablePointer<Float>

        init(_ function: (Double) -> Double) {
            values = .allocate(capacity: EncodedCurves.steps + 1)
            for i in 0...EncodedCurves.steps {
                values[i] = Float(function(Double(i) / Double(EncodedCurves.steps)))
            }
        }

        deinit { values.deallocate() }
    }

    /// sRGB encoding indexed by the square root of the linear value: the curve is nearly straight in √v, so
    /// 1025 samples keep the error under 4e-6 over [0, 1] (checked in ColorEffectTests).
    static let encodeBySquareRoot = Table { s in Double(ColorMath.sRGB(fromLinear: Float(s * s))) }

    /// sRGB decoding indexed by the encoded value (error under 1e-6 over [0, 1]).
    static let decode = Table { e in Double(ColorMath.linear(fromSRGB: Float(e))) }

    /// Interpolated look-up of `x` in a table; outside [0, 1] the end segments continue as straight lines.
    /// NaN reads index 0 (never an out-of-bounds index).
    @inline(__always) static func lookup(_ table: UnsafeMutablePointer<Float>, _ x: Float) -> Float {
        let n = Float(steps)
        let t = x * n
        let c = t > 0 ? (t < n - 1 ? t : n - 1) : 0
        let i = Int(c)
        let f = t - Float(i)
        let low = table[i]
        return low + (table[i + 1] - low) * f
    }

    /// Linear → sRGB-encoded, for any finite value (negatives continue the sRGB toe's straight line).
    @inline(__always) static func encode(_ v: Float, _ table: UnsafeMutablePointer<Float>) -> Float {
        let positive = v > 0 ? v : 0
        return lookup(table, positive.squareRoot()) + (v < 0 ? v * 12.92 : 0)
    }

    @inline(__always) static func clamp01(_ v: Float) -> Float { v > 0 ? (v < 1 ? v : 1) : 0 }

    // MARK: Whole-row forms
    //
    // A kernel that mixes look-ups with arithmetic in one loop stays scalar (the gathers stop the vectoriser).
    // Split into passes over a span's channel arrays, the arithmetic passes vectorise and the look-up passes
    // are tight loops of their own: measured 2–3× faster for the photo-effect kernel on the 2-core dev machine.

    /// `values[i] = lookup(table, values[i])` for a row.
    @inline(__always) static func lookup(_ table: UnsafeMutablePointer<Float>, row values: UnsafeMutablePointer<Float>,
                                         count: Int) {
        let n = Float(steps)
        for i in 0..<count {
            let t = values[i] * n
            let c = t > 0 ? (t < n - 1 ? t : n - 1) : 0
            let k = Int32(c)
            let f = t - Float(k)
            let low = table[Int(k)]
            values[i] = low + (table[Int(k) + 1] - low) * f
        }
    }

    /// Linear values to sRGB-encoded, in place, for a row.
    @inline(__always) static func encode(row values: UnsafeMutablePointer<Float>, count: Int,
                                         scratch: UnsafeMutablePointer<Float>, _ table: UnsafeMutablePointer<Float>) {
        for i in 0..<count {
            let v = values[i]
            scratch[i] = v < 0 ? v * 12.92 : 0
            values[i] = (v > 0 ? v : 0).squareRoot()
        }
        lookup(table, row: values, count: count)
        for i in 0..<count { values[i] += scratch[i] }
    }

    /// Runs `work` on a span's colour as straight sRGB-encoded values: unpremultiplies and encodes red, green
    /// and blue in place, runs `work` (which leaves linear values behind, typically through a decoding table),
    /// then premultiplies again.
    @inline(__always) static func withEncodedColour(_ p: PlanarRow, count: Int, _ work: () -> Void) {
        let enc = encodeBySquareRoot.values
        SpanColor.unpremultiply(p, count)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: count) { scratch in
            let scratch = scratch.baseAddress!
            for channel in [p.r, p.g, p.b] { encode(row: channel, count: count, scratch: scratch, enc) }
        }
        work()
        SpanColor.premultiply(p, count)
    }
}
