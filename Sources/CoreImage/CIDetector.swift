import Foundation
internal import FilterEngine

// Detector types.
public let CIDetectorTypeFace = "CIDetectorTypeFace"
public let CIDetectorTypeRectangle = "CIDetectorTypeRectangle"
public let CIDetectorTypeQRCode = "CIDetectorTypeQRCode"
public let CIDetectorTypeText = "CIDetectorTypeText"

// Options for making a detector.
public let CIDetectorAccuracy = "CIDetectorAccuracy"
public let CIDetectorAccuracyLow = "CIDetectorAccuracyLow"
public let CIDetectorAccuracyHigh = "CIDetectorAccuracyHigh"
public let CIDetectorTracking = "CIDetectorTracking"
public let CIDetectorMinFeatureSize = "CIDetectorMinFeatureSize"
public let CIDetectorMaxFeatureCount = "CIDetectorMaxFeatureCount"
public let CIDetectorNumberOfAngles = "CIDetectorNumberOfAngles"
public let CIDetectorFocalLength = "CIDetectorFocalLength"
public let CIDetectorAspectRatio = "CIDetectorAspectRatio"

// Options for `features(in:options:)`.
public let CIDetectorImageOrientation = "CIDetectorImageOrientation"
public let CIDetectorEyeBlink = "CIDetectorEyeBlink"
public let CIDetectorSmile = "CIDetectorSmile"
public let CIDetectorReturnSubFeatures = "CIDetectorReturnSubFeatures"

/// Finds features in images: QR codes (read with zxing-cpp) and rectangles (this module's own finder).
/// Face and text detectors exist but find nothing: their models are not available on Linux.
///
/// Options: `CIDetectorAccuracyLow` makes the QR reader quicker and less thorough. For rectangles,
/// `CIDetectorMinFeatureSize` (0.2 by default: the shorter side's share of the image's shorter side),
/// `CIDetectorMaxFeatureCount` (1 by default, up to 256) and `CIDetectorAspectRatio` (the longer side over the
/// shorter, within 25%) are honoured. The other options are accepted and change nothing: the QR reader and the
/// rectangle finder work in any orientation, so `CIDetectorImageOrientation` is not needed.
open class CIDetector: NSObject, @unchecked Sendable {
    enum Kind { case qrCode, rectangle, face, text }

    let kind: Kind
    let context: CIContext
    let options: [String: Any]

    /// A detector of `type` (`CIDetectorTypeQRCode` …); nil for an unknown type. `context` renders the images
    /// (a new one when nil).
    public init?(ofType type: String, context: CIContext?, options: [String: Any]?) {
        switch type {
        case CIDetectorTypeQRCode: kind = .qrCode
        case CIDetectorTypeRectangle: kind = .rectangle
        case CIDetectorTypeFace: kind = .face
        case CIDetectorTypeText: kind = .text
        default:
            LibraryWarnings.report("CIDetector: unknown detector type \(type) (CIDetectorTypeQRCode, CIDetectorTypeRectangle, CIDetectorTypeFace or CIDetectorTypeText)")
            return nil
        }
        self.context = context ?? CIContext()
        self.options = options ?? [:]
        super.init()
    }

    open func features(in image: CIImage) -> [CIFeature] { features(in: image, options: nil) }

    /// The features found in `image`, in its coordinates (the most prominent first).
    open func features(in image: CIImage, options: [String: Any]?) -> [CIFeature] {
        switch kind {
        case .face, .text:
            LibraryWarnings.report("CIDetector: \(kind == .face ? "face" : "text") detection needs a model that is not available on Linux; no features are returned")
            return []
        case .qrCode:
            guard let pixels = Luminance(image, context: context, paper: 255) else { return [] }
            let thorough = (self.options[CIDetectorAccuracy] as? String) != CIDetectorAccuracyLow
            return QRCodeReader.read(pixels, thorough: thorough)
        case .rectangle:
            guard let pixels = Luminance(image, context: context, paper: 0) else { return [] }
            let minimum = FilterValues.number(self.options[CIDetectorMinFeatureSize]).map { min(max($0, 0), 1) } ?? 0.2
            let count = FilterValues.number(self.options[CIDetectorMaxFeatureCount]).map { Int(min(max($0, 1), 256)) } ?? 1
            let aspect = FilterValues.number(self.options[CIDetectorAspectRatio]).flatMap { $0.isFinite && $0 > 0 ? max($0, 1 / $0) : nil }
            return RectangleFinder(minimumSize: minimum, maximumCount: count, aspectRatio: aspect)
                .find(in: pixels)
                .map { CIRectangleFeature(corners: $0) }
        }
    }
}

/// An image as 8-bit luminance, rows top to bottom, rendered by a CIContext, with where it lies in the
/// image's coordinates.
struct Luminance {
    let width: Int
    let height: Int
    var pixels: [UInt8]
    /// The rendered rectangle: pixel (x, y) covers the point (minX + x + ½, maxY − y − ½).
    let rect: CGRect

    /// Transparent parts show `paper` (255: white, as printed codes are read; 0: black). Nil for an empty or
    /// infinite image, or one too large to render.
    init?(_ image: CIImage, context: CIContext, paper: Int) {
        let extent = image.extent
        guard !extent.isInfinite, !extent.isEmpty, extent.width <= 16384, extent.height <= 16384 else {
            LibraryWarnings.report("CIDetector: the image must have a finite extent of at most 16384 × 16384 pixels, not \(extent)")
            return nil
        }
        let area = extent.integral
        let width = Int(area.width), height = Int(area.height)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        do {
            try rgba.withUnsafeMutableBytes {
                try context.renderChecked(image, toBitmap: $0.baseAddress!, rowBytes: width * 4, bounds: area,
                                          format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
            }
        } catch {
            LibraryWarnings.report("CIDetector: the image cannot be rendered: \(error)")
            return nil
        }
        // Rec. 601 weights on the premultiplied values, plus the paper where the image is transparent.
        var luminance = [UInt8](repeating: 0, count: width * height)
        for i in 0..<width * height {
            let r = Int(rgba[4 * i]), g = Int(rgba[4 * i + 1]), b = Int(rgba[4 * i + 2]), a = Int(rgba[4 * i + 3])
            let y = (77 * r + 150 * g + 29 * b + 128) >> 8
            luminance[i] = UInt8(min(255, y + paper * (255 - a) / 255))
        }
        (self.width, self.height, self.rect, pixels) = (width, height, area, luminance)
    }

    subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }

    /// The image point of a position in pixels (x right, y down, from the rendered rectangle's top-left corner).
    func imagePoint(x: Double, y: Double) -> CGPoint {
        CGPoint(x: rect.minX + CGFloat(x), y: rect.maxY - CGFloat(y))
    }
}
