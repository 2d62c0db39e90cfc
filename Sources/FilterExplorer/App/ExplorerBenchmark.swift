import FilterEngine
import Foundation

/// What the person waits for, without a terminal: for each implemented filter, repeatedly step its first slider
/// (as ← → do), build the framed output, submit it to the same `PreviewRenderer` the explorer uses, wait for the
/// cells (`ChafaConverter`: block elements in truecolor, chafa otherwise), and write the escape sequences the
/// explorer would write for them (`DirectCellWriter`, only the cells that changed) to /dev/null: keypress → last
/// byte written. Not included: ncurses' update of the rest of
/// the screen (a few hundred bytes after a step) and the terminal's own time to parse and paint the bytes.
public enum ExplorerBenchmark {
    public struct Sample {
        public let filter: String
        public let latencyMs: Double
        public let renderMs: Double
        public let chafaMs: Double
        /// The bytes written for the frame.
        public let bytes: Int
    }

    /// The barcode descriptor given to CIBarcodeGenerator, which has no default (the explorer's stock value).
    public static let stockBarcodeDescriptor = "qr:message=CIFilterTest"

    /// Gives inputs without a default that the filter cannot run without (a barcode descriptor) a stock value.
    static func fillRequiredInputs(_ session: FilterSession) {
        for control in session.controls where control.input.valueClass == .barcodeDescriptor {
            if session.value(forKey: control.input.key) == nil {
                try? session.setText(stockBarcodeDescriptor, forKey: control.input.key)
            }
        }
    }

    /// Writes a frame's bytes where the benchmark sends them and says how long that took.
    final class Sink {
        private let handle = FileHandle(forWritingAtPath: "/dev/null")
        func write(_ bytes: [UInt8]) {
            guard !bytes.isEmpty else { return }
            handle?.write(Data(bytes))
        }
    }

    /// The escape sequences for a frame's cells at the preview's place, all of them owned (nothing drawn over).
    static func bytes(_ frame: PreviewFrame, writer: inout DirectCellWriter, columns: Int, rows: Int) -> [UInt8] {
        guard let cells = frame.cells else { return [] }
        let origin = frame.geometry.cells
        return writer.bytes(for: cells, originX: origin.x, originY: origin.y, screenColumns: columns, screenRows: rows,
                            owned: [Bool](repeating: true, count: cells.width * cells.height),
                            rowsRewritten: [Bool](repeating: false, count: cells.height))
    }

    /// As the explorer does: a large photo previews from a proxy (the figure is that first frame; the
    /// explorer's full-size refinement that follows in the background is not waited for).
    public static func measure(imagePath: String?, columns: Int, rows: Int, repeats: Int = 7,
                               mode: ColorMode = .truecolor, only: [String]? = nil) throws -> [Sample] {
        let samples = try SampleLibrary(imagePath: imagePath)
        samples.waitForFullSource()
        let layout = ExplorerLayout(columns: columns, rows: rows, controlCount: 4)
        let context = RenderContext(options: .init(cacheBytes: 256 << 20))
        let renderer = PreviewRenderer(context: context, mode: mode, unicode: true)
        defer { renderer.stop() }
        let proxyFactor = samples.proxyFactor(forPreview: PreviewGeometry(imageRect: samples.sourceRect, area: layout.preview).pixelSize)
        let sink = Sink()
        var results: [Sample] = []
        for name in FilterRegistry.implementedNames where only.map({ $0.contains(name) }) ?? true {
            guard let descriptor = Catalog.builtIn.filter(named: name) else { continue }
            let session = try FilterSession(descriptor: descriptor, samples: samples)
            fillRequiredInputs(session)
            let slider = session.controls.first { if case .slider = $0.kind { true } else { false } }
            var writer = DirectCellWriter(mode: mode)
            for i in 0..<(repeats + 1) {
                let start = DispatchTime.now().uptimeNanoseconds
                if let slider, case .slider(let spec) = slider.kind,
                   case .number(let n)? = session.value(forKey: slider.input.key) {
                    try? session.set(.number(spec.stepped(n, by: i % 2 == 0 ? 1 : -1)), forKey: slider.input.key)
                }
                let framing = try session.framedOutput(proxyFactor: proxyFactor, context: context)
                guard !framing.rect.isEmpty else { break }
                let fullRect = proxyFactor > 1 ? try session.framedOutput(context: context).fullSizeRect : framing.fullSizeRect
                var request = PreviewRequest(image: framing.image, geometry: PreviewGeometry(imageRect: fullRect, area: layout.preview),
                                             proxyFactor: framing.proxyFactor)
                request.submitted = start
                let generation = renderer.submit(request)
                guard let frame = renderer.waitForFrame(atLeast: generation) else {
                    throw FilterExplorerError("\(name): no preview after 10 s")
                }
                if let error = frame.error { throw FilterExplorerError("\(name): \(error)") }
                let out = bytes(frame, writer: &writer, columns: columns, rows: rows)
                sink.write(out)
                let end = DispatchTime.now().uptimeNanoseconds
                // The first round warms caches (and the catalogue); it is not counted.
                if i > 0 {
                    results.append(Sample(filter: name, latencyMs: Double(end - start) / 1e6, renderMs: frame.renderMs,
                                          chafaMs: frame.chafaMs, bytes: out.count))
                }
            }
        }
        return results
    }

