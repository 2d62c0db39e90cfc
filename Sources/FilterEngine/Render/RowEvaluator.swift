import Foundation

/// Evaluates rows of fused nodes for one thread, with scratch rows reused from row to row.
struct RowEvaluator {
    let plan: RenderPlan
    private let width: Int
    private let scratch: UnsafeMutablePointer<Pixel>
    private let scratchRows: Int
    private var scratchTop = 0
    private let pointers: UnsafeMutablePointer<UnsafeMutablePointer<Pixel>>
    private let pointerCapacity: Int
    private var pointerTop = 0
    private let coordinates: UnsafeMutablePointer<SIMD2<Float>>

    /// Rows are evaluated in spans of this many pixels, so that a fused chain's rows (16 bytes a pixel) and the
    /// encoding tables stay in L1 together; whole 1920-pixel rows (30 KiB each) measured slower on the dev machine.
    static let spanWidth = 256

    init(plan: RenderPlan) {
        self.plan = plan
        width = Self.spanWidth
        // A fused tree holds at most one scratch row per extra input at a time; the graph's input count bounds it.
        pointerCapacity = plan.inputIndices.reduce(0) { $0 + $1.count } + 1
        scratchRows = pointerCapacity
        scratch = .allocate(capacity: self.width * scratchRows)
        pointers = .allocate(capacity: pointerCapacity)
        coordinates = .allocate(capacity: self.width)
    }

    func release() {
        scratch.deallocate()
        pointers.deallocate()
        coordinates.deallocate()
    }

    /// Writes a whole row segment of any length, span by span.
    mutating func evaluateRow(_ index: Int, x0: Int, y: Int, count: Int, into out: UnsafeMutablePointer<Pixel>) {
        for x in stride(from: x0, to: x0 + count, by: Self.spanWidth) {
            evaluate(index, x0: x, y: y, count: min(Self.spanWidth, x0 + count - x), into: out + (x - x0))
        }
    }

    /// Writes pixels `x0..<x0+count` of row `y` of node `index` into `out` (count ≤ spanWidth).
    mutating func evaluate(_ index: Int, x0: Int, y: Int, count: Int, into out: UnsafeMutablePointer<Pixel>) {
        if let buffer = plan.buffers[index] {
            buffer.readRow(x0: x0, y: y, count: count, into: out)
            return
        }
        // Outside its extent an image is transparent.
        let e = plan.extents[index]
        let start = max(x0, e.x), end = min(x0 + count, e.maxX)
        guard y >= e.y, y < e.maxY, end > start else {
            out.update(repeating: Pixel(0, 0, 0, 0), count: count)
            return
        }
        if start > x0 { out.update(repeating: Pixel(0, 0, 0, 0), count: start - x0) }
        if end < x0 + count { (out + (end - x0)).update(repeating: Pixel(0, 0, 0, 0), count: x0 + count - end) }
        evaluateInside(index, x0: start, y: y, count: end - start, into: out + (start - x0))
    }

    private mutating func evaluateInside(_ index: Int, x0: Int, y: Int, count: Int, into out: UnsafeMutablePointer<Pixel>) {
        let inputs = plan.inputIndices[index]
        switch plan.nodes[index].kind {
        case .source(let source):
            let e = plan.extents[index]
            source.read(x0: x0 - e.x, y: y - e.y, count: count, into: out)
        case .constant(let pixel):
            out.update(repeating: pixel, count: count)
        case .color(let kernel, _):
            if inputs.isEmpty {
                kernel.body(ColorSpan(out: out, others: pointers, x0: x0, y: y, count: count))
                return
            }
            evaluate(inputs[0], x0: x0, y: y, count: count, into: out)
            let extra = inputs.count - 1
            let others = pointers + pointerTop
            pointerTop += extra
            let rows = scratchTop
            for k in 0..<extra {
                precondition(scratchTop < scratchRows && pointerTop <= pointerCapacity, "scratch exhausted")
                let row = scratch + scratchTop * width
                scratchTop += 1
                others[k] = row
                evaluate(inputs[k + 1], x0: x0, y: y, count: count, into: row)
            }
            kernel.body(ColorSpan(out: out, others: others, x0: x0, y: y, count: count))
            scratchTop = rows
            pointerTop -= extra
        case .warp(let kernel, _, _):
            guard let source = plan.buffers[inputs[0]] else {
                out.update(repeating: Pixel(0, 0, 0, 0), count: count)
                return
            }
            kernel.map(coordinates, x0, y, count)
            switch kernel.sampling {
            case .linear:
                for i in 0..<count { out[i] = source.sampleLinear(coordinates[i].x, coordinates[i].y) }
            case .nearest:
                for i in 0..<count { out[i] = source.sampleNearest(coordinates[i].x, coordinates[i].y) }
            }
        case .clamp(_, let e):
            guard let source = plan.buffers[inputs[0]] else {
                out.update(repeating: Pixel(0, 0, 0, 0), count: count)
                return
            }
            let sy = min(max(y, e.y), e.maxY - 1)
            for i in 0..<count {
                out[i] = source.pixel(x: min(max(x0 + i, e.x), e.maxX - 1), y: sy)
            }
        case .crop:
            evaluate(inputs[0], x0: x0, y: y, count: count, into: out)
        case .translate(_, let dx, let dy):
            evaluate(inputs[0], x0: x0 - dx, y: y - dy, count: count, into: out)
        case .general:
            // Always materialised; reached only when nothing was requested of it.
            out.update(repeating: Pixel(0, 0, 0, 0), count: count)
        }
    }
}
