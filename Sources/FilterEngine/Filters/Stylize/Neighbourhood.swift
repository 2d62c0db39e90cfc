import Foundation

/// Small fixed-size neighbourhood (stencil) kernels shared by the stylize family: edge and gradient operators
/// read the 3×3 or 5×5 pixels around each output pixel of an input clamped to its extent.
enum Neighbourhood {
    /// Calls `body(centre, stride)` for every pixel of `context.rect` and stores what it returns; `centre` points
    /// at the input pixel under the output pixel, neighbours at `centre[dx + dy * stride]` for |dx|, |dy| ≤ reach.
    /// When the renderer's buffer does not hold the whole neighbourhood (it always does for clamped inputs), a
    /// padded copy with transparent pixels outside is made first.
    @inline(__always) static func forEach(_ context: RegionContext, input index: Int = 0, reach: Int,
                                          _ body: (UnsafeMutablePointer<Pixel>, Int) -> Pixel)
    {
        let r = context.rect
        let needed = r.insetBy(dx: -reach, dy: -reach)
        var source = context.inputs[index]
        if !source.rect.contains(needed) {
            let padded = PixelBuffer(rect: needed, uninitialized: true)
            for y in needed.y..<needed.maxY {
                source.readRow(x0: needed.x, y: y, count: needed.width, into: padded.row(y))
            }
            source = padded
        }
        let stride = source.rect.width
        withExtendedLifetime(source) {
            for y in r.y..<r.maxY {
                let src = source.row(y) + (r.x - source.rect.x)
                let out = context.output.row(y) + (r.x - context.output.rect.x)
                for i in 0..<r.width { out[i] = body(src + i, stride) }
            }
        }
    }

    /// A kernel over `image` clamped to its extent, with the output on `extent` (by default the input's).
    static func apply(_ name: String, _ image: Image, reach: Int, extent: Rect? = nil,
                      _ body: @escaping @Sendable (RegionContext) -> Void) -> Image {
        let kernel = GeneralKernel(name: name, roi: { _, rect in rect.insetBy(dx: -reach, dy: -reach) }, body)
        return kernel.apply(extent: extent ?? image.extent, inputs: [image.clampedToExtent()])
    }

    /// Sobel derivatives of one pixel, per channel, scaled so that a ramp of slope 1 per pixel gives 1.
    @inline(__always) static func sobel(_ p: UnsafeMutablePointer<Pixel>, _ s: Int) -> (gx: Pixel, gy: Pixel) {
        let gx = (p[1 - s] + 2 * p[1] + p[1 + s]) - (p[-1 - s] + 2 * p[-1] + p[-1 + s])
        let gy = (p[s - 1] + 2 * p[s] + p[s + 1]) - (p[-s - 1] + 2 * p[-s] + p[-s + 1])
        return (gx * 0.125, gy * 0.125)
    }
}
