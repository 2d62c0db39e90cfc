import Foundation
import CPixelLoops

/// Evaluates spans of fused nodes for one thread, in planar rows reused from span to span.
package struct RowEvaluator {
    let plan: RenderPlan
    private let buffers: [PixelBuffer?]
    /// Per node, what the per-span path needs, taken out of `Image.Kind` once per plan (`Tables`) into plain memory:
    /// matching the enum, or reading Swift arrays of a `mutating` evaluator, on every span cost several
    /// reference-count operations a node and span, on objects shared by the threads (perf: 5% of the vintage
    /// chain on one thread). Node i's inputs are `inputs[inputStart[i]..<inputStart[i + 1]]`.
    private let steps: UnsafeMutablePointer<Step>
    private let extents: UnsafeMutablePointer<PixelRect>
    private let buffered: UnsafeMutablePointer<Bool>
    private let inputs: UnsafeMutablePointer<Int>
    private let inputStart: UnsafeMutablePointer<Int>
    /// Keeps the tables `steps` … `inputStart` point into alive.
    private let owners: [AnyObject]

    /// Trivial (unmanaged references): copying one costs nothing.
    enum Step {
        case source(Unmanaged<SourcePixels>)
        case constant(Pixel)
        case color(Unmanaged<ColorBody>)
        case warp(Unmanaged<WarpMap>)
        case clamp(PixelRect)
        case crop
        case translate(dx: Int, dy: Int)
        case downsample(Int)
        case upsample(Int)
        case general
    }

    final class ColorBody {
        let run: @Sendable (ColorSpan) -> Void
        init(_ run: @escaping @Sendable (ColorSpan) -> Void) { self.run = run }
    }

    final class WarpMap {
        let map: @Sendable (UnsafeMutablePointer<SIMD2<Float>>, Int, Int, Int) -> Void
        let sampling: WarpKernel.Sampling
        init(_ kernel: WarpKernel) { map = kernel.map; sampling = kernel.sampling }
    }

    /// Rows are evaluated in spans of this many pixels (16 KiB per planar row): short enough to stay in cache
    /// through a fused chain, long enough that the per-span bookkeeping is small. Measured on the dev machine
    /// (2 threads, 1080p): 1024 beat 256 by 10–20% on the five-filter chains; whole rows were slower.
    package static let spanWidth = 1024
    /// Floats from one plane of a planar row to the next: a span and one cache line, so that the same pixel's
    /// planes (and the rows of the scratch) never lie a multiple of 4 KiB apart, where a load waits on an earlier
    /// store to another plane whose address ends alike.
    static let planeStride = spanWidth + 16
    static let rowFloats = 4 * planeStride

    private let scratch: UnsafeMutablePointer<Float>
    private let scratchRows: Int
    private var scratchTop = 0
    private let others: UnsafeMutablePointer<PlanarRow>
    private var othersTop = 0
    private let coordinates: UnsafeMutablePointer<SIMD2<Float>>
    private let pixels: UnsafeMutablePointer<Pixel>

    init(plan: RenderPlan) {
        self.plan = plan
        buffers = plan.buffers
        let n = plan.nodes.count
        let tables = plan.evaluatorTables
        steps = tables.steps
        extents = tables.extents
        inputs = tables.inputs
        inputStart = tables.inputStart
        owners = [tables]
        buffered = .allocate(capacity: n)
        buffered.initialize(from: plan.buffers.map { $0 != nil }, count: n)
        scratchRows = tables.scratchRows
        scratch = .allocate(capacity: Self.rowFloats * scratchRows)
        others = .allocate(capacity: scratchRows)
        coordinates = .allocate(capacity: Self.spanWidth)
        // Two rows of an upsample's small image (up to spanWidth / 2 + 3 pixels each) fit too.
        pixels = .allocate(capacity: Self.spanWidth + 16)
    }

    /// What every evaluator of a plan reads the same way, made once per plan rather than once per evaluator (a
    /// plan of 100,000 nodes has hundreds of stages, each with an evaluator a thread).
    final class Tables: @unchecked Sendable {
        let steps: UnsafeMutablePointer<Step>
        let extents: UnsafeMutablePointer<PixelRect>
        let inputs: UnsafeMutablePointer<Int>
        let inputStart: UnsafeMutablePointer<Int>
        let scratchRows: Int
        /// Keeps the objects `steps` points to alive.
        private let owners: [AnyObject]

        init(plan: RenderPlan) {
            let n = plan.nodes.count
            var owners: [AnyObject] = []
            func own<T: AnyObject>(_ object: T) -> Unmanaged<T> {
                owners.append(object)
                return Unmanaged.passUnretained(object)
            }
            steps = .allocate(capacity: max(1, n))
            steps.initialize(from: plan.nodes.map { node -> Step in
                switch node.kind {
                case .source(let source): .source(own(source))
                case .constant(let pixel): .constant(pixel)
                case .color(let kernel, _): .color(own(ColorBody(kernel.body)))
                case .warp(let kernel, _, _): .warp(own(WarpMap(kernel)))
                case .general: .general
                case .crop: .crop
                case .clamp(_, let e): .clamp(e)
                case .translate(_, let dx, let dy): .translate(dx: dx, dy: dy)
                case .downsample(_, let f): .downsample(f)
                case .upsample(_, let f): .upsample(f)
                }
            }, count: n)
            self.owners = owners
            extents = .allocate(capacity: max(1, n))
            extents.initialize(from: plan.extents, count: n)
            let flat = plan.inputIndices.flatMap { $0 }
            inputs = .allocate(capacity: max(1, flat.count))
            inputs.initialize(from: flat, count: flat.count)
            inputStart = .allocate(capacity: n + 1)
            inputStart.initialize(from: plan.inputIndices.reduce(into: [0]) { $0.append($0.last! + $1.count) }, count: n + 1)
            // A node on the evaluation stack holds one scratch row per extra input (a resampling node one); each
            // node is on it at most once, so their sum bounds the rows (a long chain of one-input nodes needs none).
            scratchRows = zip(plan.nodes, plan.inputIndices).reduce(0) { total, node in
                switch node.0.kind {
                case .downsample, .upsample: total + 1
                default: total + max(0, node.1.count - 1)
                }
            } + 1
        }

        deinit {
            steps.deallocate(); extents.deallocate(); inputs.deallocate(); inputStart.deallocate()
        }
    }

    func release() {
        buffered.deallocate()
        scratch.deallocate()
        others.deallocate()
        coordinates.deallocate()
        pixels.deallocate()
    }

    /// A planar row of `spanWidth` pixels, for callers that need one of their own (output conversion).
    static func makeRow() -> (PlanarRow, UnsafeMutablePointer<Float>) {
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats)
        return (PlanarRow(base: memory, stride: planeStride), memory)
    }

    /// Row k of the scratch.
    private func scratchRow(_ k: Int) -> PlanarRow {
        PlanarRow(base: scratch + k * Self.rowFloats, stride: Self.planeStride)
    }

    /// Writes a whole row segment of any length into interleaved pixels, span by span.
    mutating func evaluateRow(_ index: Int, x0: Int, y: Int, count: Int, into out: UnsafeMutablePointer<Pixel>) {
        let row = scratchRow(scratchRows - 1)
        for x in stride(from: x0, to: x0 + count, by: Self.spanWidth) {
            let n = min(Self.spanWidth, x0 + count - x)
            evaluate(index, x0: x, y: y, count: n, into: row)
            row.store(out + (x - x0), count: n)
        }
    }

    /// Where `evaluate(index, …)` may give anything but +0 pixels: a buffered node's buffer, else its extent.
    func coverage(_ index: Int) -> PixelRect {
        if buffered[index], let buffer = buffers[index] { return buffer.rect }
        return extents[index]
    }

    /// Writes pixels `x0..<x0+count` of row `y` of node `index` into `out` (count ≤ spanWidth).
    mutating func evaluate(_ index: Int, x0: Int, y: Int, count: Int, into out: PlanarRow) {
        if buffered[index], let buffer = buffers[index] {
            read(buffer, x0: x0, y: y, count: count, into: out)
            return
        }
        // Outside its extent an image is transparent.
        let e = extents[index]
        let start = max(x0, e.x), end = min(x0 + count, e.maxX)
        guard y >= e.y, y < e.maxY, end > start else {
            out.fill(Pixel(0, 0, 0, 0), count: count)
            return
        }
        if start > x0 { out.fill(Pixel(0, 0, 0, 0), count: start - x0) }
        if end < x0 + count { out.advanced(by: end - x0).fill(Pixel(0, 0, 0, 0), count: x0 + count - end) }
        evaluateInside(index, x0: start, y: y, count: end - start, into: out.advanced(by: start - x0))
    }

    /// Block means of the input, pulling `factor` input rows per output row through the evaluator, a chunk of
    /// output pixels at a time so that each input row segment fits one span.
    private mutating func downsample(_ input: Int, factor f: Int, x0: Int, y: Int, count: Int, into out: PlanarRow) {
        precondition(scratchTop < scratchRows - 1, "scratch exhausted")
        let row = scratchRow(scratchTop)
        scratchTop += 1
        defer { scratchTop -= 1 }
        let chunk = max(1, Self.spanWidth / f)
        let scale = 1 / Float(f * f)
        out.fill(Pixel(0, 0, 0, 0), count: count)
        for start in stride(from: 0, to: count, by: chunk) {
            let n = min(chunk, count - start)
            let target = out.advanced(by: start)
            for dy in 0..<f {
                // A factor above the span width (never used: blurs stop at 64) would need wider rows.
                evaluate(input, x0: (x0 + start) * f, y: y * f + dy, count: min(n * f, Self.spanWidth), into: row)
                pixelloops_add_block_sums(row.r, Int32(f), Int32(n), target.r)
                pixelloops_add_block_sums(row.g, Int32(f), Int32(n), target.g)
                pixelloops_add_block_sums(row.b, Int32(f), Int32(n), target.b)
                pixelloops_add_block_sums(row.a, Int32(f), Int32(n), target.a)
            }
        }
        let (r, g, b, a) = (out.r, out.g, out.b, out.a)
        for i in 0..<count { r[i] *= scale; g[i] *= scale; b[i] *= scale; a[i] *= scale }
    }

    /// Bilinear enlargement: output pixel centres map to (x + 0.5) / f - 0.5 in the small image's pixel indices.
    /// The two small rows are blended once into a planar scratch row, then each output pixel blends two
    /// neighbours there (in C: eight outputs a permutation of one load, where Swift took a pixel at a time).
    /// Measured on the 2-core dev VM (bench case c, Gaussian σ 10, perf): the upsample was 44% of the frame.
    private mutating func upsample(_ source: PixelBuffer, factor f: Int, x0: Int, y: Int, count: Int, into out: PlanarRow) {
        precondition(f >= 2 && scratchTop < scratchRows - 1, "upsample: factor below 2 or scratch exhausted")
        let small = scratchRow(scratchTop)
        let inv = 1 / Float(f)
        let sy = (Float(y) + 0.5) * inv - 0.5
        let j0 = sy.rounded(.down), ty = sy - j0
        let row = Int(j0)
        let first = Int(((Float(x0) + 0.5) * inv - 0.5).rounded(.down))
        let last = Int(((Float(x0 + count - 1) + 0.5) * inv - 0.5).rounded(.down)) + 1
        // At most count / 2 + 3 small pixels, and the C loop reads 8 floats past them: within the span's row.
        let m = last - first + 1
        // The two small rows in place when inside the buffer, else copies with zeros outside (`pixels` holds both).
        func smallRow(_ y: Int, copy: UnsafeMutablePointer<Pixel>) -> UnsafePointer<Pixel> {
            let r = source.rect
            if y >= r.y, y < r.maxY, first >= r.x, first + m <= r.maxX { return UnsafePointer(source.row(y) + (first - r.x)) }
            source.readRow(x0: first, y: y, count: m, into: copy)
            return UnsafePointer(copy)
        }
        let below = smallRow(row, copy: pixels), above = smallRow(row + 1, copy: pixels + m)
        withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>?.self, capacity: 8) { planes in
            planes[0] = small.r; planes[1] = small.g; planes[2] = small.b; planes[3] = small.a
            planes[4] = out.r; planes[5] = out.g; planes[6] = out.b; planes[7] = out.a
            let p = planes.baseAddress!
            UnsafeRawPointer(below).withMemoryRebound(to: Float.self, capacity: 4 * m) { b in
                UnsafeRawPointer(above).withMemoryRebound(to: Float.self, capacity: 4 * m) { a in
                    pixelloops_blend_rows(b, a, ty, Int32(m), p)
                }
            }
            p.withMemoryRebound(to: UnsafePointer<Float>?.self, capacity: 4) { smallPlanes in
                pixelloops_upsample_row(smallPlanes, Int32(first), inv, Int32(x0), Int32(count), p + 4)
            }
        }
    }

    /// A row segment of a materialised buffer, zeros outside it.
    private func read(_ buffer: PixelBuffer, x0: Int, y: Int, count: Int, into out: PlanarRow) {
        let r = buffer.rect
        let start = max(x0, r.x), end = min(x0 + count, r.maxX)
        guard y >= r.y, y < r.maxY, end > start else {
            out.fill(Pixel(0, 0, 0, 0), count: count)
            return
        }
        if start > x0 { out.fill(Pixel(0, 0, 0, 0), count: start - x0) }
        if end < x0 + count { out.advanced(by: end - x0).fill(Pixel(0, 0, 0, 0), count: x0 + count - end) }
        out.advanced(by: start - x0).load(buffer.row(y) + (start - r.x), count: end - start)
    }

    private mutating func evaluateInside(_ index: Int, x0: Int, y: Int, count: Int, into out: PlanarRow) {
        let first = inputStart[index], inputCount = inputStart[index + 1] - first
        switch steps[index] {
        case .source(let source):
            let e = extents[index]
            source._withUnsafeGuaranteedRef { $0.read(x0: x0 - e.x, y: y - e.y, count: count, into: out, scratch: pixels) }
        case .constant(let pixel):
            out.fill(pixel, count: count)
        case .color(let body):
            if inputCount == 0 {
                body._withUnsafeGuaranteedRef { $0.run(ColorSpan(out: out, others: others, x0: x0, y: y, count: count)) }
                return
            }
            evaluate(inputs[first], x0: x0, y: y, count: count, into: out)
            let extra = inputCount - 1
            let mine = others + othersTop
            othersTop += extra
            let rows = scratchTop
            for k in 0..<extra {
                precondition(scratchTop < scratchRows - 1, "scratch exhausted")
                let row = scratchRow(scratchTop)
                scratchTop += 1
                mine[k] = row
                evaluate(inputs[first + k + 1], x0: x0, y: y, count: count, into: row)
            }
            body._withUnsafeGuaranteedRef { $0.run(ColorSpan(out: out, others: mine, x0: x0, y: y, count: count)) }
            scratchTop = rows
            othersTop -= extra
        case .warp(let warp):
            guard let source = buffers[inputs[first]] else {
                out.fill(Pixel(0, 0, 0, 0), count: count)
                return
            }
            let sampling = warp._withUnsafeGuaranteedRef { $0.sampling }
            warp._withUnsafeGuaranteedRef { $0.map(coordinates, x0, y, count) }
            switch sampling {
            case .linear:
                // Measured on the 2-core dev VM (bench case o, CPU time): 17% less for the whole twirl render than
                // one `sampleLinear(x, y)` call a pixel followed by `out.load`.
                source.sampleLinear(coordinates, count: count, into: out, scratch: UnsafeMutableRawPointer(pixels))
                return
            case .nearest:
                for i in 0..<count { pixels[i] = source.sampleNearest(coordinates[i].x, coordinates[i].y) }
            }
            out.load(pixels, count: count)
        case .clamp(let e):
            guard let source = buffers[inputs[first]] else {
                out.fill(Pixel(0, 0, 0, 0), count: count)
                return
            }
            let sy = min(max(y, e.y), e.maxY - 1)
            for i in 0..<count {
                out[i] = source.pixel(x: min(max(x0 + i, e.x), e.maxX - 1), y: sy)
            }
        case .crop:
            evaluate(inputs[first], x0: x0, y: y, count: count, into: out)
        case .translate(let dx, let dy):
            evaluate(inputs[first], x0: x0 - dx, y: y - dy, count: count, into: out)
        case .downsample(let f):
            downsample(inputs[first], factor: f, x0: x0, y: y, count: count, into: out)
        case .upsample(let f):
            guard let source = buffers[inputs[first]] else {
                out.fill(Pixel(0, 0, 0, 0), count: count)
                return
            }
            upsample(source, factor: f, x0: x0, y: y, count: count, into: out)
        case .general:
            // Always materialised; reached only when nothing was requested of it.
            out.fill(Pixel(0, 0, 0, 0), count: count)
        }
    }
}
