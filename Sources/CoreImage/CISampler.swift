import Foundation

// Option keys of `CISampler(image:options:)`, with Apple's values.
public let kCISamplerAffineMatrix = "CIAffineMatrix"
public let kCISamplerWrapMode = "CIWrapMode"
public let kCISamplerWrapBlack = "CIWrapBlack"
public let kCISamplerWrapClamp = "CIWrapClamp"
public let kCISamplerFilterMode = "CIFilterMode"
public let kCISamplerFilterNearest = "CIFilterNearest"
public let kCISamplerFilterLinear = "CIFilterLinear"
public let kCISamplerColorSpace = "CIColorSpace"

/// How a kernel reads an image: the image with a wrap mode (transparent black outside, or its edge pixels
/// repeated), a filter mode and an optional affine matrix. A kernel takes a sampler wherever it takes an image.
///
/// The options become the image the kernel reads: `kCISamplerWrapClamp` clamps it to its extent, the affine
/// matrix transforms it, and `kCISamplerFilterNearest` makes that transform sample the nearest pixel. A kernel's
/// own `sample()` calls interpolate bilinearly whatever the filter mode (see the porting table in docs/porting.md).
open class CISampler: NSObject, NSCopying, @unchecked Sendable {
    /// The image as the kernel reads it, options applied.
    let image: CIImage
    /// The rectangle a kernel may read (the source image's extent, transformed by the matrix).
    public let extent: CGRect
    /// The area the sampler covers, as a shape.
    public let definition: CIFilterShape

    public convenience init(image: CIImage) { self.init(image: image, options: nil) }

    public init(image: CIImage, options: [AnyHashable: Any]?) {
        var read = image
        let option = { (key: String) in options?[key] ?? options?[AnyHashable(key as NSString)] }
        if (option(kCISamplerFilterMode) as? String) == kCISamplerFilterNearest { read = read.samplingNearest() }
        if let matrix = option(kCISamplerAffineMatrix), let t = Self.transform(matrix) { read = read.transformed(by: t) }
        extent = read.extent
        if (option(kCISamplerWrapMode) as? String) == kCISamplerWrapClamp { read = read.clampedToExtent() }
        self.image = read
        definition = CIFilterShape(rect: extent)
    }

    /// Apple's affine matrix option: a CIVector, a CGAffineTransform or six numbers (a, b, c, d, tx, ty).
    private static func transform(_ value: Any) -> CGAffineTransform? {
        if let t = value as? CGAffineTransform { return t }
        guard let n = FilterValues.numbers(value), n.count == 6, n.allSatisfy(\.isFinite) else { return nil }
        return CGAffineTransform(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5])
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// A region of the plane: here a rectangle (Core Image's shapes may be unions of rectangles; every operation here
/// keeps their bounding rectangle, which is what `extent` reports anyway).
open class CIFilterShape: NSObject, NSCopying, @unchecked Sendable {
    public let extent: CGRect

    public init(rect: CGRect) { extent = rect }

    open func transformed(by m: CGAffineTransform, interior flag: Bool) -> CIFilterShape {
        guard !extent.isInfinite, !extent.isNull else { return self }
        return CIFilterShape(rect: extent.applying(m))
    }

    open func insetBy(x dx: Int32, y dy: Int32) -> CIFilterShape {
        guard !extent.isInfinite, !extent.isNull else { return self }
        return CIFilterShape(rect: extent.insetBy(dx: CGFloat(dx), dy: CGFloat(dy)))
    }

    open func union(with s2: CIFilterShape) -> CIFilterShape { CIFilterShape(rect: extent.union(s2.extent)) }
    open func union(with r: CGRect) -> CIFilterShape { CIFilterShape(rect: extent.union(r)) }
    open func intersect(with s2: CIFilterShape) -> CIFilterShape { CIFilterShape(rect: extent.intersection(s2.extent)) }
    open func intersect(with r: CGRect) -> CIFilterShape { CIFilterShape(rect: extent.intersection(r)) }

    public func copy(with zone: NSZone? = nil) -> Any { self }
    open override var description: String { "<CIFilterShape: \(extent)>" }
}
