import Foundation
import Testing
@testable import FilterEngine

@Suite struct BuiltInCatalogTests {
    /// filters.json holds every filter of Apple's reference and every custom filter, nothing else.
    @Test func loadsEveryFilter() throws {
        let sources = try CatalogSources.load()
        #expect(Set(Catalog.embedded.filters.map(\.name)) == sources.appleNames.union(sources.customNames))
        #expect(Catalog.builtIn.filter(named: "CISepiaTone")?.input("inputIntensity")?.defaultValue == .number(1))
    }

    @Test func categoriesHaveNamesAndDisplayNames() {
        let categories = Catalog.builtIn.categories
        #expect(!categories.isEmpty)
        for category in categories {
            #expect(category.name.hasPrefix("CICategory"), "\(category.name)")
            #expect(!category.displayName.isEmpty, "\(category.name) has no display name")
        }
    }

    @Test func filtersAreSortedByNameAndFoundByName() {
        let names = Catalog.builtIn.filters.map(\.name)
        #expect(names == names.sorted())
        for name in names { #expect(Catalog.builtIn.filter(named: name)?.name == name) }
        #expect(Catalog.builtIn.filter(named: "CINoSuchFilter") == nil)
    }

    @Test func suggestionsFindMistypedNames() {
        #expect(Catalog.builtIn.suggestions(for: "CISepiaTon").first == "CISepiaTone")
        #expect(Catalog.builtIn.suggestions(for: "gausianblur").contains("CIGaussianBlur"))
        #expect(Catalog.builtIn.suggestions(for: "zoomblr").first == "CIZoomBlur")
        // A mistyped start of a name, swapped letters included.
        #expect(Catalog.builtIn.suggestions(for: "sepai").first == "CISepiaTone")
        #expect(Catalog.builtIn.suggestions(for: "gausian").first == "CIGaussianBlur")
        #expect(Catalog.builtIn.suggestions(for: "twril").first == "CITwirlDistortion")
        // Too short or too far to mean anything.
        #expect(Catalog.builtIn.suggestions(for: "x").isEmpty)
        #expect(Catalog.builtIn.suggestions(for: "qqqqqq").isEmpty)
        #expect(Suggestions.editDistance(Array("sepai"), Array("sepia")) == 1)
        #expect(Suggestions.editDistance(Array("kitten"), Array("sitting")) == 3)
    }
}

/// Schema and range order over every entry of the built-in catalogue, one test case per filter.
@Suite struct CatalogEntryTests {
    static let names = Catalog.builtIn.filters.map(\.name)

    static func filter(_ name: String) -> FilterDescriptor { Catalog.builtIn.filter(named: name)! }

