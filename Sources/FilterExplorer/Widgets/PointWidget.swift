import FilterEngine

/// A position (or an offset from the image centre) with a marker on the preview: Enter opens the point
/// editor (arrows move it by 1% of the image, Shift 10%), a click on the preview places it.
struct PointWidget: InputWidget {
    let offset: Bool
    var kind: ControlKind { .point(offset: offset) }
    var help: (keys: String, meaning: String)? { ("point editor", "arrows move (Shift or HJKL ×10), click the preview to place") }

    func drawRow(_ row: WidgetRow, explorer: Explorer) {
        var text = valueText(row.control, explorer: explorer)
        if offset { text += "  (offset from the centre)" }
        if row.editor != nil { text += "  ← ↑ → ↓ to move" }
        explorer.terminal.put(row.y, row.x, text, width: row.width, .init(bold: row.selected))
    }

    func activate(_ control: InputControl, explorer: Explorer) { openEditor(control, explorer: explorer) }

    func setText(_ text: String, control: InputControl, explorer: Explorer) throws {
        try VectorWidget(expectedCount: 2).setText(text, control: control, explorer: explorer)
    }

    func editorKey(_ key: Key, editor: inout WidgetEditor, control: InputControl, explorer: Explorer) -> EditorOutcome {
        if key == .char("=") { return .typeValue(initial: nil) }
        guard let (dx, dy, coarse) = explorer.arrow(key), case .vector(let v)? = explorer.session?.value(forKey: control.input.key) else { return .editing }
        explorer.apply(.vector(GeometryStepper.moved(v, dx: dx, dy: dy, coarse: coarse, bounds: explorer.samples.sourceRect)), to: control.input.key)
        return .editing
    }

    func editorHint(_ editor: WidgetEditor) -> String? { "point: arrows move (Shift/HJKL ×10), click places, Enter done, Esc cancel" }
    func editorShortHint(_ editor: WidgetEditor) -> String? { "point: arrows, click, Enter/Esc" }

    /// The point follows the pointer.
    func previewDrag(_ drag: PreviewDrag, to point: (x: Double, y: Double), control: InputControl, explorer: Explorer) {
        let rect = explorer.samples.sourceRect
        let v = offset ? [point.x - rect.midX, point.y - rect.midY] : [point.x, point.y]
        explorer.apply(.vector(v.map { $0.rounded() }), to: control.input.key)
    }

    func drawOverlay(_ control: InputControl, selected: Bool, geometry: PreviewGeometry, explorer: Explorer) {
        guard case .vector(let v)? = explorer.session?.value(forKey: control.input.key), v.count >= 2 else { return }
        let rect = explorer.samples.sourceRect
        let p = offset ? (rect.midX + v[0], rect.midY + v[1]) : (v[0], v[1])
        guard let cell = geometry.cell(imageX: p.0, imageY: p.1) else { return }
        let glyphs = explorer.glyphs, terminal = explorer.terminal
        terminal.put(cell.y, cell.x, selected ? glyphs.marker : glyphs.otherMarker,
                     .init(.marker, bold: true, reverse: selected && terminal.colorMode == .monochrome))
    }
}
