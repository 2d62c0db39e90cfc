import FilterEngine
import Foundation

/// Line-drawing characters, with ASCII stand-ins when the locale is not UTF-8.
struct Glyphs {
    let expanded, collapsed, vertical, horizontal, filled, knob, empty, marker, otherMarker: String
    let corners: (topLeft: String, topRight: String, bottomLeft: String, bottomRight: String)
    let swatch, left, right: String
    /// The tone curve and its diagonal reference in the curve box.
    let curve, reference: String
    let unicode: Bool

    /// The one-character fidelity mark shown before each filter in the tree.
    func fidelity(_ status: Fidelity.Status?) -> String {
        switch status {
        case .verified?: unicode ? "✓" : "V"
        case .formula?: unicode ? "ƒ" : "F"
        case .approximate?: "~"
        case .unavailable?: unicode ? "✗" : "x"
        case nil: " "
        }
    }

    init(unicode: Bool) {
        self.unicode = unicode
        if unicode {
            (expanded, collapsed, vertical, horizontal) = ("▾", "▸", "│", "─")
            (filled, knob, empty, marker, otherMarker) = ("━", "●", "─", "✛", "+")
            corners = ("┌", "┐", "└", "┘")
            (swatch, left, right) = ("██", "◂", "▸")
            (curve, reference) = ("•", "·")
        } else {
            (expanded, collapsed, vertical, horizontal) = ("v", ">", "|", "-")
            (filled, knob, empty, marker, otherMarker) = ("=", "O", "-", "X", "+")
            corners = ("+", "+", "+", "+")
            (swatch, left, right) = ("##", "<", ">")
            (curve, reference) = ("*", ".")
        }
    }
}

extension Explorer {
    var glyphs: Glyphs { Glyphs(unicode: terminal.unicode) }

    /// The label column and the widget area of a control row in `rect`.
    func labelWidth(in rect: CellRect) -> Int { min(24, max(10, rect.width / 4)) }

    /// Where a slider's bar is drawn in the controls rectangle (the mouse uses the same numbers).
    func sliderBar(in rect: CellRect) -> (x: Int, width: Int) {
        let x = rect.x + 2 + labelWidth(in: rect) + 1
        return (x, max(6, rect.maxX - x - 18))
    }

    func draw() {
        terminal.erase()
        directPreview = nil
        let layout = layout
        if layout.isTooSmall {
            // The help still shows (it fits any size); the rest waits for a larger window.
            if case .help = mode { drawHelp() } else { drawTooSmall(layout) }
            terminal.refresh()
            directWriter.forget()
            return
        }
        drawTitle(layout)
        if !fullScreen {
            drawTree(layout)
            for y in layout.tree.y..<layout.tree.maxY { terminal.put(y, layout.tree.maxX, glyphs.vertical, .init(.dim)) }
        }
        drawPreview(layout)
        if !fullScreen {
            if let control = currentControl {
                control.widget.drawPanel(control, area: layout.preview, editing: editor != nil, explorer: self)
            }
            drawControls(layout)
            drawChainStrip(layout)
            if let editor, let control = currentControl {
                control.widget.drawEditor(editor, control: control, rowY: currentRowY, explorer: self)
            }
        }
        drawKeyBar(layout)
        drawStatus(layout)
        if case .help = mode { drawHelp() }
        if case .details = mode { drawDetails(layout) }
        // Worked out before the refresh (which rows it writes to), written after it (on top of what it wrote).
        let previewBytes = directPreviewBytes()
        terminal.refresh()
        if !previewBytes.isEmpty { terminal.writeRaw(bytes: previewBytes) }
        drawPixelImage()
    }

    /// The escape sequences that update the directly written preview cells (`DirectCellWriter`): the cells
    /// still marked after everything was drawn, those changed since the last frame or on rows ncurses rewrites.
    private func directPreviewBytes() -> [UInt8] {
        if terminal.takeFullRepaint() { directWriter.forget() }
        let isBlank = { [terminal] (y: Int, x: Int) in terminal.isPlainBlank(y, x) }
        guard let (cells, origin) = directPreview else {
            // No picture now: the last one's cells are cleared where nothing else is drawn.
            let none = PreviewCells(width: 0, height: 0, chars: [], foreground: [], background: [])
            return directWriter.bytes(for: none, originX: 0, originY: 0, screenColumns: terminal.cols, screenRows: terminal.rows,
                                      owned: [], rowsRewritten: [], isBlank: isBlank)
        }
        var owned: [Bool] = []
        owned.reserveCapacity(cells.width * cells.height)
        var rewritten: [Bool] = []
        for y in 0..<cells.height {
            owned += terminal.directCells(origin.y + y, origin.x, count: cells.width)
            rewritten.append(terminal.rowWillChange(origin.y + y))
        }
        return directWriter.bytes(for: cells, originX: origin.x, originY: origin.y, screenColumns: terminal.cols,
                                  screenRows: terminal.rows, owned: owned, rowsRewritten: rewritten, isBlank: isBlank)
    }

