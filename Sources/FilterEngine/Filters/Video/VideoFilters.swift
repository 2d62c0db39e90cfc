import Foundation

/// Operations a video pipeline needs that Core Image lacks, as our own catalogue entries
/// (`Catalog/custom-filters.json`): histogram equalisation of the luma or of each channel, contrast-limited
/// adaptive histogram equalisation (CLAHE), and a Y'CbCr split view for inspecting a stream.
///
/// The image stays in the linear working space, but histograms are taken of sRGB-encoded values (the luma
/// Y' = 0.2126 R' + 0.7152 G' + 0.0722 B' of the encoded colour), because that is what a video tool shows and
/// what people expect equalisation to spread evenly.
enum VideoFilters {
    static let all: [String: FilterImplementation] = [
        "HistogramEqualization": histogramEqualization,
        "AdaptiveHistogramEqualization": adaptiveHistogramEqualization,
        "YCbCrSplitView": ycbcrSplitView,
    ]

    /// Histogram bins: one per 8-bit encoded level.
    static let bins = 256

    /// Classic global histogram equalisation (Gonzalez & Woods, "Digital Image Processing", 3.3.1): each level k
    /// maps to (cdf(k) − cdf_min) / (N − cdf_min), so the darkest occupied level becomes 0 and the brightest 1.
    /// On the luma, the change of Y' is added to R', G' and B' alike (Cb and Cr are kept); per channel, red, green
    /// and blue each get their own map. `inputAmount` mixes the result with the input (0: the input). A whole-image
    /// operation: its region of interest is the whole input, its extent the input's; an infinite input is
    /// returned unchanged (it has no histogram).
    static func histogramEqualization(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let amount = try inputs.float("inputAmount")
        let perChannel = try inputs.bool("inputPerChannel")
        guard amount != 0, !image.extent.isInfinite, !image.extent.isEmpty else { return image }
        return equalized(image, tiles: 1, perChannel: perChannel, clipLimit: nil, amount: amount, name: "histogramEqualization")
    }

    /// CLAHE after Zuiderveld, "Contrast Limited Adaptive Histogram Equalization", Graphics Gems IV (1994): the
    /// image is cut into `inputTileCount` × `inputTileCount` tiles; each tile's luma histogram is clipped at
    /// `inputClipLimit` times the mean bin count and the clipped excess spread over the bins below the limit; each
    /// tile's equalisation map is then read for every pixel and blended bilinearly between the four nearest tile
    /// centres (the nearest tiles at the borders). At a clip limit of 1 or less every histogram ends flat, so the
    /// maps are the identity; higher limits give more contrast. The tile count is taken between 1 and 64
    /// (and at most one tile per 8 pixels); the change of Y' is added to R', G' and B' alike.
    static func adaptiveHistogramEqualization(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let clip = try inputs.float("inputClipLimit")
        let requested = try inputs.number("inputTileCount")
        // At a limit of 1 or less every clipped histogram is flat: the identity.
        guard clip > 1, !image.extent.isInfinite, !image.extent.isEmpty else { return image }
        let e = image.pixelExtent
        let tiles = Int(min(max(requested.rounded(), 1), 64, Double(max(1, min(e.width, e.height) / 8))))
        return equalized(image, tiles: tiles, perChannel: false, clipLimit: clip, amount: 1, name: "adaptiveHistogramEqualization")
    }

