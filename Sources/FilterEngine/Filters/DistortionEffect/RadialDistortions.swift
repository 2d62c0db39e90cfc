import Foundation

// Distortions around a centre point: pinch, bump, vortex, hole, circle splash, light tunnel, circular wrap.
// Each is a warp: for every output pixel centre it computes the source point to sample. Apple documents what
// each does but not its exact falloff curve; where that is so, the curve chosen here is named in a comment.

extension DistortionFilters {
    /// Pulls the middle of the image towards the centre and pushes the far parts out, over the whole plane (not
    /// only inside the radius). With u = d / radius the output's relative distance from the centre, the source
    /// is read at relative distance v = (1 − scale)·u + scale·√u: a mix, by the scale, of the identity and the
    /// square root, which keeps the circle of the radius in place, shrinks what is inside it and spreads what
    /// is outside, so the output extent grows. Fitted on Apple's iOS 7 render (xamarin-docs-pinch-flower: scale
    /// 0.5, radius 300, centre 150,150 on 638×475): the measured v(u) from u = 0.03 to 2.3 follows this curve,
    /// 44.7 dB over the whole 753×572 output. Whether the square root's exponent is fixed or follows the scale
    /// cannot be told from one scale; fixed is assumed. Extent: the input rectangle, grown half a pixel, mapped
    /// forwards (v ↦ u) and made whole pixels; this gives Apple's −10,−27, 753×572 exactly. Scales outside
    /// [0, 1] fold the plane (v is not monotone; no render shows them): above 1 the output stops at the fold,
    /// below 0 it is the square holding every output point that reads within the input's reach.
    static func pinch(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let radius = try inputs.number("inputRadius")
        let scale = try inputs.number("inputScale")
        guard radius > 0, scale != 0 else { return image }
        let cx = Float(center.x), cy = Float(center.y), r = Float(radius), sc = Float(scale)
        let kernel = WarpKernel(name: "pinch") { coords, x0, y, count in
            let dy = Float(y) + 0.5 - cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - cx
                let d = (dx * dx + dy * dy).squareRoot()
                // Source distance / output distance = (1 − scale) + scale·√(radius / d).
                let f = d > 0 ? (1 - sc) + sc * (r / d).squareRoot() : 0
                coords[i] = SIMD2(cx + dx * f, cy + dy * f)
            }
        }
        // The relative source distance v of a relative output distance u, and the inverse for 0 < scale ≤ 1.
        let v: @Sendable (Double) -> Double = { u in (1 - scale) * u + scale * u.squareRoot() }
        let forward = { (v: Double) -> Double in
            if scale == 1 { return v * v }
            let w = (-scale + (scale * scale + 4 * (1 - scale) * v).squareRoot()) / (2 * (1 - scale))
            return w * w
        }
        let e = image.extent
        let extent: Rect
        if e.isInfinite || e.isEmpty {
            extent = e
        } else if scale > 0 && scale <= 1 {
            extent = DistortionGeometry.pushedBox(e.insetBy(dx: -0.5, dy: -0.5), center.x, center.y, atCentre: 0) { s in
                forward(s / radius) * radius / s
            }.integral
        } else {
            let far = DistortionGeometry.distanceRange(e, center.x, center.y).1 / radius + 1 / radius
            if scale > 1 {
                // v turns back at √u = scale / 2(scale − 1) (the fold): beyond it the plane shows the image again,
                // reflected through the centre, out to many radii (scale 1.5 on a 638×475 image would be ~9500 px
                // wide). No render shows what Apple does there: the output stops at the fold (this engine's choice)
                // and keeps at least the input's extent.
                let w = scale / (2 * (scale - 1))
                // Where v first reaches the input's farthest distance, if it does before the fold.
                let reaches = scale * scale - 4 * (scale - 1) * far >= 0
                let u = reaches ? min(w * w, forward(far)) : w * w
                extent = DistortionGeometry.discBox(center.x, center.y, u * radius).union(e).integral
            } else {
                // Negative scales: every output point reading within the input's farthest distance from the centre.
                extent = DistortionGeometry.discBox(center.x, center.y, forward(far) * radius).integral
            }
        }
        return kernel.apply(extent: extent, input: image) { rect in
            guard !rect.isInfinite else { return rect }
            let (near, far) = DistortionGeometry.distanceRange(rect, center.x, center.y)
            // The largest source distance read: at the ends of [near, far] or where v turns (√u = s / 2(s − 1)).
            var reach = max(abs(v(near / radius)), abs(v(far / radius)))
            if scale > 1 || scale < 0 {
                let w = scale / (2 * (scale - 1))
                if w > 0, w * w >= near / radius, w * w <= far / radius { reach = max(reach, abs(v(w * w))) }
            }
            let disc = DistortionGeometry.discBox(center.x, center.y, reach * radius + 1)
            guard near > 0 else { return disc }
            // Away from the centre each point p reads c + (p − c)·f with f = (1 − s) + s / √u monotone in u:
            // the rectangle scaled about the centre by f at its nearest and farthest distances bounds the reads.
            func scaled(_ f: Double) -> Rect {
                let xs = [center.x + (rect.minX - center.x) * f, center.x + (rect.maxX - center.x) * f]
                let ys = [center.y + (rect.minY - center.y) * f, center.y + (rect.maxY - center.y) * f]
                return Rect(x: xs.min()!, y: ys.min()!, width: abs(xs[1] - xs[0]), height: abs(ys[1] - ys[0]))
            }
            let fNear = (1 - scale) + scale * (radius / near).squareRoot()
            let fFar = (1 - scale) + scale * (radius / far).squareRoot()
            return scaled(fNear).union(scaled(fFar)).insetBy(dx: -1, dy: -1).intersection(disc)
        }
    }

    /// A lens-like bump: positive scales magnify the middle (a bulge), negative ones shrink it (a dent). The
    /// source distance is d · (1 − scale · (1 − smoothstep(d / radius))): smoothstep is this engine's choice of
    /// falloff (Apple does not document its curve); it is the identity at scale 0 and meets the rim smoothly.
    static func bump(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let radius = try inputs.number("inputRadius")
        let scale = try inputs.float("inputScale")
        guard radius > 0, scale != 0 else { return image }
        let cx = Float(center.x), cy = Float(center.y), r = Float(radius)
        let kernel = WarpKernel(name: "bump") { coords, x0, y, count in
            let dy = Float(y) + 0.5 - cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - cx
                let d = (dx * dx + dy * dy).squareRoot()
                let t = min(d / r, 1)
                let f = 1 - scale * (1 - DistortionGeometry.smooth(t))
                coords[i] = SIMD2(cx + dx * f, cy + dy * f)
            }
        }
        // Inside the disc a point reads at most (1 + |scale|) radii from the centre.
        let reach = radius * Double(1 + abs(scale))
        return kernel.apply(extent: image.extent, input: image, roi: DistortionGeometry.discROI(center.x, center.y, reach))
    }

    /// The bump across a line: the line passes through the centre at the given angle, and within the radius of
    /// it the distance p across the line reads the source at p · (scale + (1 − scale) · smoothstep(|p| / radius)).
    /// Scale 1 is the identity (as the catalogue says), 0.5 doubles the size along the line, negatives mirror.
    static func bumpLinear(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let radius = try inputs.number("inputRadius")
        let angle = try inputs.number("inputAngle")
        let scale = try inputs.float("inputScale")
        guard radius > 0, scale != 1 else { return image }
        let cx = Float(center.x), cy = Float(center.y), r = Float(radius)
        // The unit normal to the line.
        let nx = Float(-sin(angle)), ny = Float(cos(angle))
        let kernel = WarpKernel(name: "bumpLinear") { coords, x0, y, count in
            let dy = Float(y) + 0.5 - cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - cx
                let p = dx * nx + dy * ny
                let t = min(abs(p) / r, 1)
                let shift = p * (1 - scale) * (1 - DistortionGeometry.smooth(t))
                coords[i] = SIMD2(cx + dx - nx * shift, cy + dy - ny * shift)
            }
        }
        // A point moves along the normal by at most |1 − scale| · radius.
        let reach = Double(abs(1 - scale)) * radius + 1
        let mx = abs(Double(nx)) * reach + 1, my = abs(Double(ny)) * reach + 1
        return kernel.apply(extent: image.extent, input: image) { rect in rect.insetBy(dx: -mx, dy: -my) }
    }

    /// Rotates the pixels around the centre by an angle that falls from the full angle at the centre to zero
    /// at the radius; the default angle (18π) winds the middle nine times. Apple's falloff is not documented:
    /// here it is (1 − d / radius)², which reaches the rim without a kink. A positive angle turns the content
    /// counter-clockwise (the evidence is written at `DistortionFilters.twirl`).
    static func vortex(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let radius = try inputs.number("inputRadius")
        // Sampling at −angle turns the content by +angle.
        let angle = -(try inputs.float("inputAngle"))
        guard radius > 0, angle != 0 else { return image }
        let cx = Float(center.x), cy = Float(center.y), r = Float(radius)
        let kernel = WarpKernel(name: "vortex") { coords, x0, y, count in
            let dy = Float(y) + 0.5 - cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - cx
                let d = (dx * dx + dy * dy).squareRoot()
                if d >= r {
                    coords[i] = SIMD2(dx + cx, dy + cy)
                } else {
                    let t = 1 - d / r
                    let theta = angle * t * t
                    let c = cos(theta), s = sin(theta)
                    coords[i] = SIMD2(c * dx - s * dy + cx, s * dx + c * dy + cy)
                }
            }
        }
        return kernel.apply(extent: image.extent, input: image, roi: DistortionGeometry.discROI(center.x, center.y, radius))
    }

    /// A transparent hole of the given radius, the image pushed outwards around it: the output at distance d
    /// (beyond the radius) shows the source at distance d − radius²/d, so the rim shows the centre, the pixels
    /// next to the hole are stretched most and far ones hardly move. Fitted on Apple's iOS 7 render
    /// (xamarin-docs-hole-heron: radius 85, centre 150,150 on 500×267): the pushed image's edges sit where this
    /// map puts them (to 0.05 px) and the whole 559×351 output matches at 33.3 dB. Extent: the input rectangle
    /// mapped forwards (a source distance s goes to (s + √(s² + 4·radius²)) / 2) in whole pixels, which is
    /// Apple's −39,−39, 559×351.
    static func hole(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let radius = try inputs.number("inputRadius")
        guard radius > 0 else { return image }
        let cx = Float(center.x), cy = Float(center.y), r2 = Float(radius * radius)
        // Beyond this distance a point moves by less than a thousandth of a pixel (radius²/d): it is left where
        // it is, which also makes the catalogue's identity radius (0.1) leave the image unchanged.
        let still = radius * radius / 1e-3
        let still2 = Float(min(still * still, 1e30))
        let kernel = WarpKernel(name: "hole") { coords, x0, y, count in
            let dy = Float(y) + 0.5 - cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - cx
                let d2 = dx * dx + dy * dy
                if d2 <= r2 {
                    coords[i] = DistortionGeometry.nowhere
                } else if d2 > still2 {
                    coords[i] = SIMD2(cx + dx, cy + dy)
                } else {
                    let f = 1 - r2 / d2
                    coords[i] = SIMD2(cx + dx * f, cy + dy * f)
                }
            }
        }
        let e = image.extent
        let extent = e.isInfinite || e.isEmpty ? e
            : DistortionGeometry.pushedBox(e, center.x, center.y, atCentre: radius) { s in
                (s + (s * s + 4 * radius * radius).squareRoot()) / (2 * s)
            }.integral
        return kernel.apply(extent: extent, input: image) { rect in
            // A point at distance d moves inwards by radius²/d, at most the radius (at the rim).
            let near = max(DistortionGeometry.distanceRange(rect, center.x, center.y).0, radius)
            let grow = radius * radius / near + 1
            return rect.insetBy(dx: -grow, dy: -grow)
        }
    }

    /// Inside the circle the image is untouched; outside, every pixel repeats the point of the circle on its
    /// ray from the centre, streaking the rim outwards forever (so the output extent is infinite).
    static func circleSplash(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let radius = try inputs.number("inputRadius")
        guard radius > 0 else { return image }
        let cx = Float(center.x), cy = Float(center.y), r = Float(radius)
        let kernel = WarpKernel(name: "circleSplash") { coords, x0, y, count in
            let dy = Float(y) + 0.5 - cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - cx
                let d = (dx * dx + dy * dy).squareRoot()
                let f = d > r ? r / d : 1
                coords[i] = SIMD2(cx + dx * f, cy + dy * f)
            }
        }
        return kernel.apply(extent: .infinite, input: image, roi: Self.insideOrRim(center.x, center.y, radius))
    }

    /// The region of interest of a warp that is the identity inside a disc and reads the disc's rim outside it.
    static func insideOrRim(_ cx: Double, _ cy: Double, _ r: Double) -> @Sendable (Rect) -> Rect {
        let disc = DistortionGeometry.discBox(cx, cy, r).insetBy(dx: -1, dy: -1)
        return { rect in
            DistortionGeometry.rectInsideDisc(rect, cx, cy, r) ? rect.insetBy(dx: -1, dy: -1) : disc
        }
    }

    /// The disc of the given radius stays as it is; outside it every pixel at distance d and angle θ shows the rim
    /// point at angle θ + (radius / 2π)·ln(d / radius) − rotation: a logarithmic spiral that winds once every
    /// time the distance grows by the factor e^(2π/radius) (about 6.5 % at radius 100), so the rim's colours lie
    /// in tight rings that drift slowly round. Fitted on Core Image's iOS 7 render in shared/conformance (radius
    /// 100 about (150, 150), rotation left at its default 0): binning the outside by θ + k·ln d leaves a spread of
    /// 3 levels at k = 15.915 (= 100/2π) against 25 at k = 16 and 58 for the best linear law θ + k·d; the colours
    /// are the rim's (radius 100 exactly, no angle offset), and the model gives 36 dB (the rest is aliasing of the
    /// fine rings). Whether the winding is radius/2π or a constant 15.9 (only radius 100 was seen) is a guess, as
    /// is the role of inputRotation (Apple: "the initial angle of the image sample"; here it turns the streaks,
    /// a positive angle counter-clockwise as twirl and vortex do). The output extent is infinite, as the streaks are.
    static func lightTunnel(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        // Sampling at −rotation turns the streaks by +rotation.
        let rotation = -(try inputs.float("inputRotation"))
        let radius = try inputs.number("inputRadius")
        guard radius > 0 else { return image }
        let cx = Float(center.x), cy = Float(center.y), r = Float(radius)
        let winding = Float(radius / (2 * Double.pi))
        let kernel = WarpKernel(name: "lightTunnel") { coords, x0, y, count in
            let dy = Float(y) + 0.5 - cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - cx
                let d = (dx * dx + dy * dy).squareRoot()
                if d <= r {
                    coords[i] = SIMD2(cx + dx, cy + dy)
                } else {
                    let theta = rotation + winding * log(d / r)
                    let c = cos(theta), s = sin(theta)
                    let f = r / d
                    coords[i] = SIMD2(cx + (c * dx - s * dy) * f, cy + (s * dx + c * dy) * f)
                }
            }
        }
        return kernel.apply(extent: .infinite, input: image, roi: Self.insideOrRim(center.x, center.y, radius))
    }

    /// Bends the image into a ring around a transparent circle: the bottom edge of the image lies on the
    /// circle, rows further up lie further out, and the columns run clockwise around it with their lengths kept
    /// on the circle (one pixel of width per pixel of arc), the middle column pointing straight up when the angle
    /// is 0 (the angle turns the ring anticlockwise). The output extent is the square around the ring.
    static func circularWrap(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let radius = try inputs.number("inputRadius")
        let angle = try inputs.number("inputAngle")
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else { return image }
        let cx = Float(center.x), cy = Float(center.y), r = Float(radius)
        let minY = Float(e.minY), midX = Float(e.midX)
        let top = Float(Double.pi / 2 + angle)
        let twoPi = Float(2 * Double.pi), pi = Float.pi
        let kernel = WarpKernel(name: "circularWrap") { coords, x0, y, count in
            let dy = Float(y) + 0.5 - cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - cx
                let d = (dx * dx + dy * dy).squareRoot()
                // The angle from the image's middle column, in (−π, π].
                var delta = atan2(dy, dx) - top
                delta -= twoPi * (delta / twoPi).rounded()
                if delta <= -pi { delta += twoPi }
                coords[i] = SIMD2(midX - delta * r, minY + (d - r))
            }
        }
        let outer = radius + e.height
        let extent = DistortionGeometry.discBox(center.x, center.y, outer)
        return kernel.apply(extent: extent, input: image) { rect in
            let (near, far) = DistortionGeometry.distanceRange(rect, center.x, center.y)
            return Rect(x: e.minX, y: e.minY + near - radius - 1, width: e.width, height: far - near + 2)
        }
    }
}
