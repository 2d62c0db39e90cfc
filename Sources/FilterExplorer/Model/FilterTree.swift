import FilterEngine
import Foundation

/// The left pane: categories from `FiltersList`, each collapsible, with a cursor and a scroll position.
/// Without `showAllCategories` each filter appears once (in its first category); with it, under every category.
public final class FilterTree {
    public enum Row: Equatable {
        case category(FilterCategoryInfo)
        case filter(FilterRecord)
        /// The "Looks" category after the filters' ones: saved recipes (`Looks`).
        case looksHeader
        case look(LookFile)

        public static func == (a: Row, b: Row) -> Bool {
            switch (a, b) {
            case (.category(let x), .category(let y)): x === y
            case (.filter(let x), .filter(let y)): x === y
            case (.looksHeader, .looksHeader): true
            case (.look(let x), .look(let y)): x == y
            default: false
            }
        }

        /// A row that opens and closes (a category, or the looks).
        public var isHeader: Bool {
            switch self {
            case .category, .looksHeader: true
            case .filter, .look: false
            }
        }
    }

    /// The looks listed under "Looks" (none: no such category).
    public var looks: [LookFile] = [] {
        didSet { rebuildKeepingCursor() }
    }
    public private(set) var looksExpanded = false

    public let list: FiltersList
    public private(set) var rows: [Row] = []
    public private(set) var cursor = 0 {
        didSet { followsCursor = true }
    }
    public var scroll = 0
    /// False after the wheel scrolled the view on its own: the cursor may then be out of view until it moves.
    private var followsCursor = true
    /// Set by `reveal`: a jump (search, start-up) centres the filter rather than leaving it on the edge.
    private var centreNextScroll = false
    public var showAllCategories = false {
        didSet { rebuildKeepingCursor() }
    }

    public init(list: FiltersList) {
        self.list = list
        rebuild()
    }

    private func rebuild() {
        rows = []
        for category in list.categories(includeHidden: showAllCategories) {
            rows.append(.category(category))
            if category.isExpanded {
                rows += (showAllCategories ? category.allRecords : category.uniqueRecords).map(Row.filter)
            }
        }
        if !looks.isEmpty {
            rows.append(.looksHeader)
            if looksExpanded { rows += looks.map(Row.look) }
        }
        cursor = min(cursor, max(0, rows.count - 1))
    }

    /// Rebuilds after a change, keeping the cursor on the same filter (or category) when it is still shown.
    private func rebuildKeepingCursor() {
        let current = rows.indices.contains(cursor) ? rows[cursor] : nil
        rebuild()
        if case .filter(let record)? = current, let i = index(ofFilter: record.filterName, preferring: record.category) {
            cursor = i
        } else if let current, let i = rows.firstIndex(of: current) {
            cursor = i
        }
    }

    public var currentRow: Row? { rows.indices.contains(cursor) ? rows[cursor] : nil }

    /// The look under the cursor, if the cursor is on one.
    public var currentLook: LookFile? {
        if case .look(let look)? = currentRow { return look }
        return nil
    }

    /// Opens the Looks category with the cursor on `name`'s look (false when there is no such look).
    @discardableResult
    public func reveal(lookNamed name: String, own: Bool) -> Bool {
        looksExpanded = true
        rebuild()
        guard let i = rows.firstIndex(where: { if case .look(let l) = $0 { l.name == name && l.isOwn == own } else { false } }) else { return false }
        centreNextScroll = true
        cursor = i
        return true
    }

    /// The filter under the cursor, if the cursor is on a filter.
    public var currentFilter: FilterRecord? {
        if case .filter(let record)? = currentRow { return record }
        return nil
    }

    public func moveCursor(to row: Int) {
        cursor = min(max(0, row), max(0, rows.count - 1))
    }

    public func moveCursor(by delta: Int) { moveCursor(to: cursor + delta) }

    /// Expands or collapses a category row (a filter row acts on its category); the cursor stays on the category.
    public func toggle(row: Int? = nil) {
        let index = row ?? cursor
        guard rows.indices.contains(index) else { return }
        switch rows[index] {
        case .category(let category):
            category.toggleExpanded()
            rebuild()
            cursor = rows.firstIndex(of: .category(category)) ?? cursor
        case .filter(let record):
            guard let category = list.category(named: record.category) else { return }
            category.isExpanded = false
            rebuild()
            cursor = rows.firstIndex(of: .category(category)) ?? cursor
        case .looksHeader, .look:
            looksExpanded.toggle()
            rebuild()
            cursor = rows.firstIndex(of: .looksHeader) ?? cursor
        }
    }