    @Test(arguments: names) func schema(_ name: String) {
        let filter = Self.filter(name)
        let declared = Set(Catalog.builtIn.categories.map(\.name))
        let isApple = CatalogSources.appleNamesIfPresent?.contains(name) ?? true
        if isApple { #expect(name.hasPrefix("CI")) }
        #expect(!filter.displayName.isEmpty, "no display name")
        #expect(!filter.categories.isEmpty, "no category")
        for category in filter.categories {
            #expect(declared.contains(category), "\(category) is not in the catalogue's categories")
        }
        // Apple's filters have an Apple version; a custom filter (ours or a user's) need not.
        if isApple {
            #expect(filter.availableMac != nil || filter.availableIOS != nil, "no Apple version at all")
        }
        if let reason = filter.unavailableReason { #expect(!reason.isEmpty) }
        for input in filter.inputs {
            #expect(input.key.hasPrefix("input"), "\(input.key)")
            #expect(!input.displayName.isEmpty, "\(input.key) has no display name")
        }
        #expect(Set(filter.inputKeys).count == filter.inputs.count, "an input key is listed twice")
    }

    @Test(arguments: names) func ranges(_ name: String) {
        for input in Self.filter(name).inputs {
            let key = input.key
            guard input.valueClass == .number, !input.isBoolean else {
                if input.valueClass != .number {
                    #expect(input.minimum == nil && input.maximum == nil && input.sliderMinimum == nil
                            && input.sliderMaximum == nil, "\(key): only numbers have ranges")
                }
                continue
            }
            guard let sliderMin = input.sliderMinimum, let sliderMax = input.sliderMaximum else {
                Issue.record("\(key): a number needs a slider range")
                continue
            }
            #expect(sliderMin <= sliderMax, "\(key): slider range reversed")
            let low = input.minimum ?? -.infinity, high = input.maximum ?? .infinity
            #expect(low <= high, "\(key): range reversed")
            #expect(low <= sliderMin && sliderMax <= high, "\(key): slider range outside min/max")
            for (label, value) in [("default", input.defaultValue), ("identity", input.identity)] {
                guard let value else { continue }
                guard case .number(let number) = value else {
                    Issue.record("\(key): \(label) \(value) is not a number")
                    continue
                }
                #expect(low <= number && number <= high, "\(key): \(label) \(number) outside min/max")
                if input.isInteger { #expect(number == number.rounded(), "\(key): \(label) is not whole") }
            }
        }
    }

    @Test(arguments: names) func defaultsMatchTheirKind(_ name: String) {
        for input in Self.filter(name).inputs {
            guard let value = input.defaultValue else { continue }
            let key = input.key
            switch (input.valueClass, value) {
            case (.number, .number), (.number, .bool), (.string, .string), (.object, .string), (.data, .data):
                break
            case (.color, .vector(let components)):
                #expect((3...4).contains(components.count), "\(key): colour with \(components.count) components")
                #expect(components.allSatisfy { $0 >= 0 }, "\(key): negative colour component")
            case (.transform, .vector(let numbers)):
                #expect(numbers.count == 6, "\(key)")
            case (.vector, .vector(let numbers)):
                let expected: Int? = switch input.type {
                case .position, .offset: 2
                case .position3: 3
                case .rectangle: 4
                default: nil
                }
                if let expected { #expect(numbers.count == expected, "\(key): \(numbers.count) numbers") }
            default:
                Issue.record("\(key): default \(value) does not suit \(input.valueClass.rawValue)")
            }
            if input.isBoolean, case .number(let number) = value {
                #expect(number == 0 || number == 1, "\(key): boolean default \(number)")
            }
        }
    }

    /// Every filter and input has a description (written in our own words; see issue 2).
    @Test(arguments: names) func descriptions(_ name: String) {
        let filter = Self.filter(name)
        #expect(!filter.description.trimmingCharacters(in: .whitespaces).isEmpty, "\(name) has no description")
        for input in filter.inputs {
            #expect(!input.description.trimmingCharacters(in: .whitespaces).isEmpty,
                    "\(name).\(input.key) has no description")
        }
    }
}

/// The loader refuses bad files with a message that names the filter and the input.
@Suite struct CatalogStrictnessTests {
    static let goodInput = """
        {"key": "inputRadius", "class": "NSNumber", "type": "CIAttributeTypeDistance", "displayName": "Radius",
         "description": "How far", "default": 10, "min": 0, "max": 100, "sliderMin": 0, "sliderMax": 50}
        """

    /// A catalogue with one category and the given filters (JSON objects).
    static func catalogue(_ filters: String...) -> String {
        """
        {"source": "test", "categories": [{"name": "CICategoryBlur", "displayName": "Blur"}],
         "filters": [\(filters.joined(separator: ",\n"))]}
        """
    }

    /// A filter named CITest with the given inputs and extra filter-level fields.
    static func filter(name: String = "CITest", extra: String = "", inputs: String...) -> String {
        """
        {"name": "\(name)", "displayName": "Test", "description": "A test", "categories": ["CICategoryBlur"],
         "availableMac": "10.4", "availableIOS": "5", \(extra.isEmpty ? "" : extra + ",")
         "inputs": [\(inputs.joined(separator: ","))]}
        """
    }

    /// The radius input with some fields replaced or added (`"default": 200`).
    static func radius(_ changes: String...) -> String {
        var fields: [String: String] = [
            "key": "\"inputRadius\"", "class": "\"NSNumber\"", "type": "\"CIAttributeTypeDistance\"",
            "displayName": "\"Radius\"", "description": "\"How far\"", "default": "10", "min": "0", "max": "100",
            "sliderMin": "0", "sliderMax": "50",
        ]
        for change in changes {
            let parts = change.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let name = parts[0].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if parts.count == 1 { fields[name] = nil } else { fields[name] = parts[1] }
        }
        return "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
            + "}"
    }

    func load(_ json: String) throws -> Catalog { try Catalog(json: Data(json.utf8), source: "test.json") }

    /// Loads `json`, expects a CatalogError for `filter`/`input` whose message contains `message`.
    func expectError(_ json: String, filter: String?, input: String?, _ message: String,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try load(json)
            Issue.record("loaded a bad catalogue (expected \"\(message)\")", sourceLocation: sourceLocation)
        } catch let error as CatalogError {
            #expect(error.filter == filter, sourceLocation: sourceLocation)
            #expect(error.input == input, sourceLocation: sourceLocation)
            #expect(error.message.contains(message), "\(error)", sourceLocation: sourceLocation)
            let place = [filter, input].compactMap { $0 }.joined(separator: ".")
            #expect(error.description.hasPrefix("test.json: " + (place.isEmpty ? "" : place + ": ")),
                    "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func aGoodCatalogueLoads() throws {
        let catalog = try load(Self.catalogue(Self.filter(inputs: Self.radius())))
        let input = try #require(catalog.filter(named: "CITest")?.input("inputRadius"))
        #expect(input.defaultValue == .number(10))
        #expect(input.minimum == 0 && input.maximum == 100 && input.sliderMinimum == 0 && input.sliderMaximum == 50)
        #expect(input.type == .distance && input.valueClass == .number)
    }

    @Test func unknownFieldInAFilter() {
        expectError(Self.catalogue(Self.filter(extra: "\"colour\": 1", inputs: Self.radius())),
                    filter: "CITest", input: nil, "unknown field \"colour\"")
    }

    @Test func unknownFieldInAnInput() {
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("\"sliderMiddle\": 3"))),
                    filter: "CITest", input: "inputRadius", "unknown field \"sliderMiddle\"")
    }

