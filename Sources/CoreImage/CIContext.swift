import Foundation
internal import FilterEngine

/// Renders images, on the CPU with every core. Make one and keep it; it is safe to use from several threads.
/// Rendering is synchronous: move it off an event loop as with Core Image.
open class CIContext: NSObject, @unchecked Sendable {
    let engine: EngineContext
    /// The space filters work in. The engine always works in linear sRGB (extended range, premultiplied).
    public let workingColorSpace: CGColorSpace?
    /// Accepted for compatibility: the engine's intermediates are always 32-bit float.
    public let workingFormat: CIFormat
    let outputColorSpace: CGColorSpace?
    let outputPremultiplied: Bool

    public convenience override init() { self.init(options: nil) }

    /// Options that mean something on a CPU are used (`.outputColorSpace`, `.outputPremultiplied`,
    /// `.cacheIntermediates`, `.memoryTarget`); the others (`.workingFormat`, `.useSoftwareRenderer`,
    /// `.priorityRequestLow`, `.allowLowPower`, `.highQualityDownsample`, `.name`) are accepted and change nothing.
    public init(options: [CIContextOption: Any]?) {
        let options = options ?? [:]
        let srgb = CGColorSpace(name: CGColorSpace.sRGB)
        workingColorSpace = options[.workingColorSpace] is NSNull ? nil
            : (options[.workingColorSpace] as? CGColorSpace ?? CGColorSpace(name: CGColorSpace.extendedLinearSRGB))
        workingFormat = options[.workingFormat] as? CIFormat ?? .RGBAh
        outputColorSpace = options[.outputColorSpace] is NSNull ? nil : (options[.outputColorSpace] as? CGColorSpace ?? srgb)
        outputPremultiplied = (options[.outputPremultiplied] as? Bool) ?? true
        // Core Image caches intermediates by default; here the cache is opt-in, because a server rendering a
        // stream of different images would only fill it.
        let cache = (options[.cacheIntermediates] as? Bool) == true
            ? (FilterValues.number(options[.memoryTarget]).flatMap { $0.isFinite && $0 >= 0 && $0 < 1e15 ? Int($0) : nil } ?? 256 << 20) : 0
        engine = RenderContext(options: .init(cacheBytes: cache))
    }

    /// Drops cached intermediates. (A context's other resources are freed with it.)
    open func clearCaches() {}
    open func reclaimResources() {}

    /// The largest image a render may cover, in pixels per side.
    open func inputImageMaximumSize() -> CGSize { CGSize(width: 16384, height: 16384) }
    open func outputImageMaximumSize() -> CGSize { CGSize(width: 16384, height: 16384) }

    // MARK: Rendering to memory

    /// Renders `bounds` of `image` into `data`, rows top to bottom, `rowBytes` apart. Supported formats: the
    /// 8-bit RGBA orders (RGBA8, BGRA8, ARGB8, ABGR8), RGBA16, RGBAh, RGBAf, and the one- and two-channel
    /// R, RG, A, L, LA formats in 8, 16, half and float. With `colorSpace` nil the working-space values are
    /// written (linear); a linear space writes linear values, any other space sRGB-encoded ones.
    open func render(_ image: CIImage, toBitmap data: UnsafeMutableRawPointer, rowBytes: Int, bounds: CGRect,
                     format: CIFormat, colorSpace: CGColorSpace?) {
        do {
            try renderChecked(image, toBitmap: data, rowBytes: rowBytes, bounds: bounds, format: format, colorSpace: colorSpace)
        } catch {
            LibraryWarnings.report("render(_:toBitmap:): \(error)")
        }
    }

    /// `premultiplied`: nil for the context's `.outputPremultiplied`.
    func renderChecked(_ image: CIImage, toBitmap data: UnsafeMutableRawPointer, rowBytes: Int, bounds: CGRect,
                       format: CIFormat, colorSpace: CGColorSpace?, premultiplied: Bool? = nil) throws {
        let outputPremultiplied = premultiplied ?? self.outputPremultiplied
        guard format.layout != nil else { throw CIContextError("format \(format.rawValue) is not supported") }
        let area = try Self.pixelArea(bounds)
        // No output space: the working values as they are. With an unmanaged working space (`kCFNull`) they
        // are the source's encoded values, which the engine decoded on the way in, so they are encoded again.
        let encoded = colorSpace.map { !$0.isLinear } ?? (workingColorSpace == nil)
        if format == .RGBA8, encoded {
            // The engine's own 8-bit sRGB path (straight alpha, rows top to bottom), then premultiplied.
            let tight = area.width * 4
            let target = rowBytes == tight ? data.assumingMemoryBound(to: UInt8.self) : .allocate(capacity: tight * area.height)
            defer { if rowBytes != tight { target.deallocate() } }
            try engine.renderRGBA8(image.engine, rect: bounds.engineRect, into: target)
            if outputPremultiplied { Self.premultiplyBytes(target, count: area.area) }
            if rowBytes != tight {
                for y in 0..<area.height { (data + y * rowBytes).copyMemory(from: target + y * tight, byteCount: tight) }
            }
            return
        }
        let buffer = try engine.render(image.engine, rect: bounds.engineRect)
        for row in 0..<area.height {
            let source = buffer.row(area.maxY - 1 - row)
            let line = data + row * rowBytes
            for x in 0..<area.width {
                let p = source[x]
                var (r, g, b, a) = (p.x, p.y, p.z, p.w)
                if encoded || !outputPremultiplied {
                    let inv: Float = a > 0 ? 1 / a : 0
                    r *= inv; g *= inv; b *= inv
                    if encoded {
                        r = Float(CIColor.encodeSRGB(Double(r)))
                        g = Float(CIColor.encodeSRGB(Double(g)))
                        b = Float(CIColor.encodeSRGB(Double(b)))
                    }
                    if outputPremultiplied { r *= a; g *= a; b *= a }
                }
                format.store(SIMD4(r, g, b, a), line, x)
            }
        }
    }

