import Foundation

enum ColorEffectFilters {
    static let all: [String: FilterImplementation] = [
        "CISepiaTone": sepiaTone,
        "CIColorInvert": colorInvert,
        "CIVignette": vignette,
    ]

    /// The classic sepia matrix, mixed with the original by the intensity.
    static func sepiaTone(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let t = try inputs.float("inputIntensity")
        let sepia: [[Float]] = [[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]]
        func row(_ i: Int) -> Pixel {
            Pixel((0..<3).map { j in (1 - t) * (i == j ? 1 : 0) + t * sepia[i][j] } + [0])
        }
        return ColorMatrix(r: row(0), g: row(1), b: row(2), a: Pixel(0, 0, 0, 1), bias: Pixel(0, 0, 0, 0))
            .kernel.apply(extent: image.extent, inputs: [image])
    }

    static func colorInvert(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        return ColorKernel(name: "invert") { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            for i in 0..<span.count {
                // On premultiplied colour, 1 - c/a becomes a - c.
                r[i] = a[i] - r[i]; g[i] = a[i] - g[i]; b[i] = a[i] - b[i]
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Darkens towards the corners with a cos⁴ lens falloff: the distance from the centre of the extent,
    /// in half-diagonals, is scaled by the radius; the intensity sets how much of the falloff applies.
    static func vignette(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let intensity = try inputs.float("inputIntensity")
        let radius = try inputs.float("inputRadius")
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else { return image }
        let cx = Float(e.midX), cy = Float(e.midY)
        let scale = radius / Float((e.width * e.width + e.height * e.height).squareRoot() / 2)
        return ColorKernel(name: "vignette") { span in
            let (r, g, b) = (span.out.r, span.out.g, span.out.b)
            let dy = (Float(span.y) + 0.5 - cy) * scale
            let x0 = (Float(span.x0) + 0.5 - cx) * scale
            for i in 0..<span.count {
                let dx = x0 + Float(i) * scale
                // cos⁴(atan d) = 1 / (1 + d²)²: the natural falloff without trigonometry per pixel.
                let q = 1 / (1 + dx * dx + dy * dy)
                let gain = max(1 - intensity * (1 - q * q), 0)
                r[i] *= gain; g[i] *= gain; b[i] *= gain
            }
        }.apply(extent: e, inputs: [image])
    }
}