    @Test func unknownFieldAtTheTopAndInACategory() {
        expectError(#"{"categories": [], "filters": [], "version": 2}"#, filter: nil, input: nil,
                    "unknown field \"version\"")
        expectError(#"{"categories": [{"name": "CICategoryBlur", "displayName": "Blur", "icon": "b"}], "filters": []}"#,
                    filter: nil, input: nil, "unknown field \"icon\"")
    }

    @Test func wrongTypeOfDefault() {
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("default: \"ten\""))),
                    filter: "CITest", input: "inputRadius", "default must be a number for NSNumber, not a string")
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("default: true"))),
                    filter: "CITest", input: "inputRadius", "default must be a number for NSNumber, not a boolean")
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("default: [1, 2]"))),
                    filter: "CITest", input: "inputRadius", "not an array")
        let color = #"{"key": "inputColor", "class": "CIColor", "displayName": "Color", "description": "c", "default": 1}"#
        expectError(Self.catalogue(Self.filter(inputs: color)),
                    filter: "CITest", input: "inputColor", "default must be an array of numbers for CIColor")
        let data = #"{"key": "inputData", "class": "NSData", "displayName": "D", "description": "d", "default": 12}"#
        expectError(Self.catalogue(Self.filter(inputs: data)),
                    filter: "CITest", input: "inputData", "{\"byteCount\": N}")
    }

    @Test func wrongTypeOfAField() {
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("displayName: 3"))),
                    filter: "CITest", input: "inputRadius", "\"displayName\" must be a string, not a number")
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("min: \"0\""))),
                    filter: "CITest", input: "inputRadius", "\"min\" must be a number, not a string")
    }

    @Test func defaultOutsideMinMax() {
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("default: 200"))),
                    filter: "CITest", input: "inputRadius", "default 200 is above max 100")
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("default: -1"))),
                    filter: "CITest", input: "inputRadius", "default -1 is below min 0")
    }

    @Test func identityOutsideMinMax() {
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("identity: 101"))),
                    filter: "CITest", input: "inputRadius", "identity 101 is above max 100")
    }

    @Test func sliderOutsideMinMax() {
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("sliderMin: -5"))),
                    filter: "CITest", input: "inputRadius", "sliderMin -5 is below min 0")
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("sliderMax: 150"))),
                    filter: "CITest", input: "inputRadius", "sliderMax 150 is above max 100")
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("sliderMin: 60"))),
                    filter: "CITest", input: "inputRadius", "sliderMin 60 is above sliderMax 50")
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("min: 200"))),
                    filter: "CITest", input: "inputRadius", "min 200 is above max 100")
    }

    @Test func aNumberNeedsASliderRange() {
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("sliderMax"))),
                    filter: "CITest", input: "inputRadius", "needs \"sliderMin\" and \"sliderMax\"")
    }

    @Test func onlyNumbersHaveRanges() {
        let vector = #"{"key": "inputCenter", "class": "CIVector", "displayName": "C", "description": "c", "min": 0}"#
        expectError(Self.catalogue(Self.filter(inputs: vector)),
                    filter: "CITest", input: "inputCenter", "only numbers have ranges")
    }

    @Test func unknownClassAndType() {
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("class: \"NSFloat\""))),
                    filter: "CITest", input: "inputRadius", "unknown class NSFloat")
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("type: \"CIAttributeTypeLength\""))),
                    filter: "CITest", input: "inputRadius", "unknown type CIAttributeTypeLength")
    }

    @Test func duplicateFilterAndInput() {
        let filter = Self.filter(inputs: Self.radius())
        expectError(Self.catalogue(filter, filter), filter: "CITest", input: nil, "filter listed twice")
        expectError(Self.catalogue(Self.filter(inputs: Self.radius(), Self.radius())),
                    filter: "CITest", input: "inputRadius", "input listed twice")
    }

    @Test func unknownCategory() {
        let filter = Self.filter(inputs: Self.radius()).replacingOccurrences(of: "[\"CICategoryBlur\"]",
                                                                            with: "[\"CICategoryBlurry\"]")
        expectError(Self.catalogue(filter), filter: "CITest", input: nil,
                    "category CICategoryBlurry is not in the category list")
    }

    @Test func missingFields() {
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("description"))),
                    filter: "CITest", input: "inputRadius", "missing field \"description\"")
        expectError(Self.catalogue(#"{"displayName": "Nameless"}"#), filter: nil, input: nil,
                    "every filter needs a string \"name\"")
    }

    @Test func invalidJSON() {
        expectError("{\"categories\": [", filter: nil, input: nil, "not valid JSON")
        expectError("", filter: nil, input: nil, "not valid JSON")
    }

    @Test func unreadableFile() {
        #expect(throws: CatalogError.self) {
            try Catalog(contentsOf: URL(fileURLWithPath: "/nonexistent/filters.json"))
        }
    }

    /// Apple's facts give some booleans a 0...1 range and CIHistogramDisplayFilter no macOS version.
    @Test func booleanRangesAndMissingVersionsAreAccepted() throws {
        let flag = """
            {"key": "inputCompact", "class": "NSNumber", "type": "CIAttributeTypeBoolean", "displayName": "Compact",
             "description": "c", "default": false, "min": 0, "max": 1, "sliderMin": 0, "sliderMax": 1}
            """
        let json = Self.catalogue(Self.filter(inputs: flag).replacingOccurrences(
            of: "\"availableMac\": \"10.4\"", with: "\"availableMac\": null"))
        let filter = try #require(try load(json).filter(named: "CITest"))
        #expect(filter.availableMac == nil && filter.availableIOS == "5")
        #expect(filter.input("inputCompact")?.defaultValue == .bool(false))
        // A required field may not be null.
        expectError(Self.catalogue(Self.filter(inputs: Self.radius("displayName: null"))),
                    filter: "CITest", input: "inputRadius", "\"displayName\" must be a string, not null")
    }

    @Test func valuesOfEveryKindAreRead() throws {
        let inputs = [
            #"{"key": "inputColor", "class": "CIColor", "displayName": "C", "description": "c", "default": [1, 0.5, 0]}"#,
            #"{"key": "inputData", "class": "NSData", "displayName": "D", "description": "d", "default": {"byteCount": 8}}"#,
            #"{"key": "inputText", "class": "NSString", "displayName": "T", "description": "t", "default": "hi"}"#,
            #"{"key": "inputMatrix", "class": "NSAffineTransform", "displayName": "M", "description": "m", "default": [1, 0, 0, 1, 0, 0]}"#,
        ]
        let filter = try #require(try load(Self.catalogue(Self.filter(inputs: inputs[0], inputs[1], inputs[2],
                                                                             inputs[3]))).filter(named: "CITest"))
        #expect(filter.input("inputColor")?.defaultValue == .vector([1, 0.5, 0]))
        #expect(filter.input("inputData")?.defaultValue == .data(byteCount: 8))
        #expect(filter.input("inputText")?.defaultValue == .string("hi"))
        #expect(filter.input("inputMatrix")?.defaultValue == .vector([1, 0, 0, 1, 0, 0]))
        expectError(Self.catalogue(Self.filter(inputs: inputs[3].replacingOccurrences(of: ", 0, 0]", with: "]"))),
                    filter: "CITest", input: "inputMatrix", "transform needs 6 numbers, not 4")
        expectError(Self.catalogue(Self.filter(inputs: inputs[0].replacingOccurrences(of: ", 0.5, 0]", with: "]"))),
                    filter: "CITest", input: "inputColor", "colour needs 3 or 4 components, not 1")
    }
}
