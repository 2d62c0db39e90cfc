import FilterEngine
import Foundation

/// Keypress-to-preview latency without a terminal: for each implemented filter, repeatedly step its first
/// slider (as ← → do), build the framed output, submit it to the same `PreviewRenderer` the explorer uses and
/// wait for the chafa cells. Drawing the cells with ncurses is not included (it is well under a millisecond).
public enum ExplorerBenchmark {
    public struct Sample {
        public let filter: String
        public let latencyMs: Double
        public let renderMs: Double
        public let chafaMs: Double
    }

    /// As the explorer does: a large photo previews from a proxy (the figure is that first frame; the
    /// explorer's full-size refinement that follows in the background is not waited for).
    public static func measure(imagePath: String?, columns: Int, rows: Int, repeats: Int = 7,
                               mode: ColorMode = .indexed256, only: [String]? = nil) throws -> [Sample] {
        let samples = try SampleLibrary(imagePath: imagePath)
        let layout = ExplorerLayout(columns: columns, rows: rows, controlCount: 4)
        let context = RenderContext(options: .init(cacheBytes: 256 << 20))
        let renderer = PreviewRenderer(context: context, mode: mode, unicode: true)
        defer { renderer.stop() }
        let proxyFactor = samples.proxyFactor(forPreview: PreviewGeometry(imageRect: samples.sourceRect, area: layout.preview).pixelSize)
        var results: [Sample] = []
        for name in FilterRegistry.implementedNames where only.map({ $0.contains(name) }) ?? true {
            guard let descriptor = Catalog.builtIn.filter(named: name) else { continue }
            let session = try FilterSession(descriptor: descriptor, samples: samples)
            let slider = session.controls.first { if case .slider = $0.kind { true } else { false } }
            for i in 0..<(repeats + 1) {
                let start = DispatchTime.now().uptimeNanoseconds
                if let slider, case .slider(let spec) = slider.kind,
                   case .number(let n)? = session.value(forKey: slider.input.key) {
                    try? session.set(.number(spec.stepped(n, by: i % 2 == 0 ? 1 : -1)), forKey: slider.input.key)
                }
                let framing = try session.framedOutput(proxyFactor: proxyFactor, context: context)
                guard !framing.rect.isEmpty else { break }
                var request = PreviewRequest(image: framing.image,
                                             geometry: PreviewGeometry(imageRect: framing.fullSizeRect, area: layout.preview),
                                             proxyFactor: framing.proxyFactor)
                request.submitted = start
                let generation = renderer.submit(request)
                guard let frame = renderer.waitForFrame(atLeast: generation) else {
                    throw FilterExplorerError("\(name): no preview after 10 s")
                }
                if let error = frame.error { throw FilterExplorerError("\(name): \(error)") }
                // The first round warms caches (and the catalogue); it is not counted.
                if i > 0 {
                    results.append(Sample(filter: name, latencyMs: frame.latencyMs, renderMs: frame.renderMs,
                                          chafaMs: frame.chafaMs))
                }
            }
        }
        return results
    }

    public static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    public static func run(imagePath: String?, columns: Int, rows: Int, only: [String]? = nil) throws {
        let started = DispatchTime.now().uptimeNanoseconds
        let samples = try SampleLibrary(imagePath: imagePath)
        let layout = ExplorerLayout(columns: columns, rows: rows, controlCount: 4)
        let factor = samples.proxyFactor(forPreview: PreviewGeometry(imageRect: samples.sourceRect, area: layout.preview).pixelSize)
        let results = try measure(imagePath: imagePath, columns: columns, rows: rows, only: only)
        let rect = samples.sourceRect
        print("keypress → preview (engine render + chafa), \(columns)×\(rows) terminal, preview area "
              + "\(layout.preview.width)×\(layout.preview.height) cells, \(ProcessInfo.processInfo.activeProcessorCount) cores, "
              + "source \(Int(rect.width))×\(Int(rect.height))" + (factor > 1 ? ", proxy ÷\(factor)" : ""))
        func column(_ text: String) -> String { text.padding(toLength: 30, withPad: " ", startingAt: 0) }
        print(column("filter") + "  median     p95  render   chafa")
        for name in Array(Set(results.map(\.filter))).sorted() {
            let mine = results.filter { $0.filter == name }
            print(column(name) + String(format: "%6.1fms %6.1fms %6.1fms %6.1fms",
                                        percentile(mine.map(\.latencyMs), 0.5), percentile(mine.map(\.latencyMs), 0.95),
                                        percentile(mine.map(\.renderMs), 0.5), percentile(mine.map(\.chafaMs), 0.5)))
        }
        let all = results.map(\.latencyMs)
        print(String(format: "all %d samples over %d filters: median %.1f ms, p95 %.1f ms (%.1f s in all)", all.count,
                     Set(results.map(\.filter)).count, percentile(all, 0.5), percentile(all, 0.95),
                     Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9))
    }
}
