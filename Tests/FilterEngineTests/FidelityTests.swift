import Foundation
import Testing
@testable import FilterEngine

/// Every filter says how sure we are of it (filters.json "fidelity"), and the catalogue reads that strictly.
@Suite struct FidelityTests {
    @Test func everyFilterHasAStatusAndEvidence() {
        for filter in Catalog.builtIn.filters {
            guard let fidelity = filter.fidelity else {
                Issue.record("\(filter.name) has no fidelity status")
                continue
            }
            #expect(!fidelity.evidence.trimmingCharacters(in: .whitespaces).isEmpty, "\(filter.name)")
            #expect((fidelity.status == .unavailable) == (filter.unavailableReason != nil), "\(filter.name)")
            if fidelity.status == .verified || fidelity.status == .formula {
                #expect(FilterRegistry.implementation(for: filter.name) != nil, "\(filter.name) is \(fidelity.status) but not implemented")
            }
        }
    }

    /// A verified filter names the conformance cases it matches; each must be a case of the harness that passes
    /// (not one of its expected failures), for this filter.
    @Test func verifiedFiltersNameAPassingConformanceCase() {
        let cases = ConformanceTests.allCaseIDs
        if cases.isEmpty { print("fidelity: ../shared/conformance is missing; checking only the form of the verified evidence") }
        for filter in Catalog.builtIn.filters where filter.fidelity?.status == .verified {
            let named = filter.fidelity!.conformanceCases
            #expect(!named.isEmpty, "\(filter.name) names no conformance case")
            for id in named {
                #expect(id.hasPrefix(filter.name + "/"), "\(filter.name) names another filter's case \(id)")
                #expect(ConformanceTests.expectedFailures[id] == nil, "\(filter.name): \(id) is an expected failure of the harness")
                if !cases.isEmpty { #expect(cases.contains(id), "\(filter.name): no conformance case \(id)") }
            }
        }
    }

    /// Statuses follow Apple's renders: a filter with a render in ../shared/conformance names each of its
    /// distinct cases in its evidence ("conformance CIFilter/case", with what it shows); it is verified when every
    /// one of them matches, and approximate (neither verified nor formula) when any is an expected failure.
    @Test(.enabled(if: !ConformanceTests.cases.isEmpty, "../shared/conformance is missing: statuses not held to Apple's renders"))
    func statusesFollowTheConformanceResults() {
        let byFilter = Dictionary(grouping: ConformanceTests.cases, by: \.filter)
        for (name, cases) in byFilter.sorted(by: { $0.key < $1.key }) {
            guard let fidelity = Catalog.builtIn.filter(named: name)?.fidelity else {
                Issue.record("\(name) has Apple renders but no catalogue entry with a fidelity")
                continue
            }
            let named = Set(fidelity.conformanceCases)
            for id in cases.map(\.id) where !named.contains(id) {
                Issue.record("\(name): its evidence does not name its conformance case \(id)")
            }
            let failing = cases.filter { ConformanceTests.expectedFailures[$0.id] != nil }.map(\.id)
            if failing.isEmpty {
                #expect(fidelity.status == .verified, "\(name): every Apple render matches, so it is verified, not \(fidelity.status)")
            } else {
                #expect(fidelity.status == .approximate, "\(name): \(failing.joined(separator: ", ")) fails, so it is approximate, not \(fidelity.status)")
            }
        }
    }

    @Test func countsPerStatus() {
        var counts: [Fidelity.Status: Int] = [:]
        let catalog = Catalog.builtIn
        for filter in catalog.filters { counts[filter.fidelity?.status ?? .approximate, default: 0] += 1 }
        print("fidelity: " + Fidelity.Status.allCases.map { "\($0.rawValue) \(counts[$0, default: 0])" }.joined(separator: ", "))
        #expect(counts.values.reduce(0, +) == catalog.filters.count)
        #expect(counts[.unavailable] == 5)
    }

    /// The counts in docs/filters.md's table and in the README's summary stay in step with the catalogue's Apple
    /// filters (custom ones are not counted there, so adding one touches neither page).
    @Test func docsShowTheCounts() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/filters.md"), encoding: .utf8)
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let summary = readme.split(separator: "\n\n").first { $0.contains(" verified against") }.map { $0.replacingOccurrences(of: "\n", with: " ") }
        for status in Fidelity.Status.allCases {
            let apple = CatalogSources.appleNamesIfPresent
            let count = Catalog.embedded.filters.filter { $0.fidelity?.status == status && apple?.contains($0.name) ?? true }.count
            let row = page.split(separator: "\n").first { $0.hasPrefix("| \(status.rawValue) (") }
            #expect(row?.contains(" | \(count) | ") == true, "docs/filters.md: \(status.rawValue) should say \(count)")
            #expect(summary?.contains(" \(count) \(status.rawValue)") == true, "README.md's fidelity line: \(count) \(status.rawValue)")
        }
    }

    @Test func conformanceCasesAreReadFromTheEvidence() {
        let fidelity = Fidelity(status: .verified, evidence:
            "conformance CIBoxBlur/ABC (iOS 12.1), and conformance CIBoxBlur/def-2; not a conformance case.")
        #expect(fidelity.conformanceCases == ["CIBoxBlur/ABC", "CIBoxBlur/def-2"])
    }

    // MARK: Strict parsing

    func load(_ fidelity: String, extra: String = "") throws -> Catalog {
        let json = """
            {"source": "test", "categories": [{"name": "CICategoryBlur", "displayName": "Blur"}],
             "filters": [{"name": "CITest", "displayName": "Test", "description": "A test",
             "categories": ["CICategoryBlur"], \(extra) "fidelity": \(fidelity), "inputs": []}]}
            """
        return try Catalog(json: Data(json.utf8), source: "test.json")
    }

    func expectError(_ fidelity: String, extra: String = "", _ message: String) {
        do {
            _ = try load(fidelity, extra: extra)
            Issue.record("loaded a bad fidelity (expected \"\(message)\")")
        } catch let error as CatalogError {
            #expect(error.filter == "CITest")
            #expect(error.message.contains(message), "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func goodFidelityLoads() throws {
        let catalog = try load(#"{"status": "formula", "evidence": "Apple's reference: a sum"}"#)
        #expect(catalog.filter(named: "CITest")?.fidelity == Fidelity(status: .formula, evidence: "Apple's reference: a sum"))
        let unavailable = try load(#"{"status": "unavailable", "evidence": "needs a model"}"#,
                                   extra: #""unavailableReason": "needs a model","#)
        #expect(unavailable.filter(named: "CITest")?.fidelity?.status == .unavailable)
    }

    @Test func badFidelityIsRejected() {
        expectError(#"{"status": "sure", "evidence": "x"}"#, "unknown fidelity status \"sure\"")
        expectError(#"{"status": "formula", "evidence": "  "}"#, "evidence must not be empty")
        expectError(#"{"status": "formula"}"#, "missing field \"evidence\"")
        expectError(#"{"evidence": "x"}"#, "missing field \"status\"")
        expectError(#"{"status": "formula", "evidence": "x", "score": 3}"#, "unknown field \"score\"")
        expectError(#""verified""#, "must be an object")
        expectError(#"{"status": "verified", "evidence": "looks right"}"#, "conformance CIFilter/case")
        expectError(#"{"status": "unavailable", "evidence": "x"}"#, "unavailableReason")
        expectError(#"{"status": "formula", "evidence": "x"}"#, extra: #""unavailableReason": "needs a model","#, "unavailableReason")
    }
}
