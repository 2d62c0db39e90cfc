import Foundation

/// A minimal Core Graphics colour: RGBA components in a colour space (sRGB by default).
public final class CGColor: @unchecked Sendable, Equatable, CustomStringConvertible {
    public let components: [CGFloat]?
    public let colorSpace: CGColorSpace?

    /// Apple's initialiser (macOS 10.5, iOS 13): an sRGB colour.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        components = [red, green, blue, alpha]
        colorSpace = CGColorSpace(name: CGColorSpace.sRGB)
    }

    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// A grey in the generic grey space: components (grey, alpha).
    public init(gray: CGFloat, alpha: CGFloat) {
        components = [gray, alpha]
        colorSpace = CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)
    }

    public static let black = CGColor(gray: 0, alpha: 1)
    public static let white = CGColor(gray: 1, alpha: 1)
    public static let clear = CGColor(gray: 0, alpha: 0)

    public init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        self.components = Array(UnsafeBufferPointer(start: components, count: space.numberOfComponents + 1))
        colorSpace = space
    }

    public var numberOfComponents: Int { components?.count ?? 0 }
    public var alpha: CGFloat { components?.last ?? 1 }

    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs.components == rhs.components && lhs.colorSpace == rhs.colorSpace
    }

    public var description: String { "<CGColor \(components ?? [])>" }
}

/// Core Foundation's null, which Core Image options take for "none" (`.workingColorSpace: kCFNull`).
/// Swift on Linux has no CFNull: this is an NSNull, which the options check for.
public let kCFNull = NSNull()
