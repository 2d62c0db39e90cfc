import Foundation

extension DistortionFilters {
    /// The Droste effect (Escher's "Print Gallery"): the image holds a smaller copy of itself in the inset
    /// rectangle (the corners inputInsetPoint0 and 1), that copy another, and so on, and the recursion is bent
    /// into a spiral. This is the usual conformal construction, written from the mathematics: the picture is
    /// self-similar under the similarity (fixed point c, factor K = image size / inset size) mapping the image
    /// onto the inset. In log-polar coordinates w = ln(z − c) it repeats with period ln K along the real axis and
    /// 2π along the imaginary one; multiplying w by (periodicity − i · strands · ln K / 2π) turns a loop around c
    /// into `periodicity` turns and `strands` steps of the recursion, which is the spiral. The source point is
    /// then brought back into the frame (between the inset and the image's edge) by whole powers of K.
    /// Rotation and zoom turn and scale the result about c. Strands 0 with periodicity 1, zoom 1 and rotation 0
    /// leave the frame as it is and fill the inset (and everything outside the image) with the recursion.
    /// The output extent is infinite: the recursion continues outwards as well.
    /// The image is read clamped to its extent: when the image and the inset have different proportions (the
    /// defaults on a 600×400 photo: ×3 across, ×2 up) the recursion is only roughly self-similar, and some
    /// spiral points fall just outside the image after their last whole step of K; read unclamped they showed
    /// a transparent wedge with an alpha ramp and grey seams where the bilinear sampler met the transparent
    /// border (visual review, ../shared/reviews/visual-review.md). Clamped, they take the edge's colour.
    static func droste(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let q0 = try inputs.point("inputInsetPoint0")
        let q1 = try inputs.point("inputInsetPoint1")
        let strands = try inputs.number("inputStrands")
        let periodicity = try inputs.number("inputPeriodicity")
        let rotation = try inputs.number("inputRotation")
        let zoom = try inputs.number("inputZoom")
        let outer = image.extent
        guard !outer.isInfinite, !outer.isEmpty else { return image }
        let inner = Rect(x: min(q0.x, q1.x), y: min(q0.y, q1.y), width: abs(q1.x - q0.x), height: abs(q1.y - q0.y))
        // The inset must be a proper, smaller rectangle: otherwise there is nothing to recurse into.
        guard inner.width >= 1, inner.height >= 1, inner.width < outer.width, inner.height < outer.height
        else { return image }
        let k = ((outer.width / inner.width) * (outer.height / inner.height)).squareRoot()
        // The fixed point of the similarity mapping the image onto the inset (its corners onto the inset's).
        let cxD = (inner.minX * (outer.width / inner.width) - outer.minX) / (outer.width / inner.width - 1)
        let cyD = (inner.minY * (outer.height / inner.height) - outer.minY) / (outer.height / inner.height - 1)
        let period = log(k)
        // Below uMin a point is surely inside the inset, above uMax surely outside the image.
        let nearInner = max(1e-3, min(cxD - inner.minX, inner.maxX - cxD, cyD - inner.minY, inner.maxY - cyD))
        let farOuter = max(abs(outer.minX - cxD), abs(outer.maxX - cxD))
        let farOuterY = max(abs(outer.minY - cyD), abs(outer.maxY - cyD))
        let uMin = Float(log(nearInner)), uMax = Float(log((farOuter * farOuter + farOuterY * farOuterY).squareRoot()))
        let cx = Float(cxD), cy = Float(cyD), fk = Float(k), l = Float(period)
        let p1 = Float(periodicity), p2 = Float(strands * period / (2 * Double.pi))
        let cosR = Float(cos(-rotation) / zoom), sinR = Float(sin(-rotation) / zoom)
        let ix0 = Float(inner.minX), ix1 = Float(inner.maxX), iy0 = Float(inner.minY), iy1 = Float(inner.maxY)
        let ox0 = Float(outer.minX), ox1 = Float(outer.maxX), oy0 = Float(outer.minY), oy1 = Float(outer.maxY)
        let kernel = WarpKernel(name: "droste") { coords, x0, y, count in
            let py = Float(y) + 0.5 - cy
            for i in 0..<count {
                let px = Float(x0 + i) + 0.5 - cx
                let zx = cosR * px - sinR * py, zy = sinR * px + cosR * py
                let r2 = zx * zx + zy * zy
                guard r2 > 0 else { coords[i] = SIMD2(cx, cy); continue }
                let wu = 0.5 * log(r2), wv = atan2(zy, zx)
                // (wu + i wv) · (p1 − i p2)
                var u = wu * p1 + wv * p2
                let v = wv * p1 - wu * p2
                if u > uMax { u -= (((u - uMax) / l).rounded(.up)) * l }
                if u < uMin { u += (((uMin - u) / l).rounded(.up)) * l }
                let m = exp(u)
                var sx = m * cos(v), sy = m * sin(v)
                // Into the frame: out of the inset, back inside the image (a few steps at most).
                for _ in 0..<6 {
                    let ax = sx + cx, ay = sy + cy
                    if ax > ix0 && ax < ix1 && ay > iy0 && ay < iy1 {
                        sx *= fk; sy *= fk
                    } else if ax < ox0 || ax > ox1 || ay < oy0 || ay > oy1 {
                        sx /= fk; sy /= fk
                    } else {
                        break
                    }
                }
                // A point the steps could not bring into the frame reads the nearest edge pixel.
                coords[i] = SIMD2(min(max(sx + cx, ox0), ox1), min(max(sy + cy, oy0), oy1))
            }
        }
        let region = outer.insetBy(dx: -2, dy: -2)
        return kernel.apply(extent: .infinite, input: image.clampedToExtent()) { _ in region }
    }
}