    /// Launch → first frame's last byte: the image opened (a large JPEG decoded at reduced size), the filter's
    /// session made, its proxy rendered and converted, the whole preview written.
    public static func firstFrame(imagePath: String?, filter: String, columns: Int, rows: Int,
                                  mode: ColorMode = .truecolor) throws -> (ms: Double, proxyFactor: Int, bytes: Int) {
        let start = DispatchTime.now().uptimeNanoseconds
        let samples = try SampleLibrary(imagePath: imagePath)
        let layout = ExplorerLayout(columns: columns, rows: rows, controlCount: 4)
        let context = RenderContext(options: .init(cacheBytes: 256 << 20))
        let renderer = PreviewRenderer(context: context, mode: mode, unicode: true)
        defer { renderer.stop() }
        guard let descriptor = Catalog.builtIn.filter(named: filter) else { throw FilterExplorerError("no filter named \(filter)") }
        let session = try FilterSession(descriptor: descriptor, samples: samples)
        fillRequiredInputs(session)
        let proxyFactor = samples.proxyFactor(forPreview: PreviewGeometry(imageRect: samples.sourceRect, area: layout.preview).pixelSize)
        let framing = try session.framedOutput(proxyFactor: proxyFactor, context: context)
        var request = PreviewRequest(image: framing.image, geometry: PreviewGeometry(imageRect: samples.sourceRect, area: layout.preview),
                                     proxyFactor: framing.proxyFactor)
        request.submitted = start
        let generation = renderer.submit(request)
        guard let frame = renderer.waitForFrame(atLeast: generation, timeout: 60) else {
            throw FilterExplorerError("\(filter): no first frame after 60 s")
        }
        if let error = frame.error { throw FilterExplorerError("\(filter): \(error)") }
        var writer = DirectCellWriter(mode: mode)
        let out = bytes(frame, writer: &writer, columns: columns, rows: rows)
        Sink().write(out)
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, framing.proxyFactor, out.count)
    }

    public static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    public static func run(imagePath: String?, columns: Int, rows: Int, only: [String]? = nil, mode: ColorMode = .truecolor) throws {
        let started = DispatchTime.now().uptimeNanoseconds
        let first = try firstFrame(imagePath: imagePath, filter: only?.first ?? "CISepiaTone", columns: columns, rows: rows, mode: mode)
        let samples = try SampleLibrary(imagePath: imagePath)
        let layout = ExplorerLayout(columns: columns, rows: rows, controlCount: 4)
        let factor = samples.proxyFactor(forPreview: PreviewGeometry(imageRect: samples.sourceRect, area: layout.preview).pixelSize)
        let results = try measure(imagePath: imagePath, columns: columns, rows: rows, mode: mode, only: only)
        let rect = samples.sourceRect
        print("keypress → last byte of the preview written (engine render + cells + escape sequences to /dev/null), "
              + "\(columns)×\(rows) terminal, \(mode.rawValue) colours, preview area "
              + "\(layout.preview.width)×\(layout.preview.height) cells, \(ProcessInfo.processInfo.activeProcessorCount) cores, "
              + "source \(Int(rect.width))×\(Int(rect.height))" + (factor > 1 ? ", proxy ÷\(factor)" : ""))
        print(String(format: "first frame (%@, open → last byte): %.0f ms%@, %d bytes", only?.first ?? "CISepiaTone", first.ms,
                     first.proxyFactor > 1 ? " (proxy ÷\(first.proxyFactor))" : "", first.bytes))
        func column(_ text: String) -> String { text.padding(toLength: 30, withPad: " ", startingAt: 0) }
        print(column("filter") + "  median     p95  render   cells   bytes")
        for name in Array(Set(results.map(\.filter))).sorted() {
            let mine = results.filter { $0.filter == name }
            print(column(name) + String(format: "%6.1fms %6.1fms %6.1fms %6.1fms %7.0f",
                                        percentile(mine.map(\.latencyMs), 0.5), percentile(mine.map(\.latencyMs), 0.95),
                                        percentile(mine.map(\.renderMs), 0.5), percentile(mine.map(\.chafaMs), 0.5),
                                        percentile(mine.map { Double($0.bytes) }, 0.5)))
        }
        let all = results.map(\.latencyMs)
        print(String(format: "all %d samples over %d filters: median %.1f ms, p95 %.1f ms (%.1f s in all)", all.count,
                     Set(results.map(\.filter)).count, percentile(all, 0.5), percentile(all, 0.95),
                     Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9))
    }
}
