import Foundation
internal import FilterEngine

/// PNG and JPEG in and out, the one place CIImage and CIContext reach the engine's codecs.
///
/// The engine's codecs read and write files, so `Data` in and out goes through a temporary file for now; the
/// in-memory decoder/encoder and the EXIF metadata (for `properties` and `.applyOrientationProperty`) replace
/// the bodies of `decode(data:)`, `decode(url:)` and `encode` without touching their callers.
enum ImageCoding {
    struct Decoded {
        let image: EngineImage
        /// ImageIO-style metadata: at least the pixel size; `kCGImagePropertyOrientation` when the file has one.
        let properties: [String: Any]
    }

    static func decode(url: URL) throws -> Decoded {
        let image = try ImageFile.read(url.path)
        return Decoded(image: image, properties: [
            kCGImagePropertyPixelWidth: Int(image.extent.width), kCGImagePropertyPixelHeight: Int(image.extent.height),
        ])
    }

    static func decode(data: Data) throws -> Decoded {
        try withTemporaryFile(extension: "img") { url in
            try data.write(to: url)
            return try decode(url: url)
        }
    }

    enum Format { case png(sixteenBit: Bool), jpeg(quality: Double) }

    static func write(_ image: EngineImage, to url: URL, format: Format, context: EngineContext) throws {
        guard !image.extent.isInfinite else {
            throw CIContextError("the image is infinite: crop it before writing it")
        }
        switch format {
        case .png(let sixteenBit):
            try ImageFile.write(image, to: url.path, format: .png, sixteenBit: sixteenBit, context: context)
        case .jpeg(let quality):
            let q = Int((min(max(quality, 0), 1) * 100).rounded())
            try ImageFile.write(image, to: url.path, format: .jpeg, quality: q, context: context)
        }
    }

    static func encode(_ image: EngineImage, format: Format, context: EngineContext) throws -> Data {
        try withTemporaryFile(extension: { if case .png = format { "png" } else { "jpg" } }()) { url in
            try write(image, to: url, format: format, context: context)
            return try Data(contentsOf: url)
        }
    }

    private static func withTemporaryFile<T>(extension ext: String, _ body: (URL) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("coreimage-\(UUID().uuidString).\(ext)")
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url)
    }
}

/// An error from rendering or writing (Core Image reports these as NSError).
public struct CIContextError: Error, CustomStringConvertible, LocalizedError {
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
    public var errorDescription: String? { message }
}
