import Foundation
import FilterEngine
import FilterPipeline

/// How listings are printed: `terminal` puts category headings in bold, `plain` has no escape codes at all.
/// Columns are aligned the same way in both.
public enum ListingStyle: Sendable {
    case plain
    case terminal
}

/// What `cifiltertest list` prints.
public struct ListingOptions: Sendable, Equatable {
    /// Show every input of each filter.
    public var keys: Bool
    /// Show each filter under every category it belongs to (duplicates marked), not only its first one.
    public var allCategories: Bool
    /// One category as typed (`Blur`, `cicategoryblur` ...): every filter in it, duplicates marked.
    public var category: String?

    public init(keys: Bool = false, allCategories: Bool = false, category: String? = nil) {
        self.keys = keys
        self.allCategories = allCategories
        self.category = category
    }
}

/// An unknown or ambiguous name, with the names it may have meant.
public struct ListingError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public let suggestions: [String]
    /// A further line of help (the valid category names).
    public let help: String?

    public init(message: String, suggestions: [String] = [], help: String? = nil) {
        self.message = message
        self.suggestions = suggestions
        self.help = help
    }

    public var description: String {
        var text = message
        if !suggestions.isEmpty { text += "; did you mean \(Listing.alternatives(suggestions))?" }
        if let help { text += "\n" + help }
        return text
    }
}

/// The reference listings of `cifiltertest list` and `cifiltertest info`, as strings (so they can be tested).
/// Every function returns whole lines, each ending in a newline.
public enum Listing {
    // MARK: Field names of the JSON output (documented in the commands' help; keep them stable).

    /// The version of the `--json` outputs' schema: the first field of each, raised when a field changes meaning
    /// or goes away (new fields do not raise it).
    public static let jsonSchemaVersion = 1

    /// The fields of `list --json` and `info --json`, for the commands' help text.
    public static let jsonFieldsHelp = """
        Every --json output starts with "schemaVersion" (now \(jsonSchemaVersion)), raised only when a field changes \
        meaning or goes away.

        list --json prints {"categories": [category]}. A category is {"name", "displayName", "filters": [filter]}.

        A filter is {"name", "displayName", "duplicate" (listed in an earlier category), "firstCategory" (the \
        category where it is unique), "available" (false when it cannot be made off Apple's systems), \
        "unavailableReason" (only when unavailable), "fidelity": {"status", "evidence"} (how sure we are that it \
        renders what Core Image renders: verified, formula, approximate or unavailable)}, and with --keys also \
        "inputs": [input].

        list --fidelity --json prints {"total", "counts": {status: number}} and, with --status, "filters": \
        [{"name", "status", "evidence"}].

        info --json prints one filter: {"name", "displayName", "description", "categories" (in display order), \
        "firstCategory", "available", "unavailableReason", "availableMac", "availableIOS" (the first Apple \
        versions with the filter, when known), "fidelity", "inputs": [input]}.

        An input is {"key", "class", "type", "displayName", "description", "default", "min", "max", "sliderMin", \
        "sliderMax", "identity", "notes"}, the field names of filters.json; absent fields are left out. Numbers are \
        JSON numbers; a default or identity is a number, a boolean, an array of numbers (vectors, colours r g b a, \
        transforms a b c d tx ty), a string, or {"byteCount": N} for binary data.
        """

    // MARK: Selection

    /// The categories a listing shows, each with the records it shows.
    public static func sections(_ list: FiltersList, options: ListingOptions) throws
        -> [(FilterCategoryInfo, [FilterRecord])]
    {
        if let name = options.category {
            let category = try resolveCategory(name, in: list)
            return [(category, category.allRecords)]
        }
        if options.allCategories {
            return list.categories(includeHidden: true).filter { !$0.allRecords.isEmpty }.map { ($0, $0.allRecords) }
        }
        return list.categories().map { ($0, $0.uniqueRecords) }
    }

    /// A category as typed: with or without `CICategory`, any case. Unknown names suggest close ones.
    public static func resolveCategory(_ text: String, in list: FiltersList) throws -> FilterCategoryInfo {
        if let category = list.category(matching: text) { return category }
        let names = list.allCategories.map { FiltersList.shortCategoryName($0.name) }
        let query = FiltersList.shortCategoryName(text)
        throw ListingError(
            message: "no category named \"\(text)\"",
            suggestions: Suggestions.closest(to: query, among: names),
            help: "Categories: " + names.joined(separator: ", "))
    }

