import Foundation

/// Reductions beyond the area average: small finite outputs placed at the origin of `inputExtent` (rounded out
/// to whole pixels), computed from the input over `inputExtent` ∩ its extent. Values are working-space
/// (linear, premultiplied) unless said otherwise.
extension ReductionFilters {
    static let more: [String: FilterImplementation] = [
        "CIAreaMaximum": { try componentwise($0, name: "areaMaximum", largest: true) },
        "CIAreaMinimum": { try componentwise($0, name: "areaMinimum", largest: false) },
        "CIAreaMinMax": areaMinMax,
        "CIAreaMinMaxRed": areaMinMaxRed,
        "CIAreaMaximumAlpha": { try extremeAlpha($0, name: "areaMaximumAlpha", largest: true) },
        "CIAreaMinimumAlpha": { try extremeAlpha($0, name: "areaMinimumAlpha", largest: false) },
        "CIRowAverage": rowAverage,
        "CIColumnAverage": columnAverage,
        "CIAreaHistogram": { try histogram($0, kind: .linear) },
        "CIAreaLogarithmicHistogram": { try histogram($0, kind: .logarithmic) },
        "CIAreaAlphaWeightedHistogram": { try histogram($0, kind: .alphaWeighted) },
        "CIAreaBoundsRed": areaBoundsRed,
        "CIHistogramDisplayFilter": histogramDisplay,
        "CIKMeans": kMeans,
    ]

    /// A reduction of `image` over `rect` ∩ its extent into `width`×`height` pixels at `rect`'s origin.
    /// `compute` gets the materialised input and the area, and returns the pixels bottom row first.
    static func reduction(_ image: Image, over rect: Rect, width: Int, height: Int, name: String,
                          _ compute: @escaping @Sendable (PixelBuffer, PixelRect) -> [Pixel]) -> Image {
        reduction(image, over: rect, width: width, height: height, name: name, extra: nil) { source, area, _ in
            compute(source, area)
        }
    }

    /// The same with a second input (`extra`, read over its given rectangle) passed to `compute`.
    static func reduction(_ image: Image, over rect: Rect, width: Int, height: Int, name: String,
                          extra: (Image, PixelRect)?,
                          _ compute: @escaping @Sendable (PixelBuffer, PixelRect, PixelBuffer?) -> [Pixel]) -> Image {
        let origin = PixelRect(covering: rect)
        let output = PixelRect(x: origin.x, y: origin.y, width: max(width, 1), height: max(height, 1))
        let area = PixelRect(covering: rect.intersection(image.extent))
        let input = area.isEmpty ? Image(color: .clear).cropped(to: output.rect) : image
        let readArea = area.isEmpty ? output : area
        let extraRect = extra?.1 ?? readArea
        let kernel = GeneralKernel(name: name, parallel: false, roi: { index, _ in index == 0 ? readArea : extraRect }) { context in
            let values = compute(context.inputs[0], area.isEmpty ? PixelRect(x: 0, y: 0, width: 0, height: 0) : area,
                                 context.inputs.count > 1 ? context.inputs[1] : nil)
            let out = context.output, r = context.rect
            for y in r.y..<r.maxY {
                let row = out.row(y) + (r.x - out.rect.x)
                for x in r.x..<r.maxX {
                    let index = (y - output.y) * output.width + (x - output.x)
                    row[x - r.x] = index >= 0 && index < values.count ? values[index] : Pixel(0, 0, 0, 0)
                }
            }
        }
        return kernel.apply(extent: output.rect, inputs: extra.map { [input, $0.0] } ?? [input])
    }

    static func areaInputs(_ inputs: FilterInputs) throws -> (Image, Rect) {
        (try inputs.image("inputImage"), try inputs.rect("inputExtent"))
    }

