import CPixelLoops

/// Conversions between the working space and 8-bit sRGB, the hot loops at each end of a render.
public enum PixelEncoding {
    /// Working-space pixels (planar) → sRGB bytes with straight alpha: unpremultiply, table indices and alpha
    /// byte computed in C where the table look-ups are made, eight pixels at a time by AVX2 gathers (Swift has
    /// none), or sixty-four by AVX-512 byte permutes of `ColorMath.encodeSteps`; `encodeSRGB8Reference` is the same
    /// as a plain loop then the gathers.
    /// Measured on the 2-core dev VM (AMD EPYC, one thread, C model of these loops, 1080p): 16-bit indices
    /// and no alpha plane for opaque spans took 2.4 ms a frame where 32-bit indices took 3.4 ms; one fused
    /// scalar loop took 4.4 ms, and gathers (vpgatherdd) were slower than scalar look-ups on that CPU. On the
    /// Intel Xeon that replaced it, the same C model: 2.8 ms scalar look-ups, 1.6 ms gathered (opaque spans).
    @inline(__always)
    public static func encodeSRGB8(_ row: PlanarRow, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        let (r, g, b, a) = (row.r, row.g, row.b, row.a)
        // See ColorMath.encodeTable: the float's top bits index it; clamping the integer index handles
        // negatives, tiny values and values above 1 without branches.
        let base = Int32(ColorMath.encodeTableBase), top = Int32(ColorMath.encodeTableCount - 1)
        let shift = Int32(ColorMath.encodeTableShift)
        if isOpaque(a, count: count) {
            // Most spans of most renders: no division by alpha (measured 8% of an opaque sepia render), and the
            // indices computed where they are gathered, which the C model measured faster still (1.6 ms a frame
            // against 2.3 ms through the index planes).
            withEncodeTables { table, steps in
                pixelloops_encode_srgb8_opaque(r, g, b, Int32(count), table, shift, base, top, steps, out)
            }
            return
        }
        // With alpha: the steps of `encodeSRGB8Reference` fused in C (indices computed where they are gathered),
        // the same bytes. A resampled opaque photo lands here, its alpha a few ulps off 1. Measured on the 2-core
        // dev VM (C model, one thread): 1.17 ms a megapixel against 1.52 for the loop then the gathers.
        withEncodeTables { table, steps in
            pixelloops_encode_srgb8_alpha(r, g, b, a, Int32(count), table, shift, base, top, steps, out)
        }
        if hasAlphaAboveOne(a, count: count) { encodeAlphaAboveOne(row, count: count, into: out) }
    }

    /// `ColorMath.encodeTable` and its steps (nil without them) for the C encoders.
    @inline(__always) static func withEncodeTables(_ body: (UnsafePointer<UInt8>, UnsafePointer<UInt8>?) -> Void) {
        ColorMath.encodeTable.withUnsafeBufferPointer { table in
            guard let steps = ColorMath.encodeSteps else { return body(table.baseAddress!, nil) }
            steps.withUnsafeBufferPointer { body(table.baseAddress!, $0.baseAddress!) }
        }
    }

    /// Alphas up to this are 1 with a sum's rounding (a blur's weights summing to 1 give 1 ± a few ulps):
    /// written as 1, a byte moves by under 0.004 of a level. Measured (perf, one thread, bench case i, the zoom
    /// blur): the exact rule for them, a scalar powf a channel, was 18% of the frame.
    static let alphaAboveOne: Float = 1 + 1.0 / 65536

    /// Whether some alpha of a span is above `alphaAboveOne` (NaN may say yes; `encodeAlphaAboveOne` checks
    /// again): an integer max of the bit patterns, which vectorises (positive floats order as their bits do).
    @inline(__always) static func hasAlphaAboveOne(_ a: UnsafeMutablePointer<Float>, count: Int) -> Bool {
        var top = Int32.min
        for i in 0..<count { top = max(top, Int32(bitPattern: a[i].bitPattern)) }
        return top > Int32(bitPattern: alphaAboveOne.bitPattern)
    }