    /// With a graphics protocol, the frame's pixels go straight to the terminal after ncurses has drawn (its
    /// cells under the image are blank), at the preview's position with the cursor saved and restored so
    /// ncurses' idea of it stays right. Written again only when something changed; removed (kitty keeps
    /// images) while an overlay covers the preview.
    private func drawPixelImage() {
        guard graphics != .symbols, imageDirty else { return }
        imageDirty = false
        let next = !coversPreview && previewNote == nil ? frame.flatMap { f in f.image.map { (f.geometry.cells, $0) } } : nil
        // Sixel and iTerm2 pixels stay until something is drawn over them, and ncurses believes those cells
        // blank: when the image goes or moves, ncurses repaints the whole screen first.
        if let shown = imageCells, graphics != .kitty, next?.0 != shown {
            terminal.clearAll()
            terminal.refresh()
        }
        var out = imageCells != nil ? graphics.clearSequence : ""
        imageCells = nil
        if let (cells, image) = next, !image.isEmpty {
            out += "\u{1B}7\u{1B}[\(cells.y + 1);\(cells.x + 1)H" + image + "\u{1B}8"
            imageCells = cells
        }
        guard !out.isEmpty else { return }
        terminal.writeRaw(out)
    }

    private func drawTooSmall(_ layout: ExplorerLayout) {
        let lines = wrap("The terminal is too small (\(layout.columns)×\(layout.rows)): the explorer needs at least "
            + "\(ExplorerLayout.minimumColumns)×\(ExplorerLayout.minimumRows). Enlarge the window, or press q to quit "
            + "(? shows the keys).",
            width: max(10, layout.columns - 2))
        let top = max(0, (layout.rows - lines.count) / 2)
        for (i, line) in lines.enumerated() {
            terminal.put(top + i, max(0, (layout.columns - line.count) / 2), line, .init(bold: true))
        }
    }

    private func drawTitle(_ layout: ExplorerLayout) {
        let rect = samples.sourceRect
        // Fitted by importance as the status line is: what is shown first, the terminal's settings last.
        typealias Part = StatusLine.Part
        var parts = [Part(text: "cifiltertest", priority: 4),
                     Part(text: "\(samples.sourceName) \(Int(rect.width))×\(Int(rect.height))", priority: 2)]
        if let video = playback.video { parts.append(Part(text: video.formatLabel, priority: 3)) }
        parts.append(showOriginal ? Part(text: "BEFORE (source image, b: after)", short: "BEFORE", priority: 0)
            : showsSourceForRectangle ? Part(text: "source, with the rectangle edited", short: "source", priority: 0)
            : split != nil ? Part(text: "split: before | after", short: "split", priority: 0)
            : Part(text: "after (b: before)", short: "after", priority: 1))
        if let chainLabel = chainTitleLabel { parts.append(Part(text: chainLabel, priority: 1, cuttable: true)) }
        parts.append(Part(text: zoomLabel, priority: 1))
        if !showOriginal, let extent = outputExtent { parts.append(Part(text: Self.extentLabel(extent, shown: framedRect), priority: 3)) }
        if fullScreen { parts.append(Part(text: "full screen (f)", short: "full screen", priority: 2)) }
        if graphics != .symbols { parts.append(Part(text: "graphics \(graphics.rawValue)", priority: 5)) }
        parts.append(Part(text: "colours \(terminal.colorMode.rawValue)", priority: 5))
        parts.append(Part(text: "mouse \(terminal.mouseEnabled ? "on" : "off")", priority: 6))
        let title = StatusLine.fit(parts, width: layout.columns - 2)
        terminal.fill(0, 0, width: layout.columns, .init(.title, reverse: terminal.colorMode == .monochrome))
        terminal.put(0, 1, title, width: layout.columns - 2,
                     .init(.title, bold: true, reverse: terminal.colorMode == .monochrome))
    }

