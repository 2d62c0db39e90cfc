import Foundation

/// Page curls. The source is a sheet lying on the target; a cylinder of radius R, its axis across the direction
/// d = (cos inputAngle, sin inputAngle), rolls along d. With s = p·d, the sheet is flat where s ≥ a (a = the line
/// where the sheet leaves the table) and the part with s < a is lifted: a sheet point u = a − s behind that line
/// wraps round the cylinder (θ = u/R), projected at a − R·sin θ, until it has gone half way round (u = πR); beyond,
/// it lies flat on top, upside down, at a + (u − πR) — a mirror image about a − πR/2. Seen from above, the lower
/// quarter of the cylinder shows the sheet's front (the source), the upper quarter and the flipped layer its back
/// (`inputBacksideImage`, sampled at the same sheet point; where the back image is transparent the sheet is see-
/// through). The line moves linearly over `inputExtent` plus one radius: a = lo + t·(hi − lo + R), lo…hi the range
/// of p·d over the extent's corners, so the curl's outer edge (a − R) starts at the extent's corner opposite d and
/// reaches the far corner at t = 1. The output covers the target and the curled sheet, which sticks out past the
/// image (the flipped layer's mirror image); the shadow variant grows that by its shadow (fitted, see below).
/// Fitted on Apple's iOS 13.3 renders (conformance CIPageCurlTransition/F2E76407, angle 3, radius 400, t 0.994:
/// extent 2617×1814 exactly, 35 dB; CIPageCurlWithShadowTransition/213A5CB5, t 0.826: 2608×2265, 31 dB from the
/// geometry alone, 39 dB with the fitted highlight and shadow below).
/// With a shading image (the plain curl) the back is lit by adding the shading image's colour: Apple's render
/// with a white shading image shows a white back (the exact lookup into the shading image is not known).
extension TransitionFilters {
    static let pageCurls: [String: FilterImplementation] = [
        "CIPageCurlTransition": { try pageCurl($0, withShadow: false) },
        "CIPageCurlWithShadowTransition": { try pageCurl($0, withShadow: true) },
    ]

    /// Where the curl puts sheet point (x, y): moved along d by δ(u), u = a − p·d (0 on the flat part,
    /// R(θ − sin θ) on the cylinder, 2u − πR on the flipped layer).
    static func curlDisplacement(_ u: Double, radius r: Double) -> Double {
        if u <= 0 { return 0 }
        if u <= Double.pi * r { let th = u / r; return r * (th - sin(th)) }
        return 2 * u - Double.pi * r
    }

    /// The bounding box of the curled sheet (the sheet rectangle's edges mapped by the curl; the extremes of each
    /// edge's image lie at its ends, where it meets a = p·d or a − πR, or where the cylinder's slope matches).
    static func curledSheetBox(_ sheet: Rect, line a: Double, radius r: Double, _ dx: Double, _ dy: Double) -> Rect {
        let corners = [(sheet.minX, sheet.minY), (sheet.maxX, sheet.minY), (sheet.maxX, sheet.maxY), (sheet.minX, sheet.maxY)]
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ x: Double, _ y: Double) {
            let m = curlDisplacement(a - (x * dx + y * dy), radius: r)
            let (px, py) = (x + m * dx, y + m * dy)
            minX = min(minX, px); maxX = max(maxX, px); minY = min(minY, py); maxY = max(maxY, py)
        }
        for i in 0..<4 {
            let (x0, y0) = corners[i], (x1, y1) = corners[(i + 1) % 4]
            let (ex, ey) = (x1 - x0, y1 - y0)
            let s0 = x0 * dx + y0 * dy, es = ex * dx + ey * dy
            var ts: [Double] = [0, 1]
            if es != 0 {
                // Ends of the pieces: u = 0 and u = πR.
                ts += [(a - s0) / es, (a - Double.pi * r - s0) / es]
                // On the cylinder: d/dλ of the x (or y) image is e − (1 − cos θ)·es·d; zero where cos θ = 1 − e/(es·d).
                for (e, dc) in [(ex, dx), (ey, dy)] where dc != 0 {
                    let c = 1 - e / (es * dc)
                    if c >= -1 && c <= 1 {
                        let u = r * acos(c)
                        ts.append((a - u - s0) / es)
                    }
                }
            }
            for t in ts where t >= 0 && t <= 1 { add(x0 + t * ex, y0 + t * ey) }
        }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The shadow variant's extent adds the shadow: the curled sheet's box moved (δ, −δ) and grown by g, with
    /// g = 246 and δ = 2.9 at shadow size 1 (fitted on the one render, whose 2608×2265 they reproduce; scaled
    /// with `inputShadowSize`, a guess).
    static let shadowGrowth = 246.0, shadowShift = 2.9

