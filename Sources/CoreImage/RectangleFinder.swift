import Foundation

/// CIDetectorTypeRectangle's finder. The image is reduced to at most `workingSize` pixels a side and smoothed,
/// split into light and dark by Otsu's threshold, and each connected region (of either polarity, not touching
/// the image's border) is a candidate: its convex hull, the largest quadrilateral with corners on that hull,
/// kept when the quadrilateral covers the region (a rectangle seen in perspective fills its quadrilateral;
/// a disc or a blob does not). The largest kept quadrilaterals are returned.
struct RectangleFinder {
    /// The quadrilateral's shorter side as a share of the image's shorter side.
    var minimumSize: Double
    var maximumCount: Int
    /// Longer side over shorter side, when asked for; quadrilaterals more than 25% off are dropped.
    var aspectRatio: Double?

    static let workingSize = 640
    /// The share of the quadrilateral the region must fill, and of the hull the quadrilateral must cover.
    static let minimumFill = 0.9

    typealias Point = (x: Double, y: Double)

    func find(in image: Luminance) -> [Corners] {
        let scale = max(1, (max(image.width, image.height) + Self.workingSize - 1) / Self.workingSize)
        let small = Self.smoothed(Self.reduced(image, by: scale))
        let threshold = Self.otsuThreshold(small.pixels)
        let shorterSide = Double(min(image.width, image.height))
        var found: [(area: Double, quad: [Point])] = []
        for lightRegions in [true, false] {
            for region in Self.regions(small, threshold: threshold, light: lightRegions) {
                guard let quad = Self.quadrilateral(region) else { continue }
                let full = quad.map { (x: $0.x * Double(scale), y: $0.y * Double(scale)) }
                let sides = (0..<4).map { Self.distance(full[$0], full[($0 + 1) % 4]) }
                guard sides.min()! >= minimumSize * shorterSide else { continue }
                if let aspectRatio {
                    let long = max(sides[0] + sides[2], sides[1] + sides[3]), short = min(sides[0] + sides[2], sides[1] + sides[3])
                    guard short > 0, abs(long / short / aspectRatio - 1) <= 0.25 else { continue }
                }
                found.append((abs(Self.signedArea(full)), full))
            }
        }
        return found.sorted { $0.area > $1.area }.prefix(maximumCount).map { Self.corners($0.quad, in: image) }
    }

    // MARK: Pixels

    struct Gray {
        let width: Int, height: Int
        var pixels: [UInt8]
    }

