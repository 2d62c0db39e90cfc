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

    public static func measure(imagePath: String?, columns: Int, rows: Int, repeats: Int = 7,
                               mode: ColorMode = .indexed256) throws -> [Sample] {
        let samples = try SampleLibrary(imagePath: imagePath)
        let layout = ExplorerLayout(columns: columns, rows: rows, controlCount: 4)
        let renderer = PreviewRenderer(context: RenderContext(), mode: mode, unicode: true)
        defer { renderer.stop() }
        var results: [Sample] = []
        for name in FilterRegistry.implementedNames {
            guard let descriptor = Catalog.builtIn.filter(named: name) else { continue }
            let session = try FilterSession(descriptor: descriptor, samples: samples)
            let slider = session.controls.first { if case .slider = $0.kind { true } else { false } }
            for i in 0..<(repeats + 1) {
                let start = DispatchTime.now().uptimeNanoseconds
                if let slider, case .slider(let spec) = slider.kind,
                   case .number(let n)? = session.value(forKey: slider.input.key) {
                    try? session.set(.number(spec.stepped(n, by: i % 2 == 0 ? 1 : -1)), forKey: slider.input.key)
                }
                let framing = try session.framedOutput()
                guard !framing.rect.isEmpty else { break }
                var request = PreviewRequest(image: framing.image,
                                             geometry: PreviewGeometry(imageRect: framing.rect, area: layout.preview))
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

    public static func run(imagePath: String?, columns: Int, rows: Int) throws {
        let results = try measure(imagePath: imagePath, columns: columns, rows: rows)
        let layout = ExplorerLayout(columns: columns, rows: rows, controlCount: 4)
        print("keypress → preview (engine render + chafa), \(columns)×\(rows) terminal, preview area "
              + "\(layout.preview.width)×\(layout.preview.height) cells, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        func column(_ text: String) -> String { text.padding(toLength: 30, withPad: " ", startingAt: 0) }
        print(column("filter") + "  median     p95  render   chafa")
        for name in Array(Set(results.map(\.filter))).sorted() {
            let mine = results.filter { $0.filter == name }
            print(column(name) + String(format: "%6.1fms %6.1fms %6.1fms %6.1fms",
                                        percentile(mine.map(\.latencyMs), 0.5), percentile(mine.map(\.latencyMs), 0.95),
                                        percentile(mine.map(\.renderMs), 0.5), percentile(mine.map(\.chafaMs), 0.5)))
        }
        let all = results.map(\.latencyMs)
        print(String(format: "all %d samples over %d filters: median %.1f ms, p95 %.1f ms", all.count,
                     Set(results.map(\.filter)).count, percentile(all, 0.5), percentile(all, 0.95)))
    }
}
