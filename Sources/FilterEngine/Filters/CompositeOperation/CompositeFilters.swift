import Foundation

/// Porter-Duff operators and the simple per-component composites. All work on premultiplied linear
/// working-space pixels, where these operators are linear; each is one colour kernel so it fuses with its
/// neighbours. Outside an input's extent that input reads as transparent, which fixes each output extent:
/// only the region where the result can be non-transparent.
enum CompositeFilters {
    static let all: [String: FilterImplementation] = {
        var table: [String: FilterImplementation] = [
            "CISourceOverCompositing": sourceOver,
            "CIMultiplyCompositing": multiply,
            "CISourceAtopCompositing": sourceAtop,
            "CISourceInCompositing": sourceIn,
            "CISourceOutCompositing": sourceOut,
            "CIAdditionCompositing": addition,
            "CIMaximumCompositing": maximum,
            "CIMinimumCompositing": minimum,
        ]
        table.merge(BlendModeFilters.all) { _, _ in fatalError("blend mode registered twice") }
        table.merge(MaskBlendFilters.all) { _, _ in fatalError("mask blend registered twice") }
        return table
    }()

    static func operands(_ inputs: FilterInputs) throws -> (image: Image, background: Image) {
        (try inputs.image("inputImage"), try inputs.image("inputBackgroundImage"))
    }

    static func sourceOver(_ inputs: FilterInputs) throws -> Image {
        try inputs.image("inputImage").composited(over: try inputs.image("inputBackgroundImage"))
    }

    /// The component-wise product of the premultiplied pixels, alpha included, as Apple's reference defines it (and
    /// unlike CIMultiplyBlendMode, which keeps each image alone where the other is transparent). So a transparent
    /// pixel of either image gives a transparent pixel, and the output covers only the intersection: the common
    /// QR-code tint (an infinite constant colour times white modules on transparent) keeps its clear background.
    static func multiply(_ inputs: FilterInputs) throws -> Image {
        let (image, background) = try operands(inputs)
        return ColorKernel(name: "multiply", dependence: .gain, parameters: []) { span in
            let s = span.out, d = span.input(1)
            for i in 0..<span.count {
                s.r[i] *= d.r[i]; s.g[i] *= d.g[i]; s.b[i] *= d.b[i]; s.a[i] *= d.a[i]
            }
        }.apply(extent: image.extent.intersection(background.extent), inputs: [image, background])
    }

    /// Source atop: the foreground where the background is, over it; the result has the background's alpha,
    /// so it is transparent outside the background's extent.
    static func sourceAtop(_ inputs: FilterInputs) throws -> Image {
        let (image, background) = try operands(inputs)
        return ColorKernel(name: "sourceAtop") { span in
            let s = span.out, d = span.input(1)
            for i in 0..<span.count {
                let keep = 1 - s.a[i], da = d.a[i]
                s.r[i] = s.r[i] * da + d.r[i] * keep
                s.g[i] = s.g[i] * da + d.g[i] * keep
                s.b[i] = s.b[i] * da + d.b[i] * keep
                s.a[i] = da
            }
        }.apply(extent: background.extent, inputs: [image, background])
    }

    /// Source in: the foreground scaled by the background's alpha; non-transparent only where both are.
    static func sourceIn(_ inputs: FilterInputs) throws -> Image {
        let (image, background) = try operands(inputs)
        return ColorKernel(name: "sourceIn") { span in
            let s = span.out, d = span.input(1)
            for i in 0..<span.count {
                let da = d.a[i]
                s.r[i] *= da; s.g[i] *= da; s.b[i] *= da; s.a[i] *= da
            }
        }.apply(extent: image.extent.intersection(background.extent), inputs: [image, background])
    }

    /// Source out: the foreground scaled by the background's transparency; never larger than the foreground.
    static func sourceOut(_ inputs: FilterInputs) throws -> Image {
        let (image, background) = try operands(inputs)
        return ColorKernel(name: "sourceOut") { span in
            let s = span.out, d = span.input(1)
            for i in 0..<span.count {
                let keep = 1 - d.a[i]
                s.r[i] *= keep; s.g[i] *= keep; s.b[i] *= keep; s.a[i] *= keep
            }
        }.apply(extent: image.extent, inputs: [image, background])
    }

    /// Addition (Porter-Duff "plus"): colours add and may exceed 1 (extended range survives until the final
    /// encode); alpha adds too but is capped at 1 so the pixel stays a valid premultiplied one.
    static func addition(_ inputs: FilterInputs) throws -> Image {
        let (image, background) = try operands(inputs)
        return ColorKernel(name: "addition") { span in
            let s = span.out, d = span.input(1)
            for i in 0..<span.count {
                s.r[i] += d.r[i]; s.g[i] += d.g[i]; s.b[i] += d.b[i]
                s.a[i] = min(s.a[i] + d.a[i], 1)
            }
        }.apply(extent: image.extent.union(background.extent), inputs: [image, background])
    }

    /// The larger of each premultiplied component, alpha included.
    static func maximum(_ inputs: FilterInputs) throws -> Image {
        let (image, background) = try operands(inputs)
        return ColorKernel(name: "maximum") { span in
            let s = span.out, d = span.input(1)
            for i in 0..<span.count {
                s.r[i] = max(s.r[i], d.r[i]); s.g[i] = max(s.g[i], d.g[i])
                s.b[i] = max(s.b[i], d.b[i]); s.a[i] = max(s.a[i], d.a[i])
            }
        }.apply(extent: image.extent.union(background.extent), inputs: [image, background])
    }

    /// The smaller of each premultiplied component, alpha included. Where either input is transparent the
    /// result is too (for the non-negative values images hold), so the output extent is the overlap of the two
    /// extents, as Apple's iOS 7 render shows (`monotouch-ios7-minimumcompositing-heron-over-clouds`: a 500×267
    /// heron over 640×478 clouds gives 500×267, content 62 dB). No modern render exists; the rule stands.
    static func minimum(_ inputs: FilterInputs) throws -> Image {
        let (image, background) = try operands(inputs)
        return ColorKernel(name: "minimum") { span in
            let s = span.out, d = span.input(1)
            for i in 0..<span.count {
                s.r[i] = min(s.r[i], d.r[i]); s.g[i] = min(s.g[i], d.g[i])
                s.b[i] = min(s.b[i], d.b[i]); s.a[i] = min(s.a[i], d.a[i])
            }
        }.apply(extent: image.extent.intersection(background.extent), inputs: [image, background])
    }
}