    /// A filter as typed: its Core Image name in any case, without the `CI` prefix, or its display name, when that
    /// names one filter. Unknown names suggest close ones.
    public static func resolveFilter(_ text: String, in catalog: Catalog) throws -> FilterDescriptor {
        if let exact = catalog.filter(named: text) { return exact }
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        let squeezed = wanted.replacingOccurrences(of: " ", with: "")
        let byName = catalog.filters.filter { $0.name.lowercased() == wanted }
        if byName.count == 1 { return byName[0] }
        let loose = catalog.filters.filter {
            let name = $0.name.lowercased()
            return name == wanted || name == "ci" + squeezed
                || $0.displayName.lowercased().replacingOccurrences(of: " ", with: "") == squeezed
        }
        if loose.count == 1 { return loose[0] }
        if loose.count > 1 {
            throw ListingError(message: "\"\(text)\" names several filters: "
                               + loose.map(\.name).joined(separator: ", "))
        }
        throw ListingError(
            message: "no filter named \"\(text)\"",
            suggestions: catalog.suggestions(for: text),
            help: "`cifiltertest list` shows every filter.")
    }

    // MARK: list

    /// `cifiltertest list` as text.
    public static func text(_ list: FiltersList, options: ListingOptions = .init(), style: ListingStyle = .plain)
        throws -> String
    {
        let sections = try sections(list, options: options)
        let marked = options.allCategories || options.category != nil
        var rows: [[String]] = []
        for (_, records) in sections {
            for record in records { rows.append(filterRow(record, markDuplicates: marked)) }
        }
        let widths = columnWidths(rows)
        var out: [String] = []
        for (index, (category, records)) in sections.enumerated() {
            if index > 0 { out.append("") }
            out.append(heading(category, records: records, marked: marked, style: style))
            if records.isEmpty { out.append("  (no filters)") }
            let inputWidths = options.keys ? columnWidths(records.flatMap { $0.descriptor.inputs.map(inputRow) }) : []
            for record in records {
                if options.keys { out.append("") }
                out.append(line(filterRow(record, markDuplicates: marked), widths: widths, indent: 2))
                if options.keys {
                    for input in record.descriptor.inputs {
                        out.append(line(inputRow(input), widths: inputWidths, indent: 4))
                    }
                }
            }
        }
        if options.category == nil {
            out.append("")
            out.append(summary(list, sections: sections, allCategories: options.allCategories))
        }
        return out.map { $0 + "\n" }.joined()
    }

    static func heading(_ category: FilterCategoryInfo, records: [FilterRecord], marked: Bool, style: ListingStyle)
        -> String
    {
        var text = "\(category.displayName) (\(category.name)): \(count(records.count, "filter"))"
        let duplicates = records.filter(\.isDuplicate).count
        if marked, duplicates > 0 { text += ", \(duplicates) listed earlier" }
        return style == .terminal ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }

    static func summary(_ list: FiltersList, sections: [(FilterCategoryInfo, [FilterRecord])], allCategories: Bool)
        -> String
    {
        let filters = Set(sections.flatMap { $0.1.map(\.filterName) }).count
        var text = "\(count(filters, "filter")) in \(count(sections.count, "category", "categories"))"
        if allCategories {
            let entries = sections.reduce(0) { $0 + $1.1.count }
            text += " (\(entries) entries, \(entries - filters) of them duplicates)"
        } else {
            let hidden = list.allCategories.filter(\.isHiddenInUniqueView).map(\.displayName)
            if !hidden.isEmpty {
                let verb = hidden.count == 1 ? "holds no filter of its own" : "hold no filter of their own"
                text += " (\(hidden.count) more \(verb): " + hidden.joined(separator: ", ") + "; see --all-categories)"
            }
        }
        return text
    }

    static func filterRow(_ record: FilterRecord, markDuplicates: Bool) -> [String] {
        var marks: [String] = []
        if markDuplicates, record.isDuplicate {
            marks.append("(duplicate; first in \(record.firstCategoryDisplayName))")
        }
        if let reason = record.unavailableReason { marks.append("(unavailable: \(reason))") }
        return [record.displayName, record.filterName, marks.joined(separator: " ")]
    }

