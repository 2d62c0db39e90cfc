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

    /// The bounding box of a rectangle pushed along the rays from a centre: a point at distance s from (cx, cy)
    /// goes to distance `ratio(s)`·s on its ray. For a ratio monotone in s (the hole's and the pinch's forward
    /// maps) the extremes of each side are at the rectangle's corners or at the point of the side nearest the
    /// centre, so those eight points bound the pushed rectangle. A point on the centre itself (s = 0) stands
    /// for the disc of radius `atCentre` (the hole spreads it over its rim).
    static func pushedBox(_ rect: Rect, _ cx: Double, _ cy: Double, atCentre: Double,
                          ratio: (Double) -> Double) -> Rect {
        let nx = min(max(cx, rect.minX), rect.maxX), ny = min(max(cy, rect.minY), rect.maxY)
        let points = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY),
                      (rect.minX, ny), (rect.maxX, ny), (nx, rect.minY), (nx, rect.maxY)]
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for (px, py) in points {
            let dx = px - cx, dy = py - cy
            let s = (dx * dx + dy * dy).squareRoot()
            if s == 0 {
                x0 = min(x0, cx - atCentre); x1 = max(x1, cx + atCentre)
                y0 = min(y0, cy - atCentre); y1 = max(y1, cy + atCentre)
                continue
            }
            let k = ratio(s)
            x0 = min(x0, cx + dx * k); x1 = max(x1, cx + dx * k)
            y0 = min(y0, cy + dy * k); y1 = max(y1, cy + dy * k)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// A source coordinate that reads nothing (transparent) whatever the input.
    static let nowhere = SIMD2<Float>(-1e9, -1e9)
}
