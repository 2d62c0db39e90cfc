import FilterEngine

/// A boolean: Space or ← → flip it, Enter opens a two-entry picker (off, on), a click flips it.
struct BooleanWidget: PickerBackedWidget {
    var kind: ControlKind { .toggle }
    var help: (keys: String, meaning: String)? { ChoiceWidget.listHelp }
    static let choices = [Choice(.number(0), "[ ] off"), Choice(.number(1), "[x] on")]

    var picker: ChoiceWidget { ChoiceWidget(choices: Self.choices) }

    func step(_ control: InputControl, by steps: Int, coarse: Bool, explorer: Explorer) { flip(control, explorer: explorer) }

    func rowKey(_ key: Key, control: InputControl, explorer: Explorer) -> Bool {
        guard key == .char(" ") else { return false }
        flip(control, explorer: explorer)
        return true
    }

    func rowMouse(_ action: MouseEvent.Action, column: Int, width: Int, control: InputControl, explorer: Explorer) -> Bool {
        if action != .drag, column >= 0 { flip(control, explorer: explorer) }
        return false
    }

    private func flip(_ control: InputControl, explorer: Explorer) {
        guard case .number(let n)? = explorer.session?.value(forKey: control.input.key) else { return }
        explorer.apply(.number(n != 0 ? 0 : 1), to: control.input.key)
    }

    func setText(_ text: String, control: InputControl, explorer: Explorer) throws {
        // Numbers (any non-zero is true, as NSNumber) and the words a person types for a boolean.
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "on", "true", "yes": explorer.apply(.number(1), to: control.input.key)
        case "off", "false", "no": explorer.apply(.number(0), to: control.input.key)
        default:
            let value = try NumberExpression.evaluate(text, default: nil).value
            try explorer.session?.set(.number(value != 0 ? 1 : 0), forKey: control.input.key)
        }
    }
}