    public func setExpanded(_ expanded: Bool) {
        switch currentRow {
        case .category(let category)? where category.isExpanded != expanded: toggle()
        case .looksHeader? where looksExpanded != expanded: toggle()
        default: break
        }
    }

    /// Moves the cursor to the category of the filter under it.
    public func moveToParent() {
        if case .look? = currentRow, let header = rows.firstIndex(of: .looksHeader) {
            cursor = header
            return
        }
        guard case .filter(let record)? = currentRow else { return }
        if let i = rows[..<cursor].lastIndex(where: {
            if case .category(let c) = $0 { return c.name == record.category }
            return false
        }) { cursor = i }
    }

    /// Shows a filter (expanding its category) and puts the cursor on it.
    @discardableResult
    public func reveal(filterNamed name: String) -> Bool {
        guard let record = list.record(named: name) else { return false }
        centreNextScroll = true
        if let i = index(ofFilter: name, preferring: nil) {
            cursor = i
            return true
        }
        list.category(named: record.category)?.isExpanded = true
        rebuild()
        guard let i = index(ofFilter: name, preferring: record.category) else { return false }
        cursor = i
        return true
    }

    private func index(ofFilter name: String, preferring category: String?) -> Int? {
        let matches = rows.indices.filter {
            if case .filter(let r) = rows[$0] { return r.filterName == name }
            return false
        }
        if let category, let preferred = matches.first(where: {
            if case .filter(let r) = rows[$0] { return r.category == category }
            return false
        }) { return preferred }
        return matches.first
    }

    /// Filter names matching a search (display name or Core Image name, any case), in list order.
    public func matches(_ query: String) -> [String] {
        let wanted = query.trimmingCharacters(in: .whitespaces).lowercased()
        guard !wanted.isEmpty else { return [] }
        return list.uniqueFilterNames.filter { name in
            guard let record = list.record(named: name) else { return false }
            return record.displayName.lowercased().contains(wanted) || name.lowercased().contains(wanted)
        }
    }

    /// Filter names whose description or input keys match a search (any case) but whose names do not, in list
    /// order: the second rank of a search.
    public func describedMatches(_ query: String) -> [String] {
        let wanted = query.trimmingCharacters(in: .whitespaces).lowercased()
        guard !wanted.isEmpty else { return [] }
        let named = Set(matches(query))
        return list.uniqueFilterNames.filter { name in
            guard !named.contains(name), let descriptor = list.record(named: name)?.descriptor else { return false }
            return descriptor.description.lowercased().contains(wanted)
                || descriptor.inputs.contains { $0.key.lowercased().contains(wanted) }
        }
    }

    /// The next (or previous) match after the filter under the cursor, wrapping around: names first, then
    /// descriptions and input keys (`n` goes through the name matches before the others).
    public func nextMatch(_ query: String, forward: Bool, includingCurrent: Bool = false) -> String? {
        let named = matches(query), described = describedMatches(query)
        let found = named + described
        guard !found.isEmpty else { return nil }
        let current = currentFilter?.filterName
        if let current, let index = found.firstIndex(of: current) {
            if includingCurrent { return current }
            return found[(index + (forward ? 1 : found.count - 1)) % found.count]
        }
        // From a filter that does not match: the nearest one after (before) it in the list, of the best rank.
        let order = list.uniqueFilterNames
        let position = current.flatMap { order.firstIndex(of: $0) } ?? -1
        let group = named.isEmpty ? described : named
        let ranked = group.compactMap { name in order.firstIndex(of: name).map { (name, $0) } }
        if forward {
            return (ranked.first { $0.1 >= position } ?? ranked.first)?.0
        }
        return (ranked.last { $0.1 < position } ?? ranked.last)?.0
    }

    /// Scrolls the view by `rows` (the wheel) without moving the cursor, as a file manager's list does: the
    /// filter shown stays until a click or Enter chooses another.
    public func scrollView(by rows: Int, height: Int) {
        guard height > 0 else { return }
        scroll = max(0, min(scroll + rows, max(0, self.rows.count - height)))
        followsCursor = false
    }

    /// Keeps the cursor inside a window of `height` rows (unless the wheel scrolled the view since it moved).
    public func scrollToCursor(height: Int) {
        guard height > 0 else { return }
        guard followsCursor else {
            scroll = max(0, min(scroll, max(0, rows.count - height)))
            return
        }
        if centreNextScroll, cursor < scroll || cursor >= scroll + height {
            scroll = cursor - height / 2
        }
        centreNextScroll = false
        if cursor < scroll { scroll = cursor }
        if cursor >= scroll + height { scroll = cursor - height + 1 }
        scroll = max(0, min(scroll, max(0, rows.count - height)))
    }
}
