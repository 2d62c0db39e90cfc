import Foundation

enum GeometryFilters {
    static let all: [String: FilterImplementation] = [
        "CIAffineTransform": affineTransform,
        "CIAffineClamp": affineClamp,
        "CICrop": crop,
    ]

    static func affineTransform(_ inputs: FilterInputs) throws -> Image {
        try inputs.image("inputImage").transformed(by: try inputs.transform("inputTransform"))
    }

    /// Transforms, then repeats the edge pixels of the result outwards forever.
    static func affineClamp(_ inputs: FilterInputs) throws -> Image {
        try inputs.image("inputImage").transformed(by: try inputs.transform("inputTransform")).clampedToExtent()
    }

    static func crop(_ inputs: FilterInputs) throws -> Image {
        try inputs.image("inputImage").cropped(to: try inputs.rect("inputRectangle"))
    }
}
