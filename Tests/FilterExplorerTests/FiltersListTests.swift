import Foundation
import Testing
import FilterEngine
@testable import FilterExplorer

/// The dedup rules, on the mini catalogue (Fixtures/mini-catalog.json).
@Suite struct FiltersListTests {
    @Test func theFixedOrderIsCIFilterTests() {
        #expect(FiltersList.categoryOrder == [
            "DistortionEffect", "GeometryAdjustment", "CompositeOperation", "HalftoneEffect", "ColorAdjustment",
            "ColorEffect", "Transition", "TileEffect", "Generator", "Reduction", "Gradient", "Stylize", "Sharpen",
            "Blur", "Video", "StillImage", "Interlaced", "NonSquarePixels", "HighDynamicRange", "BuiltIn",
        ].map { "CICategory" + $0 })
    }

    @Test func categoriesFollowTheFixedOrderThenUnknownOnesByName() throws {
        // The fixture lists them as Zoo, BuiltIn, StillImage, Blur, Aardvark, Generator, ColorEffect.
        let list = try Fixtures.list()
        #expect(list.allCategories.map(\.name) == [
            "CICategoryColorEffect", "CICategoryGenerator", "CICategoryBlur", "CICategoryStillImage",
            "CICategoryBuiltIn", "CICategoryAardvark", "CICategoryZoo",
        ])
        #expect(list.categories(includeHidden: true).map(\.name) == list.allCategories.map(\.name))
        #expect(list.allCategories.map(\.displayName) == [
            "Color Effect", "Generator", "Blur", "Still Image", "Built In", "Aardvark", "Zoo",
        ])
        #expect(list.category(named: "CICategoryBlur")?.categoryDescription == "Softens the image")
    }

    @Test func eachFilterIsUniqueInItsFirstCategory() throws {
        let list = try Fixtures.list()
        #expect(list.uniqueFilterNames == [
            "CIFalseColor", "CIColorInvert", "CISepiaTone",  // Color Effect, by display name
            "CIBoxBlur", "CIDepthBlurEffect", "CIGaussianBlur",  // Blur
            "CIZooFilter",  // Built In comes before the unknown Zoo
            "CIAardvarkFilter",  // Aardvark comes before Zoo
            "CIZebraFilter",
        ])
        #expect(Set(list.uniqueFilterNames) == Set(list.catalog.filters.map(\.name)))
        for name in list.uniqueFilterNames {
            let record = try #require(list.record(named: name))
            #expect(!record.isDuplicate)
            #expect(record.category == record.firstCategory)
            #expect(list.records(named: name).first === record)
        }
        #expect(list.record(named: "CINoSuchFilter") == nil)
    }

    @Test func laterCategoriesMarkDuplicates() throws {
        let list = try Fixtures.list()
        func flags(_ category: String) throws -> [String] {
            try #require(list.category(named: category)).allRecords.map {
                $0.filterName + ($0.isDuplicate ? " dup of " + $0.firstCategory : "")
            }
        }
        #expect(try flags("CICategoryStillImage") == [
            "CIBoxBlur dup of CICategoryBlur", "CIGaussianBlur dup of CICategoryBlur",
            "CISepiaTone dup of CICategoryColorEffect",
        ])
        #expect(try flags("CICategoryBuiltIn") == [
            "CIBoxBlur dup of CICategoryBlur", "CIDepthBlurEffect dup of CICategoryBlur",
            "CIFalseColor dup of CICategoryColorEffect", "CIGaussianBlur dup of CICategoryBlur",
            "CIColorInvert dup of CICategoryColorEffect", "CISepiaTone dup of CICategoryColorEffect", "CIZooFilter",
        ])
        #expect(try flags("CICategoryZoo") == [
            "CIAardvarkFilter dup of CICategoryAardvark", "CIZebraFilter", "CIZooFilter dup of CICategoryBuiltIn",
        ])
        #expect(list.records(named: "CISepiaTone").map(\.category) == [
            "CICategoryColorEffect", "CICategoryStillImage", "CICategoryBuiltIn",
        ])
        let zoo = try #require(list.category(named: "CICategoryZoo"))
        #expect(zoo.uniqueRecords.map(\.filterName) == ["CIZebraFilter"])
        #expect(zoo.allRecords.first?.firstCategoryDisplayName == "Aardvark")
    }

    @Test func recordsAreSortedByDisplayName() throws {
        let list = try Fixtures.list()
        let colorEffect = try #require(list.category(named: "CICategoryColorEffect"))
        // By Core Image name it would be CIColorInvert first.
        #expect(colorEffect.allRecords.map(\.displayName) == ["False Color", "Invert Colors", "Sepia Tone"])
        for category in list.allCategories {
            let names = category.allRecords.map { $0.displayName.lowercased() }
            #expect(names == names.sorted())
        }
    }

    @Test func categoriesWithoutUniqueFiltersAreHidden() throws {
        let list = try Fixtures.list()
        #expect(list.categories().map(\.name) == [
            "CICategoryColorEffect", "CICategoryBlur", "CICategoryBuiltIn", "CICategoryAardvark", "CICategoryZoo",
        ])
        let hidden = list.allCategories.filter(\.isHiddenInUniqueView).map(\.name)
        #expect(hidden == ["CICategoryGenerator", "CICategoryStillImage"])
        #expect(list.category(named: "CICategoryGenerator")?.allRecords.isEmpty == true)
        #expect(list.category(named: "CICategoryStillImage")?.allRecords.count == 3)
    }

    @Test func availability() throws {
        let list = try Fixtures.list()
        let depth = try #require(list.record(named: "CIDepthBlurEffect"))
        #expect(!depth.isAvailable && depth.unavailableReason == "needs Apple's depth data")
        #expect(list.record(named: "CIBoxBlur")?.isAvailable == true)
    }

    @Test func categoriesAreFoundAsTyped() throws {
        let list = try Fixtures.list()
        for typed in ["Blur", "blur", "CICategoryBlur", "cicategoryblur", " BLUR "] {
            #expect(list.category(matching: typed)?.name == "CICategoryBlur", "\(typed)")
        }
        #expect(list.category(matching: "Blurry") == nil)
        #expect(list.category(matching: "StillImage")?.name == "CICategoryStillImage")
        #expect(FiltersList.shortCategoryName("CICategoryNonSquarePixels") == "NonSquarePixels")
    }

    @Test func categoriesExpandAndCollapse() throws {
        let list = try Fixtures.list()
        let blur = try #require(list.category(named: "CICategoryBlur"))
        #expect(!blur.isExpanded)
        blur.toggleExpanded()
        #expect(blur.isExpanded)
        blur.isExpanded = false
        #expect(!blur.isExpanded)
        list.expandAll()
        #expect(list.allCategories.allSatisfy { $0.isExpanded })
        list.collapseAll()
        #expect(!list.allCategories.contains { $0.isExpanded })
        // The flag is locked: an even number of toggles from many threads ends where it started.
        DispatchQueue.concurrentPerform(iterations: 1000) { _ in blur.toggleExpanded() }
        #expect(!blur.isExpanded)
    }

    @Test func descriptionsLogTheWholeStructure() throws {
        let list = try Fixtures.list()
        list.category(named: "CICategoryBlur")?.isExpanded = true
        let text = list.description
        #expect(text.hasPrefix(
            "FiltersList: 9 filters in 7 categories (hidden in the unique view: Generator, StillImage)\n"))
        #expect(text.contains("Blur (CICategoryBlur): 3 filters, 3 unique, expanded\n"))
        #expect(text.contains("Still Image (CICategoryStillImage): 3 filters, 0 unique, hidden, collapsed\n"))
        #expect(text.contains("\n  Sepia Tone (CISepiaTone) [duplicate; first in Color Effect]\n"))
        #expect(text.contains("\n  Depth Blur Effect (CIDepthBlurEffect) [unavailable: needs Apple's depth data]\n"))
        let zoo = try #require(list.record(named: "CIZooFilter"))
        #expect(zoo.description == "Zoo Filter (CIZooFilter)")
        #expect(list.records(named: "CIZooFilter").last?.description
                == "Zoo Filter (CIZooFilter) [duplicate; first in Built In]")
        // Every category and every record of every category is in the log.
        for category in list.allCategories {
            #expect(text.contains(category.description))
        }
    }

    @Test func aCatalogueDeclaringNoCategoriesOfTheFixedListStillWorks() throws {
        let json = """
            {"categories": [{"name": "CICategoryB", "displayName": "B"}, {"name": "CICategoryA", "displayName": "A"}],
             "filters": [{"name": "CIOnly", "displayName": "Only", "description": "d",
                          "categories": ["CICategoryB", "CICategoryA"], "availableMac": "1", "availableIOS": "1",
                          "inputs": []}]}
            """
        let list = FiltersList(catalog: try Catalog(json: Data(json.utf8)))
        #expect(list.allCategories.map(\.name) == ["CICategoryA", "CICategoryB"])
        #expect(list.record(named: "CIOnly")?.category == "CICategoryA")
        #expect(list.categories().map(\.name) == ["CICategoryA"])
    }
}

