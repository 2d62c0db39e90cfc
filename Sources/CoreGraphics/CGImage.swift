import Foundation

/// Where alpha sits in a pixel and whether colour is premultiplied by it (Apple's raw values).
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none = 0, premultipliedLast, premultipliedFirst, last, first, noneSkipLast, noneSkipFirst, alphaOnly
}

/// Bitmap layout flags. Only the alpha-info bits are read here (pixels are always bytes in memory order).
public struct CGBitmapInfo: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    public static let byteOrderDefault = CGBitmapInfo([])
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
}

public enum CGColorRenderingIntent: Int32, Sendable {
    case defaultIntent, absoluteColorimetric, relativeColorimetric, perceptual, saturation
}

/// The bytes behind an image (Apple's `data` is a `CFData`; here it is `Data`).
public final class CGDataProvider: @unchecked Sendable {
    public let data: Data?
    public init?(data: Data) { self.data = data }
}

/// A minimal Core Graphics image: 8-bit RGBA pixels in memory, rows top to bottom, as Core Image's
/// `createCGImage` makes them. It can be read back as pixels (`dataProvider?.data`) or turned into a `CIImage`.
public final class CGImage: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let bitsPerComponent: Int
    public let bitsPerPixel: Int
    public let bytesPerRow: Int
    public let colorSpace: CGColorSpace?
    public let bitmapInfo: CGBitmapInfo
    public let dataProvider: CGDataProvider?
    public let shouldInterpolate: Bool
    public let renderingIntent: CGColorRenderingIntent

    /// Apple's initialiser. Supported layouts: 8 bits per component, 32 bits per pixel, RGBA or RGBX
    /// (`alphaInfo` .premultipliedLast, .last, .noneSkipLast); other layouts return nil.
    public init?(width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int,
                 space: CGColorSpace, bitmapInfo: CGBitmapInfo, provider: CGDataProvider,
                 decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool, intent: CGColorRenderingIntent) {
        let alpha = CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue)
        guard width > 0, height > 0, bitsPerComponent == 8, bitsPerPixel == 32, bytesPerRow >= width * 4,
              let alpha, [.premultipliedLast, .last, .noneSkipLast].contains(alpha),
              let data = provider.data, data.count >= bytesPerRow * (height - 1) + width * 4
        else { return nil }
        self.width = width
        self.height = height
        self.bitsPerComponent = 8
        self.bitsPerPixel = 32
        self.bytesPerRow = bytesPerRow
        self.colorSpace = space
        self.bitmapInfo = bitmapInfo
        self.dataProvider = provider
        self.shouldInterpolate = shouldInterpolate
        self.renderingIntent = intent
    }

    /// The pixels inside `rect` (top-left origin, as Core Graphics counts image rows), or nil when it misses
    /// the image.
    public func cropping(to rect: CGRect) -> CGImage? {
        let r = rect.standardized.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !r.isNull, !r.isEmpty, let data = dataProvider?.data else { return nil }
        let x = Int(r.minX), y = Int(r.minY), w = Int(r.width), h = Int(r.height)
        var bytes = Data(count: w * 4 * h)
        bytes.withUnsafeMutableBytes { target in
            data.withUnsafeBytes { source in
                for row in 0..<h {
                    let from = (y + row) * bytesPerRow + x * 4
                    target.baseAddress!.advanced(by: row * w * 4).copyMemory(from: source.baseAddress!.advanced(by: from), byteCount: w * 4)
                }
            }
        }
        return CGImage(width: w, height: h, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: w * 4,
                       space: colorSpace ?? CGColorSpace(name: CGColorSpace.sRGB)!, bitmapInfo: bitmapInfo,
                       provider: CGDataProvider(data: bytes)!, decode: nil, shouldInterpolate: shouldInterpolate,
                       intent: renderingIntent)
    }

    public func copy() -> CGImage? { self }

    public var alphaInfo: CGImageAlphaInfo {
        CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue) ?? .premultipliedLast
    }
}
