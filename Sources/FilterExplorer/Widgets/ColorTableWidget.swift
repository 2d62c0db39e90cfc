import FilterEngine

/// A colour table: a cube (← → step through the looks, Enter reads a .cube file) or CIColorCurves' curves
/// (← → step through generated curves, Enter types a curves name). The session makes the bytes.
struct ColorTableWidget: InputWidget {
    let isCube: Bool
    var kind: ControlKind { isCube ? .colorCube : .colorCurves }

    func valueText(_ control: InputControl, explorer: Explorer) -> String { explorer.session?.displayText(control) ?? "" }

    func drawRow(_ row: WidgetRow, explorer: Explorer) {
        explorer.drawChooserRow(row, text: valueText(row.control, explorer: explorer), note: isCube ? "  (Enter: a .cube file)" : "")
    }

    func step(_ control: InputControl, by steps: Int, coarse: Bool, explorer: Explorer) {
        guard let session = explorer.session else { return }
        let key = control.input.key
        // A chosen .cube file stays in the cycle, after the looks.
        var options = isCube ? TableChoice.cubeOptions : TableChoice.curvesOptions
        if let current = session.tableChoices[key], !options.contains(current) { options.append(current) }
        guard let next = ChoiceCycle.step(options, from: session.tableChoices[key], by: steps) else { return }
        explorer.edit { try session.setTable(next, forKey: key) }
    }

    func rowMouse(_ action: MouseEvent.Action, column: Int, width: Int, control: InputControl, explorer: Explorer) -> Bool {
        if action != .drag, column >= 0 { step(control, by: column < 2 ? -1 : 1, coarse: false, explorer: explorer) }
        return false
    }

    func textPrompt(_ control: InputControl) -> String {
        isCube ? "\(control.input.key) (.cube file or look): " : "\(control.input.key) (curves name): "
    }

    var pathKind: PathCompletion.Kind? { isCube ? .cube : nil }

    func initialText(_ control: InputControl, explorer: Explorer) -> String {
        guard let table = explorer.session?.tableChoices[control.input.key] else { return "" }
        if case .cubeFile(let path) = table { return path }
        return table.label
    }

    func setText(_ text: String, control: InputControl, explorer: Explorer) throws {
        try explorer.session?.setText(text, forKey: control.input.key)
    }
}
