import CPixelLoops
import Foundation

/// Colour adjustments: per-pixel colour kernels, so chains of them fuse into one pass. This table lists the
/// whole family; the longer ones live beside it (PointAdjustments, ToneCurve, ColorCube, Lab, ColorSpaces).
enum ColorAdjustmentFilters {
    static let all: [String: FilterImplementation] = [
        "CIColorControls": colorControls,
        "CIColorMatrix": colorMatrix,
        "CIExposureAdjust": exposureAdjust,
        "CIGammaAdjust": gammaAdjust,
        "CIHueAdjust": hueAdjust,
        "CITemperatureAndTint": temperatureAndTint,
        // PointAdjustments.swift
        "CIColorAbsoluteDifference": colorAbsoluteDifference,
        "CIColorClamp": colorClamp,
        "CIColorPolynomial": colorPolynomial,
        "CIColorCrossPolynomial": colorCrossPolynomial,
        "CIColorThreshold": colorThreshold,
        "CIColorThresholdOtsu": colorThresholdOtsu,
        "CIDepthToDisparity": depthToDisparity,
        "CIDisparityToDepth": disparityToDepth,
        "CILinearToSRGBToneCurve": linearToSRGBToneCurve,
        "CISRGBToneCurveToLinear": sRGBToneCurveToLinear,
        "CIToneMapHeadroom": toneMapHeadroom,
        "CIVibrance": vibrance,
        "CIWhitePointAdjust": whitePointAdjust,
        // ToneCurve.swift
        "CIToneCurve": toneCurve,
        "CIColorCurves": colorCurves,
        // ColorCube.swift
        "CIColorCube": colorCube,
        "CIColorCubeWithColorSpace": colorCubeWithColorSpace,
        "CIColorCubesMixedWithMask": colorCubesMixedWithMask,
        // Lab.swift
        "CIConvertRGBtoLab": convertRGBtoLab,
        "CIConvertLabToRGB": convertLabToRGB,
        "CILabDeltaE": labDeltaE,
    ]