    /// The whole pixels of a rectangle to render, or an error for an infinite, non-finite, empty or huge one
    /// (checked before any conversion to integers, which is undefined for such values in this build).
    static func pixelArea(_ rect: CGRect) throws -> PixelRect {
        let r = rect.engineRect
        guard !r.isInfinite, [r.x, r.y, r.width, r.height].allSatisfy({ $0.isFinite && abs($0) < 1e9 }) else {
            throw CIContextError("the rectangle \(rect) is infinite or too large: crop the image first")
        }
        guard !r.isEmpty else { throw CIContextError("the rectangle \(rect) is empty") }
        // Its size is checked by the engine's render budget (RenderContext.Options.maxPixels).
        return PixelRect(covering: r)
    }

    /// Straight-alpha RGBA bytes → premultiplied, in place (opaque pixels are untouched).
    static func premultiplyBytes(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) {
        for i in 0..<count {
            let a = Int(bytes[i * 4 + 3])
            guard a != 255 else { continue }
            for c in 0..<3 { bytes[i * 4 + c] = UInt8((Int(bytes[i * 4 + c]) * a + 127) / 255) }
        }
    }

    // MARK: CGImage

    /// Renders `fromRect` of `image` to a CGImage: 8-bit RGBA, premultiplied, in the output colour space.
    open func createCGImage(_ image: CIImage, from fromRect: CGRect) -> CGImage? {
        createCGImage(image, from: fromRect, format: .RGBA8, colorSpace: outputColorSpace ?? CGColorSpace(name: CGColorSpace.sRGB))
    }

    /// As above; the format must be RGBA8 (the only CGImage layout here).
    open func createCGImage(_ image: CIImage, from fromRect: CGRect, format: CIFormat, colorSpace: CGColorSpace?) -> CGImage? {
        guard format == .RGBA8 else {
            LibraryWarnings.report("createCGImage: only RGBA8 CGImages can be made here")
            return nil
        }
        let area: PixelRect
        do { area = try Self.pixelArea(fromRect) } catch {
            LibraryWarnings.report("createCGImage: \(error)")
            return nil
        }
        let space = colorSpace ?? CGColorSpace(name: CGColorSpace.sRGB)!
        var bytes = Data(count: area.area * 4)
        do {
            try bytes.withUnsafeMutableBytes { memory in
                try renderChecked(image, toBitmap: memory.baseAddress!, rowBytes: area.width * 4, bounds: fromRect,
                                  format: .RGBA8, colorSpace: space)
            }
        } catch {
            LibraryWarnings.report("createCGImage: \(error)")
            return nil
        }
        let alpha: CGImageAlphaInfo = outputPremultiplied ? .premultipliedLast : .last
        return CGImage(width: area.width, height: area.height, bitsPerComponent: 8, bitsPerPixel: 32,
                       bytesPerRow: area.width * 4, space: space, bitmapInfo: CGBitmapInfo(rawValue: alpha.rawValue),
                       provider: CGDataProvider(data: bytes)!, decode: nil, shouldInterpolate: true, intent: .defaultIntent)
    }

    // MARK: Files and Data

    private static func pngFormat(_ format: CIFormat) -> ImageCoding.Format {
        .png(sixteenBit: format == .RGBA16 || format == .RGBAh || format == .RGBAf)
    }

    private static func jpegFormat(_ options: [CIImageRepresentationOption: Any]) -> ImageCoding.Format {
        let key = CIImageRepresentationOption(rawValue: kCGImageDestinationLossyCompressionQuality)
        let quality = FilterValues.number(options[key]) ?? 0.92
        return .jpeg(quality: quality.isFinite ? quality : 0.92)
    }

    /// Writes the image's extent as a PNG (8-bit sRGB; 16-bit for RGBA16/RGBAh/RGBAf).
    open func writePNGRepresentation(of image: CIImage, to url: URL, format: CIFormat, colorSpace: CGColorSpace,
                                     options: [CIImageRepresentationOption: Any] = [:]) throws {
        try ImageCoding.write(image.engine, to: url, format: Self.pngFormat(format), context: engine)
    }

    /// Writes the image's extent as a JPEG (quality from `kCGImageDestinationLossyCompressionQuality`, 0…1,
    /// default 0.92; alpha dropped).
    open func writeJPEGRepresentation(of image: CIImage, to url: URL, colorSpace: CGColorSpace,
                                      options: [CIImageRepresentationOption: Any] = [:]) throws {
        try ImageCoding.write(image.engine, to: url, format: Self.jpegFormat(options), context: engine)
    }

    /// The image's extent as PNG bytes, or nil (an infinite image, a render error).
    open func pngRepresentation(of image: CIImage, format: CIFormat, colorSpace: CGColorSpace,
                                options: [CIImageRepresentationOption: Any] = [:]) -> Data? {
        do { return try ImageCoding.encode(image.engine, format: Self.pngFormat(format), context: engine) } catch {
            LibraryWarnings.report("pngRepresentation: \(error)")
            return nil
        }
    }

    /// The image's extent as JPEG bytes, or nil.
    open func jpegRepresentation(of image: CIImage, colorSpace: CGColorSpace,
                                 options: [CIImageRepresentationOption: Any] = [:]) -> Data? {
        do { return try ImageCoding.encode(image.engine, format: Self.jpegFormat(options), context: engine) } catch {
            LibraryWarnings.report("jpegRepresentation: \(error)")
            return nil
        }
    }
}
