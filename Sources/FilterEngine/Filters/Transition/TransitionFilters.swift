import Foundation

/// Transitions: `inputImage` turns into `inputTargetImage` as `inputTime` runs from 0 to 1. Time 0 gives the
/// source and time 1 the target everywhere; the output covers the union of the two images' extents (as Core
/// Image's renders in shared/conformance show: a 500×500 `inputExtent` on 1500×1500 images still gives 1500×1500).
enum TransitionFilters {
    static let all: [String: FilterImplementation] = pageCurls.merging(basic) { a, _ in a }

    static let basic: [String: FilterImplementation] = [
        "CIDissolveTransition": dissolve,
        "CISwipeTransition": swipe,
        "CIBarsSwipeTransition": barsSwipe,
        "CIFlashTransition": flash,
        "CIModTransition": mod,
        "CICopyMachineTransition": copyMachine,
        "CIDisintegrateWithMaskTransition": disintegrateWithMask,
        "CIRippleTransition": ripple,
        "CIAccordionFoldTransition": accordionFold,
    ]

    struct Pair {
        let source: Image, target: Image, time: Float
        var extent: Rect { source.extent.union(target.extent) }
        /// At time 0 the source, at time 1 the target (over the output extent); nil in between.
        var endpoint: Image? {
            time <= 0 ? source.withExtent(extent) : time >= 1 ? target.withExtent(extent) : nil
        }
    }

    /// The two images and the time (clamped to 0…1).
    static func pair(_ inputs: FilterInputs) throws -> Pair {
        let target = try inputs.image("inputTargetImage")
        return Pair(source: try inputs.image("inputImage"), target: target,
                    time: min(max(try inputs.float("inputTime"), 0), 1))
    }

    /// The range of `dot(p, direction)` over a rectangle's corners.
    static func projectedRange(_ rect: Rect, _ dx: Double, _ dy: Double) -> (Double, Double) {
        let values = [rect.minX * dx + rect.minY * dy, rect.maxX * dx + rect.minY * dy,
                      rect.minX * dx + rect.maxY * dy, rect.maxX * dx + rect.maxY * dy]
        return (values.min()!, values.max()!)
    }

    // MARK: Dissolve

    /// A cross-fade in the working space (linear, premultiplied): source·(1−t) + target·t.
    static func dissolve(_ inputs: FilterInputs) throws -> Image {
        let p = try pair(inputs)
        if let end = p.endpoint { return end }
        return MaskBlendFilters.crossFade(from: p.source, to: p.target, amount: p.time, extent: p.extent)
    }

    // MARK: Swipe

    /// A band `inputWidth` wide crosses `inputExtent` along `inputAngle`: ahead of it the source, behind it the
    /// target, and across it the two cross-fade linearly while the colour is laid over them with a triangular
    /// weight (`inputOpacity` on the band's centre line, nothing at its edges). The centre line runs from half a
    /// band before the extent to half a band past it, so times 0 and 1 show no colour. Measured on Core Image's
    /// render in shared/conformance: the fitted source/target mix and colour weight follow these two ramps to
    /// about 0.01, and the band's centre sits where this model puts it.
    static func swipe(_ inputs: FilterInputs) throws -> Image {
        let p = try pair(inputs)
        if let end = p.endpoint { return end }
        let area = try inputs.rect("inputExtent")
        let color = try inputs.color("inputColor").workingPixel
        let angle = try inputs.number("inputAngle")
        let width = max(try inputs.number("inputWidth"), 0.1)
        let opacity = min(max(try inputs.float("inputOpacity"), 0), 1)
        let (dx, dy) = (cos(angle), sin(angle))
        let (lo, hi) = projectedRange(area, dx, dy)
        let edge = Float((lo - width / 2) + (hi - lo + width) * Double(p.time))
        let half = Float(width / 2)
        let (fdx, fdy) = (Float(dx), Float(dy))
        return ColorKernel(name: "swipe") { span in
            let s = span.out, d = span.input(1)
            let py = Float(span.y) + 0.5
            for i in 0..<span.count {
                let px = Float(span.x0 + i) + 0.5
                // −1 at the band's trailing edge (target side), +1 at its leading edge (source side).
                let u = min(max((px * fdx + py * fdy - edge) / half, -1), 1)
                let w = 0.5 - 0.5 * u                    // the target's share
                let k = opacity * (1 - abs(u))           // the colour's share
                let ks = (1 - k) * (1 - w), kt = (1 - k) * w
                s.r[i] = s.r[i] * ks + d.r[i] * kt + color.x * k
                s.g[i] = s.g[i] * ks + d.g[i] * kt + color.y * k
                s.b[i] = s.b[i] * ks + d.b[i] * kt + color.z * k
                s.a[i] = s.a[i] * ks + d.a[i] * kt + color.w * k
            }
        }.apply(extent: p.extent, inputs: [p.source, p.target])
    }

