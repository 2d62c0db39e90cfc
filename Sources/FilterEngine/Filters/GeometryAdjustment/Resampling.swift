import Foundation
import CPixelLoops

/// Separable resampling for the scale transforms: one horizontal and one vertical pass, each a general kernel
/// that computes, for every output column (or row), the source pixels under its footprint and their weights.
/// When shrinking, the filter is widened by 1/scale so that every source pixel contributes (antialiasing);
/// the work per output pixel then grows as 1/scale, but the output shrinks by as much, so the total stays about
/// (support × input pixels). Reads are limited to the source extent and the weights renormalised there, so a
/// constant image stays constant up to its edges.
enum Resampling {
    enum Filter: Sendable {
        case lanczos3
        /// Mitchell–Netravali cubic family with parameters B and C.
        case cubic(b: Double, c: Double)
        /// The largest value under the footprint (per channel), instead of a weighted mean.
        case maximum

        var support: Double {
            switch self {
            case .lanczos3: 3
            case .cubic: 2
            case .maximum: 0.5
            }
        }

        var isMaximum: Bool {
            if case .maximum = self { return true }
            return false
        }

        @inline(__always) func weight(_ x: Double) -> Double {
            switch self {
            case .lanczos3:
                let t = abs(x)
                if t < 1e-9 { return 1 }
                if t >= 3 { return 0 }
                let px = Double.pi * t
                return 3 * sin(px) * sin(px / 3) / (px * px)
            case .cubic(let b, let c):
                let t = abs(x)
                if t < 1 {
                    return ((12 - 9 * b - 6 * c) * t * t * t + (-18 + 12 * b + 6 * c) * t * t + (6 - 2 * b)) / 6
                } else if t < 2 {
                    return ((-b - 6 * c) * t * t * t + (6 * b + 30 * c) * t * t + (-12 * b - 48 * c) * t
                            + (8 * b + 24 * c)) / 6
                }
                return 0
            case .maximum:
                return 1
            }
        }
    }

    /// How a weighted filter computes a decoded 8-bit picture.
    enum Arithmetic: Sendable {
        /// Working-space floats, as every other input is computed: the reference.
        case float
        /// 16-bit fixed point from the 8-bit rows (`fixedPointFromSource8`) where that stays within one level of
        /// `float` on every channel of the 8-bit output (`fixedPointHolds`); elsewhere the same as `float`.
        case fixedPoint
    }

    /// The image scaled by `sx` horizontally and `sy` vertically about the origin, with `filter`.
    /// A zero scale is taken as a tiny one: the output keeps at least one pixel (the mean, or the maximum, of
    /// the whole image), as the limit suggests.
    static func scale(_ image: Image, sx: Double, sy: Double, filter: Filter, arithmetic: Arithmetic = .fixedPoint) -> Image {
        guard sx.isFinite, sy.isFinite, !image.extent.isEmpty else { return .empty }
        let sx = max(sx, 1e-6), sy = max(sy, 1e-6)
        if arithmetic == .fixedPoint, case .source(let pixels) = image.kind, case .rgba8(let memory) = pixels.storage,
           fixedPointHolds(pixels, sx: sx, sy: sy, filter: filter) {
            return fixedPointFromSource8(image, pixels, memory, sx: sx, sy: sy, filter: filter)
        }
        // A decoded picture is read row by row by the horizontal pass, which then goes first.
        if case .source(let pixels) = image.kind, sx != 1 {
            return pass(horizontalFromSource(image, pixels, scale: sx, filter: filter), scale: sy, vertical: true,
                        filter: filter)
        }
        // Enlarge after shrinking: the pass that reduces goes first so the intermediate stays small.
        if sx >= sy {
            return pass(pass(image, scale: sy, vertical: true, filter: filter), scale: sx, vertical: false, filter: filter)
        }
        return pass(pass(image, scale: sx, vertical: false, filter: filter), scale: sy, vertical: true, filter: filter)
    }

