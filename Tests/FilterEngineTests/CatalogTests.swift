import Foundation
import Testing
@testable import FilterEngine

@Suite struct BuiltInCatalogTests {
    @Test func loadsEveryFilter() {
        #expect(Catalog.builtIn.filters.count == 242)
        #expect(Catalog.builtIn.filter(named: "CISepiaTone")?.input("inputIntensity")?.defaultValue == .number(1))
    }
}
