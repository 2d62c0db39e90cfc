import FilterEngine

/// An input with a fixed set of values (`ExplorerHints.choices`: QR correction levels, compaction modes):
/// ← → step through them; Enter opens a list to pick from with ↑ ↓ and Enter, or a click.
struct ChoiceWidget: InputWidget {
    let choices: [Choice]
    var kind: ControlKind { .choice(choices) }
    static let listHelp = ("list (choices)", "↑↓ choose, Enter keeps, Esc cancels, click picks")
    var help: (keys: String, meaning: String)? { Self.listHelp }

    func index(of control: InputControl, explorer: Explorer) -> Int? {
        let value = explorer.session?.value(forKey: control.input.key)
        return choices.firstIndex { $0.matches(value) }
    }

    func valueText(_ control: InputControl, explorer: Explorer) -> String {
        if let i = index(of: control, explorer: explorer) { return choices[i].label }
        return ControlDisplay.text(explorer.session?.value(forKey: control.input.key), kind: kind)
    }

    func drawRow(_ row: WidgetRow, explorer: Explorer) {
        let g = explorer.glyphs
        explorer.terminal.put(row.y, row.x, "\(g.left) \(valueText(row.control, explorer: explorer)) \(g.right)  (Enter: list)",
                              width: row.width, .init(bold: row.selected))
    }

    func step(_ control: InputControl, by steps: Int, coarse: Bool, explorer: Explorer) {
        let current = index(of: control, explorer: explorer).map { choices[$0] }
        guard let next = ChoiceCycle.step(choices, from: current, by: steps) else { return }
        explorer.apply(next.filterValue, to: control.input.key)
    }

    func rowMouse(_ action: MouseEvent.Action, column: Int, width: Int, control: InputControl, explorer: Explorer) -> Bool {
        if action != .drag, column >= 0 { step(control, by: column < 2 ? -1 : 1, coarse: false, explorer: explorer) }
        return false
    }

    func activate(_ control: InputControl, explorer: Explorer) {
        openEditor(control, explorer: explorer, selection: index(of: control, explorer: explorer) ?? 0)
    }

    func textPrompt(_ control: InputControl) -> String {
        "\(control.input.key) (\(choices.map(\.label).joined(separator: ", "))) = "
    }

    func setText(_ text: String, control: InputControl, explorer: Explorer) throws {
        let wanted = text.trimmingCharacters(in: .whitespaces)
        let found = choices.first { choice in
            switch choice.value {
            case .string(let s): s.caseInsensitiveCompare(wanted) == .orderedSame
            case .number(let n): (try? NumberExpression.evaluate(wanted, default: nil).value) == n
            }
        } ?? choices.first { $0.label.caseInsensitiveCompare(wanted) == .orderedSame }
        guard let found else {
            throw FilterExplorerError("\(control.input.key) must be one of \(choices.map(\.label).joined(separator: ", ")) (not \"\(wanted)\")")
        }
        try explorer.session?.set(found.filterValue, forKey: control.input.key)
    }

    // MARK: The list

    func editorKey(_ key: Key, editor: inout WidgetEditor, control: InputControl, explorer: Explorer) -> EditorOutcome {
        switch key {
        case .up, .char("k"), .left, .char("h"), .backTab: editor.selection = (editor.selection + choices.count - 1) % choices.count
        case .down, .char("j"), .right, .char("l"), .tab: editor.selection = (editor.selection + 1) % choices.count
        case .home, .char("g"): editor.selection = 0
        case .end, .char("G"): editor.selection = choices.count - 1
        case .char("="): return .typeValue(initial: nil)
        default: return .editing
        }
        // The preview follows the highlighted entry; Esc puts the old value back.
        explorer.apply(choices[editor.selection].filterValue, to: control.input.key)
        return .editing
    }

    var editorCoversPreview: Bool { true }
    func editorHint(_ editor: WidgetEditor) -> String? { "list: ↑↓ choose, Enter done, Esc cancel, click picks" }
    func editorShortHint(_ editor: WidgetEditor) -> String? { "list: ↑↓, Enter/Esc" }

    /// The list's box: above the row when there is room, else below it.
    func listRect(rowY: Int, x: Int, explorer: Explorer) -> CellRect {
        let widest = max(choices.map(\.label.count).max() ?? 4, explorer.currentControl?.input.displayName.count ?? 0)
        let width = min(explorer.layout.columns - x, widest + 6)
        let height = choices.count + 2
        let top = rowY - height >= 1 ? rowY - height : rowY + 1
        return CellRect(x: x, y: top, width: max(6, width), height: height)
    }

    func drawEditor(_ editor: WidgetEditor, control: InputControl, rowY: Int, explorer: Explorer) {
        let rect = listRect(rowY: rowY, x: explorer.valueColumn, explorer: explorer)
        let terminal = explorer.terminal
        terminal.fill(rect.y, rect.x, width: rect.width, height: rect.height, .init(reverse: true))
        terminal.put(rect.y, rect.x + 1, " \(control.input.displayName) ", width: rect.width - 2, .init(bold: true, reverse: true))
        for (i, choice) in choices.enumerated() {
            let chosen = i == editor.selection
            terminal.put(rect.y + 1 + i, rect.x + 1, (chosen ? "› " : "  ") + choice.label, width: rect.width - 2,
                         .init(chosen ? .accent : nil, bold: chosen, reverse: !chosen))
        }
    }

    func editorMouse(_ mouse: MouseEvent, editor: inout WidgetEditor, control: InputControl, explorer: Explorer) -> EditorOutcome? {
        let rect = listRect(rowY: explorer.currentRowY, x: explorer.valueColumn, explorer: explorer)
        guard rect.contains(x: mouse.x, y: mouse.y) else { return nil }
        let i = mouse.y - rect.y - 1
        guard choices.indices.contains(i), mouse.action == .press || mouse.action == .click else { return .editing }
        editor.selection = i
        explorer.apply(choices[i].filterValue, to: control.input.key)
        return .done
    }
}

/// A widget whose Enter opens a `ChoiceWidget` list of its values (booleans, colour spaces): the list's editor
/// serves it whole.
protocol PickerBackedWidget: InputWidget {
    var picker: ChoiceWidget { get }
}

extension PickerBackedWidget {
    func activate(_ control: InputControl, explorer: Explorer) { picker.activate(control, explorer: explorer) }
    func editorKey(_ key: Key, editor: inout WidgetEditor, control: InputControl, explorer: Explorer) -> EditorOutcome {
        picker.editorKey(key, editor: &editor, control: control, explorer: explorer)
    }
    var editorCoversPreview: Bool { true }
    func editorHint(_ editor: WidgetEditor) -> String? { picker.editorHint(editor) }
    func editorShortHint(_ editor: WidgetEditor) -> String? { picker.editorShortHint(editor) }
    func drawEditor(_ editor: WidgetEditor, control: InputControl, rowY: Int, explorer: Explorer) {
        picker.drawEditor(editor, control: control, rowY: rowY, explorer: explorer)
    }
    func editorMouse(_ mouse: MouseEvent, editor: inout WidgetEditor, control: InputControl, explorer: Explorer) -> EditorOutcome? {
        picker.editorMouse(mouse, editor: &editor, control: control, explorer: explorer)
    }
}
