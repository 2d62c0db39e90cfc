import FilterEngine
import Foundation

/// The pixel inspector (`p`) and dragging in the preview.
extension Explorer {
    /// What the inspector reads: the export's image (the filter's own output at full resolution, never the
    /// preview's proxy or its opaque display form), or the source while `b` shows it; and the rectangle it is
    /// framed to (the cursor stays inside it).
    func inspectedImage() throws -> (image: Image, rect: Rect)? {
        if showOriginal { return (samples.source, samples.sourceRect) }
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
        case .escape, .enter, .char("p"):
            mode = .normal
            return
        default: break
        }
        if zoomKey(key) { return }
        guard let (dx, dy, coarse) = arrow(key) else {
            switch key {
            case .char("q"), .char("Q"): running = false
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
                message = Message(text: "inspector: arrows move (Shift: a cell), + - 1 0 zoom, click places, Esc leaves",
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
        if showOriginal { parts.append(.init(text: "of the source (b)", priority: 2)) }
        parts.append(.init(text: "inspector: arrows move (Shift: a cell), click places, Esc leaves",
                           short: "arrows, click, Esc leaves", priority: 3))
        return parts
    }

    // MARK: Dragging in the preview

    /// A press on the preview while a point or rectangle input is the current one: the press sets a point;
    /// dragging moves the point to the pointer, or the rectangle by as much as the pointer moved. The
    /// geometry of the press is kept for the whole drag, so a preview that re-frames as the value changes (a crop)
    /// does not move the ground under the pointer.
    func previewPress(x: Int, y: Int, action: MouseEvent.Action) {
        if action == .press {
            previewDrag = nil
            guard let geometry, let control = currentControl else { return }
            // The press starts one undo step that lasts until the release.
            beginEditGroup()
            previewDrag = PreviewDrag(key: control.input.key, geometry: geometry,
                                      start: geometry.imagePoint(cellX: x, cellY: y),
                                      startValue: session?.value(forKey: control.input.key))
        }
        guard let drag = previewDrag, let control = session?.controls.first(where: { $0.input.key == drag.key }) else { return }
        let point = drag.geometry.imagePoint(cellX: x, cellY: y)
        control.widget.previewDrag(drag, to: (point.x, point.y), control: control, explorer: self)
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
}
