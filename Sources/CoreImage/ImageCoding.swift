import Foundation
internal import FilterEngine
internal import FilterPipeline

/// PNG and JPEG in and out, the one place CIImage and CIContext reach the engine's codecs (in memory, with the
/// file's metadata: EXIF orientation, DPI, bit depth, colour model, ICC profile name, in ImageIO's key names).
enum ImageCoding {
    struct Decoded {
        let image: EngineImage
        /// ImageIO-style metadata: the pixel size, `Orientation` when the file has one, and the rest it declares.
        let properties: [String: Any]
    }

    static func decode(url: URL) throws -> Decoded {
        let loaded = try ImageFile.load(url.path)
        return Decoded(image: loaded.image, properties: loaded.properties.dictionary)
    }

    static func decode(data: Data) throws -> Decoded {
        let decoded = try ImageFile.decode(data)
        return Decoded(image: decoded.image, properties: decoded.properties.dictionary)
    }

    enum Format { case png(sixteenBit: Bool), jpeg(quality: Double) }

    static func write(_ image: EngineImage, to url: URL, format: Format, context: EngineContext) throws {
        let data = try encode(image, format: format, context: context)
        // Written beside and renamed over, as the engine's own writer does: a failed write leaves no half file.
        try data.write(to: url, options: .atomic)
    }

    static func encode(_ image: EngineImage, format: Format, context: EngineContext) throws -> Data {
        guard !image.extent.isInfinite else {
            throw CIContextError("the image is infinite: crop it before writing it")
        }
        switch format {
        case .png(let sixteenBit):
            return try ImageFile.encode(image, format: .png, sixteenBit: sixteenBit, context: context)
        case .jpeg(let quality):
            let q = Int((min(max(quality, 0), 1) * 100).rounded())
            return try ImageFile.encode(image, format: .jpeg, quality: max(1, q), context: context)
        }
    }
}

/// An error from rendering or writing (Core Image reports these as NSError).
public struct CIContextError: Error, CustomStringConvertible, LocalizedError {
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
    public var errorDescription: String? { message }
}
