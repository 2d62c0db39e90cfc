import Foundation

/// A tilt-shift depth of field, and Canny's edge detector.
enum DepthAndCanny {
    /// CIDepthOfField: the image stays sharp along the line through inputPoint0 and inputPoint1 and blurs
    /// (Gaussian of σ = inputRadius) with distance from it, reaching full blur at half the points' distance.
    /// The sharp part gets inputSaturation (as CIColorControls) and an unsharp mask (σ = inputUnsharpMaskRadius,
    /// amount inputUnsharpMaskIntensity), the crisp "miniature" look of a tilt-shift lens.
    static func depthOfField(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let p0 = try inputs.point("inputPoint0"), p1 = try inputs.point("inputPoint1")
        let saturation = try inputs.number("inputSaturation")
        let sharpenRadius = try inputs.number("inputUnsharpMaskRadius")
        let sharpenAmount = try inputs.float("inputUnsharpMaskIntensity")
        // A cost cap, not Core Image's (which is not documented): the slider ends at 30.
        let radius = min(try inputs.number("inputRadius"), 500)
        guard !image.extent.isEmpty else { return image }
        let extent = image.extent
        var sharp = try image.applyingFilter("CIColorControls", parameters: ["inputSaturation": .number(saturation)])
        if sharpenRadius > 0.05 && sharpenAmount != 0 {
            let soft = Sketch.blurInside(sharp, sigma: sharpenRadius)
            sharp = ColorKernel(name: "unsharp") { span in
                let o = span.out, s = span.input(1)
                for i in 0..<span.count {
                    o.r[i] += (o.r[i] - s.r[i]) * sharpenAmount
                    o.g[i] += (o.g[i] - s.g[i]) * sharpenAmount
                    o.b[i] += (o.b[i] - s.b[i]) * sharpenAmount
                }
            }.apply(extent: extent, inputs: [sharp, soft])
        }
        guard radius > 0.05 else { return sharp }
        let blurred = Sketch.blurInside(image, sigma: radius)
        // Distance from the line, over the falloff length (half the distance between the points, at least 1).
        let dx = p1.x - p0.x, dy = p1.y - p0.y
        let length = (dx * dx + dy * dy).squareRoot()
        let nx = Float(length > 1e-9 ? -dy / length : 0), ny = Float(length > 1e-9 ? dx / length : 1)
        let falloff = Float(max(length / 2, 1)), ox = Float(p0.x), oy = Float(p0.y)
        return ColorKernel(name: "depthOfField") { span in
            let o = span.out, b = span.input(1)
            let py = Float(span.y) + 0.5 - oy
            for i in 0..<span.count {
                let d = abs((Float(span.x0 + i) + 0.5 - ox) * nx + py * ny) / falloff
                let t0 = min(d, 1), t = t0 * t0 * (3 - 2 * t0)
                o.r[i] += (b.r[i] - o.r[i]) * t
                o.g[i] += (b.g[i] - o.g[i]) * t
                o.b[i] += (b.b[i] - o.b[i]) * t
                o.a[i] += (b.a[i] - o.a[i]) * t
            }
        }.apply(extent: extent, inputs: [sharp, blurred])
    }

    /// CICannyEdgeDetector: luminance (sRGB-encoded with inputPerceptual) smoothed by a Gaussian of
    /// σ = inputGaussianSigma; Sobel gradients (the raw 3×3 operator, 8 × the slope per pixel); non-maximum suppression across the edge
    /// (direction in four sectors); pixels above inputThresholdHigh are edges, those above inputThresholdLow are
    /// candidates, and each of inputHysteresisPasses passes makes candidates touching an edge edges too.
    /// White edges on opaque black.
    static func canny(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        // A cost cap, not Core Image's (which is not documented): the slider ends at 6.4.
        let sigma = min(try inputs.number("inputGaussianSigma"), 200)
        let perceptual = try inputs.bool("inputPerceptual")
        let high = try inputs.float("inputThresholdHigh"), low = try inputs.float("inputThresholdLow")
        let passes = min(max(try inputs.integer("inputHysteresisPasses"), 0), 20)
        guard !image.extent.isEmpty else { return image }
        let extent = image.extent
        let smooth = Sketch.blurInside(Sketch.luminance(image, perceptual: perceptual), sigma: sigma)
        // Magnitude and direction sector (0: horizontal gradient, 1: 45°, 2: vertical, 3: 135°).
        let gradient = Neighbourhood.apply("cannyGradient", smooth, reach: 1) { context in
            Neighbourhood.forEach(context, reach: 1) { p, s in
                let (gx, gy) = Neighbourhood.sobel(p, s)
                let m = (gx.x * gx.x + gy.x * gy.x).squareRoot() * 8
                var angle = atan2(gy.x, gx.x)
                if angle < 0 { angle += Float.pi }
                // In floats: a NaN angle (from NaN pixels) must not reach an integer conversion.
                let s = (angle / (Float.pi / 4) + 0.5).rounded(.down)
                let sector: Float = s >= 4 ? s - 4 : (s >= 0 ? s : 0)
                return Pixel(m, sector, 0, 1)
            }
        }
        // Non-maximum suppression and the two thresholds: 1 edge, 0.5 candidate, 0 nothing.
        var classes = Neighbourhood.apply("cannyThin", gradient, reach: 1) { context in
            Neighbourhood.forEach(context, reach: 1) { p, s in
                let m = p[0].x
                let (a, b): (Float, Float)
                switch Int(saturating: p[0].y) {
                case 0: (a, b) = (p[-1].x, p[1].x)
                case 1: (a, b) = (p[-1 - s].x, p[1 + s].x)
                case 2: (a, b) = (p[-s].x, p[s].x)
                default: (a, b) = (p[1 - s].x, p[-1 + s].x)
                }
                let keep = m >= a && m >= b && m > 0
                let v: Float = keep ? (m >= high ? 1 : (m >= low ? 0.5 : 0)) : 0
                return Pixel(v, v, v, 1)
            }
        }
        for _ in 0..<passes {
            classes = Neighbourhood.apply("cannyHysteresis", classes, reach: 1) { context in
                Neighbourhood.forEach(context, reach: 1) { p, s in
                    let v = p[0].x
                    guard v == 0.5 else { return p[0] }
                    let touches = p[-1].x == 1 || p[1].x == 1 || p[-s].x == 1 || p[s].x == 1
                        || p[-1 - s].x == 1 || p[1 - s].x == 1 || p[-1 + s].x == 1 || p[1 + s].x == 1
                    return touches ? Pixel(1, 1, 1, 1) : p[0]
                }
            }
        }
        return ColorKernel(name: "cannyEdges") { span in
            let o = span.out
            for i in 0..<span.count {
                let v: Float = o.r[i] == 1 ? 1 : 0
                o.r[i] = v; o.g[i] = v; o.b[i] = v; o.a[i] = 1
            }
        }.apply(extent: extent, inputs: [classes])
    }
}
