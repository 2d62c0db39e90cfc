import FilterEngine
import Foundation

/// An affine transform: Enter opens the editor, ↑ ↓ choose a handle (rotate, scale, move x, move y), ← → step it.
struct TransformWidget: InputWidget {
    var kind: ControlKind { .transform }
    var help: (keys: String, meaning: String)? { ("transform editor", "↑↓ rotate/scale/move, ←→ step") }

    /// "rot 3° scale 0.98 move 10,0" rather than the six matrix numbers (`=` still types the matrix).
    func valueText(_ control: InputControl, explorer: Explorer) -> String {
        guard case .transform(let t)? = explorer.session?.value(forKey: control.input.key) else { return "(not set)" }
        return TransformSummary.text(t)
    }

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

/// An affine transform read as the editor's handles make it: a rotation, a scale (one number when uniform,
/// x×y when not, negative for a mirror), a shear when there is one, then a move.
public enum TransformSummary {
    public static func text(_ t: FilterEngine.AffineTransform) -> String {
        // [a c; b d] = rotation(θ) · [sx k; 0 sy]: the first column gives θ and sx, the determinant sy.
        let sx = (t.a * t.a + t.b * t.b).squareRoot()
        guard sx > 1e-12 else { return "[" + t.values.map(formatNumber).joined(separator: " ") + "] (flattened)" }
        let angle = atan2(t.b, t.a) * 180 / .pi
        let sy = t.determinant / sx
        let shear = (t.a * t.c + t.b * t.d) / (sx * sx)
        func rounded(_ v: Double, _ places: Double) -> String {
            let r = (v * places).rounded() / places
            return formatNumber(r == 0 ? 0 : r).replacingOccurrences(of: "-", with: "−")
        }
        var parts: [String] = []
        if rounded(angle, 100) != "0" { parts.append("rot \(rounded(angle, 100))°") }
        let (x, y) = (rounded(sx, 1000), rounded(sy, 1000))
        if x != y { parts.append("scale \(x)×\(y)") } else if x != "1" { parts.append("scale \(x)") }
        if rounded(shear, 1000) != "0" { parts.append("shear \(rounded(shear, 1000))") }
        if rounded(t.tx, 100) != "0" || rounded(t.ty, 100) != "0" { parts.append("move \(rounded(t.tx, 100)),\(rounded(t.ty, 100))") }
        return parts.isEmpty ? "identity" : parts.joined(separator: " ")
    }
}
