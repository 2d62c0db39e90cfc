import FilterEngine
import Foundation

/// Keys and mouse. The help overlay is generated from `Explorer.keyHelp`, so keep the two together.
extension Explorer {
    static let keyHelp: [(String, String)] = [
        ("q", "quit (state is saved)"),
        ("Tab / Shift-Tab", "switch between the filter list and the inputs"),
        ("↑ ↓  j k", "move in the list / choose an input"),
        ("PgUp PgDn  g G", "page / top / bottom of the filter list"),
        ("Enter  Space  → l", "filter list: open or close a category"),
        ("← h", "filter list: close the category / go to it"),
        ("d", "show each filter under every category it belongs to"),
        ("/  n  N", "search filter names; next / previous match"),
        ("← →  h l", "inputs: step a slider (fine) or a choice: image, cube look, curves, colour space"),
        ("Shift-← →  H L  [ ]  PgUp PgDn", "inputs: coarse step"),
        ("Enter", "inputs: type a value or a path (.cube for cubes), or open an editor"),
        ("=", "inputs: type any value as text"),
        ("Space", "inputs: flip a toggle"),
        ("r  R", "reset the input / all inputs of the filter"),
        ("point editor", "arrows move (Shift or HJKL ×10), click the preview to place"),
        ("mouse on the preview", "with a point input selected, click or drag to place it; drag moves a rectangle input"),
        ("colour editor", "↑↓ component, ←→ step, # hex entry"),
        ("rectangle editor", "arrows move, c switches move/resize"),
        ("transform editor", "↑↓ rotate/scale/move, ←→ step"),
        ("tone-curve editor", "Tab or 0-4 choose a point, arrows move it (Shift or HJKL ×10)"),
        ("Esc", "cancel an edit or a search"),
        ("b", "before / after: show the source image"),
        ("a", "animate the time input 0→1, looping (transitions); a again stops"),
        ("e", "export the output at full resolution (shows the render command)"),
        ("m", "mouse on / off (click to select, wheel to scroll, click sliders)"),
        ("+  -", "zoom the preview in / out around its centre (the wheel over the preview: around the pointer)"),
        ("1  0", "1:1 (one image pixel per preview pixel) / fit the whole output"),
        ("z", "pan while zoomed: arrows move (Shift or HJKL by half a view), + - 1 0 zoom, Enter or Esc done"),
        ("f", "full-screen preview (hides the list and the inputs; arrows pan when zoomed)"),
        ("Ctrl-L", "redraw the screen"),
        ("i", "details of the filter: description, fidelity and why; a reduction's values (RGBA numbers)"),
        ("p", "pixel inspector: arrows (Shift: a cell) or a click move a cursor; the status line shows the pixel's "
            + "position and exported RGBA (8-bit sRGB, linear); Esc leaves"),
        ("Ctrl-Z", "suspend to the shell (fg comes back)"),
        ("?", "this help (↑↓ PgUp PgDn Home End scroll it)"),
    ]

    func handle(_ event: InputEvent) {
        switch event {
        case .resize:
            needsRender = true
            terminal.clearAll()
        case .mouse(let mouse):
            handleMouse(mouse)
        case .key(let key):
            if case .text = mode {} else { message = nil }
            handleKey(key)
        }
    }

    private func handleKey(_ key: Key) {
        switch mode {
        case .help:
            // Scroll keys scroll a help taller than the screen; any other key closes it.
            let help = HelpLayout(entries: Self.keyHelp, columns: terminal.cols, rows: terminal.rows)
            if let scroll = help.scrolled(helpScroll, by: key) { helpScroll = scroll } else { mode = .normal }
        case .inspect:
            inspectorKey(key)
        case .details:
            mode = .normal
        case .text(var entry):
            let outcome = entry.field.handle(key)
            mode = .text(entry)
            textEntryChanged(entry, outcome: outcome)
        case .point(let key0, let original):
            modalPoint(key, inputKey: key0, original: original)
        case .color(let key0, let component, let original):
            modalColor(key, inputKey: key0, component: component, original: original)
        case .rectangle(let key0, let resize, let original):
            modalRectangle(key, inputKey: key0, resize: resize, original: original)
        case .transform(let key0, let handle, let original):
            modalTransform(key, inputKey: key0, handle: handle, original: original)
        case .curve(let originals):
            modalCurve(key, originals: originals)
        case .view:
            if key == .enter || key == .escape || key == .char("z") { mode = .normal }
            else if !zoomKey(key) { panKey(key) }
        case .normal:
            // Full screen, arrows pan (there is no list nor inputs to move in).
            if fullScreen, zoom.scale != nil, panKey(key) { return }
            if !globalKey(key) {
                if focus == .filters { filtersKey(key) } else { controlsKey(key) }
            }
        }
    }

