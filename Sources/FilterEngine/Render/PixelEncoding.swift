/// Conversions between the working space and 8-bit sRGB, the hot loops at each end of a render.
public enum PixelEncoding {
    /// Scratch for `encodeSRGB8`: four planes of table indices, one span long.
    public static func makeIndexScratch() -> UnsafeMutablePointer<Int32> {
        .allocate(capacity: RowEvaluator.spanWidth * 4)
    }

    /// Working-space pixels (planar) → sRGB bytes with straight alpha.
    /// First a plain loop the compiler vectorises (unpremultiply, table indices, alpha byte), then the table
    /// look-ups, which cannot be vectorised, packed four bytes at a time.
    @inline(__always)
    public static func encodeSRGB8(_ row: PlanarRow, count: Int, into out: UnsafeMutablePointer<UInt8>,
                                   scratch: UnsafeMutablePointer<Int32>) {
        let stride = RowEvaluator.spanWidth
        let ir = scratch, ig = scratch + stride, ib = scratch + 2 * stride, ia = scratch + 3 * stride
        let (r, g, b, a) = (row.r, row.g, row.b, row.a)
        let base = Int32(ColorMath.encodeTableBase), top = Int32(ColorMath.encodeTableCount - 1)
        let shift = Int32(ColorMath.encodeTableShift)
        for i in 0..<count {
            let alpha = a[i]
            // A transparent pixel has no colour.
            let inv: Float = alpha > 0 ? 1 / alpha : 0
            // See ColorMath.encodeTable: the float's top bits index it; clamping the integer index handles
            // negatives, tiny values and values above 1 without branches.
            ir[i] = min(max((Int32(bitPattern: (r[i] * inv).bitPattern) &>> shift) &- base, 0), top)
            ig[i] = min(max((Int32(bitPattern: (g[i] * inv).bitPattern) &>> shift) &- base, 0), top)
            ib[i] = min(max((Int32(bitPattern: (b[i] * inv).bitPattern) &>> shift) &- base, 0), top)
            ia[i] = Int32(min(max(alpha, 0), 1) * 255 + 0.5)
        }
        ColorMath.encodeTable.withUnsafeBufferPointer { table in
            let lut = table.baseAddress!
            for i in 0..<count {
                let word = UInt32(lut[Int(ir[i])]) | UInt32(lut[Int(ig[i])]) << 8 | UInt32(lut[Int(ib[i])]) << 16
                    | UInt32(ia[i]) << 24
                UnsafeMutableRawPointer(out + 4 * i).storeBytes(of: word.littleEndian, as: UInt32.self)
            }
        }
    }
}
