import FilterEngine

/// An affine transform: Enter opens the editor, ↑ ↓ choose a handle (rotate, scale, move x, move y), ← → step it.
struct TransformWidget: InputWidget {
    var kind: ControlKind { .transform }
    var help: (keys: String, meaning: String)? { ("transform editor", "↑↓ rotate/scale/move, ←→ step") }

    func drawRow(_ row: WidgetRow, explorer: Explorer) {
        let text = valueText(row.control, explorer: explorer)
        let terminal = explorer.terminal
        guard let editor = row.editor else {
            terminal.put(row.y, row.x, text, width: row.width, .init(bold: row.selected))
            return
        }
        terminal.put(row.y, row.x, text, width: row.width)
        var column = row.x + text.count + 2
        let end = row.x + row.width
        for h in TransformHandle.allCases where column < end {
            let on = h.rawValue == editor.selection
            terminal.put(row.y, column, h.label, width: end - column, .init(on ? .accent : nil, bold: on, reverse: on))
            column += h.label.count + 1
        }
    }

    func activate(_ control: InputControl, explorer: Explorer) { openEditor(control, explorer: explorer) }

    func editorKey(_ key: Key, editor: inout WidgetEditor, control: InputControl, explorer: Explorer) -> EditorOutcome {
        guard case .transform(let t)? = explorer.session?.value(forKey: control.input.key) else { return .editing }
        let handle = TransformHandle(rawValue: editor.selection) ?? .rotate
        func stepped(_ steps: Int, _ coarse: Bool) {
            explorer.apply(.transform(handle.applied(to: t, steps: steps, coarse: coarse)), to: control.input.key)
        }
        switch key {
        case .up, .char("k"), .backTab: editor.selection = (editor.selection + 3) % 4
        case .down, .char("j"), .tab: editor.selection = (editor.selection + 1) % 4
        case .left, .char("h"): stepped(-1, false)
        case .right, .char("l"): stepped(1, false)
        case .shiftLeft, .char("H"), .char("["): stepped(-1, true)
        case .shiftRight, .char("L"), .char("]"): stepped(1, true)
        case .char("="): return .typeValue(initial: nil)
        default: break
        }
        return .editing
    }

    func editorHint(_ editor: WidgetEditor) -> String? { "transform: ↑↓ handle, ←→ step (Shift coarse), Enter done, Esc cancel" }
    func editorShortHint(_ editor: WidgetEditor) -> String? { "transform: ↑↓ ←→, Enter/Esc" }
}
