import Foundation

/// Morphology: maximum and minimum over a disc or a rectangle, and their difference (the gradient).
/// Channels are treated independently on premultiplied values. Outside the input counts as transparent, and both
/// the maximum and the minimum grow the extent by their reach (Apple's iOS 12.1 renders at radius 2,
/// shared/conformance/CIMorphologyMaximum and CIMorphologyMinimum: 660×483 → 664×487; the minimum's grown border,
/// and the input's outer 2 px, are transparent since the transparent outside is the minimum there: 83.7 dB).
/// The rectangle minimum follows the same convention (no render of its own). The gradient keeps the input's extent.
enum MorphologyFilters {
    static let all: [String: FilterImplementation] = [
        "CIMorphologyMaximum": maximum,
        "CIMorphologyMinimum": minimum,
        "CIMorphologyGradient": gradient,
        "CIMorphologyRectangleMaximum": rectangleMaximum,
        "CIMorphologyRectangleMinimum": rectangleMinimum,
    ]

    /// The disc radius the engine works with: the catalogue sets no maximum, and a disc costs 2R+1 span
    /// look-ups a pixel, so radii beyond 200 pixels are treated as 200.
    static func discRadius(_ inputs: FilterInputs) throws -> Double {
        min(max(try inputs.number("inputRadius"), 0), 200)
    }

    static func discMax(_ image: Image, radius: Double) -> Image {
        guard radius >= 1, !image.extent.isEmpty else { return image }
        return BlurStages.discMax(image, radius: radius)
    }

    static func discMin(_ image: Image, radius: Double) -> Image {
        guard radius >= 1, !image.extent.isEmpty else { return image }
        return BlurStages.negated(BlurStages.discMax(BlurStages.negated(image), radius: radius))
    }

    static func maximum(_ inputs: FilterInputs) throws -> Image {
        discMax(try inputs.image("inputImage"), radius: try discRadius(inputs))
    }

    static func minimum(_ inputs: FilterInputs) throws -> Image {
        discMin(try inputs.image("inputImage"), radius: try discRadius(inputs))
    }

    /// Half the maximum minus the minimum of the colour over the disc, in the input's extent: edges bright, flat
    /// areas dark. Fitted on Apple's iOS 12.1 render (shared/conformance/CIMorphologyGradient, radius 2, opaque
    /// photo): (max − min)/2 per colour channel on linear premultiplied values, outside the input transparent
    /// (so the minimum is 0 within the radius of the border), cropped to the input's extent: 60.6 dB; the full
    /// difference (no halving) gives 24.9 dB. The alpha is the dilation's (1 for an opaque input, as Apple's;
    /// for a translucent one Apple's alpha is not known).
    static func gradient(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let radius = try discRadius(inputs)
        // The catalogue gives radius 0 as this filter's identity (Core Image passes the image through there).
        if radius <= 0 || image.extent.isEmpty { return image }
        guard radius >= 1 else {
            // Below one pixel the disc is the pixel itself: maximum and minimum agree, their difference is black
            // (the alpha stays, as above).
            return ColorKernel(name: "blackKeepingAlpha") { span in
                let o = span.out
                for i in 0..<span.count { o.r[i] = 0; o.g[i] = 0; o.b[i] = 0 }
            }
                .apply(extent: image.extent, inputs: [image])
        }
        let high = discMax(image, radius: radius), low = discMin(image, radius: radius)
        return ColorKernel(name: "morphologyGradient") { span in
            let o = span.out, q = span.input(1)
            for i in 0..<span.count {
                o.r[i] = (o.r[i] - q.r[i]) * 0.5; o.g[i] = (o.g[i] - q.g[i]) * 0.5; o.b[i] = (o.b[i] - q.b[i]) * 0.5
            }
        }.apply(extent: image.extent, inputs: [high, low])
    }

    /// Rectangle sizes: whole pixels, at least 1; the catalogue sets no maximum, and van Herk/Gil-Werman costs
    /// the same whatever the size, so only memory bounds it (4096).
    static func rectangleSize(_ inputs: FilterInputs) throws -> (Int, Int) {
        let w = min(max(try inputs.integer("inputWidth"), 1), 4096)
        let h = min(max(try inputs.integer("inputHeight"), 1), 4096)
        return (w, h)
    }

    static func rectangleMaximum(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let (w, h) = try rectangleSize(inputs)
        guard !image.extent.isEmpty else { return image }
        return BlurStages.rectangleMax(image, width: w, height: h)
    }

    static func rectangleMinimum(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let (w, h) = try rectangleSize(inputs)
        guard !image.extent.isEmpty, w > 1 || h > 1 else { return image }
        // Grows like the rectangle maximum (the convention of the disc minimum's render, see above).
        return BlurStages.negated(BlurStages.rectangleMax(BlurStages.negated(image), width: w, height: h))
    }
}
