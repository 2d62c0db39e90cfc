import Foundation

/// The filter catalogue: every built-in Core Image filter with its attribute metadata, read from filters.json.
/// It is the one place defaults and ranges come from; no other code repeats them.
public struct Catalog: Sendable {
    public let categories: [CategoryInfo]
    /// Sorted by name.
    public let filters: [FilterDescriptor]
    private let index: [String: Int]

    /// The program's catalogue: the repository's filters.json (embedded at build time) plus the filters registered
    /// at run time with `FilterRegistry.register(descriptor:implementation:)`. `list`, `info`, the explorer and
    /// `Filter(named:)` read this one.
    public static var builtIn: Catalog { FilterRegistry.catalog }

    /// filters.json alone, as embedded at build time.
    public static let embedded: Catalog = {
        do {
            return try Catalog(json: Data(embeddedCatalogJSON.utf8), source: "filters.json")
        } catch {
            // The catalogue-wide tests load the same file, so this only happens to a build that skipped them.
            fatalError("\(error)")
        }
    }()

    init(categories: [CategoryInfo], filters: [FilterDescriptor]) {
        self.categories = categories
        self.filters = filters.sorted { $0.name < $1.name }
        index = Dictionary(uniqueKeysWithValues: self.filters.enumerated().map { ($1.name, $0) })
    }

    /// This catalogue with one more filter, and any category it names that the catalogue lacks.
    func adding(_ filter: FilterDescriptor) -> Catalog {
        var categories = self.categories
        for name in filter.categories where !categories.contains(where: { $0.name == name }) {
            let short = name.hasPrefix("CICategory") ? String(name.dropFirst("CICategory".count)) : name
            categories.append(CategoryInfo(name: name, displayName: short, description: ""))
        }
        return Catalog(categories: categories, filters: filters + [filter])
    }

    public init(json data: Data, source: String = "catalogue") throws {
        let root: JSONValue
        do { root = try JSONValue.parse(data) } catch {
            throw CatalogError(source: source, filter: nil, input: nil, message: "not valid JSON")
        }
        let parser = CatalogParser(source: source)
        (categories, filters) = try parser.parseRoot(root)
        index = Dictionary(uniqueKeysWithValues: filters.enumerated().map { ($1.name, $0) })
    }

    public func filter(named name: String) -> FilterDescriptor? {
        index[name].map { filters[$0] }
    }

    /// Filter names in one category, as `Filter.filterNames(inCategory:)` gives them (sorted).
    public func filterNames(inCategory category: String) -> [String] {
        filters.filter { $0.categories.contains(category) }.map(\.name)
    }

    /// Names close to `name` (case-insensitive, by edit distance or containment), best first, for "did you mean".
    public func suggestions(for name: String, limit: Int = 3) -> [String] {
        Suggestions.closest(to: name, among: filters.map(\.name), limit: limit)
    }
}

public struct CategoryInfo: Sendable, Equatable {
    /// Core Image's name, e.g. `CICategoryBlur`.
    public let name: String
    public let displayName: String
    public let description: String
}

public struct FilterDescriptor: Sendable {
    public let name: String
    public let displayName: String
    public let description: String
    public let categories: [String]
    /// The first macOS and iOS versions with the filter; nil where Apple's facts do not say.
    public let availableMac: String?
    public let availableIOS: String?
    /// Set for filters that cannot be made off Apple's systems (they need a neural network or camera data).
    public let unavailableReason: String?
    /// How sure we are that this engine renders what Core Image renders, and on what evidence; nil only in
    /// catalogues that do not say (the built-in one says it for every filter).
    public let fidelity: Fidelity?
    public let inputs: [InputDescriptor]

    public func input(_ key: String) -> InputDescriptor? { inputs.first { $0.key == key } }
    public var inputKeys: [String] { inputs.map(\.key) }
}

extension FilterDescriptor {
    /// One entry in the schema of filters.json (`{"name": ..., "displayName": ..., "description": ...,
    /// "categories": [...], "inputs": [...]}`), checked as strictly as the catalogue; for filters registered at
    /// run time. Its categories may be new ones.
    public init(json data: Data, source: String = "filter entry") throws {
        let value: JSONValue
        do { value = try JSONValue.parse(data) } catch {
            throw CatalogError(source: source, filter: nil, input: nil, message: "not valid JSON")
        }
        self = try CatalogParser(source: source).parseFilter(value, categories: nil)
    }
}

/// How sure we are of a filter (filters.json `"fidelity": {"status", "evidence"}`).
public struct Fidelity: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable {
        /// Matches at least one real Apple render: a case of the conformance harness, named in the evidence.
        case verified
        /// Implements a documented formula (Apple's reference, or the standard it cites), named in the evidence.
        case formula
        /// A plausible look without evidence; the evidence says what it rests on.
        case approximate
        /// Cannot exist off Apple's systems (the filter's unavailableReason says why).
        case unavailable

