import Foundation
import CPixelLoops

/// One pixel in the working space: linear-light sRGB primaries, premultiplied alpha, extended range.
public typealias Pixel = SIMD4<Float>

/// A colour as Core Image's CIColor holds it: sRGB-encoded components with straight alpha.
public struct Color: Sendable, Equatable, CustomStringConvertible {
    public var red: Double, green: Double, blue: Double, alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    public init(_ components: [Double]) {
        self.init(red: components[0], green: components[1], blue: components[2],
                  alpha: components.count > 3 ? components[3] : 1)
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    public var components: [Double] { [red, green, blue, alpha] }

    /// The colour in the working space (linear, premultiplied).
    public var workingPixel: Pixel {
        let a = Float(alpha)
        return Pixel(ColorMath.linear(fromSRGB: Float(red)) * a, ColorMath.linear(fromSRGB: Float(green)) * a,
                     ColorMath.linear(fromSRGB: Float(blue)) * a, a)
    }

    public var description: String { components.map(formatNumber).joined(separator: " ") }
}

/// The sRGB transfer curves and alpha handling, with lookup tables for the 8-bit paths.
public enum ColorMath {
    @inline(__always) public static func linear(fromSRGB v: Float) -> Float {
        let m = abs(v)
        let l = m <= 0.04045 ? m / 12.92 : powf((m + 0.055) / 1.055, 2.4)
        return v < 0 ? -l : l
    }

    @inline(__always) public static func sRGB(fromLinear v: Float) -> Float {
        let m = abs(v)
        let s = m <= 0.0031308 ? m * 12.92 : 1.055 * powf(m, 1 / 2.4) - 0.055
        return v < 0 ? -s : s
    }

    /// Byte → linear value.
    public static let decodeTable: [Float] = (0..<256).map { linear(fromSRGB: Float($0) / 255) }

    /// Linear value → sRGB byte, indexed by the top bits of the value's float representation: its exponent
    /// (2⁻¹⁴ to 1) and 10 bits of mantissa. Each entry holds the byte for the middle of its slice, so the error
    /// stays under 0.1 of a level (every byte survives a round trip) with no square root or power per pixel,
    /// and the 15 KiB table stays in L1. Values below 2⁻¹⁴ (under half a level) encode to 0.
    /// Measured on the 2-core dev machine: a 64 KiB table indexed by the value was twice as slow, and a 4 KiB
    /// table indexed by its square root was no faster.
    /// Three zero bytes follow the last entry: the gathers of `PixelEncoding.encodeSRGB8` read 32 bits at an entry.
    public static let encodeTable: [UInt8] = (0..<encodeTableCount).map { i in
        let bits = (UInt32(i) + encodeTableBase) << encodeTableShift | (1 << (encodeTableShift - 1))
        return UInt8((sRGB(fromLinear: min(Float(bitPattern: bits), 1)) * 255).rounded())
    } + [0, 0, 0]
    /// `encodeTable` for encoders that look bytes up by permutes (CPixelLoops with AVX-512): `steps` of an index
    /// one bit finer than the table's (index >> 1 is the table's; from 30720 on, 255).
    public static let encodeSteps: [UInt8]? = steps(thresholds: Int(PIXELLOOPS_ENCODE_STEPS)) { index in
        index < 2 * encodeTableCount ? Int(encodeTable[index >> 1]) : 255
    }?.steps

    /// Bytes by index 0…PIXELLOOPS_STEP_TOP as steps for the AVX-512 encoders (CPixelLoops `step_bytes`): each
    /// slice of 256 indices (index >> 8) gives its first byte and `thresholds` places, and an index's byte is the
    /// first plus the places its low byte is above (255: never). 128 first bytes, then 128 of each threshold, and
    /// the most thresholds a slice uses; nil if the bytes fall within a slice or rise more.
    public static func steps(thresholds: Int, of byte: (Int) -> Int) -> (steps: [UInt8], count: Int)? {
        var steps = [UInt8](repeating: 255, count: 128 * (thresholds + 1)), most = 0
        for slice in 0..<128 {
            let first = byte(256 * slice)
            guard (0...255).contains(first) else { return nil }
            steps[slice] = UInt8(first)
            var reached = 0
            for place in 1..<256 {
                let rise = byte(256 * slice + place) - first
                guard rise >= reached, rise <= thresholds else { return nil }
                for k in stride(from: rise, to: reached, by: -1) { steps[128 * k + slice] = UInt8(place - 1) }
                reached = rise
            }
            most = max(most, reached)
        }
        return (steps, most)
    }

    public static let encodeTableShift: UInt32 = 13
    /// The index of 2⁻¹⁴: its exponent field (127 - 14) followed by 10 zero mantissa bits.
    public static let encodeTableBase: UInt32 = (127 - 14) << 10
    public static let encodeTableCount = 15 << 10


    @inline(__always) public static func unpremultiplied(_ p: Pixel) -> Pixel {
        let a = p.w
        if a <= 0 { return Pixel(0, 0, 0, 0) }
        if a == 1 { return p }
        let inv = 1 / a
        return Pixel(p.x * inv, p.y * inv, p.z * inv, a)
    }

    @inline(__always) public static func premultiplied(_ p: Pixel) -> Pixel {
        Pixel(p.x * p.w, p.y * p.w, p.z * p.w, p.w)
    }

    /// Rec. 709 luma weights, as Core Image uses for saturation and luminance.
    public static let lumaWeights = SIMD3<Float>(0.2126, 0.7152, 0.0722)

    @inline(__always) public static func clamp01(_ v: Float) -> Float { v < 0 ? 0 : (v > 1 ? 1 : v) }

    /// Per-channel maximum and minimum of two pixels. Scalar `max`/`min` per channel: `pointwiseMax/Min` measured
    /// about 8× slower in hot loops on the dev machine.
    @inline(__always) public static func componentMax(_ a: Pixel, _ b: Pixel) -> Pixel {
        Pixel(Swift.max(a.x, b.x), Swift.max(a.y, b.y), Swift.max(a.z, b.z), Swift.max(a.w, b.w))
    }

    @inline(__always) public static func componentMin(_ a: Pixel, _ b: Pixel) -> Pixel {
        Pixel(Swift.min(a.x, b.x), Swift.min(a.y, b.y), Swift.min(a.z, b.z), Swift.min(a.w, b.w))
    }
}
