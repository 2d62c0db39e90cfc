import Foundation

/// CIZoomBlur in constant time per pixel, whatever the streak's length: the mean of the image along the segment
/// from p to p + (c − p)·k is a one-dimensional box along the ray through c and p, so it is computed on rays.
///
/// The plane is cut into four half-sectors about the centre: right and left (|dx| ≥ |dy|), above and below.
/// In the right one, say, ray j is the line y = cy + m_j·(x − cx) with slopes m_j = j·Δm, |m| ≤ 1; it crosses
/// each pixel column x at one height, where the column is sampled by one linear step in y (the column's two
/// nearest pixels; transparent outside the source). Along the ray the samples are a piecewise-linear function
/// of x whose running integral (in Double) gives each segment's mean in O(1): the segment of the pixel at
/// distance a from the centre along the axis covers a·(1 − k) … a. Each output pixel then blends the two rays
/// either side of it in its column (one more linear step). The rays are 1/ρ pixel apart at the farthest column
/// (ρ = `density`), closer nearer the centre.
///
/// The passes (`BlurEffectFilters.zoomPasses`: passes of 8 bilinear samples, each spanning an eighth of the one
/// before) sample the same segment; this path takes the exact mean of the bilinear image along the ray instead.
/// Against the passes on a 1080p photo (8-bit): PSNR 48.8 dB at amount 20 with the centre in the middle,
/// 45.7–47.4 dB with it at a corner or outside (tests: `SpeedPathTests`, ZoomRaysTests.swift).
/// Measured on the 2-core dev VM (bench case i, 1080p, amount 20, one thread, alternated): 396–483 ms of CPU a
/// frame by the passes, 161–174 ms by the rays.
enum ZoomRays {
    /// The largest |k| (inputAmount / 100) served by rays. Beyond it the passes' samples leave gaps along the
    /// streak (8 runs that no longer touch: at k = 1 the last covers σ 0.11…0.125, the one before 0.22…0.25)
    /// which no smooth density follows, and the passes are used (their look is the reference).
    static let maximumAmount = 0.2

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
            let dm = 1 / (aMax * ZoomRays.density)
            let rayCount = Int((1 / dm).rounded(.up)) + 1  // rays −rayCount … rayCount

