import CImageIO
import FilterEngine
import Foundation

/// Reading and writing PNG and JPEG images, from files or memory, through libpng and libjpeg-turbo.
///
/// Colour: pixels are read as sRGB-encoded unless the file says otherwise. A PNG `sRGB` chunk, or no colour
/// chunk at all (8 or 16 bits), means sRGB; a `gAMA` chunk alone is honoured (1.0 is linear light, about 1/2.2 is
/// read as sRGB, other values as that power curve). Embedded ICC profiles (PNG `iCCP`, JPEG APP2) are not
/// applied: their pixels are read as sRGB, and unless the profile's name says sRGB the decoded properties carry
/// a warning naming the profile, which the command line prints.
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

        /// The format the first bytes announce.
        public init?(signature bytes: Data) {
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
                self = .png
            } else if bytes.starts(with: [0xFF, 0xD8]) {
                self = .jpeg
            } else {
                return nil
            }
        }
    }

    /// Limits for decoding.
    public struct DecodeOptions: Sendable {
        /// The most pixels a file may declare; a header declaring more is refused before any pixel memory is
        /// allocated (a 10 KB file can declare 16000×16000 pixels, 1 GB once decoded).
        public var maximumPixels: Int
        /// Turn the image upright from its EXIF orientation (Core Image's `.applyOrientationProperty`); the
        /// properties still report the file's orientation and stored size, as ImageIO's do.
        public var applyOrientation: Bool
        /// A JPEG decoded at 1/2, 1/4 or 1/8 of its size in each direction (sizes rounded up), straight from the
        /// DCT: a quick preview of a large photo. 1: full size. PNGs are always read at full size.
        public var jpegReduction = 1

        /// The default limit: `CIFILTERTEST_MAX_PIXELS` when set (the same variable as the render budget), else
        /// `defaultMaximumPixels`.
        public init(maximumPixels: Int = DecodeOptions.environmentMaximumPixels ?? DecodeOptions.defaultMaximumPixels,
                    applyOrientation: Bool = false) {
            self.maximumPixels = maximumPixels
            self.applyOrientation = applyOrientation
        }

        /// 2^27 pixels (134 megapixels, e.g. 16384×8192): above every camera but medium-format backs; 512 MB
        /// once decoded to 8-bit RGBA.
        public static let defaultMaximumPixels = 1 << 27
        public static let environmentVariable = "CIFILTERTEST_MAX_PIXELS"

        /// `CIFILTERTEST_MAX_PIXELS`, read as the render budget reads it.
        public static var environmentMaximumPixels: Int? {
            RenderContext.Options.environmentLimit(environmentVariable)
        }
    }

    /// A decoded image with what its file says about itself.
    public struct Decoded: @unchecked Sendable {
        public let image: Image
        public let properties: ImageProperties

        public init(image: Image, properties: ImageProperties) {
            self.image = image
            self.properties = properties
        }
    }

    /// Decodes a PNG or JPEG file (chosen by its first bytes, not its name). Only regular files are read.
    public static func read(_ path: String, options: DecodeOptions = .init()) throws -> Image {
        try load(path, options: options).image
    }

    /// `read` with the file's properties (orientation, size, depth, profile, resolution, warnings).
    public static func load(_ path: String, options: DecodeOptions = .init()) throws -> Decoded {
        let data = try RegularFile.read(path)
        do {
            return try decode(data, options: options)
        } catch let error as ImageFileError {
            throw ImageFileError(path: path, message: error.message)
        }
    }

    /// Decodes a PNG or JPEG held in memory, with the same limits as files. Errors have an empty path.
    public static func decode(_ data: Data, options: DecodeOptions = .init()) throws -> Decoded {
        guard !data.isEmpty else { throw ImageFileError(path: "", message: "the file is empty") }
        guard let format = Format(signature: data) else { throw ImageFileError(path: "", message: "not a PNG or JPEG file") }
        var decoded = cimageio_image()
        defer { cimageio_free(&decoded) }
        let limit = UInt64(max(1, options.maximumPixels))
        let status = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int32 in
            switch format {
            case .png: cimageio_decode_png(bytes.baseAddress, bytes.count, limit, &decoded)
            case .jpeg: cimageio_decode_jpeg_scaled(bytes.baseAddress, bytes.count, limit, Int32(options.jpegReduction), &decoded)
            }
        }
        guard status == 0 else {
            if decoded.too_large != 0 {
                throw ImageFileError(path: "", message: tooLargeMessage(width: Int(decoded.width), height: Int(decoded.height),
                                                                        limit: options.maximumPixels))
            }
            throw ImageFileError(path: "", message: cString(decoded.error))
        }
        let properties = ImageProperties(format: format, decoded: decoded)
        let image = makeImage(decoded, encoding: properties.colorEncoding)
        let shown = options.applyOrientation ? image.oriented(forExifOrientation: properties.orientation) : image
        return Decoded(image: shown, properties: properties)
    }

    static func tooLargeMessage(width: Int, height: Int, limit: Int) -> String {
        func megapixels(_ n: Double) -> String { String(format: "%.1f", n / 1e6) }
        return "declares \(width)×\(height) pixels (\(megapixels(Double(width) * Double(height))) megapixels), more than "
            + "the limit of \(limit) pixels (\(megapixels(Double(limit))) megapixels); to allow it, set "
            + "\(DecodeOptions.environmentVariable)=\(width * height) (or pass --max-pixels \(width * height))"
    }

    /// The decoded pixels as an engine image: 8-bit sRGB stays compact; 16-bit and non-sRGB files become
    /// working-space floats through a table of their transfer curve.
    static func makeImage(_ decoded: cimageio_image, encoding: ImageProperties.ColorEncoding) -> Image {
        let width = Int(decoded.width), height = Int(decoded.height)
        if decoded.is16bit == 0 && encoding == .sRGB {
            return Image(source: SourcePixels(rgba8TopDown: decoded.pixels.assumingMemoryBound(to: UInt8.self),
                                              width: width, height: height))
        }
        let levels = decoded.is16bit != 0 ? 65536 : 256
        let top = Float(levels - 1)
        let table: [Float] = (0..<levels).map { encoding.linear(Float($0) / top) }
        let buffer = PixelBuffer(rect: PixelRect(x: 0, y: 0, width: width, height: height), uninitialized: true)
        table.withUnsafeBufferPointer { table in
            for y in 0..<height {
                let dst = buffer.row(y)
                let fileRow = height - 1 - y  // files are top to bottom, the engine bottom to top
                if decoded.is16bit != 0 {
                    let src = decoded.pixels.assumingMemoryBound(to: UInt16.self) + fileRow * width * 4
                    for x in 0..<width {
                        let s = src + x * 4
                        let alpha = Float(s[3]) / top
                        dst[x] = Pixel(table[Int(s[0])] * alpha, table[Int(s[1])] * alpha, table[Int(s[2])] * alpha, alpha)
                    }
                } else {
                    let src = decoded.pixels.assumingMemoryBound(to: UInt8.self) + fileRow * width * 4
                    for x in 0..<width {
                        let s = src + x * 4
                        let alpha = Float(s[3]) / top
                        dst[x] = Pixel(table[Int(s[0])] * alpha, table[Int(s[1])] * alpha, table[Int(s[2])] * alpha, alpha)
                    }
                }
            }
        }
        return Image(buffer: buffer)
    }

    // MARK: Writing

    /// Renders `rect` of `image` (default: its extent) and encodes it. PNG is 8-bit sRGB, or 16-bit linear
    /// (tagged gAMA 1.0) with `sixteenBit`; JPEG drops alpha.
    /// `cancellation` stops an 8-bit render between bands and follows its progress.
    public static func encode(_ image: Image, format: Format, rect: Rect? = nil, sixteenBit: Bool = false,
                              quality: Int = 92, context: RenderContext,
                              cancellation: RenderCancellation? = nil) throws -> Data {
        let area = rect ?? image.extent
        var error = [CChar](repeating: 0, count: 256)
        var encoded = cimageio_buffer()
        defer { cimageio_buffer_free(&encoded) }
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
            status = cimageio_encode_png(words, Int32(r.width), Int32(r.height), 1, &encoded, &error)
        } else {
            let (bytes, width, height) = try context.renderRGBA8(image, rect: area, cancellation: cancellation)
            switch format {
            case .png: status = cimageio_encode_png(bytes, Int32(width), Int32(height), 0, &encoded, &error)
            case .jpeg:
                let q = Int32(min(100, max(1, quality)))
                status = cimageio_encode_jpeg(bytes, Int32(width), Int32(height), q, &encoded, &error)
            }
        }
        guard status == 0 else {
            throw ImageFileError(path: "", message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return Data(bytes: encoded.data, count: encoded.size)
    }

    /// Renders and writes an image file: encoded in memory first, then written to a temporary file beside
    /// `path` and renamed over it, so an interrupted render or write leaves the previous file intact.
    public static func write(_ image: Image, to path: String, rect: Rect? = nil, format: Format? = nil,
                             sixteenBit: Bool = false, quality: Int = 92, context: RenderContext,
                             cancellation: RenderCancellation? = nil) throws {
        guard let format = format ?? Format(path: path) else {
            throw ImageFileError(path: path, message: "unknown image format: use .png, .jpg or .jpeg")
        }
        // A destination that cannot be written is reported before the render, not after it.
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw ImageFileError(path: path, message: "its directory \(directory) does not exist")
        }
        let data: Data
        do {
            data = try encode(image, format: format, rect: rect, sixteenBit: sixteenBit, quality: quality, context: context,
                              cancellation: cancellation)
        } catch let error as ImageFileError {
            throw ImageFileError(path: path, message: error.message)
        }
        try RegularFile.writeAtomically(data, to: path)
    }

    static func cString<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

public struct ImageFileError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let message: String
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