    /// Saturation around Rec. 709 luma, contrast around mid-grey, then brightness added: `(s − 0.5)·k + 0.5 + b`
    /// on straight linear colour. Fitted on Apple's iOS 7 render (brightness 0.5, saturation 1.2, contrast 3.1:
    /// 80.6 dB in Python); brightness added before the contrast (our old order) gave 5.3 dB. Saturation and the
    /// grey-axis steps commute (the luma weights sum to 1), so its place in the order does not matter.
    static func colorControls(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let saturation = try inputs.float("inputSaturation")
        let brightness = try inputs.float("inputBrightness")
        let contrast = try inputs.float("inputContrast")
        let w = ColorMath.lumaWeights
        return ColorKernel(name: "colorControls", dependence: saturation == 1 ? .perChannel : .affine,
                           parameters: [saturation, brightness, contrast]) { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            // An opaque span (most of a photo's) skips the division and the multiply by alpha, which change
            // nothing when alpha is 1, so the bytes are the same. Measured on the 2-core dev VM (one thread,
            // 1080p, this loop alone): 1.6 → 1.0 ms a frame.
            if PixelEncoding.isOpaque(a, count: span.count) {
                for i in 0..<span.count {
                    let sr = r[i], sg = g[i], sb = b[i]
                    let luma = sr * w.x + sg * w.y + sb * w.z
                    r[i] = (luma + (sr - luma) * saturation - 0.5) * contrast + 0.5 + brightness
                    g[i] = (luma + (sg - luma) * saturation - 0.5) * contrast + 0.5 + brightness
                    b[i] = (luma + (sb - luma) * saturation - 0.5) * contrast + 0.5 + brightness
                }
                return
            }
            for i in 0..<span.count {
                let alpha = a[i]
                let inv: Float = alpha > 0 ? 1 / alpha : 0
                let sr = r[i] * inv, sg = g[i] * inv, sb = b[i] * inv
                let luma = sr * w.x + sg * w.y + sb * w.z
                r[i] = ((luma + (sr - luma) * saturation - 0.5) * contrast + 0.5 + brightness) * alpha
                g[i] = ((luma + (sg - luma) * saturation - 0.5) * contrast + 0.5 + brightness) * alpha
                b[i] = ((luma + (sb - luma) * saturation - 0.5) * contrast + 0.5 + brightness) * alpha
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    static func colorMatrix(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        func row(_ key: String) throws -> Pixel {
            let v = try inputs.vector(key) + [0, 0, 0, 0]
            return Pixel(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]))
        }
        return ColorMatrix(r: try row("inputRVector"), g: try row("inputGVector"), b: try row("inputBVector"),
                           a: try row("inputAVector"), bias: try row("inputBiasVector"))
            .kernel.apply(extent: image.extent, inputs: [image])
    }

    /// Multiplies linear light by 2^EV: exactly what opening the aperture by EV stops does.
    static func exposureAdjust(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        // The largest float at most: an infinite gain (EV 1e6) would turn black (0 × inf) into NaN; bright
        // pixels still overflow to infinity, as the formula does in floats.
        let gain = Float(min(pow(2, try inputs.number("inputEV")), Double(Float.greatestFiniteMagnitude)))
        return ColorKernel(name: "exposure", dependence: .perChannel, parameters: [gain]) { span in
            let (r, g, b) = (span.out.r, span.out.g, span.out.b)
            for i in 0..<span.count {
                r[i] *= gain; g[i] *= gain; b[i] *= gain
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Raises straight colour to a power (sign kept, so extended-range negatives stay negative).
    static func gammaAdjust(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let power = try inputs.float("inputPower")
        return ColorKernel(name: "gamma", dependence: .perChannel, parameters: [power]) { span in
            let a = span.out.a, n = span.count
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * n) { scratch in
                let inverses = scratch.baseAddress!, magnitudes = inverses + n, powers = magnitudes + n
                for i in 0..<n { inverses[i] = a[i] > 0 ? 1 / a[i] : 0 }
                for c in [span.out.r, span.out.g, span.out.b] {
                    for i in 0..<n { magnitudes[i] = abs(c[i] * inverses[i]) }
                    pixelloops_powf(magnitudes, powers, Int32(n), power)
                    for i in 0..<n {
                        let alpha = a[i]
                        c[i] = alpha > 0 ? Float(signOf: c[i], magnitudeOf: powers[i]) * alpha : c[i]
                    }
                }
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Rotates the chroma of straight linear colour by the angle while keeping its Rec. 709 luminance: with
    /// Y = luma, U = B − Y and V = R − Y, (U, V) turns by the angle (U' = U·cos − V·sin, V' = U·sin + V·cos)
    /// and R, G, B come back from Y, U', V'. One matrix, so it fuses as a matrix. Fitted on Apple's iOS 7
    /// render (angle 1): a free 3×3 least-squares fit of that render has eigenvalues e^(±1i) and 1, luma as the
    /// kept row and grey as the kept axis; this matrix is within 0.002 of it (59.2 dB in Python). A rotation
    /// about the grey axis with equal weights (our old rule) gave 18.8 dB.
    static func hueAdjust(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let angle = try inputs.number("inputAngle")
        return ColorMatrix(linear: hueRotation(angle: angle)).kernel.apply(extent: image.extent, inputs: [image])
    }

    /// The RGB matrix of CIHueAdjust's rotation (see `hueAdjust`).
    static func hueRotation(angle: Double) -> [[Double]] {
        let w = ColorMath.lumaWeights
        let y = [Double(w.x), Double(w.y), Double(w.z)]
        // Rows: Y, B − Y, R − Y.
        let basis = [y, [-y[0], -y[1], 1 - y[2]], [1 - y[0], -y[1], -y[2]]]
        let c = cos(angle), s = sin(angle)
        let rotation = [[1, 0, 0], [0, c, -s], [0, s, c]]
        return Matrix3.product(Matrix3.inverse(basis), Matrix3.product(rotation, basis))
    }

    /// Chromatic adaptation (Bradford) from the white of the neutral temperature/tint to that of the target:
    /// colours that looked neutral under the first light look neutral under the second.
    static func temperatureAndTint(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let neutral = try inputs.point("inputNeutral")
        let target = try inputs.point("inputTargetNeutral")
        let m = WhiteBalance.adaptation(from: neutral, to: target)
        return ColorMatrix(linear: m).kernel.apply(extent: image.extent, inputs: [image])
    }
}

/// out = R·c, G·c, B·c, A·c + bias on straight colour: Core Image's colour matrix.
struct ColorMatrix {
    var r, g, b, a, bias: Pixel

    init(r: Pixel, g: Pixel, b: Pixel, a: Pixel, bias: Pixel) {
        self.r = r; self.g = g; self.b = b; self.a = a; self.bias = bias
    }

    /// A 3×3 matrix on RGB (rows), alpha untouched.
    init(linear m: [[Double]]) {
        func row(_ i: Int) -> Pixel { Pixel(Float(m[i][0]), Float(m[i][1]), Float(m[i][2]), 0) }
        self.init(r: row(0), g: row(1), b: row(2), a: Pixel(0, 0, 0, 1), bias: Pixel(0, 0, 0, 0))
    }

    var kernel: ColorKernel {
        let (r, g, b, a, bias) = (r, g, b, a, bias)
        // Without bias or alpha mixing, the matrix commutes with premultiplication: skip the divide.
        let premultipliedSafe = bias == Pixel(0, 0, 0, 0) && a == Pixel(0, 0, 0, 1) && r.w == 0 && g.w == 0 && b.w == 0
        let diagonal = r.y == 0 && r.z == 0 && g.x == 0 && g.z == 0 && b.x == 0 && b.y == 0
        let dependence: ColorDependence = diagonal ? .perChannel : a.x == 0 && a.y == 0 && a.z == 0 ? .affine : .general
        let parameters = [r, g, b, a, bias].flatMap { [$0.x, $0.y, $0.z, $0.w] }
        if premultipliedSafe {
            return ColorKernel(name: "colorMatrix", dependence: dependence, parameters: parameters) { span in
                let (pr, pg, pb) = (span.out.r, span.out.g, span.out.b)
                for i in 0..<span.count {
                    let cr = pr[i], cg = pg[i], cb = pb[i]
                    pr[i] = r.x * cr + r.y * cg + r.z * cb
                    pg[i] = g.x * cr + g.y * cg + g.z * cb
                    pb[i] = b.x * cr + b.y * cg + b.z * cb
                }
            }
        }
        // The straight colour, the new alpha and the red row's value, as every channel's loop takes them.
        @Sendable @inline(__always)
        func head(_ out: PlanarRow, _ i: Int) -> (cr: Float, cg: Float, cb: Float, alpha: Float, na: Float, red: Float) {
            let alpha = out.a[i]
            let inv: Float = alpha > 0 ? 1 / alpha : 0
            let cr = out.r[i] * inv, cg = out.g[i] * inv, cb = out.b[i] * inv
            let na = a.x * cr + a.y * cg + a.z * cb + a.w * alpha + bias.w
            return (cr, cg, cb, alpha, na, (r.x * cr + r.y * cg + r.z * cb + r.w * alpha + bias.x) * na)
        }
        // Three identical rows and biases (bit for bit: 0 and -0 give different zero products) make a grey:
        // one sum serves the three channels, the float operations each would do (the grain matrix of bench case
        // a: this kernel 313 → 199 perf samples). Only a NaN's payload or sign may differ, by operand order.
        func same(_ p: Pixel, _ q: Pixel) -> Bool { (0..<4).allSatisfy { p[$0].bitPattern == q[$0].bitPattern } }
        let grey = same(r, g) && same(g, b) && bias.x.bitPattern == bias.y.bitPattern
            && bias.y.bitPattern == bias.z.bitPattern
        if grey {
            return ColorKernel(name: "colorMatrix", dependence: dependence, parameters: parameters) { span in
                let out = span.out
                for i in 0..<span.count {
                    let h = head(out, i)
                    out.r[i] = h.red; out.g[i] = h.red; out.b[i] = h.red; out.a[i] = h.na
                }
            }
        }
        return ColorKernel(name: "colorMatrix", dependence: dependence, parameters: parameters) { span in
            let out = span.out
            for i in 0..<span.count {
                let h = head(out, i)
                out.r[i] = h.red
                out.g[i] = (g.x * h.cr + g.y * h.cg + g.z * h.cb + g.w * h.alpha + bias.y) * h.na
                out.b[i] = (b.x * h.cr + b.y * h.cg + b.z * h.cb + b.w * h.alpha + bias.z) * h.na
                out.a[i] = h.na
            }
        }
    }
}

/// Colour temperature and tint to white points, and the Bradford adaptation between two of them.
enum WhiteBalance {
    /// CIE 1931 xy of the Planckian (black-body) locus at `kelvin` (Kim et al.'s cubic fit, 1667–25000 K),
    /// moved off the locus by `tint` (positive towards magenta, as Core Image's tint) in CIE 1960 uv.
    static func chromaticity(kelvin: Double, tint: Double) -> (x: Double, y: Double) {
        let t = min(max(kelvin, 1667), 25000)
        let x: Double = t <= 4000
            ? -0.2661239e9 / (t * t * t) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
            : -3.0258469e9 / (t * t * t) + 2.1070379e6 / (t * t) + 0.2226347e3 / t + 0.240390
        let y: Double
        if t <= 2222 {
            y = -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
        } else if t <= 4000 {
            y = -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
        } else {
            y = 3.0817580 * x * x * x - 5.87338670 * x * x + 3.75112997 * x - 0.37001483
        }
        guard tint != 0 else { return (x, y) }
        // Move perpendicular to the locus in uv; 1 unit of tint is 1/3000 of duv (Adobe's scale, roughly).
        func uv(_ x: Double, _ y: Double) -> (Double, Double) {
            let d = -2 * x + 12 * y + 3
            return (4 * x / d, 6 * y / d)
        }
        let (u, v) = uv(x, y)
        let near = chromaticity(kelvin: t * 1.01, tint: 0)
        let (u2, v2) = uv(near.x, near.y)
        let length = ((u2 - u) * (u2 - u) + (v2 - v) * (v2 - v)).squareRoot()
        guard length > 0 else { return (x, y) }
        let (nu, nv) = (-(v2 - v) / length, (u2 - u) / length)
        let shift = -tint / 3000
        let (su, sv) = (u + nu * shift, v + nv * shift)
        let d = 2 * su - 8 * sv + 4
        return (3 * su / d, 2 * sv / d)
    }

    static let bradford: [[Double]] = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
    static let srgbToXYZ: [[Double]] = [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                                        [0.0193339, 0.1191920, 0.9503041]]

    /// Linear-sRGB matrix adapting white `from` (kelvin, tint) to white `to`.
    static func adaptation(from: SIMD2<Double>, to: SIMD2<Double>) -> [[Double]] {
        func xyz(_ w: SIMD2<Double>) -> [Double] {
            let (x, y) = chromaticity(kelvin: w.x, tint: w.y)
            return [x / y, 1, (1 - x - y) / y]
        }
        let source = Matrix3.multiply(bradford, xyz(from))
        let target = Matrix3.multiply(bradford, xyz(to))
        let scale: [[Double]] = (0..<3).map { i in (0..<3).map { j in i == j ? target[i] / source[i] : 0 } }
        let cone = Matrix3.product(Matrix3.inverse(bradford), Matrix3.product(scale, bradford))
        return Matrix3.product(Matrix3.inverse(srgbToXYZ), Matrix3.product(cone, srgbToXYZ))
    }
}

/// Small 3×3 matrix arithmetic for building colour matrices (not on any per-pixel path).
enum Matrix3 {
    static func multiply(_ m: [[Double]], _ v: [Double]) -> [Double] {
        (0..<3).map { i in (0..<3).reduce(0) { $0 + m[i][$1] * v[$1] } }
    }

    static func product(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    static func inverse(_ m: [[Double]]) -> [[Double]] {
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        func c(_ r0: Int, _ c0: Int, _ r1: Int, _ c1: Int) -> Double { m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0] }
        return [
            [c(1, 1, 2, 2) / det, -c(0, 1, 2, 2) / det, c(0, 1, 1, 2) / det],
            [-c(1, 0, 2, 2) / det, c(0, 0, 2, 2) / det, -c(0, 0, 1, 2) / det],
            [c(1, 0, 2, 1) / det, -c(0, 0, 2, 1) / det, c(0, 0, 1, 1) / det],
        ]
    }
}