            // Per column: the owned pixels' across range, the rays jLo … jHi either side of them, and the
            // segment's start as a column position q + φ with 1 / (k·a).
            let n = iOut1 - iOut0
            nonisolated(unsafe) let qLo = UnsafeMutablePointer<Int>.allocate(capacity: n)
            nonisolated(unsafe) let qHi = UnsafeMutablePointer<Int>.allocate(capacity: n)
            nonisolated(unsafe) let jLo = UnsafeMutablePointer<Int>.allocate(capacity: n)
            nonisolated(unsafe) let jHi = UnsafeMutablePointer<Int>.allocate(capacity: n)
            nonisolated(unsafe) let offset = UnsafeMutablePointer<Int>.allocate(capacity: n + 1)
            // The segment's ends as column positions q + φ (near end A, far end B), and the density's
            // coefficients for the running integrals of f and of f·u.
            nonisolated(unsafe) let segQ = UnsafeMutablePointer<Int>.allocate(capacity: 2 * n)
            nonisolated(unsafe) let segPhi = UnsafeMutablePointer<Double>.allocate(capacity: 2 * n)
            nonisolated(unsafe) let coefficients = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: n)
            let rays = 2 * rayCount + 1
            nonisolated(unsafe) let first = UnsafeMutablePointer<Int>.allocate(capacity: rays)
            nonisolated(unsafe) let last = UnsafeMutablePointer<Int>.allocate(capacity: rays)
            defer {
                qLo.deallocate(); qHi.deallocate(); jLo.deallocate(); jHi.deallocate(); offset.deallocate()
                segQ.deallocate(); segPhi.deallocate(); coefficients.deallocate(); first.deallocate(); last.deallocate()
            }
            first.initialize(repeating: Int.max, count: rays)
            last.initialize(repeating: Int.min, count: rays)
            var total = 0
            for c in 0..<n {
                let i = iOut0 + c
                let a = a0 + Double(i), p = p0 + sign * i
                offset[c] = total
                // Owned pixels: |dc| ≤ a, found from a conservative range by the exact test.
                var lo = max(oc0, Int((cAcross - a - 0.5).rounded(.up)) - 1)
                var hi = min(oc1 - 1, Int((cAcross + a - 0.5).rounded(.down)) + 1)
                while lo <= hi, !owns(p, lo) { lo += 1 }
                while hi >= lo, !owns(p, hi) { hi -= 1 }
                qLo[c] = lo; qHi[c] = hi
                if lo > hi {
                    jLo[c] = 0; jHi[c] = -1; segQ[2 * c] = 0; segPhi[2 * c] = 0; segQ[2 * c + 1] = 0; segPhi[2 * c + 1] = 0
                    coefficients[c] = SIMD2(0, 0)
                    continue
                }
                let scale = 1 / (a * dm)
                let jl = Int(((Double(lo) + 0.5 - cAcross) * scale).rounded(.down))
                let jh = Int(((Double(hi) + 0.5 - cAcross) * scale).rounded(.down)) + 1
                jLo[c] = jl; jHi[c] = jh
                total += jh - jl + 1
                for j in jl...jh {
                    first[j + rayCount] = min(first[j + rayCount], i)
                    last[j + rayCount] = max(last[j + rayCount], i)
                }
                for (e, sigma) in [(0, s0), (1, s1)] {
                    let u = min(max(a * sigma - a0, 0), Double(iSrcEnd))
                    let q = min(Int(u.rounded(.down)), nCols - 2)
                    segQ[2 * c + e] = q; segPhi[2 * c + e] = u - Double(q)
                }
                // ∫ f(u)·c0 du/a over the segment, u = a·σ.
                coefficients[c] = SIMD2(c0 / a, 0)
            }
            offset[n] = total
            guard total > 0 else { return }

            // The rays in order, each thread a run of them: samples f and their running integral P (trapezoids) in
            // one loop, then each owned column's segment mean on this ray, and the pixels lying between this ray
            // and the one before are written at once (no store of every ray's means: 26 MB at 1080p, measured
            // slower by its page faults and scattered reads).
            nonisolated(unsafe) let base = source.pixels
            let nAcross = sc1 - sc0
            let crossOrigin = Float(Double(sc0) + 0.5 - cAcross)  // f's across position relative to row sc0
            let out = output.pixels, or = output.rect
            let outAlong = axisX ? 1 : or.width, outAcross = axisX ? or.width : 1
            let outA0 = axisX ? or.x : or.y, outC0 = axisX ? or.y : or.x
            nonisolated(unsafe) let out1 = out
            // Pixel q of column i lies between rays ⌊jf⌋ and ⌊jf⌋ + 1 (the same expression everywhere).
            @Sendable @inline(__always) func rayPosition(_ i: Int, _ q: Int) -> Double {
                (Double(q) + 0.5 - cAcross) * (1 / ((a0 + Double(i)) * dm))
            }
            let jMin = -rayCount, jMax = rayCount
            let runs = max(1, min(threads * 8, rays / 64))
            let work = { @Sendable (run: Int) in
                // Pixels between rays j and j + 1 for j in pairLo ..< pairHi; rays pairLo … pairHi computed.
                let pairLo = jMin + (jMax - jMin) * run / runs, pairHi = jMin + (jMax - jMin) * (run + 1) / runs
                guard pairHi > pairLo else { return }
                let block = 16
                let f = UnsafeMutablePointer<Pixel>.allocate(capacity: nCols * block)
                let ends = UnsafeMutablePointer<Int>.allocate(capacity: block)
                let slopes = UnsafeMutablePointer<Float>.allocate(capacity: block)
                let prefix = UnsafeMutablePointer<SIMD4<Double>>.allocate(capacity: nCols)
                var previous = UnsafeMutablePointer<Pixel>.allocate(capacity: n)
                var current = UnsafeMutablePointer<Pixel>.allocate(capacity: n)
                let next = UnsafeMutablePointer<Int>.allocate(capacity: n)
                defer { f.deallocate(); ends.deallocate(); slopes.deallocate(); prefix.deallocate(); previous.deallocate(); current.deallocate(); next.deallocate() }
                // Each column's first pixel at or past ray pairLo.
                for col in 0..<n {
                    var q = qLo[col]
                    if q <= qHi[col] {
                        let i = iOut0 + col
                        let guess = Int((Double(pairLo) * (a0 + Double(i)) * dm + cAcross - 0.5).rounded(.up))
                        q = min(max(guess, qLo[col]), qHi[col] + 1)
                        while q > qLo[col], rayPosition(i, q - 1).rounded(.down) >= Double(pairLo) { q -= 1 }
                        while q <= qHi[col], rayPosition(i, q).rounded(.down) < Double(pairLo) { q += 1 }
                    }
                    next[col] = q
                }
                for blockStart in stride(from: pairLo, through: pairHi, by: block) {
                    let blockEnd = min(blockStart + block - 1, pairHi)
                    // Each ray's last column; the block's samples in one sweep over the columns, so that the rays
                    // of a block, which cross the same source rows, read them together (one ray at a time, a
                    // vertical ray touched a new page at every step: 23% of the render stalled on that load).
                    var endMax = iStart
                    for j in blockStart...blockEnd {
                        let ray = j + rayCount
                        var end = iStart
                        if first[ray] <= last[ray] {
                            end = last[ray]
                            end = max(end, segQ[2 * (last[ray] - iOut0) + 1] + 1)
                            end = min(end + 1, nCols - 1)
                        }
                        ends[j - blockStart] = end
                        endMax = max(endMax, end)
                    }
                    let width = blockEnd - blockStart + 1
                    for b in 0..<width { slopes[b] = Float(Double(blockStart + b) * dm) }
                    for i in iStart...endMax {
                        let p = p0 + sign * i
                        guard p >= sa0, p < sa1 else {
                            for b in 0..<width { f[b * nCols + i] = Pixel(0, 0, 0, 0) }
                            continue
                        }
                        let a = Float(a0) + Float(i)
                        let column = base + (p - sa0) * strideAlong
                        for b in 0..<width {
                            var v = Pixel(0, 0, 0, 0)
                            let y = slopes[b] * a - crossOrigin  // across position in rows from sc0
                            let fl = y.rounded(.down)
                            if fl >= -1, fl < Float(nAcross) {
                                let q = Int(fl), t = y - fl
                                let below = q >= 0 ? column[q * strideAcross] : Pixel(0, 0, 0, 0)
                                let above = q + 1 < nAcross ? column[(q + 1) * strideAcross] : Pixel(0, 0, 0, 0)
                                v = below + (above - below) * t
                            }
                            f[b * nCols + i] = v
                        }
                    }
                for j in blockStart...blockEnd {
                    let ray = j + rayCount
                    guard first[ray] <= last[ray] else { swap(&previous, &current); continue }
                    let end = ends[j - blockStart]
                    let f = f + (j - blockStart) * nCols
                    // The exact running integral of the piecewise-linear f (trapezoids).
                    var sum = SIMD4<Double>(0, 0, 0, 0)
                    prefix[iStart] = sum
                    if end > iStart {
                        for i in (iStart + 1)...end {
                            let s = (f[i - 1] + f[i]) * 0.5
                            sum += SIMD4<Double>(Double(s.x), Double(s.y), Double(s.z), Double(s.w))
                            prefix[i] = sum
                        }
                    }
                    for i in first[ray]...last[ray] {
                        let col = i - iOut0
                        guard j >= jLo[col], j <= jHi[col] else { continue }
                        // The running integral at the segment's two ends.
                        @inline(__always) func at(_ e: Int) -> SIMD4<Double> {
                            let q = max(segQ[2 * col + e], iStart), phi = segQ[2 * col + e] >= iStart ? segPhi[2 * col + e] : 0
                            let f0 = f[q], df = f[q + 1] - f0
                            let d0 = SIMD4<Double>(Double(f0.x), Double(f0.y), Double(f0.z), Double(f0.w))
                            let dd = SIMD4<Double>(Double(df.x), Double(df.y), Double(df.z), Double(df.w))
                            return prefix[q] + d0 * phi + dd * (phi * phi * 0.5)
                        }
                        let mean = (at(1) - at(0)) * coefficients[col].x
                        let g = Pixel(Float(mean.x), Float(mean.y), Float(mean.z), Float(mean.w))
                        current[col] = g
                        guard j > pairLo else { continue }
                        // The pixels between the previous ray and this one.
                        var pq = next[col]
                        if pq <= qHi[col] {
                            let lower = previous[col]
                            let p = p0 + sign * i
                            let column = out1 + (p - outA0) * outAlong
                            let scale = 1 / ((a0 + Double(i)) * dm)
                            while pq <= qHi[col] {
                                let jf = (Double(pq) + 0.5 - cAcross) * scale
                                let jd = jf.rounded(.down)
                                if jd >= Double(j) { break }
                                column[(pq - outC0) * outAcross] = lower + (g - lower) * Float(jf - jd)
                                pq += 1
                            }
                            next[col] = pq
                        }
                    }
                    swap(&previous, &current)
                }
                }
            }
            if threads > 1 { DispatchQueue.concurrentPerform(iterations: runs, execute: work) } else { for c in 0..<runs { work(c) } }
        }
    }
}
