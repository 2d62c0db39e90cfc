import FilterEngine

/// A named colour space (sRGB, linear, Display P3): ← → step through them, Enter opens the list.
struct ColorSpaceWidget: PickerBackedWidget {
    var kind: ControlKind { .colorSpace }
    var help: (keys: String, meaning: String)? { ChoiceWidget.listHelp }
    var picker: ChoiceWidget { ChoiceWidget(choices: ColorSpaceChoice.options.map { Choice(.string($0), $0) }) }

    func drawRow(_ row: WidgetRow, explorer: Explorer) {
        explorer.drawChooserRow(row, text: valueText(row.control, explorer: explorer), note: "  (Enter: list)")
    }

    func step(_ control: InputControl, by steps: Int, coarse: Bool, explorer: Explorer) {
        let current: String? = if case .string(let s)? = explorer.session?.value(forKey: control.input.key) { s } else { nil }
        explorer.apply(.string(ColorSpaceChoice.stepped(current, by: steps)), to: control.input.key)
    }

    func rowMouse(_ action: MouseEvent.Action, column: Int, width: Int, control: InputControl, explorer: Explorer) -> Bool {
        if action != .drag, column >= 0 { step(control, by: column < 2 ? -1 : 1, coarse: false, explorer: explorer) }
        return false
    }

    func textPrompt(_ control: InputControl) -> String {
        "\(control.input.key) (\(ColorSpaceChoice.options.joined(separator: ", "))): "
    }
}
