import Foundation
internal import FilterEngine

/// An image as Core Image has it: an immutable recipe with an extent (possibly infinite), in y-up pixel
/// coordinates. Nothing is computed until a `CIContext` renders it.
open class CIImage: NSObject, NSCopying, @unchecked Sendable {
    let engine: EngineImage
    /// Set by `samplingNearest()`: transforms of this image then sample the nearest pixel.
    let samplesNearest: Bool
    /// The file's metadata (EXIF, TIFF, PNG dictionaries under ImageIO's keys) for images read from files.
    public let properties: [String: Any]
    /// The file an image was read from.
    public let url: URL?
    /// The colour space of the source pixels (sRGB for files and CGImages), nil for recipes.
    public let colorSpace: CGColorSpace?
    /// The CGImage an image was made from.
    public let cgImage: CGImage?

    init(engine: EngineImage, samplesNearest: Bool = false, properties: [String: Any] = [:], url: URL? = nil,
         colorSpace: CGColorSpace? = nil, cgImage: CGImage? = nil) {
        self.engine = engine
        self.samplesNearest = samplesNearest
        self.properties = properties
        self.url = url
        self.colorSpace = colorSpace
        self.cgImage = cgImage
    }

    /// The same image with a new recipe (derived images keep the sampling mode, not the file's metadata).
    func deriving(_ engine: EngineImage) -> CIImage { CIImage(engine: engine, samplesNearest: samplesNearest) }

    // MARK: Making images

    /// Decodes a PNG or JPEG file. With `.applyOrientationProperty: true` the EXIF orientation is applied.
    public convenience init?(contentsOf url: URL, options: [CIImageOption: Any]? = nil) {
        guard let decoded = try? ImageCoding.decode(url: url) else { return nil }
        self.init(decoded: decoded, url: url, options: options)
    }

    /// Decodes PNG or JPEG bytes. With `.applyOrientationProperty: true` the EXIF orientation is applied.
    public convenience init?(data: Data, options: [CIImageOption: Any]? = nil) {
        guard let decoded = try? ImageCoding.decode(data: data) else { return nil }
        self.init(decoded: decoded, url: nil, options: options)
    }

    private convenience init(decoded: ImageCoding.Decoded, url: URL?, options: [CIImageOption: Any]?) {
        var image = decoded.image
        var properties = decoded.properties
        if let given = options?[.properties] as? [String: Any] { properties = given }
        if (options?[.applyOrientationProperty] as? Bool) == true,
           let value = FilterValues.number(properties[kCGImagePropertyOrientation]), value.isFinite,
           let orientation = CGImagePropertyOrientation(rawValue: UInt32(max(1, min(8, value)))) {
            image = CIImage(engine: image).oriented(orientation).engine
        }
        let space = options?[.colorSpace] as? CGColorSpace ?? CGColorSpace(name: CGColorSpace.sRGB)
        self.init(engine: image, samplesNearest: (options?[.nearestSampling] as? Bool) == true,
                  properties: properties, url: url, colorSpace: space)
    }

    /// An image of a CGImage's pixels.
    public convenience init(cgImage: CGImage, options: [CIImageOption: Any]? = nil) {
        let bytes = cgImage.straightRGBA()
        let source = bytes.withUnsafeBufferPointer {
            SourcePixels(rgba8TopDown: $0.baseAddress!, width: cgImage.width, height: cgImage.height)
        }
        self.init(engine: EngineImage(source: source), samplesNearest: (options?[.nearestSampling] as? Bool) == true,
                  properties: options?[.properties] as? [String: Any] ?? [:],
                  colorSpace: cgImage.colorSpace, cgImage: cgImage)
    }

