import Foundation
import Testing
import FilterEngine
@testable import FilterExplorer
@testable import CommandLineTool

/// The text of `cifiltertest list` and `info`, against golden files written by hand (Fixtures/*.txt).
@Suite struct ListingTextTests {
    @Test(arguments: [
        ("list.txt", ListingOptions()),
        ("list-all-categories.txt", ListingOptions(allCategories: true)),
        ("list-keys.txt", ListingOptions(keys: true)),
    ])
    func golden(_ file: String, _ options: ListingOptions) throws {
        let text = try Listing.text(try Fixtures.list(), options: options)
        let expected = try Fixtures.text(file)
        #expect(text == expected)
        if text != expected { firstDifference(text, expected) }
    }

    @Test func goldenInfo() throws {
        let text = try Listing.info("CIZooFilter", in: try Fixtures.list())
        let expected = try Fixtures.text("info-CIZooFilter.txt")
        #expect(text == expected)
        if text != expected { firstDifference(text, expected) }
    }

    /// Records the first differing line, which #expect's dump of two long strings hides.
    func firstDifference(_ actual: String, _ expected: String) {
        let a = actual.components(separatedBy: "\n"), e = expected.components(separatedBy: "\n")
        for index in 0..<max(a.count, e.count) where (index < a.count ? a[index] : nil) != (index < e.count ? e[index] : nil) {
            let got = index < a.count ? a[index] : "<none>", wanted = index < e.count ? e[index] : "<none>"
            Issue.record("line \(index + 1):\n  got      \(got)\n  expected \(wanted)")
            return
        }
    }

