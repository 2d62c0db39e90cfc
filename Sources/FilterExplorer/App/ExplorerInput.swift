import FilterEngine
import FilterPipeline
import Foundation

/// Keys and mouse. The help overlay is generated from `Explorer.keyHelp`, so keep the two together; each
/// editor's keys come from its widget (`InputWidget.help`).
extension Explorer {
    static let keyHelp: [(String, String)] = generalKeys + fidelityMarks + chainKeys + ControlFactory.editorHelp + viewKeys

    /// What the mark before each filter in the list means.
    private static let fidelityMarks: [(String, String)] = Fidelity.Status.allCases.map {
        (Glyphs(unicode: true).fidelity($0), "fidelity mark in the list: \($0.rawValue), \($0.meaning)")
    }

    private static let generalKeys: [(String, String)] = [
        ("q", "quit (state is saved)"),
        ("q during an export", "waits for the export (its progress on the status line) and saves the chain too; q again abandons it"),
        ("Tab / Shift-Tab", "switch between the filter list and the inputs"),
        ("↑ ↓  j k", "move in the list / choose an input"),
        ("PgUp PgDn  g G", "page / top / bottom of the filter list"),
        ("Enter  Space  → l", "filter list: open or close a category"),
        ("← h", "filter list: close the category / go to it"),
        ("d", "show each filter under every category it belongs to"),
        ("/  n  N", "search filters (names first, then descriptions and input keys); next / previous match; no match stays put and says so"),
        ("← →  h l", "inputs: step a slider (fine) or a choice: image, cube look, curves, colour space"),
        ("Shift-← →  H L  [ ]  PgUp PgDn", "inputs: coarse step"),
        ("Enter", "inputs: type a value or a path (.cube for cubes; Tab completes it, twice lists), open a list (choices, booleans) or an editor"),
        ("=", "type: pi/4, 45° or 45deg, 2*default, + - * / ( )"),
        ("Space", "inputs: flip a toggle"),
        ("r  R", "reset the input / all inputs of the filter"),
        ("u  U", "undo / redo the last edit of this filter; in a chain, of the chain: values, steps added, removed, moved, bypassed, rewired"),
        ("x", "A/B: keep these values, show the other set"),
        ("mouse on the preview", "click: place the selected point; drag from its marker (or in a drawn rectangle): move it; "
            + "drag elsewhere: move the picture (pan when zoomed, move a crop)"),
    ]

    /// The key that toggles the split before/after view.
    static let splitKeyLabel = "|"

    private static let viewKeys: [(String, String)] = [
        ("Esc", "cancel an edit or a search"),
        ("b", "before / after: show the source image"),
        (splitKeyLabel, "split view: the source left of a divider, the output right of it (the title says split)"),
        ("{ }", "split view: move the divider left / right (or drag it with the mouse)"),
        ("a", "animate the selected input from its value to the slider's other end (2 s, looping); list focused: the time 0→1. "
            + "a again stops, value back"),
        ("A", "type the animation: FROM → TO over SECONDS s [linear|ease-in-out], e.g. 0 → pi/4 over 3 s; e also gives the animate command"),
        ("v  ,  .  <  >", "video (explore --video): v pause / resume; a file: , . a frame back / forward (pausing), "
            + "< > \(formatNumber(videoJumpSeconds)) s back / forward (chain panel: < > move the step)"),
        ("e", "export at full resolution with its recipe (.json), the render command to the clipboard; "
            + "offers the last export's folder, asks before replacing"),
        ("S", "save the filter or chain as a look: a recipe in ~/.config/cifiltertest/looks, listed under Looks (end of the list) with the shipped ones"),
        ("m", "mouse on / off: a click selects a filter, input or chain step; the wheel scrolls the list, steps the slider "
            + "under it; drag sliders"),
        ("+  -", "zoom the preview in / out around its centre (the wheel over the preview: around the pointer)"),
        ("1  0", "1:1 (one image pixel per preview pixel) / fit the whole output"),
        ("z", "pan while zoomed: arrows move (Shift or HJKL by half a view), + - 1 0 zoom, Enter or Esc done"),
        ("f", "full-screen preview (hides the list and the inputs; arrows pan when zoomed)"),
        ("i", "details of the filter: description, fidelity and why; a reduction's values (RGBA numbers)"),
        ("p", "pixel inspector: arrows (Shift: a cell) or a click move a cursor; the status line shows the pixel's "
            + "position and exported RGBA (8-bit sRGB, linear); Esc leaves"),
        ("I", "eyedropper on a colour input (or click its swatch): pick its colour from the picture as shown; "
            + "arrows or the mouse move, Enter or a click takes it, Esc cancels"),
        ("Ctrl-L  Ctrl-Z", "redraw the screen / suspend to the shell (fg comes back)"),
        ("?", "this help (↑↓ PgUp PgDn Home End scroll it)"),
    ]