    // MARK: Bars swipe

    /// The source is cut into bars `inputWidth` wide, perpendicular to `inputAngle` (d = (cos θ, sin θ)), that slide
    /// along themselves (direction (sin θ, −cos θ)), uncovering the target. The bars are counted along d from the
    /// low end `lo` of the union of both extents (bar n covers lo + n·w ≤ p·d < lo + (n+1)·w), and renumbered from
    /// the bar holding the source's own low end (b = n − ⌊(loₛ − lo)/w⌋); bar b moves
    /// max(0, 62.92·t − √offset·b)² pixels: the first bars go first, each later one √offset behind in that
    /// square root. The output covers the source's extent (the target shows only inside it). Fitted on Core Image's
    /// renders in shared/conformance: iOS 13.3 (angle 3, width 60, offset 1, t = 0.607, 1500² images) at 40 dB and
    /// iOS 7 (angle π, width 30, offset 10, t = 0.5, a 500×267 source on a 640×478 target) at 34 dB; in both the
    /// square root of each bar's displacement steps by exactly √offset from bar to bar, and 62.92·t is the same
    /// constant in both. That law alone never clears a large image, so from t = 0.8 on every bar is also pushed by
    /// up to the source's whole length, which makes time 1 the target (a guess: no render past t = 0.61).
    static func barsSwipe(_ inputs: FilterInputs) throws -> Image {
        let p = try pair(inputs)
        let sourceArea = p.source.extent
        if p.time <= 0 || sourceArea.isEmpty { return p.source }
        if sourceArea.isInfinite { return p.time >= 1 ? p.target : p.source }
        if p.time >= 1 { return p.target.cropped(to: sourceArea).withExtent(sourceArea) }
        let angle = try inputs.number("inputAngle")
        let width = max(try inputs.number("inputWidth"), 1)
        let offset = max(try inputs.number("inputBarOffset"), 0)
        let (dx, dy) = (cos(angle), sin(angle))
        let (mx, my) = (sin(angle), -cos(angle))
        let union = p.target.extent.isInfinite ? sourceArea : p.extent
        let lo = projectedRange(union, dx, dy).0
        let firstBar = ((projectedRange(sourceArea, dx, dy).0 - lo) / width).rounded(.down)
        let (mlo, mhi) = projectedRange(sourceArea, mx, my)
        let travel = mhi - mlo + 2
        let t = Double(p.time)
        let push = t > 0.8 ? travel * pow((t - 0.8) / 0.2, 3) : 0
        let (fdx, fdy, fmx, fmy) = (Float(dx), Float(dy), Float(mx), Float(my))
        let (fw, fpush, flo, ffirst) = (Float(width), Float(push), Float(lo), Float(firstBar))
        let (lead, stagger) = (Float(62.92 * t), Float(offset.squareRoot()))
        let fmax = Float(travel)
        let warp = WarpKernel(name: "barsSwipe") { coords, x0, y, count in
            let py = Float(y) + 0.5
            for i in 0..<count {
                let px = Float(x0 + i) + 0.5
                let bar = ((px * fdx + py * fdy - flo) / fw).rounded(.down) - ffirst
                let root = max(lead - stagger * bar, 0)
                let shift = min(root * root + fpush, fmax)
                coords[i] = SIMD2(px - shift * fmx, py - shift * fmy)
            }
        }
        let maxShift = travel
        let moved = warp.apply(extent: sourceArea, input: p.source) { rect in
            let back = Rect(x: rect.x - maxShift * max(mx, 0), y: rect.y - maxShift * max(my, 0),
                            width: rect.width + maxShift * abs(mx), height: rect.height + maxShift * abs(my))
            return back.insetBy(dx: -1, dy: -1).intersection(sourceArea)
        }
        return moved.composited(over: p.target).cropped(to: sourceArea).withExtent(sourceArea)
    }

    // MARK: Flash

