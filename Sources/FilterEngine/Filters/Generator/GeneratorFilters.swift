import Foundation

enum GeneratorFilters {
    static let all: [String: FilterImplementation] = [
        "CIConstantColorGenerator": constantColor,
        "CICheckerboardGenerator": checkerboard,
        "CIRandomGenerator": random,
    ]

    static func constantColor(_ inputs: FilterInputs) throws -> Image {
        Image(color: try inputs.color("inputColor"))
    }

    /// Squares of `width` pixels with a corner at the centre; sharpness 1 gives hard edges, lower values blend
    /// the two colours over a band (1 - sharpness) of the square's width.
    /// 0 for an even whole number, 1 for an odd one (beyond 2^24 every float is even; NaN gives NaN ≠ 0).
    @inline(__always) static func parity(_ whole: Float) -> Float { whole - 2 * (whole * 0.5).rounded(.down) }

    static func checkerboard(_ inputs: FilterInputs) throws -> Image {
        let center = try inputs.point("inputCenter")
        let c0 = try inputs.color("inputColor0").workingPixel
        let c1 = try inputs.color("inputColor1").workingPixel
        let width = Float(try inputs.number("inputWidth"))
        let sharpness = try inputs.float("inputSharpness")
        guard width > 0 else { return Image(color: try inputs.color("inputColor0")) }
        let cx = Float(center.x), cy = Float(center.y)
        // Blend band, in squares: at sharpness 1 just under a pixel, for antialiasing.
        let band = max((1 - sharpness) * 0.5, 0.5 / width)
        return ColorKernel(name: "checkerboard") { span in
            let fy = (Float(span.y) + 0.5 - cy) / width
            let ty = fy - fy.rounded(.down)
            // Parity in floats: a width of 1e-30 makes fy huge, where an integer conversion is undefined.
            let sy: Float = parity(fy.rounded(.down)) == 0 ? 1 : -1
            // Distance to the nearest horizontal edge, in squares, and the mix it gives.
            let my = min(min(ty, 1 - ty) / band, 1) * sy
            let out = span.out
            for i in 0..<span.count {
                let fx = (Float(span.x0 + i) + 0.5 - cx) / width
                let tx = fx - fx.rounded(.down)
                let sx: Float = parity(fx.rounded(.down)) == 0 ? 1 : -1
                let mx = min(min(tx, 1 - tx) / band, 1) * sx
                // mx·my runs from -1 (colour 1) to 1 (colour 0), 0 on an edge.
                let t = (mx * my + 1) * 0.5
                out[i] = c1 + (c0 - c1) * t
            }
        }.apply(extent: .infinite, inputs: [])
    }

    /// Uniform noise in each channel (16-bit resolution), a pure function of the pixel coordinate so that
    /// tiles agree: two 32-bit integer hashes of (x mod 256, y mod 256), each split into two channels. 32-bit
    /// multiplies vectorise with AVX2 where a 64-bit mix does not (measured 3× faster on the dev machine).
    /// Apple's noise is a fixed 256×256 texture repeated: its iOS 7 and iOS 13.3 renders (shared/conformance
    /// CIRandomGenerator) are the same pixels, and each repeats exactly every 256 pixels in x and y. Its statistics,
    /// which this matches (its pixels are Apple's, not ours to copy): each of r, g, b, a independent and uniform
    /// over 0…1 in linear light, stored as is (premultiplied colour above alpha half the time).
    static func random(_ inputs: FilterInputs) throws -> Image {
        ColorKernel(name: "random") { span in
            let scale: Float = 1 / 65536
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            let row = UInt32(truncatingIfNeeded: span.y & (RandomColumns.period - 1)) &* 0x85EB_CA6B
            @inline(__always) func finish(_ product: UInt32) -> UInt32 {
                var h = product ^ row
                h ^= h >> 15
                h &*= 0x2C1B_3C6D
                h ^= h >> 13
                h &*= 0x297A_2D39
                return h ^ (h >> 16)
            }
            @inline(__always) func store(_ i: Int, _ h1: UInt32, _ h2: UInt32) {
                // Signed conversions of 16-bit halves (they vectorise; unsigned ones do not).
                r[i] = Float(Int32(bitPattern: h1 & 0xFFFF)) * scale
                g[i] = Float(Int32(bitPattern: h1 >> 16)) * scale
                b[i] = Float(Int32(bitPattern: h2 & 0xFFFF)) * scale
                a[i] = Float(Int32(bitPattern: h2 >> 16)) * scale
            }
            let o = span.x0 - RandomColumns.minX
            if o >= 0, o + span.count <= RandomColumns.count {
                let p1 = RandomColumns.first + o, p2 = p1 + RandomColumns.count
                for i in 0..<span.count {
                    store(i, finish(p1[i]), finish(p2[i]))
                }
                return
            }
            for i in 0..<span.count {
                let x = UInt32(truncatingIfNeeded: (span.x0 + i) & (RandomColumns.period - 1))
                store(i, finish((x ^ RandomColumns.seed1) &* RandomColumns.step),
                      finish((x ^ RandomColumns.seed2) &* RandomColumns.step))
            }
        }.apply(extent: .infinite, inputs: [])
    }
}

/// The random generator's first hash step, (x ^ seed) · step, depends on the column only: read from a table for
/// the usual columns instead of two of its six vector multiplies a pixel (perf, bench case a on one thread: the
/// kernel 383 → 259 samples). Built once, 64 KiB, never written after.
enum RandomColumns {
    static let seed1: UInt32 = 0x68E3_1DA4, seed2: UInt32 = 0xB529_7A4D, step: UInt32 = 0x9E37_79B1
    static let minX = -1024, count = 8192
    /// The texture repeats every `period` pixels in x and y, as Apple's does.
    static let period = 256
    /// Seed 1's products for x in minX..<minX + count (the column taken modulo the period), then seed 2's.
    nonisolated(unsafe) static let first: UnsafePointer<UInt32> = {
        let p = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * count)
        for j in 0..<count {
            let x = UInt32(truncatingIfNeeded: (minX + j) & (period - 1))
            p[j] = (x ^ seed1) &* step
            p[count + j] = (x ^ seed2) &* step
        }
        return UnsafePointer(p)
    }()
}
