import CPixelLoops
import Foundation

/// CIZoomBlur in constant time per pixel, whatever the streak's length: the mean of the image along the segment
/// from p to p + (c − p)·k is a one-dimensional box along the ray through c and p, so it is computed on rays.
///
/// The plane is cut into four half-sectors about the centre: right and left (|dx| ≥ |dy|), above and below.
/// In the right one, say, ray j is the line y = cy + m_j·(x − cx) with slopes m_j = j·Δm, |m| ≤ 1; it crosses
/// each pixel column x at one height, where the column is sampled by one linear step in y (the column's two
/// nearest pixels; transparent outside the source). Along the ray the samples are a piecewise-linear function
/// of x whose running integral (a Float sum per ray) gives each segment's mean in O(1): the segment of the pixel at
/// distance a from the centre along the axis covers a·(1 − k) … a. Each output pixel then blends the two rays
/// either side of it in its column (one more linear step). The rays are 1/ρ pixel apart at the farthest column
/// (ρ = `density`), closer nearer the centre.
///
/// The passes (`BlurEffectFilters.zoomPasses`: passes of 8 bilinear samples, each spanning an eighth of the one
/// before) sample the same segment; this path takes the exact mean of the bilinear image along the ray instead.
/// Against the passes (8-bit PSNR, tests in ZoomRaysTests.swift): 54.7 dB on a 1080p photo at amount 20 with the
/// centre in the middle, 51–56 dB at corners, outside, off-centre and amounts −20 to 20.
/// Measured on the 2-core dev VM (bench case i, 1080p, k = 0.2, one thread, alternated): 396–483 ms of CPU a
/// frame by the passes, 161–174 ms by the first rays, 82–98 ms with levels and Float sums.
enum ZoomRays {
    /// The largest |k| (inputAmount / 66) served by rays: the filter's own cap (streaks past it end at the
    /// centre). Apple's render at amount 30 (k 0.45, shared/conformance/CIZoomBlur) is matched at 37.1 dB by the
    /// rays and 37.0 dB by the passes, so the rays' exact segment mean is the rule there too; the passes, whose
    /// 8 runs leave gaps along long streaks, stay for what the rays cannot serve.
    static let maximumAmount = 0.99

    /// Rays per pixel of column height at the farthest column.
    static let density = 1.0

    /// Whether the ray path serves this zoom: a finite extent, |k| ≤ `maximumAmount`, and a centre within one
    /// extent's size of the extent (a far centre would need columns all the way to it).
    static func applies(extent e: Rect, centre: SIMD2<Double>, k: Double) -> Bool {
        guard !e.isInfinite, k.isFinite, abs(k) <= maximumAmount, centre.x.isFinite, centre.y.isFinite else { return false }
        let m = max(e.width, e.height)
        return m < 1e6 && centre.x >= e.minX - m && centre.x <= e.maxX + m && centre.y >= e.minY - m && centre.y <= e.maxY + m
    }

    /// The segment as scale factors σ about the centre (p ↦ c + (p − c)·σ), σ from 1 − k to 1, with a uniform
    /// density c0 + c1·σ (c1 = 0). The passes' samples are in fact denser towards the centre (8 runs of equal
    /// weight and lengths ∝ σ); a straight-line density with the passes' mean and extent was tried and measured
    /// worse against them (1080p photo, amount 20, centre in the middle: PSNR 47.2 dB against 48.8 uniform),
    /// so the uniform mean it is.
    static func density(k: Double, passes: Int) -> (s0: Double, s1: Double, c0: Double, c1: Double) {
        (min(1 - k, 1), max(1 - k, 1), 1 / abs(k), 0)
    }