    /// Keys that do the same in both panes; returns false when the key is not one of them.
    private func globalKey(_ key: Key) -> Bool {
        switch key {
        case .char("q"), .char("Q"): running = false
        case .char("?"), .function(1):
            helpScroll = 0
            mode = .help
        case .char("p"):
            startInspector()
        case .char("i"):
            guard let session else { return true }
            do { reductionValues = try session.reductionValues(context: context) } catch {
                reductionValues = ["could not compute: \(error)"]
            }
            mode = .details
        case .tab, .backTab: focus = focus == .filters ? .controls : .filters
        case .char("/"):
            mode = .text(TextEntry(purpose: .search(cursor: tree.cursor, filter: session?.name), prompt: "/",
                                   field: TextField()))
        case .char("n"), .char("N"):
            guard !lastQuery.isEmpty else {
                message = Message(text: "no search yet: press / to search", isError: false)
                return true
            }
            jump(to: tree.nextMatch(lastQuery, forward: key == .char("n")), query: lastQuery)
        case .char("b"):
            showOriginal.toggle()
            needsRender = true
        case .char("a"):
            toggleAnimation()
        case .char("+"), .char("-"), .char("1"), .char("0"):
            zoomKey(key)
        case .char("z"):
            mode = .view
        case .char("f"):
            fullScreen.toggle()
            needsRender = true
            terminal.clearAll()
        case .char("m"):
            terminal.setMouse(!terminal.mouseEnabled)
            message = Message(text: terminal.mouseEnabled ? "mouse on" : "mouse off (the terminal selects text again)",
                              isError: false)
        case .char("e"):
            guard let session else { return true }
            let path = FileManager.default.currentDirectoryPath + "/\(session.name)-export.png"
            mode = .text(TextEntry(purpose: .export, prompt: "export to: ", field: TextField(path)))
        case .ctrl("l"):
            terminal.clearAll()
        case .char("d"):
            tree.showAllCategories.toggle()
            message = Message(text: tree.showAllCategories ? "every category membership shown" : "each filter once",
                              isError: false)
        case .char("R"):
            session?.resetAll()
            needsRender = true
            message = Message(text: "all inputs reset", isError: false)
        case .char("r"):
            guard let control = currentControl else { return true }
            session?.reset(control.input.key)
            needsRender = true
            message = Message(text: "\(control.input.key) reset", isError: false)
        default:
            return false
        }
        return true
    }

    /// + - 1 0: zoom in, out, 1:1, fit. Returns false for other keys.
    @discardableResult
    func zoomKey(_ key: Key) -> Bool {
        let area = layout.preview
        let rect = framedRect ?? samples.sourceRect
        switch key {
        case .char("+"): zoom = zoom.zoomed(by: 2, of: rect, area: area)
        case .char("-"): zoom = zoom.zoomed(by: 0.5, of: rect, area: area)
        case .char("1"): zoom = zoom.oneToOne(of: rect, area: area)
        case .char("0"): zoom = .fit
        default: return false
        }
        needsRender = true
        return true
    }

    /// Arrows (and hjkl) pan a zoomed preview by an eighth of the view, Shift (HJKL) by half.
    @discardableResult
    func panKey(_ key: Key) -> Bool {
        guard let (dx, dy, coarse) = arrow(key) else { return false }
        if zoom.scale == nil {
            message = Message(text: "the whole output is shown: zoom in (+ or 1) to pan", isError: false)
            return true
        }
        let step = coarse ? 0.5 : 0.125
        zoom = zoom.panned(dx: Double(dx) * step, dy: Double(dy) * step, of: framedRect ?? samples.sourceRect,
                           area: layout.preview)
        needsRender = true
        return true
    }

