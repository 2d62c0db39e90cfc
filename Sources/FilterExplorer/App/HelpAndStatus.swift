/// The status line's parts, fitted to the width by priority: parts that do not fit are first shortened (their
/// short form), then left out, least important first; words are never cut. Pure, so every width can be tested.
struct StatusLine {
    struct Part: Equatable {
        var text: String
        /// A shorter form to use before leaving the part out.
        var short: String?
        /// 0 is the most important; larger numbers give way first.
        var priority: Int
        /// Whether the part may be cut at a word (with "…") to fill what is left, rather than left out.
        var cuttable = false
    }

    static let separator = " · "

    /// The parts that fit in `width` columns, in their order, joined by the separator.
    static func fit(_ parts: [Part], width: Int) -> String {
        // Each part keeps its place in the line: `order` is its index in `parts`.
        var kept = Array(zip(parts.indices, parts))
        var removed: [(order: Int, part: Part)] = []
        func length(_ list: [(Int, Part)]) -> Int {
            list.map(\.1.text.count).reduce(0, +) + max(0, list.count - 1) * separator.count
        }
        while length(kept) > width, !kept.isEmpty {
            // The least important part gives way first (the later one among equals).
            let index = kept.indices.max { (kept[$0].1.priority, $0) < (kept[$1].1.priority, $1) }!
            if let short = kept[index].1.short {
                kept[index].1.text = short
                kept[index].1.short = nil
            } else if kept[index].1.cuttable || kept.count == 1 {
                let room = width - (length(kept) - kept[index].1.text.count)
                // A cut that keeps only a word or two says nothing: leave the part out then.
                if let cut = cutAtWord(kept[index].1.text, width: room), cut.count >= 20 || kept.count == 1 {
                    kept[index].1.text = cut
                    kept[index].1.cuttable = false
                } else {
                    removed.append(kept.remove(at: index))
                }
            } else {
                removed.append(kept.remove(at: index))
            }
        }
        // A part left out early may fit again once later ones were shortened: put back what fits, most important first.
        for (order, part) in removed.sorted(by: { $0.part.priority < $1.part.priority }) {
            var candidate = kept
            candidate.insert((order, part), at: candidate.firstIndex { $0.0 > order } ?? candidate.count)
            if length(candidate) <= width { kept = candidate }
        }
        return kept.map(\.1.text).joined(separator: separator)
    }

    /// `text` cut at the last space that leaves it and "…" within `width`, or nil if no word fits.
    static func cutAtWord(_ text: String, width: Int) -> String? {
        guard width >= 2 else { return nil }
        if text.count <= width { return text }
        let head = text.prefix(width - 1)
        guard let space = head.lastIndex(of: " ") else { return nil }
        let kept = head[..<space].trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? nil : kept + "…"
    }
}

/// The `?` help laid out for a screen: each key and what it does, the text wrapped to the width (keys in a column
/// beside it when there is room, above it when not), scrolled when it is taller than the screen.
struct HelpLayout {
    struct Row: Equatable {
        var keys: String
        var text: String
    }

    /// Where the box is on the screen.
    let box: CellRect
    /// Every row of the help, in order (an entry takes one row or more).
    let rows: [Row]
    /// The width of the keys' column (0: keys get rows of their own).
    let keyWidth: Int
    /// How many rows of `rows` the box shows at once.
    let visibleCount: Int

    /// The title that fits `width`: every scroll key when the help scrolls and there is room, fewer when not.
    func title(width: Int) -> String {
        let titles = maximumScroll > 0
            ? ["Keys (any key closes) · ↑↓ PgUp PgDn Home End scroll", "Keys (any key closes) · ↑↓ scroll", "Keys (↑↓ scroll)"]
            : ["Keys (any key closes)", "Keys"]
        return titles.first { $0.count <= width } ?? titles.last!
    }

