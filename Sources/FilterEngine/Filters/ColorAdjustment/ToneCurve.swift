import Foundation

/// CIToneCurve and CIColorCurves: one-dimensional curves applied to each colour channel.
extension ColorAdjustmentFilters {
    /// A natural cubic spline through five points [input, output], applied to red, green and blue alike, on
    /// straight sRGB-encoded values (decoded back to linear after). Fitted on Apple's iOS 7 render (points
    /// (0, 0), (0.1, 0.5), (0.3, 0.15), (0.6, 0.6), (1.1, 1), a curve that overshoots): the render is a clean
    /// per-channel table, and this spline matches it within 1.6 levels (mean 0.26); the same spline on the
    /// square root of linear light (Core Image's description says "a perceptual (gamma 2) version of the
    /// working space", our old rule) is off by up to 36 levels, and Catmull-Rom, monotone (PCHIP), Akima and
    /// not-a-knot splines by 29 levels or more. Without extrapolation, inputs beyond the first and last points
    /// take those points' outputs; with it, the curve continues along its end slopes (for extended-range values).
    static func toneCurve(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let points = try (0..<5).map { try inputs.point("inputPoint\($0)") }
        let spline = ToneSpline(points: points.map { (Float($0.x), Float($0.y)) },
                                extrapolate: try inputs.bool("inputExtrapolate"))
        if spline.isIdentity { return image }
        let decode = EncodedCurves.decode, encode = EncodedCurves.encodeBySquareRoot
        return ColorKernel(name: "toneCurve", dependence: .perChannel, parameters: spline.parameters) { span in
            let p = span.out, count = span.count
            let dec = decode.values, enc = encode.values
            SpanColor.unpremultiply(p, count)
            for channel in [p.r, p.g, p.b] {
                for i in 0..<count {
                    // Tables inside 0...1; the exact curves for extended-range values.
                    let v = channel[i]
                    let e = v >= 0 && v <= 1 ? EncodedCurves.encode(v, enc) : ColorMath.sRGB(fromLinear: v)
                    let y = spline.value(e)
                    channel[i] = y >= 0 && y <= 1 ? EncodedCurves.lookup(dec, y) : ColorMath.linear(fromSRGB: y)
                }
            }
            SpanColor.premultiply(p, count)
        }.apply(extent: image.extent, inputs: [image])
    }

    /// Three curves (red, green, blue) given as a table of RGB float triples sampled evenly over the domain
    /// [min, max] and interpolated linearly; inputs outside the domain take the end values. Applied to straight
    /// colour in `inputColorSpace` (the working space when unset). Without curves data the table is the
    /// identity over the domain.
    static func colorCurves(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let domain = try inputs.vector("inputCurvesDomain")
        guard domain.count == 2, domain[1] > domain[0] else {
            throw FilterError("CIColorCurves.inputCurvesDomain must be [min max] with max > min, not \(FilterValue.vector(domain))")
        }
        let lo = Float(domain[0]), hi = Float(domain[1])
        let table: [Float]
        if let bytes = try inputs.data("inputCurvesData") {
            guard bytes.count >= 12, bytes.count % 12 == 0 else {
                throw FilterError("CIColorCurves.inputCurvesData must hold RGB float triples (a multiple of 12 bytes, at least one), not \(bytes.count) bytes")
            }
            table = try ColorCubeData.floats(bytes, key: "CIColorCurves.inputCurvesData")
        } else {
            table = [lo, lo, lo, hi, hi, hi]
        }
        let space = try inputs.colorSpace("inputColorSpace")
        let entries = table.count / 3
        // Planar copies, so each channel's lookup reads one array.
        let red = (0..<entries).map { table[$0 * 3] }, green = (0..<entries).map { table[$0 * 3 + 1] }
        let blue = (0..<entries).map { table[$0 * 3 + 2] }
        let last = Float(entries - 1)
        let scale = last / (hi - lo)
        @Sendable @inline(__always) func lookup(_ channel: UnsafeMutablePointer<Float>, _ curve: [Float], _ n: Int) {
            curve.withUnsafeBufferPointer { curve in
                for i in 0..<n {
                    let x = (channel[i] - lo) * scale
                    let clamped: Float = x > 0 ? (x < last ? x : last) : 0
                    let index = min(Int(clamped), entries - 1)
                    let next = min(index + 1, entries - 1)
                    let t = clamped - Float(index)
                    channel[i] = curve[index] + (curve[next] - curve[index]) * t
                }
            }
        }
        return ColorKernel(name: "colorCurves") { span in
            let p = span.out, n = span.count
            SpanColor.unpremultiply(p, n)
            space?.fromWorking(p, n)
            lookup(p.r, red, n)
            lookup(p.g, green, n)
            lookup(p.b, blue, n)
            space?.toWorking(p, n)
            SpanColor.premultiply(p, n)
        }.apply(extent: image.extent, inputs: [image])
    }
}

