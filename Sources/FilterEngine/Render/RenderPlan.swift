import Foundation

/// How one render computes an image graph for one output rectangle.
///
/// Nodes that only look at the same pixel of their inputs (colour kernels, generators, crops, translations,
/// sources) are evaluated row by row and fused: a chain of them reads and writes each row once. A node that
/// reads neighbourhoods (warps, clamps, general kernels) gets its inputs *materialised* into buffers covering
/// exactly its region of interest; general kernels also write their own output into a buffer. The plan walks
/// the graph from the output, growing each node's request by the regions of interest, so a crop of a blur of
/// a huge image touches only what the crop needs.
final class RenderPlan: @unchecked Sendable {
    let nodes: [Image]                 // inputs before the nodes that read them; the root last
    let inputIndices: [[Int]]
    var requests: [PixelRect]
    let materialised: [Bool]
    var buffers: [PixelBuffer?]
    let extents: [PixelRect]

    init(root: Image, rect: PixelRect) {
        var order: [Image] = []
        var indexOf: [ObjectIdentifier: Int] = [:]
        // Depth-first, inputs first; iterative so that long chains cannot overflow the stack.
        var stack: [(Image, Bool)] = [(root, false)]
        while let (node, expanded) = stack.popLast() {
            let id = ObjectIdentifier(node)
            if indexOf[id] != nil { continue }
            if expanded {
                indexOf[id] = order.count
                order.append(node)
            } else {
                stack.append((node, true))
                for input in node.inputs.reversed() where indexOf[ObjectIdentifier(input)] == nil {
                    stack.append((input, false))
                }
            }
        }
        nodes = order
        inputIndices = order.map { $0.inputs.map { indexOf[ObjectIdentifier($0)]! } }
        extents = order.map(\.pixelExtent)
        var materialised = [Bool](repeating: false, count: order.count)
        for (i, node) in order.enumerated() {
            switch node.kind {
            case .warp, .clamp, .upsample:
                materialised[inputIndices[i][0]] = true
            case .general:
                materialised[i] = true
                for input in inputIndices[i] { materialised[input] = true }
            default: break
            }
        }
        Self.materialiseShared(&materialised, order, inputIndices)
        Self.boundFusedDepth(&materialised, inputIndices)
        self.materialised = materialised
        buffers = [PixelBuffer?](repeating: nil, count: order.count)
        outputRect = rect
        requests = []
        propagateRequests()
    }

    /// The output rectangle.
    private let outputRect: PixelRect

    /// The evaluators' tables, made on first use (`RenderContext` asks for them before its threads start).
    private(set) lazy var evaluatorTables = RowEvaluator.Tables(plan: self)

    /// Fused evaluation computes a node once per reader and row: a node that several readers use (a recipe
    /// step whose output feeds two later steps, 24 times over: 2^24 evaluations a pixel) is computed once into
    /// a buffer instead. Sources and constants cost no more to read again than a buffer does.
    private static func materialiseShared(_ materialised: inout [Bool], _ nodes: [Image], _ inputIndices: [[Int]]) {
        var readers = [Int](repeating: 0, count: nodes.count)
        for inputs in inputIndices { for input in inputs { readers[input] += 1 } }
        for i in nodes.indices where readers[i] > 1 {
            switch nodes[i].kind {
            case .source, .constant: break
            default: materialised[i] = true
            }
        }
    }

    /// The most nodes one fused evaluation passes through (a stack frame pair each; 256 take well under the
    /// 512 KiB of a worker thread's stack).
    static let maximumFusedDepth = 256

    /// A fused chain recurses once per node: every `maximumFusedDepth`-th node of a long chain (100,000 colour
    /// steps) is materialised, so that no evaluation goes deeper.
    private static func boundFusedDepth(_ materialised: inout [Bool], _ inputIndices: [[Int]]) {
        var depth = [Int](repeating: 0, count: inputIndices.count)
        for i in inputIndices.indices {
            let deepest = inputIndices[i].reduce(0) { max($0, materialised[$1] ? 0 : depth[$1]) }
            depth[i] = deepest + 1
            if depth[i] >= maximumFusedDepth { materialised[i] = true }
        }
    }

    /// Takes materialised nodes from a cache where it has them, then asks the inputs again, so that nothing
    /// upstream of a cached buffer is computed.
    func useCached(_ lookup: (Image, PixelRect) -> PixelBuffer?) {
        var found = false
        for i in nodes.indices where materialised[i] && !requests[i].isEmpty {
            if let buffer = lookup(nodes[i], requests[i]) {
                buffers[i] = buffer
                found = true
            }
        }
        if found { propagateRequests() }
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// From the root down, each node asks its inputs for the pixels it needs (a node already in a buffer
    /// asks nothing).
    private func propagateRequests() {
        requests = [PixelRect](repeating: .empty, count: nodes.count)
        requests[nodes.count - 1] = outputRect.intersection(extents[nodes.count - 1])
        for i in stride(from: nodes.count - 1, through: 0, by: -1) {
            let r = requests[i]
            if r.isEmpty || buffers[i] != nil { continue }
            let inputs = inputIndices[i]
            func ask(_ input: Int, _ rect: PixelRect) {
                requests[input] = requests[input].union(rect.intersection(extents[input]))
            }
            switch nodes[i].kind {
            case .source, .constant:
                break
            case .color:
                for input in inputs { ask(input, r) }
            case .warp(_, let source, let roi):
                ask(inputs[0], PixelRect(covering: roi(r.rect).intersection(source.extent)))
            case .general(let kernel, _):
                for (k, input) in inputs.enumerated() { ask(input, kernel.roi(k, r)) }
            case .crop(_, let area):
                ask(inputs[0], r.intersection(area))
            case .clamp(_, let e):
                guard !e.isEmpty else { break }
                let x0 = min(max(r.x, e.x), e.maxX - 1), x1 = min(max(r.maxX - 1, e.x), e.maxX - 1)
                let y0 = min(max(r.y, e.y), e.maxY - 1), y1 = min(max(r.maxY - 1, e.y), e.maxY - 1)
                ask(inputs[0], PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1))
            case .translate(_, let dx, let dy):
                ask(inputs[0], PixelRect(x: r.x - dx, y: r.y - dy, width: r.width, height: r.height))
            case .upsample(_, let f):
                // Bilinear taps reach one small pixel beyond the scaled rectangle.
                let x0 = Self.floorDiv(r.x, f) - 1, y0 = Self.floorDiv(r.y, f) - 1
                ask(inputs[0], PixelRect(x: x0, y: y0, width: Self.floorDiv(r.maxX - 1, f) + 2 - x0,
                                         height: Self.floorDiv(r.maxY - 1, f) + 2 - y0))
            case .downsample(_, let f):
                ask(inputs[0], PixelRect(x: r.x * f, y: r.y * f, width: r.width * f, height: r.height * f))
            }
        }
    }
}

extension Image {
    /// The part of `input` (an image this one is built from) that rendering `rect` of this image reads: the
    /// plan's own request for it, in whole pixels; empty when this image does not use `input` there.
    public func regionOfInterest(of input: Image, for rect: Rect) -> Rect {
        guard !rect.isInfinite, !rect.isEmpty, [rect.x, rect.y, rect.width, rect.height].allSatisfy({ abs($0) < 1e9 })
        else { return input === self ? rect : .zero }
        let plan = RenderPlan(root: self, rect: PixelRect(covering: rect))
        guard let index = plan.nodes.firstIndex(where: { $0 === input }) else { return .zero }
        return plan.requests[index].rect
    }
}
