import Foundation

// Distortions driven by a second image: a displacement map, and a glass texture.

extension DistortionFilters {
    /// Each pixel reads the input moved by the displacement image's colour at that pixel: red moves it along x,
    /// green along y, by scale · (value − 0.5), values taken as straight (unpremultiplied) working-space colour
    /// clamped to 0...1, so mid-grey does not move and the reach is at most half the scale. Where the
    /// displacement image has no pixels it counts as black. Apple documents the map's use but not its exact
    /// offset formula; this is the natural reading. The output keeps the input's extent.
    static func displacement(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let scale = try inputs.number("inputScale")
        // At scale 0 nothing moves, and the displacement image is not needed.
        guard scale != 0 else { return image }
        let map = try inputs.image("inputDisplacementImage")
        let s = Float(scale)
        // |scale|: a negative scale displaces as far the other way.
        let reach = Int(saturating: (abs(scale) / 2).rounded(.up)) + 1
        let kernel = GeneralKernel(name: "displacement", roi: { index, rect in
            index == 0 ? rect.insetBy(dx: -reach, dy: -reach) : rect
        }) { context in
            let source = context.inputs[0], displacement = context.inputs[1]
            let rect = context.rect
            for y in rect.y..<rect.maxY {
                let out = context.output.row(y) + (rect.x - context.output.rect.x)
                let py = Float(y) + 0.5
                for i in 0..<rect.width {
                    let d = ColorMath.unpremultiplied(displacement.pixel(x: rect.x + i, y: y))
                    let r = ColorMath.clamp01(d.x), g = ColorMath.clamp01(d.y)
                    out[i] = source.sampleLinear(Float(rect.x + i) + 0.5 + s * (r - 0.5), py + s * (g - 0.5))
                }
            }
        }
        return kernel.apply(extent: image.extent, inputs: [image, map])
    }

    /// Looks at the image through textured glass: the texture, repeated in both directions with the middle of
    /// one copy at the centre, is a height field (its luminance); each pixel reads the input moved along the
    /// height's slope (a Sobel estimate, clamped to ±0.5 per pixel) times the scale, towards the raised parts,
    /// which therefore magnify like little lenses. Apple does not publish its model; this one is the usual
    /// bump-map refraction. The output keeps the input's extent.
    static func glass(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let scale = try inputs.number("inputScale")
        // At scale 0 nothing moves, and the texture is not needed.
        guard scale != 0 else { return image }
        let texture = try inputs.image("inputTexture")
        guard !texture.extent.isEmpty else { return image }
        let s = Float(scale)
        // |scale|: a negative scale displaces as far the other way.
        let reach = Int(saturating: (abs(scale) / 2).rounded(.up)) + 1
        let te = texture.extent
        let periodic = !te.isInfinite
        let tile = PixelRect(covering: periodic ? te : Rect(x: 0, y: 0, width: 1, height: 1))
        // Output pixel (x, y) lies over texture pixel (x − shiftX, y − shiftY) before wrapping.
        let shiftX = periodic ? Int(saturating: (center.x - te.midX).rounded()) : 0
        let shiftY = periodic ? Int(saturating: (center.y - te.midY).rounded()) : 0
        let w = ColorMath.lumaWeights
        let kernel = GeneralKernel(name: "glassDistortion", roi: { index, rect in
            if index == 0 { return rect.insetBy(dx: -reach, dy: -reach) }
            return periodic ? tile : rect.insetBy(dx: -1, dy: -1)
        }) { context in
            let source = context.inputs[0], heights = context.inputs[1]
            let rect = context.rect
            // Three rows of heights (y − 1, y, y + 1), each one pixel wider than the output on both sides.
            let width = rect.width + 2
            let rows = UnsafeMutablePointer<Float>.allocate(capacity: 3 * width)
            defer { rows.deallocate() }
            func fill(_ row: UnsafeMutablePointer<Float>, _ y: Int) {
                var ty = y - shiftY
                if periodic { ty = tile.y + ((ty - tile.y) % tile.height + tile.height) % tile.height }
                for i in 0..<width {
                    var tx = rect.x - 1 + i - shiftX
                    if periodic { tx = tile.x + ((tx - tile.x) % tile.width + tile.width) % tile.width }
                    let p = ColorMath.unpremultiplied(heights.pixel(x: tx, y: ty))
                    row[i] = p.x * w.x + p.y * w.y + p.z * w.z
                }
            }
            var below = rows, middle = rows + width, above = rows + 2 * width
            fill(below, rect.y - 1)
            fill(middle, rect.y)
            for y in rect.y..<rect.maxY {
                fill(above, y + 1)
                let out = context.output.row(y) + (rect.x - context.output.rect.x)
                let py = Float(y) + 0.5
                for i in 0..<rect.width {
                    // Sobel slopes (per pixel): smoother than a plain difference on textures with fine grain.
                    let sx = (above[i + 2] - above[i]) + 2 * (middle[i + 2] - middle[i]) + (below[i + 2] - below[i])
                    let sy = (above[i] - below[i]) + 2 * (above[i + 1] - below[i + 1]) + (above[i + 2] - below[i + 2])
                    let gx = min(max(sx * 0.125, -0.5), 0.5), gy = min(max(sy * 0.125, -0.5), 0.5)
                    out[i] = source.sampleLinear(Float(rect.x + i) + 0.5 + s * gx, py + s * gy)
                }
                (below, middle, above) = (middle, above, below)
            }
        }
        return kernel.apply(extent: image.extent, inputs: [image, texture])
    }
}