    /// The scaled extent along one axis, rounded out to whole pixels.
    static func scaledExtent(_ e: Rect, scale s: Double, vertical: Bool) -> Rect {
        if e.isInfinite || s == 1 { return e }
        let r = vertical ? Rect(x: e.minX, y: e.minY * s, width: e.width, height: e.height * s)
                         : Rect(x: e.minX * s, y: e.minY, width: e.width * s, height: e.height)
        let whole = r.integral
        return whole.isEmpty ? Rect(x: whole.minX, y: whole.minY, width: max(1, whole.width), height: max(1, whole.height)) : whole
    }

    /// Footprint of output positions `first..<first+count` along one axis: for each, the first source index,
    /// the number of taps, and (weighted filters) normalised weights laid out one after another.
    struct Taps {
        var start: [Int] = []
        var count: [Int] = []
        var offset: [Int] = []
        var weights: [Float] = []
        /// For `pixelloops_resample_rows4_rgba` (weighted filters, after `pack`): every output gets `width` taps,
        /// the missing ones zero weights, so the inner loop has one length and several outputs are summed at once.
        var width = 0
        var start32: [Int32] = []
        var packed: [Float] = []

        /// Fills `width`, `start32` and `packed` (output k's weights at k × width). A zero weight adds an exact
        /// zero to the sum where the pixel it meets is finite, so the sums are unchanged; an infinite or NaN pixel
        /// makes it NaN, which spreads such a pixel's NaN (its real taps already give one) a few outputs further.
        mutating func pack() {
            width = count.max() ?? 1
            start32 = start.map { Int32($0) }
            packed = [Float](repeating: 0, count: start.count * width)
            for k in 0..<start.count {
                for j in 0..<count[k] { packed[k * width + j] = weights[offset[k] + j] }
            }
        }
    }

    /// The taps of one pass, computed by the first band that asks and reused by the others: every band of a
    /// horizontal pass covers the same columns, and each weight costs two sines. Measured on the 2-core dev VM
    /// (one thread, CPU time): the 8 bands of a 1080p Lanczos 50 % (2 threads) spent 2.2 ms a frame on their
    /// taps, about a tenth of the render's CPU. The weights are the same numbers, so the pixels are too.
    final class TapsCache: @unchecked Sendable {
        private var key: [Int] = []
        private var value = Taps()
        private let lock = NSLock()
        private let packs: Bool

        /// `packs`: also `Taps.pack` them (for the horizontal pass's C loop).
        init(packs: Bool = false) { self.packs = packs }

        func taps(first: Int, count: Int, scale s: Double, filter: Filter, sourceLow: Int, sourceHigh: Int) -> Taps {
            lock.lock()
            defer { lock.unlock() }
            let wanted = [first, count, sourceLow, sourceHigh]
            if key != wanted {
                value = Resampling.taps(first: first, count: count, scale: s, filter: filter,
                                        sourceLow: sourceLow, sourceHigh: sourceHigh)
                if packs && !filter.isMaximum { value.pack() }
                key = wanted
            }
            return value
        }
    }