    /// "output 672×672 at (−80,−80)": where the filter's output lies (its extent), and what is shown of it
    /// when that is cut (an infinite generator, a clamped blur).
    static func extentLabel(_ extent: Rect, shown: Rect?) -> String {
        func size(_ r: Rect) -> String { "\(formatNumber(r.width))×\(formatNumber(r.height))" }
        func at(_ r: Rect) -> String {
            r.x == 0 && r.y == 0 ? "" : " at (\(formatNumber(r.x)),\(formatNumber(r.y)))".replacingOccurrences(of: "-", with: "−")
        }
        var text = extent.isInfinite ? "output infinite" : "output \(size(extent))\(at(extent))"
        if let shown, shown != extent { text += ", shown \(size(shown))\(at(shown))" }
        return text
    }

    /// "fit 12%", "zoom 200%" or "1:1": preview pixels per image pixel of the view shown (or requested).
    var zoomLabel: String {
        guard let geometry, geometry.imageRect.width > 0 else { return zoom.scale == nil ? "fit" : "zoom" }
        let scale = Double(geometry.pixelSize.width) / geometry.imageRect.width
        if zoom.scale == nil { return String(format: "fit %.0f%%", scale * 100) }
        if abs(scale - 1) < 0.001 { return "1:1" }
        return String(format: scale < 0.1 ? "zoom %.1f%%" : "zoom %.0f%%", scale * 100)
    }

    private func drawTree(_ layout: ExplorerLayout) {
        let area = layout.tree
        tree.scrollToCursor(height: area.height)
        let focused = focus == .filters && isNormalOrSearch
        for i in 0..<area.height {
            let index = tree.scroll + i
            guard tree.rows.indices.contains(index) else { break }
            let y = area.y + i
            let isCursor = index == tree.cursor
            switch tree.rows[index] {
            case .category(let category):
                let records = tree.showAllCategories ? category.allRecords : category.uniqueRecords
                let text = "\(category.isExpanded ? glyphs.expanded : glyphs.collapsed) \(category.displayName) (\(records.count))"
                if isCursor { terminal.fill(y, area.x, width: area.width, .init(reverse: focused)) }
                terminal.put(y, area.x, text, width: area.width,
                             .init(isCursor && focused ? nil : .category, bold: true, reverse: isCursor && focused))
            case .looksHeader:
                let text = "\(tree.looksExpanded ? glyphs.expanded : glyphs.collapsed) Looks (\(tree.looks.count))"
                if isCursor { terminal.fill(y, area.x, width: area.width, .init(reverse: focused)) }
                terminal.put(y, area.x, text, width: area.width,
                             .init(isCursor && focused ? nil : .category, bold: true, reverse: isCursor && focused))
            case .look(let look):
                let text = "    " + look.name
                let note = look.isOwn ? " your look" : " shipped look"
                let style = Terminal.Style(nil, reverse: isCursor && focused, underline: isCursor && !focused)
                if isCursor && focused { terminal.fill(y, area.x, width: area.width, style) }
                terminal.put(y, area.x, text, width: area.width, style)
                if text.count + 1 < area.width {
                    terminal.put(y, area.x + text.count, note, width: area.width - text.count, .init(.dim, reverse: isCursor && focused))
                }
            case .filter(let record):
                let runnable = record.isAvailable && FilterRegistry.implementation(for: record.filterName) != nil
                let current = record.filterName == session?.name
                // The fidelity mark first: ✓ verified, ƒ formula, ~ approximate, ✗ unavailable.
                var text = glyphs.fidelity(record.descriptor.fidelity?.status) + " " + (current ? "• " : "  ")
                    + record.displayName
                var note = " " + record.filterName
                if !record.isAvailable { note += " · unavailable" }
                else if !runnable { note += " · not implemented yet" }
                if record.isDuplicate { note += " · also in \(record.firstCategoryDisplayName)" }
                if text.count >= area.width { text = String(text.prefix(area.width)) }
                let style = Terminal.Style(runnable ? nil : .dim, bold: current, reverse: isCursor && focused,
                                           underline: isCursor && !focused)
                if isCursor && focused { terminal.fill(y, area.x, width: area.width, style) }
                terminal.put(y, area.x, text, width: area.width, style)
                if text.count + 1 < area.width {
                    terminal.put(y, area.x + text.count, note, width: area.width - text.count,
                                 .init(.dim, reverse: isCursor && focused))
                }
            }
        }
    }