    /// Shows the sRGB-encoded BT.709 Y', Cb and Cr of the image side by side as grey images, each the input's
    /// size: Y' on the left (its grey the value of Y'), then Cb and Cr (mid grey 0.5 for no chroma, 0.5 + Pb and
    /// 0.5 + Pr). The output is three inputs wide; alpha is kept. An infinite input shows the luma only.
    static func ycbcrSplitView(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let e = image.extent
        let width = e.width.rounded(.up)
        let panels: [Image] = e.isInfinite || e.isEmpty ? [image]
            : [image, image.transformed(by: .translation(x: width, y: 0)), image.transformed(by: .translation(x: 2 * width, y: 0))]
        let extent = panels.count == 1 ? e : Rect(x: e.minX, y: e.minY, width: 3 * width, height: e.height)
        let encodeTable = EncodedCurves.encodeBySquareRoot, decodeTable = EncodedCurves.decode
        let w = ColorMath.lumaWeights
        let count = panels.count
        return ColorKernel(name: "ycbcrSplitView") { span in
            let out = span.out
            let encode = encodeTable.values, decode = decodeTable.values
            // Outside its panel an input is transparent, so the sum of the three premultiplied greys is the
            // panel's own.
            var rows: [PlanarRow] = []
            for index in 0..<count { rows.append(span.input(index)) }
            for i in 0..<span.count {
                var grey: Float = 0, alpha: Float = 0
                for (index, row) in rows.enumerated() {
                    let a = row.a[i]
                    guard a > 0 else { continue }
                    let inv = 1 / a
                    let r = EncodedCurves.encode(row.r[i] * inv, encode), g = EncodedCurves.encode(row.g[i] * inv, encode)
                    let b = EncodedCurves.encode(row.b[i] * inv, encode)
                    let y = w.x * r + w.y * g + w.z * b
                    let value: Float = switch index {
                    case 0: y
                    case 1: 0.5 + (b - y) / 1.8556
                    default: 0.5 + (r - y) / 1.5748
                    }
                    grey += EncodedCurves.lookup(decode, EncodedCurves.clamp01(value)) * a
                    alpha += a
                }
                out.r[i] = grey; out.g[i] = grey; out.b[i] = grey; out.a[i] = alpha
            }
        }.apply(extent: extent, inputs: panels)
    }

    // MARK: Equalisation

    /// The maps one render computed, shared by the mapping kernel's spans (filled before any span runs: the
    /// maps are a materialised node, computed before the output's bands). Locked, because two renders of the
    /// same image may run at once (they compute the same maps).
    final class MapsBox: @unchecked Sendable {
        private var stored: [Float] = []
        private let lock = NSLock()
        var values: [Float] {
            get { lock.lock(); defer { lock.unlock() }; return stored }
            set { lock.lock(); stored = newValue; lock.unlock() }
        }
    }

