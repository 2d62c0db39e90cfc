import Foundation
import Testing
@testable import FilterEngine

/// Where filters.json comes from: Apple's reference (vendored in Catalog/reference) and our custom filters
/// (Catalog/custom-filters.json), merged by scripts/build-catalog.py, its one maker.
struct CatalogSources {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let reference = root.appendingPathComponent("Catalog/reference/coreimage-attributes.json")
    static let custom = root.appendingPathComponent("Catalog/custom-filters.json")
    static let script = root.appendingPathComponent("scripts/build-catalog.py")

    let appleNames: Set<String>
    let customNames: Set<String>

    static func load() throws -> CatalogSources {
        func object(_ url: URL) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], "\(url.path)")
        }
        let apple = try #require(try object(reference)["filters"] as? [String: Any])
        let custom = try #require(try object(custom)["filters"] as? [[String: Any]])
        return CatalogSources(appleNames: Set(apple.keys), customNames: Set(custom.compactMap { $0["name"] as? String }))
    }

    /// Apple's filter names, or nil when the sources cannot be read (the catalogue tests then treat every filter
    /// as Apple's).
    static let appleNamesIfPresent: Set<String>? = try? load().appleNames

    static let python: URL? = ["/usr/bin/python3", "/usr/local/bin/python3"].map(URL.init(fileURLWithPath:))
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// Runs build-catalog.py with `arguments`: exit status and output (stdout, then stderr).
    static func runScript(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        guard let python else { throw FilterError("python3 is not installed") }
        process.executableURL = python
        process.arguments = [script.path] + arguments
        // Files, not pipes: reading a pipe while tests run in parallel can fail with EINTR.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("build-catalog-\(UUID().uuidString).txt")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, try String(contentsOf: log, encoding: .utf8))
    }
}

@Suite(.enabled(if: CatalogSources.python != nil, "python3 is not installed: the catalogue script cannot run"))
struct CatalogSourceTests {
    /// filters.json is exactly what the script writes from the sources (run scripts/build-catalog.py to fix).
    @Test func filtersJSONIsUpToDate() throws {
        let run = try CatalogSources.runScript(["--check"])
        #expect(run.status == 0, "\(run.output)")
    }

    /// A custom entry is merged into the catalogue, with a category of its own, no Apple version and no
    /// "Built In"; Apple's filters stay as they were.
    @Test func customFiltersAreMerged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("custom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let custom = folder.appendingPathComponent("custom.json"), out = folder.appendingPathComponent("filters.json")
        try """
            {"categories": [{"name": "CICategoryOurs", "displayName": "Ours", "description": "Our own filters."}],
             "filters": [{"name": "OurWarmFade", "displayName": "Warm Fade", "description": "A warm tone.",
               "categories": ["CICategoryOurs"], "fidelity": {"status": "approximate", "evidence": "ours"},
               "inputs": [{"key": "inputImage", "class": "CIImage", "displayName": "Image", "description": "The image."}]}]}
            """.write(to: custom, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: CatalogSources.root.appendingPathComponent("filters.json"), to: out)
        let run = try CatalogSources.runScript(["--custom", custom.path, "--out", out.path])
        #expect(run.status == 0, "\(run.output)")
        let merged = try Catalog(contentsOf: out)
        // The temporary custom file replaces the repository's own custom filters.
        let ownCustom = try JSONSerialization.jsonObject(with: Data(contentsOf: CatalogSources.root.appendingPathComponent("Catalog/custom-filters.json"))) as? [String: Any]
        let ownCount = (ownCustom?["filters"] as? [Any])?.count ?? 0
        #expect(merged.filters.count == Catalog.embedded.filters.count - ownCount + 1)
        let ours = try #require(merged.filter(named: "OurWarmFade"))
        #expect(ours.availableMac == nil && ours.categories == ["CICategoryOurs"])
        #expect(merged.categories.last == CategoryInfo(name: "CICategoryOurs", displayName: "Ours", description: "Our own filters."))
        #expect(merged.filter(named: "CISepiaTone")?.description == Catalog.embedded.filter(named: "CISepiaTone")?.description)
        // A custom filter may not take an Apple name.
        try String(contentsOf: custom, encoding: .utf8).replacingOccurrences(of: "OurWarmFade", with: "CISepiaTone")
            .write(to: custom, atomically: true, encoding: .utf8)
        let clash = try CatalogSources.runScript(["--custom", custom.path, "--out", out.path])
        #expect(clash.status != 0 && clash.output.contains("cannot take the name of an Apple filter"), "\(clash.output)")
    }
}
