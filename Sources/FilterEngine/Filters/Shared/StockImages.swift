import Foundation

/// Ready-made gradient and palette images for CIColorMap, CIPalettize and CIPaletteCentroid (the explorer's
/// image choosers offer them by name).
public enum StockImages {
    /// Named horizontal gradients, 256×1, dark end on the left.
    public static let gradientNames = ["Greys", "Thermal", "X-Ray", "Sepia", "Sunset", "Ocean", "Viridis", "Rainbow"]

    /// Named palettes, N×1.
    public static let paletteNames = ["Black & White", "Primaries", "CGA", "Game Boy", "Pastel", "Greys 4", "Sepia 4"]

    public static func gradient(named name: String) -> Image? {
        func c(_ r: Double, _ g: Double, _ b: Double) -> Color { Color(red: r, green: g, blue: b) }
        switch name {
        case "Greys": return gradient([.black, .white])
        case "Thermal": return gradient(stops: thermalStops)
        case "X-Ray": return gradient(stops: xRayStops)
        case "Sepia": return gradient([c(0.1, 0.05, 0.02), c(0.6, 0.45, 0.3), c(1, 0.95, 0.85)])
        case "Sunset": return gradient([c(0.1, 0, 0.2), c(0.6, 0.1, 0.4), c(1, 0.4, 0.2), c(1, 0.85, 0.4)])
        case "Ocean": return gradient([c(0, 0.02, 0.1), c(0, 0.25, 0.5), c(0.1, 0.6, 0.7), c(0.85, 1, 1)])
        case "Viridis": return gradient([c(0.267, 0.005, 0.329), c(0.231, 0.322, 0.545), c(0.129, 0.569, 0.549),
                                         c(0.369, 0.788, 0.384), c(0.993, 0.906, 0.144)])
        case "Rainbow": return gradient([c(0.5, 0, 1), c(0, 0, 1), c(0, 1, 1), c(0, 1, 0), c(1, 1, 0), c(1, 0, 0)])
        default: return nil
        }
    }

    public static func palette(named name: String) -> Image? {
        func c(_ r: Double, _ g: Double, _ b: Double) -> Color { Color(red: r, green: g, blue: b) }
        switch name {
        case "Black & White": return palette([.black, .white])
        case "Primaries": return palette([.black, .white, c(1, 0, 0), c(0, 1, 0), c(0, 0, 1), c(1, 1, 0), c(0, 1, 1), c(1, 0, 1)])
        case "CGA": return palette([.black, c(0.333, 1, 1), c(1, 0.333, 1), .white])
        case "Game Boy": return palette([c(0.059, 0.22, 0.059), c(0.188, 0.384, 0.188), c(0.545, 0.675, 0.059), c(0.608, 0.737, 0.059)])
        case "Pastel": return palette([c(1, 0.8, 0.8), c(1, 0.9, 0.7), c(0.8, 1, 0.8), c(0.75, 0.85, 1), c(0.9, 0.8, 1), c(0.3, 0.3, 0.35)])
        case "Greys 4": return palette([.black, c(0.333, 0.333, 0.333), c(0.667, 0.667, 0.667), .white])
        case "Sepia 4": return palette([c(0.15, 0.08, 0.03), c(0.45, 0.3, 0.18), c(0.75, 0.6, 0.42), c(0.98, 0.92, 0.8)])
        default: return nil
        }
    }

    /// A width×1 gradient through `colors`, evenly spaced, interpolated on their sRGB-encoded components (as
    /// drawing programs do), at the origin.
    public static func gradient(_ colors: [Color], width: Int = 256) -> Image {
        precondition(!colors.isEmpty, "a gradient needs at least one colour")
        let n = Double(max(colors.count - 1, 1))
        let stops = colors.enumerated().map { (Double($0.offset) / n, $0.element.red, $0.element.green, $0.element.blue) }
        return gradient(stops: stops, width: width, alphas: colors.map(\.alpha))
    }

    /// An N×1 image with one pixel per colour, at the origin.
    public static func palette(_ colors: [Color]) -> Image {
        let buffer = PixelBuffer(rect: PixelRect(x: 0, y: 0, width: max(colors.count, 1), height: 1))
        for (i, color) in colors.enumerated() { buffer.row(0)[i] = color.workingPixel }
        return Image(buffer: buffer)
    }

    // MARK: Ramps shared with CIThermal and CIXRay (position, encoded r, g, b)

    static let thermalStops: [(Double, Double, Double, Double)] = [
        (0, 0, 0, 0.15), (0.2, 0.2, 0, 0.55), (0.4, 0.65, 0, 0.6), (0.6, 0.95, 0.15, 0.15), (0.8, 1, 0.6, 0), (1, 1, 1, 0.75),
    ]
    static let xRayStops: [(Double, Double, Double, Double)] = [(0, 0.85, 0.95, 1), (1, 0, 0.02, 0.08)]

    static func gradient(stops: [(Double, Double, Double, Double)], width: Int = 256, alphas: [Double]? = nil) -> Image {
        let buffer = PixelBuffer(rect: PixelRect(x: 0, y: 0, width: width, height: 1))
        let alphaPoints = alphas.map { a in zip(stops, a).map { ($0.0.0, $0.1) } }
        for i in 0..<width {
            let x = width > 1 ? Double(i) / Double(width - 1) : 0
            let color = Color(red: interpolate(stops.map { ($0.0, $0.1) }, at: x),
                              green: interpolate(stops.map { ($0.0, $0.2) }, at: x),
                              blue: interpolate(stops.map { ($0.0, $0.3) }, at: x),
                              alpha: alphaPoints.map { interpolate($0, at: x) } ?? 1)
            buffer.row(0)[i] = color.workingPixel
        }
        return Image(buffer: buffer)
    }

    /// Piecewise-linear interpolation through (position, value) points sorted by position, flat beyond the ends.
    static func interpolate(_ points: [(Double, Double)], at x: Double) -> Double {
        guard let first = points.first, let last = points.last else { return 0 }
        if x <= first.0 { return first.1 }
        if x >= last.0 { return last.1 }
        for k in 1..<points.count where x <= points[k].0 {
            let (x0, v0) = points[k - 1], (x1, v1) = points[k]
            return x1 > x0 ? v0 + (v1 - v0) * (x - x0) / (x1 - x0) : v1
        }
        return last.1
    }
}
