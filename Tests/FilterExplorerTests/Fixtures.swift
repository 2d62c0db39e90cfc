import Foundation
import FilterEngine
@testable import FilterExplorer

/// The files in Tests/FilterExplorerTests/Fixtures, found next to this source file.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    static func text(_ name: String) throws -> String { try String(contentsOf: url(name), encoding: .utf8) }

    /// mini-catalog.json: nine filters, categories out of order, two categories outside the fixed list.
    static var catalogURL: URL { url("mini-catalog.json") }

    /// A fresh list of the mini catalogue (fresh, because expand flags are state).
    static func list() throws -> FiltersList { FiltersList(catalog: try Catalog(contentsOf: catalogURL)) }
}
