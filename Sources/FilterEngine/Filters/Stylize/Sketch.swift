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

    /// Lifts shadows (inputShadowAmount > 0; < 0 deepens them) and pulls down highlights (inputHighlightAmount
    /// below 1), on perceptual (sRGB-encoded) luminance, each weighted by how dark or bright the neighbourhood is:
    /// the luminance blurred with σ = inputRadius (the pixel itself at radius 0). Colour is scaled with the
    /// luminance, so hue and saturation stay. Shadow 0 and highlight 1 leave the image unchanged.
    static func highlightShadowAdjust(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let radius = try inputs.number("inputRadius")
        let shadow = try inputs.float("inputShadowAmount")
        let highlight = try inputs.float("inputHighlightAmount")
        if shadow == 0 && highlight == 1 { return image }
        guard !image.extent.isEmpty else { return image }
        let local = blurInside(luminance(image), sigma: radius)
        let w = ColorMath.lumaWeights
        return ColorKernel(name: "highlightShadow") { span in
            let o = span.out, neighbourhood = span.input(1)
            for i in 0..<span.count {
                let a = o.a[i]
                guard a > 0 else { continue }
                let y = max((o.r[i] * w.x + o.g[i] * w.y + o.b[i] * w.z) / a, 0)
                let e = ColorMath.sRGB(fromLinear: y)
                let b = ColorMath.clamp01(ColorMath.sRGB(fromLinear: max(neighbourhood.r[i], 0)))
                let dark = (1 - b) * (1 - b), bright = b * b
                var e2 = e + shadow * dark * 0.5 * (shadow > 0 ? (1 - min(e, 1)) : e)
                e2 -= (1 - highlight) * bright * 0.5 * e2
                let y2 = ColorMath.linear(fromSRGB: max(e2, 0))
                if y > 1e-6 {
                    let k = y2 / y
                    o.r[i] *= k; o.g[i] *= k; o.b[i] *= k
                } else {
                    o.r[i] += y2 * a; o.g[i] += y2 * a; o.b[i] += y2 * a
                }
            }
        }.apply(extent: image.extent, inputs: [image, local])
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
