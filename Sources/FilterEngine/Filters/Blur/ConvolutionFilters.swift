import Foundation

/// CIConvolution3X3 … 9Vertical and their RGB variants: a weighted sum of the neighbourhood plus inputBias.
/// The weights read as the matrix is written: row by row from the top (y up: the first row is y + 1 for
/// 3×3), left to right. Outside the input is transparent, so the extent grows by the matrix's reach. The RGB
/// variants keep each pixel's alpha and add the bias to colour only. As Core Image documents, results are
/// clamped to 0...1 (colour to 0...alpha in the RGB variants, to stay valid premultiplied pixels).
///
/// Colour space, by version: today the weighted sum runs on the linear working values, like every other kernel
/// here (no modern render exists to say otherwise). Apple's iOS 7 renders convolved the sRGB-encoded
/// (premultiplied) values instead: `xamarin-docs-conv3x3-sharpen-heron` fits that at 47.2 dB (26.2 in linear
/// light) and `xamarin-docs-conv9h-heron` at 53.3 dB (27.8), borders included. Core Image moved its Gaussian
/// blur from encoded to linear values in iOS 8.3 (see `BlurFilters.gaussianBlur`), the only dated change of
/// this kind known, so the encoded sum is kept below 8.3 for the whole family (the RGB variants did not exist
/// then, but follow the same rule).
enum ConvolutionFilters {
    static let all: [String: FilterImplementation] = [
        "CIConvolution3X3": make(columns: 3, rows: 3, rgb: false),
        "CIConvolution5X5": make(columns: 5, rows: 5, rgb: false),
        "CIConvolution7X7": make(columns: 7, rows: 7, rgb: false),
        "CIConvolution9Horizontal": make(columns: 9, rows: 1, rgb: false),
        "CIConvolution9Vertical": make(columns: 1, rows: 9, rgb: false),
        "CIConvolutionRGB3X3": make(columns: 3, rows: 3, rgb: true),
        "CIConvolutionRGB5X5": make(columns: 5, rows: 5, rgb: true),
        "CIConvolutionRGB7X7": make(columns: 7, rows: 7, rgb: true),
        "CIConvolutionRGB9Horizontal": make(columns: 9, rows: 1, rgb: true),
        "CIConvolutionRGB9Vertical": make(columns: 1, rows: 9, rgb: true),
    ]

    static func make(columns: Int, rows: Int, rgb: Bool) -> FilterImplementation {
        { inputs in
            let image = try inputs.image("inputImage")
            let given = try inputs.vector("inputWeights")
            let bias = try inputs.float("inputBias")
            guard !image.extent.isEmpty else { return image }
            // A short vector is padded with zeros, a long one cut (Core Image reads the first n values).
            let count = columns * rows
            let weights = (0..<count).map { $0 < given.count && given[$0].isFinite ? Float(given[$0]) : 0 }
            guard inputs.coreImageVersion < CoreImageVersion(8, 3) else {
                return BlurStages.convolve(image, weights: weights, columns: columns, rows: rows, bias: bias, keepAlpha: rgb)
            }
            let convolved = BlurStages.convolve(sRGB(image, encode: true), weights: weights, columns: columns, rows: rows,
                                                bias: bias, keepAlpha: rgb)
            return sRGB(convolved, encode: false)
        }
    }

    /// The straight colour sRGB-encoded (or, with `encode` false, decoded back to linear), premultiplied again:
    /// the iOS 7 space of these sums and the way back from it.
    static func sRGB(_ image: Image, encode: Bool) -> Image {
        ColorKernel(name: encode ? "linearToSRGB" : "sRGBToLinear") { span in
            SpanColor.unpremultiply(span.out, span.count)
            if encode { SpanColor.encodeSRGB(span.out, span.count) } else { SpanColor.decodeSRGB(span.out, span.count) }
            SpanColor.premultiply(span.out, span.count)
        }.apply(extent: image.extent, inputs: [image])
    }
}
