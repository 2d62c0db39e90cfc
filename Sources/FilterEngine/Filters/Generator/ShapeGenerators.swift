import Foundation

/// Stripes and rectangles with antialiased edges: colour kernels with no inputs.
enum ShapeGenerators {
    static let all: [String: FilterImplementation] = [
        "CIStripesGenerator": stripes,
        "CIRoundedRectangleGenerator": roundedRectangle,
        "CIRoundedRectangleStrokeGenerator": roundedRectangleStroke,
        "CIBlurredRectangleGenerator": blurredRectangle,
    ]

    /// A colour input that Core Image defaults to opaque white where the catalogue gives no default.
    static func color(_ inputs: FilterInputs, _ key: String) throws -> Color {
        try inputs.has(key) ? try inputs.color(key) : .white
    }

    /// Vertical stripes `width` pixels wide with an edge at the centre's x: colour 1 in the stripe to its right,
    /// colour 0 in the one to its left, alternating from there. Sharpness 1 gives an edge one pixel wide
    /// (antialiased); lower values blend over (1 − sharpness) of a stripe. The phase is Apple's (shared/conformance:
    /// iOS 13.3 centre 0 width 50, x 0…50 colour 1; iOS 7 centre 150 width 10, x 0…10 colour 0, both exact).
    static func stripes(_ inputs: FilterInputs) throws -> Image {
        let center = try inputs.point("inputCenter")
        let c0 = try inputs.color("inputColor0").workingPixel
        let c1 = try inputs.color("inputColor1").workingPixel
        let width = abs(Float(try inputs.number("inputWidth")))
        let sharpness = try inputs.float("inputSharpness")
        guard width > 1e-3 else { return Image(color: try inputs.color("inputColor0")) }
        let cx = Float(center.x)
        let band = max((1 - sharpness) * 0.5, 0.5 / width)
        let delta = c0 - c1
        return ColorKernel(name: "stripes") { span in
            let out = span.out
            let x0 = Float(span.x0) + 0.5 - cx
            for i in 0..<span.count {
                let f = (x0 + Float(i)) / width
                let fl = f.rounded(.down)
                let t = f - fl
                // +1 in an odd stripe (colour 0), −1 in an even one (stripe 0 starts at the centre), easing to 0
                // at the edges.
                let parity = fl * 0.5 - (fl * 0.5).rounded(.down)  // 0 even, 0.5 odd
                let sign = 4 * parity - 1
                let m = min(min(t, 1 - t) / band, 1) * sign
                GradientFilters.mix(out, i, c1, delta, (m + 1) * 0.5)
            }
        }.apply(extent: .infinite, inputs: [])
    }

    /// Signed distance from (px, py) to a rounded rectangle given by its centre, half size and corner radius
    /// (negative inside).
    @inline(__always)
    static func roundedBoxDistance(_ px: Float, _ py: Float, cx: Float, cy: Float, hx: Float, hy: Float,
                                   radius: Float) -> Float {
        let qx = abs(px - cx) - (hx - radius), qy = abs(py - cy) - (hy - radius)
        let ox = max(qx, 0), oy = max(qy, 0)
        return (ox * ox + oy * oy).squareRoot() + min(max(qx, qy), 0) - radius
    }

    /// Coverage per pixel of signed distance across an edge. Core Image's render of a rounded rectangle
    /// (shared/conformance, radius 20) fits coverage = (0.5 − d)·1.5 clamped: a slightly crisper edge than the
    /// exact one-pixel ramp (PSNR 38.5 dB against it with the slope 1, 84.7 dB with 1.5).
    static let edgeSlope: Float = 1.5

    struct Box {
        var cx: Float, cy: Float, hx: Float, hy: Float, radius: Float
        init(_ rect: Rect, radius: Double) {
            cx = Float(rect.midX); cy = Float(rect.midY)
            hx = Float(rect.width / 2); hy = Float(rect.height / 2)
            self.radius = min(Float(radius), hx, hy)
        }
    }

