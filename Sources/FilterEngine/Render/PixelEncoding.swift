/// Conversions between the working space and 8-bit sRGB, the hot loops at each end of a render.
public enum PixelEncoding {
    /// Working-space pixels → sRGB bytes with straight alpha.
    @inline(__always)
    public static func encodeSRGB8(_ row: UnsafePointer<Pixel>, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        ColorMath.encodeTable.withUnsafeBufferPointer { table in
            let lut = table.baseAddress!
            for i in 0..<count {
                let p = row[i]
                var a = p.w
                a = a < 0 ? 0 : (a > 1 ? 1 : a)
                var r = p.x, g = p.y, b = p.z
                if a < 1 {
                    let inv: Float = a > 0 ? 1 / a : 0
                    r *= inv; g *= inv; b *= inv
                }
                r = r < 0 ? 0 : (r > 1 ? 1 : r)
                g = g < 0 ? 0 : (g > 1 ? 1 : g)
                b = b < 0 ? 0 : (b > 1 ? 1 : b)
                let o = out + 4 * i
                o[0] = lut[Int(r * 65535 + 0.5)]
                o[1] = lut[Int(g * 65535 + 0.5)]
                o[2] = lut[Int(b * 65535 + 0.5)]
                o[3] = UInt8(a * 255 + 0.5)
            }
        }
    }
}