    /// `passes`: as `BlurEffectFilters.zoomPassCount` chooses them for the extent (for the density model).
    static func apply(_ image: Image, centre: SIMD2<Double>, k: Double, extent: Rect, passes: Int) -> Image {
        let whole = PixelRect(covering: extent)
        let (s0, s1, _, _) = density(k: k, passes: passes)
        let kernel = GeneralKernel(name: "zoomBlur", parallel: false, roi: { _, r in
            let s = k > 0 ? min(1 - k, s0) : max(1 - k, s1)
            let ax = centre.x + (Double(r.x) - centre.x) * s, bx = centre.x + (Double(r.maxX) - centre.x) * s
            let ay = centre.y + (Double(r.y) - centre.y) * s, by = centre.y + (Double(r.maxY) - centre.y) * s
            let mapped = PixelRect(covering: Rect(x: min(ax, bx), y: min(ay, by), width: abs(bx - ax), height: abs(by - ay)))
            return r.union(mapped).insetBy(dx: -2, dy: -2)
        }) { context in
            render(source: context.inputs[0], output: context.output, rect: context.rect, extent: whole, centre: centre,
                   k: k, passes: passes, threads: context.threads)
        }
        return kernel.apply(extent: extent, inputs: [image])
    }

    /// Fills `rect` of `output`.
    /// The rays depend on `extent` (the whole output), not on `rect`, so that any tile gets the same pixels.
    static func render(source: PixelBuffer, output: PixelBuffer, rect r: PixelRect, extent: PixelRect,
                       centre: SIMD2<Double>, k: Double, passes: Int, threads: Int) {
        guard !r.isEmpty else { return }
        for half in 0..<4 {
            Half(axisX: half < 2, sign: half % 2 == 0 ? 1 : -1, source: source, output: output, rect: r,
                 extent: extent, centre: centre, k: k, passes: passes).run(threads: threads)
        }
        // A pixel whose centre is the zoom's centre keeps its value (a zero-length segment).
        let fx = centre.x - 0.5, fy = centre.y - 0.5
        if fx == fx.rounded(.down), fy == fy.rounded(.down), abs(fx) < 1e9, abs(fy) < 1e9 {
            let x = Int(fx), y = Int(fy)
            if x >= r.x, x < r.maxX, y >= r.y, y < r.maxY { output.row(y)[x - output.rect.x] = source.pixel(x: x, y: y) }
        }
    }

    /// Whether the pixel with centre offset (dx, dy) from the zoom centre belongs to the horizontal half-sectors
    /// (the vertical ones take |dy| > |dx|; the centre itself belongs to neither).
    @inline(__always) static func horizontal(_ dx: Double, _ dy: Double) -> Bool { abs(dy) <= abs(dx) && dx != 0 }

    /// One half-sector: `axisX` right (sign 1) or left (−1) of the centre, else above (1) or below (−1).
    /// "Along" is the axis away from the centre, "across" the other one.
    struct Half: Sendable {
        let axisX: Bool, sign: Int
        let source: PixelBuffer, output: PixelBuffer, r: PixelRect, extent: PixelRect
        let k: Double
        let cAlong: Double, cAcross: Double
        /// The segment as scale factors about the centre, s0 < s1 (one of them 1), and the density of the
        /// samples over it (see `density(k:passes:)`).
        let s0: Double, s1: Double, c0: Double, c1: Double

        init(axisX: Bool, sign: Int, source: PixelBuffer, output: PixelBuffer, rect: PixelRect, extent: PixelRect,
             centre: SIMD2<Double>, k: Double, passes: Int) {
            self.axisX = axisX; self.sign = sign; self.source = source; self.output = output; self.r = rect; self.k = k
            self.extent = extent
            (s0, s1, c0, c1) = ZoomRays.density(k: k, passes: passes)
            cAlong = axisX ? centre.x : centre.y
            cAcross = axisX ? centre.y : centre.x
        }

        /// Whether the pixel at along index `p`, across index `q` (absolute) is this half's.
        @inline(__always) func owns(_ p: Int, _ q: Int) -> Bool {
            let da = Double(p) + 0.5 - cAlong, dc = Double(q) + 0.5 - cAcross
            guard da * Double(sign) > 0 else { return false }
            return axisX ? ZoomRays.horizontal(da, dc) : !ZoomRays.horizontal(dc, da) && !(da == 0 && dc == 0)
        }