/// A natural cubic spline through up to five points sorted by input (CIToneCurve evaluates it on sRGB-encoded values).
struct ToneSpline: Sendable {
    /// Knots (x) and, per segment, the cubic y = a + b·t + c·t² + d·t³ with t = x − knot.
    private var knots: [Float] = []
    private var a: [Float] = [], b: [Float] = [], c: [Float] = [], d: [Float] = []
    let extrapolate: Bool
    /// Whether the curve is y = x over [0, 1] (every point on the diagonal, spanning 0 to 1).
    let isIdentity: Bool
    /// Every value the curve is made of (`ColorKernel.parameters`).
    var parameters: [Float] { knots + a + b + c + d + [extrapolate ? 1 : 0] }

    init(points: [(Float, Float)], extrapolate: Bool) {
        self.extrapolate = extrapolate
        // Sort by input; of points with the same input the last one given wins.
        var sorted: [(Float, Float)] = []
        for p in points.enumerated().sorted(by: { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }).map(\.element) {
            if let lastX = sorted.last?.0, lastX == p.0 { sorted[sorted.count - 1] = p } else { sorted.append(p) }
        }
        isIdentity = sorted.allSatisfy { $0.0 == $0.1 } && sorted.first!.0 <= 0 && sorted.last!.0 >= 1
        let n = sorted.count
        knots = sorted.map(\.0)
        let y = sorted.map(\.1)
        guard n >= 2 else {
            a = [y[0]]; b = [0]; c = [0]; d = [0]
            return
        }
        // Second derivatives m with m₀ = mₙ₋₁ = 0 (natural spline), by the tridiagonal (Thomas) algorithm.
        let h = (0..<(n - 1)).map { knots[$0 + 1] - knots[$0] }
        var m = [Float](repeating: 0, count: n)
        if n > 2 {
            var diag = [Float](repeating: 0, count: n), rhs = [Float](repeating: 0, count: n)
            for i in 1..<(n - 1) {
                diag[i] = 2 * (h[i - 1] + h[i])
                rhs[i] = 6 * ((y[i + 1] - y[i]) / h[i] - (y[i] - y[i - 1]) / h[i - 1])
            }
            for i in 2..<(n - 1) {
                let w = h[i - 1] / diag[i - 1]
                diag[i] -= w * h[i - 1]
                rhs[i] -= w * rhs[i - 1]
            }
            for i in stride(from: n - 2, through: 1, by: -1) {
                m[i] = (rhs[i] - h[i] * m[i + 1]) / diag[i]
            }
        }
        for i in 0..<(n - 1) {
            a.append(y[i])
            b.append((y[i + 1] - y[i]) / h[i] - h[i] * (2 * m[i] + m[i + 1]) / 6)
            c.append(m[i] / 2)
            d.append((m[i + 1] - m[i]) / (6 * h[i]))
        }
    }

    /// The curve at x (in the curve's own space).
    @inline(__always) func value(_ x: Float) -> Float {
        let n = knots.count
        if n < 2 { return a[0] }
        if !(x > knots[0]) {
            // Below the first knot (or NaN): hold, or continue along the first slope.
            return extrapolate && x < knots[0] ? a[0] + b[0] * (x - knots[0]) : a[0]
        }
        if x >= knots[n - 1] {
            let i = n - 2, h = knots[n - 1] - knots[i]
            let end = a[i] + h * (b[i] + h * (c[i] + h * d[i]))
            guard extrapolate else { return end }
            let slope = b[i] + h * (2 * c[i] + 3 * h * d[i])
            return end + slope * (x - knots[n - 1])
        }
        var i = 0
        while i < n - 2 && x >= knots[i + 1] { i += 1 }
        let t = x - knots[i]
        return a[i] + t * (b[i] + t * (c[i] + t * d[i]))
    }
}
