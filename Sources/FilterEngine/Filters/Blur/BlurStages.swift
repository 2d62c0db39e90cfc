import Foundation

/// Neighbourhood stages shared by the box, disc, motion, zoom, median, convolution and morphology filters.
/// Every stage reads its input through bounds-safe row copies (outside the input is transparent), so the
/// buffers the renderer hands over may be smaller than the region of interest.
enum BlurStages {
    static func grow(_ extent: Rect, _ dx: Int, _ dy: Int) -> Rect {
        extent.isInfinite ? extent : extent.insetBy(dx: -Double(dx), dy: -Double(dy))
    }

    // MARK: Box sums (running sums: constant cost per pixel whatever the window)

    /// `scale` × the sum over the window x-left...x+right of each row. The extent grows by the window.
    static func boxX(_ image: Image, left: Int, right: Int, scale: Float) -> Image {
        let n = left + right + 1
        let kernel = GeneralKernel(name: "boxX", roi: { _, r in
            PixelRect(x: r.x - left, y: r.y, width: r.width + n - 1, height: r.height)
        }) { context in
            let source = context.inputs[0], r = context.rect, width = r.width
            let line = UnsafeMutablePointer<Pixel>.allocate(capacity: width + n)
            defer { line.deallocate() }
            for y in r.y..<r.maxY {
                // Output x reads the window [x - left, x + right].
                source.readRow(x0: r.x - left, y: y, count: width + n - 1, into: line)
                let out = context.output.row(y) + (r.x - context.output.rect.x)
                var sum = Pixel(0, 0, 0, 0)
                for k in 0..<(n - 1) { sum += line[k] }
                for i in 0..<width {
                    sum += line[i + n - 1]
                    out[i] = sum * scale
                    sum -= line[i]
                }
            }
        }
        let e = image.extent
        let extent = e.isInfinite ? e : Rect(x: e.minX - Double(right), y: e.minY,
                                             width: e.width + Double(n - 1), height: e.height)
        return kernel.apply(extent: extent, inputs: [image])
    }

    /// `scale` × the sum over the window y-below...y+above of each column.
    static func boxY(_ image: Image, below: Int, above: Int, scale: Float) -> Image {
        let n = below + above + 1
        let kernel = GeneralKernel(name: "boxY", roi: { _, r in
            PixelRect(x: r.x, y: r.y - below, width: r.width, height: r.height + n - 1)
        }) { context in
            let source = context.inputs[0], r = context.rect, width = r.width
            let acc = UnsafeMutablePointer<Pixel>.allocate(capacity: width)
            let add = UnsafeMutablePointer<Pixel>.allocate(capacity: width)
            let sub = UnsafeMutablePointer<Pixel>.allocate(capacity: width)
            defer { acc.deallocate(); add.deallocate(); sub.deallocate() }
            acc.initialize(repeating: Pixel(0, 0, 0, 0), count: width)
            for sy in (r.y - below)..<(r.y + above) {
                source.readRow(x0: r.x, y: sy, count: width, into: add)
                for i in 0..<width { acc[i] += add[i] }
            }
            for y in r.y..<r.maxY {
                source.readRow(x0: r.x, y: y + above, count: width, into: add)
                source.readRow(x0: r.x, y: y - below, count: width, into: sub)
                let out = context.output.row(y) + (r.x - context.output.rect.x)
                for i in 0..<width {
                    let s = acc[i] + add[i]
                    out[i] = s * scale
                    acc[i] = s - sub[i]
                }
            }
        }
        let e = image.extent
        let extent = e.isInfinite ? e : Rect(x: e.minX, y: e.minY - Double(above),
                                             width: e.width, height: e.height + Double(n - 1))
        return kernel.apply(extent: extent, inputs: [image])
    }

    /// Mean over a (2h+1)² square, in two running-sum passes.
    static func box(_ image: Image, halfWidth h: Int) -> Image {
        guard h > 0 else { return image }
        let scale = 1 / Float(2 * h + 1)
        return boxY(boxX(image, left: h, right: h, scale: scale), below: h, above: h, scale: scale)
    }

    // MARK: Disc sums

    /// Half-widths of the rows of a disc of (real) radius `radius`, for dy = -R...R with R = ⌊radius⌋.
    static func discRows(_ radius: Double) -> [Int] {
        let big = Int(radius.rounded(.down))
        return (-big...big).map { dy in Int((radius * radius - Double(dy * dy)).squareRoot().rounded(.down)) }
    }

