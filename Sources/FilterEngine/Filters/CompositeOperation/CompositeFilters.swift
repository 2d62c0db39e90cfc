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
                let sa = s.a[i], da = d.a[i]
                s.r[i] = s.r[i] * d.r[i] + s.r[i] * (1 - da) + d.r[i] * (1 - sa)
                s.g[i] = s.g[i] * d.g[i] + s.g[i] * (1 - da) + d.g[i] * (1 - sa)
                s.b[i] = s.b[i] * d.b[i] + s.b[i] * (1 - da) + d.b[i] * (1 - sa)
                s.a[i] = sa + da - sa * da
            }
        }.apply(extent: image.extent.union(background.extent), inputs: [image, background])
    }
}
