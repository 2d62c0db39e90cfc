import Foundation

/// An immutable colour: red, green, blue and alpha in a colour space (sRGB by default), alpha straight.
/// Components may leave 0…1 (extended range), as on Apple's systems.
open class CIColor: NSObject, NSCopying, @unchecked Sendable {
    public let red: CGFloat
    public let green: CGFloat
    public let blue: CGFloat
    public let alpha: CGFloat
    public let colorSpace: CGColorSpace

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        colorSpace = CGColorSpace(name: CGColorSpace.sRGB)!
    }

    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: 1)
    }

    /// A colour in an RGB space (nil for a grey space, as Core Image).
    public init?(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat = 1, colorSpace: CGColorSpace) {
        guard !colorSpace.isGray else { return nil }
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        self.colorSpace = colorSpace
    }

    /// Parses Core Image's string form "r g b a" (alpha optional), e.g. "0.5 0.7 0.3 1.0".
    public convenience init(string representation: String) {
        let v = CIVector(string: representation)
        self.init(red: v.value(at: 0), green: v.value(at: 1), blue: v.value(at: 2), alpha: v.count > 3 ? v.value(at: 3) : 1)
    }

    /// The colour of a CGColor (a grey colour's one component is used for red, green and blue).
    public convenience init(cgColor c: CGColor) {
        let v = c.components ?? [0, 1]
        if v.count >= 4, let space = c.colorSpace {
            self.init(red: v[0], green: v[1], blue: v[2], alpha: v[3], colorSpace: space)!
        } else {
            let grey = v.first ?? 0
            self.init(red: grey, green: grey, blue: grey, alpha: v.count > 1 ? v[1] : 1)
        }
    }

    public var numberOfComponents: Int { 4 }
    public var components: [CGFloat] { [red, green, blue, alpha] }
    /// "r g b a", which `init(string:)` reads back.
    public var stringRepresentation: String { components.map { formatted($0) }.joined(separator: " ") }

    public static let black = CIColor(red: 0, green: 0, blue: 0)
    public static let white = CIColor(red: 1, green: 1, blue: 1)
    public static let gray = CIColor(red: 0.5, green: 0.5, blue: 0.5)
    public static let red = CIColor(red: 1, green: 0, blue: 0)
    public static let green = CIColor(red: 0, green: 1, blue: 0)
    public static let blue = CIColor(red: 0, green: 0, blue: 1)
    public static let cyan = CIColor(red: 0, green: 1, blue: 1)
    public static let magenta = CIColor(red: 1, green: 0, blue: 1)
    public static let yellow = CIColor(red: 1, green: 1, blue: 0)
    public static let clear = CIColor(red: 0, green: 0, blue: 0, alpha: 0)

    public func copy(with zone: NSZone? = nil) -> Any { self }

    open override var description: String { "<CIColor: \(stringRepresentation)>" }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CIColor else { return false }
        return components == other.components && colorSpace == other.colorSpace
    }

    open override var hash: Int { components.hashValue }

    /// The components sRGB-encoded, as the engine's colours hold them (linear spaces are encoded here).
    var sRGBComponents: [Double] {
        let rgb = [red, green, blue].map(Double.init)
        let encoded = colorSpace.isLinear ? rgb.map(Self.encodeSRGB) : rgb
        return encoded + [Double(alpha)]
    }

    /// The sRGB transfer curve, extended to negative values by symmetry.
    static func encodeSRGB(_ v: Double) -> Double {
        let m = abs(v)
        let e = m <= 0.0031308 ? 12.92 * m : 1.055 * pow(m, 1 / 2.4) - 0.055
        return v < 0 ? -e : e
    }

    static func decodeSRGB(_ v: Double) -> Double {
        let m = abs(v)
        let d = m <= 0.04045 ? m / 12.92 : pow((m + 0.055) / 1.055, 2.4)
        return v < 0 ? -d : d
    }
}
