import Foundation

/// The colour spaces a colour table or curve can be defined in (the `inputColorSpace` of CIColorCubeWithColorSpace,
/// CIColorCubesMixedWithMask and CIColorCurves), given by name. Core Image takes a CGColorSpace there; here
/// the common ones are named: "sRGB", "linear" (linear-light sRGB, the working space) and "Display P3".
public enum NamedColorSpace: String, Sendable, CaseIterable {
    case sRGB = "sRGB"
    case linear = "linear"
    case displayP3 = "Display P3"

    /// Names accepted for each space (compared case-insensitively, ignoring spaces, dashes and underscores).
    static let aliases: [NamedColorSpace: [String]] = [
        .sRGB: ["srgb", "kcgcolorspacesrgb", "srgbiec6196621"],
        .linear: ["linear", "linearsrgb", "srgblinear", "kcgcolorspacelinearsrgb", "working"],
        .displayP3: ["displayp3", "p3", "kcgcolorspacedisplayp3"],
    ]

    /// The space of that name, or an error listing the names understood.
    public init(name: String) throws {
        let key = name.lowercased().filter { !" -_".contains($0) }
        guard let space = NamedColorSpace.allCases.first(where: { Self.aliases[$0]!.contains(key) }) else {
            throw FilterError("unknown colour space \"\(name)\": use \(NamedColorSpace.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
        }
        self = space
    }

    /// Linear sRGB → linear Display P3 (both D65), from the primaries: XYZ of sRGB, then into P3.
    static let linearSRGBToP3: [Float] = {
        // Both from their primaries and the same D65, so that white maps exactly to white.
        let d65 = (0.3127, 0.3290)
        let p3ToXYZ = rgbToXYZ(primaries: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], white: d65)
        let srgbToXYZ = rgbToXYZ(primaries: [(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)], white: d65)
        let m = Matrix3.product(Matrix3.inverse(p3ToXYZ), srgbToXYZ)
        return m.flatMap { $0.map(Float.init) }
    }()

    static let linearP3ToSRGB: [Float] = {
        let m = (0..<3).map { i in (0..<3).map { j in Double(linearSRGBToP3[i * 3 + j]) } }
        return Matrix3.inverse(m).flatMap { $0.map(Float.init) }
    }()

    /// The RGB → XYZ matrix of an RGB space with these xy primaries and white point (white maps to Y = 1).
    static func rgbToXYZ(primaries: [(Double, Double)], white: (Double, Double)) -> [[Double]] {
        let columns = primaries.map { [$0.0 / $0.1, 1, (1 - $0.0 - $0.1) / $0.1] }
        let m = (0..<3).map { i in (0..<3).map { j in columns[j][i] } }
        let w = [white.0 / white.1, 1, (1 - white.0 - white.1) / white.1]
        let s = Matrix3.multiply(Matrix3.inverse(m), w)
        return (0..<3).map { i in (0..<3).map { j in m[i][j] * s[j] } }
    }

    /// Straight working-space colour (linear sRGB) of a span → this space, in place.
    @inline(__always) func fromWorking(_ p: PlanarRow, _ count: Int) {
        switch self {
        case .linear: break
        case .sRGB: SpanColor.encodeSRGB(p, count)
        case .displayP3:
            SpanColor.multiply(p, count, Self.linearSRGBToP3)
            SpanColor.encodeSRGB(p, count)
        }
    }

    /// This space → straight working-space colour, in place.
    @inline(__always) func toWorking(_ p: PlanarRow, _ count: Int) {
        switch self {
        case .linear: break
        case .sRGB: SpanColor.decodeSRGB(p, count)
        case .displayP3:
            SpanColor.decodeSRGB(p, count)
            SpanColor.multiply(p, count, Self.linearP3ToSRGB)
        }
    }

    /// One colour, working space → this space (for building tables, not per pixel).
    func fromWorking(_ c: SIMD3<Float>) -> SIMD3<Float> {
        var v = c
        if self == .displayP3 {
            let m = Self.linearSRGBToP3
            v = SIMD3(m[0] * c.x + m[1] * c.y + m[2] * c.z, m[3] * c.x + m[4] * c.y + m[5] * c.z,
                      m[6] * c.x + m[7] * c.y + m[8] * c.z)
        }
        if self == .linear { return v }
        return SIMD3(ColorMath.sRGB(fromLinear: v.x), ColorMath.sRGB(fromLinear: v.y), ColorMath.sRGB(fromLinear: v.z))
    }

    /// One colour, this space → working space.
    func toWorking(_ c: SIMD3<Float>) -> SIMD3<Float> {
        if self == .linear { return c }
        let v = SIMD3(ColorMath.linear(fromSRGB: c.x), ColorMath.linear(fromSRGB: c.y), ColorMath.linear(fromSRGB: c.z))
        guard self == .displayP3 else { return v }
        let m = Self.linearP3ToSRGB
        return SIMD3(m[0] * v.x + m[1] * v.y + m[2] * v.z, m[3] * v.x + m[4] * v.y + m[5] * v.z,
                     m[6] * v.x + m[7] * v.y + m[8] * v.z)
    }
}

extension FilterInputs {
    /// The colour space named by an optional `inputColorSpace`-like key; nil (work in the working space) when
    /// unset.
    func colorSpace(_ key: String) throws -> NamedColorSpace? {
        guard try has(key) else { return nil }
        do {
            return try NamedColorSpace(name: try string(key))
        } catch let error as FilterError {
            throw FilterError("\(descriptor.name).\(key): \(error.message)")
        }
    }
}