    func handle(_ event: InputEvent) {
        // Anything but another notch of the wheel over the inputs ends a burst of them (its undo step is recorded).
        if case .mouse(let mouse) = event, mouse.action == .wheelUp || mouse.action == .wheelDown,
           layout.controls.contains(x: mouse.x, y: mouse.y) {} else { endWheelBurst() }
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
        // A preview from the list lasts while the list has the focus.
        if browsePreview != nil, focus != .filters { endBrowsePreview() }
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
            if key == .tab, let kind = entry.paths {
                completePath(&entry, kind: kind)
                mode = .text(entry)
                return
            }
            let outcome = entry.field.handle(key)
            mode = .text(entry)
            textEntryChanged(entry, outcome: outcome)
        case .editor(var editor):
            guard let control = currentControl else { closeEditor(keeping: true); return }
            switch key {
            case .enter: closeEditor(keeping: true)
            case .escape: closeEditor(keeping: false)
            case .char("I") where control.kind == .color: startColorPick(control)
            default:
                let outcome = control.widget.editorKey(key, editor: &editor, control: control, explorer: self)
                if case .editor = mode { mode = .editor(editor) }
                finishEditor(outcome)
            }
        case .view:
            if key == .enter || key == .escape || key == .char("z") { mode = .normal }
            else if !zoomKey(key) { panKey(key) }
        case .normal:
            // Full screen, arrows pan (there is no list nor inputs to move in).
            if fullScreen, zoom.scale != nil, panKey(key) { return }
            if chainKey(key) { return }
            if !globalKey(key) {
                if focus == .filters { filtersKey(key) } else { controlsKey(key) }
            }
        }
    }

    /// Keys that do the same in both panes; returns false when the key is not one of them.
    private func globalKey(_ key: Key) -> Bool {
        switch key {
        case .char("q"), .char("Q"): requestQuit()
        case .escape where quitRequested:
            quitRequested = false
            message = Message(text: "not quitting: the export goes on", isError: false)
        case .char("?"), .function(1):
            helpScroll = 0
            mode = .help
        case .char("p"):
            startInspector()
        case .char("I"):
            guard focus == .controls, let control = currentControl else {
                message = Message(text: "I picks a colour from the picture for a colour input: Tab to the inputs, select one", isError: false)
                return true
            }
            startColorPick(control)
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
        case .char(Character(Self.splitKeyLabel)):
            split = split == nil ? 0.5 : nil
            needsRender = true
            message = Message(text: split == nil ? "split view off" : "split view: source left, output right ({ } or a drag move the divider)",
                              isError: false)
        case .char("{"), .char("}"):
            guard let current = split else {
                message = Message(text: "{ } move the split view's divider: \(Self.splitKeyLabel) splits the view first", isError: false)
                return true
            }
            moveDivider(to: current + (key == .char("}") ? 0.05 : -0.05))
        case .char("S"):
            beginSavingLook()
        case .char("a"):
            toggleAnimation()
        case .char("A"):
            beginAnimationPrompt()
        case .char("v"):
            toggleVideoPause()
        case .char(","), .char("."):
            stepVideo(frames: key == .char(".") ? 1 : -1, pausing: true)
        case .char("<"), .char(">"):
            jumpVideo(forward: key == .char(">"))
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
            mode = .text(TextEntry(purpose: .export, prompt: "export to: ", field: TextField(defaultExportPath(name: session.name)),
                                   paths: .image))
        case .ctrl("l"):
            terminal.clearAll()
        case .char("d"):
            tree.showAllCategories.toggle()
            message = Message(text: tree.showAllCategories ? "every category membership shown" : "each filter once",
                              isError: false)
        case .char("R"):
            edit { session?.resetAll() }
            message = Message(text: "all inputs reset (u undoes)", isError: false)
        case .char("r"):
            guard let control = currentControl else { return true }
            edit { session?.reset(control.input.key) }
            message = Message(text: "\(control.input.key) reset (u undoes)", isError: false)
        case .char("u"), .char("U"):
            undo(redo: key == .char("U"))
        case .char("x"):
            swapAB()
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
            if tree.currentRow?.isHeader == true { tree.toggle() }
            else if let look = tree.currentLook {
                if key != .char(" ") { openLook(look) }
                return
            } else if key == .enter || key == .right || key == .char("l") {
                // The previewed filter goes into the step (chain); a single filter is there already.
                commitBrowsePreview()
                focus = .controls
                return
            }
        case .left, .char("h"):
            if tree.currentRow?.isHeader == true { tree.setExpanded(false) } else { tree.moveToParent() }
        case .escape:
            guard let previewed = browsePreview, let kept = session else { return }
            endBrowsePreview()
            message = Message(text: "kept \(kept.name) in step \(chain.selected + 1) (not \(previewed.name))", isError: false)
            return
        default: return
        }
        if let record = tree.currentFilter { browse(toFilterNamed: record.filterName) }
    }

    private func controlsKey(_ key: Key) {
        guard let session, let control = currentControl else { return }
        let count = session.controls.count
        switch key {
        case .up, .char("k"): controlCursor = max(0, controlCursor - 1)
        case .down, .char("j"): controlCursor = min(count - 1, controlCursor + 1)
        case .home, .char("g"): controlCursor = 0
        case .end, .char("G"): controlCursor = count - 1
        case .left, .char("h"): control.widget.step(control, by: -1, coarse: false, explorer: self)
        case .right, .char("l"): control.widget.step(control, by: 1, coarse: false, explorer: self)
        case .shiftLeft, .char("H"), .char("["), .pageDown: control.widget.step(control, by: -1, coarse: true, explorer: self)
        case .shiftRight, .char("L"), .char("]"), .pageUp: control.widget.step(control, by: 1, coarse: true, explorer: self)
        case .char("="): beginTextEntry(control)
        case .enter: control.widget.activate(control, explorer: self)
        default: _ = control.widget.rowKey(key, control: control, explorer: self)
        }
    }

    func beginTextEntry(_ control: InputControl, initial: String? = nil) {
        guard session != nil else { return }
        let key = control.input.key
        if case .readOnly(let reason) = control.kind {
            message = Message(text: "\(key) is read-only here: \(reason)", isError: false)
            return
        }
        let text = initial ?? control.widget.initialText(control, explorer: self)
        mode = .text(TextEntry(purpose: .value(key: key), prompt: control.widget.textPrompt(control), field: TextField(text),
                               paths: control.widget.pathKind))
    }

    private func textEntryChanged(_ entry: TextEntry, outcome: TextField.Outcome) {
        switch (entry.purpose, outcome) {
        case (.search(let cursor, let filter), .cancel):
            mode = .normal
            message = nil
            returnToSearchStart(cursor: cursor, filter: filter)
        case (.search(let cursor, let filter), .submit):
            mode = .normal
            focus = .filters
            lastQuery = entry.field.text
            guard tree.nextMatch(entry.field.text, forward: true, includingCurrent: true) != nil else {
                // As in less and vim: nothing found leaves everything where it was, and says so.
                returnToSearchStart(cursor: cursor, filter: filter)
                if !lastQuery.isEmpty { message = Message(text: "no filter matches \"\(lastQuery)\"", isError: true, isSearchMiss: true) }
                return
            }
            // The found filter is in the list: continue there (n/N, arrows), as after any jump in a list. In a
            // chain, Enter puts the found filter into the step.
            commitBrowsePreview()
        case (.search(let cursor, let filter), .editing):
            // Incremental: the first match from where the search started; no match goes back there at once.
            tree.moveCursor(to: cursor)
            let query = entry.field.text
            if message?.isSearchMiss == true { message = nil }
            if let name = tree.nextMatch(query, forward: true, includingCurrent: true) {
                jump(to: name, query: query)
            } else {
                returnToSearchStart(cursor: cursor, filter: filter)
                if !query.trimmingCharacters(in: .whitespaces).isEmpty {
                    message = Message(text: "no filter matches \"\(query)\"", isError: true, isSearchMiss: true)
                }
            }
        case (_, .cancel):
            mode = .normal
        case (.value(let key), .submit):
            guard let session, let control = session.controls.first(where: { $0.input.key == key }) else { mode = .normal; return }
            do {
                // Refused text changes nothing: the field stays open with the reason above it. Text the filter
                // itself refuses when it makes its image (a message a barcode cannot encode) is refused too.
                try editThrowing {
                    let workedBefore = outputError(of: session) == nil
                    try control.widget.setText(entry.field.text, control: control, explorer: self)
                    if workedBefore, let error = outputError(of: session) { throw error }
                }
                mode = .normal
                message = nil  // an error from an earlier try is answered
            } catch {
                message = Message(text: "\(error)", isError: true)
            }
        case (.animation(let key), .submit):
            do {
                // Refused text changes nothing: the prompt stays open with the reason above it.
                try submitAnimationPrompt(entry.field.text, key: key)
                mode = .normal
            } catch {
                message = Message(text: "\(error)", isError: true)
            }
        case (.export, .submit):
            mode = .normal
            export(to: entry.field.text.trimmingCharacters(in: .whitespaces))
        case (.confirmExport(let path), .submit):
            mode = .normal
            if ["y", "yes"].contains(entry.field.text.trimmingCharacters(in: .whitespaces).lowercased()) {
                export(to: path, replacing: true)
            } else {
                // Back to the name, to choose another.
                mode = .text(TextEntry(purpose: .export, prompt: "export to: ", field: TextField(path), paths: .image))
                message = Message(text: "nothing replaced: change the name, or Esc", isError: false)
            }
        case (.saveLook, .submit):
            submitLookName(entry.field.text)
        case (.replaceLook(let name), .submit):
            mode = .normal
            if ["y", "yes"].contains(entry.field.text.trimmingCharacters(in: .whitespaces).lowercased()) {
                saveLook(named: name)
            } else {
                message = Message(text: "the look \(name) was kept as it was", isError: false)
            }
        default:
            break
        }
    }

    /// Tab in a path prompt: the path grows to what the matching entries share; when it cannot, they are
    /// listed above the prompt.
    private func completePath(_ entry: inout TextEntry, kind: PathCompletion.Kind) {
        let typed = entry.field.text
        let completion = PathCompletion.complete(typed, keeps: kind.keeps)
        if completion.candidates.isEmpty {
            message = Message(text: "no \(kind == .cube ? ".cube file or folder" : "image or folder") starts with \"\(typed)\"",
                              isError: false)
        } else if completion.isAmbiguous(from: typed) {
            message = Message(text: PathCompletion.listing(completion.candidates), isError: false)
        } else {
            entry.field = TextField(completion.text)
            let more = completion.candidates.count
            message = more > 1 ? Message(text: "\(more) matches (Tab again lists them)", isError: false) : nil
        }
    }

    /// Puts the split view's divider at `fraction` of the preview's width (kept off the very edges).
    func moveDivider(to fraction: Double) {
        split = min(0.98, max(0.02, fraction))
        needsRender = true
        message = Message(text: String(format: "split at %.0f%% (source left, output right)", (split ?? 0) * 100), isError: false)
    }

    /// The list's cursor and the filter shown as they were when the search began.
    private func returnToSearchStart(cursor: Int, filter: String?) {
        tree.moveCursor(to: cursor)
        guard let filter else { return }
        tree.reveal(filterNamed: filter)
        if session?.name != filter || browsePreview != nil { browse(toFilterNamed: filter) }
    }

    private func jump(to name: String?, query: String) {
        guard let name else {
            message = Message(text: "no filter matches \"\(query)\"", isError: true)
            return
        }
        tree.reveal(filterNamed: name)
        browse(toFilterNamed: name)
    }

    /// Why `session` cannot make its output image with its values now, or nil when it can.
    func outputError(of session: FilterSession) -> Error? {
        do {
            _ = try ResolvedRecipe(steps: session.resolvedSteps(proxyFactor: 1, context: context)).image(input: nil)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Modal editors

    /// Opens a widget's editor; what it changes until it closes is one edit for undo.
    func openEditor(_ editor: WidgetEditor) {
        beginEditGroup()
        mode = .editor(editor)
        if showsSourceForRectangle { needsRender = true }
    }

    /// Closes the open editor, keeping its changes or putting the values from before it back.
    func closeEditor(keeping: Bool) {
        guard case .editor(let editor) = mode else { return }
        if showsSourceForRectangle { needsRender = true }
        if !keeping, let session {
            for (key, value) in editor.originals { if let value { try? session.set(value, forKey: key) } }
            needsRender = true
        }
        mode = .normal
        endEditGroup()
    }

    private func finishEditor(_ outcome: EditorOutcome) {
        switch outcome {
        case .editing: break
        case .done: closeEditor(keeping: true)
        case .cancelled: closeEditor(keeping: false)
        case .typeValue(let initial):
            closeEditor(keeping: true)
            if let control = currentControl { beginTextEntry(control, initial: initial) }
        }
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

    // MARK: Mouse

    /// The wheel over the inputs: over a slider it steps the value (a burst of notches is one undo step), over
    /// another row it moves the selection.
    private func wheelOverControls(row: Int, up: Bool, session: FilterSession) {
        guard session.controls.indices.contains(row), case .slider = session.controls[row].kind,
              mode.isNormal else {
            controlCursor = up ? max(0, controlCursor - 1) : min(session.controls.count - 1, controlCursor + 1)
            return
        }
        focus = .controls
        controlCursor = row
        if wheelBurstRow != row {
            endWheelBurst()
            beginEditGroup()
            wheelBurstRow = row
        }
        let control = session.controls[row]
        control.widget.step(control, by: up ? 1 : -1, coarse: false, explorer: self)
    }

    /// Ends a burst of wheel notches on a slider: what they changed becomes one undo step.
    func endWheelBurst() {
        guard wheelBurstRow != nil else { return }
        wheelBurstRow = nil
        endEditGroup()
    }

    private func handleMouse(_ mouse: MouseEvent) {
        let layout = layout
        // As after a key: the status line shows the value changed, not an older message.
        if mouse.action != .release, !mode.isText { message = nil }
        // Picking a colour: the release of a press (or drag) on the picture takes the pixel under it.
        if colorPick != nil, case .inspect = mode, mouse.action == .release || mouse.action == .click,
           layout.preview.contains(x: mouse.x, y: mouse.y), let geometry {
            let pixel = pixel(atCellX: mouse.x, y: mouse.y, in: geometry)
            moveInspector(toX: pixel.x, y: pixel.y)
            takePickedColor()
            return
        }
        if mouse.action == .release {
            draggingDivider = false
            if draggingSlider != nil {
                draggingSlider = nil
                endEditGroup()
            }
            if previewDrag != nil { releasePreviewDrag(x: mouse.x, y: mouse.y) }
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
        // An open editor's own drawing (a list) takes clicks on it first.
        if case .editor(var editor) = mode, let control = currentControl,
           let outcome = control.widget.editorMouse(mouse, editor: &editor, control: control, explorer: self) {
            if case .editor = mode { mode = .editor(editor) }
            finishEditor(outcome)
            return
        }
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
        // The split view's divider: pressed on (or next to) it, it follows the pointer until the release.
        if draggingDivider, mouse.action == .drag, let geometry {
            moveDivider(to: Double(x - geometry.cells.x) / Double(max(1, geometry.cells.width)))
            return
        }
        if let split, mouse.action == .press, let geometry, geometry.cells.contains(x: x, y: y),
           abs(x - (geometry.cells.x + Int((Double(geometry.cells.width) * split).rounded()))) <= 1 {
            draggingDivider = true
            return
        }
        if layout.preview.contains(x: x, y: y), mouse.action == .wheelUp || mouse.action == .wheelDown, let geometry {
            let point = geometry.imagePoint(cellX: x, cellY: y)
            zoom = zoom.zoomed(by: mouse.action == .wheelUp ? 2 : 0.5, of: framedRect ?? samples.sourceRect,
                               area: layout.preview, around: point)
            needsRender = true
            return
        }
        if layout.tree.contains(x: x, y: y), draggingSlider == nil {
            switch mouse.action {
            // The wheel scrolls the list only: the filter shown (a chain's step) changes on a click or Enter.
            case .wheelUp: tree.scrollView(by: -3, height: layout.tree.height)
            case .wheelDown: tree.scrollView(by: 3, height: layout.tree.height)
            case .press, .click:
                focus = .filters
                let row = tree.scroll + (y - layout.tree.y)
                guard tree.rows.indices.contains(row) else { return }
                tree.moveCursor(to: row)
                if tree.currentRow?.isHeader == true { tree.toggle() }
                else if let look = tree.currentLook { openLook(look) }
                else if let record = tree.currentFilter {
                    // A click on a filter chooses it (in a chain, for the selected step).
                    browse(toFilterNamed: record.filterName)
                    commitBrowsePreview()
                }
            default: return
            }
        } else if layout.chain.contains(x: x, y: y), draggingSlider == nil {
            if mouse.action == .press || mouse.action == .click { clickChainStrip(x: x) }
        } else if layout.controls.contains(x: x, y: y) || draggingSlider != nil {
            guard let session else { return }
            switch mouse.action {
            case .wheelUp, .wheelDown:
                let row = controlScroll + (y - layout.controls.y)
                wheelOverControls(row: row, up: mouse.action == .wheelUp, session: session)
            case .press, .click, .drag:
                // A drag keeps to the row its press started on, wherever the pointer goes.
                let row = draggingSlider ?? (controlScroll + (y - layout.controls.y))
                guard session.controls.indices.contains(row) else { return }
                if mouse.action == .drag && draggingSlider == nil { return }
                focus = .controls
                if case .editor = mode, row != controlCursor { closeEditor(keeping: true) }
                controlCursor = row
                let control = session.controls[row]
                let bar = sliderBar(in: layout.controls)
                // The press starts one undo step that lasts until the release.
                if draggingSlider == nil { beginEditGroup() }
                let holds = control.widget.rowMouse(mouse.action, column: x - bar.x, width: bar.width, control: control, explorer: self)
                if holds { draggingSlider = row } else if draggingSlider == nil { endEditGroup() }
            default: return
            }
        } else if layout.preview.contains(x: x, y: y), mouse.action == .press || mouse.action == .click {
            previewPress(x: x, y: y, action: .press)
        }
    }
}
