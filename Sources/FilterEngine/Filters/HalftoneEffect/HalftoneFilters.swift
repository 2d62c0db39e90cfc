import Foundation

/// Halftone screens: black ink on white paper, a periodic pattern p of period `inputWidth` about `inputCenter`,
/// turned by `inputAngle`, added to the pixel's luminance before a steep threshold:
///
///     paper = clamp(v · (luma − 0.5 + p) + 0.5),   v = 1 / (1 − inputSharpness)
///
/// in linear light, luma with the Rec. 709 weights (0.2125, 0.7154, 0.0721) of the unpremultiplied colour, grey
/// output times the input's alpha. Fitted on Apple's iOS 7 renders (Xamarin docs, flower, width 6, sharpness 0.7,
/// centre (150, 150), angle 0): CIDotScreen 78.7 dB and CILineScreen 76.9 dB with
///
///     dots:  p = −0.17375 · (sin ku + sin kv)      lines: p = 0.3849 · cos ku      (k = 2π / width)
///
/// where (u, v) is the offset from the centre turned back by the angle: at angle 0 the lines are vertical (the
/// pattern runs along x), a paper line runs through the centre, and the dot lattice has neither ink nor paper on
/// the centre. At width 6 the pixel centres only sample the pattern at 30° steps, where the line's cosine equals
/// a triangle wave 0.5 − 2·|distance to the nearest paper line| / width: the renders do not tell the two apart.
/// Whether the pattern's amplitude scales with v (as written) or stays fixed is not settled by one sharpness.
/// The hatched and circular screens and the CMYK halftone take the same threshold and orientation; their
/// patterns have no render here.
enum HalftoneFilters {
    static let all: [String: FilterImplementation] = [
        "CIDotScreen": { try screen($0, pattern: .dots) },
        "CILineScreen": { try screen($0, pattern: .lines) },
        "CIHatchedScreen": { try screen($0, pattern: .hatched) },
        "CICircularScreen": { try screen($0, pattern: .rings) },
        "CICMYKHalftone": cmyk,
    ]

    enum Pattern { case dots, lines, hatched, rings }

    static let dotAmplitude: Float = 0.17375
    static let lineAmplitude: Float = 0.3849
    static let lumaWeights = SIMD3<Float>(0.2125, 0.7154, 0.0721)

    /// The threshold's slope, 1 / (1 − sharpness), kept finite (Core Image's CMYK halftone caps it at 10000).
    static func slope(_ sharpness: Float) -> Float {
        let d = 1 - sharpness
        return d > 1e-4 ? min(1 / d, 10000) : 10000
    }

    /// The dot pattern: negative (ink first) where both sines are 1, positive (paper last inked) where both are −1.
    @inline(__always) static func dot(_ u: Float, _ v: Float, _ k: Float) -> Float {
        -dotAmplitude * (sin(k * u) + sin(k * v))
    }

    @inline(__always) static func value(_ pattern: Pattern, u: Float, v: Float, r: Float, k: Float) -> Float {
        switch pattern {
        case .dots: return dot(u, v, k)
        case .lines: return lineAmplitude * cos(k * u)
        case .hatched:
            // The line screen's lines for light tones; lines across them join in the darker half (ink priority
            // of a crossing line at most half a main line's).
            let fu = 0.5 - 0.5 * cos(k * u), fv = 0.5 - 0.5 * cos(k * v)
            return lineAmplitude * (1 - 2 * max(fu, 0.5 * fv))
        case .rings: return lineAmplitude * cos(k * r)
        }
    }

    static func screen(_ inputs: FilterInputs, pattern: Pattern) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let width = Float(max(try inputs.number("inputWidth"), 1))
        let slope = Self.slope(try inputs.float("inputSharpness"))
        let angle = pattern == .rings ? 0 : try inputs.float("inputAngle")
        let cx = Float(center.x), cy = Float(center.y)
        let cosA = cos(angle), sinA = sin(angle)
        let k = 2 * Float.pi / width
        let w = lumaWeights
        return ColorKernel(name: "halftone") { span in
            let out = span.out
            let dy = Float(span.y) + 0.5 - cy
            for i in 0..<span.count {
                let a = out.a[i]
                let inv: Float = a > 0 ? 1 / a : 0
                let luma = (out.r[i] * w.x + out.g[i] * w.y + out.b[i] * w.z) * inv
                let dx = Float(span.x0 + i) + 0.5 - cx
                // Pattern coordinates: the pixel's offset turned back by the screen angle.
                let u = cosA * dx + sinA * dy, v = -sinA * dx + cosA * dy
                let r = pattern == .rings ? (dx * dx + dy * dy).squareRoot() : 0
                let p = value(pattern, u: u, v: v, r: r, k: k)
                let t = slope * (luma - 0.5 + p) + 0.5
                // Selects: a NaN (an infinite phase) goes to paper 0.
                let paper = (t > 0 ? (t < 1 ? t : 1) : 0) * a
                out.r[i] = paper; out.g[i] = paper; out.b[i] = paper
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Four dot screens, one per ink, at Core Image's offsets from the screen angle (cyan 75°, magenta 15°,
    /// yellow 0°, black 45°), each thresholded like CIDotScreen with the ink amount in place of the darkness:
    /// coverage = clamp(v · (ink − 0.5 − p) + 0.5). Black replaces `inputGCR` of the grey component shared by the
    /// three inks, and `inputUCR` of that black is taken back out of them. No render of this filter here.
    static func cmyk(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let width = Float(max(abs(try inputs.number("inputWidth")), 1))
        let slope = Self.slope(try inputs.float("inputSharpness"))
        let angle = try inputs.float("inputAngle")
        let gcr = try inputs.float("inputGCR"), ucr = try inputs.float("inputUCR")
        let cx = Float(center.x), cy = Float(center.y)
        let k = 2 * Float.pi / width
        let degree = Float.pi / 180
        let angles = [angle + 75 * degree, angle + 15 * degree, angle, angle + 45 * degree]
        let cs = angles.map { cos($0) }, sn = angles.map { sin($0) }
        let (c0, c1, c2, c3) = (cs[0], cs[1], cs[2], cs[3])
        let (s0, s1, s2, s3) = (sn[0], sn[1], sn[2], sn[3])
        return ColorKernel(name: "cmykHalftone") { span in
            let out = span.out
            let dy = Float(span.y) + 0.5 - cy
            @inline(__always) func coverage(_ ink: Float, _ c: Float, _ s: Float, _ dx: Float) -> Float {
                let u = c * dx + s * dy, v = -s * dx + c * dy
                let t = slope * (ink - 0.5 - dot(u, v, k)) + 0.5
                return t > 0 ? (t < 1 ? t : 1) : 0
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
