import Foundation

/// Renders images. Make one and keep it: it holds the thread settings and reusable state; rendering is cheap
/// and repeated.
public final class RenderContext: @unchecked Sendable {
    public struct Options: Sendable {
        /// Worker threads (default: every core).
        public var threads: Int
        /// Rows per band of work (nil: chosen from the image height and the thread count).
        public var bandHeight: Int?
        /// Bytes of intermediate buffers kept between renders (0: none). For interactive use: while a slider of
        /// one filter moves, the materialised images upstream of it (a decoded, scaled source; a blur) are
        /// reused. Keep it 0 for streams of different frames, where nothing repeats.
        public var cacheBytes: Int
        /// The render budget, checked before anything is allocated: the most pixels the output or any one
        /// intermediate may cover (also the streamed rows a pyramid level reads), and the most bytes all
        /// intermediate buffers of one render may take together. A render beyond it throws
        /// `RenderError.overBudget` naming the filter whose image needed it. Defaults: `defaultMaxPixels` and
        /// `defaultMaxBytes`, or the environment variables `CIFILTERTEST_MAX_PIXELS` and `CIFILTERTEST_MAX_BYTES`.
        public var maxPixels: Int
        public var maxBytes: Int
        /// Seconds a render may run (nil: no limit), checked between bands of rows: a render over it stops
        /// and throws `RenderError.timeLimit`.
        public var timeLimit: Double?
        /// 8-bit renders of per-channel, affine and luminance colour chains over opaque 8-bit pictures by tables,
        /// and of such chains under vignettes and multiplies by kept factors, within one level of the float path
        /// (`ColorTables`, `GainFactors`); false: always the float path (`render --exact`).
        public var colorTables: Bool

        public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount, bandHeight: Int? = nil,
                    cacheBytes: Int = 0, maxPixels: Int? = nil, maxBytes: Int? = nil, timeLimit: Double? = nil,
                    colorTables: Bool = true) {
            self.colorTables = colorTables
            self.threads = max(1, threads)
            self.bandHeight = bandHeight
            self.cacheBytes = max(0, cacheBytes)
            self.maxPixels = max(1, maxPixels ?? Self.environmentLimit("CIFILTERTEST_MAX_PIXELS") ?? Self.defaultMaxPixels)
            self.maxBytes = max(1, maxBytes ?? Self.environmentLimit("CIFILTERTEST_MAX_BYTES") ?? Self.defaultMaxBytes)
            self.timeLimit = timeLimit
        }

        /// 2^28 pixels (268 MP, 16384²): room for 100 MP photos and their intermediates; one float intermediate
        /// of that size is 4 GiB.
        public static let defaultMaxPixels = 1 << 28
        /// 8 GiB of intermediates for one render: with the output and the decoded input, a 24 GiB machine keeps
        /// room to spare; a 100 MP photo through a few neighbourhood filters (1.6 GB per float intermediate)
        /// stays inside.
        public static let defaultMaxBytes = 8 << 30

        /// A limit from the environment as a positive whole number, or nil: "1e9", "4294967296" and "100_000"
        /// all read (underscores and surrounding spaces ignored). The one reader of `CIFILTERTEST_MAX_PIXELS` and
        /// `CIFILTERTEST_MAX_BYTES`, so that decoding and rendering agree on what a value means.
        public static func environmentLimit(_ name: String,
                                            environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
            guard let value = environmentNumber(name, environment: environment), value >= 1 else { return nil }
            return Int(saturating: value)
        }