    private func filtersKey(_ key: Key) {
        let page = max(1, layout.tree.height - 1)
        switch key {
        case .up, .char("k"): tree.moveCursor(by: -1)
        case .down, .char("j"): tree.moveCursor(by: 1)
        case .pageUp: tree.moveCursor(by: -page)
        case .pageDown: tree.moveCursor(by: page)
        case .home, .char("g"): tree.moveCursor(to: 0)
        case .end, .char("G"): tree.moveCursor(to: tree.rows.count - 1)
        case .enter, .char(" "), .right, .char("l"):
            if case .category? = tree.currentRow { tree.toggle() }
            else if key == .enter || key == .right || key == .char("l") { focus = .controls }
        case .left, .char("h"):
            if case .category? = tree.currentRow { tree.setExpanded(false) } else { tree.moveToParent() }
        default: return
        }
        if let record = tree.currentFilter { select(filterNamed: record.filterName) }
    }

    private func controlsKey(_ key: Key) {
        guard let session, let control = currentControl else { return }
        let count = session.controls.count
        switch key {
        case .up, .char("k"): controlCursor = max(0, controlCursor - 1)
        case .down, .char("j"): controlCursor = min(count - 1, controlCursor + 1)
        case .home, .char("g"): controlCursor = 0
        case .end, .char("G"): controlCursor = count - 1
        case .left, .char("h"): step(control, by: -1, coarse: false)
        case .right, .char("l"): step(control, by: 1, coarse: false)
        case .shiftLeft, .char("H"), .char("["), .pageDown: step(control, by: -1, coarse: true)
        case .shiftRight, .char("L"), .char("]"), .pageUp: step(control, by: 1, coarse: true)
        case .char(" "):
            if case .toggle = control.kind { step(control, by: 1, coarse: false) }
        case .char("="): beginTextEntry(control)
        case .enter: beginEdit(control)
        default: break
        }
    }

    /// One step of a control in the list: sliders move, toggles flip, image choosers cycle.
    func step(_ control: InputControl, by steps: Int, coarse: Bool) {
        guard let session else { return }
        let key = control.input.key
        let value = session.value(forKey: key)
        switch (control.kind, value) {
        case (.slider(let spec), .number(let n)?):
            apply(.number(spec.stepped(n, by: steps, coarse: coarse)), to: key)
        case (.toggle, .number(let n)?):
            apply(.number(n != 0 ? 0 : 1), to: key)
        case (.image(let role), _):
            guard let next = ChoiceCycle.step(samples.choices(for: role), from: session.imageChoices[key], by: steps) else { return }
            do {
                try session.setImage(next, forKey: key)
                needsRender = true
            } catch { message = Message(text: "\(error)", isError: true) }
        case (.colorCube, _), (.colorCurves, _):
            // A chosen .cube file stays in the cycle, after the looks.
            var options = control.kind == .colorCube ? TableChoice.cubeOptions : TableChoice.curvesOptions
            if let current = session.tableChoices[key], !options.contains(current) { options.append(current) }
            guard let next = ChoiceCycle.step(options, from: session.tableChoices[key], by: steps) else { return }
            do {
                try session.setTable(next, forKey: key)
                needsRender = true
            } catch { message = Message(text: "\(error)", isError: true) }
        case (.colorSpace, _):
            let current: String? = if case .string(let s)? = value { s } else { nil }
            apply(.string(ColorSpaceChoice.stepped(current, by: steps)), to: key)
        case (.readOnly(let reason), _):
            message = Message(text: "\(key) is read-only here: \(reason)", isError: false)
        default:
            message = Message(text: "press Enter to edit \(control.input.displayName)", isError: false)
        }
    }

    func beginEdit(_ control: InputControl) {
        let key = control.input.key
        let value = session?.value(forKey: key)
        switch control.kind {
        case .toggle: step(control, by: 1, coarse: false)
        case .point: mode = .point(key: key, original: value)
        case .color: mode = .color(key: key, component: 0, original: value)
        case .rectangle: mode = .rectangle(key: key, resize: false, original: value)
        case .transform: mode = .transform(key: key, handle: .rotate, original: value)
        case .curvePoint: beginCurveEdit()
        case .readOnly(let reason): message = Message(text: "\(key) is read-only here: \(reason)", isError: false)
        default: beginTextEntry(control)
        }
    }