    static func inputRow(_ input: InputDescriptor) -> [String] {
        [
            input.key, input.type?.shortName ?? "", input.valueClass.rawValue,
            input.defaultValue.map { "default \($0)" } ?? "",
            range(input.minimum, input.maximum, label: "range", minLabel: "min", maxLabel: "max"),
            range(input.sliderMinimum, input.sliderMaximum, label: "slider", minLabel: "slider min",
                  maxLabel: "slider max"),
        ]
    }

    static func range(_ low: Double?, _ high: Double?, label: String, minLabel: String, maxLabel: String) -> String {
        switch (low, high) {
        case let (low?, high?): "\(label) \(formatNumber(low)) to \(formatNumber(high))"
        case let (low?, nil): "\(minLabel) \(formatNumber(low))"
        case let (nil, high?): "\(maxLabel) \(formatNumber(high))"
        case (nil, nil): ""
        }
    }

    /// "0 to 1" for info (the parser requires both ends for numbers; other inputs have none).
    static func sliderRange(_ input: InputDescriptor) -> String {
        guard let low = input.sliderMinimum, let high = input.sliderMaximum else {
            return range(input.sliderMinimum, input.sliderMaximum, label: "", minLabel: "min", maxLabel: "max")
        }
        return "\(formatNumber(low)) to \(formatNumber(high))"
    }

    // MARK: info

    /// `cifiltertest info NAME` as text: everything the catalogue knows about one filter.
    public static func info(_ name: String, in list: FiltersList, style: ListingStyle = .plain) throws -> String {
        let filter = try resolveFilter(name, in: list.catalog)
        let records = list.records(named: filter.name)
        let bold: (String) -> String = { style == .terminal ? "\u{1B}[1m\($0)\u{1B}[0m" : $0 }
        var out = [bold("\(filter.displayName) (\(filter.name))")]
        var fields: [(String, String)] = [
            ("Name", filter.name),
            ("Display name", filter.displayName),
            ("Description", filter.description),
            ("Categories", records.map(\.categoryDisplayName).joined(separator: ", ")),
        ]
        if let first = records.first { fields.append(("Listed under", first.categoryDisplayName)) }
        let versions = [filter.availableMac.map { "macOS \($0)" }, filter.availableIOS.map { "iOS \($0)" }]
        fields.append(("Apple since", versions.compactMap { $0 }.joined(separator: ", ")))
        let status = filter.unavailableReason.map { "unavailable: \($0)" }
            ?? (FilterRegistry.implementation(for: filter.name) == nil ? "not implemented yet" : "available")
        fields.append(("Status", status))
        if let fidelity = filter.fidelity { fields.append(("Fidelity", "\(fidelity.status.rawValue): \(fidelity.evidence)")) }
        out += table(fields.filter { !$0.1.isEmpty }, indent: 2)
        out.append("")
        out.append(bold("Inputs (\(filter.inputs.count))"))
        for input in filter.inputs {
            out.append("  " + input.key)
            var rows: [(String, String)] = [
                ("Class", input.valueClass.rawValue),
                ("Type", input.type?.shortName ?? ""),
                ("Display name", input.displayName),
                ("Description", input.description),
                ("Default", input.defaultValue?.description ?? ""),
                ("Minimum", input.minimum.map(formatNumber) ?? ""),
                ("Maximum", input.maximum.map(formatNumber) ?? ""),
                ("Slider", sliderRange(input)),
                ("Identity", input.identity?.description ?? ""),
            ]
            rows = rows.filter { !$0.1.isEmpty }
            for (index, note) in input.notes.enumerated() { rows.append((index == 0 ? "Notes" : "", note)) }
            out += table(rows, indent: 4, labelWidth: 12)
        }
        return out.map { $0 + "\n" }.joined()
    }

    /// Label-value rows: labels padded to one width.
    static func table(_ rows: [(String, String)], indent: Int, labelWidth: Int? = nil) -> [String] {
        let width = labelWidth ?? rows.map(\.0.count).max() ?? 0
        return rows.map { line([$0.0, $0.1], widths: [width, 0], indent: indent) }
    }

    // MARK: JSON

    /// `cifiltertest list --json`.
    public static func json(_ list: FiltersList, options: ListingOptions = .init()) throws -> String {
        let categories: [JSON] = try sections(list, options: options).map { category, records in
            .object([
                ("name", .string(category.name)),
                ("displayName", .string(category.displayName)),
                ("filters", .array(records.map { record in
                    var fields = filterSummaryFields(record)
                    if options.keys { fields.append(("inputs", .array(record.descriptor.inputs.map(inputJSON)))) }
                    return .object(fields)
                })),
            ])
        }
        return versioned([("categories", .array(categories))])
    }

