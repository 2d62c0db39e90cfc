import FilterEngine

/// The key bar's items for what the explorer is doing now (`KeyBar` fits them to the width).
extension Explorer {
    var keyBarItems: [KeyBar.Item] {
        typealias Item = KeyBar.Item
        switch mode {
        case .help:
            return [Item("↑↓ PgUp PgDn", "scroll", 1), Item("other keys", "close", 0)]
        case .details:
            return [Item("any key", "closes", 0)]
        case .text(let entry):
            if case .search = entry.purpose {
                return [Item("Enter", "go there", 0), Item("Esc", "back", 0), Item("n N", "next / previous (after Enter)", 2)]
            }
            let tab = entry.paths == nil ? [] : [Item("Tab", "complete the path", 1)]
            return [Item("Enter", "accept", 0), Item("Esc", "cancel", 0)] + tab + [Item("← →", "move", 2), Item("Ctrl-U", "clear", 3)]
        case .editor:
            return [Item("Enter", "done", 0), Item("Esc", "cancel", 0)]
        case .view:
            return [Item("arrows", "pan", 1), Item("+ -", "zoom", 1), Item("1", "1:1", 2), Item("0", "fit", 2),
                    Item("Enter", "done", 1)]
        case .inspect where colorPick != nil:
            return [Item("arrows", "move", 1), Item("Enter click", "take the colour", 0), Item("Esc", "cancel", 0), KeyBar.help]
        case .inspect:
            return [Item("arrows", "move", 1), Item("Shift", "a cell", 3), Item("click", "a pixel", 4),
                    Item("Esc", "leave", 1), KeyBar.help]
        case .normal:
            break
        }
        var items: [Item]
        switch focus {
        case .chain:
            items = [Item("← →", "step", 1), Item("o O", "add", 1), Item("D", "remove", 2), Item("< >", "move", 3),
                     Item("Space", "bypass", 3), Item("s", "step/chain", 4), Item("Enter", "edit", 1)]
        case .filters:
            items = [Item("Enter", "choose", 2), Item("Tab", "inputs", 2), Item("/", "search", 1)]
        case .controls:
            items = [Item("← →", "adjust", 1), Item("Enter", "type", 1), Item("u", "undo", 2), Item("r", "reset", 3),
                     Item("Tab", "list", 3)]
            if currentControl?.kind == .color { items.insert(Item("I", "pick from the picture", 1), at: 2) }
        }
        items += [Item("e", "export", 1), focus == .chain ? nil : Item("c", "chain", 1),
                  Item("a", playback.animation == nil ? "animate" : "stop", 2), Item("i", "details", 3)]
            .compactMap { $0 }
        if let video = playback.video {
            items.insert(Item("v", playback.videoPaused ? "play" : "pause", 1), at: 0)
            if video.canSeek { items.insert(contentsOf: [Item(", .", "frame", 2), Item("< >", "±\(formatNumber(Self.videoJumpSeconds)) s", 2)], at: 1) }
        }
        items.append(Item(Self.splitKeyLabel, split == nil ? "split" : "unsplit", 3))
        if split != nil { items.append(Item("{ }", "divider", 2)) }
        items += [Item("b", showOriginal ? "after" : "before", 4), Item("+ -", "zoom", 4), Item("p", "pixel", 5),
                  Item("S", "save look", 5), Item("f", "full screen", 6), KeyBar.help]
        return items
    }

    func drawKeyBar(_ layout: ExplorerLayout) {
        let bar = layout.keyBar
        guard bar.height > 0 else { return }
        var x = bar.x + 1
        for (index, item) in KeyBar.fit(keyBarItems, width: bar.width - 2).enumerated() {
            if index > 0 { x += KeyBar.gap.count }
            terminal.put(bar.y, x, item.key, .init(.accent, bold: true))
            terminal.put(bar.y, x + item.key.count + 1, item.label, .init(.dim))
            x += item.width
        }
    }
}
