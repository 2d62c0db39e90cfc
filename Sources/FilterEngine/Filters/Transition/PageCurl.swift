import Foundation

/// Page curls: the source is a sheet that rolls up over a cylinder of radius `inputRadius` whose axis (at angle
/// `inputAngle` + 90°) sweeps across `inputExtent` from its far side (along (cos θ, sin θ)) to its near side;
/// the sheet lifts off the cylinder and lies flipped on top of itself, showing its back
/// (`inputBacksideImage`, sampled at the same sheet point, so it appears mirrored), and the target shows where
/// the sheet has gone. Time 0 is the flat source, time 1 the target (the whole sheet has rolled past the
/// extent's near side).
extension TransitionFilters {
    static let pageCurls: [String: FilterImplementation] = [
        "CIPageCurlTransition": { try pageCurl($0, withShadow: false) },
        "CIPageCurlWithShadowTransition": { try pageCurl($0, withShadow: true) },
    ]

    static func pageCurl(_ inputs: FilterInputs, withShadow: Bool) throws -> Image {
        let p = try pair(inputs)
        if let end = p.endpoint { return end }
        if p.source.extent.isEmpty { return p.target.withExtent(p.extent) }
        let backside = try inputs.image("inputBacksideImage")
        let shading: Image? = withShadow ? nil : try inputs.image("inputShadingImage")
        var area = try inputs.rect("inputExtent")
        if area.isEmpty || area.isInfinite { area = p.source.extent }
        guard !area.isInfinite else { return p.source }
        let angle = try inputs.number("inputAngle")
        let radius = max(try inputs.number("inputRadius"), 0.01)
        let shadowSize = withShadow ? min(max(try inputs.float("inputShadowSize"), 0), 1) : 0
        let shadowAmount = withShadow ? min(max(try inputs.float("inputShadowAmount"), 0), 1) : 0
        // The shadow falls only inside `inputShadowExtent` when one is given (empty: anywhere).
        let shadowArea = withShadow ? try inputs.rect("inputShadowExtent") : Rect.zero
        let limitShadow = !shadowArea.isEmpty && !shadowArea.isInfinite
        let (sx0, sy0) = (Float(shadowArea.minX), Float(shadowArea.minY))
        let (sx1, sy1) = (Float(shadowArea.maxX), Float(shadowArea.maxY))
        let (dx, dy) = (cos(angle), sin(angle))
        let (lo, hi) = projectedRange(area, dx, dy)
        // The axis runs from the far side (nothing rolled) to a radius before the near side (all rolled).
        let axis = hi - (hi - lo + radius) * Double(p.time)
        let extent = p.extent
        let sourceRect = PixelRect(covering: p.source.extent)
        let backRect = PixelRect(covering: backside.extent.isInfinite ? p.source.extent : backside.extent)
        let shadeExtent = shading?.extent ?? .zero
        let shadeRect = shadeExtent.isEmpty ? PixelRect(x: 0, y: 0, width: 1, height: 1)
            : PixelRect(covering: shadeExtent.isInfinite ? Rect(x: 0, y: 0, width: 64, height: 1)
                        : Rect(x: shadeExtent.minX, y: shadeExtent.midY.rounded(.down), width: shadeExtent.width, height: 1))
        let hasShade = !shadeExtent.isEmpty
        let (fdx, fdy, fr, fl) = (Float(dx), Float(dy), Float(radius), Float(axis))
        let shadowReach = Float(radius) * 2 * shadowSize
        // The sheet points an output rectangle can show: the rectangle itself (flat part), the rectangle slid up
        // to πR along d (the cylinder), and its mirror image about the line s = axis + πR/2 (the flipped layer).
        let mirrorAt = axis + Double.pi * radius / 2
        let slide = Double.pi * radius
        @Sendable func sheetROI(_ rect: PixelRect, within limit: PixelRect) -> PixelRect {
            let r = rect.rect
            var xs: [Double] = [], ys: [Double] = []
            for (cx, cy) in [(r.minX, r.minY), (r.maxX, r.minY), (r.minX, r.maxY), (r.maxX, r.maxY)] {
                let s = cx * dx + cy * dy
                let m = 2 * (mirrorAt - s)
                xs += [cx, cx + slide * dx, cx + m * dx]
                ys += [cy, cy + slide * dy, cy + m * dy]
            }
            let box = Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            return PixelRect(covering: box.insetBy(dx: -2, dy: -2)).intersection(limit)
        }
        let kernel = GeneralKernel(name: withShadow ? "pageCurlShadow" : "pageCurl", roi: { index, rect in
            switch index {
            case 0: sheetROI(rect, within: sourceRect)
            case 1: sheetROI(rect, within: backRect)
            case 2: rect
            default: shadeRect
            }
        }) { context in
            let source = context.inputs[0], back = context.inputs[1], target = context.inputs[2]
            let shade: PixelBuffer? = hasShade ? context.inputs[3] : nil
            let out = context.output, r = context.rect
            // The sheet is the source's extent (not the part of it materialised for this tile).
            let srcMinX = Float(sourceRect.x), srcMaxX = Float(sourceRect.maxX)
            let srcMinY = Float(sourceRect.y), srcMaxY = Float(sourceRect.maxY)
            @inline(__always) func onSheet(_ x: Float, _ y: Float) -> Bool {
                x >= srcMinX && x <= srcMaxX && y >= srcMinY && y <= srcMaxY
            }
            for y in r.y..<r.maxY {
                let row = out.row(y) + (r.x - out.rect.x)
                let py = Float(y) + 0.5
                for x in r.x..<r.maxX {
                    let px = Float(x) + 0.5
                    let s = px * fdx + py * fdy
                    // The point's offset from the axis, and the sheet points (arc length past the axis) above it.
                    let rel = s - fl
                    // 1. On top: the flipped layer (arc length > πR) or the cylinder's upper half, back side up.
                    var top = Pixel(0, 0, 0, 0)
                    var arc: Float = -1
                    if rel <= 0 { arc = Float.pi * fr - rel }
                    else if rel <= fr { arc = Float.pi * fr - fr * asin(min(rel / fr, 1)) }
                    if arc >= 0 {
                        let sx = px + (fl + arc - s) * fdx, sy = py + (fl + arc - s) * fdy
                        if onSheet(sx, sy) {
                            top = back.sampleLinear(sx, sy)
                            if rel > 0 {
                                // On the cylinder: lit by the angle around it (or by the shading image).
                                let t = arc / (Float.pi * fr)
                                var light: Float = 0.6 + 0.4 * sin(t * Float.pi)
                                if let shade {
                                    let w = shade.rect.width
                                    let sample = shade.pixel(x: shade.rect.x + min(Int(saturating: t * Float(w)), w - 1), y: shade.rect.y)
                                    let a = max(sample.w, 1e-6)
                                    light = 0.5 + 0.5 * (0.2126 * sample.x + 0.7152 * sample.y + 0.0722 * sample.z) / a
                                }
                                top = Pixel(top.x * light, top.y * light, top.z * light, top.w)
                            }
                        }
                    }
                    // 2. Beneath: the flat sheet before the axis, or the cylinder's lower half (front side up).
                    var front = Pixel(0, 0, 0, 0)
                    if rel <= 0 {
                        front = source.pixel(x: x, y: y)
                    } else if rel <= fr {
                        let a1 = fr * asin(min(rel / fr, 1))
                        let sx = px + (fl + a1 - s) * fdx, sy = py + (fl + a1 - s) * fdy
                        if onSheet(sx, sy) {
                            let k: Float = 1 - 0.35 * (a1 / (fr * Float.pi / 2))
                            let f = source.sampleLinear(sx, sy)
                            front = Pixel(f.x * k, f.y * k, f.z * k, f.w)
                        }
                    }
                    var beneath = target.pixel(x: x, y: y)
                    // 3. The curl's shadow on the uncovered target, just past the cylinder.
                    if shadowAmount > 0, rel > fr, shadowReach > 0, rel < fr + shadowReach,
                       !limitShadow || (px >= sx0 && px < sx1 && py >= sy0 && py < sy1) {
                        let k = 1 - shadowAmount * (1 - (rel - fr) / shadowReach)
                        beneath = Pixel(beneath.x * k, beneath.y * k, beneath.z * k, beneath.w + (1 - beneath.w) * (1 - k))
                    }
                    let base = front + beneath * (1 - front.w)
                    let result = top + base * (1 - top.w)
                    row[x - r.x] = result
                }
            }
        }
        let shadeInput = shading.map { $0.extent.isInfinite ? $0.cropped(to: shadeRect.rect) : $0 } ?? Image.empty
        return kernel.apply(extent: extent, inputs: [p.source, backside, p.target, shadeInput])
    }
}
