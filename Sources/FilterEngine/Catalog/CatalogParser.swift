import Foundation

/// Reads the catalogue's JSON strictly: an unknown field, a wrong type or an inconsistent range is an error that
/// names the filter and the input.
struct CatalogParser {
    let source: String

    private static let rootFields: Set<String> = ["source", "categories", "filters"]
    private static let categoryFields: Set<String> = ["name", "displayName", "description"]
    private static let filterFields: Set<String> = [
        "name", "displayName", "description", "categories", "availableMac", "availableIOS", "unavailableReason", "fidelity",
        "inputs",
    ]
    private static let fidelityFields: Set<String> = ["status", "evidence"]
    private static let inputFields: Set<String> = [
        "key", "class", "type", "displayName", "description", "default", "min", "max", "sliderMin", "sliderMax",
        "identity", "notes",
    ]

    func fail(_ filter: String?, _ input: String?, _ message: String) -> CatalogError {
        CatalogError(source: source, filter: filter, input: input, message: message)
    }

    func fields(_ value: JSONValue, allowed: Set<String>, _ filter: String?, _ input: String?, what: String) throws
        -> [String: JSONValue]
    {
        guard case .object(let fields, _) = value else { throw fail(filter, input, "\(what) must be an object") }
        if let unknown = fields.keys.filter({ !allowed.contains($0) }).sorted().first {
            throw fail(filter, input, "unknown field \"\(unknown)\"")
        }
        return fields
    }

    func string(_ fields: [String: JSONValue], _ name: String, _ filter: String?, _ input: String?,
                required: Bool = true) throws -> String? {
        switch fields[name] {
        case .string(let text)?: return text
        // An optional field may also be null (Apple's facts give CIHistogramDisplayFilter no macOS version).
        case nil where !required, .null? where !required: return nil
        case nil: throw fail(filter, input, "missing field \"\(name)\"")
        case let other?: throw fail(filter, input, "\"\(name)\" must be a string, not \(other.kindName)")
        }
    }

    func number(_ fields: [String: JSONValue], _ name: String, _ filter: String, _ input: String) throws -> Double? {
        switch fields[name] {
        case .number(let value)?: return value
        case nil: return nil
        case let other?: throw fail(filter, input, "\"\(name)\" must be a number, not \(other.kindName)")
        }
    }

    func parseRoot(_ root: JSONValue) throws -> ([CategoryInfo], [FilterDescriptor]) {
        let top = try fields(root, allowed: Self.rootFields, nil, nil, what: "the catalogue")
        guard case .array(let categoryValues)? = top["categories"] else { throw fail(nil, nil, "\"categories\" must be an array") }
        guard case .array(let filterValues)? = top["filters"] else { throw fail(nil, nil, "\"filters\" must be an array") }
        var categories: [CategoryInfo] = []
        for value in categoryValues {
            let f = try fields(value, allowed: Self.categoryFields, nil, nil, what: "a category")
            let name = try string(f, "name", nil, nil)!
            guard !categories.contains(where: { $0.name == name }) else { throw fail(name, nil, "category listed twice") }
            categories.append(CategoryInfo(
                name: name, displayName: try string(f, "displayName", name, nil)!,
                description: try string(f, "description", name, nil, required: false) ?? ""))
        }
        let known = Set(categories.map(\.name))
        var filters: [FilterDescriptor] = []
        var names: Set<String> = []
        for value in filterValues {
            let filter = try parseFilter(value, categories: known)
            guard names.insert(filter.name).inserted else { throw fail(filter.name, nil, "filter listed twice") }
            filters.append(filter)
        }
        return (categories, filters.sorted { $0.name < $1.name })
    }