    /// Component-wise minimum and maximum of every pixel in the area, in one pass (nil for an empty area).
    static func componentwiseRange(_ source: PixelBuffer, _ area: PixelRect) -> (lo: Pixel, hi: Pixel)? {
        guard !area.isEmpty else { return nil }
        var lo = source.pixel(x: area.x, y: area.y), hi = lo
        for y in area.y..<area.maxY {
            let row = source.row(y) + (area.x - source.rect.x)
            for x in 0..<area.width {
                lo = ColorMath.componentMin(lo, row[x]); hi = ColorMath.componentMax(hi, row[x])
            }
        }
        return (lo, hi)
    }

    static func componentwise(_ inputs: FilterInputs, name: String, largest: Bool) throws -> Image {
        let (image, rect) = try areaInputs(inputs)
        return reduction(image, over: rect, width: 1, height: 1, name: name) { source, area in
            guard let range = componentwiseRange(source, area) else { return [Pixel(0, 0, 0, 0)] }
            return [largest ? range.hi : range.lo]
        }
    }

    /// Two pixels: the component-wise minimum, then the maximum.
    static func areaMinMax(_ inputs: FilterInputs) throws -> Image {
        let (image, rect) = try areaInputs(inputs)
        return reduction(image, over: rect, width: 2, height: 1, name: "areaMinMax") { source, area in
            guard let range = componentwiseRange(source, area) else { return [Pixel(0, 0, 0, 0), Pixel(0, 0, 0, 0)] }
            return [range.lo, range.hi]
        }
    }

    /// One pixel: the red channel's minimum in red, its maximum in green, blue 0, alpha 1.
    static func areaMinMaxRed(_ inputs: FilterInputs) throws -> Image {
        let (image, rect) = try areaInputs(inputs)
        return reduction(image, over: rect, width: 1, height: 1, name: "areaMinMaxRed") { source, area in
            guard let range = componentwiseRange(source, area) else { return [Pixel(0, 0, 0, 1)] }
            return [Pixel(range.lo.x, range.hi.x, 0, 1)]
        }
    }

    /// One pixel: the whole pixel whose alpha is the largest (or smallest); the first such in row order wins.
    static func extremeAlpha(_ inputs: FilterInputs, name: String, largest: Bool) throws -> Image {
        let (image, rect) = try areaInputs(inputs)
        return reduction(image, over: rect, width: 1, height: 1, name: name) { source, area in
            guard !area.isEmpty else { return [Pixel(0, 0, 0, 0)] }
            var best = source.pixel(x: area.x, y: area.y)
            for y in area.y..<area.maxY {
                let row = source.row(y) + (area.x - source.rect.x)
                for x in 0..<area.width where largest ? row[x].w > best.w : row[x].w < best.w { best = row[x] }
            }
            return [best]
        }
    }

    /// The longest row or column average made (the output is one pixel per row or column of `inputExtent`).
    static let maximumLength = 1 << 16

    /// One pixel per row of `inputExtent`, stacked in a column: each the mean of that row over the area.
    static func rowAverage(_ inputs: FilterInputs) throws -> Image {
        let (image, rect) = try areaInputs(inputs)
        let rows = PixelRect(covering: rect)
        guard rows.height <= maximumLength else { throw FilterError("CIRowAverage: inputExtent is taller than \(maximumLength) rows") }
        return reduction(image, over: rect, width: 1, height: rows.height, name: "rowAverage") { source, area in
            var out = [Pixel](repeating: Pixel(0, 0, 0, 0), count: rows.height)
            guard !area.isEmpty else { return out }
            for y in area.y..<area.maxY {
                let row = source.row(y) + (area.x - source.rect.x)
                var sum = Pixel(0, 0, 0, 0)
                for x in 0..<area.width { sum += row[x] }
                out[y - rows.y] = sum / Float(area.width)
            }
            return out
        }
    }

