import Foundation
import Testing
@testable import CoreImage
import FilterEngine
import FilterPipeline

/// The repository's sample images (always present).
enum Samples {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleImages")
    static let chelsea = directory.appendingPathComponent("chelsea.png")
    static let astronaut = directory.appendingPathComponent("astronaut.png")
}

enum Pixels {
    static let context = CIContext()
    static let engineContext = RenderContext()

    /// 8-bit sRGB RGBA of `rect` (default: the extent), rows top to bottom, premultiplied (as Core Image).
    static func rgba8(_ image: CIImage, _ rect: CGRect? = nil) -> [UInt8] {
        let r = rect ?? image.extent
        var bytes = [UInt8](repeating: 0, count: Int(r.width) * Int(r.height) * 4)
        context.render(image, toBitmap: &bytes, rowBytes: Int(r.width) * 4, bounds: r, format: .RGBA8,
                       colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        return bytes
    }

    /// Linear float RGBA (premultiplied) of one pixel at (x, y), y up.
    static func linear(_ image: CIImage, x: Int, y: Int) -> [Float] {
        var v = [Float](repeating: 0, count: 4)
        context.render(image, toBitmap: &v, rowBytes: 16, bounds: CGRect(x: x, y: y, width: 1, height: 1),
                       format: .RGBAf, colorSpace: CGColorSpace(name: CGColorSpace.linearSRGB))
        return v
    }

    /// The bytes at (x, y) of an rgba8 buffer of `width`, where y counts from the top.
    static func at(_ bytes: [UInt8], width: Int, x: Int, yFromTop: Int) -> [UInt8] {
        let o = (yFromTop * width + x) * 4
        return Array(bytes[o..<o + 4])
    }

    /// The engine's own render of a built-in filter chain on an image file: the reference the snippets are
    /// compared with (straight alpha; the sample images are opaque, so it equals the premultiplied bytes).
    static func engine(_ steps: [(String, [String: FilterValue])], on url: URL, rect: FilterEngine.Rect? = nil) throws -> [UInt8] {
        var image = try ImageFile.read(url.path)
        let area = rect ?? image.extent
        for (name, params) in steps {
            let filter = try FilterEngine.Filter(named: name)
            try filter.setValue(.image(image), forKey: "inputImage")
            for (key, value) in params { try filter.setValue(value, forKey: key) }
            image = try filter.makeOutputImage()
        }
        return try engineContext.renderRGBA8(image, rect: rect ?? area).bytes
    }

    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        precondition(a.count == b.count, "\(a.count) vs \(b.count)")
        return zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }
}

/// The engine's catalogue as this test target sees it (files that import CoreImage alone cannot name it).
enum EngineCatalog {
    /// The filters of filters.json, Apple's and custom.
    static var filterCount: Int { FilterEngine.Catalog.embedded.filters.count }
}
