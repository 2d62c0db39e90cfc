import Foundation

/// Scale transforms, straighten, clamp, nearest sampling and the four-point perspective filters.
extension GeometryFilters {
    /// inputScale scales both axes; inputAspectRatio multiplies the horizontal scale only.
    static func scaled(_ inputs: FilterInputs, _ filter: Resampling.Filter) throws -> Image {
        let image = try inputs.image("inputImage")
        let scale = try inputs.number("inputScale"), aspect = try inputs.number("inputAspectRatio")
        let (sx, sy) = (scale * aspect, scale)
        if sx == 1 && sy == 1 { return image }
        return Resampling.scale(image, sx: sx, sy: sy, filter: filter)
    }

    /// Lanczos-3 resampling, separable, the kernel widened by 1/scale when shrinking.
    static func lanczosScale(_ inputs: FilterInputs) throws -> Image {
        try scaled(inputs, .lanczos3)
    }

    /// Cubic resampling from the Mitchell–Netravali family (B = 0, C = 0.75 by default).
    static func bicubicScale(_ inputs: FilterInputs) throws -> Image {
        try scaled(inputs, .cubic(b: try inputs.number("inputB"), c: try inputs.number("inputC")))
    }

    /// Each output pixel the per-channel maximum of the source pixels it covers (thin bright lines survive
    /// shrinking); enlarging repeats pixels.
    static func maximumScale(_ inputs: FilterInputs) throws -> Image {
        try scaled(inputs, .maximum)
    }

    /// Rotates about the centre of the extent and enlarges just enough that the rotated picture covers the
    /// whole original extent (no empty corners); the output keeps the input's extent.
    static func straighten(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let angle = try inputs.number("inputAngle")
        let e = image.extent
        if angle == 0 || e.isInfinite || e.isEmpty { return image }
        let c = abs(cos(angle)), s = abs(sin(angle))
        let scale = max(c + s * e.height / e.width, c + s * e.width / e.height)
        let t = AffineTransform.translation(x: -e.midX, y: -e.midY)
            .concatenating(.scale(x: scale, y: scale))
            .concatenating(.rotation(angle))
            .concatenating(.translation(x: e.midX, y: e.midY))
        // One warp; sample positions are held half a pixel inside the extent so that the edge pixels (which
        // the enlargement keeps within reach) never blend with the transparent outside.
        let inverse = t.inverted
        let (ia, ib, ic, id) = (Float(inverse.a), Float(inverse.b), Float(inverse.c), Float(inverse.d))
        let (tx, ty) = (Float(inverse.tx), Float(inverse.ty))
        let (x0, x1) = (Float(e.minX) + 0.5, Float(e.maxX) - 0.5), (y0, y1) = (Float(e.minY) + 0.5, Float(e.maxY) - 0.5)
        let kernel = WarpKernel(name: "straighten") { coords, xs, y, count in
            let py = Float(y) + 0.5
            for i in 0..<count {
                let px = Float(xs + i) + 0.5
                coords[i] = SIMD2(min(max(ia * px + ic * py + tx, x0), x1), min(max(ib * px + id * py + ty, y0), y1))
            }
        }
        return kernel.apply(extent: e, input: image) { rect in
            inverse.apply(to: rect).insetBy(dx: -1, dy: -1).intersection(e)
        }
    }

    /// Repeats the edge pixels of a rectangle of the image outwards forever.
    static func clamp(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let rect = try inputs.rect("inputExtent")
        let area = image.extent.intersection(rect)
        if area.isEmpty { return .empty }
        return image.cropped(to: area).clampedToExtent()
    }

    /// The same pixels, marked so that a following transform samples them nearest-neighbour.
    static func sampleNearest(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        if nearestSource(image) != nil { return image }
        let kernel = WarpKernel(name: nearestMarker, sampling: .nearest) { coords, x0, y, count in
            let py = Float(y) + 0.5
            for i in 0..<count { coords[i] = SIMD2(Float(x0 + i) + 0.5, py) }
        }
        return kernel.apply(extent: image.extent, input: image) { $0.intersection(image.extent) }
    }

    static let nearestMarker = "sampleNearest"

