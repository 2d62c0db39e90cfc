import Foundation

/// CIConvolution3X3 … 9Vertical and their RGB variants: a weighted sum of the neighbourhood plus inputBias.
/// The weights read as the matrix is written: row by row from the top (y up: the first row is y + 1 for
/// 3×3), left to right. Outside the input is transparent, so the extent grows by the matrix's reach. The RGB
/// variants keep each pixel's alpha and add the bias to colour only. As Core Image documents, results are
/// clamped to 0...1 (colour to 0...alpha in the RGB variants, to stay valid premultiplied pixels).
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
            return BlurStages.convolve(image, weights: weights, columns: columns, rows: rows, bias: bias, keepAlpha: rgb)
        }
    }
}