    /// A flash of light bursts from `inputCenter`: until `inputFadeThreshold` of the time the source brightens
    /// towards a white flash streaked with `inputColor` rays (their length set by `inputMaxStriationRadius`, their
    /// strength and contrast by the striation inputs); after it the flash fades linearly into the target (Core
    /// Image's render at t = 0.96, threshold 0.8, shows the target under 20 % of white, as this gives).
    static func flash(_ inputs: FilterInputs) throws -> Image {
        let p = try pair(inputs)
        if let end = p.endpoint { return end }
        let center = try inputs.point("inputCenter")
        let area = try inputs.rect("inputExtent")
        let color = ColorMath.unpremultiplied(try inputs.color("inputColor").workingPixel)
        let striationRadius = Float(max(try inputs.number("inputMaxStriationRadius"), 0))
        let strength = Float(max(try inputs.number("inputStriationStrength"), 0))
        let contrast = Float(max(try inputs.number("inputStriationContrast"), 0))
        let threshold = Float(min(max(try inputs.number("inputFadeThreshold"), 0), 1))
        let t = p.time
        let corners = [(area.minX, area.minY), (area.maxX, area.minY), (area.minX, area.maxY), (area.maxX, area.maxY)]
        let reach = Float(max(corners.map { hypot($0.0 - center.x, $0.1 - center.y) }.max() ?? 1, 1))
        // Flash build-up (0…1) and fade into the target (0…1).
        let build: Float = threshold > 0 ? min(t / threshold, 1) : 1
        let fade: Float = t > threshold ? (t - threshold) / max(1 - threshold, 1e-6) : 0
        let (cx, cy) = (Float(center.x), Float(center.y))
        return ColorKernel(name: "flash") { span in
            let s = span.out, d = span.input(1)
            let py = Float(span.y) + 0.5 - cy
            for i in 0..<span.count {
                let px = Float(span.x0 + i) + 0.5 - cx
                let r = (px * px + py * py).squareRoot() / reach
                let rayReach = min(striationRadius * 0.25, 1) * build
                let falloff = max(0, 1 - r / max(rayReach, 1e-3))
                var tint: Float = 0
                if falloff > 0 && strength > 0 {
                    // Rays: a few incommensurate angular waves, sharpened by the contrast.
                    let theta = atan2(py, px)
                    var ray = 0.5 + 0.2 * sin(theta * 37) + 0.17 * sin(theta * 91 + 1.3) + 0.13 * sin(theta * 211 + 2.1)
                    ray = pow(min(max(ray, 0), 1), max(contrast, 0.05))
                    tint = min(strength * ray * falloff * 0.5, 1)
                }
                // The flash itself: white spreading out from the centre as it builds.
                let front = build * 1.6 - r
                let lightness = build >= 1 ? 1 : min(max(front * 2.5, 0), 1) * build
                let fr = 1 + (color.x - 1) * tint, fg = 1 + (color.y - 1) * tint, fb = 1 + (color.z - 1) * tint
                let w = lightness * (1 - fade)
                let base = 1 - w
                // Before the fade the flash covers the source; during it, the target shows through.
                let useTarget = fade > 0
                let br = useTarget ? d.r[i] : s.r[i], bg = useTarget ? d.g[i] : s.g[i]
                let bb = useTarget ? d.b[i] : s.b[i], ba = useTarget ? d.a[i] : s.a[i]
                let flashWeight = useTarget ? 1 - fade : lightness
                let keep = useTarget ? fade : base
                s.r[i] = br * keep + fr * flashWeight
                s.g[i] = bg * keep + fg * flashWeight
                s.b[i] = bb * keep + fb * flashWeight
                s.a[i] = ba * keep + flashWeight
            }
        }.apply(extent: p.extent, inputs: [p.source, p.target])
    }

    // MARK: Mod

