import Foundation

/// An immutable vector of CGFloat values: points, rectangles, colour-matrix rows, convolution weights.
open class CIVector: NSObject, NSCopying, @unchecked Sendable {
    private let storage: [CGFloat]

    public init(values: UnsafePointer<CGFloat>, count: Int) {
        storage = Array(UnsafeBufferPointer(start: values, count: max(0, count)))
    }

    /// The values of an array (Swift's `[CGFloat]` also passes to `init(values:count:)`).
    public init(values: [CGFloat]) { storage = values }

    public convenience init(x: CGFloat) { self.init(values: [x]) }
    public convenience init(x: CGFloat, y: CGFloat) { self.init(values: [x, y]) }
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat) { self.init(values: [x, y, z]) }
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { self.init(values: [x, y, z, w]) }
    public convenience init(cgPoint p: CGPoint) { self.init(values: [p.x, p.y]) }
    /// A vector as (dx, dy), as an offset input (CIAttributeTypeOffset) takes it.
    public convenience init(cgVector v: CGVector) { self.init(values: [v.dx, v.dy]) }
    /// A rectangle as (x, y, width, height).
    public convenience init(cgRect r: CGRect) { self.init(values: [r.origin.x, r.origin.y, r.size.width, r.size.height]) }
    /// A transform as (a, b, c, d, tx, ty).
    public convenience init(cgAffineTransform t: CGAffineTransform) { self.init(values: [t.a, t.b, t.c, t.d, t.tx, t.ty]) }

    /// Parses Core Image's string form, e.g. "[1.0 0.5 0.3]" (brackets optional, spaces or commas between values).
    public convenience init(string representation: String) {
        let numbers = representation
            .split(whereSeparator: { " ,[]\t\n".contains($0) })
            .compactMap { Double($0) }
            .map { CGFloat($0) }
        self.init(values: numbers)
    }

    public var count: Int { storage.count }
    /// The value at `index`, 0 beyond the end (as Core Image).
    public func value(at index: Int) -> CGFloat { index >= 0 && index < storage.count ? storage[index] : 0 }
    public var x: CGFloat { value(at: 0) }
    public var y: CGFloat { value(at: 1) }
    public var z: CGFloat { value(at: 2) }
    public var w: CGFloat { value(at: 3) }
    public var cgPointValue: CGPoint { CGPoint(x: x, y: y) }
    public var cgVectorValue: CGVector { CGVector(dx: x, dy: y) }
    public var cgRectValue: CGRect { CGRect(x: x, y: y, width: z, height: w) }
    public var cgAffineTransformValue: CGAffineTransform {
        CGAffineTransform(a: value(at: 0), b: value(at: 1), c: value(at: 2), d: value(at: 3), tx: value(at: 4), ty: value(at: 5))
    }

    /// "[x y z …]", as Core Image prints it.
    public var stringRepresentation: String {
        "[" + storage.map { formatted($0) }.joined(separator: " ") + "]"
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    open override var description: String { "<CIVector: \(stringRepresentation)>" }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CIVector else { return false }
        return storage == other.storage
    }

    open override var hash: Int { storage.hashValue }

    var doubles: [Double] { storage.map(Double.init) }
}

/// A number printed the shortest way that reads back the same.
func formatted(_ v: CGFloat) -> String {
    let d = Double(v)
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return String(d)
}