    static func taps(first: Int, count: Int, scale s: Double, filter: Filter, sourceLow: Int, sourceHigh: Int) -> Taps {
        var t = Taps()
        t.start.reserveCapacity(count); t.count.reserveCapacity(count); t.offset.reserveCapacity(count)
        let f = min(s, 1)
        let reach = filter.support / f
        for k in 0..<count {
            let centre = (Double(first + k) + 0.5) / s
            var lo: Int, hi: Int
            if filter.isMaximum {
                // Source pixels whose centres fall inside the output pixel's footprint; at least the nearest one.
                lo = Int(((Double(first + k)) / s - 0.5).rounded(.up))
                hi = Int(((Double(first + k + 1)) / s - 0.5).rounded(.up)) - 1
                if hi < lo { lo = Int(centre.rounded(.down)); hi = lo }
            } else {
                lo = Int((centre - reach - 0.5).rounded(.up))
                hi = Int((centre + reach - 0.5).rounded(.down))
            }
            lo = max(lo, sourceLow); hi = min(hi, sourceHigh)
            if hi < lo {
                // Entirely outside the source: the nearest edge pixel.
                let edge = min(max(Int(centre.rounded(.down)), sourceLow), sourceHigh)
                lo = edge; hi = edge
            }
            t.start.append(lo)
            t.count.append(hi - lo + 1)
            t.offset.append(t.weights.count)
            if filter.isMaximum { continue }
            var sum = 0.0
            let base = t.weights.count
            for i in lo...hi {
                let w = filter.weight((Double(i) + 0.5 - centre) * f)
                t.weights.append(Float(w))
                sum += w
            }
            if abs(sum) < 1e-12 {
                for j in base..<t.weights.count { t.weights[j] = 1 / Float(hi - lo + 1) }
            } else {
                let inv = Float(1 / sum)
                for j in base..<t.weights.count { t.weights[j] *= inv }
            }
        }
        return t
    }

    /// One output row of the vertical pass: `dst[i]` = Σⱼ wⱼ · row(start + j)[x + i], summed in tap order
    /// (the same sums as adding each tap's row into a zeroed row), in blocks of 256 pixels that stay in L1
    /// while every tap adds into them, as plain float loops the compiler vectorises 8 wide.
    /// Measured on the 2-core dev VM (bench case k, one thread, CPU time): the whole Lanczos 50 % render went
    /// from 31.0 to 29.9 ms (median of 6 in-process medians, A B A B).
    @inline(__always)
    static func verticalTaps(_ dst: UnsafeMutablePointer<Pixel>, count n: Int, input: PixelBuffer, x: Int, start: Int,
                             taps: Int, weights: [Float], offset: Int) {
        let out = UnsafeMutableRawPointer(dst).assumingMemoryBound(to: Float.self)
        let taps = max(1, taps)
        withUnsafeTemporaryAllocation(of: UnsafePointer<Float>?.self, capacity: taps) { rows in
            for j in 0..<taps {
                rows[j] = UnsafeRawPointer(input.row(start + j) + (x - input.rect.x)).assumingMemoryBound(to: Float.self)
            }
            weights.withUnsafeBufferPointer { w in
                pixelloops_resample_column(rows.baseAddress!, w.baseAddress! + offset, Int32(taps), Int32(4 * n), out)
            }
        }
    }

    /// One output row of the horizontal pass; `src` is indexed by source column.
    @inline(__always)
    static func horizontalRow(_ src: UnsafePointer<Pixel>, into out: UnsafeMutablePointer<Pixel>, count: Int,
                              taps t: Taps, isMaximum: Bool) {
        t.weights.withUnsafeBufferPointer { weights in
            // Measured: four pixels at a time (four independent sums) gained nothing here (Lanczos 50 %, one
            // thread, whole-process CPU A/B 0.84 with it, 0.85 without), so one plain loop.
            for k in 0..<count {
                let start = t.start[k]
                if isMaximum {
                    var m = src[start]
                    for j in 1..<max(1, t.count[k]) { m = ColorMath.componentMax(m, src[start + j]) }
                    out[k] = m
                } else {
                    var acc = Pixel(0, 0, 0, 0)
                    let o = t.offset[k]
                    for j in 0..<t.count[k] { acc += src[start + j] * weights[o + j] }
                    out[k] = acc
                }
            }
        }
    }

