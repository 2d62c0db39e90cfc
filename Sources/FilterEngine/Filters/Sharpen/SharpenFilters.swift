import Foundation

/// Sharpening: unsharp masking of all channels, or of the luminance only.
enum SharpenFilters {
    static let all: [String: FilterImplementation] = [
        "CIUnsharpMask": unsharpMask,
        "CISharpenLuminance": sharpenLuminance,
    ]

    /// p + intensity · (p − Gaussian(p, σ = inputRadius)); the output keeps the input's extent.
    static func unsharpMask(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        // No cap on the radius (the Gaussian's cost does not grow with it); below 0 it acts as 0.
        let radius = try inputs.number("inputRadius"), intensity = try inputs.float("inputIntensity")
        guard radius > 0.05, intensity != 0, !image.extent.isEmpty else { return image }
        let blurred = BlurFilters.gaussian(image, sigma: radius)
        return ColorKernel(name: "unsharpMask") { span in
            let o = span.out, b = span.input(1)
            for i in 0..<span.count {
                o.r[i] += intensity * (o.r[i] - b.r[i])
                o.g[i] += intensity * (o.g[i] - b.g[i])
                o.b[i] += intensity * (o.b[i] - b.b[i])
                o.a[i] += intensity * (o.a[i] - b.a[i])
            }
        }.apply(extent: image.extent, inputs: [image, blurred])
    }

    /// Adds inputSharpness × (luminance − blurred luminance) to red, green and blue alike, so only the
    /// luminance gains detail and the chroma is untouched; the blur is a Gaussian of σ = inputRadius. Working
    /// on premultiplied values, the added grey is scaled by coverage automatically. Alpha is unchanged.
    static func sharpenLuminance(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        // A negative radius blurs as its size (a Gaussian is symmetric in σ); no cap: the cost does not grow.
        let radius = abs(try inputs.number("inputRadius")), sharpness = try inputs.float("inputSharpness")
        guard radius > 0.05, sharpness != 0, !image.extent.isEmpty else { return image }
        let blurred = BlurFilters.gaussian(image, sigma: radius)
        let w = ColorMath.lumaWeights
        return ColorKernel(name: "sharpenLuminance") { span in
            let o = span.out, b = span.input(1)
            for i in 0..<span.count {
                let y = o.r[i] * w.x + o.g[i] * w.y + o.b[i] * w.z
                let yb = b.r[i] * w.x + b.g[i] * w.y + b.b[i] * w.z
                let d = sharpness * (y - yb)
                o.r[i] += d; o.g[i] += d; o.b[i] += d
            }
        }.apply(extent: image.extent, inputs: [image, blurred])
    }
}
