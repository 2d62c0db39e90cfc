/// Conversions between the working space and 8-bit sRGB, the hot loops at each end of a render.
public enum PixelEncoding {
    /// Working-space pixels → sRGB bytes with straight alpha.
    @inline(__always)
    public static func encodeSRGB8(_ row: UnsafePointer<Pixel>, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        ColorMath.encodeTable.withUnsafeBufferPointer { table in
            let lut = table.baseAddress!
            let top = Float(ColorMath.encodeTableSize - 1)
            for i in 0..<count {
                let p = row[i]
                let a = min(max(p.w, 0), 1)
                // Unpremultiply; a transparent pixel has no colour.
                let inv: Float = a > 0 ? 1 / a : 0
                let r = min(max(p.x * inv, 0), 1), g = min(max(p.y * inv, 0), 1), b = min(max(p.z * inv, 0), 1)
                let word = UInt32(lut[Int(r.squareRoot() * top + 0.5)])
                    | UInt32(lut[Int(g.squareRoot() * top + 0.5)]) << 8
                    | UInt32(lut[Int(b.squareRoot() * top + 0.5)]) << 16
                    | UInt32(a * 255 + 0.5) << 24
                UnsafeMutableRawPointer(out + 4 * i).storeBytes(of: word.littleEndian, as: UInt32.self)
            }
        }
    }
}
