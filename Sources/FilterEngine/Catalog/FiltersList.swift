import Foundation

/// The catalogue as the explorer shows it, after the iOS app CIFilterTest: categories in a fixed order, each filter
/// unique in the first category where it appears and marked duplicate in every later one.
///
/// Built once from a `Catalog` and immutable afterwards, except for each category's expand/collapse flag (which
/// `FilterCategoryInfo` guards with a lock), so it can be shared between threads.
public final class FiltersList: CustomStringConvertible, Sendable {
    /// The order categories are shown in (CIFilterTest's order). Categories of the catalogue that are not in this
    /// list follow, in name order. This is the only place the order is written.
    public static let categoryOrder: [String] = [
        "DistortionEffect", "GeometryAdjustment", "CompositeOperation", "HalftoneEffect", "ColorAdjustment",
        "ColorEffect", "Transition", "TileEffect", "Generator", "Reduction", "Gradient", "Stylize", "Sharpen", "Blur",
        "Video", "StillImage", "Interlaced", "NonSquarePixels", "HighDynamicRange", "BuiltIn",
    ].map { categoryPrefix + $0 }

    /// Core Image's prefix on every category name.
    public static let categoryPrefix = "CICategory"

    /// The list of the program's catalogue (filters.json and the filters registered so far), made on each call
    /// so that a filter registered at run time is listed.
    public static var shared: FiltersList { FiltersList(catalog: .builtIn) }

    public let catalog: Catalog
    /// Every category of the catalogue in display order, including those with no unique filter.
    public let allCategories: [FilterCategoryInfo]
    /// Every filter once, in category order (and by display name within a category).
    public let uniqueFilterNames: [String]
    private let uniqueRecords: [String: FilterRecord]
    private let categoryIndex: [String: FilterCategoryInfo]

    public init(catalog: Catalog) {
        self.catalog = catalog
        let declared = Set(catalog.categories.map(\.name))
        // Filters only name declared categories (the loader checks), but be safe if that ever changes.
        let used = Set(catalog.filters.flatMap(\.categories))
        let known = declared.union(used)
        let ordered = Self.categoryOrder.filter { known.contains($0) }
            + known.subtracting(Self.categoryOrder).sorted()

        var infoByName: [String: CategoryInfo] = [:]
        for info in catalog.categories { infoByName[info.name] = info }
        let rank = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($1, $0) })

        var firstCategory: [String: String] = [:]
        for filter in catalog.filters {
            firstCategory[filter.name] = filter.categories.min { rank[$0]! < rank[$1]! }
        }

        let displayName = { (name: String) in infoByName[name]?.displayName ?? FiltersList.shortCategoryName(name) }
        var categories: [FilterCategoryInfo] = []
        var uniqueNames: [String] = []
        var unique: [String: FilterRecord] = [:]
        for name in ordered {
            let records = catalog.filters
                .filter { $0.categories.contains(name) }
                .map { filter in
                    let first = firstCategory[filter.name]!
                    return FilterRecord(
                        descriptor: filter, category: name, categoryDisplayName: displayName(name),
                        firstCategory: first, firstCategoryDisplayName: displayName(first))
                }
                .sorted(by: FilterRecord.displayOrder)
            let category = FilterCategoryInfo(
                name: name,
                displayName: displayName(name),
                description: infoByName[name]?.description ?? "",
                allRecords: records)
            for record in category.uniqueRecords {
                uniqueNames.append(record.filterName)
                unique[record.filterName] = record
            }
            categories.append(category)
        }
        allCategories = categories
        uniqueFilterNames = uniqueNames
        uniqueRecords = unique
        categoryIndex = Dictionary(uniqueKeysWithValues: categories.map { ($0.name, $0) })
    }

    /// The categories to show: by default those with at least one unique filter (the unique view).
    public func categories(includeHidden: Bool = false) -> [FilterCategoryInfo] {
        includeHidden ? allCategories : allCategories.filter { !$0.isHiddenInUniqueView }
    }

    /// The record of a filter in the category where it is unique.
    public func record(named name: String) -> FilterRecord? { uniqueRecords[name] }

    /// Every record of a filter: one per category it belongs to, in category order.
    public func records(named name: String) -> [FilterRecord] {
        allCategories.compactMap { category in category.allRecords.first { $0.filterName == name } }
    }

    /// A category by its exact Core Image name.
    public func category(named name: String) -> FilterCategoryInfo? { categoryIndex[name] }

    /// A category as a person types it: with or without the `CICategory` prefix, in any case ("blur").
    public func category(matching text: String) -> FilterCategoryInfo? {
        let wanted = Self.shortCategoryName(text.trimmingCharacters(in: .whitespaces)).lowercased()
        return allCategories.first { Self.shortCategoryName($0.name).lowercased() == wanted }
    }

    /// `CICategoryBlur` → `Blur` (names without the prefix are returned unchanged, case-insensitively).
    public static func shortCategoryName(_ name: String) -> String {
        name.lowercased().hasPrefix(categoryPrefix.lowercased()) ? String(name.dropFirst(categoryPrefix.count)) : name
    }

    public func expandAll() { allCategories.forEach { $0.isExpanded = true } }
    public func collapseAll() { allCategories.forEach { $0.isExpanded = false } }

    public var description: String {
        let hidden = allCategories.filter(\.isHiddenInUniqueView).map { Self.shortCategoryName($0.name) }
        var lines = [
            "FiltersList: \(uniqueFilterNames.count) filters in \(allCategories.count) categories"
                + (hidden.isEmpty ? "" : " (hidden in the unique view: \(hidden.joined(separator: ", ")))"),
        ]
        for category in allCategories { lines.append(category.description) }
        return lines.joined(separator: "\n")
    }
}