    private var isNormalOrSearch: Bool {
        switch mode {
        case .normal, .help, .details: true
        case .text(let entry): if case .search = entry.purpose { true } else { false }
        default: false
        }
    }

    // MARK: Preview

    private func drawPreview(_ layout: ExplorerLayout) {
        let area = layout.preview
        if let note = previewNote {
            drawCentered(note, in: area, .init(.dim, bold: true))
            return
        }
        guard let frame, let cells = frame.cells,
              area.contains(x: frame.geometry.cells.x, y: frame.geometry.cells.y),
              area.contains(x: frame.geometry.cells.maxX - 1, y: frame.geometry.cells.maxY - 1) else {
            drawCentered(frame?.error.map { "render failed: \($0)" } ?? "rendering…", in: area, .init(.dim))
            return
        }
        let origin = frame.geometry.cells
        let mode = terminal.colorMode
        let base = Terminal.previewPairBase
        if terminal.drawsPreviewDirectly {
            // ncurses holds a mark per cell; the colours go out after its refresh (`directPreviewBytes`).
            for y in 0..<cells.height {
                for x in 0..<cells.width { terminal.markDirectCell(origin.y + y, origin.x + x) }
            }
            directPreview = (cells, origin)
            drawOverlays(geometry ?? frame.geometry)
            return
        }
        for y in 0..<cells.height {
            for x in 0..<cells.width {
                let i = y * cells.width + x
                let fg = cells.foreground[i], bg = cells.background[i]
                let pair: Int32
                switch mode {
                case .truecolor, .indexed256:
                    pair = 0  // written directly above
                case .indexed16, .indexed8:
                    let n: Int32 = mode == .indexed16 ? 16 : 8
                    pair = base + (fg < 0 ? n : min(fg, n - 1)) * (n + 1) + (bg < 0 ? n : min(bg, n - 1))
                case .monochrome:
                    pair = 0
                }
                terminal.putCell(origin.y + y, origin.x + x, cells.chars[i], pair: pair)
            }
        }
        drawOverlays(geometry ?? frame.geometry)
    }

    /// The widgets' marks on the image (points, the selected rectangle's corners) and the pixel inspector's
    /// crosshair.
    private func drawOverlays(_ geometry: PreviewGeometry) {
        defer { drawInspectorCursor(geometry) }
        guard let session else { return }
        for (index, control) in session.controls.enumerated() {
            control.widget.drawOverlay(control, selected: index == controlCursor, geometry: geometry, explorer: self)
        }
    }

    /// The inspected pixel's cell, drawn as a crosshair in reverse video so it shows over any colour.
    private func drawInspectorCursor(_ geometry: PreviewGeometry) {
        guard case .inspect = mode, let inspector,
              let cell = geometry.cell(imageX: Double(inspector.x) + 0.5, imageY: Double(inspector.y) + 0.5) else { return }
        terminal.put(cell.y, cell.x, glyphs.unicode ? "╋" : "#", .init(.marker, bold: true, reverse: true))
    }

