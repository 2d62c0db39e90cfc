import FilterEngine
import Foundation

/// One preview to render: a framed image (see `PreviewPlanner`) and where it goes on the screen.
public struct PreviewRequest: Sendable {
    public var image: Image
    public var geometry: PreviewGeometry
    /// When the change that caused it happened (for the keypress-to-preview latency).
    public var submitted: UInt64 = DispatchTime.now().uptimeNanoseconds

    public init(image: Image, geometry: PreviewGeometry) {
        self.image = image
        self.geometry = geometry
    }
}

/// A finished preview, or the error that stopped it.
public struct PreviewFrame: Sendable {
    public let generation: Int
    public let geometry: PreviewGeometry
    public let cells: PreviewCells?
    public let error: String?
    /// Engine render and chafa conversion times, and submit-to-finish latency, in milliseconds.
    public let renderMs: Double
    public let chafaMs: Double
    public let latencyMs: Double
}

/// Renders previews on a worker thread so the interface never waits. Only the newest request is kept: a
/// request replaced before the worker reaches it is abandoned without being rendered.
public final class PreviewRenderer: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var pending: (generation: Int, request: PreviewRequest)?
    private var finished: PreviewFrame?
    private var stopping = false
    private var lastGeneration = 0
    /// The render in progress, cancelled when a newer request arrives so the worker moves on at once.
    private var inProgress: RenderCancellation?

    private let context: RenderContext
    private let mode: ColorMode
    private let unicode: Bool
    /// Above this many pixels, the output is downscaled by the engine before chafa sees it.
    static let maximumDirectPixels = 4_000_000

    public init(context: RenderContext, mode: ColorMode, unicode: Bool) {
        self.context = context
        self.mode = mode
        self.unicode = unicode
        let thread = Thread { [self] in work() }
        thread.name = "preview"
        thread.start()
    }

    /// Queues a request, replacing any that has not started; returns its generation number.
    @discardableResult
    public func submit(_ request: PreviewRequest) -> Int {
        condition.lock()
        defer { condition.unlock() }
        lastGeneration += 1
        pending = (lastGeneration, request)
        inProgress?.cancel()
        condition.signal()
        return lastGeneration
    }

    /// The newest finished frame not taken yet.
    public func takeFrame() -> PreviewFrame? {
        condition.lock()
        defer { condition.unlock() }
        let frame = finished
        finished = nil
        return frame
    }

    /// Waits (for tests and the benchmark) until the frame of `generation` or a newer one is finished.
    public func waitForFrame(atLeast generation: Int, timeout: TimeInterval = 10) -> PreviewFrame? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while (finished?.generation ?? -1) < generation {
            if !condition.wait(until: deadline) { return nil }
        }
        let frame = finished
        finished = nil
        return frame
    }

    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        let converter = ChafaConverter(mode: mode, unicode: unicode)
        while true {
            condition.lock()
            while pending == nil && !stopping { condition.wait() }
            if stopping {
                condition.unlock()
                return
            }
            let (generation, request) = pending!
            pending = nil
            let cancellation = RenderCancellation()
            inProgress = cancellation
            condition.unlock()

            let frame = render(request, generation: generation, converter: converter, cancellation: cancellation)
            condition.lock()
            inProgress = nil
            // A cancelled frame is dropped: its replacement is already queued.
            if !cancellation.isCancelled, (finished?.generation ?? -1) < generation { finished = frame }
            condition.broadcast()
            condition.unlock()
        }
    }

    private func render(_ request: PreviewRequest, generation: Int, converter: ChafaConverter,
                        cancellation: RenderCancellation) -> PreviewFrame {
        let geometry = request.geometry
        let start = DispatchTime.now().uptimeNanoseconds
        func ms(_ from: UInt64, _ to: UInt64) -> Double { Double(to - from) / 1e6 }
        do {
            let (pixels, width, height) = try Self.pixels(for: request, context: context, cancellation: cancellation)
            let rendered = DispatchTime.now().uptimeNanoseconds
            let cells = converter.convert(pixels, width: width, height: height,
                                          columns: geometry.cells.width, rows: geometry.cells.height)
            let done = DispatchTime.now().uptimeNanoseconds
            return PreviewFrame(generation: generation, geometry: geometry, cells: cells, error: nil,
                                renderMs: ms(start, rendered), chafaMs: ms(rendered, done),
                                latencyMs: ms(request.submitted, done))
        } catch {
            let done = DispatchTime.now().uptimeNanoseconds
            return PreviewFrame(generation: generation, geometry: geometry, cells: nil, error: "\(error)",
                                renderMs: ms(start, done), chafaMs: 0, latencyMs: ms(request.submitted, done))
        }
    }

    /// The RGBA8 pixels chafa gets: the shown rectangle at full resolution (chafa downscales it well), first
    /// downscaled by the engine when huge, and upscaled with nearest-neighbour when smaller than the preview so
    /// small outputs (QR codes, barcodes) stay sharp.
    static func pixels(for request: PreviewRequest, context: RenderContext, cancellation: RenderCancellation? = nil) throws
        -> (bytes: [UInt8], width: Int, height: Int)
    {
        let rect = request.geometry.imageRect
        let target = request.geometry.pixelSize
        guard !rect.isInfinite else { throw RenderError.infiniteRect }
        var rendered: (bytes: [UInt8], width: Int, height: Int)
        if rect.width * rect.height > Double(maximumDirectPixels) {
            let scale = min(Double(target.width) / rect.width, Double(target.height) / rect.height) * 2
            let scaled = request.image.transformed(by: .scale(x: scale, y: scale))
            rendered = try context.renderRGBA8(scaled, rect: scaled.extent.integral, cancellation: cancellation)
        } else {
            rendered = try context.renderRGBA8(request.image, rect: rect, cancellation: cancellation)
        }
        if rendered.width < target.width || rendered.height < target.height {
            rendered = (upscaleNearest(rendered.bytes, width: rendered.width, height: rendered.height,
                                       to: target.width, target.height), target.width, target.height)
        }
        return rendered
    }

    /// Nearest-neighbour resize of RGBA8 pixels.
    public static func upscaleNearest(_ bytes: [UInt8], width: Int, height: Int, to newWidth: Int, _ newHeight: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        let columns = (0..<newWidth).map { min(width - 1, $0 * width / newWidth) * 4 }
        for y in 0..<newHeight {
            let sy = min(height - 1, y * height / newHeight)
            let src = sy * width * 4
            let dst = y * newWidth * 4
            for x in 0..<newWidth {
                let s = src + columns[x]
                out[dst + x * 4] = bytes[s]
                out[dst + x * 4 + 1] = bytes[s + 1]
                out[dst + x * 4 + 2] = bytes[s + 2]
                out[dst + x * 4 + 3] = bytes[s + 3]
            }
        }
        return out
    }
}