    /// The input of a CISampleNearest marker, or nil.
    static func nearestSource(_ image: Image) -> Image? {
        if case .warp(let kernel, let source, _) = image.kind, kernel.name == nearestMarker { return source }
        return nil
    }

    /// An affine transform resampled nearest-neighbour (for pixel-art enlargements).
    static func transformedNearest(_ image: Image, by transform: AffineTransform) -> Image {
        if transform == .identity || transform.isIntegerTranslation { return image.transformed(by: transform) }
        guard transform.isInvertible else { return .empty }
        let inverse = transform.inverted
        let (a, b, c, d) = (Float(inverse.a), Float(inverse.b), Float(inverse.c), Float(inverse.d))
        let (tx, ty) = (Float(inverse.tx), Float(inverse.ty))
        let kernel = WarpKernel(name: "affineNearest", sampling: .nearest) { coords, x0, y, count in
            let py = Float(y) + 0.5
            for i in 0..<count {
                let px = Float(x0 + i) + 0.5
                coords[i] = SIMD2(a * px + c * py + tx, b * px + d * py + ty)
            }
        }
        let inputExtent = image.extent
        return kernel.apply(extent: transform.apply(to: image.extent), input: image) { rect in
            inverse.apply(to: rect).insetBy(dx: -1, dy: -1).intersection(inputExtent)
        }
    }

    /// The four corner inputs: bottom-left, bottom-right, top-right, top-left.
    static func corners(_ inputs: FilterInputs) throws -> [SIMD2<Double>] {
        [try inputs.point("inputBottomLeft"), try inputs.point("inputBottomRight"),
         try inputs.point("inputTopRight"), try inputs.point("inputTopLeft")]
    }

    /// Maps the corners of `rect` to the four points; the output extent is the bounding box of where the
    /// image's extent lands (of the four points when that crosses the horizon).
    static func perspective(_ image: Image, rect: Rect, corners p: [SIMD2<Double>], name: String) -> Image {
        if image.extent.isEmpty { return .empty }
        guard !rect.isInfinite, let forward = Homography.rectToQuad(rect, p[0], p[1], p[2], p[3]),
              let inverse = forward.inverted else { return image }
        let extent = image.extent.isInfinite ? Rect.infinite : (forward.apply(to: image.extent) ?? bounds(p))
        return inverse.warp(image, extent: extent.integral, name: name)
    }

    /// The image's extent is mapped onto the quadrilateral of the four points.
    static func perspectiveTransform(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        return perspective(image, rect: image.extent, corners: try corners(inputs), name: "perspective")
    }

    /// The given rectangle (not the image's extent) is mapped onto the four points.
    static func perspectiveTransformWithExtent(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        return perspective(image, rect: try inputs.rect("inputExtent"), corners: try corners(inputs),
                           name: "perspectiveWithExtent")
    }

    /// The inverse: the quadrilateral of the four points becomes an upright rectangle as wide as the longer of
    /// its top and bottom edges and as tall as the longer of its sides, placed at the quadrilateral's lower-left
    /// bounding corner. With inputCrop the output is that rectangle; without, the whole corrected image.
    static func perspectiveCorrection(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let p = try corners(inputs)
        let crop = try inputs.bool("inputCrop")
        func length(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
        let width = max(length(p[0], p[1]), length(p[3], p[2]))
        let height = max(length(p[0], p[3]), length(p[1], p[2]))
        let box = bounds(p)
        let target = Rect(x: box.minX, y: box.minY, width: width, height: height)
        guard width > 1e-6, height > 1e-6, let toQuad = Homography.rectToQuad(target, p[0], p[1], p[2], p[3]),
              let fromQuad = toQuad.inverted else { return image }
        let extent: Rect
        if crop {
            extent = target.integral
        } else if let e = fromQuad.apply(to: image.extent) {
            extent = e.integral
        } else {
            extent = target.integral
        }
        // The warp samples through the forward map: output (corrected) point -> source point in the quad.
        return toQuad.warp(image, extent: extent, name: "perspectiveCorrection")
    }
}

extension Image {
    /// The image through an affine transform, each output pixel the nearest input pixel (Core Image's
    /// `samplingNearest()` followed by a transform).
    public func transformedNearest(by transform: AffineTransform) -> Image {
        GeometryFilters.transformedNearest(self, by: transform)
    }
}
