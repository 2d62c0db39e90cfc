import FilterEngine

/// An image input: ← → (or a click on ◂ ▸) step through the images its role offers (pictures, gradients,
/// palettes ...), Enter types a file's path.
struct ImageWidget: InputWidget {
    let role: ImageRole
    var kind: ControlKind { .image(role) }

    func valueText(_ control: InputControl, explorer: Explorer) -> String {
        explorer.chainImageText(control) ?? explorer.session?.displayText(control) ?? ""
    }

    func drawRow(_ row: WidgetRow, explorer: Explorer) {
        explorer.drawChooserRow(row, text: valueText(row.control, explorer: explorer))
    }

    func step(_ control: InputControl, by steps: Int, coarse: Bool, explorer: Explorer) {
        // In a chain, the earlier steps' outputs come first.
        if explorer.chainImageStep(control, by: steps) { return }
        guard let session = explorer.session,
              let next = ChoiceCycle.step(explorer.samples.choices(for: role), from: session.imageChoices[control.input.key], by: steps) else { return }
        explorer.edit { try session.setImage(next, forKey: control.input.key) }
    }

    func rowMouse(_ action: MouseEvent.Action, column: Int, width: Int, control: InputControl, explorer: Explorer) -> Bool {
        if action != .drag, column >= 0 { step(control, by: column < 2 ? -1 : 1, coarse: false, explorer: explorer) }
        return false
    }

    func textPrompt(_ control: InputControl) -> String { "\(control.input.key) file: " }
    var pathKind: PathCompletion.Kind? { .image }

    func initialText(_ control: InputControl, explorer: Explorer) -> String {
        explorer.chainImageInitialText(control) ?? explorer.session?.imageChoices[control.input.key].flatMap(explorer.samples.path) ?? ""
    }

    func setText(_ text: String, control: InputControl, explorer: Explorer) throws {
        if try explorer.chainImageTyped(control, text: text) { return }
        try explorer.session?.setText(text, forKey: control.input.key)
    }
}