    @Test func oneCategoryListsEveryFilterInIt() throws {
        let list = try Fixtures.list()
        let text = try Listing.text(list, options: ListingOptions(category: "stillimage"))
        #expect(text == """
            Still Image (CICategoryStillImage): 3 filters, 3 listed earlier
              Box Blur       CIBoxBlur       (duplicate; first in Blur)
              Gaussian Blur  CIGaussianBlur  (duplicate; first in Blur)
              Sepia Tone     CISepiaTone     (duplicate; first in Color Effect)

            """)
        for typed in ["Blur", "blur", "CICategoryBlur", "CICATEGORYBLUR"] {
            #expect(try Listing.text(list, options: ListingOptions(category: typed)).hasPrefix(
                "Blur (CICategoryBlur): 3 filters\n  Box Blur"))
        }
        #expect(try Listing.text(list, options: ListingOptions(category: "Generator"))
                == "Generator (CICategoryGenerator): 0 filters\n  (no filters)\n")
    }

    @Test func optionsCombine() throws {
        let text = try Listing.text(try Fixtures.list(), options: ListingOptions(keys: true, category: "zoo"))
        #expect(text == """
            Zoo (CICategoryZoo): 3 filters, 2 listed earlier

              Aardvark       CIAardvarkFilter  (duplicate; first in Aardvark)
                inputImage      Image      CIImage
                inputAngle      Angle      NSNumber           default 0                              slider -3.141593 to 3.141593

              Zebra Stripes  CIZebraFilter
                inputWidth      Distance   NSNumber           default 8              range 1 to 100  slider 2 to 50

              Zoo Filter     CIZooFilter       (duplicate; first in Built In)
                inputCenter     Position   CIVector           default [150 150]
                inputMessage               NSString           default "hello"
                inputCube                  NSData             default <64 bytes>
                inputEnabled    Boolean    NSNumber           default true
                inputTransform  Transform  NSAffineTransform  default [1 0 0 1 0 0]
                inputCount      Count      NSNumber           default 3              max 10          slider 1 to 10

            """)
    }

    @Test func unavailableFiltersAreMarked() throws {
        let list = try Fixtures.list()
        let text = try Listing.text(list)
        #expect(text.contains("CIDepthBlurEffect  (unavailable: needs Apple's depth data)\n"))
        let info = try Listing.info("CIDepthBlurEffect", in: list)
        #expect(info.contains("\n  Status        unavailable: needs Apple's depth data\n"))
        #expect(try Listing.info("CIBoxBlur", in: list).contains("\n  Status        available\n"))
    }

    @Test func infoShowsRangesIdentityAndMissingVersions() throws {
        let list = try Fixtures.list()
        let sepia = try Listing.info("sepiatone", in: list)
        #expect(sepia.hasPrefix("Sepia Tone (CISepiaTone)\n"))
        #expect(sepia.contains("""
              inputIntensity
                Class         NSNumber
                Type          Scalar
                Display name  Intensity
                Description   How much sepia
                Default       1
                Minimum       0
                Maximum       1
                Slider        0 to 1
                Identity      0

            """))
        #expect(sepia.contains("\n  Categories    Color Effect, Still Image, Built In\n"))
        #expect(sepia.contains("\n  Listed under  Color Effect\n"))
        #expect(try Listing.info("CIZebraFilter", in: list).contains("\n  Apple since   iOS 8\n"))
    }

    /// Styling is bold headings only; without the escapes a terminal listing is the plain one, columns and all.
    @Test func terminalStyleOnlyAddsBoldHeadings() throws {
        let list = try Fixtures.list()
        for options in [ListingOptions(), ListingOptions(keys: true), ListingOptions(allCategories: true)] {
            let plain = try Listing.text(list, options: options, style: .plain)
            let styled = try Listing.text(list, options: options, style: .terminal)
            #expect(!plain.contains("\u{1B}"))
            #expect(styled.contains("\u{1B}[1mBlur (CICategoryBlur): 3 filters\u{1B}[0m\n"))
            let stripped = styled.replacingOccurrences(of: "\u{1B}[1m", with: "")
                .replacingOccurrences(of: "\u{1B}[0m", with: "")
            #expect(stripped == plain)
        }
        let info = try Listing.info("CISepiaTone", in: list, style: .terminal)
        #expect(info.hasPrefix("\u{1B}[1mSepia Tone (CISepiaTone)\u{1B}[0m\n"))
        let plainInfo = try Listing.info("CISepiaTone", in: list, style: .plain)
        #expect(!plainInfo.contains("\u{1B}"))
    }

    @Test func noLineEndsInSpaces() throws {
        let list = try Fixtures.list()
        var texts = [try Listing.text(list, options: ListingOptions(keys: true)),
                     try Listing.text(list, options: ListingOptions(allCategories: true))]
        for name in list.uniqueFilterNames { texts.append(try Listing.info(name, in: list)) }
        for text in texts {
            #expect(text.hasSuffix("\n"))
            for line in text.split(separator: "\n") { #expect(line.last != " ", "\(line)") }
        }
    }

    @Test func theBuiltInCatalogueLists() throws {
        let text = try Listing.text(.shared, options: ListingOptions(keys: true))
        #expect(text.hasPrefix("Distortion Effect (CICategoryDistortionEffect): "))
        #expect(text.contains("\n  Sepia Tone "))
        #expect(text.contains("\n    inputIntensity  "))
        let list = FiltersList.shared
        let all = try Listing.text(list, options: ListingOptions(allCategories: true))
        let builtIn = list.catalog.filterNames(inCategory: "CICategoryBuiltIn").count
        #expect(all.contains("\nBuilt In (CICategoryBuiltIn): \(builtIn) filters"))
    }
}

/// Names as people type them, and what they get when a name is wrong.
@Suite struct ListingNameTests {
    @Test func filtersAreFoundAsTyped() throws {
        let catalog = try Fixtures.list().catalog
        for typed in ["CISepiaTone", "cisepiatone", "SepiaTone", "sepiatone", "SEPIATONE", "Sepia Tone", "sepia tone"] {
            #expect(try Listing.resolveFilter(typed, in: catalog).name == "CISepiaTone", "\(typed)")
        }
        #expect(try Listing.resolveFilter("sepiatone", in: Catalog.builtIn).name == "CISepiaTone")
        #expect(try Listing.resolveFilter("gaussianblur", in: Catalog.builtIn).name == "CIGaussianBlur")
    }

    @Test func unknownFiltersSuggestCloseNames() throws {
        let list = try Fixtures.list()
        let error = try #require(throws: ListingError.self) { try Listing.info("CISepiaTon", in: list) }
        #expect(error.suggestions.first == "CISepiaTone")
        #expect(error.description.hasPrefix("no filter named \"CISepiaTon\"; did you mean CISepiaTone"))
        let builtIn = try #require(throws: ListingError.self) { try Listing.resolveFilter("CISepiaTon", in: .builtIn) }
        #expect(builtIn.description.contains("did you mean CISepiaTone"))
        let far = try #require(throws: ListingError.self) { try Listing.infoJSON("qqqqqqqq", in: list) }
        #expect(far.suggestions.isEmpty)
        #expect(far.description == "no filter named \"qqqqqqqq\"\n`cifiltertest list` shows every filter.")
    }

    @Test func severalSuggestionsReadAsAList() {
        let error = ListingError(message: "no filter named \"x\"", suggestions: ["CIA", "CIB", "CIC"])
        #expect(error.description == "no filter named \"x\"; did you mean CIA, CIB or CIC?")
    }

    @Test func unknownCategoriesSuggestAndListTheValidNames() throws {
        let list = try Fixtures.list()
        let error = try #require(throws: ListingError.self) {
            try Listing.text(list, options: ListingOptions(category: "Blurr"))
        }
        #expect(error.description == """
            no category named "Blurr"; did you mean Blur?
            Categories: ColorEffect, Generator, Blur, StillImage, BuiltIn, Aardvark, Zoo
            """)
        #expect(throws: ListingError.self) { try Listing.json(list, options: ListingOptions(category: "CICategoryNope")) }
        let builtIn = try #require(throws: ListingError.self) {
            try Listing.text(.shared, options: ListingOptions(category: "sharpn"))
        }
        #expect(builtIn.suggestions.first == "Sharpen")
    }

    @Test func ambiguousNamesAreRefused() throws {
        // "blur" is CIBlur's name without the prefix and CIOther's display name.
        let json = """
            {"categories": [{"name": "CICategoryBlur", "displayName": "Blur"}], "filters": [
              {"name": "CIBlur", "displayName": "Plain Blur", "description": "d", "categories": ["CICategoryBlur"],
               "availableMac": "1", "availableIOS": "1", "inputs": []},
              {"name": "CIOther", "displayName": "Blur", "description": "d", "categories": ["CICategoryBlur"],
               "availableMac": "1", "availableIOS": "1", "inputs": []}]}
            """
        let catalog = try Catalog(json: Data(json.utf8))
        let error = try #require(throws: ListingError.self) { try Listing.resolveFilter("blur", in: catalog) }
        #expect(error.description == "\"blur\" names several filters: CIBlur, CIOther")
        #expect(try Listing.resolveFilter("CIBlur", in: catalog).name == "CIBlur")
        #expect(try Listing.resolveFilter("other", in: catalog).name == "CIOther")
    }
}

/// `--json`: parses back, with the documented field names.
@Suite struct ListingJSONTests {
    func parse(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func filters(_ category: [String: Any]) throws -> [[String: Any]] {
        try #require(category["filters"] as? [[String: Any]])
    }

    @Test func listParsesBack() throws {
        let root = try parse(try Listing.json(try Fixtures.list()))
        #expect(Set(root.keys) == ["schemaVersion", "categories"])
        #expect(root["schemaVersion"] as? Int == Listing.jsonSchemaVersion)
        let categories = try #require(root["categories"] as? [[String: Any]])
        #expect(categories.compactMap { $0["name"] as? String } == [
            "CICategoryColorEffect", "CICategoryBlur", "CICategoryBuiltIn", "CICategoryAardvark", "CICategoryZoo",
        ])
        #expect(categories.first?["displayName"] as? String == "Color Effect")
        let blur = try filters(categories[1])
        #expect(blur.compactMap { $0["name"] as? String } == ["CIBoxBlur", "CIDepthBlurEffect", "CIGaussianBlur"])
        let box = blur[0]
        #expect(Set(box.keys) == ["name", "displayName", "duplicate", "firstCategory", "available"])
        #expect(box["displayName"] as? String == "Box Blur")
        #expect(box["duplicate"] as? Bool == false)
        #expect(box["available"] as? Bool == true)
        #expect(box["firstCategory"] as? String == "CICategoryBlur")
        #expect(blur[1]["available"] as? Bool == false)
        #expect(blur[1]["unavailableReason"] as? String == "needs Apple's depth data")
    }

    @Test func allCategoriesMarkDuplicates() throws {
        let root = try parse(try Listing.json(try Fixtures.list(), options: ListingOptions(allCategories: true)))
        let categories = try #require(root["categories"] as? [[String: Any]])
        #expect(categories.count == 6)
        let still = try filters(try #require(categories.first { $0["name"] as? String == "CICategoryStillImage" }))
        #expect(still.allSatisfy { $0["duplicate"] as? Bool == true })
        #expect(still.map { $0["firstCategory"] as? String } == [
            "CICategoryBlur", "CICategoryBlur", "CICategoryColorEffect",
        ])
    }

    @Test func keysCategoryAndJSONCombine() throws {
        let text = try Listing.json(try Fixtures.list(), options: ListingOptions(keys: true, category: "Zoo"))
        let root = try parse(text)
        let categories = try #require(root["categories"] as? [[String: Any]])
        #expect(categories.count == 1)
        let zoo = try filters(categories[0])
        #expect(zoo.compactMap { $0["name"] as? String } == ["CIAardvarkFilter", "CIZebraFilter", "CIZooFilter"])
        #expect(zoo.map { $0["duplicate"] as? Bool } == [true, false, true])
        let inputs = try #require(zoo[2]["inputs"] as? [[String: Any]])
        #expect(inputs.compactMap { $0["key"] as? String } == [
            "inputCenter", "inputMessage", "inputCube", "inputEnabled", "inputTransform", "inputCount",
        ])
        #expect(inputs[0]["default"] as? [Double] == [150, 150])
        #expect(inputs[0]["class"] as? String == "CIVector")
        #expect(inputs[0]["type"] as? String == "CIAttributeTypePosition")
        #expect(inputs[1]["default"] as? String == "hello")
        #expect(inputs[1]["type"] == nil)
        #expect((inputs[2]["default"] as? [String: Any])?["byteCount"] as? Int == 64)
        #expect(inputs[4]["default"] as? [Double] == [1, 0, 0, 1, 0, 0])
        #expect(inputs[5]["max"] as? Double == 10)
        #expect(inputs[5]["min"] == nil)
        #expect(inputs[5]["notes"] as? [String] == ["slider range derived", "made up for the test"])
        // Booleans are JSON booleans, numbers JSON numbers (not strings).
        #expect(text.contains("\"default\": true"))
        #expect(text.contains("\"default\": 3,"))
        let aardvarkInputs = try #require(zoo[0]["inputs"] as? [[String: Any]])
        let angle = try #require(aardvarkInputs.last)
        #expect(angle["sliderMin"] as? Double == -3.141592653589793)
        #expect(angle["sliderMax"] as? Double == 3.141592653589793)
    }

    @Test func infoParsesBack() throws {
        let list = try Fixtures.list()
        let sepia = try parse(try Listing.infoJSON("sepia tone", in: list))
        #expect(sepia["name"] as? String == "CISepiaTone")
        #expect(sepia["displayName"] as? String == "Sepia Tone")
        #expect(sepia["description"] as? String == "Tints the image brown")
        #expect(sepia["categories"] as? [String] == [
            "CICategoryColorEffect", "CICategoryStillImage", "CICategoryBuiltIn",
        ])
        #expect(sepia["firstCategory"] as? String == "CICategoryColorEffect")
        #expect(sepia["availableMac"] as? String == "10.4")
        #expect(sepia["availableIOS"] as? String == "5")
        #expect(sepia["available"] as? Bool == true)
        let intensity = try #require((sepia["inputs"] as? [[String: Any]])?.last)
        #expect(intensity["key"] as? String == "inputIntensity")
        #expect(intensity["displayName"] as? String == "Intensity")
        #expect(intensity["description"] as? String == "How much sepia")
        for (field, value) in [("default", 1.0), ("min", 0), ("max", 1), ("sliderMin", 0), ("sliderMax", 1),
                               ("identity", 0)] {
            #expect(intensity[field] as? Double == value, "\(field)")
        }
        let zebra = try parse(try Listing.infoJSON("CIZebraFilter", in: list))
        #expect(zebra["availableMac"] == nil)
        #expect(zebra["availableIOS"] as? String == "8")
        let depth = try parse(try Listing.infoJSON("CIDepthBlurEffect", in: list))
        #expect(depth["available"] as? Bool == false)
        #expect(depth["unavailableReason"] as? String == "needs Apple's depth data")
    }

    @Test func theWholeBuiltInCatalogueParsesBack() throws {
        let list = FiltersList.shared
        let root = try parse(try Listing.json(list, options: ListingOptions(keys: true, allCategories: true)))
        let categories = try #require(root["categories"] as? [[String: Any]])
        let names = Set(try categories.flatMap { try filters($0) }.compactMap { $0["name"] as? String })
        #expect(names.count == list.catalog.filters.count)
    }

    @Test func stringsAreEscaped() {
        #expect(JSON.quoted("a\"b\\c\nd\u{1}é") == #""a\"b\\c\nd\u0001é""#)
        #expect(JSON.number(0.1).rendered() == "0.1")
        #expect(JSON.number(-2).rendered() == "-2")
        #expect(JSON.number(.infinity).rendered() == "null")
    }
}
