import FilterEngine
import Foundation

/// The eyedropper: a colour input takes the colour of a pixel of the picture. It is the pixel inspector with a
/// destination, so the cursor, its keys and the reading are the inspector's; what is picked is what the preview
/// shows there (the output, or the source where `b` or the split view shows it), as a GUI's eyedropper picks
/// from the screen.
extension Explorer {
    /// `I` on a colour row (or in its editor), or a click on the row's swatch: the inspector opens to pick.
    func startColorPick(_ control: InputControl) {
        guard case .color = control.kind else {
            message = Message(text: "I picks a colour from the picture: select a colour input first", isError: false)
            return
        }
        if case .editor = mode { closeEditor(keeping: true) }
        colorPick = control.input.key
        startInspector()
    }

    /// Leaves picking without changing anything.
    func cancelColorPick() {
        guard let key = colorPick else { return }
        colorPick = nil
        mode = .normal
        message = Message(text: "\(key) kept (nothing picked)", isError: false)
    }

    /// Takes the colour under the inspector's cursor into the input being picked for: one undo step.
    func takePickedColor() {
        guard let key = colorPick, let session, let control = session.controls.first(where: { $0.input.key == key }),
              let inspector else { return }
        colorPick = nil
        mode = .normal
        let reading: PixelReading
        do {
            if let current = inspector.reading, current.x == inspector.x, current.y == inspector.y {
                reading = current
            } else {
                // The background read has not come back yet: read the one pixel now.
                guard let (image, _) = try inspectedImage(),
                      let read = try PixelReading.read(image, rect: Rect(x: Double(inspector.x), y: Double(inspector.y),
                                                                         width: 1, height: 1), context: context).first else {
                    message = Message(text: "nothing to pick here: the filter has no output", isError: true)
                    return
                }
                reading = read
            }
        } catch {
            message = Message(text: "could not read the pixel: \(error)", isError: true)
            return
        }
        let color = PickedColor.color(of: reading, opaque: control.input.type == .opaqueColor)
        edit { try session.set(.color(color), forKey: key) }
        let from = showsSource(atX: inspector.x) ? "the source" : "the output"
        message = Message(text: "\(key) = \(ColorStepper.hex(color)) picked at (\(inspector.x),\(inspector.y)) of \(from) (u undoes)",
                          isError: false)
    }

    /// Whether the preview shows the source at column `x` of the image: all of it with `b`, left of the divider
    /// in the split view.
    func showsSource(atX x: Int) -> Bool {
        if showOriginal || showsSourceForRectangle { return true }
        guard let split, let shown = geometry?.imageRect else { return false }
        return Double(x) < shown.minX + shown.width * split
    }
}

/// The colour input's value for a pixel: the working space's linear premultiplied floats made straight and
/// sRGB-encoded, as a colour input holds them (`Color`), to four decimals; an opaque colour input gets alpha 1.
enum PickedColor {
    static func color(of reading: PixelReading, opaque: Bool) -> Color {
        let p = ColorMath.unpremultiplied(Pixel(reading.linear[0], reading.linear[1], reading.linear[2], reading.linear[3]))
        func tidy(_ v: Float) -> Double { (Double(v) * 10_000).rounded() / 10_000 }
        return Color(red: tidy(ColorMath.sRGB(fromLinear: p.x)), green: tidy(ColorMath.sRGB(fromLinear: p.y)),
                     blue: tidy(ColorMath.sRGB(fromLinear: p.z)), alpha: opaque ? 1 : tidy(min(1, max(0, p.w))))
    }
}