    /// The output extent: the target and the curled sheet (and its shadow), rounded out to whole pixels.
    static func pageCurlExtent(source: Rect, target: Rect, extent area: Rect, angle: Double, radius: Double,
                               time: Double, shadowSize: Double) -> Rect {
        let (dx, dy) = (cos(angle), sin(angle))
        let (lo, hi) = projectedRange(area, dx, dy)
        let a = lo + time * (hi - lo + radius)
        var box = curledSheetBox(source, line: a, radius: radius, dx, dy)
        if shadowSize > 0 {
            let g = shadowGrowth * shadowSize, m = shadowShift * shadowSize
            box = box.union(Rect(x: box.minX + m - g, y: box.minY - m - g, width: box.width + 2 * g, height: box.height + 2 * g))
        }
        let all = target.isEmpty ? box : box.union(target)
        let x0 = all.minX.rounded(.down), y0 = all.minY.rounded(.down)
        return Rect(x: x0, y: y0, width: all.maxX.rounded(.up) - x0, height: all.maxY.rounded(.up) - y0)
    }

    static func pageCurl(_ inputs: FilterInputs, withShadow: Bool) throws -> Image {
        let p = try pair(inputs)
        // The ends: the source, and the target (Core Image's transitions end on the target; at t = 1 this model
        // would still show the sheet beyond the far corner, for which there is no render).
        if let end = p.endpoint { return end }
        if p.source.extent.isEmpty || p.source.extent.isInfinite { return p.target.withExtent(p.extent) }
        let backside = try inputs.image("inputBacksideImage")
        let shading: Image? = withShadow ? nil : try inputs.image("inputShadingImage")
        var area = try inputs.rect("inputExtent")
        if area.isEmpty || area.isInfinite { area = p.source.extent }
        let angle = try inputs.number("inputAngle")
        let radius = max(try inputs.number("inputRadius"), 0.01)
        let shadowSize = withShadow ? min(max(try inputs.number("inputShadowSize"), 0), 1) : 0
        let (dx, dy) = (cos(angle), sin(angle))
        let (lo, hi) = projectedRange(area, dx, dy)
        let line = lo + Double(p.time) * (hi - lo + radius)
        let extent = pageCurlExtent(source: p.source.extent, target: p.target.extent, extent: area, angle: angle,
                                    radius: radius, time: Double(p.time), shadowSize: shadowSize)
        let sourceRect = PixelRect(covering: p.source.extent)
        let backRect = PixelRect(covering: backside.extent.isInfinite ? p.source.extent : backside.extent)
        let shadeExtent = shading?.extent ?? .zero
        // The shading colour added to the back: the shading image's centre pixel.
        let shadeRect = shadeExtent.isEmpty ? PixelRect(x: 0, y: 0, width: 1, height: 1)
            : shadeExtent.isInfinite ? PixelRect(x: 0, y: 0, width: 1, height: 1)
            : PixelRect(x: Int(shadeExtent.midX.rounded(.down)), y: Int(shadeExtent.midY.rounded(.down)), width: 1, height: 1)
        let hasShade = !shadeExtent.isEmpty
        let (fdx, fdy, fr, fa) = (Float(dx), Float(dy), Float(radius), Float(line))
        // The shadow (shadow variant): black, of opacity 0.45·amount·F(e)·G(n) on what the sheet uncovers, e the
        // distance past the curl's outer edge (a − R), n the position along that edge: F = (1 − e/290)^1.5, G the
        // span of `inputShadowExtent` along the edge with smoothstep shoulders 250 wide either side (lengths at
        // shadow size 1, scaled with it; fitted on the one render: 0.0036 RMS in opacity).
        let shadowAmount = withShadow ? Float(min(max(try inputs.number("inputShadowAmount"), 0), 1)) : 0
        var shadowArea = withShadow ? try inputs.rect("inputShadowExtent") : Rect.zero
        if shadowArea.isEmpty || shadowArea.isInfinite { shadowArea = p.source.extent }
        let (nlo, nhi) = projectedRange(shadowArea, -dy, dx)
        let (fnlo, fnhi) = (Float(nlo), Float(nhi))
        let shadowReach = Float(290 * shadowSize), shadowShoulder = Float(max(250 * shadowSize, 1e-3))
        let hasShadow = shadowAmount > 0 && shadowReach > 0
        let kernel = GeneralKernel(name: withShadow ? "pageCurlShadow" : "pageCurl", roi: { index, rect in
            switch index {
            case 0: sourceRect
            case 1: backRect
            case 2: rect
            default: shadeRect
            }
        }) { context in
            let source = context.inputs[0], back = context.inputs[1], target = context.inputs[2]
            let shadeColor: Pixel? = hasShade ? context.inputs[3].pixel(x: shadeRect.x, y: shadeRect.y) : nil
            let out = context.output, r = context.rect
            // The sheet is the source's extent.
            let srcMinX = Float(sourceRect.x), srcMaxX = Float(sourceRect.maxX)
            let srcMinY = Float(sourceRect.y), srcMaxY = Float(sourceRect.maxY)
            @inline(__always) func onSheet(_ x: Float, _ y: Float) -> Bool {
                x >= srcMinX && x <= srcMaxX && y >= srcMinY && y <= srcMaxY
            }
            @inline(__always) func over(_ a: Pixel, _ b: Pixel) -> Pixel { a + b * (1 - a.w) }
            @inline(__always) func smooth(_ v: Float) -> Float { let c = min(max(v, 0), 1); return c * c * (3 - 2 * c) }
            for y in r.y..<r.maxY {
                let row = out.row(y) + (r.x - out.rect.x)
                let py = Float(y) + 0.5
                for x in r.x..<r.maxX {
                    let px = Float(x) + 0.5
                    let s = px * fdx + py * fdy
                    var result = target.pixel(x: x, y: y)
                    if hasShadow {
                        let e = fa - fr - s
                        if e > 0 && e < shadowReach {
                            let n = -px * fdy + py * fdx
                            let g = smooth((n - fnlo + shadowShoulder) / (2 * shadowShoulder))
                                * smooth((fnhi - n + shadowShoulder) / (2 * shadowShoulder))
                            let f = 1 - e / shadowReach
                            let alpha = 0.45 * shadowAmount * f * f.squareRoot() * g
                            result = Pixel(result.x * (1 - alpha), result.y * (1 - alpha), result.z * (1 - alpha),
                                           result.w * (1 - alpha) + alpha)
                        }
                    }
                    // The sheet point shown by the back layer (upper quarter of the cylinder or the flipped layer).
                    var backAt: Float? = nil
                    var angleRound: Float = Float.pi
                    if s >= fa {
                        // Flat part of the sheet, in place.
                        result = over(source.pixel(x: x, y: y), result)
                        backAt = fa - Float.pi * fr - (s - fa)
                    } else if s >= fa - fr {
                        // Lower quarter of the cylinder: the front, slightly stretched.
                        let th = asin(min((fa - s) / fr, 1))
                        let sp = fa - fr * th
                        let qx = px + (sp - s) * fdx, qy = py + (sp - s) * fdy
                        if onSheet(qx, qy) { result = over(source.sampleLinear(qx, qy), result) }
                        backAt = fa - fr * (Float.pi - th)
                        angleRound = Float.pi - th
                    }
                    if let sp = backAt {
                        let qx = px + (sp - s) * fdx, qy = py + (sp - s) * fdy
                        if onSheet(qx, qy) {
                            var b = back.sampleLinear(qx, qy)
                            if let c = shadeColor, b.w > 0 {
                                b = Pixel(min(b.x + c.x * b.w, b.w), min(b.y + c.y * b.w, b.w), min(b.z + c.z * b.w, b.w), b.w)
                            }
                            if withShadow, angleRound < 2.49 {
                                // The shadow variant's highlight on the cylinder: a mix towards white of weight
                                // 0.49·(2.49 − θ), from 0.45 at the curl's outer edge (θ = π/2) to 0 at θ = 2.49
                                // (fitted on the render, binned medians within about 0.03).
                                let w = min(0.49 * (2.49 - angleRound), 1)
                                b = Pixel(b.x + (b.w - b.x) * w, b.y + (b.w - b.y) * w, b.z + (b.w - b.z) * w, b.w)
                            }
                            result = over(b, result)
                        }
                    }
                    row[x - r.x] = result
                }
            }
        }
        let shadeInput = shading.map { $0.extent.isInfinite ? $0.cropped(to: shadeRect.rect) : $0 } ?? Image.empty
        return kernel.apply(extent: extent, inputs: [p.source, backside, p.target, shadeInput])
    }
}