    /// Mean over a disc of the given radius: for every row of the disc, a span sum read from per-row prefix
    /// sums (cost per pixel 2R+1 look-ups; callers keep R small by working on a pyramid level).
    static func discMean(_ image: Image, radius: Double) -> Image {
        let rows = discRows(radius)
        let big = rows.count / 2
        guard big > 0 else { return image }
        let count = Float(rows.reduce(0) { $0 + 2 * $1 + 1 })
        let kernel = GeneralKernel(name: "discMean", roi: { _, r in r.insetBy(dx: -big, dy: -big) }) { context in
            let source = context.inputs[0], r = context.rect, width = r.width
            let lineLength = width + 2 * big
            let stride = lineLength + 1
            let rowCount = r.height + 2 * big
            let prefix = UnsafeMutablePointer<Pixel>.allocate(capacity: stride * rowCount)
            let line = UnsafeMutablePointer<Pixel>.allocate(capacity: lineLength)
            defer { prefix.deallocate(); line.deallocate() }
            for j in 0..<rowCount {
                source.readRow(x0: r.x - big, y: r.y - big + j, count: lineLength, into: line)
                let p = prefix + j * stride
                var s = Pixel(0, 0, 0, 0)
                p[0] = s
                for i in 0..<lineLength { s += line[i]; p[i + 1] = s }
            }
            let inverse = 1 / count
            rows.withUnsafeBufferPointer { w in
                for y in r.y..<r.maxY {
                    let out = context.output.row(y) + (r.x - context.output.rect.x)
                    out.update(repeating: Pixel(0, 0, 0, 0), count: width)
                    let base = y - r.y
                    for k in 0..<w.count {
                        let p = prefix + (base + k) * stride
                        let hw = w[k]
                        let hi = p + (big + hw + 1), lo = p + (big - hw)
                        for i in 0..<width { out[i] += hi[i] - lo[i] }
                    }
                    for i in 0..<width { out[i] *= inverse }
                }
            }
        }
        return kernel.apply(extent: grow(image.extent, big, big), inputs: [image])
    }

    /// Runs `stage` on a pyramid level small enough that `radius / factor` ≤ `limit`, and scales back up onto
    /// `extent`; with radius within the limit, on the image itself.
    static func onPyramid(_ image: Image, radius: Double, limit: Double, extent: Rect,
                          _ stage: (Image, Double) -> Image) -> Image {
        var factor = 1
        // As deep as the radius needs (levels of any power of two chain): the stage's own radius stays at most
        // `limit`, so the cost per pixel does not grow with the radius. 2^40 keeps factor × coordinates in range.
        while radius / Double(factor) > limit && factor < 1 << 40 { factor *= 2 }
        if factor == 1 { return stage(image, radius).withExtent(extent) }
        let small = stage(image.downsampled(by: factor), radius / Double(factor))
        return small.upsampled(by: factor, extent: extent)
    }

    // MARK: Convolution

    /// Σ weights[j][i] · input(x + i - cx, y + cy - j) (row j = 0 is the top row of the matrix, as written), plus
    /// `bias` on the colour channels and, unless `keepAlpha`, on alpha too; with `keepAlpha` the output alpha is
    /// the input's. Results are clamped to 0...1 as Core Image documents for its convolution filters (colour to
    /// 0...alpha when alpha is kept, so the pixel stays a valid premultiplied one). The extent grows by the
    /// matrix's reach.
    static func convolve(_ image: Image, weights: [Float], columns: Int, rows: Int, bias: Float, keepAlpha: Bool) -> Image {
        let cx = columns / 2, cy = rows / 2
        var taps: [(dx: Int, dy: Int, weight: Float)] = []
        for j in 0..<rows {
            for i in 0..<columns { taps.append((i - cx, cy - j, weights[j * columns + i])) }
        }
        return stencil(image, taps: taps, bias: Pixel(bias, bias, bias, keepAlpha ? 0 : bias), keepAlpha: keepAlpha, clamp: true)
    }

