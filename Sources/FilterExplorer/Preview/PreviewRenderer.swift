import FilterEngine
import Foundation

/// One preview to render: a framed image (see `PreviewPlanner`) and where it goes on the screen.
public struct PreviewRequest: Sendable {
    public var image: Image
    /// Where it shows, in the source's coordinates.
    public var geometry: PreviewGeometry
    /// How many times smaller than the source's coordinates `image` is (a proxy of a large photo; 1: full size).
    public var proxyFactor: Int
    /// The same preview at full size, rendered after this one is shown unless a newer request arrives first.
    public var refinement: Image?
    /// When the change that caused it happened (for the keypress-to-preview latency).
    public var submitted: UInt64 = DispatchTime.now().uptimeNanoseconds
    /// Scale anything larger than the preview's pixel size to that size in the engine before chafa (video
    /// frames: chafa takes ~100 ms for a whole 1080p frame, 2 cores, against ~16 ms for the render itself).
    public var scalesToPreviewSize = false
    /// Before | after: the source on the left of a divider, the output on its right.
    public var split: SplitPreview?

    public init(image: Image, geometry: PreviewGeometry, proxyFactor: Int = 1, refinement: Image? = nil) {
        self.image = image
        self.geometry = geometry
        self.proxyFactor = max(1, proxyFactor)
        self.refinement = refinement
    }

    /// The rectangle of `image` to render.
    var renderRect: Rect {
        guard proxyFactor > 1 else { return geometry.imageRect }
        let shrink = 1 / Double(proxyFactor)
        return AffineTransform.scale(x: shrink, y: shrink).apply(to: geometry.imageRect).integral
    }
}

/// The split before/after view of a preview request.
public struct SplitPreview: Sendable {
    /// The source, in the coordinates of the request's image (full size, or the same proxy).
    public var before: Image
    /// The full-size source, for the request's full-size refinement.
    public var beforeRefinement: Image?
    /// Where the divider is, as a fraction of the preview's width from its left edge.
    public var fraction: Double

    public init(before: Image, beforeRefinement: Image? = nil, fraction: Double) {
        (self.before, self.beforeRefinement, self.fraction) = (before, beforeRefinement, fraction)
    }
}

/// A finished preview, or the error that stopped it.
public struct PreviewFrame: Sendable {
    public let generation: Int
    public let geometry: PreviewGeometry
    public let cells: PreviewCells?
    /// With a graphics protocol: the escape sequence that draws the frame's pixels over its cells (which are
    /// then blank).
    public var image: String? = nil
    public let error: String?
    /// The render needed more memory than its context allows.
    public var overBudget = false
    /// A proxy frame whose full-size refinement was over `PreviewRenderer.refinementBytes`: it stays.
    public var refinementSkipped = false
    /// The proxy factor it was rendered at (1: full size).
    public let proxyFactor: Int
    /// Engine render and cell conversion times (`ChafaConverter`), and submit-to-finish latency, in milliseconds.
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
    /// When the person last pressed a key (`noteInput`).
    private var lastInput: UInt64 = 0

    /// How long a full-size refinement waits after the request and after the last key: it keeps both cores busy
    /// for seconds on a large photo, and while keys follow each other only the proxies are wanted.
    public var refinementDelay: Double = 0.45

    private let context: RenderContext
    /// Full-size refinements render through a context of their own whose intermediates may take at most
    /// `refinementBytes`; past it the proxy frame stays. A zoom blur of a 24 MP photo needs 1.15 GiB at full
    /// size, and the explorer peaked at 3 GB resident through it, for a picture the proxy shows as well.
    private let refinementContext = RenderContext(options: .init(maxBytes: PreviewRenderer.refinementBytes))
    static let refinementBytes = 1 << 30
    private let mode: ColorMode
    private let unicode: Bool
    private let graphics: GraphicsProtocol
    /// Above this many pixels, the output is downscaled by the engine before chafa sees it.
    static let maximumDirectPixels = 4_000_000

