import FilterEngine

/// What a press-drag on the preview does, as in a GUI: a drag that starts on the selected input's mark (a point's
/// marker, inside a rectangle drawn over the picture) edits it; elsewhere the hand tool moves the picture with
/// the pointer, panning a zoomed view or, for an output framed by a rectangle input (a crop), moving that
/// rectangle the other way. With nothing to pan (the whole output shown), a point or rectangle input is edited
/// from anywhere, as it always was.
enum PreviewGrab: Equatable {
    case editValue
    case pan
    case moveViewport
    case nothing

    /// `onValue`: the press is on the selected input's mark; `zoomed`: the view is a window on the output;
    /// `viewportKey`: the rectangle input the output is framed by; `editsValue`: the selected input is one the
    /// mouse places (a point or rectangle).
    static func decide(onValue: Bool, zoomed: Bool, viewportKey: String?, editsValue: Bool) -> PreviewGrab {
        if onValue { return .editValue }
        if zoomed { return .pan }
        if viewportKey != nil { return .moveViewport }
        return editsValue ? .editValue : .nothing
    }

    /// Two framed rectangles equal to within half a pixel (a crop's and the output's, both made whole).
    static func sameRect(_ a: Rect, _ b: Rect) -> Bool {
        abs(a.minX - b.minX) < 0.5 && abs(a.minY - b.minY) < 0.5 && abs(a.maxX - b.maxX) < 0.5 && abs(a.maxY - b.maxY) < 0.5
    }
}

extension PreviewZoom {
    /// The view after the picture was dragged by `delta` (image units, x right, y up) from where it showed
    /// `shown`: the point under the pointer stays under it, the window kept inside `rect`.
    func grabbed(shown: Rect, by delta: (x: Double, y: Double), of rect: Rect) -> PreviewZoom {
        guard scale != nil else { return self }
        var next = self
        next.centreX = min(max(shown.midX - delta.x, rect.minX + shown.width / 2), rect.maxX - shown.width / 2)
        next.centreY = min(max(shown.midY - delta.y, rect.minY + shown.height / 2), rect.maxY - shown.height / 2)
        return next
    }
}