    /// Opens the tone-curve editor on the current point, remembering all five for Esc.
    func beginCurveEdit() {
        guard let session else { return }
        var originals: [String: FilterValue] = [:]
        for control in session.controls {
            if case .curvePoint = control.kind, let value = session.value(forKey: control.input.key) { originals[control.input.key] = value }
        }
        mode = .curve(originals: originals)
    }

    func beginTextEntry(_ control: InputControl, initial: String? = nil) {
        guard let session else { return }
        let key = control.input.key
        if case .readOnly(let reason) = control.kind {
            message = Message(text: "\(key) is read-only here: \(reason)", isError: false)
            return
        }
        let text: String
        if let initial {
            text = initial
        } else if control.input.isImage {
            text = session.imageChoices[key].flatMap(samples.path) ?? ""
        } else if let table = session.tableChoices[key] {
            if case .cubeFile(let path) = table { text = path } else { text = table.label }
        } else {
            text = session.value(forKey: key).map(ValueParser.format) ?? ""
        }
        let prompt = switch control.kind {
        case .image: "\(key) file: "
        case .colorCube: "\(key) (.cube file or look): "
        case .colorCurves: "\(key) (curves name): "
        case .colorSpace: "\(key) (\(ColorSpaceChoice.options.joined(separator: ", "))): "
        default: "\(key) = "
        }
        mode = .text(TextEntry(purpose: .value(key: key), prompt: prompt, field: TextField(text)))
    }

    private func textEntryChanged(_ entry: TextEntry, outcome: TextField.Outcome) {
        switch (entry.purpose, outcome) {
        case (.search(let cursor, let filter), .cancel):
            mode = .normal
            tree.moveCursor(to: cursor)
            if let filter { tree.reveal(filterNamed: filter); select(filterNamed: filter) }
        case (.search, .submit):
            // The found filter is in the list: continue there (n/N, arrows), as after any jump in a list.
            mode = .normal
            focus = .filters
            lastQuery = entry.field.text
        case (.search(let cursor, _), .editing):
            // Incremental: the first match from where the search started.
            let saved = tree.cursor
            tree.moveCursor(to: cursor)
            if let name = tree.nextMatch(entry.field.text, forward: true, includingCurrent: true) {
                jump(to: name, query: entry.field.text)
            } else {
                tree.moveCursor(to: saved)
            }
        case (_, .cancel):
            mode = .normal
        case (.value(let key), .submit):
            guard let session else { mode = .normal; return }
            do {
                try session.setText(entry.field.text, forKey: key)
                needsRender = true
                mode = .normal
                message = nil  // an error from an earlier try is answered
            } catch {
                message = Message(text: "\(error)", isError: true)
            }
        case (.export, .submit):
            mode = .normal
            export(to: entry.field.text.trimmingCharacters(in: .whitespaces))
        default:
            break
        }
    }

    private func jump(to name: String?, query: String) {
        guard let name else {
            message = Message(text: "no filter matches \"\(query)\"", isError: true)
            return
        }
        tree.reveal(filterNamed: name)
        select(filterNamed: name)
    }

    // MARK: Modal editors

    /// Esc restores the value from before the editor opened; Enter keeps the new one.
    private func finishModal(_ key: Key, inputKey: String, original: FilterValue?) -> Bool {
        switch key {
        case .enter:
            mode = .normal
        case .escape:
            if let original { apply(original, to: inputKey) }
            mode = .normal
        default:
            return false
        }
        return true
    }

    func arrow(_ key: Key) -> (dx: Int, dy: Int, coarse: Bool)? {
        switch key {
        case .left, .char("h"): (-1, 0, false)
        case .right, .char("l"): (1, 0, false)
        case .up, .char("k"): (0, 1, false)
        case .down, .char("j"): (0, -1, false)
        case .shiftLeft, .char("H"): (-1, 0, true)
        case .shiftRight, .char("L"): (1, 0, true)
        case .shiftUp, .char("K"), .pageUp: (0, 1, true)
        case .shiftDown, .char("J"), .pageDown: (0, -1, true)
        default: nil
        }
    }

    private func modalPoint(_ key: Key, inputKey: String, original: FilterValue?) {
        if finishModal(key, inputKey: inputKey, original: original) { return }
        if key == .char("="), let control = currentControl { beginTextEntry(control); return }
        guard let (dx, dy, coarse) = arrow(key), case .vector(let v)? = session?.value(forKey: inputKey) else { return }
        apply(.vector(GeometryStepper.moved(v, dx: dx, dy: dy, coarse: coarse, bounds: samples.sourceRect)), to: inputKey)
    }