    public init(context: RenderContext, mode: ColorMode, unicode: Bool, graphics: GraphicsProtocol = .symbols) {
        self.context = context
        self.mode = mode
        self.unicode = unicode
        self.graphics = graphics
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

    /// A key was handled: a full-size refinement not started yet waits `refinementDelay` from now.
    public func noteInput() {
        condition.lock()
        lastInput = DispatchTime.now().uptimeNanoseconds
        condition.unlock()
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
        let printer = graphics == .symbols ? nil : ChafaPixelPrinter(graphics: graphics)
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

            var frame = render(request, generation: generation, converter: converter, printer: printer, cancellation: cancellation)
            var refinement = request.refinement.map { PreviewRequest(image: $0, geometry: request.geometry) }
            refinement?.scalesToPreviewSize = request.scalesToPreviewSize
            refinement?.split = request.split.map { SplitPreview(before: $0.beforeRefinement ?? $0.before, fraction: $0.fraction) }
            while true {
                condition.lock()
                inProgress = nil
                // A cancelled frame is dropped: its replacement is already queued.
                if !cancellation.isCancelled, (finished?.generation ?? -1) <= generation { finished = frame }
                condition.broadcast()
                // Then the full-size refinement, unless a newer request is waiting.
                guard let next = refinement, frame.error == nil, pending == nil, !stopping, !cancellation.isCancelled else {
                    condition.unlock()
                    break
                }
                refinement = nil
                // A pause in input first; a newer request (or a stop) during it abandons the refinement.
                let delay = UInt64(max(0, refinementDelay) * 1e9)
                while pending == nil, !stopping {
                    let due = max(request.submitted, lastInput) + delay
                    let now = DispatchTime.now().uptimeNanoseconds
                    if now >= due { break }
                    _ = condition.wait(until: Date(timeIntervalSinceNow: Double(due - now) / 1e9))
                }
                guard pending == nil, !stopping else {
                    condition.unlock()
                    break
                }
                inProgress = cancellation
                condition.unlock()
                var refined = next
                refined.submitted = request.submitted
                let proxyFrame = frame
                frame = render(refined, generation: generation, converter: converter, printer: printer,
                               cancellation: cancellation, context: refinementContext)
                if frame.overBudget {
                    // The proxy frame again, saying it stays.
                    frame = proxyFrame
                    frame.refinementSkipped = true
                }
            }
        }
    }

    private func render(_ request: PreviewRequest, generation: Int, converter: ChafaConverter, printer: ChafaPixelPrinter?,
                        cancellation: RenderCancellation, context: RenderContext? = nil) -> PreviewFrame {
        let context = context ?? self.context
        let geometry = request.geometry
        let start = DispatchTime.now().uptimeNanoseconds
        func ms(_ from: UInt64, _ to: UInt64) -> Double { Double(to - from) / 1e6 }
        do {
            let (pixels, width, height) = try Self.pixels(for: request, context: context, cancellation: cancellation)
            let rendered = DispatchTime.now().uptimeNanoseconds
            let (columns, rows) = (geometry.cells.width, geometry.cells.height)
            var image: String?
            let cells: PreviewCells
            if let printer {
                image = printer.print(pixels, width: width, height: height, columns: columns, rows: rows)
                let blank = [Int32](repeating: -1, count: columns * rows)
                cells = PreviewCells(width: columns, height: rows, chars: [UInt32](repeating: 32, count: columns * rows),
                                     foreground: blank, background: blank)
            } else {
                cells = converter.convert(pixels, width: width, height: height, columns: columns, rows: rows)
            }
            let done = DispatchTime.now().uptimeNanoseconds
            var frame = PreviewFrame(generation: generation, geometry: geometry, cells: cells, error: nil,
                                     proxyFactor: request.proxyFactor, renderMs: ms(start, rendered), chafaMs: ms(rendered, done),
                                     latencyMs: ms(request.submitted, done))
            frame.image = image
            return frame
        } catch {
            let done = DispatchTime.now().uptimeNanoseconds
            var frame = PreviewFrame(generation: generation, geometry: geometry, cells: nil, error: "\(error)",
                                     proxyFactor: request.proxyFactor, renderMs: ms(start, done), chafaMs: 0,
                                     latencyMs: ms(request.submitted, done))
            if case RenderError.overBudget = error { frame.overBudget = true }
            return frame
        }
    }