    /// The horizontal pass over a decoded picture (a photo from a file), reading its rows as it goes instead of
    /// asking the renderer for the whole picture in working-space floats first: the 8-bit rows are converted
    /// where they are filtered, and the full-size float intermediate (33 MB at 1080p) is never written.
    /// Same taps and sums as `pass` (so a shrink by the same scales differs from the vertical-first order only
    /// in float rounding, within one level). Measured on the 2-core dev VM (bench case k, 1080p, one thread,
    /// A B A B under heavy load): 54 → 47.5 ms a frame, 15% less CPU for the whole process.
    static func horizontalFromSource(_ image: Image, _ pixels: SourcePixels, scale s: Double, filter: Filter) -> Image {
        if s == 1 { return image }
        let extent = scaledExtent(image.extent, scale: s, vertical: false)
        let source = image.pixelExtent
        let isMaximum = filter.isMaximum
        let cache = TapsCache(packs: true)
        let kernel = GeneralKernel(name: "resampleX", roi: { _, r in r }) { context in
            let r = context.rect, outBase = context.output
            let t = cache.taps(first: r.x, count: r.width, scale: s, filter: filter,
                               sourceLow: source.x, sourceHigh: source.maxX - 1)
            // The source columns this band reads (every output column reads at least one).
            let lo = t.start.min() ?? source.x
            let hi = zip(t.start, t.count).map { $0 + $1 }.max() ?? source.x
            let n = max(1, hi - lo)
            if isMaximum {
                let planes = UnsafeMutablePointer<Float>.allocate(capacity: 4 * n)
                let scratch = UnsafeMutablePointer<Pixel>.allocate(capacity: n)
                let row = UnsafeMutablePointer<Pixel>.allocate(capacity: n)
                defer { planes.deallocate(); scratch.deallocate(); row.deallocate() }
                let planar = PlanarRow(base: planes, stride: n)
                for y in r.y..<r.maxY {
                    let out = outBase.row(y) + (r.x - outBase.rect.x)
                    guard y >= source.y, y < source.maxY, hi > lo else {
                        out.update(repeating: Pixel(0, 0, 0, 0), count: r.width)
                        continue
                    }
                    pixels.read(x0: lo - source.x, y: y - source.y, count: hi - lo, into: planar, scratch: scratch)
                    planar.store(row, count: hi - lo)
                    horizontalRow(row - lo, into: out, count: r.width, taps: t, isMaximum: true)
                }
                return
            }
            // Weighted: four rows at a time (they share the weights). Each row buffer has room for the padded
            // taps past its last column, zeros (times zero weights); a spare row stands in for missing ones.
            let rowLength = n + t.width
            let rows = UnsafeMutablePointer<Pixel>.allocate(capacity: 4 * rowLength)
            let spare = UnsafeMutablePointer<Pixel>.allocate(capacity: r.width)
            defer { rows.deallocate(); spare.deallocate() }
            rows.initialize(repeating: Pixel(0, 0, 0, 0), count: 4 * rowLength)
            let y0 = max(r.y, source.y), y1 = hi > lo ? min(r.maxY, source.maxY) : y0
            for y in r.y..<r.maxY where y < y0 || y >= y1 {
                (outBase.row(y) + (r.x - outBase.rect.x)).update(repeating: Pixel(0, 0, 0, 0), count: r.width)
            }
            withUnsafeTemporaryAllocation(of: UnsafePointer<Float>?.self, capacity: 4) { src in
                withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>?.self, capacity: 4) { dst in
                    func floats(_ p: UnsafeMutablePointer<Pixel>) -> UnsafeMutablePointer<Float> {
                        UnsafeMutableRawPointer(p).assumingMemoryBound(to: Float.self)
                    }
                    for y in stride(from: y0, to: y1, by: 4) {
                        for i in 0..<4 {
                            let row = rows + i * rowLength
                            // Indexed by source column, as the starts are.
                            src[i] = UnsafePointer(floats(row - lo))
                            guard y + i < y1 else {
                                dst[i] = floats(spare)
                                continue
                            }
                            dst[i] = floats(outBase.row(y + i) + (r.x - outBase.rect.x))
                            pixels.readInterleaved(x0: lo - source.x, y: y + i - source.y, count: hi - lo, into: row)
                        }
                        t.start32.withUnsafeBufferPointer { start in
                            t.packed.withUnsafeBufferPointer { w in
                                pixelloops_resample_rows4_rgba(src.baseAddress!, start.baseAddress!, w.baseAddress!,
                                                             Int32(t.width), Int32(r.width), dst.baseAddress!)
                            }
                        }
                    }
                }
            }
        }
        return kernel.apply(extent: extent, inputs: [])
    }

    static func pass(_ image: Image, scale s: Double, vertical: Bool, filter: Filter) -> Image {
        if s == 1 { return image }
        let extent = scaledExtent(image.extent, scale: s, vertical: vertical)
        let source = image.pixelExtent
        let reach = filter.support / min(s, 1) + 2
        let isMaximum = filter.isMaximum
        let cache = TapsCache()
        let kernel = GeneralKernel(name: vertical ? "resampleY" : "resampleX", roi: { _, r in
            if vertical {
                let lo = Int((Double(r.y) / s - reach).rounded(.down)), hi = Int((Double(r.maxY) / s + reach).rounded(.up))
                return PixelRect(x: r.x, y: lo, width: r.width, height: hi - lo).intersection(source)
            }
            let lo = Int((Double(r.x) / s - reach).rounded(.down)), hi = Int((Double(r.maxX) / s + reach).rounded(.up))
            return PixelRect(x: lo, y: r.y, width: hi - lo, height: r.height).intersection(source)
        }) { context in
            let input = context.inputs[0]
            let r = context.rect
            let outBase = context.output
            // Reads stay inside both the source extent and the materialised buffer.
            let avail = input.rect.intersection(source)
            if vertical {
                let t = taps(first: r.y, count: r.height, scale: s, filter: filter,
                             sourceLow: avail.y, sourceHigh: avail.maxY - 1)
                let x0 = max(r.x, avail.x), x1 = min(r.maxX, avail.maxX)
                for k in 0..<r.height {
                    let out = outBase.row(r.y + k) + (r.x - outBase.rect.x)
                    guard x1 > x0, !avail.isEmpty else {
                        out.update(repeating: Pixel(0, 0, 0, 0), count: r.width)
                        continue
                    }
                    // Zeros only outside the source; inside, the first tap writes.
                    out.update(repeating: Pixel(0, 0, 0, 0), count: x0 - r.x)
                    (out + (x1 - r.x)).update(repeating: Pixel(0, 0, 0, 0), count: r.maxX - x1)
                    let dst = out + (x0 - r.x)
                    let n = x1 - x0
                    if isMaximum {
                        dst.update(from: input.row(t.start[k]) + (x0 - input.rect.x), count: n)
                        if t.count[k] > 1 {
                            for j in 1..<t.count[k] {
                                let src = input.row(t.start[k] + j) + (x0 - input.rect.x)
                                for i in 0..<n { dst[i] = ColorMath.componentMax(dst[i], src[i]) }
                            }
                        }
                        continue
                    }
                    verticalTaps(dst, count: n, input: input, x: x0, start: t.start[k], taps: t.count[k],
                                 weights: t.weights, offset: t.offset[k])
                }
            } else {
                let t = cache.taps(first: r.x, count: r.width, scale: s, filter: filter,
                                   sourceLow: avail.x, sourceHigh: avail.maxX - 1)
                let y0 = max(r.y, avail.y), y1 = min(r.maxY, avail.maxY)
                for y in r.y..<r.maxY {
                    let out = outBase.row(y) + (r.x - outBase.rect.x)
                    guard y >= y0, y < y1, !avail.isEmpty else {
                        out.update(repeating: Pixel(0, 0, 0, 0), count: r.width)
                        continue
                    }
                    horizontalRow(input.row(y) - input.rect.x, into: out, count: r.width, taps: t, isMaximum: isMaximum)
                }
            }
        }
        return kernel.apply(extent: extent, inputs: [image])
    }

    // MARK: Fixed point from 8-bit pictures

    /// The smallest scale (either axis) the fixed path takes: the kernel widens to 6/scale taps, whose 15-bit
    /// weights' rounding errors add up (a dark pixel's level is only ~10 units of 2⁻¹⁵ wide). Against the float
    /// passes it measured within one level down to 0.005 (sample photos, black–white and dark noise), but
    /// CompatibilitySnippetTests' S12 (Core Image's route against the engine's, both fixed, at 0.062) differed
    /// by 4 levels, not yet explained; 0.2 keeps both routes on the float passes there.
    static let fixedPointSmallestScale = 0.2

    /// Whether `fixedPointFromSource8` keeps the 8-bit output within one level of the float passes: a weighted
    /// filter, both axes resampled, neither shrunk below `fixedPointSmallestScale`, and an opaque picture (a
    /// translucent pixel's colour is divided by its alpha on output, which enlarges the fixed point's error by as
    /// much: a tenth of a level at alpha 1 is several at alpha 1/32).
    static func fixedPointHolds(_ pixels: SourcePixels, sx: Double, sy: Double, filter: Filter) -> Bool {
        !filter.isMaximum && pixels.isOpaque && sx != 1 && sy != 1
            && min(sx, sy) >= fixedPointSmallestScale
    }

    /// Linear premultiplied values in 16 bits: 1.0 is 2¹⁴, so the filters' overshoot either side fits.
    static let fixedOne: Int32 = 1 << 14

    /// `pixelloops_fixed_decode_opaque_rgba`'s words: the working space's decode curve (`ColorMath.decodeTable`),
    /// each byte's value in units of `fixedOne`, in red's, green's or blue's 16-bit lane; blue's carry alpha 1.
    /// Then 64 words of the values' low bytes and high bytes, 256 each (AVX-512 byte permutes look them up).
    static let fixedDecodeWords: [UInt64] = {
        let values = ColorMath.decodeTable.map { UInt64(($0 * Float(fixedOne)).rounded()) }
        let lanes = (0..<3).flatMap { c in values.map { $0 << (16 * c) | (c == 2 ? UInt64(fixedOne) << 48 : 0) } }
        return lanes + ColorTables.byteTables(values.map { UInt16($0) })
    }()

    /// The 8-bit output's table: each fixed value 0…`fixedOne` as the float path encodes v / `fixedOne`, so that the
    /// bytes are those of the floats the vertical pass would have written.
    static let fixedEncodeTable: [UInt8] = ColorTables.greyOutputs([], count: Int(fixedOne) + 1) { Float($0) / Float(fixedOne) }
        .map { UInt8(truncatingIfNeeded: $0) }

    /// A pass's taps as integers: each output's weights times 2^bits, rounded, their rounding error given to its
    /// largest weight so that they sum to exactly 2^bits (an opaque picture stays exactly opaque, a constant
    /// exactly constant); `width` taps an output, padded with zeros to a multiple of `multiple`.
    struct FixedTaps {
        let start: [Int]
        let count: [Int]
        let width: Int
        let bits: Int
        let weights: [Int16]

        /// `bits`: `Self.bits(for:)` of the whole axis, so that an output's integers do not depend on the band
        /// or tile it is rendered in.
        init(_ t: Taps, multiple: Int, bits: Int) {
            start = t.start
            count = t.count
            let widest = t.count.max() ?? 1
            width = max(multiple, (widest + multiple - 1) / multiple * multiple)
            self.bits = bits
            weights = Self.quantised(t, bits: bits, width: width)
                ?? [Int16](repeating: 0, count: t.start.count * width)
        }

        /// The most bits that keep every weight of `t` within 16 bits: 15 while they stay under 1, 14 up to 2.
        static func bits(for t: Taps) -> Int {
            var bits = 15
            while bits > 1, quantised(t, bits: bits, width: t.count.max() ?? 1) == nil { bits -= 1 }
            return bits
        }

        static func quantised(_ t: Taps, bits: Int, width: Int) -> [Int16]? {
            let unit = Double(1 << bits)
            var out = [Int16](repeating: 0, count: t.start.count * width)
            for k in 0..<t.start.count {
                var q = (0..<t.count[k]).map { Int((Double(t.weights[t.offset[k] + $0]) * unit).rounded()) }
                let largest = q.indices.max { abs(q[$0]) < abs(q[$1]) } ?? 0
                q[largest] += (1 << bits) - q.reduce(0, +)
                guard q.allSatisfy({ $0 >= Int(Int16.min) && $0 <= Int(Int16.max) }) else { return nil }
                for j in q.indices { out[k * width + j] = Int16(q[j]) }
            }
            return out
        }
    }

    /// Both passes of a weighted filter over a decoded 8-bit picture, in 16-bit fixed point (`resample8.c`): the
    /// rows decoded by a table to linear values, each filtered horizontally once into a ring of rows that the
    /// vertical pass reads while they are in cache, its sums written as working-space floats. Same taps, same
    /// order (horizontal first) and same edges as the float passes; the output stays within one level of theirs
    /// on every channel (`SpeedPathTests`). Measured on the 2-core dev VM: see docs/performance.md (Lanczos 50 %).
    static func fixedPointFromSource8(_ image: Image, _ pixels: SourcePixels, _ memory: UnsafeMutablePointer<UInt8>,
                                      sx: Double, sy: Double, filter: Filter) -> Image {
        let source = image.pixelExtent
        let across = scaledExtent(image.extent, scale: sx, vertical: false)
        let extent = scaledExtent(across, scale: sy, vertical: true)
        let columns = PixelRect(covering: across)
        let cache = TapsCache()
        let rows = PixelRect(covering: extent)
        let hBits = FixedTaps.bits(for: taps(first: columns.x, count: columns.width, scale: sx, filter: filter,
                                             sourceLow: source.x, sourceHigh: source.maxX - 1))
        let vBits = FixedTaps.bits(for: taps(first: rows.y, count: rows.height, scale: sy, filter: filter,
                                             sourceLow: source.y, sourceHigh: source.maxY - 1))
        let width = pixels.width
        nonisolated(unsafe) let memory = memory
        /// Both passes over output rows `r`. Columns outside the horizontal pass's extent are left to `clear(y, x,
        /// count)` (transparent, as the float passes leave them); for each row k of `r`, `column(k, x0, n, rows,
        /// weights, taps, bits)` makes columns `x0..<x0 + n` from the filtered source rows.
        @Sendable func bothPasses(_ r: PixelRect, clear: (_ y: Int, _ x: Int, _ count: Int) -> Void,
                                  column: (Int, Int, Int, UnsafePointer<UnsafePointer<Int16>?>, UnsafePointer<Int16>,
                                           Int32, Int32) -> Void) {
            let x0 = max(r.x, columns.x), x1 = min(r.maxX, columns.maxX), n = x1 - x0
            for y in r.y..<r.maxY {
                if n > 0 {
                    clear(y, r.x, x0 - r.x)
                    clear(y, x1, r.maxX - x1)
                } else {
                    clear(y, r.x, r.width)
                }
            }
            guard n > 0 else { return }
            let h = FixedTaps(cache.taps(first: x0, count: n, scale: sx, filter: filter, sourceLow: source.x,
                                         sourceHigh: source.maxX - 1), multiple: 4, bits: hBits)
            let v = FixedTaps(taps(first: r.y, count: r.height, scale: sy, filter: filter, sourceLow: source.y,
                                   sourceHigh: source.maxY - 1), multiple: 2, bits: vBits)
            // The source columns read, and each output column's first tap relative to them.
            let lo = h.start.min() ?? source.x
            let hi = zip(h.start, h.count).map { $0 + $1 }.max() ?? lo + 1
            let starts = h.start.map { Int32($0 - lo) }
            // The decoded row has zeros past its last column for the padded taps (zero weights) to read.
            let decodedLength = 4 * (hi - lo + h.width)
            let decoded = UnsafeMutablePointer<Int16>.allocate(capacity: decodedLength)
            decoded.initialize(repeating: 0, count: decodedLength)
            // The ring keeps the horizontally filtered rows the vertical taps of the next outputs still need.
            let ringRows = (v.count.max() ?? 1) + Int((1 / sy).rounded(.up)) + 2
            let ring = UnsafeMutablePointer<Int16>.allocate(capacity: ringRows * 4 * n)
            defer { decoded.deallocate(); ring.deallocate() }
            func slot(_ y: Int) -> Int { ((y % ringRows) + ringRows) % ringRows }
            var next = v.start.min() ?? source.y
            fixedDecodeWords.withUnsafeBufferPointer { words in
                h.weights.withUnsafeBufferPointer { hw in
                    starts.withUnsafeBufferPointer { starts in
                        v.weights.withUnsafeBufferPointer { vw in
                            withUnsafeTemporaryAllocation(of: UnsafePointer<Int16>?.self, capacity: v.width) { rows in
                                for k in 0..<r.height {
                                    let first = v.start[k], taps = v.count[k]
                                    while next < first + taps {
                                        let src = memory + ((next - source.y) * width + (lo - source.x)) * 4
                                        pixelloops_fixed_decode_opaque_rgba(src, Int32(hi - lo), words.baseAddress!, decoded)
                                        let row = ring + slot(next) * 4 * n
                                        pixelloops_fixed_resample_row(decoded, starts.baseAddress!, hw.baseAddress!,
                                                                    Int32(h.width), Int32(h.bits), Int32(n), row)
                                        next += 1
                                    }
                                    // Padded taps (zero weights) read the last real row again.
                                    for j in 0..<v.width {
                                        let y = first + min(j, taps - 1)
                                        rows[j] = UnsafePointer(ring + slot(y) * 4 * n)
                                    }
                                    column(k, x0, n, UnsafePointer(rows.baseAddress!), vw.baseAddress! + k * v.width,
                                           Int32(v.width), Int32(v.bits))
                                }
                            }
                        }
                    }
                }
            }
        }
        let writer: GeneralKernel.RGBA8Writer = { r, line in
            fixedEncodeTable.withUnsafeBufferPointer { encode in
                bothPasses(r) { y, x, count in
                    PixelEncoding.fillTransparent(line(y) + (x - r.x) * 4, count: count)
                } column: { k, x0, n, rows, weights, taps, bits in
                    pixelloops_fixed_resample_column_rgba8(rows, weights, taps, bits, Int32(4 * n), encode.baseAddress!,
                                                          Int32(fixedOne), line(r.y + k) + (x0 - r.x) * 4)
                }
            }
        }
        let kernel = GeneralKernel(name: "resample8", roi: { _, r in r }, rgba8: writer) { context in
            let r = context.rect, outBase = context.output, unit = 1 / Float(fixedOne)
            bothPasses(r) { y, x, count in
                (outBase.row(y) + (x - outBase.rect.x)).update(repeating: Pixel(0, 0, 0, 0), count: count)
            } column: { k, x0, n, rows, weights, taps, bits in
                let out = UnsafeMutableRawPointer(outBase.row(r.y + k) + (x0 - outBase.rect.x)).assumingMemoryBound(to: Float.self)
                pixelloops_fixed_resample_column(rows, weights, taps, bits, Int32(4 * n), unit, out)
            }
        }
        return kernel.apply(extent: extent, inputs: [])
    }
}