    private func drawCentered(_ text: String, in area: CellRect, _ style: Terminal.Style) {
        let lines = wrap(text, width: max(8, area.width - 4))
        let top = area.y + max(0, (area.height - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < area.maxY {
            terminal.put(top + i, area.x + max(0, (area.width - line.count) / 2), line, width: area.width, style)
        }
    }

    // MARK: Controls

    private func drawControls(_ layout: ExplorerLayout) {
        let header = layout.controlsHeader
        let focused = focus == .controls
        terminal.put(header.y, header.x, String(repeating: glyphs.horizontal, count: header.width), .init(.dim))
        guard let session else { return }
        var title = " Inputs: \(session.descriptor.displayName) (\(session.name)) "
        if let fidelity = session.descriptor.fidelity {
            title += "· \(glyphs.fidelity(fidelity.status)) \(fidelity.status.rawValue) "
        }
        terminal.put(header.y, header.x + 1, title, width: header.width - 2,
                     .init(focused ? .accent : nil, bold: true, reverse: focused && terminal.colorMode == .monochrome))
        let area = layout.controls
        if let control = currentControl {
            terminal.put(layout.inputHelp.y, layout.inputHelp.x + 2,
                         Self.inputHelp(control.input, kind: control.kind, start: session.startingValue(forKey: control.input.key)),
                         width: layout.inputHelp.width - 2, .init(.dim))
        }
        if session.controls.isEmpty {
            terminal.put(area.y, area.x + 2, "(this filter has no inputs)", width: area.width - 2, .init(.dim))
            return
        }
        if controlCursor < controlScroll { controlScroll = controlCursor }
        if controlCursor >= controlScroll + area.height { controlScroll = controlCursor - area.height + 1 }
        controlScroll = max(0, min(controlScroll, session.controls.count - area.height))
        let label = labelWidth(in: area)
        for row in 0..<area.height {
            let index = controlScroll + row
            guard session.controls.indices.contains(index) else { break }
            let control = session.controls[index]
            let y = area.y + row
            let selected = index == controlCursor
            let edited = session.edited.contains(control.input.key)
            terminal.put(y, area.x, selected ? (focused ? glyphs.collapsed : "›") : " ", .init(.accent, bold: true))
            terminal.put(y, area.x + 2, String(control.input.displayName.prefix(label)), width: label,
                         .init(selected && focused ? .accent : nil, bold: edited || selected, reverse: selected && focused))
            drawWidget(control, index: index, y: y, area: area, selected: selected)
        }
        if session.controls.count > area.height {
            let more = "\(controlScroll + 1)–\(min(session.controls.count, controlScroll + area.height)) of \(session.controls.count)"
            terminal.put(header.y, header.maxX - more.count - 2, more, .init(.dim))
        }
    }

    /// What a new user needs to know about an input on one line: its type, default and range first (so a
    /// narrow terminal cuts the prose, not the numbers), then what it does. The default is the explorer's
    /// starting value (`start`, what `r` resets to) when it has one, shown as the row shows values.
    static func inputHelp(_ input: InputDescriptor, kind: ControlKind? = nil, start: FilterValue? = nil) -> String {
        var parts: [String] = []
        if let type = input.type { parts.append(type.rawValue.replacingOccurrences(of: "CIAttributeType", with: "").lowercased()) }
        if let start {
            parts.append("default " + (kind == .rectangle ? ControlDisplay.text(start, kind: .rectangle) : start.description))
        } else if let value = input.defaultValue {
            var text = value.description
            if kind == .rectangle, case .vector(let v) = value { text = ControlDisplay.text(.vector(v), kind: .rectangle) }
            parts.append("default " + text)
        }
        let low = input.minimum ?? input.sliderMinimum, high = input.maximum ?? input.sliderMaximum
        if low != nil || high != nil {
            var range = "range \(low.map(formatNumber) ?? "−∞") … \(high.map(formatNumber) ?? "∞")"
            // The slider's span when the input accepts more than it.
            if let sliderLow = input.sliderMinimum, let sliderHigh = input.sliderMaximum,
               sliderLow != input.minimum || sliderHigh != input.maximum {
                range += " (slider \(formatNumber(sliderLow)) … \(formatNumber(sliderHigh)))"
            }
            parts.append(range)
        }
        let description = input.description.trimmingCharacters(in: .whitespacesAndNewlines)
        parts.append(description.isEmpty ? input.displayName : description)
        return parts.joined(separator: " · ")
    }

    private func drawWidget(_ control: InputControl, index: Int, y: Int, area: CellRect, selected: Bool) {
        let bar = sliderBar(in: area)
        let row = WidgetRow(control: control, index: index, y: y, x: bar.x, barWidth: bar.width, width: area.maxX - bar.x,
                            selected: selected, editor: selected ? editor : nil)
        control.widget.drawRow(row, explorer: self)
    }

    // MARK: Status line and overlays

    private func drawStatus(_ layout: ExplorerLayout) {
        let y = layout.status.y
        let width = layout.columns
        terminal.fill(y, 0, width: width, .init(reverse: true))
        if case .text(let entry) = mode {
            let prompt = entry.prompt
            terminal.put(y, 0, prompt, .init(.accent, bold: true, reverse: true))
            let visible = entry.field.visible(width: max(2, width - prompt.count - 1))
            terminal.put(y, prompt.count, visible.text, .init(reverse: true))
            let cursorX = prompt.count + visible.cursorColumn
            let under = visible.cursorColumn < visible.text.count
                ? String(Array(visible.text)[visible.cursorColumn]) : " "
            terminal.put(y, cursorX, under, .init())
            if let message { drawMessage(message, above: y, width: width) }
            return
        }
        if let message {
            // A running export keeps the status line to itself until its file is complete.
            if let exporting = exportStatus {
                drawMessage(message, above: y, width: width)
                terminal.put(y, 0, " " + exporting, width: width, .init(reverse: true))
            } else {
                drawMessage(message, above: y + 1, width: width)
            }
            return
        }
        terminal.put(y, 0, statusText(width: width), width: width, .init(reverse: true))
    }

    /// The status line's usual text, fitted to `width` by priority (`StatusLine`): filter, the input being
    /// edited and its value, the editor's keys, render time, help hint, the filter's fidelity evidence.
    func statusText(width: Int) -> String {
        " " + StatusLine.fit(statusParts(), width: width - 1)
    }

    func statusParts() -> [StatusLine.Part] {
        if case .inspect = mode {
            return inspectorStatusParts() + helpHint
        }
        guard let session else { return [.init(text: "no filter", priority: 0)] + helpHint }
        var parts = [StatusLine.Part(text: session.name, priority: 1)] + playbackStatusParts()
        if let exporting = exportStatus { parts.append(.init(text: exporting, priority: 1, cuttable: true)) }
        if let control = currentControl {
            parts.append(.init(text: "\(control.input.key) = \(control.widget.valueText(control, explorer: self))", priority: 0, cuttable: true))
        }
        // While frames follow each other a frame is nearly always in flight: the busy mark is for slow ones.
        if let seconds = renderingFor, !isPlaying || seconds >= 0.5 {
            parts.append(.init(text: String(format: "rendering… %.1f s", seconds), priority: 3))
        } else if let frame, frame.error == nil, previewNote == nil {
            // The time belongs to the frame shown; a proxy frame says so (its full-size refinement follows).
            let time = String(format: "%.0f ms", frame.renderMs + frame.chafaMs)
            let proxy = frame.proxyFactor == 1 ? ""
                : frame.refinementSkipped ? " (proxy ÷\(frame.proxyFactor): full size needs over \(PreviewRenderer.refinementBytes >> 30) GiB)"
                : " (proxy ÷\(frame.proxyFactor), refining)"
            parts.append(.init(text: time + proxy, short: proxy.isEmpty ? nil : time, priority: 3))
        }
        if let ab = abLabel { parts.append(.init(text: "showing \(ab) (x: A/B)", priority: 2)) }
        parts += helpHint
        // Browsing filters: the details of the current one, how sure we are of it and why.
        if focus == .filters, case .normal = mode, let fidelity = session.descriptor.fidelity {
            parts.append(.init(text: "\(fidelity.status.rawValue): \(fidelity.evidence)", priority: 5, cuttable: true))
        }
        let hint: (String, String)? = switch mode {
        case .editor(let editor):
            currentControl.flatMap { control in
                control.widget.editorHint(editor).map { ($0, control.widget.editorShortHint(editor) ?? $0) }
            }
        case .view: ("view: arrows pan (Shift: half a view), + - zoom, 1 1:1, 0 fit, Enter done", "view: arrows, + - 1 0, Enter")
        default: chainHint
        }
        if let hint {
            // While an editor is open its keys matter more than the filter's name.
            parts[0].priority = 2
            parts.append(.init(text: hint.0, short: hint.1, priority: 1))
        }
        return parts
    }

    /// `? help` in the status line: never left out when there is no key bar to show it and `?` opens the help
    /// (an editor or a prompt takes the key for itself); otherwise the first part to give way.
    var helpHint: [StatusLine.Part] {
        let helpWorks = switch mode {
        case .normal, .inspect: true
        default: false
        }
        return [.init(text: "? help", priority: layout.keyBar.height == 0 && helpWorks ? 0 : 4)]
    }

    /// A message over the status line, wrapped upwards over as many rows as it needs (at most four).
    private func drawMessage(_ message: Message, above bottom: Int, width: Int) {
        // User text in messages (values, paths) is shortened here and escaped where it is drawn (Terminal.put).
        let text = DisplayText.escaped(message.text, limit: max(DisplayText.defaultLimit, 3 * width))
        let lines = wrap(" " + text, width: max(10, width - 1)).suffix(4)
        for (i, line) in lines.enumerated() {
            let y = bottom - lines.count + i
            terminal.fill(y, 0, width: width, .init(reverse: true))
            terminal.put(y, 0, line, width: width, .init(message.isError ? .error : nil, bold: message.isError,
                                                         reverse: true))
        }
    }

    /// The details pane (key i): what the filter does and how sure we are that it renders what Core Image does.
    private func drawDetails(_ layout: ExplorerLayout) {
        guard let session else { return }
        let descriptor = session.descriptor
        let width = min(layout.columns - 4, 86)
        let text = width - 4
        var lines: [(String, Bool)] = [("\(descriptor.displayName) (\(descriptor.name))", true), ("", false)]
        lines += wrap(descriptor.description, width: text).map { ($0, false) }
        lines.append(("", false))
        let status = descriptor.unavailableReason.map { "unavailable: it \($0)" }
            ?? (session.isImplemented ? "available" : "not implemented yet")
        lines += wrap("Status: \(status)", width: text).map { ($0, false) }
        if let values = reductionValues {
            lines.append(("", false))
            lines.append(("Output values (a reduction: its numbers, not only the swatch)", true))
            lines += values.flatMap { wrap($0, width: text) }.map { ($0, false) }
        }
        if let fidelity = descriptor.fidelity {
            lines.append(("", false))
            lines.append(("Fidelity: \(glyphs.fidelity(fidelity.status)) \(fidelity.status.rawValue) (\(fidelity.status.meaning))", true))
            lines += wrap(fidelity.evidence, width: text).map { ($0, false) }
        }
        lines.append(("", false))
        lines += wrap("The marks in the list: " + Fidelity.Status.allCases.map { "\(glyphs.fidelity($0)) \($0.rawValue)" }
            .joined(separator: " · ") + " (? explains them)", width: text).map { ($0, false) }
        let height = min(layout.rows - 2, lines.count + 4)
        let x = (layout.columns - width) / 2, y = max(1, (layout.rows - height) / 2)
        terminal.fill(y, x, width: width, height: height, .init(reverse: true))
        terminal.put(y, x + 2, "Details (any key closes)", width: text, .init(bold: true, reverse: true))
        for (i, (line, bold)) in lines.enumerated() {
            let row = y + 2 + i
            guard row < y + height - 1 else { break }
            terminal.put(row, x + 2, line, width: text, .init(bold: bold, reverse: true))
        }
    }

    /// The help (`?`): every key, wrapped to the screen's width, scrolled when taller than the screen.
    private func drawHelp() {
        let help = HelpLayout(entries: Self.keyHelp, columns: terminal.cols, rows: terminal.rows)
        helpScroll = min(max(0, helpScroll), help.maximumScroll)
        let box = help.box
        let inner = box.width - 4
        let style = Terminal.Style(reverse: true)
        terminal.fill(box.y, box.x, width: box.width, height: box.height, style)
        terminal.put(box.y, box.x + 2, help.title(width: inner), width: inner, .init(bold: true, reverse: true))
        for (i, row) in help.rows.dropFirst(helpScroll).prefix(help.visibleCount).enumerated() {
            let y = box.y + 1 + i
            if help.keyWidth > 0 {
                terminal.put(y, box.x + 2, row.keys, width: help.keyWidth, .init(bold: true, reverse: true))
                terminal.put(y, box.x + 3 + help.keyWidth, row.text, width: inner - help.keyWidth - 1, style)
            } else if !row.keys.isEmpty {
                terminal.put(y, box.x + 2, row.keys, width: inner, .init(bold: true, reverse: true))
            } else {
                terminal.put(y, box.x + 2, row.text, width: inner, style)
            }
        }
        if let position = help.position(scroll: helpScroll) {
            terminal.put(box.maxY - 1, box.maxX - 2 - position.count, position, .init(bold: true, reverse: true))
        }
    }
}

/// Splits text into lines of at most `width` characters, at spaces where possible.
func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
        var word = String(word)
        while word.count > width {
            if !line.isEmpty { lines.append(line); line = "" }
            lines.append(String(word.prefix(width)))
            word = String(word.dropFirst(width))
        }
        if line.isEmpty { line = word }
        else if line.count + 1 + word.count <= width { line += " " + word }
        else { lines.append(line); line = word }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
}

