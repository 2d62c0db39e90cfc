import FilterEngine
import Foundation

/// The chain strip: one row above the inputs, `Chain: 1 CITemperatureAndTint › 2 CIVignette › 3 ⊘CIRandomGenerator`,
/// the selected step highlighted, bypassed steps dimmed and marked ⊘, scrolled to keep the selected step in view.
/// Pure, so every width can be tested.
struct ChainStrip {
    struct Item: Equatable {
        var text: String
        var selected: Bool
        var bypassed: Bool
        /// The step the item names (nil for "…").
        var step: Int? = nil
    }

    static let separator = " › "
    static let asciiSeparator = " > "

    /// The items that fit `width` columns after the label, with "…" where steps are left out at either end.
    static func items(names: [String], bypassed: [Bool], selected: Int, width: Int, unicode: Bool = true) -> [Item] {
        let all = names.enumerated().map { index, name in
            Item(text: "\(index + 1) " + (bypassed[index] ? (unicode ? "⊘" : "-") : "") + name,
                 selected: index == selected, bypassed: bypassed[index], step: index)
        }
        let separator = unicode ? Self.separator : Self.asciiSeparator
        func length(_ range: Range<Int>) -> Int {
            all[range].map(\.text.count).reduce(0, +) + max(0, range.count - 1) * separator.count
                + (range.lowerBound > 0 ? 1 + separator.count : 0) + (range.upperBound < all.count ? 1 + separator.count : 0)
        }
        guard !all.isEmpty else { return [] }
        // Grow a window around the selected step, later steps first, while it fits.
        var range = selected..<(selected + 1)
        while true {
            if range.upperBound < all.count, length(range.lowerBound..<(range.upperBound + 1)) <= width {
                range = range.lowerBound..<(range.upperBound + 1)
            } else if range.lowerBound > 0, length((range.lowerBound - 1)..<range.upperBound) <= width {
                range = (range.lowerBound - 1)..<range.upperBound
            } else {
                break
            }
        }
        var items = Array(all[range])
        if range.lowerBound > 0 { items.insert(Item(text: "…", selected: false, bypassed: false), at: 0) }
        if range.upperBound < all.count { items.append(Item(text: "…", selected: false, bypassed: false)) }
        return items
    }

    /// The step drawn at `column` (0 = the first column after the label), as `items` lays the strip out; nil
    /// on a separator, an "…" or past the end.
    static func step(atColumn column: Int, items: [Item], unicode: Bool = true) -> Int? {
        let separator = unicode ? Self.separator : Self.asciiSeparator
        var x = 0
        for (i, item) in items.enumerated() {
            if i > 0 { x += separator.count }
            if column >= x, column < x + item.text.count { return item.step }
            x += item.text.count
        }
        return nil
    }
}

extension Explorer {
    /// Draws the strip in `layout.chain` (nothing when the layout gives it no row).
    func drawChainStrip(_ layout: ExplorerLayout) {
        let area = layout.chain
        guard !area.isEmpty, chain.count > 0 else { return }
        let focused = focus == .chain
        terminal.put(area.y, area.x + 1, chainStripLabel, width: area.width - 1, .init(focused ? .accent : .dim, bold: focused))
        guard let strip = chainStripItems(layout) else { return }
        let separator = glyphs.unicode ? ChainStrip.separator : ChainStrip.asciiSeparator
        var x = strip.x
        for (i, item) in strip.items.enumerated() {
            if i > 0 {
                terminal.put(area.y, x, separator, width: area.maxX - x, .init(.dim))
                x += separator.count
            }
            let style = Terminal.Style(item.bypassed ? .dim : nil, bold: item.selected, reverse: item.selected && focused,
                                       dim: item.bypassed, underline: item.selected && !focused)
            terminal.put(area.y, x, item.text, width: area.maxX - x, style)
            x += item.text.count
        }
    }

    /// The keys are in the status line while the strip has the focus; otherwise the label names the key.
    private var chainStripLabel: String { focus == .chain ? "Chain: " : "Chain (c): " }

    /// Where the strip's steps start and the items drawn there (nil when there is no room for them).
    private func chainStripItems(_ layout: ExplorerLayout) -> (x: Int, items: [ChainStrip.Item])? {
        let area = layout.chain
        let x0 = area.x + 1 + chainStripLabel.count
        let width = area.maxX - x0
        guard !area.isEmpty, chain.count > 0, width > 4 else { return nil }
        return (x0, ChainStrip.items(names: chain.steps.map(\.session.name), bypassed: chain.steps.map(\.bypass),
                                     selected: chain.selected, width: width, unicode: glyphs.unicode))
    }

    /// A click on the strip: on a step it selects that step (as ← → do) and gives the strip the focus; elsewhere
    /// on the strip it only gives the focus.
    func clickChainStrip(x: Int) {
        // Where the steps are as drawn now (the label, and so the steps, move when the focus comes).
        let clicked = chainStripItems(layout).flatMap {
            ChainStrip.step(atColumn: x - $0.x, items: $0.items, unicode: glyphs.unicode)
        }
        focus = .chain
        needsRender = true
        if let clicked, clicked != chain.selected { selectStep(clicked) }
    }

    /// The title's note on what the preview shows, for a chain of several steps.
    var chainTitleLabel: String? {
        guard chain.count > 1 else { return nil }
        return chain.previewsSelectedStep ? "step \(chain.selected + 1) of \(chain.count) (s: chain)"
            : "chain of \(chain.count) (s: step \(chain.selected + 1))"
    }

    /// The status line's hint while the chain panel has the focus (long and short forms).
    var chainHint: (String, String)? {
        guard focus == .chain else { return nil }
        return ("chain: ←→ step · o/O add after/before · D remove · < > move · Space bypass · s step/chain preview · Enter edit",
                "chain: ←→ o O D < > Space s Enter")
    }
}