    /// Σ weight · input(x + dx, y + dy) over the taps, plus `bias`; each source row is read once per output row
    /// and all its taps applied from it. Zero taps are skipped. The extent grows by the taps' reach.
    static func stencil(_ image: Image, taps: [(dx: Int, dy: Int, weight: Float)], bias: Pixel = Pixel(0, 0, 0, 0),
                        keepAlpha: Bool = false, clamp: Bool = false) -> Image {
        let live = taps.filter { $0.weight != 0 }
        let rx = taps.map { abs($0.dx) }.max() ?? 0, ry = taps.map { abs($0.dy) }.max() ?? 0
        // Taps grouped by row offset: (dy, [(dx, weight)]).
        let groups: [(Int, [(Int, Float)])] = Dictionary(grouping: live, by: { $0.dy })
            .map { ($0.key, $0.value.map { ($0.dx, $0.weight) }) }.sorted { $0.0 < $1.0 }
        let kernel = GeneralKernel(name: "stencil", roi: { _, r in r.insetBy(dx: -rx, dy: -ry) }) { context in
            let source = context.inputs[0], r = context.rect, width = r.width
            let line = UnsafeMutablePointer<Pixel>.allocate(capacity: width + 2 * rx)
            let centre = UnsafeMutablePointer<Pixel>.allocate(capacity: width)
            defer { line.deallocate(); centre.deallocate() }
            for y in r.y..<r.maxY {
                let out = context.output.row(y) + (r.x - context.output.rect.x)
                out.update(repeating: bias, count: width)
                for (dy, row) in groups {
                    source.readRow(x0: r.x - rx, y: y + dy, count: width + 2 * rx, into: line)
                    for (dx, w) in row {
                        let src = line + (rx + dx)
                        for i in 0..<width { out[i] += src[i] * w }
                    }
                }
                if keepAlpha {
                    source.readRow(x0: r.x, y: y, count: width, into: centre)
                    for i in 0..<width { out[i].w = centre[i].w }
                }
                if clamp {
                    for i in 0..<width {
                        let p = out[i]
                        let a = Swift.min(Swift.max(p.w, 0), 1)
                        let top: Float = keepAlpha ? a : 1
                        out[i] = Pixel(Swift.min(Swift.max(p.x, 0), top), Swift.min(Swift.max(p.y, 0), top),
                                       Swift.min(Swift.max(p.z, 0), top), a)
                    }
                }
            }
        }
        return kernel.apply(extent: grow(image.extent, rx, ry), inputs: [image])
    }

    /// Gaussian weights of σ along the direction (cos, sin), one sample a pixel apart over ±⌈3σ⌉, each sample
    /// spread over its four pixels with bilinear weights; the weights sum to 1.
    static func lineTaps(sigma: Double, cos: Double, sin: Double) -> [(dx: Int, dy: Int, weight: Float)] {
        let reach = Int((3 * sigma).rounded(.up))
        var weights: [SIMD2<Int>: Double] = [:]
        var total = 0.0
        for k in -reach...reach {
            let t = Double(k), g = exp(-t * t / (2 * sigma * sigma))
            total += g
            let sx = t * cos, sy = t * sin
            let fx = sx.rounded(.down), fy = sy.rounded(.down)
            let ax = sx - fx, ay = sy - fy
            let ix = Int(fx), iy = Int(fy)
            for (ox, oy, w) in [(0, 0, (1 - ax) * (1 - ay)), (1, 0, ax * (1 - ay)), (0, 1, (1 - ax) * ay), (1, 1, ax * ay)]
            where w > 1e-9 {
                weights[SIMD2(ix + ox, iy + oy), default: 0] += w * g
            }
        }
        // In a fixed order: a dictionary's order changes from run to run, and with it the order of the float sums
        // (the 8-bit output then differed by one level at a few pixels between runs).
        return weights.map { (dx: $0.key.x, dy: $0.key.y, weight: Float($0.value / total)) }
            .sorted { ($0.dy, $0.dx) < ($1.dy, $1.dx) }
    }

    // MARK: Morphology

    /// Maximum over a w×h rectangle (window x-left...x+right, y-below...y+above), van Herk/Gil-Werman in each
    /// direction: about three comparisons per pixel and pass whatever the size.
    static func rectangleMax(_ image: Image, width w: Int, height h: Int) -> Image {
        var result = image
        if w > 1 { result = vanHerk(result, size: w, vertical: false) }
        if h > 1 { result = vanHerk(result, size: h, vertical: true) }
        return result
    }