    /// An image of premultiplied pixels in memory, rows top to bottom. Formats: RGBA8, BGRA8, ARGB8, ABGR8
    /// (sRGB-encoded unless `colorSpace` is linear), RGBAf, RGBAh (linear unless `colorSpace` is sRGB-encoded).
    public convenience init(bitmapData data: Data, bytesPerRow: Int, size: CGSize, format: CIFormat, colorSpace: CGColorSpace?) {
        // Non-finite or absurd sizes give an empty image (converting them to Int would be undefined here).
        func side(_ v: CGFloat) -> Int { v.isFinite && v > 0 && v < 1e6 ? Int(v) : 0 }
        let width = side(size.width), height = side(size.height)
        if format == .RGBA8, colorSpace.map({ !$0.isLinear }) ?? true, width > 0, height > 0,
           data.count >= bytesPerRow * (height - 1) + width * 4 {
            // The common case takes the engine's 8-bit source path (decoded with tables while rendering).
            let provider = CGDataProvider(data: data)!
            let cgImage = CGImage(width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: bytesPerRow,
                                  space: colorSpace ?? CGColorSpace(name: CGColorSpace.sRGB)!,
                                  bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue),
                                  provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent)!
            let bytes = cgImage.straightRGBA()
            let source = bytes.withUnsafeBufferPointer { SourcePixels(rgba8TopDown: $0.baseAddress!, width: width, height: height) }
            self.init(engine: EngineImage(source: source), colorSpace: colorSpace)
            return
        }
        let buffer = PixelBuffer(rect: PixelRect(x: 0, y: 0, width: width, height: height))
        let encoded = colorSpace.map { !$0.isLinear } ?? false
        if let layout = format.layout, layout.channels.count == 4 {
            data.withUnsafeBytes { (src: UnsafeRawBufferPointer) in
                for row in 0..<height {
                    let line = buffer.row(height - 1 - row)
                    for x in 0..<width {
                        let offset = row * bytesPerRow + x * layout.bytesPerChannel * 4
                        guard offset + format.bytesPerPixel <= src.count else { continue }
                        var rgba = format.load(src.baseAddress! + row * bytesPerRow, x)
                        let useCurve = layout.float ? encoded : (colorSpace.map { !$0.isLinear } ?? true)
                        if useCurve {
                            // Premultiplied encoded values: decode the straight colour, premultiply again.
                            let a = rgba[3]
                            for c in 0..<3 {
                                let straight = a > 0 ? rgba[c] / a : 0
                                rgba[c] = Float(CIColor.decodeSRGB(Double(straight))) * a
                            }
                        }
                        line[x] = rgba
                    }
                }
            }
        } else {
            LibraryWarnings.report("CIImage(bitmapData:): format \(format.rawValue) is not supported; the image is empty")
        }
        self.init(engine: EngineImage(buffer: buffer), colorSpace: colorSpace)
    }

    /// An infinite image of one colour.
    public convenience init(color: CIColor) {
        self.init(engine: EngineImage(color: EngineColor(color.sRGBComponents)))
    }

    /// The empty image: nothing anywhere, an empty extent (as `CIImage.empty()`).
    public convenience override init() { self.init(engine: .empty) }

    /// The empty image: nothing anywhere, an empty extent.
    open class func empty() -> CIImage { CIImage(engine: .empty) }

    public static var black: CIImage { CIImage(color: .black) }
    public static var white: CIImage { CIImage(color: .white) }
    public static var gray: CIImage { CIImage(color: .gray) }
    public static var red: CIImage { CIImage(color: .red) }
    public static var green: CIImage { CIImage(color: .green) }
    public static var blue: CIImage { CIImage(color: .blue) }
    public static var cyan: CIImage { CIImage(color: .cyan) }
    public static var magenta: CIImage { CIImage(color: .magenta) }
    public static var yellow: CIImage { CIImage(color: .yellow) }
    public static var clear: CIImage { CIImage(color: .clear) }

    // MARK: Geometry

    /// The rectangle the image covers (`CGRect.infinite` for generators and clamped images).
    open var extent: CGRect { CGRect(engine.extent) }

    /// The area the image covers, as a shape.
    open var definition: CIFilterShape { CIFilterShape(rect: extent) }

    /// True when every pixel of the extent is known to be opaque without rendering (an opaque file or colour, and
    /// crops and transforms of one); false when unknown, as for most filter outputs.
    open var isOpaque: Bool { engine.isOpaque }

    /// The part of `image`, an image this one is built from, that rendering `rect` of this one reads (empty when
    /// it does not read `image` there).
    open func regionOfInterest(for image: CIImage, in rect: CGRect) -> CGRect {
        CGRect(engine.regionOfInterest(of: image.engine, for: rect.engineRect))
    }

    open func cropped(to rect: CGRect) -> CIImage { deriving(engine.cropped(to: rect.engineRect)) }

    open func transformed(by matrix: CGAffineTransform) -> CIImage {
        let t = matrix.engineTransform
        // Nearest-neighbour sampling after `samplingNearest()`: the engine's nearest affine warp.
        guard samplesNearest else { return deriving(engine.transformed(by: t)) }
        return deriving(engine.transformedNearest(by: t))
    }

    /// As `transformed(by:)`. Core Image filters a downscale more carefully when asked; here every affine
    /// transform samples bilinearly (or nearest after `samplingNearest()`), whatever the flag.
    open func transformed(by matrix: CGAffineTransform, highQualityDownsample: Bool) -> CIImage {
        transformed(by: matrix)
    }

    /// The transform that turns an image stored with an EXIF orientation upright; the result keeps the
    /// extent's origin.
    open func orientationTransform(for orientation: CGImagePropertyOrientation) -> CGAffineTransform {
        let e = extent
        guard !e.isInfinite, !e.isNull else { return .identity }
        let w = e.width, h = e.height
        let upright: CGAffineTransform = switch orientation {
        case .up: .identity
        case .upMirrored: CGAffineTransform(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)
        case .down: CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case .downMirrored: CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)
        case .leftMirrored: CGAffineTransform(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)
        case .right: CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
        case .rightMirrored: CGAffineTransform(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)
        case .left: CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
        }
        return CGAffineTransform(translationX: -e.minX, y: -e.minY)
            .concatenating(upright)
            .concatenating(CGAffineTransform(translationX: e.minX, y: e.minY))
    }

    open func orientationTransform(forExifOrientation orientation: Int32) -> CGAffineTransform {
        CGImagePropertyOrientation(rawValue: UInt32(clamping: orientation)).map { orientationTransform(for: $0) } ?? .identity
    }

    /// The image turned upright from an EXIF orientation (1 leaves it as is).
    open func oriented(_ orientation: CGImagePropertyOrientation) -> CIImage {
        transformed(by: orientationTransform(for: orientation))
    }

    open func oriented(forExifOrientation orientation: Int32) -> CIImage {
        transformed(by: orientationTransform(forExifOrientation: orientation))
    }

    // MARK: Filters and compositing

    /// This image through a filter, with `parameters` for its other inputs. An unknown filter or a value that
    /// does not fit gives the empty image (and a message on standard error), where Core Image gives nil.
    open func applyingFilter(_ filterName: String, parameters params: [String: Any]) -> CIImage {
        guard let filter = CIFilter(name: filterName) else {
            LibraryWarnings.report("applyingFilter: no filter named \(filterName)")
            return .empty()
        }
        filter.setValue(self, forKey: kCIInputImageKey)
        for (key, value) in params { filter.setValue(value, forKey: key) }
        return filter.outputImage ?? .empty()
    }

    open func applyingFilter(_ filterName: String) -> CIImage { applyingFilter(filterName, parameters: [:]) }

    /// This image over `dest` (source-over).
    open func composited(over dest: CIImage) -> CIImage { deriving(engine.composited(over: dest.engine)) }

    /// The edge pixels repeated outwards forever (an infinite extent).
    open func clampedToExtent() -> CIImage { deriving(engine.clampedToExtent()) }

    /// The part inside `rect`, its edge pixels repeated outwards forever.
    open func clamped(to rect: CGRect) -> CIImage { deriving(engine.cropped(to: rect.engineRect).clampedToExtent()) }

    /// A Gaussian blur of standard deviation `sigma` (CIGaussianBlur's radius).
    open func applyingGaussianBlur(sigma: Double) -> CIImage {
        applyingFilter("CIGaussianBlur", parameters: [kCIInputRadiusKey: sigma])
    }

    open func samplingNearest() -> CIImage {
        CIImage(engine: engine, samplesNearest: true, properties: properties, url: url, colorSpace: colorSpace, cgImage: cgImage)
    }

    open func samplingLinear() -> CIImage {
        CIImage(engine: engine, samplesNearest: false, properties: properties, url: url, colorSpace: colorSpace, cgImage: cgImage)
    }

    /// Alpha set to 1 inside `rect` (colour values kept), nothing outside it.
    open func settingAlphaOne(in rect: CGRect) -> CIImage {
        let kernel = ColorKernel(name: "alphaOne") { span in
            span.out.a.update(repeating: 1, count: span.count)
        }
        return deriving(kernel.apply(extent: rect.engineRect.intersection(EngineRect.infinite), inputs: [engine]))
    }

    /// Treats the colour as straight and multiplies it by alpha.
    open func premultiplyingAlpha() -> CIImage {
        deriving(ColorKernel(name: "premultiply") { span in
            let p = span.out
            for i in 0..<span.count {
                let a = p.a[i]
                p.r[i] *= a; p.g[i] *= a; p.b[i] *= a
            }
        }.apply(extent: engine.extent, inputs: [engine]))
    }

    /// Divides the colour by alpha (transparent pixels stay black).
    open func unpremultiplyingAlpha() -> CIImage {
        deriving(ColorKernel(name: "unpremultiply") { span in
            let p = span.out
            for i in 0..<span.count {
                let a = p.a[i]
                let inv: Float = a > 0 ? 1 / a : 0
                p.r[i] *= inv; p.g[i] *= inv; p.b[i] *= inv
            }
        }.apply(extent: engine.extent, inputs: [engine]))
    }

    /// A hint to keep this image's pixels once computed. The engine decides what to materialise itself, so the
    /// image is returned as it is.
    open func insertingIntermediate() -> CIImage { self }
    open func insertingIntermediate(cache: Bool) -> CIImage { self }
    open func insertingTiledIntermediate() -> CIImage { self }

    /// Core Image proposes filters from a face and scene analysis; with no such models here, none are proposed.
    open func autoAdjustmentFilters() -> [CIFilter] { [] }
    open func autoAdjustmentFilters(options: [CIImageAutoAdjustmentOption: Any]?) -> [CIFilter] { [] }

    /// The image's colours as CIE L*a*b* (L in 0…100), and back (CIConvertRGBtoLab / CIConvertLabToRGB).
    open func convertingWorkingSpaceToLab() -> CIImage {
        applyingFilter("CIConvertRGBtoLab", parameters: ["inputNormalize": false])
    }

    open func convertingLabToWorkingSpace() -> CIImage {
        applyingFilter("CIConvertLabToRGB", parameters: ["inputNormalize": false])
    }

    /// Colour matching into and out of the working space. Every source here is sRGB-encoded or linear sRGB and
    /// already decoded to the working space, so these return the image as it is (P3 primaries are not converted).
    open func matchedToWorkingSpace(from colorSpace: CGColorSpace) -> CIImage? { self }
    open func matchedFromWorkingSpace(to colorSpace: CGColorSpace) -> CIImage? { self }

    /// The same pixels with other metadata.
    open func settingProperties(_ properties: [AnyHashable: Any]) -> CIImage {
        var dict: [String: Any] = [:]
        for (k, v) in properties { if let k = k as? String { dict[k] = v } }
        return CIImage(engine: engine, samplesNearest: samplesNearest, properties: dict, url: url,
                       colorSpace: colorSpace, cgImage: cgImage)
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    open override var description: String { "<CIImage: extent \(extent)>" }

    // MARK: Swift 3 names

    // Apple's SDKs reject these pre-Swift-4 spellings; here they still compile, with a deprecation warning,
    // so that older code ports unchanged.
    @available(*, deprecated, renamed: "cropped(to:)")
    open func cropping(to rect: CGRect) -> CIImage { cropped(to: rect) }

    @available(*, deprecated, renamed: "applyingFilter(_:parameters:)")
    open func applyingFilter(_ filterName: String, withInputParameters params: [String: Any]?) -> CIImage {
        applyingFilter(filterName, parameters: params ?? [:])
    }

    @available(*, deprecated, renamed: "transformed(by:)")
    open func applying(_ matrix: CGAffineTransform) -> CIImage { transformed(by: matrix) }
}