/// The shared list of the built-in catalogue.
@Suite struct SharedFiltersListTests {
    @Test func everyFilterIsListedOnce() {
        let list = FiltersList.shared
        #expect(list.uniqueFilterNames.count == list.catalog.filters.count)
        #expect(Set(list.uniqueFilterNames) == Set(list.catalog.filters.map(\.name)))
        #expect(list.record(named: "CISepiaTone")?.category == "CICategoryColorEffect")
        #expect(list.record(named: "CIGaussianBlur")?.category == "CICategoryBlur")
    }

    @Test func fixedCategoriesComeFirst() {
        let names = FiltersList.shared.allCategories.map(\.name)
        let fixed = names.filter { FiltersList.categoryOrder.contains($0) }
        #expect(fixed == FiltersList.categoryOrder.filter { names.contains($0) })
        #expect(names.prefix(fixed.count) == fixed[...])
        #expect(Array(names.dropFirst(fixed.count)) == names.dropFirst(fixed.count).sorted())
        // Every filter is in BuiltIn and somewhere before it, so BuiltIn holds none of its own.
        #expect(FiltersList.shared.category(named: "CICategoryBuiltIn")?.isHiddenInUniqueView == true)
    }

    @Test func descriptionLogsEveryFilter() {
        let list = FiltersList.shared
        let text = list.description
        #expect(text.hasPrefix("FiltersList: \(list.catalog.filters.count) filters in "))
        for filter in list.catalog.filters { #expect(text.contains("(\(filter.name))")) }
    }
}
