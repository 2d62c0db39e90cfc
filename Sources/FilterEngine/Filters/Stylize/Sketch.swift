import Foundation

/// Tone and sketch effects built from blurs and edge operators: highlight/shadow adjustment, line overlay,
/// edge work (a woodcut look) and the comic effect.
enum Sketch {
    /// The straight-colour luminance of a premultiplied span, in place (grey, alpha 1); sRGB-encoded when
    /// `perceptual`.
    static func luminance(_ image: Image, perceptual: Bool = false) -> Image {
        let w = ColorMath.lumaWeights
        return ColorKernel(name: "luminance") { span in
            let o = span.out
            for i in 0..<span.count {
                let a = o.a[i]
                var y = a > 0 ? (o.r[i] * w.x + o.g[i] * w.y + o.b[i] * w.z) / a : 0
                if perceptual { y = ColorMath.sRGB(fromLinear: y) }
                o.r[i] = y; o.g[i] = y; o.b[i] = y; o.a[i] = 1
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// A Gaussian blur of an image clamped to its extent, cut back to that extent (edges do not darken).
    /// σ is bounded at 500: wider blurs of any real picture are flat, and the pyramid's last level would grow.
    static func blurInside(_ image: Image, sigma: Double) -> Image {
        guard sigma > 0.05 else { return image }
        return BlurFilters.gaussian(image.clampedToExtent(), sigma: min(sigma, 500)).cropped(to: image.extent)
    }

    /// Highlight and shadow adjustment, per channel in linear light (straight colour), keyed on the brightness
    /// M of the neighbourhood: the largest component (straight), blurred with σ = inputRadius (the pixel's own at
    /// radius 0):
    ///   out = c + shadow · (1 − M)² · (c^0.62 − c) − (1 − highlight) · M · c^(1/3) · (1 − c)^2.5
    /// (c and M clamped to 0…1 inside the terms; the result is not allowed below 0; a negative shadow amount
    /// uses c^(1/0.62) in place of c^0.62, deepening shadows without crushing them). The shadow term lifts
    /// each channel along a power curve where the surroundings are dark; the highlight term pulls mid and low
    /// channels down where they are bright, which deepens bright colours. Shadow 0 and highlight 1 are the
    /// identity. Fitted on Apple's iOS 7 render (shadow 1.5, highlight 0.75; iOS 7 had no radius, i.e. radius 0):
    /// 34.3 dB in Python with these rounded constants, 35.6 dB through the command line; Apple's output there
    /// is pointwise, follows (c, max) closely and lifts deep shadows like c^0.62. How the amounts scale the two
    /// terms (linearly here) is a guess.
    static func highlightShadowAdjust(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let radius = try inputs.number("inputRadius")
        let shadow = try inputs.float("inputShadowAmount")
        let highlight = try inputs.float("inputHighlightAmount")
        if shadow == 0 && highlight == 1 { return image }
        guard !image.extent.isEmpty else { return image }
        let darken = 1 - highlight
        // Negative shadow amounts (no render) deepen along the inverse power, c^(1/0.62), which stays above 0.
        let shadowPower: Float = shadow >= 0 ? 0.62 : 1 / 0.62
        // Premultiplied, so that the blur weighs each neighbour by its coverage; divided by alpha below.
        let key = blurInside(ColorEffectFilters.maximumComponent(image), sigma: radius)
        return ColorKernel(name: "highlightShadow") { span in
            let o = span.out, neighbourhood = span.input(1)
            for i in 0..<span.count {
                let a = o.a[i]
                guard a > 0 else { continue }
                let keyAlpha = neighbourhood.a[i]
                let m = keyAlpha > 0 ? ColorMath.clamp01(neighbourhood.r[i] / keyAlpha) : 0
                let lift = abs(shadow) * (1 - m) * (1 - m), fall = darken * m
                func adjust(_ premultiplied: Float) -> Float {
                    let c = premultiplied / a
                    let t = ColorMath.clamp01(c)
                    let shadowTerm = t > 0 ? lift * (powf(t, shadowPower) - t) : 0
                    let highlightTerm = t > 0 ? fall * cbrtf(t) * powf(1 - t, 2.5) : 0
                    return max(c + shadowTerm - highlightTerm, 0) * a
                }
                o.r[i] = adjust(o.r[i]); o.g[i] = adjust(o.g[i]); o.b[i] = adjust(o.b[i])
            }
        }.apply(extent: image.extent, inputs: [image, key])
    }

    /// Black outlines on a transparent background: noise reduction (a blur of σ = 10 × inputNRNoiseLevel, then
    /// an unsharp mask of strength inputNRSharpness), the luminance slope (twice the per-pixel Sobel slope) times
    /// inputEdgeIntensity, and alpha = (edge − inputThreshold) × inputContrast, clamped.
    static func lineOverlay(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        return lines(image, noise: try inputs.number("inputNRNoiseLevel"),
                     sharpness: try inputs.float("inputNRSharpness"),
                     intensity: try inputs.float("inputEdgeIntensity"),
                     threshold: try inputs.float("inputThreshold"), contrast: try inputs.float("inputContrast"))
    }

    static func lines(_ image: Image, noise: Double, sharpness: Float, intensity: Float, threshold: Float,
                      contrast: Float) -> Image {
        guard !image.extent.isEmpty else { return image }
        let luma = luminance(image)
        let smooth = blurInside(luma, sigma: 10 * noise)
        var denoised = smooth
        if sharpness > 0 {
            denoised = ColorKernel(name: "nrSharpen") { span in
                let o = span.out, soft = span.input(1)
                for i in 0..<span.count { o.r[i] += (o.r[i] - soft.r[i]) * sharpness }
            }.apply(extent: image.extent, inputs: [smooth, blurInside(smooth, sigma: 1)])
        }
        let strength = intensity * 2
        return Neighbourhood.apply("lineOverlay", denoised, reach: 1) { context in
            Neighbourhood.forEach(context, reach: 1) { p, s in
                let (gx, gy) = Neighbourhood.sobel(p, s)
                let edge = (gx.x * gx.x + gy.x * gy.x).squareRoot() * strength
                let alpha = min(max((edge - threshold) * contrast, 0), 1)
                return Pixel(0, 0, 0, alpha)
            }
        }
    }

    /// A woodcut: black ink where the luminance is darker than its surroundings (a difference of Gaussians, the
    /// wider of σ = inputRadius), white paper elsewhere, with a steep but antialiased transition. Radius 0 has
    /// no surroundings to compare with and gives plain paper.
    static func edgeWork(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let radius = try inputs.number("inputRadius")
        guard !image.extent.isEmpty else { return image }
        let luma = luminance(image)
        let fine = blurInside(luma, sigma: max(radius * 0.25, 0.5))
        let wide = blurInside(luma, sigma: max(radius, 0.5))
        return ColorKernel(name: "edgeWork") { span in
            let o = span.out, around = span.input(1)
            for i in 0..<span.count {
                let d = ColorMath.sRGB(fromLinear: max(o.r[i], 0)) - ColorMath.sRGB(fromLinear: max(around.r[i], 0))
                let v = min(max(0.5 + (d + 0.02) * 25, 0), 1)
                o.r[i] = v; o.g[i] = v; o.b[i] = v; o.a[i] = 1
            }
        }.apply(extent: image.extent, inputs: [fine, wide])
    }

    /// Outlines (the line overlay at its catalogue defaults) over a CMYK halftone of the image.
    static func comicEffect(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        guard !image.extent.isEmpty else { return image }
        let overlay = try Filter(named: "CILineOverlay")
        try overlay.setValue(.image(image), forKey: "inputImage")
        let outlines = try overlay.makeOutputImage()
        let halftone = try image.applyingFilter("CICMYKHalftone", parameters: ["inputCenter": .vector([0, 0])])
        return outlines.composited(over: halftone).cropped(to: image.extent)
    }
}