    /// Rewrites the colour bytes of pixels whose alpha is above 1 (a colour matrix's alpha row, say) as Core
    /// Image's 8-bit output makes them: it is premultiplied, the sRGB curve applied to the straight colour and
    /// the result multiplied by the unclamped alpha, then clamped to 1, while alpha clamps to 1. Written with
    /// straight alpha 1 that is min(1, alpha · sRGB(colour / alpha)). Fitted on Apple's iOS 7 CIColorMatrix
    /// render (alpha row 1.25 on an opaque photo): 74.1 dB in Python, where the straight colour alone (our old
    /// output) gave 22.7 dB. Below 1 both are the same, so nothing else changes.
    static func encodeAlphaAboveOne(_ row: PlanarRow, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        let (r, g, b, a) = (row.r, row.g, row.b, row.a)
        for i in 0..<count where a[i] > alphaAboveOne {
            let alpha = a[i], inv = 1 / alpha
            func byte(_ linear: Float) -> UInt8 {
                let v = ColorMath.clamp01(ColorMath.sRGB(fromLinear: linear * inv)) * alpha
                // NaN (from a NaN colour or an infinite alpha) writes 0, never traps.
                return v >= 1 ? 255 : v > 0 ? UInt8(v * 255 + 0.5) : 0
            }
            out[4 * i] = byte(r[i]); out[4 * i + 1] = byte(g[i]); out[4 * i + 2] = byte(b[i])
        }
    }

    /// What `encodeSRGB8` gives a +0 pixel (the transparent outside of an image), for writing it directly.
    static let transparentRGBA8: [UInt8] = {
        var planes: [Float] = [0, 0, 0, 0], bytes: [UInt8] = [0, 0, 0, 0]
        planes.withUnsafeMutableBufferPointer { p in
            bytes.withUnsafeMutableBufferPointer { encodeSRGB8(PlanarRow(base: p.baseAddress!, stride: 1), count: 1,
                                                               into: $0.baseAddress!) }
        }
        return bytes
    }()

    /// Fills `count` pixels of `out` with `transparentRGBA8`.
    @inline(__always) static func fillTransparent(_ out: UnsafeMutablePointer<UInt8>, count: Int) {
        guard count > 0 else { return }
        let t = transparentRGBA8
        if t[0] == t[1], t[1] == t[2], t[2] == t[3] {
            out.update(repeating: t[0], count: 4 * count)
            return
        }
        for i in 0..<count { for c in 0..<4 { out[4 * i + c] = t[c] } }
    }

    /// The encode of spans with alpha as plain Swift (the reference the C loop follows; tests compare them).
    static func encodeSRGB8Reference(_ row: PlanarRow, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        // Four planes of 16-bit table indices (the table has 15 Ki entries).
        let scratch = UnsafeMutablePointer<UInt16>.allocate(capacity: 4 * max(1, count))
        defer { scratch.deallocate() }
        let ir = scratch, ig = scratch + count, ib = scratch + 2 * count, ia = scratch + 3 * count
        let (r, g, b, a) = (row.r, row.g, row.b, row.a)
        let base = Int32(ColorMath.encodeTableBase), top = Int32(ColorMath.encodeTableCount - 1)
        let shift = Int32(ColorMath.encodeTableShift)
        @inline(__always) func index(_ v: Float) -> UInt16 {
            UInt16(truncatingIfNeeded: min(max((Int32(bitPattern: v.bitPattern) &>> shift) &- base, 0), top))
        }
        for i in 0..<count {
            let alpha = a[i]
            // A transparent pixel has no colour.
            let inv: Float = alpha > 0 ? 1 / alpha : 0
            ir[i] = index(r[i] * inv); ig[i] = index(g[i] * inv); ib[i] = index(b[i] * inv)
            ia[i] = UInt16(truncatingIfNeeded: Int32(min(max(alpha, 0), 1) * 255 + 0.5))
        }
        ColorMath.encodeTable.withUnsafeBufferPointer { table in
            pixelloops_encode_srgb8(ir, ig, ib, ia, Int32(count), table.baseAddress!, out)
        }
        if hasAlphaAboveOne(a, count: count) { encodeAlphaAboveOne(row, count: count, into: out) }
    }

    /// Whether every alpha of a span is exactly 1: an integer OR of bit differences, which vectorises (a float
    /// min/max reduction does not, for NaN's sake).
    @inline(__always) static func isOpaque(_ a: UnsafeMutablePointer<Float>, count: Int) -> Bool {
        let one = Float(1).bitPattern
        var difference: UInt32 = 0
        for i in 0..<count { difference |= a[i].bitPattern ^ one }
        return difference == 0
    }
}
