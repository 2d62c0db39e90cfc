import Foundation
import Testing
@testable import FilterEngine

/// Catalogue-wide render checks that every filter gets without a test of its own: the bands and threads a render
/// is split into never change a pixel, and each filter's look at its defaults changes only on purpose.
@Suite struct CatalogueRenderTests {
    /// The window each filter is rendered in: its output around the stock 64×48 input, with a border of 8 pixels
    /// (or that square of an infinite output); an output elsewhere (a perspective's corners) from its own corner.
    static func window(_ image: Image) -> Rect {
        let extent = image.extent
        let around = extent.intersection(Rect(x: -8, y: -8, width: 80, height: 64))
        if !around.isEmpty || extent.isEmpty || extent.isInfinite { return around }
        return extent.intersection(Rect(x: extent.minX.rounded(.down), y: extent.minY.rounded(.down), width: 80, height: 64))
    }

    static func output(_ name: String) throws -> Image { try RegistryTests.stocked(name).makeOutputImage() }

    /// Filters whose last float bits depend on where a band starts, and by how much at most: CIBoxBlur's
    /// vertical running sum starts afresh at each band's first row, so its rounding differs (measured 5.4e-7,
    /// far below one 8-bit step of 3.9e-3). Every other filter must give identical floats.
    static let bandRounding: [String: Float] = ["CIBoxBlur": 1e-6]

    /// Rendered whole in one band, row by row, and in bands of 5 rows on 3 threads: the same floats, for every
    /// filter at its defaults (a general kernel whose region of interest is too small shows here).
    @Test(arguments: FilterRegistry.implementedNames)
    func bandedEqualsWhole(_ name: String) throws {
        let tolerance = Self.bandRounding[name] ?? 0
        let image = try Self.output(name)
        let rect = Self.window(image)
        if rect.isEmpty { return }
        let whole = try TestImages.render(image, rect, context: RenderContext(options: .init(threads: 1, bandHeight: 10_000)))
        for (threads, band) in [(1, 1), (3, 5), (2, 16)] {
            let banded = try TestImages.render(image, rect, context: RenderContext(options: .init(threads: threads, bandHeight: band)))
            var differing = 0
            for i in 0..<whole.rect.area where largestComponent(whole.pixels[i] - banded.pixels[i]) > tolerance
                || (whole.pixels[i] != banded.pixels[i] && tolerance == 0) { differing += 1 }
            #expect(differing == 0, """
                \(name): \(differing) pixels differ with \(threads) threads in bands of \(band) rows \
                (by up to \(TestImages.maxDifference(whole, banded)))
                """)
        }
    }

    // MARK: Golden hashes

    /// The checked-in table: one line per filter, "name hash", hash of its 8-bit output at its defaults.
    static let tableURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden-hashes.txt")

    /// How to refresh the table after a change of look made on purpose.
    static let refreshCommand = "scripts/refresh-golden (or GOLDEN_UPDATE=1 swift test --filter CatalogueRenderTests/goldenHashes)"

    /// FNV-1a (64 bit) over the window's size and its RGBA8 bytes, top row first.
    static func hash(_ name: String) throws -> String {
        let image = try output(name)
        let rect = window(image)
        guard !rect.isEmpty else { return "empty" }
        let rgba = try RenderContext().renderRGBA8(image, rect: rect)
        var h: UInt64 = 0xcbf29ce484222325
        func mix(_ byte: UInt8) { h = (h ^ UInt64(byte)) &* 0x100000001b3 }
        for v in [rgba.width, rgba.height] { for shift in stride(from: 0, to: 32, by: 8) { mix(UInt8((v >> shift) & 0xff)) } }
        for byte in rgba.bytes { mix(byte) }
        return String(h, radix: 16)
    }

    /// The filters of filters.json (not ones registered at run time) that render here.
    static var goldenNames: [String] {
        Catalog.embedded.filters.map(\.name).filter { FilterRegistry.implementation(for: $0) != nil }
    }

    /// Every filter's 8-bit output at its defaults on the stock input has the hash of the checked-in table, so a
    /// refactor that changes a look fails here, naming the filters. A filter not in the table yet is only noted;
    /// `GOLDEN_UPDATE=1` rewrites the table from the current renders.
    @Test func goldenHashes() throws {
        var table: [String: String] = [:]
        if let text = try? String(contentsOf: Self.tableURL, encoding: .utf8) {
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let parts = line.split(separator: " ")
                if parts.count == 2 { table[String(parts[0])] = String(parts[1]) }
            }
        }
        var current: [(String, String)] = []
        var changed: [String] = [], missing: [String] = []
        for name in Self.goldenNames {
            let hash: String
            do { hash = try Self.hash(name) } catch { hash = "error" }
            current.append((name, hash))
            switch table[name] {
            case nil: missing.append(name)
            case let old? where old != hash: changed.append("\(name) (\(old) → \(hash))")
            default: break
            }
        }
        if ProcessInfo.processInfo.environment["GOLDEN_UPDATE"] == "1" {
            let header = "# Hash of each filter's 8-bit output at its defaults on the stock 64×48 input "
                + "(Tests/FilterEngineTests/CatalogueRenderTests.swift).\n# Refresh after a change of look made on purpose: "
                + Self.refreshCommand + "\n"
            try (header + current.map { "\($0.0) \($0.1)\n" }.joined()).write(to: Self.tableURL, atomically: true, encoding: .utf8)
            print("golden hashes: wrote \(current.count) filters to \(Self.tableURL.path) (\(changed.count) changed, \(missing.count) new)")
            return
        }
        if !missing.isEmpty {
            print("golden hashes: no hash yet for \(missing.joined(separator: ", ")); to pin them: \(Self.refreshCommand)")
        }
        let gone = Set(table.keys).subtracting(current.map(\.0))
        if !gone.isEmpty { print("golden hashes: the table names filters that no longer render: \(gone.sorted().joined(separator: ", "))") }
        #expect(changed.isEmpty, """
            \(changed.count) filters render differently at their defaults: \(changed.joined(separator: ", ")).
            If that is on purpose, refresh the table: \(Self.refreshCommand)
            """)
    }
}