    /// The RGBA8 pixels the cell converter gets: the shown rectangle at full resolution (it averages them into
    /// each cell), first downscaled by the engine when huge, and upscaled with nearest-neighbour when smaller
    /// than the preview so small outputs (QR codes, barcodes) stay sharp. A proxy a little smaller than the preview
    /// (`SampleLibrary.proxyCoverage`) is a photo, not a small output: it is left to the converter's smooth scaling.
    static func pixels(for request: PreviewRequest, context: RenderContext, cancellation: RenderCancellation? = nil) throws
        -> (bytes: [UInt8], width: Int, height: Int)
    {
        let rect = request.renderRect
        let target = request.geometry.pixelSize
        guard !rect.isInfinite else { throw RenderError.infiniteRect }
        var rendered: (bytes: [UInt8], width: Int, height: Int)
        let whole = Int(max(rect.width / Double(target.width), rect.height / Double(target.height)).rounded())
        if request.scalesToPreviewSize, whole > 1, !rect.isInfinite {
            // Block means by the whole factor nearest the ratio (each frame pixel decoded once, in the render),
            // handed to chafa as they are: measured on a 1080p frame in a 200×60 terminal (2 shared cores),
            // chafa took ~90 ms of a ~105 ms frame on the whole frame.
            let blocks = request.image.cropped(to: rect).downsampled(by: whole)
            rendered = try context.renderRGBA8(blocks, rect: blocks.extent, cancellation: cancellation)
        } else if rect.width * rect.height > Double(maximumDirectPixels) {
            let scale = min(Double(target.width) / rect.width, Double(target.height) / rect.height) * 2
            // Only the shown rectangle, scaled (a zoomed view shows part of the image).
            let scaled = request.image.transformed(by: .scale(x: scale, y: scale))
            let scaledRect = AffineTransform.scale(x: scale, y: scale).apply(to: rect).integral
            rendered = try context.renderRGBA8(scaled, rect: scaledRect, cancellation: cancellation)
        } else {
            rendered = try context.renderRGBA8(request.image, rect: rect, cancellation: cancellation)
        }
        // Small outputs are enlarged so they stay sharp (a video frame shrunk above is left to chafa).
        let shrunk = request.scalesToPreviewSize && rendered.width * 2 >= target.width && rendered.height * 2 >= target.height
        let coverage = request.proxyFactor > 1 ? SampleLibrary.proxyCoverage : 1
        if !shrunk, Double(rendered.width) < Double(target.width) * coverage
            || Double(rendered.height) < Double(target.height) * coverage {
            rendered = (upscaleNearest(rendered.bytes, width: rendered.width, height: rendered.height,
                                       to: target.width, target.height), target.width, target.height)
        }
        if let split = request.split {
            // The source over the same rectangle, so both sides line up pixel for pixel.
            var sourceRequest = request
            sourceRequest.image = split.before
            sourceRequest.split = nil
            let source = try pixels(for: sourceRequest, context: context, cancellation: cancellation)
            if source.width == rendered.width, source.height == rendered.height {
                composeSplit(&rendered.bytes, before: source.bytes, width: rendered.width, height: rendered.height,
                             fraction: split.fraction, dividerWidth: max(2, rendered.width / max(1, request.geometry.cells.width)))
            }
        }
        composeOverCheckerboard(&rendered.bytes, width: rendered.width, height: rendered.height)
        return rendered
    }

    /// Puts `before` left of the divider (at `fraction` of the width) and a white divider `dividerWidth` pixels
    /// wide over it: done on the pixels, so it shows the same however they are drawn.
    static func composeSplit(_ bytes: inout [UInt8], before: [UInt8], width: Int, height: Int, fraction: Double,
                             dividerWidth: Int) {
        let divider = min(width, max(0, Int((Double(width) * fraction).rounded())))
        let dividerEnd = min(width, divider + dividerWidth)
        bytes.withUnsafeMutableBufferPointer { p in
            before.withUnsafeBufferPointer { b in
                for y in 0..<height {
                    let row = y * width * 4
                    for i in row..<(row + divider * 4) { p[i] = b[i] }
                    for i in (row + divider * 4)..<(row + dividerEnd * 4) { p[i] = 255 }
                }
            }
        }
    }

    /// Transparent pixels shown over a grey checkerboard, as image editors show them (on the terminal's own
    /// background a transparent output, such as text, would be invisible). Blended on the encoded values, as
    /// editors do; squares of 8×8 pixels (one cell wide, half a cell tall).
    static func composeOverCheckerboard(_ bytes: inout [UInt8], width: Int, height: Int) {
        let light: UInt32 = 204, dark: UInt32 = 153
        bytes.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let alpha = UInt32(p[i + 3])
                    if alpha == 255 { continue }
                    let matte = ((x >> 3) ^ (y >> 3)) & 1 == 0 ? light : dark
                    for c in 0..<3 {
                        p[i + c] = UInt8((UInt32(p[i + c]) * alpha + matte * (255 - alpha) + 127) / 255)
                    }
                    p[i + 3] = 255
                }
            }
        }
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
