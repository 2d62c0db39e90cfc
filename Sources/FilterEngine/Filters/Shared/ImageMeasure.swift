import Foundation

/// Whole-image measurements feeding a per-pixel kernel (Otsu's threshold, an image's peak): a general kernel
/// reduces the input to one pixel once per render, and the result is clamped to an infinite image, so a colour
/// kernel reads it as its second input at every pixel and still fuses with its neighbours.
enum ImageMeasure {
    /// An infinite image whose every pixel is `measure` of the input's pixels over its (finite) extent.
    static func everywhere(_ image: Image, name: String,
                           _ measure: @escaping @Sendable (_ pixels: PixelBuffer, _ area: PixelRect) -> Pixel) throws -> Image {
        guard !image.extent.isInfinite else {
            throw FilterError("\(name) measures the whole image, so its input must be finite (crop it first)")
        }
        let area = image.pixelExtent
        guard !area.isEmpty else { return Image(color: .clear) }
        let kernel = GeneralKernel(name: name, parallel: false, roi: { _, _ in area }) { context in
            let value = measure(context.inputs[0], area)
            for y in context.rect.y..<context.rect.maxY {
                let row = context.output.row(y) + (context.rect.x - context.output.rect.x)
                for x in 0..<context.rect.width { row[x] = value }
            }
        }
        let one = Rect(x: Double(area.x), y: Double(area.y), width: 1, height: 1)
        return kernel.apply(extent: one, inputs: [image]).clampedToExtent()
    }
}