        public var meaning: String {
            switch self {
            case .verified: "matches a real Apple render"
            case .formula: "implements a documented formula"
            case .approximate: "plausible look, no evidence"
            case .unavailable: "Apple-only"
            }
        }
    }

    public let status: Status
    /// Short and specific: the conformance case, the document, or what the look rests on.
    public let evidence: String

    public init(status: Status, evidence: String) {
        self.status = status
        self.evidence = evidence
    }

    /// The conformance cases the evidence names, as "CIFilter/case" (from "conformance CIFilter/case").
    public var conformanceCases: [String] {
        var cases: [String] = []
        var rest = Substring(evidence)
        while let range = rest.range(of: "conformance ") {
            let word = rest[range.upperBound...].prefix { !$0.isWhitespace && !",;()".contains($0) }
            if word.contains("/") { cases.append(String(word.hasSuffix(".") ? word.dropLast() : word)) }
            rest = rest[range.upperBound...]
        }
        return cases
    }
}

/// The class of an input's value, as Core Image names it.
public enum ValueClass: String, Sendable, CaseIterable {
    case image = "CIImage"
    case number = "NSNumber"
    case vector = "CIVector"
    case color = "CIColor"
    case data = "NSData"
    case string = "NSString"
    case object = "NSObject"
    case transform = "NSAffineTransform"
    case array = "NSArray"
    case attributedString = "NSAttributedString"
    case barcodeDescriptor = "CIBarcodeDescriptor"
    case mlModel = "MLModel"
    case cameraCalibration = "AVCameraCalibrationData"
    case imageMetadata = "CGImageMetadataRef"
}

/// The attribute type Core Image gives an input (`CIAttributeTypeDistance` ...), without the prefix.
public enum AttributeType: String, Sendable, CaseIterable {
    case time = "CIAttributeTypeTime"
    case scalar = "CIAttributeTypeScalar"
    case distance = "CIAttributeTypeDistance"
    case angle = "CIAttributeTypeAngle"
    case boolean = "CIAttributeTypeBoolean"
    case integer = "CIAttributeTypeInteger"
    case count = "CIAttributeTypeCount"
    case position = "CIAttributeTypePosition"
    case offset = "CIAttributeTypeOffset"
    case position3 = "CIAttributeTypePosition3"
    case rectangle = "CIAttributeTypeRectangle"
    case color = "CIAttributeTypeColor"
    case opaqueColor = "CIAttributeTypeOpaqueColor"
    case image = "CIAttributeTypeImage"
    case gradient = "CIAttributeTypeGradient"
    case transform = "CIAttributeTypeTransform"

    public var shortName: String { String(rawValue.dropFirst("CIAttributeType".count)) }
}

/// A value stored in the catalogue (a default or an identity).
public enum AttributeValue: Sendable, Equatable, CustomStringConvertible {
    case number(Double)
    case bool(Bool)
    /// Vectors, colours (r g b a) and affine transforms (a b c d tx ty).
    case vector([Double])
    case string(String)
    /// Binary data described by its size (colour cube and curve tables).
    case data(byteCount: Int)

    public var description: String {
        switch self {
        case .number(let value): formatNumber(value)
        case .bool(let value): value ? "true" : "false"
        case .vector(let values): "[" + values.map(formatNumber).joined(separator: " ") + "]"
        case .string(let text): "\"\(text)\""
        case .data(let count): "<\(count) bytes>"
        }
    }
}

public struct InputDescriptor: Sendable {
    public let key: String
    public let valueClass: ValueClass
    public let type: AttributeType?
    public let displayName: String
    public let description: String
    public let defaultValue: AttributeValue?
    public let minimum: Double?
    public let maximum: Double?
    public let sliderMinimum: Double?
    public let sliderMaximum: Double?
    public let identity: AttributeValue?
    /// How the entry departs from Apple's facts (a derived slider range, a derived display name ...).
    public let notes: [String]

    public var isBoolean: Bool { type == .boolean }
    public var isImage: Bool { valueClass == .image }
    /// Whole-number inputs (counts, integers).
    public var isInteger: Bool { type == .integer || type == .count }
}

public struct CatalogError: Error, CustomStringConvertible, Equatable {
    public let source: String
    public let filter: String?
    public let input: String?
    public let message: String

    public init(source: String, filter: String?, input: String?, message: String) {
        (self.source, self.filter, self.input, self.message) = (source, filter, input, message)
    }

    public var description: String {
        let place = [filter, input].compactMap { $0 }.joined(separator: ".")
        return place.isEmpty ? "\(source): \(message)" : "\(source): \(place): \(message)"
    }
}
