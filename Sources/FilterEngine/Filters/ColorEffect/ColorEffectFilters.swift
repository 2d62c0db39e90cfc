import CPixelLoops
import Foundation

enum ColorEffectFilters {
    static let all: [String: FilterImplementation] = [
        "CISepiaTone": sepiaTone,
        "CIColorInvert": colorInvert,
        "CIVignette": vignette,
        "CIColorMonochrome": colorMonochrome,
        "CIFalseColor": falseColor,
        "CIMaskToAlpha": maskToAlpha,
        "CIMaximumComponent": maximumComponent,
        "CIMinimumComponent": minimumComponent,
        "CIColorPosterize": colorPosterize,
        "CIDither": dither,
        "CIVignetteEffect": vignetteEffect,
        "CIColorMap": PaletteFilters.colorMap,
        "CIPalettize": PaletteFilters.palettize,
        "CIPaletteCentroid": PaletteFilters.paletteCentroid,
        "CIPhotoEffectChrome": PhotoEffects.chrome,
        "CIPhotoEffectFade": PhotoEffects.fade,
        "CIPhotoEffectInstant": PhotoEffects.instant,
        "CIPhotoEffectMono": PhotoEffects.mono,
        "CIPhotoEffectNoir": PhotoEffects.noir,
        "CIPhotoEffectProcess": PhotoEffects.process,
        "CIPhotoEffectTonal": PhotoEffects.tonal,
        "CIPhotoEffectTransfer": PhotoEffects.transfer,
        "CIThermal": PhotoEffects.thermal,
        "CIXRay": PhotoEffects.xRay,
        "CIDocumentEnhancer": PhotoEffects.documentEnhancer,
    ]