    /// `known`: the categories the filter may name; nil takes any (a filter registered at run time brings its own).
    func parseFilter(_ value: JSONValue, categories known: Set<String>?) throws -> FilterDescriptor {
        guard case .object(let raw, _) = value, case .string(let name)? = raw["name"] else {
            throw fail(nil, nil, "every filter needs a string \"name\"")
        }
        let f = try fields(value, allowed: Self.filterFields, name, nil, what: "a filter")
        guard case .array(let categoryValues)? = f["categories"] else { throw fail(name, nil, "\"categories\" must be an array") }
        var categories: [String] = []
        for case let item in categoryValues {
            guard case .string(let category) = item else { throw fail(name, nil, "categories must be strings") }
            guard known?.contains(category) ?? true else { throw fail(name, nil, "category \(category) is not in the category list") }
            categories.append(category)
        }
        guard case .array(let inputValues)? = f["inputs"] else { throw fail(name, nil, "\"inputs\" must be an array") }
        var inputs: [InputDescriptor] = []
        for inputValue in inputValues {
            let input = try parseInput(inputValue, filter: name)
            guard !inputs.contains(where: { $0.key == input.key }) else { throw fail(name, input.key, "input listed twice") }
            inputs.append(input)
        }
        let unavailableReason = try string(f, "unavailableReason", name, nil, required: false)
        let fidelity = try f["fidelity"].map { try parseFidelity($0, filter: name) }
        if let fidelity {
            if (fidelity.status == .unavailable) != (unavailableReason != nil) {
                throw fail(name, nil, "fidelity status \"unavailable\" goes with an unavailableReason, and only with one")
            }
        }
        return FilterDescriptor(
            name: name,
            displayName: try string(f, "displayName", name, nil)!,
            description: try string(f, "description", name, nil)!,
            categories: categories,
            availableMac: try string(f, "availableMac", name, nil, required: false),
            availableIOS: try string(f, "availableIOS", name, nil, required: false),
            unavailableReason: unavailableReason,
            fidelity: fidelity,
            inputs: inputs)
    }

