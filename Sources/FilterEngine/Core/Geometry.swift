import Foundation

/// A rectangle in image space (origin bottom-left, y up, in pixels). It may be infinite, as generators are.
public struct Rect: Sendable, Equatable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// Core Image's infinite rectangle: every coordinate is inside.
    public static let infinite = Rect(x: -.greatestFiniteMagnitude / 2, y: -.greatestFiniteMagnitude / 2,
                                      width: .greatestFiniteMagnitude, height: .greatestFiniteMagnitude)
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var isInfinite: Bool { width >= .greatestFiniteMagnitude / 2 || height >= .greatestFiniteMagnitude / 2 }
    public var isEmpty: Bool { !(width > 0 && height > 0) }
    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    public func intersection(_ other: Rect) -> Rect {
        if isInfinite { return other }
        if other.isInfinite { return self }
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return .zero }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        if isInfinite || other.isInfinite { return .infinite }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// Grows (negative: shrinks) each side by dx, dy.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        if isInfinite || isEmpty { return self }
        return Rect(x: x + dx, y: y + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
    }

    /// The smallest rectangle of whole pixels containing this one.
    public var integral: Rect {
        if isInfinite || isEmpty { return self }
        let x0 = (minX + 1e-9).rounded(.down), y0 = (minY + 1e-9).rounded(.down)
        return Rect(x: x0, y: y0, width: (maxX - 1e-9).rounded(.up) - x0, height: (maxY - 1e-9).rounded(.up) - y0)
    }

    public func contains(x px: Double, y py: Double) -> Bool {
        px >= minX && px < maxX && py >= minY && py < maxY
    }

    public var description: String {
        isInfinite ? "infinite" : "[\(formatNumber(x)) \(formatNumber(y)) \(formatNumber(width)) \(formatNumber(height))]"
    }
}

/// A rectangle of whole pixels: the renderer's unit of work.
public struct PixelRect: Sendable, Equatable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = max(0, width); self.height = max(0, height)
    }

    /// Whole pixels covering `rect`, limited to ±2^28 so that infinite extents stay representable.
    public init(covering rect: Rect) {
        let limit = Double(1 << 28)
        let r = rect.integral
        let x0 = max(-limit, min(limit, r.minX)), y0 = max(-limit, min(limit, r.minY))
        let x1 = max(-limit, min(limit, r.maxX)), y1 = max(-limit, min(limit, r.maxY))
        self.init(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }

    public static let empty = PixelRect(x: 0, y: 0, width: 0, height: 0)
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var area: Int { width * height }
    public var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }

    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return .empty }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    public func contains(_ other: PixelRect) -> Bool {
        other.isEmpty || (other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY)
    }

    public func insetBy(dx: Int, dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    public var description: String { "[\(x) \(y) \(width) \(height)]" }
}

/// An affine transform as Core Image's CGAffineTransform: x' = a x + c y + tx, y' = b x + d y + ty.
public struct AffineTransform: Sendable, Equatable, CustomStringConvertible {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public init(_ values: [Double]) {
        precondition(values.count == 6)
        self.init(a: values[0], b: values[1], c: values[2], d: values[3], tx: values[4], ty: values[5])
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    public static func translation(x: Double, y: Double) -> AffineTransform { .init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    public static func scale(x: Double, y: Double) -> AffineTransform { .init(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0) }
    public static func rotation(_ angle: Double) -> AffineTransform {
        .init(a: cos(angle), b: sin(angle), c: -sin(angle), d: cos(angle), tx: 0, ty: 0)
    }

    public var values: [Double] { [a, b, c, d, tx, ty] }
    public var determinant: Double { a * d - b * c }
    public var isInvertible: Bool { abs(determinant) > 1e-12 && determinant.isFinite }

    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    /// This transform followed by `next`.
    public func concatenating(_ next: AffineTransform) -> AffineTransform {
        AffineTransform(a: a * next.a + b * next.c, b: a * next.b + b * next.d,
                        c: c * next.a + d * next.c, d: c * next.b + d * next.d,
                        tx: tx * next.a + ty * next.c + next.tx, ty: tx * next.b + ty * next.d + next.ty)
    }

    public var inverted: AffineTransform {
        let det = determinant
        return AffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                               tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// Bounding box of a transformed rectangle.
    public func apply(to rect: Rect) -> Rect {
        if rect.isInfinite || rect.isEmpty { return rect }
        let corners = [apply(x: rect.minX, y: rect.minY), apply(x: rect.maxX, y: rect.minY),
                       apply(x: rect.minX, y: rect.maxY), apply(x: rect.maxX, y: rect.maxY)]
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    public var isIntegerTranslation: Bool {
        a == 1 && b == 0 && c == 0 && d == 1 && tx == tx.rounded() && ty == ty.rounded()
    }

    public var description: String { "[" + values.map(formatNumber).joined(separator: " ") + "]" }
}

/// Trigonometry for per-pixel loops.
public enum FastTrig {
    /// Sine and cosine within 1e-7 of the exact values for moderate arguments, in plain arithmetic the compiler
    /// vectorises across pixels (`sinf`/`cosf` are a library call each). sinCos(0) is exactly (0, 1); huge
    /// arguments lose precision, as floats do; NaN gives NaN.
    @inline(__always) public static func sinCos(_ x: Float) -> (sin: Float, cos: Float) {
        // x = q·π/2 + r with |r| ≤ π/4: π/2 split in two floats and fused multiply-adds, so that r keeps its
        // precision. Rounding to nearest even is one instruction; `.rounded()` (ties away) calls roundf.
        let q = (x * (2 / Float.pi)).rounded(.toNearestOrEven)
        let r = x.addingProduct(-q, 1.5707963705062866).addingProduct(-q, -4.3711388286737929e-8)
        let r2 = r * r
        // Taylor series to r⁹ and r⁸: the next terms are below 3e-8 at π/4.
        let s = r + r * r2 * (-1 / 6 + r2 * (1 / 120 + r2 * (-1 / 5040 + r2 * (1 / 362_880))))
        let c = 1 + r2 * (-1 / 2 + r2 * (1 / 24 + r2 * (-1 / 720 + r2 * (1 / 40320))))
        // The quadrant, q mod 4, kept in floats: an integer conversion of a huge q would be undefined.
        let quadrant = q - 4 * (q * 0.25).rounded(.down)
        let swapped = quadrant == 1 || quadrant == 3
        let sine = swapped ? c : s, cosine = swapped ? s : c
        return (quadrant >= 2 ? -sine : sine, quadrant == 1 || quadrant == 2 ? -cosine : cosine)
    }
}
