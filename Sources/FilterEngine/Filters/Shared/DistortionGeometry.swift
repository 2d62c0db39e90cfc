import Foundation

/// Disc geometry shared by the warps of the distortion and tile families.
enum DistortionGeometry {
    /// The bounding square of a disc.
    static func discBox(_ cx: Double, _ cy: Double, _ r: Double) -> Rect {
        Rect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r)
    }

    /// The region of interest of a warp that moves points only inside a disc, to points inside that disc:
    /// outside it the output rectangle reads itself; touching it, the disc as well.
    static func discROI(_ cx: Double, _ cy: Double, _ r: Double) -> @Sendable (Rect) -> Rect {
        let disc = discBox(cx, cy, r)
        return { rect in
            rect.intersection(disc).isEmpty ? rect.insetBy(dx: -1, dy: -1) : rect.union(disc).insetBy(dx: -1, dy: -1)
        }
    }

    /// Whether every point of `rect` lies strictly inside the disc (its farthest corner is).
    static func rectInsideDisc(_ rect: Rect, _ cx: Double, _ cy: Double, _ r: Double) -> Bool {
        if rect.isInfinite { return false }
        let dx = max(abs(rect.minX - cx), abs(rect.maxX - cx)), dy = max(abs(rect.minY - cy), abs(rect.maxY - cy))
        return dx * dx + dy * dy < r * r
    }

    /// The smallest and largest distance from a point to the points of a rectangle.
    static func distanceRange(_ rect: Rect, _ cx: Double, _ cy: Double) -> (Double, Double) {
        let nx = min(max(cx, rect.minX), rect.maxX), ny = min(max(cy, rect.minY), rect.maxY)
        let near = ((nx - cx) * (nx - cx) + (ny - cy) * (ny - cy)).squareRoot()
        let fx = max(abs(rect.minX - cx), abs(rect.maxX - cx)), fy = max(abs(rect.minY - cy), abs(rect.maxY - cy))
        return (near, (fx * fx + fy * fy).squareRoot())
    }

    /// Smoothstep on [0, 1]: 0 at 0, 1 at 1, flat at both ends.
    @inline(__always) static func smooth(_ t: Float) -> Float { t * t * (3 - 2 * t) }

    /// A source coordinate that reads nothing (transparent) whatever the input.
    static let nowhere = SIMD2<Float>(-1e9, -1e9)
}