    /// One pixel per column of `inputExtent`, in a row: each the mean of that column over the area.
    static func columnAverage(_ inputs: FilterInputs) throws -> Image {
        let (image, rect) = try areaInputs(inputs)
        let columns = PixelRect(covering: rect)
        guard columns.width <= maximumLength else { throw FilterError("CIColumnAverage: inputExtent is wider than \(maximumLength) columns") }
        return reduction(image, over: rect, width: columns.width, height: 1, name: "columnAverage") { source, area in
            var out = [Pixel](repeating: Pixel(0, 0, 0, 0), count: columns.width)
            guard !area.isEmpty else { return out }
            var sums = [SIMD4<Double>](repeating: .zero, count: area.width)
            for y in area.y..<area.maxY {
                let row = source.row(y) + (area.x - source.rect.x)
                for x in 0..<area.width { sums[x] += SIMD4<Double>(row[x]) }
            }
            for x in 0..<area.width { out[area.x - columns.x + x] = Pixel(sums[x] / Double(area.height)) }
            return out
        }
    }

    enum HistogramKind { case linear, logarithmic, alphaWeighted }

    /// `inputCount` bins in a row. Each channel counts independently: the value v of a pixel falls in bin
    /// ⌊v·count⌋ (clamped to the bins); a bin holds its share of the area's pixels times `inputScale`.
    /// Logarithmic: bins span log2(v) from `inputMinimumStop` to `inputMaximumStop` (zero and below go to the
    /// first bin). Alpha-weighted: the colour is unpremultiplied and each pixel counts by its alpha.
    static func histogram(_ inputs: FilterInputs, kind: HistogramKind) throws -> Image {
        let (image, rect) = try areaInputs(inputs)
        let count = min(max(try inputs.integer("inputCount"), 1), 2048)
        let scale = Float(max(try inputs.number("inputScale"), 0))
        var stops: (Float, Float) = (0, 1)
        if kind == .logarithmic {
            stops = (Float(try inputs.number("inputMinimumStop")), Float(try inputs.number("inputMaximumStop")))
            if !(stops.1 > stops.0) { stops.1 = stops.0 + 1 }
        }
        let (lowStop, highStop) = stops
        let name = kind == .linear ? "areaHistogram" : kind == .logarithmic ? "areaLogHistogram" : "areaAlphaHistogram"
        return reduction(image, over: rect, width: count, height: 1, name: name) { source, area in
            var bins = [SIMD4<Float>](repeating: .zero, count: count)
            guard !area.isEmpty else { return bins }
            let fc = Float(count)
            @inline(__always) func bin(_ v: Float) -> Int {
                var u = v
                if kind == .logarithmic { u = v > 0 ? (log2(v) - lowStop) / (highStop - lowStop) : 0 }
                let i = u * fc
                return i.isNaN || i < 0 ? 0 : (i >= fc ? count - 1 : Int(i))
            }
            for y in area.y..<area.maxY {
                let row = source.row(y) + (area.x - source.rect.x)
                for x in 0..<area.width {
                    var p = row[x]
                    var w: Float = 1
                    if kind == .alphaWeighted { p = ColorMath.unpremultiplied(p); w = p.w }
                    bins[bin(p.x)].x += w
                    bins[bin(p.y)].y += w
                    bins[bin(p.z)].z += w
                    bins[bin(p.w)].w += w
                }
            }
            let norm = scale / Float(area.area)
            return bins.map { $0 * norm }
        }
    }

    /// One pixel: the bounding box of the pixels whose red is above zero, as (x, y, width, height) relative to
    /// `inputExtent` and divided by its size; all zeros when there are none.
    static func areaBoundsRed(_ inputs: FilterInputs) throws -> Image {
        let (image, rect) = try areaInputs(inputs)
        let whole = PixelRect(covering: rect)
        return reduction(image, over: rect, width: 1, height: 1, name: "areaBoundsRed") { source, area in
            guard !area.isEmpty else { return [Pixel(0, 0, 0, 0)] }
            var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
            for y in area.y..<area.maxY {
                let row = source.row(y) + (area.x - source.rect.x)
                for x in 0..<area.width where row[x].x > 0 {
                    minX = min(minX, x + area.x); maxX = max(maxX, x + area.x)
                    minY = min(minY, y); maxY = max(maxY, y)
                }
            }
            guard minX <= maxX else { return [Pixel(0, 0, 0, 0)] }
            let w = Float(max(whole.width, 1)), h = Float(max(whole.height, 1))
            return [Pixel(Float(minX - whole.x) / w, Float(minY - whole.y) / h,
                          Float(maxX - minX + 1) / w, Float(maxY - minY + 1) / h)]
        }
    }

