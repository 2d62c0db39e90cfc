import Foundation

/// The per-pixel adjustments of the family that need no table: differences, clamps, polynomials, thresholds,
/// transfer curves, depth ↔ disparity, vibrance, white point and headroom tone mapping.
extension ColorAdjustmentFilters {
    /// |a − b| for each colour channel of the premultiplied working-space values (linear light); alpha is the
    /// larger of the two, so two opaque images give an opaque difference. The output covers the first image,
    /// as Core Image's does (its render of a 1000×562 photo against a 1500×1500 one is 1000×562).
    static func colorAbsoluteDifference(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let other = try inputs.image("inputImage2")
        return ColorKernel(name: "colorAbsoluteDifference") { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            let o = span.input(1)
            for i in 0..<span.count {
                r[i] = abs(r[i] - o.r[i])
                g[i] = abs(g[i] - o.g[i])
                b[i] = abs(b[i] - o.b[i])
                a[i] = max(a[i], o.a[i])
            }
        }.apply(extent: image.extent, inputs: [image, other])
    }

    /// Four components of a vector input (missing ones from `fill`).
    static func components(_ inputs: FilterInputs, _ key: String, count: Int, fill: Double = 0) throws -> [Float] {
        let v = try inputs.vector(key)
        return (0..<count).map { Float($0 < v.count ? v[$0] : fill) }
    }

