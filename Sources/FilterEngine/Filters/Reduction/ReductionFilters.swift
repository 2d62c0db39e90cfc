import Foundation

enum ReductionFilters {
    static let all: [String: FilterImplementation] = more.merging(["CIAreaAverage": areaAverage]) { a, _ in a }

    /// One pixel: the mean of the input over the rectangle (premultiplied, so transparent pixels weigh nothing
    /// in the colour), placed at the rectangle's origin.
    static func areaAverage(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let area = PixelRect(covering: try inputs.rect("inputExtent").intersection(image.extent))
        let origin = PixelRect(covering: try inputs.rect("inputExtent"))
        let output = Rect(x: Double(origin.x), y: Double(origin.y), width: 1, height: 1)
        guard !area.isEmpty else { return Image(color: .clear).cropped(to: output) }
        let kernel = GeneralKernel(name: "areaAverage", parallel: false, roi: { _, _ in area }) { context in
            let source = context.inputs[0]
            var total = SIMD4<Double>(0, 0, 0, 0)
            for y in area.y..<area.maxY {
                var rowSum = Pixel(0, 0, 0, 0)
                let row = source.row(y) + (area.x - source.rect.x)
                for x in 0..<area.width { rowSum += row[x] }
                total += SIMD4<Double>(rowSum)
            }
            let mean = total / Double(area.area)
            context.output.row(context.rect.y)[context.rect.x - context.output.rect.x] = Pixel(mean)
        }
        return kernel.apply(extent: output, inputs: [image])
    }
}