    private static func vanHerk(_ image: Image, size n: Int, vertical: Bool) -> Image {
        let before = (n - 1) / 2, after = n - 1 - before
        let kernel = GeneralKernel(name: vertical ? "maxY" : "maxX", roi: { _, r in
            vertical ? PixelRect(x: r.x, y: r.y - before, width: r.width, height: r.height + n - 1)
                     : PixelRect(x: r.x - before, y: r.y, width: r.width + n - 1, height: r.height)
        }) { context in
            let source = context.inputs[0], r = context.rect
            if !vertical {
                let length = r.width + n - 1
                let line = UnsafeMutablePointer<Pixel>.allocate(capacity: length)
                let g = UnsafeMutablePointer<Pixel>.allocate(capacity: length)
                let hh = UnsafeMutablePointer<Pixel>.allocate(capacity: length)
                defer { line.deallocate(); g.deallocate(); hh.deallocate() }
                for y in r.y..<r.maxY {
                    source.readRow(x0: r.x - before, y: y, count: length, into: line)
                    for i in 0..<length { g[i] = i % n == 0 ? line[i] : ColorMath.componentMax(g[i - 1], line[i]) }
                    for i in stride(from: length - 1, through: 0, by: -1) {
                        hh[i] = (i == length - 1 || (i + 1) % n == 0) ? line[i] : ColorMath.componentMax(hh[i + 1], line[i])
                    }
                    let out = context.output.row(y) + (r.x - context.output.rect.x)
                    for i in 0..<r.width { out[i] = ColorMath.componentMax(hh[i], g[i + n - 1]) }
                }
            } else {
                let width = r.width, length = r.height + n - 1
                let lines = UnsafeMutablePointer<Pixel>.allocate(capacity: width * length)
                let g = UnsafeMutablePointer<Pixel>.allocate(capacity: width * length)
                let hh = UnsafeMutablePointer<Pixel>.allocate(capacity: width * length)
                defer { lines.deallocate(); g.deallocate(); hh.deallocate() }
                for j in 0..<length { source.readRow(x0: r.x, y: r.y - before + j, count: width, into: lines + j * width) }
                for j in 0..<length {
                    let src = lines + j * width, dst = g + j * width
                    if j % n == 0 { dst.update(from: src, count: width) } else {
                        let prev = dst - width
                        for i in 0..<width { dst[i] = ColorMath.componentMax(prev[i], src[i]) }
                    }
                }
                for j in stride(from: length - 1, through: 0, by: -1) {
                    let src = lines + j * width, dst = hh + j * width
                    if j == length - 1 || (j + 1) % n == 0 { dst.update(from: src, count: width) } else {
                        let next = dst + width
                        for i in 0..<width { dst[i] = ColorMath.componentMax(next[i], src[i]) }
                    }
                }
                for y in r.y..<r.maxY {
                    let j = y - r.y
                    let out = context.output.row(y) + (r.x - context.output.rect.x)
                    let a = hh + j * width, b = g + (j + n - 1) * width
                    for i in 0..<width { out[i] = ColorMath.componentMax(a[i], b[i]) }
                }
            }
        }
        let e = image.extent
        let extent: Rect
        if e.isInfinite { extent = e } else if vertical {
            extent = Rect(x: e.minX, y: e.minY - Double(after), width: e.width, height: e.height + Double(n - 1))
        } else {
            extent = Rect(x: e.minX - Double(after), y: e.minY, width: e.width + Double(n - 1), height: e.height)
        }
        return kernel.apply(extent: extent, inputs: [image])
    }

