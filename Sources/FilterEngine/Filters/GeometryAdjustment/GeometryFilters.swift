import Foundation

enum GeometryFilters {
    static let all: [String: FilterImplementation] = [
        "CIAffineTransform": affineTransform,
        "CIAffineClamp": affineClamp,
        "CICrop": crop,
        "CILanczosScaleTransform": lanczosScale,
        "CIBicubicScaleTransform": bicubicScale,
        "CIMaximumScaleTransform": maximumScale,
        "CIStraightenFilter": straighten,
        "CIClamp": clamp,
        "CISampleNearest": sampleNearest,
        "CIPerspectiveTransform": perspectiveTransform,
        "CIPerspectiveTransformWithExtent": perspectiveTransformWithExtent,
        "CIPerspectiveCorrection": perspectiveCorrection,
    ]

    /// An affine transform; after CISampleNearest the input is resampled with nearest-neighbour sampling
    /// (pixel art stays sharp), as Core Image's `samplingNearest()` does.
    static func affineTransform(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let transform = try inputs.transform("inputTransform")
        if let source = nearestSource(image) { return transformedNearest(source, by: transform) }
        return image.transformed(by: transform)
    }

    /// Transforms, then repeats the edge pixels of the result outwards forever.
    static func affineClamp(_ inputs: FilterInputs) throws -> Image {
        try inputs.image("inputImage").transformed(by: try inputs.transform("inputTransform")).clampedToExtent()
    }

    static func crop(_ inputs: FilterInputs) throws -> Image {
        try inputs.image("inputImage").cropped(to: try inputs.rect("inputRectangle"))
    }
}