    /// The target shows through round holes on a square lattice that grow with time. Relative to `inputCenter`,
    /// a pixel (dx, dy) first has its x compressed (c = `inputCompression`, B = 1.32363904·c, m = c/2):
    /// X = 1.17377448·(B + m)·(φ(dx − m) − φ(−m)), φ(v) = v / (B + |v|), so X(0) = 0 and X(c) = 1.17377448·c, and
    /// a small compression squeezes all of x into a few pixels (then the holes become bands across y). Then
    /// (X, dy) is turned by θ = t·(`inputAngle` − π/4) + π/4 and divided by r = `inputRadius`: p = R(θ)(X, dy)/r.
    /// The distance d = 2·|p − round(p)| to the nearest lattice point (one sits on the centre) is compared with
    /// τ = 1.47303709·t: the target's weight is 1 − clamp(17·d/τ − 16.5, 0, 1), so the holes' edge is a ramp
    /// τ/17 wide around d = τ, and at t = 1 every point (d ≤ √2) shows the target. The mix is linear
    /// (premultiplied) over the union of the two extents. The constants 1.47303709, 17, 16.5, 1.17377448,
    /// 1.32363904 and the angle's π/4 blend are the arguments Core Image passes its kernel; the shape of the
    /// x compression and the lattice test were fitted on Core Image's renders in shared/conformance: iOS 13.3
    /// (centre (0, 0), angle 3, radius 50, compression 1, t = 0.501: 79 dB in the fit) and iOS 7 (centre
    /// (150, 150), angle 2, radius 150, compression 300, t = 0.5: 63 dB), one rule for both.
    static func mod(_ inputs: FilterInputs) throws -> Image {
        let p = try pair(inputs)
        if let end = p.endpoint { return end }
        let center = try inputs.point("inputCenter")
        let angle = try inputs.number("inputAngle")
        let radius = try inputs.number("inputRadius")
        let compression = try inputs.number("inputCompression")
        let t = Double(p.time)
        let theta = t * (angle - 0.7854) + 0.7854
        let tau = t * 1.47303709
        let c = abs(compression) > 1e-6 ? compression : 1e-6
        let b = 1.32363904 * c, m = c / 2
        let gain = 1.17377448 * (b + m)
        let phiAtMinusM = -m / (b + abs(m))
        let r = abs(radius) > 1e-6 ? radius : 1e-6
        let (cosT, sinT) = (cos(theta) / r, sin(theta) / r)
        let (cx, cy) = (center.x, center.y)
        return ColorKernel(name: "mod") { span in
            let s = span.out, d = span.input(1)
            let dy = Double(span.y) + 0.5 - cy
            for i in 0..<span.count {
                let dx = Double(span.x0 + i) + 0.5 - cx
                let v = dx - m
                let x = gain * (v / (b + abs(v)) - phiAtMinusM)
                let px = x * cosT + dy * sinT, py = -x * sinT + dy * cosT
                let qx = 2 * (px - px.rounded()), qy = 2 * (py - py.rounded())
                let dist = (qx * qx + qy * qy).squareRoot()
                let w = Float(1 - min(max(dist * 17 / tau - 16.5, 0), 1))   // the target's share
                if w <= 0 { continue }
                let k = 1 - w
                s.r[i] = s.r[i] * k + d.r[i] * w
                s.g[i] = s.g[i] * k + d.g[i] * w
                s.b[i] = s.b[i] * k + d.b[i] * w
                s.a[i] = s.a[i] * k + d.a[i] * w
            }
        }.apply(extent: p.extent, inputs: [p.source, p.target])
    }

    // MARK: Copy machine

    /// A bar of light `inputWidth` (w) wide sweeps along `inputAngle` (d = (cos θ, sin θ)) as in a photocopier: the
    /// target lies behind it, the source ahead. With lo…hi the range of p·d over `inputExtent`, the bar's leading
    /// edge is at lo + 1.535·t·(hi − lo + w) (it leaves the extent at t ≈ 0.65). Across the bar, s runs from 0 at
    /// its trailing edge to 1 at its leading one; the target there gets light added, 1.5·`inputOpacity`·s times
    /// `inputColor`'s sRGB-encoded components (so the core burns to white and the rim keeps the tint), and over
    /// the last w/8 before the leading edge it cross-fades linearly into the source. Fitted on Core Image's
    /// renders in shared/conformance: iOS 13.3 (angle 3, extent 500², width 100, t = 0.253, orange, opacity 1) at
    /// 41 dB and iOS 7 (angle 0, extent 300², width 200, t = 0.5, mint, opacity 1.3) at 32 dB: the factor 1.535
    /// and the ramp fit both; the light's exact profile is a fit (linear, not Apple's published formula).
    /// Times 0 and 1 give exactly the source and the target.
    static func copyMachine(_ inputs: FilterInputs) throws -> Image {
        let p = try pair(inputs)
        if let end = p.endpoint { return end }
        let area = try inputs.rect("inputExtent")
        let colorValue = try inputs.color("inputColor")
        let ca = Float(colorValue.alpha)
        let light = SIMD3<Float>(Float(colorValue.red) * ca, Float(colorValue.green) * ca, Float(colorValue.blue) * ca)
        let angle = try inputs.number("inputAngle")
        let width = max(try inputs.number("inputWidth"), 0.1)
        let opacity = max(try inputs.float("inputOpacity"), 0)
        let (dx, dy) = (cos(angle), sin(angle))
        let (lo, hi) = projectedRange(area, dx, dy)
        let lead = Float(lo + 1.535 * Double(p.time) * (hi - lo + width))
        let fw = Float(width)
        let fade = fw / 8
        let gain = 1.5 * opacity
        let (fdx, fdy) = (Float(dx), Float(dy))
        return ColorKernel(name: "copyMachine") { span in
            let s = span.out, d = span.input(1)
            let py = Float(span.y) + 0.5
            for i in 0..<span.count {
                let px = Float(span.x0 + i) + 0.5
                let ahead = px * fdx + py * fdy - lead      // > 0: the bar has not reached the pixel
                if ahead >= 0 { continue }
                var r = d.r[i], g = d.g[i], b = d.b[i]
                let a = d.a[i]
                if ahead > -fw {
                    let k = gain * (1 + ahead / fw) * a    // the light, 0 at the trailing edge
                    r += light.x * k; g += light.y * k; b += light.z * k
                }
                let m = max(ahead / fade + 1, 0)            // the source's share, 1 at the leading edge
                s.r[i] = r * (1 - m) + s.r[i] * m
                s.g[i] = g * (1 - m) + s.g[i] * m
                s.b[i] = b * (1 - m) + s.b[i] * m
                s.a[i] = a * (1 - m) + s.a[i] * m
            }
        }.apply(extent: p.extent, inputs: [p.source, p.target])
    }