    init(entries: [(String, String)], columns: Int, rows screenRows: Int) {
        // A margin around the box when the screen has room for one.
        let margin = columns >= 60 ? 2 : 0
        let longestKeys = entries.map(\.0.count).max() ?? 0
        let longestText = entries.map(\.1.count).max() ?? 0
        let available = max(10, columns - 2 * margin - 4)
        var keyWidth = min(longestKeys, max(14, available / 3))
        let sideBySide = available - keyWidth - 1 >= 30
        if !sideBySide { keyWidth = 0 }
        let inner = min(available, sideBySide ? keyWidth + 1 + longestText : max(longestKeys, longestText + 2))
        var rows: [Row] = []
        for (keys, text) in entries {
            if sideBySide {
                let keyLines = wrap(keys, width: keyWidth)
                let textLines = wrap(text, width: inner - keyWidth - 1)
                for i in 0..<max(keyLines.count, textLines.count) {
                    rows.append(Row(keys: i < keyLines.count ? keyLines[i] : "", text: i < textLines.count ? textLines[i] : ""))
                }
            } else {
                rows += wrap(keys, width: inner).map { Row(keys: $0, text: "") }
                rows += wrap(text, width: inner - 2).map { Row(keys: "", text: "  " + $0) }
            }
        }
        self.rows = rows
        self.keyWidth = keyWidth
        let boxWidth = inner + 4
        // A title row above the text and a row below it (the scroll position when scrolled).
        let height = min(max(3, screenRows - (screenRows >= 16 ? 2 : 0)), rows.count + 2)
        visibleCount = max(1, height - 2)
        box = CellRect(x: max(0, (columns - boxWidth) / 2), y: max(0, (screenRows - height) / 2), width: boxWidth, height: height)
    }

    /// The largest useful scroll offset (0 when everything fits).
    var maximumScroll: Int { max(0, rows.count - visibleCount) }

    /// `scroll` moved by a help key (arrows, j/k, PgUp/PgDn, Home/End, g/G, the wheel); nil for a key that
    /// closes the help.
    func scrolled(_ scroll: Int, by key: Key) -> Int? {
        let page = max(1, visibleCount - 1)
        let next: Int
        switch key {
        case .up, .char("k"): next = scroll - 1
        case .down, .char("j"): next = scroll + 1
        case .pageUp, .shiftUp: next = scroll - page
        case .pageDown, .shiftDown, .char(" "): next = scroll + page
        case .home, .char("g"): next = 0
        case .end, .char("G"): next = maximumScroll
        default: return nil
        }
        return min(max(0, next), maximumScroll)
    }

    /// "12–20 of 45 ↓": which rows are shown, when not all are.
    func position(scroll: Int) -> String? {
        guard maximumScroll > 0 else { return nil }
        let last = min(rows.count, scroll + visibleCount)
        let arrows = (scroll > 0 ? "↑" : "") + (scroll < maximumScroll ? "↓" : "")
        return "\(scroll + 1)–\(last) of \(rows.count) \(arrows)"
    }
}

/// The key bar (as htop's and lazygit's): the keys of the current context, each with a word or two, fitted to the
/// width by leaving out the least important first. `? help` is never left out. Pure, so every width can be tested.
struct KeyBar {
    struct Item: Equatable {
        var key: String
        var label: String
        /// 0 is the most important; larger numbers give way first.
        var priority: Int

        init(_ key: String, _ label: String, _ priority: Int) {
            (self.key, self.label, self.priority) = (key, label, priority)
        }

        var width: Int { key.count + 1 + label.count }
    }

    static let help = Item("?", "help", 0)
    static let gap = "  "

    /// The items that fit in `width` columns, in their order (`? help` always, even when nothing else fits).
    static func fit(_ items: [Item], width: Int) -> [Item] {
        var kept = items
        func length(_ list: [Item]) -> Int { list.map(\.width).reduce(0, +) + max(0, list.count - 1) * gap.count }
        while length(kept) > width, let index = kept.indices.filter({ kept[$0] != help })
            .max(by: { (kept[$0].priority, $0) < (kept[$1].priority, $1) }) {
            kept.remove(at: index)
        }
        return kept
    }

    /// The bar as plain text (tests read it so).
    static func text(_ items: [Item], width: Int) -> String {
        fit(items, width: width).map { "\($0.key) \($0.label)" }.joined(separator: gap)
    }
}