    /// Box-averaged down by a whole factor.
    static func reduced(_ image: Luminance, by factor: Int) -> Gray {
        guard factor > 1 else { return Gray(width: image.width, height: image.height, pixels: image.pixels) }
        let width = image.width / factor, height = image.height / factor
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0
                for dy in 0..<factor {
                    let row = (y * factor + dy) * image.width + x * factor
                    for dx in 0..<factor { sum += Int(image.pixels[row + dx]) }
                }
                pixels[y * width + x] = UInt8(sum / (factor * factor))
            }
        }
        return Gray(width: width, height: height, pixels: pixels)
    }

    /// A 3 × 3 box blur (edges clamped), against pixel noise.
    static func smoothed(_ image: Gray) -> Gray {
        var out = image
        for y in 0..<image.height {
            for x in 0..<image.width {
                var sum = 0
                for dy in -1...1 {
                    let yy = min(max(y + dy, 0), image.height - 1)
                    for dx in -1...1 {
                        let xx = min(max(x + dx, 0), image.width - 1)
                        sum += Int(image.pixels[yy * image.width + xx])
                    }
                }
                out.pixels[y * image.width + x] = UInt8(sum / 9)
            }
        }
        return out
    }

    /// The level that best separates the histogram into two classes (Otsu, 1979: largest between-class variance).
    static func otsuThreshold(_ pixels: [UInt8]) -> Int {
        var histogram = [Int](repeating: 0, count: 256)
        for p in pixels { histogram[Int(p)] += 1 }
        let total = Double(pixels.count)
        let sumAll = (0..<256).reduce(0.0) { $0 + Double($1 * histogram[$1]) }
        var below = 0.0, sumBelow = 0.0, best = 0.0, threshold = 128
        for t in 0..<256 {
            below += Double(histogram[t])
            sumBelow += Double(t * histogram[t])
            let above = total - below
            guard below > 0, above > 0 else { continue }
            let difference = sumBelow / below - (sumAll - sumBelow) / above
            let variance = below * above * difference * difference
            if variance > best { best = variance; threshold = t }
        }
        return threshold
    }

    /// A connected region: its pixel count and, for each of its rows, the leftmost and rightmost pixel.
    struct Region {
        var area = 0
        var rows: [Int: (min: Int, max: Int)] = [:]
    }

    /// The 4-connected regions above (light) or at or below (dark) the threshold that do not touch the border.
    static func regions(_ image: Gray, threshold: Int, light: Bool) -> [Region] {
        let w = image.width, h = image.height
        var seen = [Bool](repeating: false, count: w * h)
        var result: [Region] = []
        var stack: [Int] = []
        func inside(_ i: Int) -> Bool { (Int(image.pixels[i]) > threshold) == light }
        for start in 0..<w * h where !seen[start] && inside(start) {
            var region = Region()
            var touchesBorder = false
            seen[start] = true
            stack.append(start)
            while let i = stack.popLast() {
                let x = i % w, y = i / w
                region.area += 1
                let row = region.rows[y] ?? (x, x)
                region.rows[y] = (min(row.min, x), max(row.max, x))
                if x == 0 || y == 0 || x == w - 1 || y == h - 1 { touchesBorder = true }
                for n in [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1]
                where n >= 0 && !seen[n] && inside(n) {
                    seen[n] = true
                    stack.append(n)
                }
            }
            if !touchesBorder && region.area >= 16 { result.append(region) }
        }
        return result
    }

    // MARK: Geometry

    /// The region's largest inscribed quadrilateral on its convex hull, in pixel-edge coordinates; nil when it
    /// does not describe the region well.
    static func quadrilateral(_ region: Region) -> [Point]? {
        // The pixels' outer corners at each row's ends hold the whole region's hull.
        var points: [Point] = []
        for (y, row) in region.rows {
            points += [(Double(row.min), Double(y)), (Double(row.min), Double(y + 1)),
                       (Double(row.max + 1), Double(y)), (Double(row.max + 1), Double(y + 1))]
        }
        let hull = convexHull(points)
        guard hull.count >= 4 else { return nil }
        let quad = largestQuadrilateral(hull)
        let quadArea = abs(signedArea(quad)), hullArea = abs(signedArea(hull))
        guard quadArea > 0, Double(region.area) >= minimumFill * quadArea, quadArea >= minimumFill * hullArea else { return nil }
        return quad
    }

    /// Andrew's monotone chain; counterclockwise in a y-up frame, no collinear points.
    static func convexHull(_ points: [Point]) -> [Point] {
        let sorted = points.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard sorted.count > 2 else { return sorted }
        func cross(_ o: Point, _ a: Point, _ b: Point) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        var lower: [Point] = [], upper: [Point] = []
        for p in sorted {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        for p in sorted.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// The four hull vertices enclosing the largest area: for each diagonal, the farthest vertex on either side.
    static func largestQuadrilateral(_ hull: [Point]) -> [Point] {
        let n = hull.count
        func triangle(_ i: Int, _ j: Int, _ k: Int) -> Double {
            let a = hull[i % n], b = hull[j % n], c = hull[k % n]
            return abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) / 2
        }
        var best = (area: -1.0, corners: [0, 1, 2, 3])
        for i in 0..<n {
            for k in i + 2..<i + n - 1 where k - i < n {
                var bestJ = i + 1, bestL = k + 1
                for j in i + 1..<k where triangle(i, j, k) > triangle(i, bestJ, k) { bestJ = j }
                for l in k + 1..<i + n where triangle(k, l, i) > triangle(k, bestL, i) { bestL = l }
                let area = triangle(i, bestJ, k) + triangle(k, bestL, i)
                if area > best.area { best = (area, [i, bestJ, k, bestL]) }
            }
        }
        return best.corners.map { hull[$0 % n] }
    }

    static func signedArea(_ polygon: [Point]) -> Double {
        var sum = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }

    static func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    /// The corners in image coordinates, named as they appear: the top-left one is the farthest up and left
    /// (largest y − x), the others follow clockwise.
    static func corners(_ quad: [Point], in image: Luminance) -> Corners {
        var points = quad.map { image.imagePoint(x: $0.x, y: $0.y) }
        // Clockwise in the y-up frame: negative signed area.
        let area = signedArea(points.map { (x: Double($0.x), y: Double($0.y)) })
        if area > 0 { points.reverse() }
        let first = points.indices.max { points[$0].y - points[$0].x < points[$1].y - points[$1].x }!
        let p = (0..<4).map { points[(first + $0) % 4] }
        return Corners(topLeft: p[0], topRight: p[1], bottomLeft: p[3], bottomRight: p[2])
    }
}