    /// The rectangle filled with the colour, corners rounded with the radius (limited to half the shorter
    /// side); coverage from the signed distance gives a one-pixel antialiased edge. The extent is the rectangle.
    static func roundedRectangle(_ inputs: FilterInputs) throws -> Image {
        let rect = try inputs.rect("inputExtent")
        let radius = try inputs.number("inputRadius")
        let color = try inputs.color("inputColor").workingPixel
        guard !rect.isEmpty, !rect.isInfinite else { return Image(color: .clear) }
        let box = Box(rect, radius: radius)
        return ColorKernel(name: "roundedRectangle") { span in
            let out = span.out
            let py = Float(span.y) + 0.5
            let x0 = Float(span.x0) + 0.5
            for i in 0..<span.count {
                let d = roundedBoxDistance(x0 + Float(i), py, cx: box.cx, cy: box.cy, hx: box.hx, hy: box.hy,
                                           radius: box.radius)
                let coverage = min(max((0.5 - d) * edgeSlope, 0), 1)
                out.r[i] = color.x * coverage; out.g[i] = color.y * coverage
                out.b[i] = color.z * coverage; out.a[i] = color.w * coverage
            }
        }.apply(extent: rect, inputs: [])
    }

    /// The outline of the rounded rectangle, `width` pixels wide and centred on its edge; the extent grows by
    /// half the width on each side.
    static func roundedRectangleStroke(_ inputs: FilterInputs) throws -> Image {
        let rect = try inputs.rect("inputExtent")
        let radius = try inputs.number("inputRadius")
        let color = try color(inputs, "inputColor").workingPixel
        let width = try inputs.number("inputWidth")
        guard !rect.isInfinite, width > 0, rect.width >= 0, rect.height >= 0 else {
            return Image(color: .clear)
        }
        let half = Float(width / 2)
        let box = Box(rect, radius: radius)
        let extent = rect.insetBy(dx: -width / 2, dy: -width / 2)
        return ColorKernel(name: "roundedRectangleStroke") { span in
            let out = span.out
            let py = Float(span.y) + 0.5
            let x0 = Float(span.x0) + 0.5
            for i in 0..<span.count {
                let d = roundedBoxDistance(x0 + Float(i), py, cx: box.cx, cy: box.cy, hx: box.hx, hy: box.hy,
                                           radius: box.radius)
                let coverage = min(max((0.5 + half - abs(d)) * edgeSlope, 0), min(2 * half, 1))
                out.r[i] = color.x * coverage; out.g[i] = color.y * coverage
                out.b[i] = color.z * coverage; out.a[i] = color.w * coverage
            }
        }.apply(extent: extent, inputs: [])
    }

    /// The rectangle convolved with a Gaussian of the given sigma: separable, so each pixel is the product of
    /// two differences of error functions. The extent grows by 3σ on each side (rounded out to whole pixels).
    static func blurredRectangle(_ inputs: FilterInputs) throws -> Image {
        let rect = try inputs.rect("inputExtent")
        let sigma = try inputs.number("inputSigma")
        let color = try color(inputs, "inputColor").workingPixel
        guard !rect.isEmpty, !rect.isInfinite else { return Image(color: .clear) }
        let x0 = Float(rect.minX), x1 = Float(rect.maxX), y0 = Float(rect.minY), y1 = Float(rect.maxY)
        let extent = sigma > 0 ? rect.insetBy(dx: -3 * sigma, dy: -3 * sigma).integral : rect
        // Below half a pixel the blur is invisible: use exact pixel-area coverage instead (a box of one pixel).
        let hard = sigma < 0.5
        let k = hard ? 0 : Float(1 / (sigma * 2.0.squareRoot()))
        @Sendable @inline(__always) func cover(_ p: Float, _ a: Float, _ b: Float) -> Float {
            if hard { return max(min(p + 0.5, b) - max(p - 0.5, a), 0) }
            return 0.5 * (erff((b - p) * k) - erff((a - p) * k))
        }
        return ColorKernel(name: "blurredRectangle") { span in
            let out = span.out
            let gy = cover(Float(span.y) + 0.5, y0, y1)
            let px0 = Float(span.x0) + 0.5
            for i in 0..<span.count {
                let coverage = cover(px0 + Float(i), x0, x1) * gy
                out.r[i] = color.x * coverage; out.g[i] = color.y * coverage
                out.b[i] = color.z * coverage; out.a[i] = color.w * coverage
            }
        }.apply(extent: extent, inputs: [])
    }
}
