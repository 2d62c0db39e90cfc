import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// CIE L*a*b* conversions of the working space (linear sRGB, D65 white) and CIE 1994 colour differences.
///
/// Lab is computed relative to the working space's own white (D65): sRGB white is L* 100, a* = b* = 0. Native
/// ranges are L* 0…100 and a*, b* about −128…128; normalised, they are L*/100 and (a* + 128)/256,
/// (b* + 128)/256, all 0…1. The Lab values travel in the red, green and blue channels; alpha is kept.
extension ColorAdjustmentFilters {
    static func convertRGBtoLab(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let normalize = try inputs.bool("inputNormalize")
        return ColorKernel(name: "rgbToLab") { span in
            let p = span.out, n = span.count
            SpanColor.unpremultiply(p, n)
            LabMath.toLab(p, n)
            if normalize {
                for i in 0..<n {
                    p.r[i] *= 0.01
                    p.g[i] = (p.g[i] + 128) / 256
                    p.b[i] = (p.b[i] + 128) / 256
                }
            }
            SpanColor.premultiply(p, n)
        }.apply(extent: image.extent, inputs: [image])
    }

    static func convertLabToRGB(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let normalize = try inputs.bool("inputNormalize")
        return ColorKernel(name: "labToRGB") { span in
            let p = span.out, n = span.count
            SpanColor.unpremultiply(p, n)
            if normalize {
                for i in 0..<n {
                    p.r[i] *= 100
                    p.g[i] = p.g[i] * 256 - 128
                    p.b[i] = p.b[i] * 256 - 128
                }
            }
            LabMath.fromLab(p, n)
            SpanColor.premultiply(p, n)
        }.apply(extent: image.extent, inputs: [image])
    }

    /// ΔE*94 (graphic-arts weights kL = 1, K1 = 0.045, K2 = 0.015, the first image as reference) between the
    /// straight colours of the two images, written to red, green and blue of an opaque image: 0 for equal
    /// colours, about 2 for a just noticeable difference, up to about 100. The output covers the first image (as
    /// CIColorAbsoluteDifference does).
    static func labDeltaE(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let other = try inputs.image("inputImage2")
        return ColorKernel(name: "labDeltaE") { span in
            let p = span.out, n = span.count
            let q = span.input(1)
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * n) { scratch in
                let second = PlanarRow(base: scratch.baseAddress!, stride: n)
                second.copy(from: q, count: n)
                SpanColor.unpremultiply(p, n)
                SpanColor.unpremultiply(second, n)
                LabMath.toLab(p, n)
                LabMath.toLab(second, n)
                for i in 0..<n {
                    let dl = p.r[i] - second.r[i]
                    let a1 = p.g[i], b1 = p.b[i], a2 = second.g[i], b2 = second.b[i]
                    let c1 = (a1 * a1 + b1 * b1).squareRoot(), c2 = (a2 * a2 + b2 * b2).squareRoot()
                    let dc = c1 - c2
                    let da = a1 - a2, db = b1 - b2
                    let dh2 = max(da * da + db * db - dc * dc, 0)
                    let sc = 1 + 0.045 * c1, sh = 1 + 0.015 * c1
                    let e = (dl * dl + (dc / sc) * (dc / sc) + dh2 / (sh * sh)).squareRoot()
                    p.r[i] = e; p.g[i] = e; p.b[i] = e; p.a[i] = 1
                }
            }
        }.apply(extent: image.extent, inputs: [image, other])
    }
}

/// Linear sRGB ↔ CIE L*a*b* (D65) on spans, in place.
enum LabMath {
    /// Linear sRGB → XYZ (D65), rows.
    static let toXYZ: [Float] = WhiteBalance.srgbToXYZ.flatMap { $0.map(Float.init) }
    static let fromXYZ: [Float] = Matrix3.inverse(WhiteBalance.srgbToXYZ).flatMap { $0.map(Float.init) }
    /// The white: XYZ of linear sRGB (1, 1, 1).
    static let white: SIMD3<Float> = SIMD3(toXYZ[0] + toXYZ[1] + toXYZ[2], toXYZ[3] + toXYZ[4] + toXYZ[5],
                                           toXYZ[6] + toXYZ[7] + toXYZ[8])

    static let epsilon: Float = 216.0 / 24389.0   // (6/29)³
    static let kappa: Float = 24389.0 / 27.0      // (29/3)³

    @inline(__always) static func f(_ t: Float) -> Float {
        t > epsilon ? cbrtf(t) : (kappa * t + 16) / 116
    }

    @inline(__always) static func fInverse(_ f: Float) -> Float {
        let cube = f * f * f
        return cube > epsilon ? cube : (116 * f - 16) / kappa
    }

    /// Straight linear sRGB → L*, a*, b* (native ranges).
    static func toLab(_ p: PlanarRow, _ count: Int) {
        let m = toXYZ
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let inverseWhite = 1 / white
        for i in 0..<count {
            let r = p.r[i], g = p.g[i], b = p.b[i]
            let fx = f((m0 * r + m1 * g + m2 * b) * inverseWhite.x)
            let fy = f((m3 * r + m4 * g + m5 * b) * inverseWhite.y)
            let fz = f((m6 * r + m7 * g + m8 * b) * inverseWhite.z)
            p.r[i] = 116 * fy - 16
            p.g[i] = 500 * (fx - fy)
            p.b[i] = 200 * (fy - fz)
        }
    }

    /// L*, a*, b* (native ranges) → straight linear sRGB.
    static func fromLab(_ p: PlanarRow, _ count: Int) {
        let m = fromXYZ
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let w = white
        for i in 0..<count {
            let fy = (p.r[i] + 16) / 116
            let fx = fy + p.g[i] / 500
            let fz = fy - p.b[i] / 200
            let x = fInverse(fx) * w.x, y = fInverse(fy) * w.y, z = fInverse(fz) * w.z
            p.r[i] = m0 * x + m1 * y + m2 * z
            p.g[i] = m3 * x + m4 * y + m5 * z
            p.b[i] = m6 * x + m7 * y + m8 * z
        }
    }
}
