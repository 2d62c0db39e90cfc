import Foundation

/// Halftone screens: the image's luminance compared, pixel by pixel, with a periodic threshold pattern (dots,
/// lines, crossed lines, rings) of period `inputWidth`, rotated by `inputAngle` about `inputCenter`. The result is
/// black ink on white paper, antialiased over a band that widens as `inputSharpness` falls.
///
/// A pattern value f in [0, 1] says how dark a tone must be before ink covers that spot: 1 at the heart of a dot
/// or line (inked first), 0 where the paper survives longest. The band is kept inside [0, 1], so white stays
/// white and black stays black at any sharpness.
enum HalftoneFilters {
    static let all: [String: FilterImplementation] = [
        "CIDotScreen": { try screen($0, pattern: .dots) },
        "CILineScreen": { try screen($0, pattern: .lines) },
        "CIHatchedScreen": { try screen($0, pattern: .hatched) },
        "CICircularScreen": { try screen($0, pattern: .rings) },
        "CICMYKHalftone": cmyk,
    ]

    enum Pattern { case dots, lines, hatched, rings }

    /// The width of the threshold band, in pattern units: what the sharpness leaves blurred, plus about a pixel
    /// of the line patterns' slope (2 / width per pixel) for antialiasing.
    static func band(width: Float, sharpness: Float) -> Float {
        min(1, max(0, 1 - sharpness) + 2 / width)
    }

    /// The dot pattern 0.5 + (cos ku + cos kv) / 4 mapped through its own distribution function, so that its
    /// values are uniform over a cell: ink then covers exactly 1 − luminance of the area, and the screen's
    /// average (linear light) equals the image's. 257 entries over [0, 1], from a 512² sampling of a cell.
    static let dotDistribution: [Float] = {
        let n = 512
        var values = [Float]()
        values.reserveCapacity(n * n)
        for j in 0..<n {
            for i in 0..<n {
                let a = 2 * Float.pi * (Float(i) + 0.5) / Float(n), b = 2 * Float.pi * (Float(j) + 0.5) / Float(n)
                values.append(0.5 + 0.25 * (cos(a) + cos(b)))
            }
        }
        values.sort()
        var table = [Float](repeating: 0, count: 257)
        var k = 0
        for t in 0...256 {
            let limit = Float(t) / 256
            while k < values.count && values[k] <= limit { k += 1 }
            table[t] = Float(k) / Float(values.count)
        }
        table[0] = 0; table[256] = 1
        return table
    }()

    @inline(__always) static func dot(_ u: Float, _ v: Float, _ k: Float, _ table: UnsafePointer<Float>) -> Float {
        let g = 0.5 + 0.25 * (cos(k * u) + cos(k * v))
        // Selects, not min/max: a NaN g (a cosine of an infinite phase) goes to 0 before the integer conversion.
        let x = (g > 0 ? (g < 1 ? g : 1) : 0) * 256
        let i = min(Int(x), 255)
        return table[i] + (table[i + 1] - table[i]) * (x - Float(i))
    }

    /// A triangle wave of period `w`: 1 on the lines (offset 0), 0 half a period away, uniform in between.
    @inline(__always) static func triangle(_ t: Float, _ w: Float) -> Float {
        let f = t / w
        return 1 - 2 * abs(f - f.rounded())
    }

    @inline(__always) static func value(_ pattern: Pattern, u: Float, v: Float, r: Float, k: Float, w: Float,
                                        _ table: UnsafePointer<Float>) -> Float {
        switch pattern {
        case .dots: return dot(u, v, k, table)
        case .lines: return triangle(v, w)
        case .hatched:
            // Lines along u for light tones; crossing lines along v join once the tone is darker than half.
            // t·min(2t, 1) is the distribution of max(f1, f2 / 2): it makes the combined pattern uniform.
            let t = max(triangle(v, w), 0.5 * triangle(u, w))
            return t * min(2 * t, 1)
        case .rings: return triangle(r, w)
        }
    }

