import FilterEngine
import Foundation

/// One of CIToneCurve's five points. The five are edited together: Enter opens the curve editor (Tab or 0-4
/// choose a point, arrows move it with x held between its neighbours); the curve is plotted in a box on the
/// preview while a point is the current input.
struct ToneCurveWidget: InputWidget {
    let index: Int
    var kind: ControlKind { .curvePoint(index: index) }
    var help: (keys: String, meaning: String)? { ("tone-curve editor", "Tab or 0-4 choose a point, arrows move it (Shift or HJKL ×10)") }

    func drawRow(_ row: WidgetRow, explorer: Explorer) {
        var text = valueText(row.control, explorer: explorer)
        if row.selected { text += explorer.editor != nil ? "  ← ↑ → ↓ move · Tab/0-4 point" : "  (tone curve: Enter edits)" }
        explorer.terminal.put(row.y, row.x, text, width: row.width, .init(bold: row.selected))
    }

    func activate(_ control: InputControl, explorer: Explorer) {
        openEditor(control, explorer: explorer, keys: (0..<ToneCurveEditor.pointCount).map(ToneCurveEditor.key))
    }

    func previewDrag(_ drag: PreviewDrag, to point: (x: Double, y: Double), control: InputControl, explorer: Explorer) {
        explorer.message = .init(text: "tone-curve points move with the arrow keys: Enter opens the curve editor", isError: false)
    }

    func editorKey(_ key: Key, editor: inout WidgetEditor, control: InputControl, explorer: Explorer) -> EditorOutcome {
        guard let session = explorer.session else { return .done }
        switch key {
        case .tab, .backTab, .char("0"), .char("1"), .char("2"), .char("3"), .char("4"):
            let count = ToneCurveEditor.pointCount
            let target: Int = switch key {
            case .tab: (index + 1) % count
            case .backTab: (index + count - 1) % count
            case .char(let c): c.wholeNumberValue ?? index
            default: index
            }
            // The inputs' cursor follows the selected point; the editor stays open on it.
            if let row = session.controls.firstIndex(where: { $0.kind == .curvePoint(index: target) }) { explorer.controlCursor = row }
        case .char("="):
            return .typeValue(initial: nil)
        default:
            guard let (dx, dy, coarse) = explorer.arrow(key) else { return .editing }
            explorer.apply(.vector(ToneCurveEditor.moved(session.curvePoints, index: index, dx: dx, dy: dy, coarse: coarse)),
                           to: control.input.key)
        }
        return .editing
    }

    func editorHint(_ editor: WidgetEditor) -> String? { "curve: Tab/0-4 point, arrows move (Shift ×10), Enter done, Esc cancel" }
    func editorShortHint(_ editor: WidgetEditor) -> String? { "curve: Tab, arrows, Enter/Esc" }

    /// The curve as the engine computes it, the diagonal for reference, the points by number with the selected
    /// one highlighted. Cells are about twice as tall as wide, so the box is twice as wide as tall.
    func drawPanel(_ control: InputControl, area: CellRect, editing: Bool, explorer: Explorer) {
        guard let session = explorer.session else { return }
        let terminal = explorer.terminal, glyphs = explorer.glyphs
        let points = session.curvePoints
        guard points.allSatisfy({ $0.count == 2 }) else { return }
        let height = min(area.height - 2, 16), width = min(area.width - 4, height * 2 + 1)
        guard height >= 5, width >= 11 else { return }
        let left = area.maxX - width - 2, top = area.maxY - height - 2
        let frame = Terminal.Style(editing ? .accent : nil, bold: editing)
        terminal.fill(top, left, width: width + 2, height: height + 2)
        let rule = String(repeating: glyphs.horizontal, count: width)
        terminal.put(top, left, glyphs.corners.topLeft + rule + glyphs.corners.topRight, frame)
        terminal.put(top + height + 1, left, glyphs.corners.bottomLeft + rule + glyphs.corners.bottomRight, frame)
        for y in (top + 1)...(top + height) {
            terminal.put(y, left, glyphs.vertical, frame)
            terminal.put(y, left + width + 1, glyphs.vertical, frame)
        }
        terminal.put(top, left + 2, editing ? " Tone curve: Tab/0-4, arrows " : " Tone curve (Enter edits) ", width: width - 2, frame)
        let p = points[index]
        terminal.put(top + height + 1, left + 2, " point \(index) [\(String(format: "%.2f %.2f", p[0], p[1]))] ",
                     width: width - 2, frame)

        let x0 = left + 1, y0 = top + 1
        func row(_ v: Double) -> Int { y0 + height - 1 - Int((min(1, max(0, v)) * Double(height - 1)).rounded()) }
        func column(_ u: Double) -> Int { x0 + Int((min(1, max(0, u)) * Double(width - 1)).rounded()) }
        for c in 0..<width { terminal.put(row(Double(c) / Double(width - 1)), x0 + c, glyphs.reference, .init(.dim)) }
        let extrapolate = if case .number(let n)? = session.value(forKey: "inputExtrapolate") { n != 0 } else { false }
        if let curve = try? ToneCurveEditor.plot(points: points, extrapolate: extrapolate, count: width) {
            var previous: Int?
            for (c, y) in curve.enumerated() {
                let r = row(y)
                // Steep stretches: fill the rows between this column's cell and the previous one's.
                if let previous, abs(previous - r) > 1 {
                    for between in (min(previous, r) + 1)..<max(previous, r) { terminal.put(between, x0 + c, glyphs.curve, .init(.sliderFill)) }
                }
                terminal.put(r, x0 + c, glyphs.curve, .init(.sliderFill, bold: true))
                previous = r
            }
        }
        for (i, point) in points.enumerated() {
            terminal.put(row(point[1]), column(point[0]), "\(i)", .init(i == index ? .accent : .marker, bold: true, reverse: i == index))
        }
    }
}