    /// Draws a histogram (a row of bins, as CIAreaHistogram makes) as an image `inputCount` wide and
    /// `inputHeight` tall at the origin: each bin a column with a red, a green and a blue bar (added where they
    /// overlap) as tall as the bin's share of the largest bin, on opaque black. Columns left of `inputLowLimit`
    /// (a fraction of the width) are drawn darker, those right of `inputHighLimit` lighter.
    static func histogramDisplay(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let height = min(max(try inputs.integer("inputHeight"), 1), 200)
        let low = Float(min(max(try inputs.number("inputLowLimit"), 0), 1))
        let high = Float(min(max(try inputs.number("inputHighLimit"), 0), 1))
        let e = image.extent
        guard !e.isEmpty else { return .empty }
        let source = PixelRect(covering: e.isInfinite ? Rect(x: 0, y: 0, width: 64, height: 1) : e)
        let bins = min(source.width, 2048)
        let rowRect = PixelRect(x: source.x, y: source.y, width: bins, height: 1)
        let output = PixelRect(x: 0, y: 0, width: bins, height: height)
        let kernel = GeneralKernel(name: "histogramDisplay", parallel: false, roi: { _, _ in rowRect }) { context in
            let input = context.inputs[0]
            var values = [SIMD3<Float>](repeating: .zero, count: bins)
            var top: Float = 0
            for x in 0..<bins {
                let p = input.pixel(x: rowRect.x + x, y: rowRect.y)
                values[x] = SIMD3(max(p.x, 0), max(p.y, 0), max(p.z, 0))
                top = max(top, values[x].x, values[x].y, values[x].z)
            }
            let out = context.output, r = context.rect
            for y in r.y..<r.maxY {
                let level = (Float(y) + 0.5) / Float(height) * top
                let row = out.row(y) + (r.x - out.rect.x)
                for x in r.x..<r.maxX {
                    guard x >= 0, x < bins, top > 0 else { row[x - r.x] = Pixel(0, 0, 0, 1); continue }
                    let v = values[x]
                    var p = Pixel(v.x > level ? 1 : 0, v.y > level ? 1 : 0, v.z > level ? 1 : 0, 1)
                    let f = (Float(x) + 0.5) / Float(bins)
                    if f < low { p = Pixel(p.x * 0.5, p.y * 0.5, p.z * 0.5, 1) }
                    if f > high { p = Pixel(0.5 + p.x * 0.5, 0.5 + p.y * 0.5, 0.5 + p.z * 0.5, 1) }
                    row[x - r.x] = p
                }
            }
        }
        return kernel.apply(extent: output.rect, inputs: [image])
    }