        /// A finite number of 0 or more from the environment, read as `environmentLimit` reads limits (the
        /// command line's `CIFILTERTEST_TIME_LIMIT` too).
        public static func environmentNumber(_ name: String,
                                             environment: [String: String] = ProcessInfo.processInfo.environment) -> Double? {
            guard let text = environment[name] else { return nil }
            let cleaned = text.replacingOccurrences(of: "_", with: "").trimmingCharacters(in: .whitespaces)
            guard let value = Double(cleaned), value.isFinite, value >= 0 else { return nil }
            return value
        }
    }

    public let options: Options
    private let cache: IntermediateCache
    /// The factors of the last gain paths rendered (`GainFactors`).
    let gainFactors = GainFactors.Kept()
    /// How many intermediate buffers came from the cache so far.
    public var cacheHits: Int { cache.hits }

    public init(options: Options = Options()) {
        self.options = options
        cache = IntermediateCache(limit: options.cacheBytes)
    }

    // MARK: Public rendering

    /// Renders `rect` of `image` to working-space pixels (linear, premultiplied float RGBA).
    public func render(_ image: Image, rect: Rect) throws -> PixelBuffer {
        let area = try checkedArea(rect, of: image)
        let output = PixelBuffer(rect: area, uninitialized: true)
        try run(image, area) { evaluator, band in
            for y in band.y..<band.maxY {
                evaluator.evaluateRow(evaluator.plan.nodes.count - 1, x0: area.x, y: y, count: area.width, into: output.row(y))
            }
        }
        return output
    }

    /// Renders `rect` to 8-bit sRGB RGBA with straight alpha, rows top to bottom (as image files store them).
    /// With `cancellation`, a render no longer wanted stops between bands and throws `RenderError.cancelled`.
    public func renderRGBA8(_ image: Image, rect: Rect, cancellation: RenderCancellation? = nil) throws
        -> (bytes: [UInt8], width: Int, height: Int)
    {
        let area = try checkedArea(rect, of: image)
        var bytes = [UInt8](repeating: 0, count: area.area * 4)
        try bytes.withUnsafeMutableBufferPointer { memory in
            try renderRGBA8(image, rect: rect, into: memory.baseAddress!, cancellation: cancellation)
        }
        return (bytes, area.width, area.height)
    }

    /// Renders into caller-owned memory of `width × height × 4` bytes of the rectangle's whole pixels
    /// (for repeated frames without reallocating).
    public func renderRGBA8(_ image: Image, rect: Rect, into base: UnsafeMutablePointer<UInt8>,
                            cancellation: RenderCancellation? = nil) throws {
        let area = try checkedArea(rect, of: image)
        nonisolated(unsafe) let base = base
        // Two routes that never leave 8 bits: colour tables, and a kernel that writes bytes itself.
        if options.colorTables, let tables = ColorTables.make(for: image, area: area) {
            if cancellation?.isCancelled == true { throw RenderError.cancelled }
            guard let gain = tables.gain else {
                tables.render(area: area, into: base, threads: options.threads)
                return
            }
            if let factors = GainFactors.of(gain.factors, key: gain.key, area: area, kept: gainFactors, spans: eachSpan),
               let exceptions = factors.exceptions(for: tables) {
                tables.render(area: area, into: base, threads: options.threads, factors: (factors, exceptions))
                return
            }
        }
        if case .general(let kernel, let inputs) = image.kind, inputs.isEmpty, let writer = kernel.rgba8,
           PixelRect(covering: image.extent).contains(area) {
            if cancellation?.isCancelled == true { throw RenderError.cancelled }
            Self.eachBand(area, threads: options.threads) { band in
                writer(band) { y in base + (area.maxY - 1 - y) * area.width * 4 + (band.x - area.x) * 4 }
            }
            return
        }
        try run(image, area, cancellation) { evaluator, band in
            let (span, memory) = RowEvaluator.makeRow()
            defer { memory.deallocate() }
            let root = evaluator.plan.nodes.count - 1
            // Outside what the root covers the evaluator gives +0 pixels, whose bytes are written directly
            // instead of being filled, read and encoded (a render rectangle larger than the image: a scaled-down
            // photo in its original frame, a crop reaching outside).
            let live = evaluator.coverage(root).intersection(area)
            for y in band.y..<band.maxY {
                let line = base + (area.maxY - 1 - y) * area.width * 4
                let inside = !live.isEmpty && y >= live.y && y < live.maxY
                let x0 = inside ? live.x : area.maxX, x1 = inside ? live.maxX : area.maxX
                PixelEncoding.fillTransparent(line, count: x0 - area.x)
                PixelEncoding.fillTransparent(line + (x1 - area.x) * 4, count: area.maxX - x1)
                for x in stride(from: x0, to: x1, by: RowEvaluator.spanWidth) {
                    let count = min(RowEvaluator.spanWidth, x1 - x)
                    evaluator.evaluate(root, x0: x, y: y, count: count, into: span)
                    PixelEncoding.encodeSRGB8(span, count: count, into: line + (x - area.x) * 4)
                }
            }
        }
    }

    /// `body` on every span of `image` over `area`, the rows in bands on the worker threads.
    private func eachSpan(_ image: Image, _ area: PixelRect, _ body: @escaping GainFactors.Spans) throws {
        try run(image, area) { evaluator, band in
            let (span, memory) = RowEvaluator.makeRow()
            defer { memory.deallocate() }
            let root = evaluator.plan.nodes.count - 1
            for y in band.y..<band.maxY {
                for x in stride(from: area.x, to: area.maxX, by: RowEvaluator.spanWidth) {
                    let count = min(RowEvaluator.spanWidth, area.maxX - x)
                    evaluator.evaluate(root, x0: x, y: y, count: count, into: span)
                    body(x, y, count, span)
                }
            }
        }
    }

    /// `body` over bands of `area`'s rows (about four a thread), on `threads` threads.
    static func eachBand(_ area: PixelRect, threads: Int, _ body: @escaping @Sendable (PixelRect) -> Void) {
        let bands = min(area.height, max(1, threads) * 4)
        let work = { @Sendable (band: Int) in
            let y0 = area.y + band * area.height / bands, y1 = area.y + (band + 1) * area.height / bands
            body(PixelRect(x: area.x, y: y0, width: area.width, height: y1 - y0))
        }
        if threads <= 1 { (0..<bands).forEach(work) } else { DispatchQueue.concurrentPerform(iterations: bands, execute: work) }
    }

    private func checkedArea(_ rect: Rect, of image: Image) throws -> PixelRect {
        guard !rect.isInfinite else { throw RenderError.infiniteRect }
        guard [rect.x, rect.y, rect.width, rect.height].allSatisfy(\.isFinite) else { throw RenderError.infiniteRect }
        let area = PixelRect(covering: rect)
        guard !area.isEmpty else { throw RenderError.emptyRect }
        guard area.area <= options.maxPixels else {
            throw RenderError.overBudget(RenderBudget.message(what: "the output", of: image, width: rect.width,
                                                              height: rect.height, options: options))
        }
        return area
    }

    /// Checks the plan against the budget before anything is allocated: every node's requested rectangle
    /// (materialised or streamed) within `maxPixels`, and the materialised buffers together within `maxBytes`.
    private func checkBudget(_ plan: RenderPlan) throws {
        // The largest rectangle over the limit is reported, with the filter that asked for it (the consumer
        // nearest the output that has one: a blur reading a whole generator), else the filter that made it.
        if let worst = plan.nodes.indices.filter({ plan.requests[$0].area > options.maxPixels })
            .max(by: { plan.requests[$0].area < plan.requests[$1].area }) {
            let reader = plan.nodes.indices.last { plan.inputIndices[$0].contains(worst) && plan.nodes[$0].origin != nil }
            let what = reader.flatMap { plan.nodes[$0].origin }.map { "an intermediate read by \($0)" } ?? "an intermediate"
            throw RenderError.overBudget(RenderBudget.message(what: what, of: reader == nil ? plan.nodes[worst] : nil,
                                                              plan.requests[worst], options: options))
        }
        var bytes = 0
        for i in plan.nodes.indices {
            let request = plan.requests[i]
            guard !request.isEmpty, plan.materialised[i], plan.buffers[i] == nil else { continue }
            bytes += request.area * MemoryLayout<Pixel>.stride
            if bytes > options.maxBytes {
                throw RenderError.overBudget(RenderBudget.bytesMessage(of: plan.nodes[i], bytes, options: options))
            }
        }
    }

    // MARK: Scheduling

    /// Plans the graph, computes the materialised nodes in dependency order, then the output, each split into
    /// bands of rows shared by the worker threads.
    private func run(_ image: Image, _ area: PixelRect, _ cancellation: RenderCancellation? = nil,
                     output: @escaping (inout RowEvaluator, PixelRect) -> Void) throws {
        let plan = RenderPlan(root: image, rect: area)
        if options.cacheBytes > 0 { plan.useCached(cache.buffer) }
        try checkBudget(plan)
        let deadline = options.timeLimit.map { Date().addingTimeInterval($0) }
        let computed = plan.nodes.indices.filter { plan.materialised[$0] && !plan.requests[$0].isEmpty && plan.buffers[$0] == nil }
        var stage = 0
        for i in 0..<plan.nodes.count where plan.materialised[i] {
            let request = plan.requests[i]
            guard !request.isEmpty else { continue }
            if plan.buffers[i] != nil { continue }  // from the cache
            cancellation?.beginStage(stage, of: computed.count + 1, bands: 0)
            stage += 1
            let buffer = PixelBuffer(rect: request, uninitialized: true)
            if case .general(let kernel, _) = plan.nodes[i].kind {
                let inputs = plan.inputIndices[i].map { plan.buffers[$0] ?? PixelBuffer(rect: .empty) }
                if kernel.parallel {
                    parallelBands(request, plan: plan, cancellation, deadline) { _, band in
                        kernel.body(RegionContext(output: buffer, rect: band, inputs: inputs))
                    }
                } else {
                    kernel.body(RegionContext(output: buffer, rect: request, inputs: inputs, threads: options.threads))
                }
            } else {
                parallelBands(request, plan: plan, cancellation, deadline) { evaluator, band in
                    for y in band.y..<band.maxY {
                        evaluator.evaluateRow(i, x0: request.x, y: y, count: request.width, into: buffer.row(y))
                    }
                }
            }
            if cancellation?.isCancelled == true { throw RenderError.cancelled }
            try checkDeadline(deadline)
            plan.buffers[i] = buffer
            cache.store(buffer, for: plan.nodes[i])
        }
        cancellation?.beginStage(computed.count, of: computed.count + 1, bands: 0)
        parallelBands(area, plan: plan, cancellation, deadline, countsBands: true, output)
        if cancellation?.isCancelled == true { throw RenderError.cancelled }
        try checkDeadline(deadline)
    }

    private func checkDeadline(_ deadline: Date?) throws {
        if let deadline, Date() >= deadline, let limit = options.timeLimit { throw RenderError.timeLimit(seconds: limit) }
    }

    /// Splits `rect` into bands of rows and runs `body` on them from every worker thread, each with its own
    /// evaluator (scratch rows allocated once per thread, not per band).
    private func parallelBands(_ rect: PixelRect, plan: RenderPlan, _ cancellation: RenderCancellation? = nil,
                               _ deadline: Date? = nil, countsBands: Bool = false,
                               _ body: @escaping (inout RowEvaluator, PixelRect) -> Void) {
        let threads = min(options.threads, max(1, rect.height))
        // About four bands per thread balances uneven rows without much per-band overhead.
        let bandHeight = max(1, options.bandHeight ?? (rect.height + threads * 4 - 1) / (threads * 4))
        let bandCount = (rect.height + bandHeight - 1) / bandHeight
        let next = BandCounter()
        // The output's bands are the last stage of the progress (the buffers before it, one stage each).
        if countsBands { cancellation?.setBandCount(bandCount) }
        // Bands never overlap, so the body may write its rows from several threads.
        nonisolated(unsafe) let body = body
        _ = plan.evaluatorTables  // made here, before the threads share it
        let work = { @Sendable (_: Int) in
            var evaluator = RowEvaluator(plan: plan)
            defer { evaluator.release() }
            while true {
                let band = next.take()
                if band >= bandCount || cancellation?.isCancelled == true { break }
                if let deadline, Date() >= deadline { break }
                let y0 = rect.y + band * bandHeight
                body(&evaluator, PixelRect(x: rect.x, y: y0, width: rect.width, height: min(bandHeight, rect.maxY - y0)))
                if countsBands { cancellation?.bandFinished() }
            }
        }
        if threads == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: threads, execute: work) }
    }
}

