import Foundation

// Distortions around a centre point: pinch, bump, vortex, hole, circle splash, light tunnel, circular wrap.
// Each is a warp: for every output pixel centre it computes the source point to sample. Apple documents what
// each does but not its exact falloff curve; where that is so, the curve chosen here is named in a comment.

extension DistortionFilters {
    /// Pulls the pixels inside the radius towards the centre. Apple does not publish the curve: here a pixel at
    /// relative distance t = d / radius shows the source at relative distance t^(1 / (1 + scale)), which is the
    /// identity at scale 0 and at the rim, and pulls harder as the scale grows.
    static func pinch(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let radius = try inputs.number("inputRadius")
        let scale = try inputs.float("inputScale")
        guard radius > 0, scale != 0 else { return image }
        let cx = Float(center.x), cy = Float(center.y), r = Float(radius)
        let exponent = 1 / (1 + max(scale, -0.99)) - 1
        let kernel = WarpKernel(name: "pinch") { coords, x0, y, count in
            let dy = Float(y) + 0.5 - cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - cx
                let d = (dx * dx + dy * dy).squareRoot()
                var f: Float = 1
                if d < r && d > 0 { f = pow(d / r, exponent) }
                coords[i] = SIMD2(cx + dx * f, cy + dy * f)
            }
        }
        return kernel.apply(extent: image.extent, input: image, roi: DistortionGeometry.discROI(center.x, center.y, radius))
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
    /// (beyond the radius) shows the source at distance √(d² − radius²), so the pixels next to the hole are
    /// stretched most and far ones hardly move. Each point moves out by less than the radius, so the output
    /// extent is the input's grown by the radius (a finite rectangle holding every pixel the hole pushes out).
    static func hole(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let radius = try inputs.number("inputRadius")
        guard radius > 0 else { return image }
        let cx = Float(center.x), cy = Float(center.y), r2 = Float(radius * radius)
        // Beyond this distance a point moves by less than a thousandth of a pixel: it is left where it is, which
        // also makes the catalogue's identity radius (0.1) leave the image unchanged a few pixels from the centre.
        let epsilon = 1e-3
        let still = (radius * radius + epsilon * epsilon) / (2 * epsilon)
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
                    let f = ((d2 - r2) / d2).squareRoot()
                    coords[i] = SIMD2(cx + dx * f, cy + dy * f)
                }
            }
        }
        let grow = radius.rounded(.up)
        return kernel.apply(extent: image.extent.insetBy(dx: -grow, dy: -grow), input: image) { rect in
            rect.insetBy(dx: -grow - 1, dy: -grow - 1)
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

    /// The disc of the given radius stays as it is; outside it every pixel shows a point of the rim, turned by
    /// an angle that grows with the logarithm of the distance (rotation · ln(d / radius)): a spiral tunnel that
    /// looks the same at every scale, as a tunnel seen in perspective does. Apple's exact spiral is not
    /// documented; the output extent is infinite, as the streaks are. A positive rotation turns the streaks
    /// counter-clockwise, as twirl and vortex do (Core Image's angle sense; no render of this filter was found).
    static func lightTunnel(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        // Sampling at −rotation turns the content by +rotation.
        let rotation = -(try inputs.float("inputRotation"))
        let radius = try inputs.number("inputRadius")
        guard radius > 0 else { return image }
        let cx = Float(center.x), cy = Float(center.y), r = Float(radius)
        let kernel = WarpKernel(name: "lightTunnel") { coords, x0, y, count in
            let dy = Float(y) + 0.5 - cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - cx
                let d = (dx * dx + dy * dy).squareRoot()
                if d <= r {
                    coords[i] = SIMD2(cx + dx, cy + dy)
                } else {
                    let theta = rotation * log(d / r)
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