        /// Per output column: what the rays need to give its pixels.
        struct Column {
            /// The owned pixels (across indices), qLo > qHi when none.
            var qLo = 0, qHi = -1
            /// The column's rays are the multiples of 2^level (see `run`); its pixels lie between rays jLo·2^level
            /// and jHi·2^level.
            var level = 0, jLo = 0, jHi = -1
            /// The segment's near and far ends lie in sample columns qA and qB; the mean is `weights` times
            /// Q[qA − 1 … qA + 1] and Q[qB − 1 … qB + 1], Q the running sum of the samples f.
            var qA = 0, qB = 0
            var weights = SIMD8<Float>(repeating: 0)
            /// A pixel's across offset from the centre times this is its ray position in units of 2^level.
            var toRay = 0.0
        }

        func run(threads: Int) {
            // Output ranges along and across (absolute pixel indices).
            let oa0 = axisX ? r.x : r.y, oa1 = axisX ? r.maxX : r.maxY
            let oc0 = axisX ? r.y : r.x, oc1 = axisX ? r.maxY : r.maxX
            let sr = source.rect
            let sa0 = axisX ? sr.x : sr.y, sa1 = axisX ? sr.maxX : sr.maxY
            let sc0 = axisX ? sr.y : sr.x, sc1 = axisX ? sr.maxY : sr.maxX
            let strideAlong = axisX ? 1 : sr.width, strideAcross = axisX ? sr.width : 1
            // Column 0: the last one at or behind the centre (a ∈ (−1, 0]); column i at along index p0 + sign·i.
            let p0 = sign > 0 ? Int((cAlong - 0.5).rounded(.down)) : Int((cAlong - 0.5).rounded(.up))
            let a0 = Double(sign) * (Double(p0) + 0.5 - cAlong)
            // The output columns of this half: i in iOut0 ..< iOut1.
            let iOut0 = max(1, sign > 0 ? oa0 - p0 : p0 - (oa1 - 1))
            let iOut1 = sign > 0 ? oa1 - p0 : p0 - oa0 + 1
            guard iOut1 > iOut0 else { return }
            // The first source column beyond the far side (f = 0 from there on); columns 0 ..< nCols.
            let iSrcEnd = max(iOut1, sign > 0 ? sa1 - p0 : p0 - sa0 + 1)
            let nCols = iSrcEnd + 2
            // The nearest column any segment reaches.
            let aMin = a0 + Double(iOut0)
            let iStart = max(0, k > 0 ? Int((aMin * s0 - a0).rounded(.down)) - 1 : iOut0 - 1)
            // The farthest column of the whole extent (so that a tile's rays are the whole render's).
            let ea1 = axisX ? extent.maxX : extent.maxY, ea0 = axisX ? extent.x : extent.y
            let aMax = a0 + Double(max(iOut1, sign > 0 ? ea1 - p0 : p0 - ea0 + 1) - 1)
            // Where an edge of the image runs along the rays (the centre within a pixel of its line), the step it
            // makes across them is far from linear between two rays: there they are twice as close (with the
            // centre on a corner of a 451×300 photo, PSNR against the passes 44.0 dB at one ray a pixel, 48.6 so).
            let eLo = axisX ? extent.y : extent.x, eHi = axisX ? extent.maxY : extent.maxX
            let alongEdge = min(abs(cAcross - Double(eLo)), abs(cAcross - Double(eHi))) < 1
            let dm = 1 / (aMax * ZoomRays.density * (alongEdge ? 2 : 1))
            // Rays −rayCount … rayCount; a power of two, so that every level's rays end on it.
            var rayCount = 1
            while Double(rayCount) < (1 / dm).rounded(.up) + 1 { rayCount *= 2 }
            let maxLevel = rayCount.trailingZeroBitCount

            // Levels: the rays are dm·a pixels apart at column a, so where a ≤ aMax/2^L every 2^L-th ray is still
            // as close as at the farthest column, and only the multiples of 2^L are used there (without levels
            // the 1080p frame took 4.4 M ray samples for 2 M pixels).
            let n = iOut1 - iOut0
            nonisolated(unsafe) let columns = UnsafeMutablePointer<Column>.allocate(capacity: n)
            // The first column at level ≤ v, for v in 0 … maxLevel (levels fall with the distance).
            nonisolated(unsafe) let levelStart = UnsafeMutablePointer<Int>.allocate(capacity: maxLevel + 1)
            defer { columns.deallocate(); levelStart.deallocate() }
            levelStart.initialize(repeating: n, count: maxLevel + 1)
            for c in 0..<n {
                let i = iOut0 + c
                let a = a0 + Double(i), p = p0 + sign * i
                var column = Column()
                while column.level < maxLevel, Double(2 << column.level) * a <= aMax { column.level += 1 }
                for v in column.level...maxLevel where levelStart[v] == n { levelStart[v] = c }
                column.toRay = 1 / (a * dm * Double(1 << column.level))
                var ends = (0, 0.0, 0, 0.0)
                for (e, sigma) in [(0, s0), (1, s1)] {
                    let u = min(max(a * sigma - a0, 0), Double(iSrcEnd))
                    let q = min(Int(u.rounded(.down)), nCols - 2)
                    if e == 0 { ends.0 = q; ends.1 = u - Double(q) } else { ends.2 = q; ends.3 = u - Double(q) }
                }
                // The exact integral of the piecewise-linear f up to q + φ is Q[q] − f[q]/2 + f[q]·φ + (f[q + 1] −
                // f[q])·φ²/2 (less half the first sample, which cancels), with f[q] = Q[q] − Q[q − 1]; the mean
                // is c0/a times its difference between the ends.
                let scale = c0 / a
                column.qA = ends.0; column.qB = ends.2
                func terms(_ phi: Double) -> (Double, Double, Double) {
                    let w0 = (phi - phi * phi / 2 - 0.5) * scale, w1 = phi * phi / 2 * scale
                    return (-w0, scale + w0 - w1, w1)
                }
                let (a0w, a1w, a2w) = terms(ends.1), (b0w, b1w, b2w) = terms(ends.3)
                column.weights = SIMD8(Float(-a0w), Float(-a1w), Float(-a2w), Float(b0w), Float(b1w), Float(b2w), 0, 0)
                // Owned pixels: |dc| ≤ a, found from a conservative range by the exact test.
                var lo = max(oc0, Int((cAcross - a - 0.5).rounded(.up)) - 1)
                var hi = min(oc1 - 1, Int((cAcross + a - 0.5).rounded(.down)) + 1)
                while lo <= hi, !owns(p, lo) { lo += 1 }
                while hi >= lo, !owns(p, hi) { hi -= 1 }
                column.qLo = lo; column.qHi = hi
                if lo <= hi {
                    column.jLo = Int(((Double(lo) + 0.5 - cAcross) * column.toRay).rounded(.down))
                    column.jHi = Int(((Double(hi) + 0.5 - cAcross) * column.toRay).rounded(.down)) + 1
                }
                columns[c] = column
            }
            // Ray j's samples start at the segment's near end in the first column of its level, whatever the
            // run, so that its running sum, and the pixels, do not depend on the number of threads.
            @Sendable func sampleStart(_ j: Int) -> Int {
                let v = j == 0 ? maxLevel : min(j.trailingZeroBitCount, maxLevel)
                return levelStart[v] < n ? max(iStart, columns[levelStart[v]].qA) : nCols
            }

            // The rays in order, each thread a run of them: samples f and their running sum Q in one sweep, then
            // each column's segment mean on this ray, and the pixels lying between this ray and the column's ray
            // before are written at once (no store of every ray's means: 26 MB at 1080p, measured slower by its
            // page faults and scattered reads).
            nonisolated(unsafe) let base = source.pixels
            let nAcross = sc1 - sc0
            let crossOrigin = Float(Double(sc0) + 0.5 - cAcross)  // f's across position relative to row sc0
            let or = output.rect
            let outAlong = axisX ? 1 : or.width, outAcross = axisX ? or.width : 1
            let outA0 = axisX ? or.x : or.y, outC0 = axisX ? or.y : or.x
            nonisolated(unsafe) let out = output.pixels
            let jMin = -rayCount, jMax = rayCount
            let ahead = 8
            let runs = max(1, min(threads * 8, (jMax - jMin) / 64))
            let work = { @Sendable (run: Int) in
                // This run writes the pixels whose lower ray is in pairLo ..< pairHi; in a column of level L those
                // lie between rays ⌈pairLo/2^L⌉·2^L and ⌈pairHi/2^L⌉·2^L (up to ray rayHi).
                let pairLo = jMin + (jMax - jMin) * run / runs, pairHi = jMin + (jMax - jMin) * (run + 1) / runs
                guard pairHi > pairLo else { return }
                @inline(__always) func ceilShift(_ x: Int, _ level: Int) -> Int { -((-x) >> level) }
                let rayHi = min(jMax, ceilShift(pairHi, maxLevel) << maxLevel)
                let span = rayHi - pairLo + 1
                let first = UnsafeMutablePointer<Int>.allocate(capacity: span)
                let last = UnsafeMutablePointer<Int>.allocate(capacity: span)
                let runLo = UnsafeMutablePointer<Int>.allocate(capacity: n)
                let runHi = UnsafeMutablePointer<Int>.allocate(capacity: n)
                let next = UnsafeMutablePointer<Int>.allocate(capacity: n)
                let below = UnsafeMutablePointer<Pixel>.allocate(capacity: n)
                // Q[i] of the block's ray b at data[b·(nCols + 1) + i + 1] (Q[start − 1] = 0).
                let block = 32, rowLength = nCols + 1
                let data = UnsafeMutablePointer<Pixel>.allocate(capacity: rowLength * block)
                let starts = UnsafeMutablePointer<Int>.allocate(capacity: block)
                let ends = UnsafeMutablePointer<Int>.allocate(capacity: block)
                let slopes = UnsafeMutablePointer<Float>.allocate(capacity: block)
                let sums = UnsafeMutablePointer<Pixel>.allocate(capacity: block)
                defer {
                    first.deallocate(); last.deallocate(); runLo.deallocate(); runHi.deallocate(); next.deallocate()
                    below.deallocate(); data.deallocate(); starts.deallocate(); ends.deallocate(); slopes.deallocate()
                    sums.deallocate()
                }
                first.initialize(repeating: Int.max, count: span)
                last.initialize(repeating: Int.min, count: span)
                // Each column's rays in this run, and its first pixel here.
                for c in 0..<n {
                    let column = columns[c], level = column.level, i = iOut0 + c
                    let lo = max(column.jLo, ceilShift(pairLo, level)), hi = min(column.jHi, ceilShift(pairHi, level))
                    runLo[c] = lo; runHi[c] = hi
                    guard column.qLo <= column.qHi, lo <= hi else { next[c] = column.qHi + 1; continue }
                    for jj in lo...hi {
                        let ray = (jj << level) - pairLo
                        if first[ray] == Int.max { first[ray] = i }
                        last[ray] = i
                    }
                    @inline(__always) func position(_ q: Int) -> Double { ((Double(q) + 0.5 - cAcross) * column.toRay).rounded(.down) }
                    let guess = Int((Double(lo) / column.toRay + cAcross - 0.5).rounded(.up))
                    var q = min(max(guess, column.qLo), column.qHi + 1)
                    while q > column.qLo, position(q - 1) >= Double(lo) { q -= 1 }
                    while q <= column.qHi, position(q) < Double(lo) { q += 1 }
                    next[c] = q
                }
                for blockStart in stride(from: pairLo, through: rayHi, by: block) {
                    let blockEnd = min(blockStart + block - 1, rayHi), width = blockEnd - blockStart + 1
                    // The block's samples in one sweep over the columns, so that its rays, which cross the same
                    // source rows, read them together (one ray at a time, a vertical ray touched a new page at
                    // every step: 23% of the render stalled on that load). Sample columns start … end a ray.
                    var sweepLo = Int.max, sweepHi = Int.min
                    for b in 0..<width {
                        let ray = blockStart + b - pairLo
                        starts[b] = nCols; ends[b] = -1
                        slopes[b] = Float(Double(blockStart + b) * dm)
                        guard first[ray] <= last[ray] else { continue }
                        starts[b] = sampleStart(blockStart + b)
                        ends[b] = min(columns[last[ray] - iOut0].qB + 1, nCols - 1)
                        sweepLo = min(sweepLo, starts[b]); sweepHi = max(sweepHi, ends[b])
                    }
                    if sweepLo <= sweepHi {
                        for i in sweepLo...sweepHi {
                            let p = p0 &+ sign &* i
                            let inside = p >= sa0 && p < sa1
                            let a = Float(a0) + Float(i)
                            let column = base + (p &- sa0) &* strideAlong
                            // The samples `ahead` columns on, asked for now: each column step reads a new source
                            // row or column, which the hardware prefetch does not foresee (measured, bench i, 2
                            // threads: 21.6 → 19.9–20.1 ms; 4, 8 or 16 columns ahead alike).
                            let pAhead = p &+ sign &* ahead
                            if pAhead >= sa0 && pAhead < sa1 {
                                let aheadColumn = base + (pAhead &- sa0) &* strideAlong, aAhead = a + Float(ahead)
                                for b in 0..<width where i >= starts[b] && i <= ends[b] {
                                    let q = Int(max(min((slopes[b] * aAhead - crossOrigin).rounded(.down), Float(nAcross - 1)), 0))
                                    pixelloops_prefetch(aheadColumn + q &* strideAcross)
                                }
                            }
                            for b in 0..<width where i >= starts[b] && i <= ends[b] {
                                var v = Pixel(0, 0, 0, 0)
                                let y = slopes[b] * a - crossOrigin  // across position in rows from sc0
                                let fl = y.rounded(.down)
                                if inside, fl >= -1, fl < Float(nAcross) {
                                    let q = Int(fl), t = y - fl
                                    let lower = q >= 0 ? column[q &* strideAcross] : Pixel(0, 0, 0, 0)
                                    let upper = q &+ 1 < nAcross ? column[(q &+ 1) &* strideAcross] : Pixel(0, 0, 0, 0)
                                    v = lower + (upper - lower) * t
                                }
                                let d = data + (b &* rowLength &+ i)
                                if i == starts[b] { d[0] = Pixel(0, 0, 0, 0); sums[b] = v } else { sums[b] += v }
                                d[1] = sums[b]
                            }
                        }
                    }
                    for b in 0..<width {
                        let j = blockStart + b, ray = j - pairLo
                        guard first[ray] <= last[ray] else { continue }
                        let d = data + b * rowLength
                        for i in first[ray]...last[ray] {
                            let c = i &- iOut0
                            let column = columns[c], level = column.level
                            guard j & ((1 << level) &- 1) == 0 else { continue }
                            let jj = j >> level
                            guard jj >= runLo[c], jj <= runHi[c] else { continue }
                            let qa = column.qA, qb = column.qB, w = column.weights
                            let near: Pixel = d[qa] * w[0] + d[qa &+ 1] * w[1] + d[qa &+ 2] * w[2]
                            let far: Pixel = d[qb] * w[3] + d[qb &+ 1] * w[4] + d[qb &+ 2] * w[5]
                            let g = near + far
                            if jj > runLo[c] {
                                // The pixels between the column's ray before and this one.
                                let lower = below[c]
                                let line = out + (p0 &+ sign &* i &- outA0) &* outAlong
                                var q = next[c]
                                while q <= column.qHi {
                                    let position = (Double(q) + 0.5 - cAcross) * column.toRay
                                    let whole = position.rounded(.down)
                                    if whole >= Double(jj) { break }
                                    line[(q &- outC0) &* outAcross] = lower + (g - lower) * Float(position - whole)
                                    q &+= 1
                                }
                                next[c] = q
                            }
                            below[c] = g
                        }
                    }
                }
            }
            if threads > 1 { DispatchQueue.concurrentPerform(iterations: runs, execute: work) } else { for c in 0..<runs { work(c) } }
        }
    }
}
