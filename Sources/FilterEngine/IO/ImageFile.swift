import CImageIO
import Foundation

/// Reading and writing image files through libpng and libjpeg-turbo.
public enum ImageFile {
    public enum Format: String, Sendable {
        case png, jpeg

        /// The format a path's extension names.
        public init?(path: String) {
            switch (path as NSString).pathExtension.lowercased() {
            case "png": self = .png
            case "jpg", "jpeg": self = .jpeg
            default: return nil
            }
        }
    }

    /// Decodes a PNG or JPEG (chosen by its first bytes, not its name). 16-bit PNGs keep their precision.
    public static func read(_ path: String) throws -> Image {
        guard FileManager.default.fileExists(atPath: path) else { throw ImageFileError(path: path, message: "no such file") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImageFileError(path: path, message: "cannot be opened for reading")
        }
        let magic = [UInt8](handle.readData(ofLength: 8))
        try? handle.close()
        var decoded = cimageio_image()
        let status: Int32
        if magic.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            status = cimageio_read_png(path, 1, &decoded)
        } else if magic.starts(with: [0xFF, 0xD8]) {
            status = cimageio_read_jpeg(path, &decoded)
        } else if magic.isEmpty {
            throw ImageFileError(path: path, message: "the file is empty")
        } else {
            throw ImageFileError(path: path, message: "not a PNG or JPEG file")
        }
        guard status == 0 else {
            let message = withUnsafeBytes(of: decoded.error) { Array($0.prefix { $0 != 0 }) }
            throw ImageFileError(path: path, message: String(decoding: message, as: UTF8.self))
        }
        defer { cimageio_free(&decoded) }
        let width = Int(decoded.width), height = Int(decoded.height)
        if decoded.is16bit != 0 {
            // libpng's linear format: 16-bit linear light, premultiplied; rows top to bottom.
            let buffer = PixelBuffer(rect: PixelRect(x: 0, y: 0, width: width, height: height))
            let words = decoded.pixels.assumingMemoryBound(to: UInt16.self)
            let scale: Float = 1 / 65535
            for y in 0..<height {
                let src = words + (height - 1 - y) * width * 4
                let dst = buffer.row(y)
                for x in 0..<width {
                    let s = src + x * 4
                    dst[x] = Pixel(Float(s[0]), Float(s[1]), Float(s[2]), Float(s[3])) * scale
                }
            }
            return Image(buffer: buffer)
        }
        let bytes = decoded.pixels.assumingMemoryBound(to: UInt8.self)
        return Image(source: SourcePixels(rgba8TopDown: bytes, width: width, height: height))
    }

    /// Renders `rect` of `image` (default: its extent) and writes it. PNG is 8-bit sRGB, or 16-bit linear with
    /// `sixteenBit`; JPEG drops alpha.
    public static func write(_ image: Image, to path: String, rect: Rect? = nil, format: Format? = nil,
                             sixteenBit: Bool = false, quality: Int = 92, context: RenderContext) throws {
        guard let format = format ?? Format(path: path) else {
            throw ImageFileError(path: path, message: "unknown image format: use .png, .jpg or .jpeg")
        }
        let area = rect ?? image.extent
        var error = [CChar](repeating: 0, count: 256)
        let status: Int32
        if format == .png && sixteenBit {
            let buffer = try context.render(image, rect: area)
            let r = buffer.rect
            var words = [UInt16](repeating: 0, count: r.area * 4)
            for y in 0..<r.height {
                let src = buffer.row(r.y + y)
                for x in 0..<r.width {
                    let p = src[x]
                    let a = ColorMath.clamp01(p.w)
                    let o = ((r.height - 1 - y) * r.width + x) * 4
                    // Premultiplied colour cannot exceed its alpha.
                    words[o] = UInt16(min(ColorMath.clamp01(p.x), a) * 65535 + 0.5)
                    words[o + 1] = UInt16(min(ColorMath.clamp01(p.y), a) * 65535 + 0.5)
                    words[o + 2] = UInt16(min(ColorMath.clamp01(p.z), a) * 65535 + 0.5)
                    words[o + 3] = UInt16(a * 65535 + 0.5)
                }
            }
            status = cimageio_write_png(path, words, Int32(r.width), Int32(r.height), 1, &error)
        } else {
            let (bytes, width, height) = try context.renderRGBA8(image, rect: area)
            switch format {
            case .png: status = cimageio_write_png(path, bytes, Int32(width), Int32(height), 0, &error)
            case .jpeg: status = cimageio_write_jpeg(path, bytes, Int32(width), Int32(height), Int32(quality), &error)
            }
        }
        guard status == 0 else {
            throw ImageFileError(path: path, message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }
}

public struct ImageFileError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let message: String
    public var description: String { "\(path): \(message)" }
}
