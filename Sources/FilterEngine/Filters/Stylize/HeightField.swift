import Foundation

/// Height fields from masks, and shading them with a material image.
enum HeightField {
    /// A smooth "loft" over the white part of a mask: the mask blurred with a Gaussian of 0.58 × inputRadius,
    /// kept only inside the mask, opaque grey, zero outside and rising towards the inside.
    ///
    /// Fitted to Core Image's render in shared/conformance/CIHeightFieldFromMask (radius 25, 974×772): its grey,
    /// read as sRGB-encoded, is 0.91 × blur × mask with σ ≈ 14.5 (39 dB between the fitted model and Apple's
    /// output in numpy; least squares over σ and the factor). The output keeps the input's extent.
    static func heightFieldFromMask(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let radius = try inputs.number("inputRadius")
        guard !image.extent.isEmpty else { return image }
        let w = ColorMath.lumaWeights
        // The mask: luminance of the (premultiplied, so transparent is outside) input.
        let mask = ColorKernel(name: "heightMask") { span in
            let o = span.out
            for i in 0..<span.count {
                let m = o.r[i] * w.x + o.g[i] * w.y + o.b[i] * w.z
                o.r[i] = m; o.g[i] = m; o.b[i] = m; o.a[i] = 1
            }
        }.apply(extent: image.extent, inputs: [image])
        let blurred = BlurFilters.gaussian(mask.withExtent(image.extent), sigma: 0.58 * min(radius, 1000))
        // Outside the extent the blur reads zeros (a mask is empty there).
        return ColorKernel(name: "heightField") { span in
            let o = span.out, b = span.input(1)
            for i in 0..<span.count {
                let m = min(max(o.r[i], 0), 1)
                let h = min(max(b.r[i] * m * 0.91, 0), 1)
                let v = h <= 0.04045 ? h / 12.92 : powf((h + 0.055) / 1.055, 2.4)
                o.r[i] = v; o.g[i] = v; o.b[i] = v; o.a[i] = 1
            }
        }.apply(extent: image.extent, inputs: [mask, blurred])
    }

    /// Shades a height field (inputImage, its luminance the height) with a material image: each pixel's surface
    /// normal, from the height's slope times inputScale, picks the point of the shading image that a sphere with
    /// that normal would show (the shading image is a picture of a lit ball, its centre facing the viewer).
    static func shadedMaterial(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        var shading = try inputs.image("inputShadingImage")
        let scale = try inputs.float("inputScale")
        guard !image.extent.isEmpty else { return image }
        if shading.extent.isInfinite { shading = shading.cropped(to: Rect(x: 0, y: 0, width: 256, height: 256)) }
        guard !shading.extent.isEmpty else { return Image.empty }
        let area = PixelRect(covering: shading.extent)
        let cx = Float(shading.extent.midX), cy = Float(shading.extent.midY)
        let rx = Float(shading.extent.width / 2), ry = Float(shading.extent.height / 2)
        let w = ColorMath.lumaWeights
        let kernel = GeneralKernel(name: "shadedMaterial", roi: { index, rect in
            index == 0 ? rect.insetBy(dx: -1, dy: -1) : area
        }) { context in
            let material = context.inputs[1]
            Neighbourhood.forEach(context, reach: 1) { p, s in
                @inline(__always) func height(_ q: Pixel) -> Float { q.x * w.x + q.y * w.y + q.z * w.z }
                let dx = (height(p[1]) - height(p[-1])) * 0.5 * scale
                let dy = (height(p[s]) - height(p[-s])) * 0.5 * scale
                // The normal (-dx, -dy, 1) normalised; its x and y place the look-up on the ball.
                let n = 1 / (dx * dx + dy * dy + 1).squareRoot()
                let colour = material.sampleLinear(cx - dx * n * rx * 0.999, cy - dy * n * ry * 0.999)
                return colour * p[0].w
            }
        }
        return kernel.apply(extent: image.extent, inputs: [image.clampedToExtent(), shading])
    }
}
