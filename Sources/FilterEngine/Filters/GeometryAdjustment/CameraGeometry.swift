import Foundation

/// Filters that model a camera: a 3-D rotation of the picture plane (CIPerspectiveRotate) and the keystone
/// corrections, which straighten guide lines that converge because the camera was tilted.
extension GeometryFilters {
    static let cameraFilters: [String: FilterImplementation] = [
        "CIPerspectiveRotate": perspectiveRotate,
        "CIKeystoneCorrectionCombined": keystoneCombined,
        "CIKeystoneCorrectionHorizontal": keystoneHorizontal,
        "CIKeystoneCorrectionVertical": keystoneVertical,
    ]

    /// The focal length in pixels for a 35 mm-equivalent focal length: a full frame is 36 mm across its long
    /// side, which here is the image's long side.
    static func focalPixels(_ millimetres: Double, _ e: Rect) -> Double {
        millimetres / 36 * max(e.width, e.height)
    }

    /// The picture turned in 3-D about the image centre (pitch about the horizontal axis, yaw about the vertical
    /// one, roll about the line of sight) and projected back through a pinhole camera of the given focal
    /// length: H = K R K⁻¹. The output extent is the bounding box of the projected corners (the image itself
    /// when part of it passes behind the camera).
    static func perspectiveRotate(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let pitch = try inputs.number("inputPitch"), yaw = try inputs.number("inputYaw")
        let roll = try inputs.number("inputRoll")
        let e = image.extent
        if e.isInfinite || e.isEmpty || (pitch == 0 && yaw == 0 && roll == 0) { return image }
        let f = focalPixels(try inputs.number("inputFocalLength"), e)
        // Without a usable focal length only the roll (a plain rotation) is meaningful.
        guard f > 1e-3, f.isFinite else {
            let t = AffineTransform.translation(x: -e.midX, y: -e.midY).concatenating(.rotation(roll))
                .concatenating(.translation(x: e.midX, y: e.midY))
            return image.transformed(by: t)
        }
        let (cp, sp) = (cos(pitch), sin(pitch)), (cy, sy) = (cos(yaw), sin(yaw)), (cr, sr) = (cos(roll), sin(roll))
        // R = Rz(roll) · Rx(pitch) · Ry(yaw), row-major.
        let ry: [Double] = [cy, 0, sy, 0, 1, 0, -sy, 0, cy]
        let rx: [Double] = [1, 0, 0, 0, cp, -sp, 0, sp, cp]
        let rz: [Double] = [cr, -sr, 0, sr, cr, 0, 0, 0, 1]
        let r = Homography(m: rz).after(Homography(m: rx)).after(Homography(m: ry))
        let k = Homography(m: [f, 0, e.midX, 0, f, e.midY, 0, 0, 1])
        let kInverse = Homography(m: [1 / f, 0, -e.midX / f, 0, 1 / f, -e.midY / f, 0, 0, 1])
        let forward = k.after(r).after(kInverse)
        guard let inverse = forward.inverted else { return image }
        let extent = forward.apply(to: e) ?? e
        // A nearly edge-on plane projects to an enormous box: keep it within a generous bound.
        let limit = 16 * max(e.width, e.height)
        let bounded = extent.intersection(e.insetBy(dx: -limit, dy: -limit))
        return inverse.warp(image, extent: bounded.integral, name: "perspectiveRotate")
    }

    /// The guide quadrilateral (bottom-left, bottom-right, top-right, top-left); the image's corners when the
    /// guides are not set.
    static func guides(_ inputs: FilterInputs, _ e: Rect) throws -> [SIMD2<Double>] {
        let keys = ["inputBottomLeft", "inputBottomRight", "inputTopRight", "inputTopLeft"]
        let fallback = [SIMD2(e.minX, e.minY), SIMD2(e.maxX, e.minY), SIMD2(e.maxX, e.maxY), SIMD2(e.minX, e.maxY)]
        return try keys.indices.map { try inputs.has(keys[$0]) ? inputs.point(keys[$0]) : fallback[$0] }
    }

    /// Maps the guides onto `target` and takes the whole image along; the output extent is the bounding box
    /// of the mapped image (of the target when the mapping reaches the horizon).
    static func keystone(_ inputs: FilterInputs, name: String,
                         _ target: ([SIMD2<Double>]) -> [SIMD2<Double>]) throws -> Image {
        let image = try inputs.image("inputImage")
        let e = image.extent
        if e.isInfinite || e.isEmpty { return image }
        let g = try guides(inputs, e)
        let t = target(g)
        // The map from the unit square to the guides, and from it to the target.
        guard let toGuides = Homography.squareToQuad(g[0], g[1], g[2], g[3]),
              let toTarget = Homography.squareToQuad(t[0], t[1], t[2], t[3]),
              let fromGuides = toGuides.inverted else { return image }
        let forward = toTarget.after(fromGuides)
        guard let inverse = forward.inverted else { return image }
        let limit = 16 * max(e.width, e.height)
        let extent = (forward.apply(to: e) ?? bounds(t)).intersection(e.insetBy(dx: -limit, dy: -limit))
        return inverse.warp(image, extent: extent.integral, name: name)
    }

    /// Left and right guides made vertical (each at the mean x of its two ends): converging verticals fixed.
    static func keystoneVertical(_ inputs: FilterInputs) throws -> Image {
        try keystone(inputs, name: "keystoneVertical") { g in
            let left = (g[0].x + g[3].x) / 2, right = (g[1].x + g[2].x) / 2
            return [SIMD2(left, g[0].y), SIMD2(right, g[1].y), SIMD2(right, g[2].y), SIMD2(left, g[3].y)]
        }
    }

    /// Top and bottom guides made horizontal (each at the mean y of its two ends).
    static func keystoneHorizontal(_ inputs: FilterInputs) throws -> Image {
        try keystone(inputs, name: "keystoneHorizontal") { g in
            let bottom = (g[0].y + g[1].y) / 2, top = (g[2].y + g[3].y) / 2
            return [SIMD2(g[0].x, bottom), SIMD2(g[1].x, bottom), SIMD2(g[2].x, top), SIMD2(g[3].x, top)]
        }
    }

    /// Both: the guides become an upright rectangle with the mean width and height of the quadrilateral,
    /// centred where its centre was.
    static func keystoneCombined(_ inputs: FilterInputs) throws -> Image {
        try keystone(inputs, name: "keystoneCombined") { g in
            func length(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
            let w = (length(g[0], g[1]) + length(g[3], g[2])) / 2, h = (length(g[0], g[3]) + length(g[1], g[2])) / 2
            let c = (g[0] + g[1] + g[2] + g[3]) / 4
            return [SIMD2(c.x - w / 2, c.y - h / 2), SIMD2(c.x + w / 2, c.y - h / 2),
                    SIMD2(c.x + w / 2, c.y + h / 2), SIMD2(c.x - w / 2, c.y + h / 2)]
        }
    }
}
