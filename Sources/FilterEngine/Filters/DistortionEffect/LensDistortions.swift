import Foundation

// Glass lenses laid on the image: a ring (torus) and a capsule (lozenge). Apple describes both as refracting
// lenses with a refraction index but does not publish its model. Here each lens has a round cross-section of
// half-width R (a half-cylinder bent along the lens's axis): a vertical ray through the point at distance s from
// the axis meets glass of height z = √(R² − s²) whose surface leans by θi = asin(s / R); Snell's law bends it to
// θt = asin(sin θi / index), and it lands z · tan(θi − θt) nearer the axis. So index 1 is the identity, the middle
// of the lens magnifies by the index, the rim compresses, and the image is continuous at the rim.

enum LensRefraction {
    /// The distance from the axis that the point at distance `s` (0 ≤ s < halfWidth) shows.
    @inline(__always) static func source(_ s: Float, halfWidth: Float, index: Float) -> Float {
        let sinI = s / halfWidth
        let z = halfWidth * max(0, 1 - sinI * sinI).squareRoot()
        let thetaI = asin(min(sinI, 1))
        let thetaT = asin(min(sinI / index, 1))
        // Below index 1 rays bend outwards, steeply near total internal reflection: keep the reach bounded.
        let shift = min(max(z * tan(thetaI - thetaT), -halfWidth), halfWidth)
        return s - shift
    }
}

extension DistortionFilters {
    /// A ring-shaped lens: its ring runs at `inputRadius` from the centre and is `inputWidth` wide.
    static func torusLens(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let center = try inputs.point("inputCenter")
        let radius = try inputs.float("inputRadius")
        let width = try inputs.number("inputWidth")
        let refraction = try inputs.float("inputRefraction")
        guard width > 0, refraction != 1 else { return image }
        let cx = Float(center.x), cy = Float(center.y), half = Float(width / 2)
        let index = max(refraction, 0.01)
        let kernel = WarpKernel(name: "torusLens") { coords, x0, y, count in
            let dy = Float(y) + 0.5 - cy
            for i in 0..<count {
                let dx = Float(x0 + i) + 0.5 - cx
                let d = (dx * dx + dy * dy).squareRoot()
                let u = d - radius
                if abs(u) >= half || d == 0 {
                    coords[i] = SIMD2(cx + dx, cy + dy)
                } else {
                    let s = LensRefraction.source(abs(u), halfWidth: half, index: index)
                    let f = (radius + (u < 0 ? -s : s)) / d
                    coords[i] = SIMD2(cx + dx * f, cy + dy * f)
                }
            }
        }
        let reach = width / 2 + 1
        return kernel.apply(extent: image.extent, input: image) { rect in rect.insetBy(dx: -reach, dy: -reach) }
    }

    /// A capsule-shaped lens: every point within `inputRadius` of the segment from point 0 to point 1.
    static func glassLozenge(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let p0 = try inputs.point("inputPoint0")
        let p1 = try inputs.point("inputPoint1")
        let radius = try inputs.number("inputRadius")
        let refraction = try inputs.float("inputRefraction")
        guard radius > 0, refraction != 1 else { return image }
        let ax = Float(p0.x), ay = Float(p0.y)
        let ux = Float(p1.x - p0.x), uy = Float(p1.y - p0.y)
        let length2 = ux * ux + uy * uy
        let invLength2: Float = length2 > 0 ? 1 / length2 : 0
        let half = Float(radius), index = max(refraction, 0.01)
        let kernel = WarpKernel(name: "glassLozenge") { coords, x0, y, count in
            let py = Float(y) + 0.5
            for i in 0..<count {
                let px = Float(x0 + i) + 0.5
                // The nearest point of the segment (point 0 itself when the points coincide).
                let t = min(max(((px - ax) * ux + (py - ay) * uy) * invLength2, 0), 1)
                let qx = ax + t * ux, qy = ay + t * uy
                let vx = px - qx, vy = py - qy
                let s = (vx * vx + vy * vy).squareRoot()
                if s >= half || s == 0 {
                    coords[i] = SIMD2(px, py)
                } else {
                    let f = LensRefraction.source(s, halfWidth: half, index: index) / s
                    coords[i] = SIMD2(qx + vx * f, qy + vy * f)
                }
            }
        }
        let reach = radius + 1
        return kernel.apply(extent: image.extent, input: image) { rect in rect.insetBy(dx: -reach, dy: -reach) }
    }
}
