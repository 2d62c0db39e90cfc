import Foundation

enum CompositeFilters {
    static let all: [String: FilterImplementation] = [
        "CISourceOverCompositing": sourceOver,
        "CIMultiplyCompositing": multiply,
    ]

    static func sourceOver(_ inputs: FilterInputs) throws -> Image {
        try inputs.image("inputImage").composited(over: try inputs.image("inputBackgroundImage"))
    }

    /// Multiplies the colours where both images are, and keeps each alone where the other is transparent.
    static func multiply(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let background = try inputs.image("inputBackgroundImage")
        return ColorKernel(name: "multiply") { span in
            let s = span.out, d = span.input(1)
            for i in 0..<span.count {
                let a = s[i], b = d[i]
                s[i] = a * b + a * (1 - b.w) + b * (1 - a.w)
                s[i].w = a.w + b.w - a.w * b.w
            }
        }.apply(extent: image.extent.union(background.extent), inputs: [image, background])
    }
}