    private func modalColor(_ key: Key, inputKey: String, component: Int, original: FilterValue?) {
        if finishModal(key, inputKey: inputKey, original: original) { return }
        guard case .color(let color)? = session?.value(forKey: inputKey) else { return }
        switch key {
        case .up, .char("k"), .backTab: mode = .color(key: inputKey, component: (component + 3) % 4, original: original)
        case .down, .char("j"), .tab: mode = .color(key: inputKey, component: (component + 1) % 4, original: original)
        case .left, .char("h"): apply(.color(ColorStepper.stepped(color, component: component, by: -1, coarse: false)), to: inputKey)
        case .right, .char("l"): apply(.color(ColorStepper.stepped(color, component: component, by: 1, coarse: false)), to: inputKey)
        case .shiftLeft, .char("H"), .char("["), .pageDown:
            apply(.color(ColorStepper.stepped(color, component: component, by: -1, coarse: true)), to: inputKey)
        case .shiftRight, .char("L"), .char("]"), .pageUp:
            apply(.color(ColorStepper.stepped(color, component: component, by: 1, coarse: true)), to: inputKey)
        case .char("#"):
            if let control = currentControl { beginTextEntry(control, initial: ColorStepper.hex(color)) }
        case .char("="):
            if let control = currentControl { beginTextEntry(control) }
        default: break
        }
    }

    private func modalRectangle(_ key: Key, inputKey: String, resize: Bool, original: FilterValue?) {
        if finishModal(key, inputKey: inputKey, original: original) { return }
        if key == .char("c") || key == .tab {
            mode = .rectangle(key: inputKey, resize: !resize, original: original)
            return
        }
        if key == .char("="), let control = currentControl { beginTextEntry(control); return }
        guard let (dx, dy, coarse) = arrow(key), case .vector(let v)? = session?.value(forKey: inputKey) else { return }
        apply(.vector(GeometryStepper.rectangle(v, dx: dx, dy: dy, coarse: coarse, resize: resize,
                                                bounds: samples.sourceRect)), to: inputKey)
    }

    private func modalTransform(_ key: Key, inputKey: String, handle: TransformHandle, original: FilterValue?) {
        if finishModal(key, inputKey: inputKey, original: original) { return }
        let handles = TransformHandle.allCases
        guard case .transform(let t)? = session?.value(forKey: inputKey) else { return }
        switch key {
        case .up, .char("k"), .backTab:
            mode = .transform(key: inputKey, handle: handles[(handle.rawValue + 3) % 4], original: original)
        case .down, .char("j"), .tab:
            mode = .transform(key: inputKey, handle: handles[(handle.rawValue + 1) % 4], original: original)
        case .left, .char("h"): apply(.transform(handle.applied(to: t, steps: -1, coarse: false)), to: inputKey)
        case .right, .char("l"): apply(.transform(handle.applied(to: t, steps: 1, coarse: false)), to: inputKey)
        case .shiftLeft, .char("H"), .char("["): apply(.transform(handle.applied(to: t, steps: -1, coarse: true)), to: inputKey)
        case .shiftRight, .char("L"), .char("]"): apply(.transform(handle.applied(to: t, steps: 1, coarse: true)), to: inputKey)
        case .char("="): if let control = currentControl { beginTextEntry(control) }
        default: break
        }
    }

    /// The tone-curve editor: Tab/Shift-Tab or 0–4 select a point (the controls' cursor follows it), arrows
    /// move it with x held between its neighbours, = types it.
    private func modalCurve(_ key: Key, originals: [String: FilterValue]) {
        guard let session, let control = currentControl, case .curvePoint(let index) = control.kind else {
            mode = .normal
            return
        }
        switch key {
        case .enter:
            mode = .normal
        case .escape:
            for (inputKey, value) in originals { apply(value, to: inputKey) }
            mode = .normal
        case .tab, .backTab, .char("0"), .char("1"), .char("2"), .char("3"), .char("4"):
            let count = ToneCurveEditor.pointCount
            let target: Int = switch key {
            case .tab: (index + 1) % count
            case .backTab: (index + count - 1) % count
            case .char(let c): c.wholeNumberValue ?? index
            default: index
            }
            if let row = session.controls.firstIndex(where: { $0.kind == .curvePoint(index: target) }) { controlCursor = row }
        case .char("="):
            beginTextEntry(control)
        default:
            guard let (dx, dy, coarse) = arrow(key) else { return }
            apply(.vector(ToneCurveEditor.moved(session.curvePoints, index: index, dx: dx, dy: dy, coarse: coarse)),
                  to: control.input.key)
        }
    }

