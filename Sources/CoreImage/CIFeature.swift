import Foundation

/// Feature types, the `type` of what a CIDetector finds.
public let CIFeatureTypeFace = "Face"
public let CIFeatureTypeRectangle = "Rectangle"
public let CIFeatureTypeQRCode = "QRCode"
public let CIFeatureTypeText = "Text"

/// Something a CIDetector found in an image: its type and the rectangle around it, in the image's
/// coordinates (Core Image's: origin at the bottom left, y up).
open class CIFeature: NSObject, @unchecked Sendable {
    open var type: String { "" }
    public let bounds: CGRect

    init(bounds: CGRect) {
        self.bounds = bounds
        super.init()
    }
}

/// The four corners of a found shape, as it appears in perspective, in image coordinates. "Top left" is the
/// shape's own corner (for a QR code, the one with a finder pattern opposite the lone corner), which need not
/// be the image's upper-left one when the shape is turned.
struct Corners: Equatable {
    var topLeft: CGPoint, topRight: CGPoint, bottomLeft: CGPoint, bottomRight: CGPoint

    var all: [CGPoint] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// The smallest rectangle holding the four corners.
    var bounds: CGRect {
        let xs = all.map(\.x), ys = all.map(\.y)
        let minX = xs.min()!, minY = ys.min()!
        return CGRect(x: minX, y: minY, width: xs.max()! - minX, height: ys.max()! - minY)
    }
}

/// A rectangle found by a `CIDetectorTypeRectangle` detector: a quadrilateral that may be a rectangle seen in
/// perspective.
open class CIRectangleFeature: CIFeature, @unchecked Sendable {
    open override var type: String { CIFeatureTypeRectangle }
    public let topLeft: CGPoint
    public let topRight: CGPoint
    public let bottomLeft: CGPoint
    public let bottomRight: CGPoint

    init(corners: Corners) {
        topLeft = corners.topLeft
        topRight = corners.topRight
        bottomLeft = corners.bottomLeft
        bottomRight = corners.bottomRight
        super.init(bounds: corners.bounds)
    }
}

/// A QR code found by a `CIDetectorTypeQRCode` detector: its corners, its message and its descriptor (from
/// which CIBarcodeGenerator draws the same symbol again).
open class CIQRCodeFeature: CIFeature, NSSecureCoding, NSCopying, @unchecked Sendable {
    open override var type: String { CIFeatureTypeQRCode }
    public let topLeft: CGPoint
    public let topRight: CGPoint
    public let bottomLeft: CGPoint
    public let bottomRight: CGPoint
    /// The message as text (UTF-8 or the character set the symbol declares); nil when it is not text.
    public let messageString: String?
    public let symbolDescriptor: CIQRCodeDescriptor?

    init(corners: Corners, messageString: String?, symbolDescriptor: CIQRCodeDescriptor?) {
        topLeft = corners.topLeft
        topRight = corners.topRight
        bottomLeft = corners.bottomLeft
        bottomRight = corners.bottomRight
        self.messageString = messageString
        self.symbolDescriptor = symbolDescriptor
        super.init(bounds: Corners(topLeft: topLeft, topRight: topRight, bottomLeft: bottomLeft, bottomRight: bottomRight).bounds)
    }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        for (key, point) in [("topLeft", topLeft), ("topRight", topRight), ("bottomLeft", bottomLeft), ("bottomRight", bottomRight)] {
            coder.encode(Double(point.x), forKey: key + ".x")
            coder.encode(Double(point.y), forKey: key + ".y")
        }
        coder.encode(messageString, forKey: "messageString")
        coder.encode(symbolDescriptor, forKey: "symbolDescriptor")
    }

    public required init?(coder: NSCoder) {
        func point(_ key: String) -> CGPoint {
            CGPoint(x: coder.decodeDouble(forKey: key + ".x"), y: coder.decodeDouble(forKey: key + ".y"))
        }
        topLeft = point("topLeft")
        topRight = point("topRight")
        bottomLeft = point("bottomLeft")
        bottomRight = point("bottomRight")
        messageString = coder.decodeObject(forKey: "messageString") as? String
        symbolDescriptor = coder.decodeObject(forKey: "symbolDescriptor") as? CIQRCodeDescriptor
        super.init(bounds: Corners(topLeft: topLeft, topRight: topRight, bottomLeft: bottomLeft, bottomRight: bottomRight).bounds)
    }

    /// Immutable: a copy is the feature itself.
    open func copy(with zone: NSZone? = nil) -> Any { self }
}

/// A face found by a `CIDetectorTypeFace` detector. There is no face model on Linux, so no detector makes
/// one; the class exists so that code handling faces compiles.
open class CIFaceFeature: CIFeature, @unchecked Sendable {
    open override var type: String { CIFeatureTypeFace }
    public let hasLeftEyePosition = false
    public let leftEyePosition = CGPoint.zero
    public let hasRightEyePosition = false
    public let rightEyePosition = CGPoint.zero
    public let hasMouthPosition = false
    public let mouthPosition = CGPoint.zero
    public let hasTrackingID = false
    public let trackingID: Int32 = 0
    public let hasTrackingFrameCount = false
    public let trackingFrameCount: Int32 = 0
    public let hasFaceAngle = false
    public let faceAngle: Float = 0
    public let hasSmile = false
    public let leftEyeClosed = false
    public let rightEyeClosed = false
}

/// A region of text found by a `CIDetectorTypeText` detector. There is no text model on Linux, so no detector
/// makes one; the class exists so that code handling text compiles.
open class CITextFeature: CIFeature, @unchecked Sendable {
    open override var type: String { CIFeatureTypeText }
    public let topLeft = CGPoint.zero
    public let topRight = CGPoint.zero
    public let bottomLeft = CGPoint.zero
    public let bottomRight = CGPoint.zero
    public let subFeatures: [Any]? = nil
}