/// Materialised intermediates by image identity and rectangle, least recently used dropped first. An entry
/// holds its image, so the identity cannot be reused by another image while cached. Images are immutable, so
/// the same image over the same rectangle always has the same pixels.
final class IntermediateCache: @unchecked Sendable {
    private struct Entry {
        let image: Image
        let buffer: PixelBuffer
        var lastUse: Int
    }
    private let limit: Int
    private var entries: [ObjectIdentifier: [Entry]] = [:]
    private var bytes = 0
    private var clock = 0
    private let lock = NSLock()
    /// Buffers found, for tests and statistics.
    private(set) var hits = 0

    init(limit: Int) { self.limit = limit }

    func buffer(for image: Image, rect: PixelRect) -> PixelBuffer? {
        guard limit > 0 else { return nil }
        lock.lock()
        defer { lock.unlock() }
        guard var list = entries[ObjectIdentifier(image)],
              let index = list.firstIndex(where: { $0.buffer.rect.contains(rect) }) else { return nil }
        clock += 1
        hits += 1
        list[index].lastUse = clock
        entries[ObjectIdentifier(image)] = list
        return list[index].buffer
    }

    func store(_ buffer: PixelBuffer, for image: Image) {
        let size = buffer.rect.area * MemoryLayout<Pixel>.stride
        guard limit > 0, size <= limit / 2 else { return }
        lock.lock()
        defer { lock.unlock() }
        clock += 1
        entries[ObjectIdentifier(image), default: []].append(Entry(image: image, buffer: buffer, lastUse: clock))
        bytes += size
        while bytes > limit {
            let (key, index) = entries.flatMap { key, list in list.indices.map { (key, $0) } }
                .min { entries[$0.0]![$0.1].lastUse < entries[$1.0]![$1.1].lastUse }!
            bytes -= entries[key]![index].buffer.rect.area * MemoryLayout<Pixel>.stride
            entries[key]!.remove(at: index)
            if entries[key]!.isEmpty { entries[key] = nil }
        }
    }
}