    /// `cifiltertest info NAME --json`.
    public static func infoJSON(_ name: String, in list: FiltersList) throws -> String {
        let filter = try resolveFilter(name, in: list.catalog)
        var fields: [(String, JSON)] = [
            ("name", .string(filter.name)),
            ("displayName", .string(filter.displayName)),
            ("description", .string(filter.description)),
            ("categories", .array(list.records(named: filter.name).map { .string($0.category) })),
        ]
        if let record = list.record(named: filter.name) {
            fields.append(("firstCategory", .string(record.firstCategory)))
        }
        fields.append(("available", .bool(filter.unavailableReason == nil)))
        if let reason = filter.unavailableReason { fields.append(("unavailableReason", .string(reason))) }
        if let version = filter.availableMac { fields.append(("availableMac", .string(version))) }
        if let version = filter.availableIOS { fields.append(("availableIOS", .string(version))) }
        if let fidelity = filter.fidelity { fields.append(("fidelity", fidelityObject(fidelity))) }
        fields.append(("inputs", .array(filter.inputs.map(inputJSON))))
        return versioned(fields)
    }

    /// A `--json` document: the schema version, then `fields`.
    static func versioned(_ fields: [(String, JSON)]) -> String {
        JSON.object([("schemaVersion", .number(Double(jsonSchemaVersion)))] + fields).rendered() + "\n"
    }

    static func filterSummaryFields(_ record: FilterRecord) -> [(String, JSON)] {
        var fields: [(String, JSON)] = [
            ("name", .string(record.filterName)),
            ("displayName", .string(record.displayName)),
            ("duplicate", .bool(record.isDuplicate)),
            ("firstCategory", .string(record.firstCategory)),
            ("available", .bool(record.isAvailable)),
        ]
        if let reason = record.unavailableReason { fields.append(("unavailableReason", .string(reason))) }
        if let fidelity = record.descriptor.fidelity { fields.append(("fidelity", fidelityObject(fidelity))) }
        return fields
    }

    static func fidelityObject(_ fidelity: Fidelity) -> JSON {
        .object([("status", .string(fidelity.status.rawValue)), ("evidence", .string(fidelity.evidence))])
    }

    // MARK: Fidelity

    /// A status as typed (`verified`, any case), or an error listing the statuses.
    public static func resolveFidelityStatus(_ text: String) throws -> Fidelity.Status {
        if let status = Fidelity.Status(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) { return status }
        let names = Fidelity.Status.allCases.map(\.rawValue)
        throw ListingError(message: "no fidelity status \"\(text)\"",
                           suggestions: Suggestions.closest(to: text.lowercased(), among: names),
                           help: "Statuses: " + names.joined(separator: ", "))
    }

    /// The catalogue's filters in one status (every filter when nil), by name; a filter without a status counts
    /// as approximate (nothing backs it).
    static func fidelityFilters(_ list: FiltersList, status: Fidelity.Status?) -> [(FilterDescriptor, Fidelity)] {
        list.catalog.filters.map { ($0, $0.fidelity ?? Fidelity(status: .approximate, evidence: "no fidelity given")) }
            .filter { status == nil || $0.1.status == status }
    }

    /// `cifiltertest list --fidelity [--status S]`: the count of filters per status, then (with a status) the
    /// filters in it with their evidence.
    public static func fidelityText(_ list: FiltersList, status: Fidelity.Status? = nil, style: ListingStyle = .plain)
        -> String
    {
        let all = fidelityFilters(list, status: nil)
        let bold: (String) -> String = { style == .terminal ? "\u{1B}[1m\($0)\u{1B}[0m" : $0 }
        var out = [bold("Fidelity of the \(count(all.count, "filter")) (how sure we are that each renders what Core Image renders)")]
        let rows = Fidelity.Status.allCases.map { s in
            [s.rawValue, String(all.filter { $0.1.status == s }.count), s.meaning]
        }
        let widths = columnWidths(rows)
        out += rows.map { line($0, widths: widths, indent: 2) }
        if let status {
            let chosen = fidelityFilters(list, status: status)
            out.append("")
            out.append(bold("\(status.rawValue.capitalized) (\(chosen.count))"))
            let nameWidth = chosen.map(\.0.name.count).max() ?? 0
            out += chosen.map { line([$0.0.name, $0.1.evidence], widths: [nameWidth, 0], indent: 2) }
        }
        return out.map { $0 + "\n" }.joined()
    }

