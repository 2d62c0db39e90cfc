import FilterEngine
import Foundation

/// The pixel inspector (`p`) and dragging in the preview.
extension Explorer {
    /// What the inspector reads: the export's image (the filter's own output at full resolution, never the
    /// preview's proxy or its opaque display form), or the source while `b` shows it; and the rectangle it is
    /// framed to (the cursor stays inside it).
    func inspectedImage() throws -> (image: Image, rect: Rect)? {
        if showsSource(atX: inspector?.x ?? 0) { return (samples.source, samples.sourceRect) }
        guard let session, session.isImplemented, session.descriptor.unavailableReason == nil else { return nil }
        let framing = try chainFramedOutput(forExport: true)
        return (framing.image, framing.rect)
    }

    /// Opens the inspector at its last pixel, or at the middle of what the preview shows.
    func startInspector() {
        if inspector == nil {
            let shown = geometry?.imageRect ?? framedRect ?? samples.sourceRect
            inspector = PixelInspector(x: Int(shown.midX.rounded(.down)), y: Int(shown.midY.rounded(.down)))
        }
        mode = .inspect
        probeInspector()
    }

    /// Queues a read of the inspector's pixel (after a move, or when the output changed).
    func probeInspector() {
        guard case .inspect = mode, var current = inspector else { return }
        do {
            guard let (image, rect) = try inspectedImage() else {
                current.reading = nil
                current.error = "nothing to inspect: the filter has no output here"
                inspector = current
                return
            }
            (current.x, current.y) = PixelInspector.clamped(x: current.x, y: current.y, to: rect)
            current.error = nil
            inspector = current
            probeGeneration = probe.submit(image, x: current.x, y: current.y, context: context)
        } catch {
            current.reading = nil
            current.error = "\(error)"
            inspector = current
        }
    }

    /// A finished read: kept if it is the newest one asked for.
    func takeProbeResult() -> Bool {
        guard let result = probe.take(), result.generation == probeGeneration, inspector != nil else { return false }
        inspector?.reading = result.reading
        inspector?.error = result.error
        return true
    }

    /// Keys while inspecting: arrows move the cursor a pixel (Shift or HJKL: a preview cell), + - 1 0 zoom,
    /// b f q ? Ctrl-L do what they do elsewhere, Esc / Enter / p leave.
    func inspectorKey(_ key: Key) {
        switch key {
        case .enter where colorPick != nil:
            takePickedColor()
            return
        case .escape where colorPick != nil, .char("p") where colorPick != nil:
            cancelColorPick()
            return
        case .escape, .enter, .char("p"):
            mode = .normal
            return
        default: break
        }
        if zoomKey(key) { return }
        guard let (dx, dy, coarse) = arrow(key) else {
            switch key {
            case .char("q"), .char("Q"):
                colorPick = nil
                running = false
            case .char("?"), .function(1):
                helpScroll = 0
                mode = .help
            case .ctrl("l"): terminal.clearAll()
            case .char("b"):
                showOriginal.toggle()
                needsRender = true
            case .char("f"):
                fullScreen.toggle()
                needsRender = true
                terminal.clearAll()
            default:
                message = Message(text: colorPick != nil
                                  ? "picking a colour: arrows move (Shift: a cell), Enter or a click takes it, Esc cancels"
                                  : "inspector: arrows move (Shift: a cell), + - 1 0 zoom, click places, Esc leaves",
                                  isError: false)
            }
            return
        }
        guard let current = inspector else { return }
        // Shift: one preview cell's worth of pixels, so the crosshair moves on the screen at every press.
        var step = (x: 1, y: 1)
        if coarse, let geometry, geometry.cells.width > 0, geometry.cells.height > 0 {
            step = (max(1, Int((geometry.imageRect.width / Double(geometry.cells.width)).rounded())),
                    max(1, Int((geometry.imageRect.height / Double(geometry.cells.height)).rounded())))
        }
        moveInspector(toX: current.x + dx * step.x, y: current.y + dy * step.y)
    }

