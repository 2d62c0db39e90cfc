import FilterEngine

/// An input the explorer cannot edit, with the reason beside it.
struct ReadOnlyWidget: InputWidget {
    let reason: String
    var kind: ControlKind { .readOnly(reason) }

    func drawRow(_ row: WidgetRow, explorer: Explorer) {
        explorer.terminal.put(row.y, row.x, "\(valueText(row.control, explorer: explorer))  (read-only: \(reason))", width: row.width, .init(.dim))
    }

    private func refuse(_ control: InputControl, _ explorer: Explorer) {
        explorer.message = .init(text: "\(control.input.key) is read-only here: \(reason)", isError: false)
    }

    func step(_ control: InputControl, by steps: Int, coarse: Bool, explorer: Explorer) { refuse(control, explorer) }
    func activate(_ control: InputControl, explorer: Explorer) { refuse(control, explorer) }
    func setText(_ text: String, control: InputControl, explorer: Explorer) throws {
        throw FilterExplorerError("\(control.input.key) is read-only here: \(reason)")
    }
}