    // MARK: Disintegrate with mask

    /// Pixels of the source vanish in the order of the mask's linear luminance, darkest first (a pixel shows the
    /// target once its luminance is at most t), revealing the target; the remaining source casts a soft shadow
    /// (Gaussian, σ = `inputShadowRadius`/8, strength 0.85·`inputShadowDensity`, moved by `inputShadowOffset`) onto
    /// the uncovered target. Midway the whole uncovered target is also dimmed and the remaining source brightened,
    /// by the same c = 0.516·t·(1 − t)·density (×(1 − c) and ×(1 + c) in linear light, c = 0.129 at t = 0.5).
    /// Fitted on Core Image's iOS 13.3 render in shared/conformance (t = 0.502, radius 30, density 1): the target
    /// there is exactly 0.871 of itself away from the source and the source 1.127–1.13 of itself everywhere, the
    /// edge falls at luminance t, and the shadow fades within about 18 px (37 dB). How c varies with time and
    /// density is a guess from that one render (zero at both ends so that t = 0 and 1 stay exact).
    static func disintegrateWithMask(_ inputs: FilterInputs) throws -> Image {
        let p = try pair(inputs)
        if let end = p.endpoint { return end }
        let mask = try inputs.image("inputMaskImage")
        let radius = max(try inputs.number("inputShadowRadius"), 0)
        let density = min(max(try inputs.float("inputShadowDensity"), 0), 1)
        let offset = try inputs.point("inputShadowOffset")
        let t = p.time
        // 1 where the source remains, 0 where it has gone (inside the mask; outside, the mask reads 0).
        let remaining = ColorKernel(name: "disintegrateRemaining") { span in
            let m = span.out
            for i in 0..<span.count {
                let a = m.a[i]
                let luma = a > 0 ? (0.2126 * m.r[i] + 0.7152 * m.g[i] + 0.0722 * m.b[i]) / a : 0
                let level = 0.0005 + min(max(luma, 0), 1) * 0.999
                let keep: Float = level > t ? 1 : 0
                m.r[i] = keep; m.g[i] = keep; m.b[i] = keep; m.a[i] = keep
            }
        }.apply(extent: p.extent, inputs: [mask.withExtent(p.extent)])
        var shadow = remaining
        if density > 0 {
            shadow = softShadow(remaining, sigma: radius / 8)
                .transformed(by: .translation(x: offset.x.rounded(), y: offset.y.rounded()))
        }
        let c = 0.516 * t * (1 - t) * density
        let (lift, dim) = (1 + c, 1 - c)
        return ColorKernel(name: "disintegrate") { span in
            let s = span.out, r = span.input(1), d = span.input(2), sh = span.input(3)
            for i in 0..<span.count {
                if r.a[i] > 0.5 {
                    s.r[i] *= lift; s.g[i] *= lift; s.b[i] *= lift
                    continue
                }
                let dark = dim * (1 - 0.85 * density * min(max(sh.a[i], 0), 1))
                s.r[i] = d.r[i] * dark; s.g[i] = d.g[i] * dark; s.b[i] = d.b[i] * dark
                s.a[i] = d.a[i]
            }
        }.apply(extent: p.extent, inputs: [p.source, remaining, p.target, density > 0 ? shadow : remaining])
    }