    // MARK: Mouse

    private func handleMouse(_ mouse: MouseEvent) {
        let layout = layout
        if mouse.action == .release {
            draggingSlider = nil
            previewDrag = nil
            return
        }
        if case .help = mode {
            // The wheel scrolls the help; a click closes it.
            let help = HelpLayout(entries: Self.keyHelp, columns: terminal.cols, rows: terminal.rows)
            switch mouse.action {
            case .wheelUp: helpScroll = help.scrolled(helpScroll, by: .up) ?? helpScroll
            case .wheelDown: helpScroll = help.scrolled(helpScroll, by: .down) ?? helpScroll
            default: mode = .normal
            }
            return
        }
        guard !layout.isTooSmall else { return }
        if case .details = mode { mode = .normal; return }
        if case .text = mode { return }
        let (x, y) = (mouse.x, mouse.y)
        // Inspecting: a click or drag on the preview puts the cursor on the pixel under the pointer.
        if case .inspect = mode, layout.preview.contains(x: x, y: y), mouse.action == .press || mouse.action == .drag
            || mouse.action == .click, let geometry {
            let pixel = pixel(atCellX: x, y: y, in: geometry)
            moveInspector(toX: pixel.x, y: pixel.y)
            return
        }
        // A drag that began on the preview stays with the preview wherever the pointer goes (not the inputs').
        if previewDrag != nil, mouse.action == .drag {
            previewPress(x: x, y: y, action: .drag)
            return
        }
        // The wheel over the preview zooms around the image point under the pointer.
        if layout.preview.contains(x: x, y: y), mouse.action == .wheelUp || mouse.action == .wheelDown, let geometry {
            let point = geometry.imagePoint(cellX: x, cellY: y)
            zoom = zoom.zoomed(by: mouse.action == .wheelUp ? 2 : 0.5, of: framedRect ?? samples.sourceRect,
                               area: layout.preview, around: point)
            needsRender = true
            return
        }
        if layout.tree.contains(x: x, y: y) {
            switch mouse.action {
            case .wheelUp: tree.moveCursor(by: -3)
            case .wheelDown: tree.moveCursor(by: 3)
            case .press, .click:
                focus = .filters
                let row = tree.scroll + (y - layout.tree.y)
                guard tree.rows.indices.contains(row) else { return }
                tree.moveCursor(to: row)
                if case .category? = tree.currentRow { tree.toggle() }
            default: return
            }
            if let record = tree.currentFilter { select(filterNamed: record.filterName) }
        } else if layout.controls.contains(x: x, y: y) || draggingSlider != nil {
            guard let session else { return }
            switch mouse.action {
            case .wheelUp: controlCursor = max(0, controlCursor - 1)
            case .wheelDown: controlCursor = min(session.controls.count - 1, controlCursor + 1)
            case .press, .click, .drag:
                let row = draggingSlider ?? (controlScroll + (y - layout.controls.y))
                guard session.controls.indices.contains(row) else { return }
                focus = .controls
                if case .normal = mode {} else if row != controlCursor { mode = .normal }
                controlCursor = row
                let control = session.controls[row]
                let bar = sliderBar(in: layout.controls)
                if case .slider(let spec) = control.kind, x >= bar.x, x < bar.x + bar.width || draggingSlider != nil {
                    let fraction = ControlDisplay.fraction(column: x - bar.x, width: bar.width)
                    apply(.number(spec.value(atFraction: fraction)), to: control.input.key)
                    draggingSlider = row
                } else if mouse.action != .drag, x >= bar.x {
                    if case .toggle = control.kind { step(control, by: 1, coarse: false) }
                    if control.kind.isChooser { step(control, by: x < bar.x + 2 ? -1 : 1, coarse: false) }
                }
            default: return
            }
        } else if layout.preview.contains(x: x, y: y), mouse.action == .press || mouse.action == .click {
            previewPress(x: x, y: y, action: .press)
        }
    }
}