    /// `cifiltertest list --fidelity --json [--status S]`.
    public static func fidelityJSON(_ list: FiltersList, status: Fidelity.Status? = nil) -> String {
        let all = fidelityFilters(list, status: nil)
        var fields: [(String, JSON)] = [
            ("total", .number(Double(all.count))),
            ("counts", .object(Fidelity.Status.allCases.map { s in
                (s.rawValue, .number(Double(all.filter { $0.1.status == s }.count)))
            })),
        ]
        if let status {
            fields.append(("filters", .array(fidelityFilters(list, status: status).map { filter, fidelity in
                .object([("name", .string(filter.name)), ("status", .string(fidelity.status.rawValue)),
                         ("evidence", .string(fidelity.evidence))])
            })))
        }
        return versioned(fields)
    }

    static func inputJSON(_ input: InputDescriptor) -> JSON {
        var fields: [(String, JSON)] = [("key", .string(input.key)), ("class", .string(input.valueClass.rawValue))]
        if let type = input.type { fields.append(("type", .string(type.rawValue))) }
        fields.append(("displayName", .string(input.displayName)))
        fields.append(("description", .string(input.description)))
        if let value = input.defaultValue { fields.append(("default", JSON(value))) }
        for (name, number) in [("min", input.minimum), ("max", input.maximum), ("sliderMin", input.sliderMinimum),
                               ("sliderMax", input.sliderMaximum)] {
            if let number { fields.append((name, .number(number))) }
        }
        if let value = input.identity { fields.append(("identity", JSON(value))) }
        if !input.notes.isEmpty { fields.append(("notes", .array(input.notes.map { .string($0) }))) }
        return .object(fields)
    }

    // MARK: Text helpers

    /// "1 filter", "3 filters".
    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
    }

    /// "A", "A or B", "A, B or C".
    static func alternatives(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The width of each column: the widest cell in it.
    static func columnWidths(_ rows: [[String]]) -> [Int] {
        var widths: [Int] = []
        for row in rows {
            for (column, cell) in row.enumerated() {
                if column == widths.count { widths.append(0) }
                widths[column] = max(widths[column], cell.count)
            }
        }
        return widths
    }

    /// Cells padded to their column's width, two spaces apart; empty trailing cells and spaces dropped.
    static func line(_ cells: [String], widths: [Int], indent: Int) -> String {
        var text = String(repeating: " ", count: indent)
        for (column, cell) in cells.enumerated() {
            if column > 0 { text += "  " }
            let width = column < widths.count ? widths[column] : 0
            text += cell + String(repeating: " ", count: max(0, width - cell.count))
        }
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// A JSON value with its keys in a fixed order, printed with two-space indents.
enum JSON {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    init(_ value: AttributeValue) {
        switch value {
        case .number(let number): self = .number(number)
        case .bool(let flag): self = .bool(flag)
        case .vector(let numbers): self = .array(numbers.map { .number($0) })
        case .string(let text): self = .string(text)
        case .data(let count): self = .object([("byteCount", .number(Double(count)))])
        }
    }

    func rendered(indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent + 1), close = String(repeating: "  ", count: indent)
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            guard number.isFinite else { return "null" }
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return "\(number)"
        case .string(let text): return Self.quoted(text)
        case .array(let items):
            if items.isEmpty { return "[]" }
            // Short arrays of numbers (vectors, colours) stay on one line.
            if items.count <= 6, items.allSatisfy({ if case .number = $0 { true } else { false } }) {
                return "[" + items.map { $0.rendered() }.joined(separator: ", ") + "]"
            }
            return "[\n" + items.map { pad + $0.rendered(indent: indent + 1) }.joined(separator: ",\n") + "\n\(close)]"
        case .object(let fields):
            if fields.isEmpty { return "{}" }
            return "{\n" + fields.map { pad + Self.quoted($0.0) + ": " + $0.1.rendered(indent: indent + 1) }
                .joined(separator: ",\n") + "\n\(close)}"
        }
    }

    static func quoted(_ text: String) -> String { JSONValue.quoted(text) }
}