    /// A Gaussian blur for a soft shadow mask: from σ = 2 on it runs at half resolution (one pyramid level, the
    /// variance of the 2×2 averaging taken off σ), about twice as fast as the full-size blur and visually the same.
    static func softShadow(_ mask: Image, sigma: Double) -> Image {
        guard sigma >= 2, sigma < 5, !mask.extent.isEmpty, !mask.extent.isInfinite else {
            return BlurFilters.gaussian(mask, sigma: sigma)
        }
        let smallSigma = (max(sigma * sigma - 11.0 / 12, 0.25)).squareRoot() / 2
        let weights = Convolution.gaussianWeights(sigma: smallSigma, radius: Int((3 * smallSigma).rounded(.up)))
        let small = mask.downsampled(by: 2)
        let blurred = Convolution.pass(Convolution.pass(small, weights: weights, vertical: false), weights: weights, vertical: true)
        return blurred.upsampled(by: 2, extent: BlurFilters.outputExtent(of: mask.extent, sigma: sigma))
    }

    // MARK: Ripple

    /// A ring wave spreads from `inputCenter`: behind it the target, ahead of it the source, across it the two
    /// refracted radially, and the shading image laid over everything (source-over) as a light map looked up by
    /// the wave's slope. With u = (distance − R)/W, W = 1.125·`inputWidth` the ring's half width and
    /// R = t·(reach + 2W) − W its middle (reach: the farthest corner of `inputExtent` from the centre, so the ring
    /// starts just inside the centre at t = 0 and has passed the whole extent at t = 1), the slope n(u) is made of
    /// three smoothstep pieces: 0 at u = −1 up to +1 at u = −⅓, down to −1 at u = +⅓, back to 0 at u = 1 (0 off the
    /// ring). Each image is read at distance + `inputScale`·n along the ray from the centre; the target's share is
    /// 1 − smoothstep((3u + 1)/2) (all target inside u = −⅓, all source outside u = ⅓); the shading image is read at
    /// its centre + n·(its half size) along the same ray, so off the ring its centre colour covers the output.
    /// Fitted on Core Image's render in shared/conformance (iOS 13.3: width 500, scale 10, t = 0.698, centre 0,0,
    /// extent 500², a photo as shading): the slope read back from the shading lookup follows the three smoothsteps
    /// to 0.003, the half width is 1.125·width to ±0.2 %, the image displacement is scale·n to half a pixel, and the
    /// whole model gives 69.9 dB. The 1.125 factor and the time law rest on that one render.
    static func ripple(_ inputs: FilterInputs) throws -> Image {
        let p = try pair(inputs)
        // The ends are the images themselves, as every transition's here (no render of them; the model would lay
        // the shading's centre colour over them).
        if let end = p.endpoint { return end }
        let shading = try inputs.image("inputShadingImage")
        let center = try inputs.point("inputCenter")
        let area = try inputs.rect("inputExtent")
        let width = Float(max(try inputs.number("inputWidth"), 0.01))
        let scale = Float(try inputs.number("inputScale"))
        let corners = [(area.minX, area.minY), (area.maxX, area.minY), (area.minX, area.maxY), (area.maxX, area.maxY)]
        let reach = Float(corners.map { hypot($0.0 - center.x, $0.1 - center.y) }.max() ?? 1)
        let half = 1.125 * width
        let ring = (reach + 2 * half) * p.time - half
        let (cx, cy) = (Float(center.x), Float(center.y))
        let margin = Int(saturating: abs(scale).rounded(.up)) + 2
        // The shading image's frame: its extent (an infinite one is read over the output's extent).
        let shadeFrame: Rect = shading.extent.isInfinite
            ? (p.extent.isInfinite || p.extent.isEmpty ? Rect(x: 0, y: 0, width: 1, height: 1) : p.extent)
            : shading.extent
        let shadeInput = shading.extent.isInfinite ? shading.cropped(to: shadeFrame) : shading
        let shadeRect = shadeFrame.isEmpty ? PixelRect(x: 0, y: 0, width: 1, height: 1) : PixelRect(covering: shadeFrame)
        let (scx, scy) = (Float(shadeFrame.midX), Float(shadeFrame.midY))
        let (shw, shh) = (Float(shadeFrame.width / 2), Float(shadeFrame.height / 2))
        let kernel = GeneralKernel(name: "ripple", roi: { index, rect in
            index < 2 ? rect.insetBy(dx: -margin, dy: -margin) : shadeRect
        }) { context in
            let source = context.inputs[0], target = context.inputs[1], shade = context.inputs[2]
            let out = context.output, r = context.rect
            let flatLight = shadeFrame.isEmpty ? Pixel(0, 0, 0, 0) : shade.sampleLinear(scx, scy)
            for y in r.y..<r.maxY {
                let row = out.row(y) + (r.x - out.rect.x)
                let py = Float(y) + 0.5 - cy
                for x in r.x..<r.maxX {
                    let px = Float(x) + 0.5 - cx
                    let radius = (px * px + py * py).squareRoot()
                    let u = (radius - ring) / half
                    guard abs(u) < 1, radius > 0 else {
                        // Off the ring: flat water, the centre of the light map over the image as it is.
                        let base = u < 0 ? target.pixel(x: x, y: y) : source.pixel(x: x, y: y)
                        row[x - r.x] = flatLight + base * (1 - flatLight.w)
                        continue
                    }
                    let slope: Float, share: Float
                    if abs(u) < 1.0 / 3 {
                        let s = TransitionFilters.rippleStep((3 * u + 1) / 2)
                        slope = 1 - 2 * s; share = 1 - s
                    } else {
                        let fall = 1 - TransitionFilters.rippleStep((abs(u) - 1.0 / 3) * 1.5)
                        slope = u < 0 ? fall : -fall; share = u < 0 ? 1 : 0
                    }
                    let (dx, dy) = (px / radius, py / radius)
                    let k = scale * slope
                    let sx = cx + px + k * dx, sy = cy + py + k * dy
                    var base = Pixel(0, 0, 0, 0)
                    if share < 1 { base += source.sampleLinear(sx, sy) * (1 - share) }
                    if share > 0 { base += target.sampleLinear(sx, sy) * share }
                    let light = shadeFrame.isEmpty ? Pixel(0, 0, 0, 0)
                        : shade.sampleLinear(scx + shw * slope * dx, scy + shh * slope * dy)
                    row[x - r.x] = light + base * (1 - light.w)
                }
            }
        }
        return kernel.apply(extent: p.extent, inputs: [p.source, p.target, shadeInput])
    }