    /// Each straight component, alpha included, held between the minimum and maximum vectors.
    static func colorClamp(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let lo = try components(inputs, "inputMinComponents", count: 4)
        let hi = try components(inputs, "inputMaxComponents", count: 4, fill: 1)
        let (lr, lg, lb, la) = (lo[0], lo[1], lo[2], lo[3])
        let (hr, hg, hb, ha) = (hi[0], hi[1], hi[2], hi[3])
        return ColorKernel(name: "colorClamp", dependence: .perChannel, parameters: lo + hi) { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            for i in 0..<span.count {
                let alpha = a[i]
                let inv: Float = alpha > 0 ? 1 / alpha : 0
                let na = min(max(alpha, la), ha)
                r[i] = min(max(r[i] * inv, lr), hr) * na
                g[i] = min(max(g[i] * inv, lg), hg) * na
                b[i] = min(max(b[i] * inv, lb), hb) * na
                a[i] = na
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Each straight component x, alpha included, becomes c0 + c1·x + c2·x² + c3·x³ with its own coefficients.
    static func colorPolynomial(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let cr = try components(inputs, "inputRedCoefficients", count: 4)
        let cg = try components(inputs, "inputGreenCoefficients", count: 4)
        let cb = try components(inputs, "inputBlueCoefficients", count: 4)
        let ca = try components(inputs, "inputAlphaCoefficients", count: 4)
        let (r0, r1, r2, r3) = (cr[0], cr[1], cr[2], cr[3])
        let (g0, g1, g2, g3) = (cg[0], cg[1], cg[2], cg[3])
        let (b0, b1, b2, b3) = (cb[0], cb[1], cb[2], cb[3])
        let (a0, a1, a2, a3) = (ca[0], ca[1], ca[2], ca[3])
        return ColorKernel(name: "colorPolynomial", dependence: .perChannel, parameters: cr + cg + cb + ca) { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            for i in 0..<span.count {
                let alpha = a[i]
                let inv: Float = alpha > 0 ? 1 / alpha : 0
                let x = r[i] * inv, y = g[i] * inv, z = b[i] * inv
                let na = a0 + alpha * (a1 + alpha * (a2 + alpha * a3))
                r[i] = (r0 + x * (r1 + x * (r2 + x * r3))) * na
                g[i] = (g0 + y * (g1 + y * (g2 + y * g3))) * na
                b[i] = (b0 + z * (b1 + z * (b2 + z * b3))) * na
                a[i] = na
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Each output channel a weighted sum of r, g, b, r², g², b², rg, gb, br and 1 of the straight colour;
    /// alpha unchanged.
    static func colorCrossPolynomial(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let kr = try components(inputs, "inputRedCoefficients", count: 10)
        let kg = try components(inputs, "inputGreenCoefficients", count: 10)
        let kb = try components(inputs, "inputBlueCoefficients", count: 10)
        return ColorKernel(name: "colorCrossPolynomial") { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            kr.withUnsafeBufferPointer { kr in kg.withUnsafeBufferPointer { kg in kb.withUnsafeBufferPointer { kb in
                for i in 0..<span.count {
                    let alpha = a[i]
                    let inv: Float = alpha > 0 ? 1 / alpha : 0
                    let x = r[i] * inv, y = g[i] * inv, z = b[i] * inv
                    let xx = x * x, yy = y * y, zz = z * z, xy = x * y, yz = y * z, zx = z * x
                    r[i] = (kr[0] * x + kr[1] * y + kr[2] * z + kr[3] * xx + kr[4] * yy + kr[5] * zz
                        + kr[6] * xy + kr[7] * yz + kr[8] * zx + kr[9]) * alpha
                    g[i] = (kg[0] * x + kg[1] * y + kg[2] * z + kg[3] * xx + kg[4] * yy + kg[5] * zz
                        + kg[6] * xy + kg[7] * yz + kg[8] * zx + kg[9]) * alpha
                    b[i] = (kb[0] * x + kb[1] * y + kb[2] * z + kb[3] * xx + kb[4] * yy + kb[5] * zz
                        + kb[6] * xy + kb[7] * yz + kb[8] * zx + kb[9]) * alpha
                }
            }}}
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Threshold kernel: each straight colour channel becomes 1 where it is above the threshold (compared in
    /// the working space, linear light: Core Image's render matches this, not a comparison of sRGB-encoded
    /// values), else 0; alpha kept. The threshold comes from input 1's red channel when `fromInput` is set.
    static func thresholdKernel(_ threshold: Float, fromInput: Bool) -> ColorKernel {
        ColorKernel(name: "colorThreshold") { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            let t = fromInput ? span.input(1).r[0] : threshold
            for i in 0..<span.count {
                let alpha = a[i]
                // x/alpha > t  ⇔  x > t·alpha for alpha > 0: no division.
                let limit = t * alpha
                r[i] = r[i] > limit && alpha > 0 ? alpha : 0
                g[i] = g[i] > limit && alpha > 0 ? alpha : 0
                b[i] = b[i] > limit && alpha > 0 ? alpha : 0
            }
        }
    }

    static func colorThreshold(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let threshold = try inputs.float("inputThreshold")
        return thresholdKernel(threshold, fromInput: false).apply(extent: image.extent, inputs: [image])
    }

    /// CIColorThreshold with the threshold chosen by Otsu's method: a 256-bin histogram over [0, 1] of the red,
    /// green and blue components of every visible pixel (straight colour, working space), split where the
    /// variance between the two classes is largest.
    static func colorThresholdOtsu(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let threshold = try ImageMeasure.everywhere(image, name: "CIColorThresholdOtsu") { pixels, area in
            var histogram = [Double](repeating: 0, count: 256)
            for y in area.y..<area.maxY {
                let row = pixels.row(y) + (area.x - pixels.rect.x)
                for x in 0..<area.width {
                    let p = row[x]
                    guard p.w > 0 else { continue }
                    for c in 0..<3 {
                        let v = p[c] / p.w
                        let bin = v >= 0 ? (v < 1 ? Int(v * 256) : 255) : 0
                        histogram[bin] += 1
                    }
                }
            }
            let t = Float(Otsu.threshold(histogram))
            return Pixel(t, t, t, 1)
        }
        return thresholdKernel(0, fromInput: true).apply(extent: image.extent, inputs: [image, threshold])
    }

    /// Disparity is 1 / depth, per colour channel (depth maps hold their values in the working space unchanged,
    /// as Core Image's depth images carry no colour space). A zero depth gives a very large, finite disparity.
    static func depthToDisparity(_ inputs: FilterInputs) throws -> Image {
        reciprocal(try inputs.image("inputImage"), name: "depthToDisparity")
    }

    static func disparityToDepth(_ inputs: FilterInputs) throws -> Image {
        reciprocal(try inputs.image("inputImage"), name: "disparityToDepth")
    }

    static func reciprocal(_ image: Image, name: String) -> Image {
        // Values whose magnitude is below 1e-6 are taken as ±1e-6, so results stay finite.
        let tiny: Float = 1e-6
        return ColorKernel(name: name) { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            @inline(__always) func inverse(_ v: Float) -> Float {
                v >= 0 ? 1 / max(v, tiny) : 1 / min(v, -tiny)
            }
            for i in 0..<span.count {
                let alpha = a[i]
                let inv: Float = alpha > 0 ? 1 / alpha : 0
                r[i] = alpha > 0 ? inverse(r[i] * inv) * alpha : 0
                g[i] = alpha > 0 ? inverse(g[i] * inv) * alpha : 0
                b[i] = alpha > 0 ? inverse(b[i] * inv) * alpha : 0
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// The sRGB encoding curve applied to straight working-space values: linear data becomes gamma-encoded
    /// (so an image looks brighter).
    static func linearToSRGBToneCurve(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        return ColorKernel(name: "linearToSRGB", dependence: .perChannel, parameters: []) { span in
            SpanColor.unpremultiply(span.out, span.count)
            SpanColor.encodeSRGB(span.out, span.count)
            SpanColor.premultiply(span.out, span.count)
        }.apply(extent: image.extent, inputs: [image])
    }

    /// The sRGB decoding curve applied to straight working-space values (an image looks darker).
    static func sRGBToneCurveToLinear(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        return ColorKernel(name: "sRGBToLinear", dependence: .perChannel, parameters: []) { span in
            SpanColor.unpremultiply(span.out, span.count)
            SpanColor.decodeSRGB(span.out, span.count)
            SpanColor.premultiply(span.out, span.count)
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Multiplies linear colour by the target white (given as an sRGB CIColor): white becomes that colour,
    /// black stays black, greys become shades of it. Core Image's render (iOS 12) matches this.
    static func whitePointAdjust(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let white = try inputs.color("inputColor")
        let w = Color(red: white.red, green: white.green, blue: white.blue).workingPixel
        return ColorMatrix(linear: [[Double(w.x), 0, 0], [0, Double(w.y), 0], [0, 0, Double(w.z)]])
            .kernel.apply(extent: image.extent, inputs: [image])
    }

    /// Vibrance, in linear light on straight colour: each colour moves away from (amount > 0) or towards
    /// (amount < 0) the plain mean m of its R, G, B, out = c + (c − m)·boost, by
    /// boost = amount · (1 − skin) · curve(s), where
    /// - s is the colour's distance from grey relative to the room it has: the largest over the channels of
    ///   (c − m)/(1 − m) above the mean and (m − c)/m below it (1 at the gamut's edge, 0 for grey);
    /// - skin = 0.15 + 0.7 · clamp(4 · min(r − g, 2g − b) · (1 − s_r) / m, 0, 1), s_r being red's own term:
    ///   0.15 for most colours, up to 0.85 for orange-red, skin-like ones, which are spared;
    /// - curve(s) = 1 − s + s² for amount < 0, fitted on Apple's iOS 7 render at amount −1
    ///   (monotouch-ios7-vibrance-minus1-flower: 80.9 dB in Python; that photo covers s from 0.4 to 1);
    ///   for amount > 0 it is 1 − s (muted colours gain most and the gamut's edge none), a guess: no render
    ///   of a positive amount is known.
    /// The result is clamped to 0…1 (the part of an input beyond that range is carried over unchanged).
    static func vibrance(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let amount = try inputs.float("inputAmount")
        if amount == 0 { return image }
        let boosting = amount > 0
        return ColorKernel(name: "vibrance") { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            for i in 0..<span.count {
                let alpha = a[i]
                guard alpha > 0 else { continue }
                let inv = 1 / alpha
                let c = SIMD3<Float>(r[i] * inv, g[i] * inv, b[i] * inv)
                let p = c.clamped(lowerBound: SIMD3(repeating: 1e-4), upperBound: SIMD3(repeating: 1 - 1e-4))
                let m = (p.x + p.y + p.z) / 3
                let above = (p - m) / (1 - m), below = (m - p) / m
                let spread = SIMD3<Float>(max(above.x, below.x), max(above.y, below.y), max(above.z, below.z))
                let s = max(spread.x, max(spread.y, spread.z))
                let skinLike = min(p.x - p.y, 2 * p.y - p.z) * 4 * (1 - spread.x) / m
                let skin = 0.15 + 0.7 * min(max(skinLike, 0), 1)
                let curve = boosting ? 1 - s : 1 - s + s * s
                let boost = amount * (1 - skin) * curve
                let moved = (p + (p - m) * boost).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
                let out = moved + (c - p)
                r[i] = out.x * alpha; g[i] = out.y * alpha; b[i] = out.z * alpha
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Fits colours from a source headroom (the brightest value, relative to SDR white 1) into a target headroom.
    /// Values up to a knee at half the target stay as they are; above it the largest component follows a
    /// rational roll-off that continues the identity's slope at the knee and reaches the target at the source
    /// headroom, and the other two components are scaled with it, keeping hue. When the target is not below
    /// the source nothing changes. Without a source headroom (Core Image reads the image's content headroom,
    /// which our images do not carry) the image's own peak is measured, at least 1.
    static func toneMapHeadroom(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        // Clamp: a headroom is a ratio to SDR white, never below 1 (the source headroom is clamped the same
        // way below); a target of 0 or less made the roll-off divide by zero. Not verified against Apple.
        let target = max(try inputs.float("inputTargetHeadroom"), 1)
        let kernel = { (fixedSource: Float?) -> ColorKernel in
            ColorKernel(name: "toneMapHeadroom") { span in
                let source = max(fixedSource ?? span.input(1).r[0], 1)
                guard target < source else { return }
                let knee = target * 0.5
                // g(u) = k·u / (1 + (k − 1)·u): g(0) = 0, g(1) = 1, slope k at 0 matches slope 1 of the identity.
                let k = (source - knee) / (target - knee)
                let spanIn = 1 / (source - knee), height = target - knee
                let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
                for i in 0..<span.count {
                    let alpha = a[i]
                    let inv: Float = alpha > 0 ? 1 / alpha : 0
                    let mx = max(r[i], max(g[i], b[i])) * inv
                    let u = (mx - knee) * spanIn
                    let mapped = knee + height * (k * u / (1 + (k - 1) * u))
                    let scale: Float = mx > knee ? mapped / mx : 1
                    r[i] *= scale; g[i] *= scale; b[i] *= scale
                }
            }
        }
        if try inputs.has("inputSourceHeadroom") {
            return kernel(try inputs.float("inputSourceHeadroom")).apply(extent: image.extent, inputs: [image])
        }
        let peak = try ImageMeasure.everywhere(image, name: "CIToneMapHeadroom") { pixels, area in
            var peak: Float = 1
            for y in area.y..<area.maxY {
                let row = pixels.row(y) + (area.x - pixels.rect.x)
                for x in 0..<area.width {
                    let p = row[x]
                    if p.w > 0 { peak = max(peak, max(p.x, max(p.y, p.z)) / p.w) }
                }
            }
            let value = peak.isFinite ? min(peak, 32) : 32
            return Pixel(value, value, value, 1)
        }
        return kernel(nil).apply(extent: image.extent, inputs: [image, peak])
    }
}

/// Otsu's threshold of a histogram whose bins split [0, 1] evenly.
enum Otsu {
    /// The boundary (a multiple of 1/count) that maximises the between-class variance; 0.5 for a histogram
    /// with fewer than two occupied levels.
    static func threshold(_ histogram: [Double]) -> Double {
        let total = histogram.reduce(0, +)
        guard total > 0 else { return 0.5 }
        let sum = histogram.enumerated().reduce(0) { $0 + Double($1.offset) * $1.element }
        var weightBelow = 0.0, sumBelow = 0.0
        var best = -1.0, bestIndex = -1
        for k in 0..<(histogram.count - 1) {
            weightBelow += histogram[k]
            sumBelow += Double(k) * histogram[k]
            let weightAbove = total - weightBelow
            guard weightBelow > 0, weightAbove > 0 else { continue }
            let meanBelow = sumBelow / weightBelow, meanAbove = (sum - sumBelow) / weightAbove
            let variance = weightBelow * weightAbove * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if variance > best { best = variance; bestIndex = k }
        }
        guard bestIndex >= 0 else { return 0.5 }
        return Double(bestIndex + 1) / Double(histogram.count)
    }
}