    /// Core Image's sepia is a function of the linear Rec. 709 luminance Y of the straight colour alone, one power
    /// curve per channel, mixed with the original in linear light by the intensity. Apple publishes no formula
    /// (and the classic 0.393/0.769/0.189 matrix measured 17-20 dB against Apple's renders; Apple's WWDC 2012
    /// session 510 slides also show colour matrices merged at render time while the sepia filter stays separate,
    /// i.e. it is not a matrix). The curves were fitted by least squares to three Apple renders in
    /// ../shared/conformance/CISepiaTone (Nuke at intensity 1 and 0.5, AlamofireImage at 1): Y alone explains the
    /// output to 45 dB, and these curves reach 44-56 dB on each case.
    static func sepiaTone(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let t = try inputs.float("inputIntensity")
        let w = ColorMath.lumaWeights
        let table = SepiaCurves.table
        let steps = Float(SepiaCurves.Table.steps)
        // Two loops with the same arithmetic as `table.lookup`: a first without branches or look-ups, which the
        // compiler vectorises (the division, the square root and the table position), then the table reads per
        // pixel, without branches when no pixel of the span is transparent or above the table (Y > 1).
        // Measured on the 2-core dev VM (bench case d, one thread, 1080p, A B A B under the same load):
        // 38.5 → 24.8 ms a frame for the two loops against one, the output bit-identical; then (a model of this
        // kernel alone, one thread, CPU time) 14.4 → 8.3 ms for 2 M pixels with the position in the first loop
        // and the branch-free look-ups. perf then still gave the kernel 59% of a one-thread frame, in the scalar
        // mix after the look-ups: hence the look-ups apart and the mix vectorised. Then (a model of the kernel, 1080p
        // one thread, CPU time, min of 9) 5.8 → 4.7 ms a frame with the look-ups and mix by AVX2 gathers in C, then
        // loads and shuffles instead of gathers (sepia.c).
        return ColorKernel(name: "sepiaTone", dependence: t == 1 ? .luminance(w) : .general, parameters: [t]) { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            let n = span.count
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 6 * n) { scratch in
                let ys = scratch.baseAddress!, fractions = ys + n
                let cells = UnsafeMutableRawPointer(ys + 2 * n).assumingMemoryBound(to: Int32.self)
                let toneR = ys + 3 * n, toneG = ys + 4 * n, toneB = ys + 5 * n
                var unusual: UInt32 = 0
                for i in 0..<n {
                    // Y of the straight colour (the curves are not homogeneous, so they need it unpremultiplied).
                    let y = max((r[i] * w.x + g[i] * w.y + b[i] * w.z) / a[i], 0)
                    ys[i] = y
                    // The table's position, √Y · steps (0 where Y is outside the table or NaN; unused there).
                    let u = (y <= 1 ? y : 0).squareRoot() * steps
                    let k = min(Int32(u), Int32(SepiaCurves.Table.steps))
                    cells[i] = k
                    fractions[i] = u - Float(k)
                    unusual |= (y <= 1 ? 0 : 1) | (a[i] > 0 ? 0 : 1)
                }
                table.values.withUnsafeBufferPointer { v in
                    if unusual == 0 {
                        // Eight at a time by gathers, then what is left: the look-ups alone, and the mix as a
                        // plain loop the compiler vectorises.
                        let done = table.entries.withUnsafeBufferPointer {
                            Int(pixelloops_sepia_mix(cells, fractions, $0.baseAddress!, Int32(n), t, r, g, b, a))
                        }
                        for i in done..<n {
                            let k = Int(cells[i])
                            let tone = v[k] + (v[k + 1] - v[k]) * fractions[i]
                            toneR[i] = tone.x; toneG[i] = tone.y; toneB[i] = tone.z
                        }
                        for i in done..<n {
                            let alpha = a[i]
                            r[i] += (toneR[i] * alpha - r[i]) * t
                            g[i] += (toneG[i] * alpha - g[i]) * t
                            b[i] += (toneB[i] * alpha - b[i]) * t
                        }
                        return
                    }
                    for i in 0..<n {
                        let alpha = a[i]
                        guard alpha > 0 else { continue }
                        let y = ys[i]
                        let tone: SIMD3<Float>
                        if y <= 1 {
                            let k = Int(cells[i])
                            tone = v[k] + (v[k + 1] - v[k]) * fractions[i]
                        } else {
                            tone = SepiaCurves.exact(y)
                        }
                        r[i] += (tone.x * alpha - r[i]) * t
                        g[i] += (tone.y * alpha - g[i]) * t
                        b[i] += (tone.z * alpha - b[i]) * t
                    }
                }
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    static func colorInvert(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        return ColorKernel(name: "invert", dependence: .perChannel, parameters: []) { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            for i in 0..<span.count {
                // On premultiplied colour, 1 - c/a becomes a - c.
                r[i] = a[i] - r[i]; g[i] = a[i] - g[i]; b[i] = a[i] - b[i]
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Darkens away from the centre of the extent: linear colour times (1 − d²/S²)^(2·intensity), 0 beyond S,
    /// where d is the distance from the centre in pixels and S = min(width, height) · radius / 2 with the
    /// radius clamped to its slider range 0…2. Fitted on Apple's iOS 7 render (intensity 2, radius 10, a
    /// 638×475 photo): the gain is a pure multiplier of linear light, round about the extent's centre, and
    /// (1 − d²/475²)⁴ fits it at 89.9 dB in Python (centre, S and exponent fitted freely: 319.0, 237.5, 475.1,
    /// 4.003). Which of intensity and radius make the exponent 4 and S = 475 is a guess from that one case:
    /// here the exponent is twice the intensity and S the shorter side at the largest radius.
    static func vignette(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let intensity = try inputs.float("inputIntensity")
        let radius = try inputs.float("inputRadius")
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty, intensity != 0 else { return image }
        let cx = Float(e.midX), cy = Float(e.midY)
        let size = Float(min(e.width, e.height)) * min(max(radius, 0), 2) / 2
        // A zero size darkens (or, below 0 intensity, lightens) everything but the centre point.
        let inverseSquare: Float = size > 0 ? 1 / (size * size) : .greatestFiniteMagnitude
        let power = 2 * intensity
        // A negative power would make 0 infinite (and 0 · ∞ NaN on black): the base stays above a floor there.
        let floor: Float = power < 0 ? 1e-6 : 0
        return ColorKernel(name: "vignette", dependence: .gain, parameters: [cx, cy, inverseSquare, power, floor]) { span in
            let (r, g, b) = (span.out.r, span.out.g, span.out.b)
            let dy = Float(span.y) + 0.5 - cy
            let x0 = Float(span.x0) + 0.5 - cx
            let n = span.count
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * n) { scratch in
                let bases = scratch.baseAddress!, gains = bases + n
                for i in 0..<n {
                    let dx = x0 + Float(Int32(truncatingIfNeeded: i))
                    bases[i] = max(1 - (dx * dx + dy * dy) * inverseSquare, floor)
                }
                pixelloops_powf(bases, gains, Int32(n), power)
                for i in 0..<n {
                    // Finite even at huge negative powers, so that black stays black (0 · ∞ would be NaN).
                    let gain = min(gains[i], .greatestFiniteMagnitude)
                    r[i] *= gain; g[i] *= gain; b[i] *= gain
                }
            }
        }.apply(extent: e, inputs: [image])
    }

    // MARK: Luminance-driven effects

    /// Every colour becomes a shade of one tint, as an overlay of the tint on the pixel's luminance L (Rec. 709,
    /// straight linear colour): 2·L·c below L = 0.5, 1 − 2·(1 − L)·(1 − c) above, per channel; mixed with the
    /// original by the intensity. Fitted on Apple's iOS 7 render (magenta, intensity 1): 67.9 dB in Python;
    /// luminance times the tint (our old rule) gave 16.4 dB. The intensity's mixing is not shown by that case.
    static func colorMonochrome(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let tint = try inputs.color("inputColor").workingPixel
        let t = try inputs.float("inputIntensity")
        let w = ColorMath.lumaWeights
        // The tint is an opaque colour (its type says so); its straight linear components:
        let (tr, tg, tb) = tint.w > 0 ? (tint.x / tint.w, tint.y / tint.w, tint.z / tint.w) : (0, 0, 0)
        @Sendable @inline(__always) func overlay(_ l: Float, _ c: Float) -> Float {
            l < 0.5 ? 2 * l * c : 1 - 2 * (1 - l) * (1 - c)
        }
        return ColorKernel(name: "colorMonochrome", dependence: t == 1 ? .luminance(w) : .general,
                           parameters: [tr, tg, tb, t]) { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            for i in 0..<span.count {
                let alpha = a[i]
                let inv: Float = alpha > 0 ? 1 / alpha : 0
                let luma = (r[i] * w.x + g[i] * w.y + b[i] * w.z) * inv
                r[i] += (overlay(luma, tr) * alpha - r[i]) * t
                g[i] += (overlay(luma, tg) * alpha - g[i]) * t
                b[i] += (overlay(luma, tb) * alpha - b[i]) * t
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Luminance (clamped to 0...1) picks a colour on the straight line from colour 0 (darkest) to colour 1
    /// (brightest), interpolated in the working space; the result keeps the input's coverage.
    static func falseColor(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let c0 = try inputs.color("inputColor0").workingPixel
        let c1 = try inputs.color("inputColor1").workingPixel
        let w = ColorMath.lumaWeights
        let d = c1 - c0
        return ColorKernel(name: "falseColor") { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            for i in 0..<span.count {
                let alpha = a[i]
                let inv: Float = alpha > 0 ? 1 / alpha : 0
                let luma = EncodedCurves.clamp01((r[i] * w.x + g[i] * w.y + b[i] * w.z) * inv)
                r[i] = (c0.x + d.x * luma) * alpha
                g[i] = (c0.y + d.y * luma) * alpha
                b[i] = (c0.z + d.z * luma) * alpha
                a[i] = (c0.w + d.w * luma) * alpha
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// A white image whose coverage is the input's luminance (clamped to 0...1): white where the mask is
    /// white, transparent where it is black. Transparent input pixels count as black.
    static func maskToAlpha(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let w = ColorMath.lumaWeights
        return ColorKernel(name: "maskToAlpha", dependence: .luminance(w), parameters: []) { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            for i in 0..<span.count {
                let luma = EncodedCurves.clamp01(r[i] * w.x + g[i] * w.y + b[i] * w.z)
                r[i] = luma; g[i] = luma; b[i] = luma; a[i] = luma
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Grey from the largest of the three components; alpha kept. (max commutes with premultiplication.)
    static func maximumComponent(_ inputs: FilterInputs) throws -> Image {
        maximumComponent(try inputs.image("inputImage"))
    }

    static func maximumComponent(_ image: Image) -> Image {
        ColorKernel(name: "maximumComponent") { span in
            let (r, g, b) = (span.out.r, span.out.g, span.out.b)
            for i in 0..<span.count {
                let rg = r[i] > g[i] ? r[i] : g[i]
                let m = rg > b[i] ? rg : b[i]
                r[i] = m; g[i] = m; b[i] = m
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Grey from the smallest of the three components; alpha kept.
    static func minimumComponent(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        return ColorKernel(name: "minimumComponent") { span in
            let (r, g, b) = (span.out.r, span.out.g, span.out.b)
            for i in 0..<span.count {
                let rg = r[i] < g[i] ? r[i] : g[i]
                let m = rg < b[i] ? rg : b[i]
                r[i] = m; g[i] = m; b[i] = m
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    // MARK: Quantisation and noise

    /// Each channel of straight linear colour rounded to the nearest of `levels` evenly spaced values from 0 to
    /// 1: round(x·(n − 1))/(n − 1) (2 levels: 0 or 1). Non-whole level counts give uneven spacing, as a slider
    /// between counts does. One level has a single value for everything: the middle, 0.5. Fitted on Apple's
    /// iOS 7 render (8 levels): exact in Python (99 dB, every byte); the same rounding on sRGB-encoded values
    /// (our old rule) gave 19.4 dB. Evenly spaced in linear light, so even many levels move the darkest 8-bit
    /// values; Core Image names 300 levels as the identity, so from there on the input passes unchanged (a guess
    /// at what Core Image does there: no render shows it).
    static func colorPosterize(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let levels = try inputs.float("inputLevels")
        if levels >= 300 { return image }
        let steps = levels - 1
        let scale: Float = steps > 1e-3 ? steps : 0
        let inverse: Float = steps > 1e-3 ? 1 / steps : 0
        let offset: Float = steps > 1e-3 ? 0 : 0.5
        return ColorKernel(name: "colorPosterize", dependence: .perChannel, parameters: [scale, inverse, offset]) { span in
            let p = span.out, count = span.count
            SpanColor.unpremultiply(p, count)
            for channel in [p.r, p.g, p.b] {
                for i in 0..<count { channel[i] = (channel[i] * scale).rounded() * inverse + offset }
            }
            SpanColor.premultiply(p, count)
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Adds uniform noise of amplitude ±intensity/2 to each sRGB-encoded channel, so that quantising the
    /// result (an 8-bit output, a posterize) breaks bands into grain: at 1/255 it is a classic one-level dither,
    /// at the default 0.1 a visible fine grain (Core Image's "processed look"). The noise comes from a hash of
    /// the pixel's coordinates and channel, so it is the same in every render, tile and thread. Values that
    /// were inside 0...1 stay inside it.
    static func dither(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let intensity = try inputs.float("inputIntensity")
        if intensity == 0 { return image }
        let decode = EncodedCurves.decode
        return ColorKernel(name: "dither") { span in
            let count = span.count
            let dec = decode.values
            let y = UInt32(truncatingIfNeeded: span.y)
            let x0 = UInt32(truncatingIfNeeded: span.x0)
            EncodedCurves.withEncodedColour(span.out, count: count) {
                for (c, channel) in [span.out.r, span.out.g, span.out.b].enumerated() {
                    let seed = DitherNoise.hash(y ^ DitherNoise.salts[c])
                    for i in 0..<count {
                        let noise = DitherNoise.offset(x: x0 &+ UInt32(truncatingIfNeeded: i), seed: seed) * intensity
                        let e = channel[i]
                        let upper: Float = e > 1 ? e : 1
                        let noisy = e + noise
                        // Values inside 0...1 stay inside it; extended-range ones just get the noise.
                        channel[i] = e < 0 ? noisy : (noisy > 0 ? (noisy < upper ? noisy : upper) : 0)
                    }
                    EncodedCurves.lookup(dec, row: channel, count: count)
                }
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    // MARK: Vignette around a point

    /// Shades outside a clear circle around `inputCenter`. Inside `inputRadius` nothing changes; the shading
    /// rises with a smoothstep over the next `falloff × radius` pixels (falloff 0: a hard edge) and is full
    /// beyond. Positive intensity darkens towards black (1: black), negative lightens towards white.
    static func vignetteEffect(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let radius = try inputs.float("inputRadius")
        let intensity = try inputs.float("inputIntensity")
        let falloff = try inputs.float("inputFalloff")
        if intensity == 0 { return image }
        let cx = Float(center.x), cy = Float(center.y)
        let width = radius * falloff
        let inverseWidth: Float = width > 1e-6 ? 1 / width : 0
        let darken = intensity > 0 ? intensity : 0
        let lighten = intensity < 0 ? -intensity : 0
        return ColorKernel(name: "vignetteEffect") { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            let dy = Float(span.y) + 0.5 - cy
            let dx0 = Float(span.x0) + 0.5 - cx
            for i in 0..<span.count {
                let dx = dx0 + Float(i)
                let distance = (dx * dx + dy * dy).squareRoot()
                // Hard edge when there is no transition width: 1 at or beyond the radius.
                let u = inverseWidth > 0 ? EncodedCurves.clamp01((distance - radius) * inverseWidth)
                                         : (distance >= radius ? 1 : 0)
                let shade = u * u * (3 - 2 * u)
                let keep = 1 - darken * shade
                let toWhite = lighten * shade
                // Premultiplied white is (a, a, a).
                r[i] = r[i] * keep + (a[i] - r[i]) * toWhite
                g[i] = g[i] * keep + (a[i] - g[i]) * toWhite
                b[i] = b[i] * keep + (a[i] - b[i]) * toWhite
            }
        }.apply(extent: image.extent, inputs: [image])
    }
}

/// Deterministic per-pixel noise for CIDither: an integer hash of (x, y, channel) giving offsets in [-0.5, 0.5).
enum DitherNoise {
    static let salts: [UInt32] = [0x68e3_1da4, 0xb529_7a4d, 0x1b56_c4e9]

    @inline(__always) static func hash(_ v: UInt32) -> UInt32 {
        // A well-mixed 32-bit integer hash (xorshift-multiply rounds); wrapping arithmetic throughout.
        var h = v
        h ^= h >> 16; h = h &* 0x7feb_352d
        h ^= h >> 15; h = h &* 0x846c_a68b
        h ^= h >> 16
        return h
    }

    /// `seed`: hash(y ^ salt), the same along a row.
    @inline(__always) static func offset(x: UInt32, seed: UInt32) -> Float {
        let h = hash(x &* 0x9e37_79b1 ^ seed)
        return Float(h >> 8) * (1 / 16_777_216) - 0.5
    }
}

/// CISepiaTone's per-channel curves of the luminance (fitted to Apple's renders, see `sepiaTone`).
enum SepiaCurves {
    @inline(__always) static func exact(_ y: Float) -> SIMD3<Float> {
        SIMD3(1.005 * powf(y, 0.785), 0.993 * powf(y, 1.086), 0.923 * powf(y, 1.903))
    }

    /// The curves for Y in 0…1, tabulated against √Y (1024 steps, linear interpolation): the curves are smooth
    /// in √Y (no infinite slope at black), so the table stays within 1e-5 of the powers and costs a square root
    /// instead of three powers a pixel.
    struct Table: Sendable {
        let values: [SIMD3<Float>]
        /// For the C loop, 8 floats a cell k ≤ steps: values[k], values[k + 1] − values[k] (the difference the
        /// interpolation takes, so the same floats), two unused.
        let entries: [Float]
        static let steps = 1024
        init() {
            let values = (0...Self.steps + 1).map { k in
                let s = Float(min(k, Self.steps)) / Float(Self.steps)
                return SepiaCurves.exact(s * s)
            }
            self.values = values
            entries = (0...Self.steps).flatMap { k -> [Float] in
                let v = values[k], d = values[k + 1] - values[k]
                return [v.x, v.y, v.z, d.x, d.y, d.z, 0, 0]
            }
        }
        @inline(__always) func lookup(_ y: Float) -> SIMD3<Float> {
            let u = y.squareRoot() * Float(Self.steps)
            let k = min(Int(u), Self.steps)
            let f = u - Float(k)
            return values.withUnsafeBufferPointer { v in v[k] + (v[k + 1] - v[k]) * f }
        }
    }

    static let table = Table()
}