/// Lets another thread stop a render that is no longer wanted (a preview replaced by a newer one), and follow
/// how far it got (an export's progress).
public final class RenderCancellation: @unchecked Sendable {
    private var cancelled = false
    private let lock = NSLock()
    private var stagesDone = 0, stageCount = 1, bandsDone = 0, bandCount = 0

    public init() {}

    /// How much of the render is done, 0…1: the buffers computed before the output count as stages of equal
    /// weight, the output as the last one, each advancing band by band.
    public var fractionDone: Double {
        lock.lock()
        defer { lock.unlock() }
        let within = bandCount > 0 ? Double(bandsDone) / Double(bandCount) : 0
        return min(1, (Double(stagesDone) + within) / Double(max(1, stageCount)))
    }

    func beginStage(_ index: Int, of count: Int, bands: Int) {
        lock.lock()
        (stagesDone, stageCount, bandsDone, bandCount) = (index, max(1, count), 0, bands)
        lock.unlock()
    }

    func setBandCount(_ count: Int) {
        lock.lock()
        bandCount = count
        lock.unlock()
    }

    func bandFinished() {
        lock.lock()
        bandsDone += 1
        lock.unlock()
    }

    public func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }
}

/// Hands out band numbers to worker threads.
private final class BandCounter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func take() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value - 1
    }
}