    /// `{"status": "verified" | "formula" | "approximate" | "unavailable", "evidence": "..."}`, both required.
    func parseFidelity(_ value: JSONValue, filter: String) throws -> Fidelity {
        let f = try fields(value, allowed: Self.fidelityFields, filter, nil, what: "\"fidelity\"")
        let statusName = try string(f, "status", filter, nil)!
        guard let status = Fidelity.Status(rawValue: statusName) else {
            let names = Fidelity.Status.allCases.map(\.rawValue).joined(separator: ", ")
            throw fail(filter, nil, "unknown fidelity status \"\(statusName)\" (expected one of \(names))")
        }
        let evidence = try string(f, "evidence", filter, nil)!
        guard !evidence.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw fail(filter, nil, "fidelity evidence must not be empty")
        }
        if status == .verified, Fidelity(status: status, evidence: evidence).conformanceCases.isEmpty {
            throw fail(filter, nil, "a verified filter names its Apple render as \"conformance CIFilter/case\"")
        }
        return Fidelity(status: status, evidence: evidence)
    }

    func parseInput(_ value: JSONValue, filter: String) throws -> InputDescriptor {
        guard case .object(let raw, _) = value, case .string(let key)? = raw["key"] else {
            throw fail(filter, nil, "every input needs a string \"key\"")
        }
        let f = try fields(value, allowed: Self.inputFields, filter, key, what: "an input")
        let className = try string(f, "class", filter, key)!
        guard let valueClass = ValueClass(rawValue: className) else { throw fail(filter, key, "unknown class \(className)") }
        var type: AttributeType?
        if let typeName = try string(f, "type", filter, key, required: false) {
            guard let known = AttributeType(rawValue: typeName) else { throw fail(filter, key, "unknown type \(typeName)") }
            type = known
        }
        var notes: [String] = []
        if let noteValues = f["notes"] {
            guard case .array(let items) = noteValues else { throw fail(filter, key, "\"notes\" must be an array") }
            for item in items {
                guard case .string(let note) = item else { throw fail(filter, key, "notes must be strings") }
                notes.append(note)
            }
        }
        let defaultValue = try f["default"].map { try attributeValue($0, "default", valueClass, type, filter, key) }
        let identity = try f["identity"].map { try attributeValue($0, "identity", valueClass, type, filter, key) }
        let minimum = try number(f, "min", filter, key)
        let maximum = try number(f, "max", filter, key)
        let sliderMinimum = try number(f, "sliderMin", filter, key)
        let sliderMaximum = try number(f, "sliderMax", filter, key)
        // Core Image gives some booleans a 0...1 range (CIAztecCodeGenerator.inputCompactStyle): allowed, not required.
        let isRangedNumber = valueClass == .number && type != .boolean
        if valueClass != .number, [minimum, maximum, sliderMinimum, sliderMaximum].contains(where: { $0 != nil }) {
            throw fail(filter, key, "only numbers have ranges")
        }
        if isRangedNumber, sliderMinimum == nil || sliderMaximum == nil {
            throw fail(filter, key, "a number needs \"sliderMin\" and \"sliderMax\"")
        }
        if let lo = minimum, let hi = maximum, lo > hi {
            throw fail(filter, key, "min \(formatNumber(lo)) is above max \(formatNumber(hi))")
        }
        if let lo = sliderMinimum, let hi = sliderMaximum, lo > hi {
            throw fail(filter, key, "sliderMin \(formatNumber(lo)) is above sliderMax \(formatNumber(hi))")
        }
        if let lo = minimum, let slider = sliderMinimum, slider < lo {
            throw fail(filter, key, "sliderMin \(formatNumber(slider)) is below min \(formatNumber(lo))")
        }
        if let hi = maximum, let slider = sliderMaximum, slider > hi {
            throw fail(filter, key, "sliderMax \(formatNumber(slider)) is above max \(formatNumber(hi))")
        }
        for (label, value) in [("default", defaultValue), ("identity", identity)] {
            guard case .number(let number)? = value else { continue }
            if let lo = minimum, number < lo {
                throw fail(filter, key, "\(label) \(formatNumber(number)) is below min \(formatNumber(lo))")
            }
            if let hi = maximum, number > hi {
                throw fail(filter, key, "\(label) \(formatNumber(number)) is above max \(formatNumber(hi))")
            }
        }
        return InputDescriptor(
            key: key, valueClass: valueClass, type: type,
            displayName: try string(f, "displayName", filter, key)!,
            description: try string(f, "description", filter, key)!,
            defaultValue: defaultValue, minimum: minimum, maximum: maximum,
            sliderMinimum: sliderMinimum, sliderMaximum: sliderMaximum, identity: identity, notes: notes)
    }

    /// Checks a default or identity against the input's class and converts it.
    func attributeValue(_ value: JSONValue, _ label: String, _ valueClass: ValueClass, _ type: AttributeType?,
                        _ filter: String, _ key: String) throws -> AttributeValue {
        func wrong(_ expected: String) -> CatalogError {
            fail(filter, key, "\(label) must be \(expected) for \(valueClass.rawValue), not \(value.kindName)")
        }
        switch valueClass {
        case .number:
            if case .bool(let flag) = value, type == .boolean { return .bool(flag) }
            guard case .number(let number) = value, number.isFinite else {
                throw wrong(type == .boolean ? "a boolean" : "a number")
            }
            return .number(number)
        case .vector, .color, .transform:
            guard case .array(let items) = value else { throw wrong("an array of numbers") }
            var numbers: [Double] = []
            for item in items {
                guard case .number(let number) = item, number.isFinite else { throw wrong("an array of numbers") }
                numbers.append(number)
            }
            if valueClass == .color, !(3...4).contains(numbers.count) {
                throw fail(filter, key, "\(label) colour needs 3 or 4 components, not \(numbers.count)")
            }
            if valueClass == .transform, numbers.count != 6 {
                throw fail(filter, key, "\(label) transform needs 6 numbers, not \(numbers.count)")
            }
            return .vector(numbers)
        case .string, .object:
            guard case .string(let text) = value else { throw wrong("a string") }
            return .string(text)
        case .data:
            guard case .object(let object, _) = value, object.count == 1,
                  case .number(let count)? = object["byteCount"], count >= 0, count == count.rounded()
            else { throw wrong("{\"byteCount\": N}") }
            return .data(byteCount: Int(count))
        default:
            throw fail(filter, key, "\(valueClass.rawValue) inputs take no \(label)")
        }
    }
}
