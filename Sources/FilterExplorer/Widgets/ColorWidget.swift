import FilterEngine
import Foundation

/// A colour: a swatch, its hex and components. Enter opens the component editor (↑ ↓ component, ← → step,
/// # or = typed entry); text entry takes the forms `ColorText` reads (hex, names, hsv/hsl, `r g b [a]`). An
/// opaque colour (`CIAttributeTypeOpaqueColor`) refuses an alpha below 1 rather than quietly dropping it, so
/// what is shown is what the filter gets.
struct ColorWidget: InputWidget {
    var kind: ControlKind { .color }
    var help: (keys: String, meaning: String)? {
        ("colour editor", "↑↓ component, ←→ step, # or = type it: \(ColorText.forms); I picks it from the picture")
    }

    func setText(_ text: String, control: InputControl, explorer: Explorer) throws {
        guard let session = explorer.session else { return }
        let key = control.input.key
        guard let color = ColorText.parse(text) else {
            throw FilterExplorerError("\(key): \"\(text)\" is not a colour; type one of \(ColorText.forms); I picks it from the picture")
        }
        try Self.checkOpaque(color, control: control)
        try session.set(.color(color), forKey: key)
    }

    /// An opaque colour input's refusal of an alpha below 1.
    static func checkOpaque(_ color: Color, control: InputControl) throws {
        guard control.input.type == .opaqueColor, color.alpha < 1 else { return }
        throw FilterExplorerError("\(control.input.key) is an opaque colour: its alpha stays 1 (\(formatNumber(color.alpha)) refused)")
    }

    func drawRow(_ row: WidgetRow, explorer: Explorer) {
        let terminal = explorer.terminal
        guard case .color(let c)? = explorer.session?.value(forKey: row.control.input.key) else {
            terminal.put(row.y, row.x, "(not set)", width: row.width)
            return
        }
        var column = row.x
        let end = row.x + row.width
        if terminal.colorMode != .monochrome {
            let pair = Int32(16 + row.index % 16)
            terminal.setPair(pair, fg: -1, bg: TerminalPalette.index(red: c.red, green: c.green, blue: c.blue, mode: terminal.colorMode))
            terminal.putCell(row.y, column, 32, pair: pair)
            terminal.putCell(row.y, column + 1, 32, pair: pair)
            column += 3
        }
        terminal.put(row.y, column, ColorStepper.hex(c), .init(bold: row.selected))
        column += 11
        let active = row.editor?.selection
        for (i, name) in ColorStepper.componentNames.enumerated() where column < end {
            let part = "\(name) \(String(format: "%.2f", c.components[i]))"
            terminal.put(row.y, column, part, width: end - column, .init(active == i ? .accent : nil, bold: active == i, reverse: active == i))
            column += part.count + 1
        }
    }

    func activate(_ control: InputControl, explorer: Explorer) { openEditor(control, explorer: explorer) }

    /// A click on the swatch (the row's first two columns) picks the colour from the picture.
    func rowMouse(_ action: MouseEvent.Action, column: Int, width: Int, control: InputControl, explorer: Explorer) -> Bool {
        if action == .press || action == .click, (0..<2).contains(column) { explorer.startColorPick(control) }
        return false
    }

    func editorKey(_ key: Key, editor: inout WidgetEditor, control: InputControl, explorer: Explorer) -> EditorOutcome {
        guard case .color(let color)? = explorer.session?.value(forKey: control.input.key) else { return .editing }
        let component = editor.selection
        func stepped(_ steps: Int, _ coarse: Bool) {
            let next = ColorStepper.stepped(color, component: component, by: steps, coarse: coarse)
            do { try Self.checkOpaque(next, control: control) } catch {
                explorer.message = .init(text: "\(error)", isError: true)
                return
            }
            explorer.apply(.color(next), to: control.input.key)
        }
        switch key {
        case .up, .char("k"), .backTab: editor.selection = (component + 3) % 4
        case .down, .char("j"), .tab: editor.selection = (component + 1) % 4
        case .left, .char("h"): stepped(-1, false)
        case .right, .char("l"): stepped(1, false)
        case .shiftLeft, .char("H"), .char("["), .pageDown: stepped(-1, true)
        case .shiftRight, .char("L"), .char("]"), .pageUp: stepped(1, true)
        case .char("#"): return .typeValue(initial: ColorStepper.hex(color))
        case .char("="): return .typeValue(initial: nil)
        default: break
        }
        return .editing
    }

    func editorHint(_ editor: WidgetEditor) -> String? {
        "colour: ↑↓ component, ←→ step (Shift ×10), # or = type (\(ColorText.forms)), I pick, Enter done, Esc cancel"
    }
    func editorShortHint(_ editor: WidgetEditor) -> String? { "colour: ↑↓ ←→, # type (ff0000 red hsv()), Enter/Esc" }
}