    /// Maximum over a disc of the given radius. Each input row gets a sparse table (maxima of runs of 2^k
    /// pixels), so any row span's maximum is two look-ups; a disc costs 2R+1 span look-ups a pixel. Tables are
    /// kept for the 2R+1 rows in reach only (a ring), so memory stays O(R · width).
    static func discMax(_ image: Image, radius: Double) -> Image {
        let rows = discRows(radius)
        let big = rows.count / 2
        guard big > 0 else { return image }
        var levelsNeeded = 1
        while (1 << levelsNeeded) <= 2 * big + 1 { levelsNeeded += 1 }
        let levels = levelsNeeded
        let kernel = GeneralKernel(name: "discMax", roi: { _, r in r.insetBy(dx: -big, dy: -big) }) { context in
            let source = context.inputs[0], r = context.rect, width = r.width
            let length = width + 2 * big
            let ring = 2 * big + 1
            let tableSize = levels * length
            let tables = UnsafeMutablePointer<Pixel>.allocate(capacity: ring * tableSize)
            defer { tables.deallocate() }
            func build(_ sy: Int) {
                let t = tables + ((sy % ring + ring) % ring) * tableSize
                source.readRow(x0: r.x - big, y: sy, count: length, into: t)
                for k in 1..<levels {
                    let span = 1 << (k - 1)
                    let prev = t + (k - 1) * length, cur = t + k * length
                    let valid = length - (1 << k) + 1
                    if valid <= 0 { break }
                    for i in 0..<valid { cur[i] = ColorMath.componentMax(prev[i], prev[i + span]) }
                }
            }
            // Floor log2 of each span length 2w+1.
            let spanLevel = rows.map { w -> Int in
                var k = 0
                while (1 << (k + 1)) <= 2 * w + 1 { k += 1 }
                return k
            }
            for sy in (r.y - big)..<(r.y + big) { build(sy) }
            rows.withUnsafeBufferPointer { w in
                spanLevel.withUnsafeBufferPointer { lv in
                    for y in r.y..<r.maxY {
                        build(y + big)
                        let out = context.output.row(y) + (r.x - context.output.rect.x)
                        out.update(repeating: Pixel(-Float.greatestFiniteMagnitude, -Float.greatestFiniteMagnitude,
                                                    -Float.greatestFiniteMagnitude, -Float.greatestFiniteMagnitude),
                                   count: width)
                        for k in 0..<w.count {
                            let sy = y - big + k
                            let t = tables + ((sy % ring + ring) % ring) * tableSize
                            let hw = w[k], level = lv[k]
                            let table = t + level * length
                            // Span [x - hw, x + hw] → line index [big - hw + i, big + hw + i].
                            let lo = table + (big - hw), hi = table + (big + hw + 1 - (1 << level))
                            for i in 0..<width { out[i] = ColorMath.componentMax(out[i], ColorMath.componentMax(lo[i], hi[i])) }
                        }
                    }
                }
            }
        }
        return kernel.apply(extent: grow(image.extent, big, big), inputs: [image])
    }

    /// Every channel negated (turns a maximum into a minimum: min(x) = -max(-x)).
    static func negated(_ image: Image) -> Image {
        ColorKernel(name: "negate") { span in
            let o = span.out
            for i in 0..<span.count { o.r[i] = -o.r[i]; o.g[i] = -o.g[i]; o.b[i] = -o.b[i]; o.a[i] = -o.a[i] }
        }.apply(extent: image.extent, inputs: [image])
    }

    // MARK: Median

    /// Per-channel median of the 3×3 neighbourhood (a 19-exchange sorting network).
    static func median3x3(_ image: Image) -> Image {
        let kernel = GeneralKernel(name: "median3x3", roi: { _, r in r.insetBy(dx: -1, dy: -1) }) { context in
            let source = context.inputs[0], r = context.rect, width = r.width
            let lines = UnsafeMutablePointer<Pixel>.allocate(capacity: 3 * (width + 2))
            defer { lines.deallocate() }
            for y in r.y..<r.maxY {
                for j in 0..<3 { source.readRow(x0: r.x - 1, y: y - 1 + j, count: width + 2, into: lines + j * (width + 2)) }
                let a = lines, b = lines + (width + 2), c = lines + 2 * (width + 2)
                let out = context.output.row(y) + (r.x - context.output.rect.x)
                for i in 0..<width {
                    var p0 = a[i], p1 = a[i + 1], p2 = a[i + 2]
                    var p3 = b[i], p4 = b[i + 1], p5 = b[i + 2]
                    var p6 = c[i], p7 = c[i + 1], p8 = c[i + 2]
                    @inline(__always) func sort(_ x: inout Pixel, _ y: inout Pixel) {
                        let lo = ColorMath.componentMin(x, y), hi = ColorMath.componentMax(x, y); x = lo; y = hi
                    }
                    sort(&p1, &p2); sort(&p4, &p5); sort(&p7, &p8)
                    sort(&p0, &p1); sort(&p3, &p4); sort(&p6, &p7)
                    sort(&p1, &p2); sort(&p4, &p5); sort(&p7, &p8)
                    sort(&p0, &p3); sort(&p5, &p8); sort(&p4, &p7)
                    sort(&p3, &p6); sort(&p1, &p4); sort(&p2, &p5)
                    sort(&p4, &p7); sort(&p4, &p2); sort(&p6, &p4)
                    sort(&p4, &p2)
                    out[i] = p4
                }
            }
        }
        return kernel.apply(extent: image.extent, inputs: [image])
    }
}