public enum RenderError: Error, CustomStringConvertible, Equatable {
    case infiniteRect
    case emptyRect
    /// Over the render budget (`RenderContext.Options.maxPixels`/`maxBytes`): the message says what and why.
    case overBudget(String)
    case timeLimit(seconds: Double)
    case cancelled

    public var description: String {
        switch self {
        case .cancelled: "the render was cancelled"
        case .infiniteRect: "the image is infinite: give a rectangle to render (a crop)"
        case .emptyRect: "nothing to render: the rectangle is empty"
        case .overBudget(let message): message
        case .timeLimit(let s):
            "the render took longer than its time limit of \(formatNumber(s)) s and was stopped (raise it with --time-limit or CIFILTERTEST_TIME_LIMIT; 0 for none)"
        }
    }
}

/// The messages of the render budget: what was too large, which filter made it, and how to raise the limit.
package enum RenderBudget {
    static func message(what: String, of node: Image?, _ rect: PixelRect, options: RenderContext.Options) -> String {
        message(what: what, of: node, width: Double(rect.width), height: Double(rect.height), options: options)
    }

    /// Sizes as asked (a rectangle's real size, not the ±2^28 the renderer clamps coordinates to).
    static func message(what: String, of node: Image?, width: Double, height: Double, options: RenderContext.Options) -> String {
        let made = node?.origin.map { " (made by \($0))" } ?? ""
        let size = "\(formatNumber(width.rounded(.up)))×\(formatNumber(height.rounded(.up)))"
        let area = width * height < 9e18 ? formatCount(Int(width * height)) : String(format: "%.3g", width * height)
        return "\(what)\(made) needs \(size) = \(area) pixels; the limit is "
            + "\(formatCount(options.maxPixels)) (raise it with --max-pixels or CIFILTERTEST_MAX_PIXELS)"
    }

    static func bytesMessage(of node: Image, _ bytes: Int, options: RenderContext.Options) -> String {
        let made = node.origin.map { ", the last made by \($0)," } ?? ""
        return "the intermediate images of this render\(made) need \(formatBytes(bytes)); the limit is "
            + "\(formatBytes(options.maxBytes)) (raise it with --max-memory or CIFILTERTEST_MAX_BYTES)"
    }

    /// 268435456 → "268 million"; small counts as they are.
    static func formatCount(_ n: Int) -> String {
        if n >= 1_000_000_000_000 { return String(format: "%.3g", Double(n)) }
        if n >= 1_000_000_000 { return String(format: "%.3g billion", Double(n) / 1e9) }
        if n >= 1_000_000 { return String(format: "%.3g million", Double(n) / 1e6) }
        return "\(n)"
    }

    package static func formatBytes(_ n: Int) -> String {
        n >= 1 << 30 ? String(format: "%.3g GiB", Double(n) / Double(1 << 30)) : String(format: "%.3g MiB", Double(n) / Double(1 << 20))
    }
}
