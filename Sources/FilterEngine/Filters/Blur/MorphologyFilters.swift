import Foundation

/// Morphology: maximum and minimum over a disc or a rectangle, and their difference (the gradient).
/// Channels are treated independently on premultiplied values. Outside the input counts as transparent, so a
/// maximum grows the extent by its reach (shared/conformance/CIMorphologyMaximum: radius 2, 660×483 → 664×487)
/// while a minimum keeps the input's extent.
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
        return BlurStages.negated(BlurStages.discMax(BlurStages.negated(image), radius: radius)).withExtent(image.extent)
    }

    static func maximum(_ inputs: FilterInputs) throws -> Image {
        discMax(try inputs.image("inputImage"), radius: try discRadius(inputs))
    }

    static func minimum(_ inputs: FilterInputs) throws -> Image {
        discMin(try inputs.image("inputImage"), radius: try discRadius(inputs))
    }

    /// Maximum minus minimum of the colour over the disc: the edges, bright where the neighbourhood varies.
    /// Apple's documentation of morphologyGradient() says the filter "adds darkness to the overall image while
    /// the edges become brighter": a visible, dark picture, not a transparent one. So only the colour is
    /// differenced; the alpha is the dilation's (opaque for an opaque input, and it covers the grown border).
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
                o.r[i] -= q.r[i]; o.g[i] -= q.g[i]; o.b[i] -= q.b[i]
            }
        }.apply(extent: high.extent, inputs: [high, low])
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
        return BlurStages.negated(BlurStages.rectangleMax(BlurStages.negated(image), width: w, height: h))
            .withExtent(image.extent)
    }
}
