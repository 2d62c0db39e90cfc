import FilterEngine

/// A rectangle [x y w h] with its corners marked on the preview: Enter opens the editor (arrows move it, c
/// switches to resizing from the top-right corner), a click on the preview moves its origin there.
struct RectangleWidget: InputWidget {
    var kind: ControlKind { .rectangle }
    var help: (keys: String, meaning: String)? { ("rectangle editor", "arrows move, c switches move/resize") }

    func drawRow(_ row: WidgetRow, explorer: Explorer) {
        var text = valueText(row.control, explorer: explorer)
        if let editor = row.editor { text += editor.selection == 1 ? "  [resizing: c to move]" : "  [moving: c to resize]" }
        explorer.terminal.put(row.y, row.x, text, width: row.width, .init(bold: row.selected))
    }

    func activate(_ control: InputControl, explorer: Explorer) { openEditor(control, explorer: explorer) }

    func setText(_ text: String, control: InputControl, explorer: Explorer) throws {
        try VectorWidget(expectedCount: 4).setText(text, control: control, explorer: explorer)
    }

    func editorKey(_ key: Key, editor: inout WidgetEditor, control: InputControl, explorer: Explorer) -> EditorOutcome {
        if key == .char("c") || key == .tab {
            editor.selection = 1 - editor.selection
            return .editing
        }
        if key == .char("=") { return .typeValue(initial: nil) }
        guard let (dx, dy, coarse) = explorer.arrow(key), case .vector(let v)? = explorer.session?.value(forKey: control.input.key) else { return .editing }
        explorer.apply(.vector(GeometryStepper.rectangle(v, dx: dx, dy: dy, coarse: coarse, resize: editor.selection == 1,
                                                         bounds: explorer.samples.sourceRect)), to: control.input.key)
        return .editing
    }

    func editorHint(_ editor: WidgetEditor) -> String? { "rectangle: arrows move, c move/resize, Enter done, Esc cancel" }
    func editorShortHint(_ editor: WidgetEditor) -> String? { "rectangle: arrows, c, Enter/Esc" }

    /// A drag moves the rectangle by as far as the pointer moved, keeping its size; a press alone changes nothing.
    func previewDrag(_ drag: PreviewDrag, to point: (x: Double, y: Double), control: InputControl, explorer: Explorer) {
        guard case .vector(let r)? = drag.startValue, r.count == 4 else { return }
        let moved = [r[0] + (point.x - drag.start.x).rounded(), r[1] + (point.y - drag.start.y).rounded(), r[2], r[3]]
        if case .vector(let now)? = explorer.session?.value(forKey: control.input.key), now == moved { return }
        explorer.apply(.vector(moved), to: control.input.key)
    }

    func drawOverlay(_ control: InputControl, selected: Bool, geometry: PreviewGeometry, explorer: Explorer) {
        guard selected, case .vector(let v)? = explorer.session?.value(forKey: control.input.key), v.count == 4 else { return }
        let c = explorer.glyphs.corners
        // On the source (a reduction's or crop's rectangle being edited): its edges too, so it reads as a frame.
        if explorer.showsSourceForRectangle { drawEdges(v, geometry: geometry, explorer: explorer) }
        let corners = [(v[0], v[1] + v[3], c.topLeft), (v[0] + v[2], v[1] + v[3], c.topRight),
                       (v[0], v[1], c.bottomLeft), (v[0] + v[2], v[1], c.bottomRight)]
        for (px, py, glyph) in corners {
            // Corners on the far edges sit just inside the last cell.
            let x = min(px, geometry.imageRect.maxX - 0.01), y = max(py, geometry.imageRect.minY + 0.01)
            if let cell = geometry.cell(imageX: x, imageY: min(y, geometry.imageRect.maxY - 0.01)) {
                explorer.terminal.put(cell.y, cell.x, glyph, .init(.marker, bold: true))
            }
        }
    }

    /// The rectangle's edges as lines of cells, clipped to the preview.
    private func drawEdges(_ v: [Double], geometry: PreviewGeometry, explorer: Explorer) {
        let image = geometry.imageRect
        func cell(_ x: Double, _ y: Double) -> (x: Int, y: Int)? {
            geometry.cell(imageX: min(max(x, image.minX), image.maxX - 0.01), imageY: min(max(y, image.minY + 0.01), image.maxY - 0.01))
        }
        guard let bottomLeft = cell(v[0], v[1]), let topRight = cell(v[0] + v[2], v[1] + v[3]) else { return }
        let (left, right) = (min(bottomLeft.x, topRight.x), max(bottomLeft.x, topRight.x))
        let (top, bottom) = (min(bottomLeft.y, topRight.y), max(bottomLeft.y, topRight.y))
        let style = Terminal.Style(.marker, bold: true)
        let glyphs = explorer.glyphs
        if right - left > 1 {
            for x in (left + 1)..<right {
                explorer.terminal.put(top, x, glyphs.horizontal, style)
                explorer.terminal.put(bottom, x, glyphs.horizontal, style)
            }
        }
        if bottom - top > 1 {
            for y in (top + 1)..<bottom {
                explorer.terminal.put(y, left, glyphs.vertical, style)
                explorer.terminal.put(y, right, glyphs.vertical, style)
            }
        }
    }
}