    /// Smoothstep on 0…1 (clamped): 3v² − 2v³.
    @inline(__always) static func rippleStep(_ v: Float) -> Float {
        let c = min(max(v, 0), 1)
        return c * c * (3 - 2 * c)
    }

    // MARK: Accordion fold

    /// An accordion that grows (or shrinks) from the shorter image's height to the taller one's. Call A the image
    /// of smaller height and B the other (A is the source unless the source is taller; s = t if A is the source,
    /// 1 − t if not), Δ = h_B − h_A, b = max(`inputBottomHeight`, 0), n = `inputNumberOfFolds` (rounded, 1…50).
    /// Both images are moved so that their bottom edge's midpoint is the origin and drawn into a box
    /// max(w_A, w_B) wide and h = h_A + s·Δ high: below y = b each is unchanged; above the fold
    /// (y ≥ b + s·Δ) A is moved up by s·Δ and B down by (1 − s)·Δ; in the fold (b < y < b + s·Δ), B's rows
    /// b…b + Δ are squeezed evenly into s·Δ (y_B = b + (y − b)/s) and A shows its row b stretched over the whole
    /// fold. The fold is 2n strips; across each strip x is read from x·(1 + k·d), d a triangle wave (0 at the
    /// strip edges b, b + 2·s·Δ/2n, … and 1 between), k = (1 − s)·Δ / (n·(w_A + w_B)) (the zigzag edges of a
    /// folded sheet seen in perspective); each strip is darkened towards its top, colour × (1 − a·(1 − s)·f),
    /// f the fraction of the strip below the point, a = `inputFoldShadowAmount` clamped to 0…1. The two
    /// are mixed (1 − s)·A + s·B (premultiplied) and the box is moved to (m_A + s·(m_B − m_A), y_A + s·(y_B − y_A)),
    /// m the images' horizontal middles and y their bottoms. So the extent is fractional in general; Apple's
    /// render puts the extent's top-left corner on the picture's top-left pixel corner, and so does this
    /// (pixel centres shifted by the extent's fractional offsets). Fitted on Core Image's iOS 13.3 render in
    /// shared/conformance (a 1000×562 source, a 1500² target, t = 0.497, 6 folds, bottom 100, shadow 1): extent
    /// 1501×1029 exactly, 44 dB; each part (rows, x scale, shading 1 − 0.503·f, the mix) was measured
    /// separately. Which of the four extent numbers picks A (height, taken here, or width) is not told by that
    /// case, where the source is both narrower and lower.
    static func accordionFold(_ inputs: FilterInputs) throws -> Image {
        let p = try pair(inputs)
        if p.time <= 0 { return p.source }
        if p.time >= 1 { return p.target }
        // An infinite image (a generator) folds as the other image's rectangle; two of them just dissolve.
        if p.source.extent.isInfinite && p.target.extent.isInfinite { return try dissolve(inputs) }
        let source = p.source.extent.isInfinite ? p.source.cropped(to: p.target.extent) : p.source
        let target = p.target.extent.isInfinite ? p.target.cropped(to: p.source.extent) : p.target
        let (se, te) = (source.extent, target.extent)
        if se.isEmpty && te.isEmpty { return .empty }
        let folds = Double(min(max(try inputs.integer("inputNumberOfFolds"), 1), 50))
        let shadowAmount = min(max(try inputs.number("inputFoldShadowAmount"), 0), 1)
        let bottom = max(try inputs.number("inputBottomHeight"), 0)
        let sourceIsA = se.height <= te.height
        let (a, b) = sourceIsA ? (source, target) : (target, source)
        let time = min(max(try inputs.number("inputTime"), 0), 1)     // a double, as Core Image reads it
        let s = sourceIsA ? time : 1 - time
        let (ae, be) = (a.extent, b.extent)
        let delta = be.height - ae.height
        let grown = s * delta                       // the fold's height on screen
        let shrink = (1 - s) * delta                // how much of B the fold hides
        let boxWidth = max(ae.width, be.width)
        let boxHeight = ae.height + grown
        let k = ae.width + be.width > 0 ? shrink / (folds * (ae.width + be.width)) : 0
        let strip = grown / (2 * folds)
        let shade = shadowAmount * (1 - s)
        let tx = ae.midX + s * (be.midX - ae.midX), ty = ae.minY + s * (be.minY - ae.minY)
        let extent = Rect(x: tx - boxWidth / 2, y: ty, width: boxWidth, height: boxHeight)
        // Apple's picture starts at the extent's top-left corner: the offsets of our whole-pixel grid from it.
        let fx = extent.minX - extent.minX.rounded(.down)
        let fy = extent.maxY.rounded(.up) - extent.maxY
        let (fTx, fTy, fBottom, fGrown, fShrink, fK, fStrip, fS) =
            (Float(tx), Float(ty), Float(bottom), Float(grown), Float(shrink), Float(k), Float(strip), Float(s))
        let (ffx, ffy) = (Float(fx), Float(fy))
        /// The box coordinates of a pixel, its fold row class and x factor.
        @Sendable func boxY(_ y: Int) -> Float { Float(y) + 0.5 - ffy - fTy }
        @Sendable func xFactor(_ by: Float) -> Float {
            guard by > fBottom, by < fBottom + fGrown, fStrip > 0 else { return 1 }
            let u = (by - fBottom) / fStrip
            let n = u.rounded(.down), f = u - n
            let d = Int(n) % 2 == 0 ? f : 1 - f
            return 1 + fK * d
        }
        let (amx, amy, bmx, bmy) = (Float(ae.midX), Float(ae.minY), Float(be.midX), Float(be.minY))
        let warpA = WarpKernel(name: "accordionFoldA") { coords, x0, y, count in
            let by = boxY(y)
            let sy: Float = by >= fBottom + fGrown ? by - fGrown : by > fBottom ? fBottom : by
            let m = xFactor(by)
            for i in 0..<count {
                let bx = Float(x0 + i) + 0.5 + ffx - fTx
                coords[i] = SIMD2(bx * m + amx, sy + amy)
            }
        }
        let warpB = WarpKernel(name: "accordionFoldB") { coords, x0, y, count in
            let by = boxY(y)
            let sy: Float = by >= fBottom + fGrown ? by + fShrink : by > fBottom ? fBottom + (by - fBottom) / fS : by
            let m = xFactor(by)
            for i in 0..<count {
                let bx = Float(x0 + i) + 0.5 + ffx - fTx
                coords[i] = SIMD2(bx * m + bmx, sy + bmy)
            }
        }
        let (wa, wb, fShade) = (1 - fS, fS, Float(shade))
        let mix = ColorKernel(name: "accordionFoldMix") { span in
            let o = span.out, q = span.input(1)
            let by = boxY(span.y)
            var g: Float = 1
            if by > fBottom, by < fBottom + fGrown, fStrip > 0 {
                let u = (by - fBottom) / fStrip
                g = 1 - fShade * (u - u.rounded(.down))
            }
            for i in 0..<span.count {
                o.r[i] = (o.r[i] * wa + q.r[i] * wb) * g
                o.g[i] = (o.g[i] * wa + q.g[i] * wb) * g
                o.b[i] = (o.b[i] * wa + q.b[i] * wb) * g
                o.a[i] = o.a[i] * wa + q.a[i] * wb
            }
        }
        return mix.apply(extent: extent, inputs: [warpA.apply(extent: extent, input: a),
                                                  warpB.apply(extent: extent, input: b)])
    }
}