    /// The image through equalisation maps made from its own histograms on a tiles × tiles grid.
    static func equalized(_ image: Image, tiles: Int, perChannel: Bool, clipLimit: Float?, amount: Float, name: String) -> Image {
        let region = image.pixelExtent
        let channels = perChannel ? 3 : 1
        let box = MapsBox()
        // Stage 1: every tile's maps from histograms taken on every core (the input materialised over the
        // region), kept in `box` for stage 2 and also written as an image of `bins` pixels a row, one row per
        // tile and channel (read through a clamp, so that it is computed whatever rectangle is rendered).
        let mapsRect = PixelRect(x: 0, y: 0, width: bins, height: tiles * tiles * channels)
        let maps = GeneralKernel(name: name + "Maps", parallel: false, roi: { _, _ in region }) { context in
            let values = equalizationMaps(context.inputs[0], region: region, tiles: tiles, channels: channels, clipLimit: clipLimit)
            box.values = values
            for y in context.rect.y..<context.rect.maxY {
                let row = context.output.row(y) + (context.rect.x - context.output.rect.x)
                for x in context.rect.x..<context.rect.maxX {
                    let v = values[y * bins + x]
                    row[x - context.rect.x] = Pixel(v, v, v, 1)
                }
            }
        }.apply(extent: mapsRect.rect, inputs: [image])
        // Stage 2: a colour kernel (fused with what follows it, no frame-sized output buffer): each pixel through
        // its maps, a span at a time in passes (unpremultiply and encode, map, decode and premultiply), so that the
        // arithmetic vectorises and the look-ups are tight loops.
        let w = ColorMath.lumaWeights
        let encodeTable = EncodedCurves.encodeBySquareRoot, decodeTable = EncodedCurves.decode
        let tileWidth = Float(region.width) / Float(tiles), tileHeight = Float(region.height) / Float(tiles)
        return ColorKernel(name: name) { span in
            let row = span.out, count = span.count, y = span.y
            let encode = encodeTable.values, decode = decodeTable.values
            let values = box.values
            values.withUnsafeBufferPointer { values in
                guard values.count == tiles * tiles * channels * bins else { return }  // never: the maps come first
                let maps = values.baseAddress!
                // The map of row `r` at the encoded value v, interpolated between levels.
                @inline(__always) func map(_ r: Int, _ v: Float) -> Float {
                    let t = EncodedCurves.clamp01(v) * Float(bins - 1)
                    let k = min(Int(t), bins - 2), f = t - Float(k)
                    let p = maps + r * bins + k
                    return p[0] + (p[1] - p[0]) * f
                }
                // The tile (as a row offset) and the blend weight along one axis, for a pixel centre at `position`.
                @inline(__always) func axis(_ position: Float, _ size: Float) -> (Int, Int, Float) {
                    let f = position / size - 0.5
                    if f <= 0 { return (0, 0, 0) }
                    let i = Int(f)
                    if i >= tiles - 1 { return (tiles - 1, tiles - 1, 0) }
                    return (i, i + 1, f - Float(i))
                }
                withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * count) { planes in
                    let luma = planes.baseAddress!, scratch = luma + count
                    // Pixels without coverage stay as they were: kept aside in the rare span that has any.
                    var uncovered = false
                    for i in 0..<count where !(row.a[i] > 0) { uncovered = true }
                    var kept: [Pixel] = []
                    if uncovered { kept = (0..<count).map { row[$0] } }
                    SpanColor.unpremultiply(row, count)
                    // Channel by channel without an array of them (no allocation per span).
                    EncodedCurves.encode(row: row.r, count: count, scratch: scratch, encode)
                    EncodedCurves.encode(row: row.g, count: count, scratch: scratch, encode)
                    EncodedCurves.encode(row: row.b, count: count, scratch: scratch, encode)
                    let (r, g, b) = (row.r, row.g, row.b)
                    if channels == 3 {
                        for i in 0..<count { scratch[i] = map(0, r[i]) }
                        for i in 0..<count { r[i] += (scratch[i] - r[i]) * amount }
                        for i in 0..<count { scratch[i] = map(1, g[i]) }
                        for i in 0..<count { g[i] += (scratch[i] - g[i]) * amount }
                        for i in 0..<count { scratch[i] = map(2, b[i]) }
                        for i in 0..<count { b[i] += (scratch[i] - b[i]) * amount }
                    } else {
                        for i in 0..<count { luma[i] = w.x * r[i] + w.y * g[i] + w.z * b[i] }
                        if tiles == 1 {
                            for i in 0..<count { scratch[i] = map(0, luma[i]) }
                        } else {
                            let (ty0, ty1, wy) = axis(Float(y - region.y) + 0.5, tileHeight)
                            for i in 0..<count {
                                let v = luma[i]
                                let (tx0, tx1, wx) = axis(Float(span.x0 + i - region.x) + 0.5, tileWidth)
                                let bottom = map(ty0 * tiles + tx0, v) * (1 - wx) + map(ty0 * tiles + tx1, v) * wx
                                let top = map(ty1 * tiles + tx0, v) * (1 - wx) + map(ty1 * tiles + tx1, v) * wx
                                scratch[i] = bottom * (1 - wy) + top * wy
                            }
                        }
                        // The luma's change, added to R', G' and B' alike (Cb and Cr kept), mixed in by the amount.
                        for i in 0..<count {
                            let d = scratch[i] - luma[i]
                            let nr = r[i] + d, ng = g[i] + d, nb = b[i] + d
                            r[i] += (nr - r[i]) * amount; g[i] += (ng - g[i]) * amount; b[i] += (nb - b[i]) * amount
                        }
                    }
                    @inline(__always) func decodeClamped(_ channel: UnsafeMutablePointer<Float>) {
                        for i in 0..<count { channel[i] = EncodedCurves.clamp01(channel[i]) }
                        EncodedCurves.lookup(decode, row: channel, count: count)
                    }
                    decodeClamped(r); decodeClamped(g); decodeClamped(b)
                    SpanColor.premultiply(row, count)
                    if uncovered { for i in 0..<count where !(kept[i].w > 0) { row[i] = kept[i] } }
                }
            }
        }.apply(extent: image.extent, inputs: [image, maps.clampedToExtent()])
    }

    /// Equalisation maps, `bins` values in [0, 1] for each tile (row-major from the bottom-left) and channel:
    /// histograms of the encoded 8-bit levels weighted by alpha, clipped and redistributed when `clipLimit`
    /// is given, then (cdf − cdf_min) / (N − cdf_min). A tile with a single occupied level keeps the identity.
    static func equalizationMaps(_ buffer: PixelBuffer, region: PixelRect, tiles: Int, channels: Int, clipLimit: Float?) -> [Float] {
        var histograms = [Float](repeating: 0, count: tiles * tiles * channels * bins)
        let w = ColorMath.lumaWeights
        // Bands of rows on every core, each with histograms of its own for the tile rows it touches, then summed
        // in band order (whole-number weights of opaque pixels sum exactly in any order).
        let bands = min(region.height, 4 * ProcessInfo.processInfo.activeProcessorCount, max(1, region.area / 65536))
        let tileRowLength = tiles * channels * bins
        @Sendable func tileRow(_ y: Int) -> Int { min(tiles - 1, (y - region.y) * tiles / region.height) }
        let bandRows = (0..<bands).map { b in (region.y + region.height * b / bands)..<(region.y + region.height * (b + 1) / bands) }
        let partial = HistogramBands(count: bands)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
          ColorMath.encodeTable.withUnsafeBufferPointer { lut in
            let base = Int32(ColorMath.encodeTableBase), top = Int32(ColorMath.encodeTableCount - 1)
            let shift = Int32(ColorMath.encodeTableShift)
            @inline(__always) func level(_ v: Float) -> Int {
                Int(lut[Int(min(max((Int32(bitPattern: v.bitPattern) &>> shift) &- base, 0), top))])
            }
                let rows = bandRows[band]
                guard !rows.isEmpty else { return }
                let firstTileRow = tileRow(rows.lowerBound)
                var local = [Float](repeating: 0, count: (tileRow(rows.upperBound - 1) - firstTileRow + 1) * tileRowLength)
                local.withUnsafeMutableBufferPointer { h in
                    for y in rows {
                        let row = buffer.row(y) + (region.x - buffer.rect.x)
                        let tileY = tileRow(y) - firstTileRow
                        for i in 0..<region.width {
                            let p = row[i]
                            guard p.w > 0 else { continue }
                            let inv = 1 / p.w
                            let tile = tileY * tiles + min(tiles - 1, i * tiles / region.width)
                            let r = level(p.x * inv), g = level(p.y * inv), b = level(p.z * inv)
                            let weight = min(p.w, 1)
                            if channels == 3 {
                                h[(tile * 3) * bins + r] += weight
                                h[(tile * 3 + 1) * bins + g] += weight
                                h[(tile * 3 + 2) * bins + b] += weight
                            } else {
                                let luma = Int(w.x * Float(r) + w.y * Float(g) + w.z * Float(b) + 0.5)
                                h[tile * bins + min(luma, bins - 1)] += weight
                            }
                        }
                    }
                }
                partial.set(band, (firstTileRow * tileRowLength, local))
            }
        }
        histograms.withUnsafeMutableBufferPointer { h in
            for band in 0..<bands {
                guard let (offset, local) = partial.get(band) else { continue }
                for k in 0..<local.count { h[offset + k] += local[k] }
            }
        }
        var maps = [Float](repeating: 0, count: histograms.count)
        for start in stride(from: 0, to: histograms.count, by: bins) {
            var h = Array(histograms[start..<start + bins])
            let total = h.reduce(0, +)
            if let clipLimit, total > 0 {
                // Zuiderveld's redistribution: the excess goes to the bins below the limit, never above it, so
                // at a limit of 1 (or less) every bin ends at the mean and the map is the identity.
                let limit = clipLimit * total / Float(bins)
                var excess: Float = 0
                for k in 0..<bins where h[k] > limit { excess += h[k] - limit; h[k] = limit }
                while excess > total * 1e-6 {
                    let open = (0..<bins).filter { h[$0] < limit }
                    guard !open.isEmpty else { break }
                    let share = excess / Float(open.count)
                    var given: Float = 0
                    for k in open {
                        // A bin given its whole gap is set to the limit exactly, so it leaves the open set.
                        if share >= limit - h[k] {
                            given += limit - h[k]
                            h[k] = limit
                        } else {
                            h[k] += share
                            given += share
                        }
                    }
                    excess -= given
                }
            }
            var cdf: Float = 0, cdfMin: Float = -1
            var cumulative = [Float](repeating: 0, count: bins)
            for k in 0..<bins {
                cdf += h[k]
                cumulative[k] = cdf
                if cdfMin < 0, h[k] > 0 { cdfMin = cdf }
            }
            let span = cdf - max(cdfMin, 0)
            for k in 0..<bins {
                maps[start + k] = span > cdf * 1e-6 && cdfMin >= 0
                    ? max(0, cumulative[k] - cdfMin) / span : Float(k) / Float(bins - 1)
            }
        }
        return maps
    }
}

/// Each band's histograms (offset into the whole set, values), written by the band's thread, read after all.
final class HistogramBands: @unchecked Sendable {
    private var items: [(Int, [Float])?]
    private let lock = NSLock()
    init(count: Int) { items = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ item: (Int, [Float])) { lock.lock(); items[index] = item; lock.unlock() }
    func get(_ index: Int) -> (Int, [Float])? { lock.lock(); defer { lock.unlock() }; return items[index] }
}