/// One category of the list, with every filter in it and the filters that are unique to it.
public final class FilterCategoryInfo: CustomStringConvertible, @unchecked Sendable {
    /// Core Image's name, e.g. `CICategoryBlur`.
    public let name: String
    public let displayName: String
    /// The category's own description from the catalogue (`description` is the log text).
    public let categoryDescription: String
    /// Every filter in this category, sorted by display name.
    public let allRecords: [FilterRecord]
    /// The filters listed here and nowhere earlier, sorted by display name.
    public let uniqueRecords: [FilterRecord]

    // The only mutable state of the list; `lock` guards it.
    private let lock = NSLock()
    private var expanded = false

    init(name: String, displayName: String, description: String, allRecords: [FilterRecord]) {
        self.name = name
        self.displayName = displayName
        self.categoryDescription = description
        self.allRecords = allRecords
        self.uniqueRecords = allRecords.filter { !$0.isDuplicate }
    }

    /// Whether the category's filters are shown. Categories start collapsed.
    public var isExpanded: Bool {
        get { locked { expanded } }
        set { locked { expanded = newValue } }
    }

    public func toggleExpanded() { locked { expanded.toggle() } }

    // NSLocking.withLock needs macOS 14; the package still names macOS 13.
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// True when every filter here appears in an earlier category (or there is none).
    public var isHiddenInUniqueView: Bool { uniqueRecords.isEmpty }

    public var description: String {
        var head = "\(displayName) (\(name)): \(allRecords.count) filters, \(uniqueRecords.count) unique"
        if isHiddenInUniqueView { head += ", hidden" }
        head += isExpanded ? ", expanded" : ", collapsed"
        return ([head] + allRecords.map { "  " + $0.description }).joined(separator: "\n")
    }
}

/// One filter as listed in one category.
public final class FilterRecord: CustomStringConvertible, Sendable {
    public let descriptor: FilterDescriptor
    /// The category this record sits in (`CICategoryBlur`).
    public let category: String
    public let categoryDisplayName: String
    /// The first category (in display order) that holds the filter: where the filter is unique.
    public let firstCategory: String
    public let firstCategoryDisplayName: String

    init(descriptor: FilterDescriptor, category: String, categoryDisplayName: String, firstCategory: String,
         firstCategoryDisplayName: String) {
        self.descriptor = descriptor
        self.category = category
        self.categoryDisplayName = categoryDisplayName
        self.firstCategory = firstCategory
        self.firstCategoryDisplayName = firstCategoryDisplayName
    }

    /// Core Image's name, e.g. `CISepiaTone`.
    public var filterName: String { descriptor.name }
    public var displayName: String { descriptor.displayName }
    /// True when the filter is listed in an earlier category.
    public var isDuplicate: Bool { category != firstCategory }
    public var isAvailable: Bool { descriptor.unavailableReason == nil }
    /// Why the filter cannot be made here (it needs a machine-learning model or camera data), or nil.
    public var unavailableReason: String? { descriptor.unavailableReason }

    /// By display name, then by Core Image name, so the order never depends on the catalogue's order.
    static func displayOrder(_ a: FilterRecord, _ b: FilterRecord) -> Bool {
        let left = a.displayName.lowercased(), right = b.displayName.lowercased()
        return left != right ? left < right : a.filterName < b.filterName
    }

    public var description: String {
        var text = "\(displayName) (\(filterName))"
        if isDuplicate { text += " [duplicate; first in \(firstCategoryDisplayName)]" }
        if let reason = unavailableReason { text += " [unavailable: \(reason)]" }
        return text
    }
}