    /// Puts the cursor on a pixel (kept inside the output), panning a zoomed preview to keep it in view.
    func moveInspector(toX x: Int, y: Int) {
        let (cx, cy) = PixelInspector.clamped(x: x, y: y, to: framedRect ?? samples.sourceRect)
        inspector?.x = cx
        inspector?.y = cy
        if let scale = zoom.scale, let shown = geometry?.imageRect,
           !(Double(cx) >= shown.minX && Double(cx) < shown.maxX && Double(cy) >= shown.minY && Double(cy) < shown.maxY) {
            zoom = PreviewZoom(scale: scale, centreX: Double(cx) + 0.5, centreY: Double(cy) + 0.5)
            needsRender = true
        }
        probeInspector()
    }

    /// The pixel under a screen cell of the preview (the cell's centre), in the output's coordinates.
    func pixel(atCellX x: Int, y: Int, in geometry: PreviewGeometry) -> (x: Int, y: Int) {
        let point = geometry.imagePoint(cellX: x, cellY: y)
        return (Int(point.x.rounded(.down)), Int(point.y.rounded(.down)))
    }

    /// The status line while inspecting: where, the 8-bit sRGB bytes an export writes there, the linear floats.
    func inspectorStatusParts() -> [StatusLine.Part] {
        guard let inspector else { return [] }
        var parts = [StatusLine.Part(text: "pixel (\(inspector.x),\(inspector.y))", priority: 0)]
        if let reading = inspector.reading, reading.x == inspector.x, reading.y == inspector.y {
            parts.append(.init(text: "sRGB 8-bit \(reading.srgbText)", short: "sRGB \(reading.srgbText)", priority: 0))
            parts.append(.init(text: "linear RGBA \(reading.linearText)", short: "lin \(reading.linearText)", priority: 1))
        } else if let error = inspector.error {
            parts.append(.init(text: error, priority: 1, cuttable: true))
        } else {
            parts.append(.init(text: "reading…", priority: 1))
        }
        if showsSource(atX: inspector.x) { parts.append(.init(text: "of the source", priority: 2)) }
        if let key = colorPick {
            parts.insert(.init(text: "picking \(key): Enter or a click takes this colour, Esc cancels",
                               short: "pick: Enter/click, Esc", priority: 0), at: 0)
        } else {
            parts.append(.init(text: "inspector: arrows move (Shift: a cell), click places, Esc leaves",
                               short: "arrows, click, Esc leaves", priority: 3))
        }
        return parts
    }

    // MARK: Dragging in the preview

    /// A press on the preview, then drags: what it does is `PreviewGrab.decide`'s. Editing a value, a press sets a
    /// point and a drag moves it with the pointer, or moves a rectangle by as much as the pointer moved. Grabbing,
    /// the picture moves with the pointer: a zoomed view pans, a cropped one moves its crop rectangle the other
    /// way. The geometry of the press is kept for the whole drag, so a preview that re-frames as the value
    /// changes (a crop) does not move the ground under the pointer.
    func previewPress(x: Int, y: Int, action: MouseEvent.Action) {
        if action == .press {
            previewDrag = nil
            guard let geometry else { return }
            let control = currentControl
            let start = geometry.imagePoint(cellX: x, cellY: y)
            let grab = PreviewGrab.decide(onValue: pressIsOnValue(control, cell: (x, y), point: start, geometry: geometry),
                                          zoomed: zoom.scale != nil, viewportKey: viewportRectangleKey(),
                                          editsValue: control.map(Self.isPlacedOnPreview) ?? false)
            // The press starts one undo step that lasts until the release.
            beginEditGroup()
            let key = grab == .moveViewport ? viewportRectangleKey() ?? "" : control?.input.key ?? ""
            previewDrag = PreviewDrag(key: key, geometry: geometry, start: start, startValue: session?.value(forKey: key),
                                      grab: grab, zoomAtPress: zoom, shownAtPress: geometry.imageRect)
            // A press on a point elsewhere than its marker places it only when there is nothing to pan.
            if grab != .editValue { return }
        }
        guard var drag = previewDrag else { return }
        if action == .drag { drag.moved = true; previewDrag = drag }
        let point = drag.geometry.imagePoint(cellX: x, cellY: y)
        let delta = (x: point.x - drag.start.x, y: point.y - drag.start.y)
        switch drag.grab {
        case .editValue:
            guard let control = session?.controls.first(where: { $0.input.key == drag.key }) else { return }
            control.widget.previewDrag(drag, to: (point.x, point.y), control: control, explorer: self)
        case .pan:
            zoom = drag.zoomAtPress.grabbed(shown: drag.shownAtPress, by: delta, of: framedRect ?? samples.sourceRect)
            needsRender = true
        case .moveViewport:
            guard case .vector(let r)? = drag.startValue, r.count == 4 else { return }
            let moved = [r[0] - delta.x.rounded(), r[1] - delta.y.rounded(), r[2], r[3]]
            if case .vector(let now)? = session?.value(forKey: drag.key), now == moved { return }
            apply(.vector(moved), to: drag.key)
        case .nothing:
            message = Message(text: "the whole output is shown: zoom in (+, 1 or the wheel) to drag it", isError: false)
        }
    }

