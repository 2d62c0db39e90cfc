import Foundation

/// A colour space, known by its Core Graphics name. Rendering here knows two encodings: sRGB's transfer curve
/// (sRGB, Display P3, the extended variants, device RGB) and linear light (the linear variants). Primaries are
/// not converted: Display P3 is treated as sRGB (see the porting table in docs/porting.md).
public final class CGColorSpace: Hashable, @unchecked Sendable, CustomStringConvertible {
    // Apple's names are CFStrings; Swift on Linux has no CFString, so they are Strings with the same values.
    public static let sRGB = "kCGColorSpaceSRGB"
    public static let linearSRGB = "kCGColorSpaceLinearSRGB"
    public static let extendedSRGB = "kCGColorSpaceExtendedSRGB"
    public static let extendedLinearSRGB = "kCGColorSpaceExtendedLinearSRGB"
    public static let displayP3 = "kCGColorSpaceDisplayP3"
    public static let extendedDisplayP3 = "kCGColorSpaceExtendedDisplayP3"
    public static let linearDisplayP3 = "kCGColorSpaceLinearDisplayP3"
    public static let extendedLinearDisplayP3 = "kCGColorSpaceExtendedLinearDisplayP3"
    public static let genericRGBLinear = "kCGColorSpaceGenericRGBLinear"
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"
    public static let linearGray = "kCGColorSpaceLinearGray"
    public static let extendedGray = "kCGColorSpaceExtendedGray"
    public static let extendedLinearGray = "kCGColorSpaceExtendedLinearGray"
    public static let itur_709 = "kCGColorSpaceITUR_709"
    public static let itur_2020 = "kCGColorSpaceITUR_2020"
    public static let adobeRGB1998 = "kCGColorSpaceAdobeRGB1998"
    /// Device RGB has no name in Core Graphics; here it is sRGB.
    static let deviceRGBName = "kCGColorSpaceDeviceRGB"

    private static let known: Set<String> = [
        sRGB, linearSRGB, extendedSRGB, extendedLinearSRGB, displayP3, extendedDisplayP3, linearDisplayP3,
        extendedLinearDisplayP3, genericRGBLinear, genericGrayGamma2_2, linearGray, extendedGray, extendedLinearGray,
        itur_709, itur_2020, adobeRGB1998, deviceRGBName,
    ]

    /// The space's name (Apple: `CFString?`).
    public let name: String?

    /// The space of a Core Graphics name, or nil for a name not known here.
    public init?(name: String) {
        guard Self.known.contains(name) else { return nil }
        self.name = name
    }

    /// Whether values in this space are linear light (otherwise they carry the sRGB curve).
    public var isLinear: Bool {
        guard let name else { return false }
        return name.contains("Linear")
    }

    /// Whether components may leave 0…1 (Apple's extended spaces). Rendering to 8-bit formats clamps anyway.
    public var isExtended: Bool { name?.contains("Extended") ?? false }

    public var isGray: Bool { name?.contains("Gray") ?? false }
    public var numberOfComponents: Int { isGray ? 1 : 3 }

    public static func == (lhs: CGColorSpace, rhs: CGColorSpace) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { "<CGColorSpace \(name ?? "unnamed")>" }
}

public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace(name: CGColorSpace.deviceRGBName)! }
public func CGColorSpaceCreateWithName(_ name: String) -> CGColorSpace? { CGColorSpace(name: name) }
