import Foundation

/// Filters that read a whole small image as a table: CIColorMap (a gradient), CIPalettize and CIPaletteCentroid
/// (an N×1 palette). They are general kernels with two inputs: the picture over the region being rendered and
/// the table image over its whole extent. (They cannot fuse with neighbouring colour kernels: the engine has no
/// colour kernel with a materialised side input yet.)
enum PaletteFilters {
    /// Palettes longer than this are cut (a whole photo row passed as a palette would otherwise cost its width
    /// per pixel).
    static let maximumPaletteCount = 1024

    /// The gradient window used when the gradient image is infinite (a generator not cropped): x 0..<256 on row 0.
    static let infiniteGradientWindow = Rect(x: 0, y: 0, width: 256, height: 1)

    /// Each pixel's luminance (Rec. 709 on linear straight colour, clamped to 0...1) picks a colour along the
    /// gradient image's middle row: 0 the centre of its leftmost pixel, 1 of its rightmost, linear in between.
    /// The gradient colour keeps the input's coverage (its alpha multiplies the gradient's).
    static func colorMap(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let gradient = try inputs.image("inputGradientImage")
        let window = PixelRect(covering: gradient.extent.isInfinite ? infiniteGradientWindow : gradient.extent)
        guard !window.isEmpty else { return Image(color: .clear).cropped(to: image.extent) }
        let w = ColorMath.lumaWeights
        let steps = EncodedCurves.steps
        let kernel = GeneralKernel(name: "colorMap", roi: { index, rect in index == 0 ? rect : window }) { context in
            let source = context.inputs[0], ramp = context.inputs[1]
            // The gradient sampled once per call into a table (1025 colours), then interpolated per pixel.
            let table = UnsafeMutablePointer<Pixel>.allocate(capacity: steps + 1)
            defer { table.deallocate() }
            let sy = Float(window.y + window.height / 2) + 0.5
            let x0 = Float(window.x) + 0.5, span = Float(window.width - 1)
            for k in 0...steps { table[k] = ramp.sampleLinear(x0 + Float(k) / Float(steps) * span, sy) }
            let rect = context.rect
            for y in rect.y..<rect.maxY {
                let out = context.output.row(y) + (rect.x - context.output.rect.x)
                for i in 0..<rect.width {
                    let p = source.pixel(x: rect.x + i, y: y)
                    let inv: Float = p.w > 0 ? 1 / p.w : 0
                    let luma = EncodedCurves.clamp01((p.x * w.x + p.y * w.y + p.z * w.z) * inv)
                    let t = luma * Float(steps)
                    let k = min(Int(t), steps - 1)
                    let low = table[k]
                    out[i] = (low + (table[k + 1] - low) * (t - Float(k))) * p.w
                }
            }
        }
        return kernel.apply(extent: image.extent, inputs: [image, gradient])
    }

    /// The palette colours: the bottom row of the palette image, left to right, straight linear RGB.
    private static func paletteWindow(_ palette: Image, filter: String) throws -> PixelRect {
        guard !palette.extent.isInfinite else {
            throw FilterError("\(filter).inputPaletteImage must be a finite N×1 image of colours, not an infinite one")
        }
        let e = PixelRect(covering: palette.extent)
        guard !e.isEmpty else { throw FilterError("\(filter).inputPaletteImage is empty") }
        return PixelRect(x: e.x, y: e.y, width: min(e.width, maximumPaletteCount), height: 1)
    }

    /// Palette entries as straight colour and as the coordinates distances are measured in.
    private static func readPalette(_ buffer: PixelBuffer, _ window: PixelRect, perceptual: Bool)
        -> (colors: [SIMD3<Float>], coordinates: [SIMD3<Float>]) {
        var colors: [SIMD3<Float>] = [], coordinates: [SIMD3<Float>] = []
        for x in window.x..<window.maxX {
            let p = buffer.pixel(x: x, y: window.y)
            let inv: Float = p.w > 0 ? 1 / p.w : 0
            let c = SIMD3(p.x * inv, p.y * inv, p.z * inv)
            colors.append(c)
            coordinates.append(perceptual ? Oklab.from(linear: c) : c)
        }
        return (colors, coordinates)
    }

    @inline(__always) private static func nearest(_ c: SIMD3<Float>, _ coordinates: UnsafeBufferPointer<SIMD3<Float>>) -> Int {
        var best = 0
        var bestDistance = Float.infinity
        for k in 0..<coordinates.count {
            let d = c - coordinates[k]
            let distance = d.x * d.x + d.y * d.y + d.z * d.z
            if distance < bestDistance { bestDistance = distance; best = k }
        }
        return best
    }