    /// The release of a press on the preview: a press on a point input away from its marker that did not move
    /// (a click, where a drag would have panned) places the point there. Ends the drag's undo step.
    func releasePreviewDrag(x: Int, y: Int) {
        defer {
            previewDrag = nil
            endEditGroup()
        }
        guard let drag = previewDrag, !drag.moved, drag.grab == .pan, let control = currentControl,
              Self.isPlacedOnPreview(control), case .point = control.kind else { return }
        let point = drag.geometry.imagePoint(cellX: x, cellY: y)
        control.widget.previewDrag(drag, to: (point.x, point.y), control: control, explorer: self)
    }

    /// Inputs the mouse places on the preview: points and rectangles.
    static func isPlacedOnPreview(_ control: InputControl) -> Bool {
        switch control.kind {
        case .point, .rectangle: true
        default: false
        }
    }

    /// Whether a press is on the selected input's mark: within a cell of a point's marker, or inside a rectangle
    /// drawn over the picture (not one that frames it, where the whole picture is inside).
    private func pressIsOnValue(_ control: InputControl?, cell: (x: Int, y: Int), point: (x: Double, y: Double),
                                geometry: PreviewGeometry) -> Bool {
        guard let control, case .vector(let v)? = session?.value(forKey: control.input.key) else { return false }
        switch control.kind {
        case .point(let offset) where v.count >= 2:
            let rect = samples.sourceRect
            let p = offset ? (rect.midX + v[0], rect.midY + v[1]) : (v[0], v[1])
            guard let marker = geometry.cell(imageX: p.0, imageY: p.1) else { return false }
            return abs(marker.x - cell.x) <= 1 && abs(marker.y - cell.y) <= 1
        case .rectangle where v.count == 4:
            guard viewportRectangleKey() != control.input.key else { return false }
            return point.x >= v[0] && point.x < v[0] + v[2] && point.y >= v[1] && point.y < v[1] + v[3]
        default:
            return false
        }
    }

    /// The rectangle input whose rectangle the output is framed by (a crop's), when the preview shows the output.
    func viewportRectangleKey() -> String? {
        guard !showOriginal, !showsSourceForRectangle, let session, let framed = framedRect else { return nil }
        return session.controls.first { control in
            guard case .rectangle = control.kind, case .vector(let v)? = session.value(forKey: control.input.key),
                  v.count == 4 else { return false }
            let rect = Rect(x: v[0], y: v[1], width: v[2], height: v[3]).intersection(samples.sourceRect).integral
            return PreviewGrab.sameRect(rect, framed)
        }?.input.key
    }
}

/// A press-drag on the preview in progress.
struct PreviewDrag {
    let key: String
    /// The preview's geometry at the press.
    let geometry: PreviewGeometry
    /// The image point pressed, and the input's value then.
    let start: (x: Double, y: Double)
    let startValue: FilterValue?
    var grab: PreviewGrab = .editValue
    /// The zoom and the rectangle shown at the press (a pan moves from there).
    var zoomAtPress = PreviewZoom.fit
    var shownAtPress = Rect(x: 0, y: 0, width: 0, height: 0)
    /// Whether the pointer moved with the button held.
    var moved = false
}