    static func screen(_ inputs: FilterInputs, pattern: Pattern) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let width = Float(max(try inputs.number("inputWidth"), 1))
        let sharpness = try inputs.float("inputSharpness")
        let angle = pattern == .rings ? 0 : try inputs.float("inputAngle")
        let cx = Float(center.x), cy = Float(center.y)
        let cosA = cos(angle), sinA = sin(angle)
        let k = 2 * Float.pi / width
        let ramp = band(width: width, sharpness: sharpness)
        let w = ColorMath.lumaWeights
        let holder = TableHolder(copying: dotDistribution)
        return ColorKernel(name: "halftone") { span in
            let table = holder.table
            let out = span.out
            let dy = Float(span.y) + 0.5 - cy
            for i in 0..<span.count {
                let a = out.a[i]
                let inv: Float = a > 0 ? 1 / a : 0
                let luma = (out.r[i] * w.x + out.g[i] * w.y + out.b[i] * w.z) * inv
                let dx = Float(span.x0 + i) + 0.5 - cx
                // Pattern coordinates: the pixel's offset rotated back by the screen angle.
                let u = cosA * dx + sinA * dy, v = -sinA * dx + cosA * dy
                let r = pattern == .rings ? (dx * dx + dy * dy).squareRoot() : 0
                let f = ramp * 0.5 + value(pattern, u: u, v: v, r: r, k: k, w: width, table) * (1 - ramp)
                let paper = min(max((luma - f) / ramp + 0.5, 0), 1) * a
                out.r[i] = paper; out.g[i] = paper; out.b[i] = paper
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Four dot screens, one per ink, at the classic offsets from the screen angle (cyan 15°, magenta 75°,
    /// yellow 0°, black 45°). Black replaces `inputGCR` of the grey component shared by the three inks, and
    /// `inputUCR` of that black is taken back out of them.
    static func cmyk(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let width = Float(max(abs(try inputs.number("inputWidth")), 1))
        let sharpness = try inputs.float("inputSharpness")
        let angle = try inputs.float("inputAngle")
        let gcr = try inputs.float("inputGCR"), ucr = try inputs.float("inputUCR")
        let cx = Float(center.x), cy = Float(center.y)
        let k = 2 * Float.pi / width
        let ramp = band(width: width, sharpness: sharpness)
        let degree = Float.pi / 180
        let angles = [angle + 15 * degree, angle + 75 * degree, angle, angle + 45 * degree]
        let cs = angles.map { cos($0) }, sn = angles.map { sin($0) }
        let (c0, c1, c2, c3) = (cs[0], cs[1], cs[2], cs[3])
        let (s0, s1, s2, s3) = (sn[0], sn[1], sn[2], sn[3])
        let holder = TableHolder(copying: dotDistribution)
        return ColorKernel(name: "cmykHalftone") { span in
            let table = holder.table
            let out = span.out
            let dy = Float(span.y) + 0.5 - cy
            @inline(__always) func coverage(_ ink: Float, _ c: Float, _ s: Float, _ dx: Float) -> Float {
                let u = c * dx + s * dy, v = -s * dx + c * dy
                let f = ramp * 0.5 + dot(u, v, k, table) * (1 - ramp)
                return min(max((ink - f) / ramp + 0.5, 0), 1)
            }
            for i in 0..<span.count {
                let a = out.a[i]
                let inv: Float = a > 0 ? 1 / a : 0
                let r = min(max(out.r[i] * inv, 0), 1), g = min(max(out.g[i] * inv, 0), 1)
                let b = min(max(out.b[i] * inv, 0), 1)
                var c = 1 - r, m = 1 - g, y = 1 - b
                let black = min(c, min(m, y)) * gcr
                c = max(c - black * ucr, 0); m = max(m - black * ucr, 0); y = max(y - black * ucr, 0)
                let dx = Float(span.x0 + i) + 0.5 - cx
                let paper = (1 - coverage(black, c3, s3, dx)) * a
                out.r[i] = (1 - coverage(c, c0, s0, dx)) * paper
                out.g[i] = (1 - coverage(m, c1, s1, dx)) * paper
                out.b[i] = (1 - coverage(y, c2, s2, dx)) * paper
            }
        }.apply(extent: image.extent, inputs: [image])
    }
}

/// Owns a small look-up table for the lifetime of the kernels that read it.
final class TableHolder: @unchecked Sendable {
    let table: UnsafeMutablePointer<Float>
    /// A copy of `values` that the kernels read through a plain pointer (no array retain or bounds check).
    init(copying values: [Float]) {
        table = UnsafeMutablePointer<Float>.allocate(capacity: values.count)
        table.initialize(from: values, count: values.count)
    }
    deinit { table.deallocate() }
}
