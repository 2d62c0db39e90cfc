import Foundation

/// Text generators: the text drawn with FreeType in a URW Nimbus face (DejaVu when URW is not installed), on a transparent background, in an image at the
/// origin sized to the text's box plus `inputPadding` pixels on every side.
enum TextGenerators {
    static let all: [String: FilterImplementation] = [
        "CITextImageGenerator": text,
        "CIAttributedTextImageGenerator": attributedText,
    ]

    /// Core Image draws the string with NSAttributedString's default foreground, black; coverage is its alpha.
    static let ink = Pixel(0, 0, 0, 1)

    /// The font size is in points, one pixel per point at scale factor 1; the padding is in pixels.
    static func text(_ inputs: FilterInputs) throws -> Image {
        try image(text: try inputs.has("inputText") ? try inputs.string("inputText") : "",
                  fontName: try inputs.string("inputFontName"),
                  pointSize: try inputs.number("inputFontSize"),
                  inputs: inputs)
    }

    /// Attributed strings arrive here as plain strings, so they take NSAttributedString's default font,
    /// Helvetica 12 points (Nimbus Sans, or DejaVu Sans), and its default black.
    static func attributedText(_ inputs: FilterInputs) throws -> Image {
        try image(text: try inputs.has("inputText") ? try inputs.string("inputText") : "",
                  fontName: "Helvetica", pointSize: 12, inputs: inputs)
    }

    private static func image(text: String, fontName: String, pointSize: Double, inputs: FilterInputs) throws -> Image {
        let scale = try inputs.number("inputScaleFactor")
        let padding = max(0, try inputs.integer("inputPadding"))
        let coverage: TextCoverage
        do {
            coverage = try FontRenderer.shared.rasterize(text, fontPath: FontChoice.path(forFontName: fontName),
                                                         pixelSize: pointSize * scale)
        } catch let error as FilterError {
            throw FilterError("\(inputs.descriptor.name): \(error.message)")
        }
        let width = coverage.width + 2 * padding, height = coverage.height + 2 * padding
        guard width > 0, height > 0 else { return .empty }
        // Only the text's own pixels are stored; the padding is transparent extent around them (a padding of
        // 1e9 is a huge extent, refused by the render budget if rendered whole, not a buffer made here).
        guard coverage.width > 0, coverage.height > 0 else {
            return Image.empty.withExtent(Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        }
        let buffer = PixelBuffer(rect: PixelRect(x: padding, y: padding, width: coverage.width, height: coverage.height))
        for top in 0..<coverage.height {
            let row = buffer.row(padding + coverage.height - 1 - top)
            let values = top * coverage.width
            for x in 0..<coverage.width { row[x] = ink * coverage.values[values + x] }
        }
        return Image(buffer: buffer).withExtent(Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
    }
}