    /// Each pixel becomes the nearest palette colour (the first one on a tie), measured in linear RGB, or with
    /// `inputPerceptual` in Oklab (a perceptually uniform space). The pixel keeps its alpha.
    static func palettize(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let palette = try inputs.image("inputPaletteImage")
        let perceptual = try inputs.bool("inputPerceptual")
        let window = try paletteWindow(palette, filter: "CIPalettize")
        let kernel = GeneralKernel(name: "palettize", roi: { index, rect in index == 0 ? rect : window }) { context in
            let source = context.inputs[0]
            let (colors, coordinates) = readPalette(context.inputs[1], window, perceptual: perceptual)
            let rect = context.rect
            coordinates.withUnsafeBufferPointer { coordinates in
                for y in rect.y..<rect.maxY {
                    let out = context.output.row(y) + (rect.x - context.output.rect.x)
                    for i in 0..<rect.width {
                        let p = source.pixel(x: rect.x + i, y: y)
                        let inv: Float = p.w > 0 ? 1 / p.w : 0
                        var c = SIMD3(p.x * inv, p.y * inv, p.z * inv)
                        if perceptual { c = Oklab.from(linear: c) }
                        let chosen = colors[nearest(c, coordinates)] * p.w
                        out[i] = Pixel(chosen.x, chosen.y, chosen.z, p.w)
                    }
                }
            }
        }
        return kernel.apply(extent: image.extent, inputs: [image, palette])
    }

    /// Where each palette colour sits in the image. Every input pixel is assigned to its nearest palette
    /// colour (as CIPalettize does); output pixel k (an N×1 image at the palette's origin) holds that colour's
    /// centroid: red and green its mean x and y as fractions of the input extent (0 left/bottom, 1 right/top),
    /// blue the share of the image's coverage it took, alpha 1. A colour no pixel chose is transparent.
    /// Pixels weigh by their alpha. (Apple documents the purpose, not the encoding; this one is ours.)
    static func paletteCentroid(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let palette = try inputs.image("inputPaletteImage")
        let perceptual = try inputs.bool("inputPerceptual")
        let window = try paletteWindow(palette, filter: "CIPaletteCentroid")
        guard !image.extent.isInfinite else {
            throw FilterError("CIPaletteCentroid needs a finite input image (crop an infinite one first)")
        }
        let area = PixelRect(covering: image.extent)
        let output = window.rect
        guard !area.isEmpty else { return Image(color: .clear).cropped(to: output) }
        let kernel = GeneralKernel(name: "paletteCentroid", parallel: false,
                                   roi: { index, _ in index == 0 ? area : window }) { context in
            let source = context.inputs[0]
            let (_, coordinates) = readPalette(context.inputs[1], window, perceptual: perceptual)
            let n = coordinates.count
            var sums = [SIMD3<Double>](repeating: .zero, count: n)  // Σ a·x, Σ a·y, Σ a
            coordinates.withUnsafeBufferPointer { coordinates in
                for y in area.y..<area.maxY {
                    var rowSums = [SIMD3<Float>](repeating: .zero, count: n)
                    for x in area.x..<area.maxX {
                        let p = source.pixel(x: x, y: y)
                        guard p.w > 0 else { continue }
                        var c = SIMD3(p.x / p.w, p.y / p.w, p.z / p.w)
                        if perceptual { c = Oklab.from(linear: c) }
                        let k = nearest(c, coordinates)
                        rowSums[k] += SIMD3(p.w * (Float(x - area.x) + 0.5), p.w * (Float(y - area.y) + 0.5), p.w)
                    }
                    for k in 0..<n { sums[k] += SIMD3<Double>(rowSums[k]) }
                }
            }
            let total = Double(area.area)
            let rect = context.rect
            let out = context.output.row(rect.y) + (rect.x - context.output.rect.x)
            for i in 0..<rect.width {
                let k = rect.x + i - window.x
                let s = sums[k]
                out[i] = s.z > 0
                    ? Pixel(Float(s.x / s.z / Double(area.width)), Float(s.y / s.z / Double(area.height)),
                            Float(s.z / total), 1)
                    : Pixel(0, 0, 0, 0)
            }
        }
        return kernel.apply(extent: output, inputs: [image, palette])
    }
}

/// Björn Ottosson's Oklab, from linear sRGB: a perceptually uniform space for colour distances.
enum Oklab {
    @inline(__always) static func from(linear c: SIMD3<Float>) -> SIMD3<Float> {
        let l = cbrtf(0.4122214708 * c.x + 0.5363325363 * c.y + 0.0514459929 * c.z)
        let m = cbrtf(0.2119034982 * c.x + 0.6806995451 * c.y + 0.1073969566 * c.z)
        let s = cbrtf(0.0883024619 * c.x + 0.2817188376 * c.y + 0.6299787005 * c.z)
        return SIMD3(0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
                     1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
                     0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
    }
}