    /// k-means clustering of the area's colours into `inputCount` clusters over `inputPasses` refinement passes,
    /// seeded from the first row of `inputMeans` (where it has pixels) and otherwise from colours spread through
    /// the area. The output is a row of `inputCount` pixels at the extent's origin: each cluster's mean colour
    /// premultiplied by its weight (its share of the pixels), which is the alpha. `inputPerceptual` clusters
    /// sRGB-encoded values instead of linear ones. Large areas are sampled on a grid of at most 65,536 points.
    static func kMeans(_ inputs: FilterInputs) throws -> Image {
        let (image, rect) = try areaInputs(inputs)
        var count = min(max(try inputs.integer("inputCount"), 0), 128)
        let passes = min(max(try inputs.integer("inputPasses"), 0), 20)
        let perceptual = try inputs.bool("inputPerceptual")
        let means: Image? = try inputs.has("inputMeans") ? try inputs.image("inputMeans") : nil
        let meansRect: PixelRect? = means.flatMap { m in
            m.extent.isEmpty || m.extent.isInfinite ? nil
                : PixelRect(x: PixelRect(covering: m.extent).x, y: PixelRect(covering: m.extent).y,
                            width: min(PixelRect(covering: m.extent).width, 128), height: 1)
        }
        if count == 0 { count = meansRect?.width ?? 1 }
        let k = max(count, 1)
        let extra: (Image, PixelRect)? = means.flatMap { m in meansRect.map { (m, $0) } }
        return reduction(image, over: rect, width: k, height: 1, name: "kMeans", extra: extra) { source, area, seedBuffer in
            var givenSeeds: [SIMD3<Float>] = []
            if let seedBuffer, let meansRect {
                for x in 0..<meansRect.width {
                    let p = ColorMath.unpremultiplied(seedBuffer.pixel(x: meansRect.x + x, y: meansRect.y))
                    givenSeeds.append(SIMD3(p.x, p.y, p.z))
                }
            }
            guard !area.isEmpty else { return [Pixel](repeating: Pixel(0, 0, 0, 0), count: k) }
            let step = max(1, Int((Double(area.area) / 65_536).squareRoot().rounded(.up)))
            var samples: [SIMD3<Float>] = []
            samples.reserveCapacity((area.width / step + 1) * (area.height / step + 1))
            for y in stride(from: area.y, to: area.maxY, by: step) {
                let row = source.row(y) + (area.x - source.rect.x)
                for x in stride(from: 0, to: area.width, by: step) {
                    let p = ColorMath.unpremultiplied(row[x])
                    guard p.w > 0 else { continue }
                    var c = SIMD3(p.x, p.y, p.z)
                    if perceptual {
                        c = SIMD3(ColorMath.sRGB(fromLinear: c.x), ColorMath.sRGB(fromLinear: c.y),
                                  ColorMath.sRGB(fromLinear: c.z))
                    }
                    samples.append(c)
                }
            }
            guard !samples.isEmpty else { return [Pixel](repeating: Pixel(0, 0, 0, 0), count: k) }
            var centres = [SIMD3<Float>]()
            for i in 0..<k {
                if i < givenSeeds.count {
                    var c = givenSeeds[i]
                    if perceptual {
                        c = SIMD3(ColorMath.sRGB(fromLinear: c.x), ColorMath.sRGB(fromLinear: c.y),
                                  ColorMath.sRGB(fromLinear: c.z))
                    }
                    centres.append(c)
                } else {
                    centres.append(samples[(i * samples.count) / k + (samples.count / (2 * k))])
                }
            }
            var weights = [Float](repeating: 0, count: k)
            for pass in 0...passes {
                var sums = [SIMD3<Float>](repeating: .zero, count: k)
                weights = [Float](repeating: 0, count: k)
                for s in samples {
                    var best = 0, bestDistance = Float.infinity
                    for j in 0..<k {
                        let d = s - centres[j]
                        let distance = (d * d).sum()
                        if distance < bestDistance { bestDistance = distance; best = j }
                    }
                    sums[best] += s
                    weights[best] += 1
                }
                // The last pass only counts the weights of the final centres.
                if pass < passes {
                    for j in 0..<k where weights[j] > 0 { centres[j] = sums[j] / weights[j] }
                }
            }
            let total = Float(samples.count)
            return (0..<k).map { j in
                var c = centres[j]
                if perceptual {
                    c = SIMD3(ColorMath.linear(fromSRGB: c.x), ColorMath.linear(fromSRGB: c.y),
                              ColorMath.linear(fromSRGB: c.z))
                }
                let w = weights[j] / total
                return Pixel(c.x * w, c.y * w, c.z * w, w)
            }
        }
    }
}
