import FilterEngine
import Foundation

/// A number on a bar: ← → step it (Shift coarse), Enter types an expression (`pi/4`, `45°`, `2*default`), the
/// mouse presses or drags the knob. Angles show in the unit they were typed in; the filter always gets radians.
struct SliderWidget: InputWidget {
    let spec: SliderSpec
    var kind: ControlKind { .slider(spec) }

    func valueText(_ control: InputControl, explorer: Explorer) -> String {
        let value = explorer.session?.value(forKey: control.input.key)
        if spec.isAngle, case .number(let n)? = value, explorer.typedInDegrees(control.input.key) {
            return Self.degrees(n) + " (\(formatNumber(n)) rad)"
        }
        return ControlDisplay.text(value, kind: kind)
    }

    func drawRow(_ row: WidgetRow, explorer: Explorer) {
        guard case .number(let n)? = explorer.session?.value(forKey: row.control.input.key) else {
            explorer.terminal.put(row.y, row.x, "(not set)", width: row.width)
            return
        }
        let glyphs = explorer.glyphs, terminal = explorer.terminal, x = row.x
        let knob = ControlDisplay.knobColumn(fraction: spec.fraction(of: n), width: row.barWidth)
        terminal.put(row.y, x, String(repeating: glyphs.filled, count: knob), .init(.sliderFill, bold: true))
        terminal.put(row.y, x + knob, glyphs.knob, .init(.sliderFill, bold: true))
        terminal.put(row.y, x + knob + 1, String(repeating: glyphs.empty, count: max(0, row.barWidth - knob - 1)), .init(.dim))
        terminal.put(row.y, x + row.barWidth + 1, valueText(row.control, explorer: explorer),
                     width: row.width - row.barWidth - 1, .init(bold: row.selected))
    }

    func step(_ control: InputControl, by steps: Int, coarse: Bool, explorer: Explorer) {
        guard case .number(let n)? = explorer.session?.value(forKey: control.input.key) else { return }
        if spec.isAngle, explorer.typedInDegrees(control.input.key) {
            // Shown in degrees, stepped in whole degrees: 1° (Shift: 15°) to the next multiple.
            let step = coarse ? 15.0 : 1.0
            let degrees = (n * 180 / .pi * 1e6).rounded() / 1e6
            let next = ((degrees / step).rounded(steps > 0 ? .down : .up) + Double(steps)) * step
            explorer.apply(.number(next * .pi / 180), to: control.input.key)
            return
        }
        explorer.apply(.number(spec.stepped(n, by: steps, coarse: coarse)), to: control.input.key)
    }

    func rowMouse(_ action: MouseEvent.Action, column: Int, width: Int, control: InputControl, explorer: Explorer) -> Bool {
        // Once the knob is held, the pointer may leave the bar: the value stays at the nearer end.
        guard action == .drag || (column >= 0 && column < width) else { return false }
        let fraction = ControlDisplay.fraction(column: column, width: width)
        explorer.apply(.number(spec.value(atFraction: fraction)), to: control.input.key)
        return true
    }

    /// Radians as degrees for reading: "45°", "92.8648°" (four decimals at most).
    static func degrees(_ radians: Double) -> String {
        formatNumber((radians * 180 / .pi * 1e4).rounded() / 1e4) + "°"
    }

    func textPrompt(_ control: InputControl) -> String {
        spec.isAngle ? "\(control.input.key) (radians, or 45° / 45deg) = " : "\(control.input.key) = "
    }

    func initialText(_ control: InputControl, explorer: Explorer) -> String {
        guard case .number(let n)? = explorer.session?.value(forKey: control.input.key) else { return "" }
        if spec.isAngle, explorer.typedInDegrees(control.input.key) { return Self.degrees(n) }
        return formatNumber(n)
    }

    func setText(_ text: String, control: InputControl, explorer: Explorer) throws {
        guard let session = explorer.session else { return }
        let key = control.input.key
        let defaultValue: Double? = if case .number(let n)? = control.input.defaultValue { n } else { nil }
        let result = try NumberExpression.evaluate(text, default: defaultValue)
        let value = result.value
        if control.input.isInteger, value != value.rounded() {
            throw FilterExplorerError("\(key) takes whole numbers (\(formatNumber(value)) is not one)")
        }
        if spec.isAngle == false, result.usedDegrees {
            throw FilterExplorerError("\(key) is not an angle: ° and deg apply to angle inputs only")
        }
        try session.set(.number(value), forKey: key)
        if spec.isAngle { explorer.setTypedInDegrees(result.usedDegrees, key: key) }
    }
}
