import FilterEngine
import Foundation

// How the explorer records edits (undo, redo, A/B) and the helpers widgets draw and act with.
extension Explorer {
    /// The open modal editor, if any.
    var editor: WidgetEditor? { if case .editor(let e) = mode { e } else { nil } }

    // MARK: Recording edits

    /// Runs a change to the current filter's values as one undoable edit; a refused change is reported in the
    /// status line and changes nothing.
    func edit(_ change: () throws -> Void) {
        do { try editThrowing(change) } catch {
            message = Message(text: "\(error)", isError: true)
        }
    }

    /// `edit`, passing a refusal on to the caller.
    func editThrowing(_ change: () throws -> Void) throws {
        guard let session else { return }
        // Changes made inside the change (a widget calling `apply`) belong to this one edit.
        let before = editing.groupDepth == 0 ? session.snapshot() : nil
        editing.groupDepth += 1
        defer {
            editing.groupDepth -= 1
            if let before { record(before, in: session) }
            needsRender = true
        }
        try change()
    }

    private func record(_ before: FilterSession.Snapshot, in session: FilterSession) {
        guard !before.isSame(as: session.snapshot()) else { return }
        editing.histories[historyKey(session), default: UndoHistory()].record(before)
    }

    /// Starts an edit made of many changes (an editor, a drag); groups nest.
    func beginEditGroup() {
        if editing.groupDepth == 0 { editing.groupStart = session?.snapshot() }
        editing.groupDepth += 1
    }

    func endEditGroup() {
        guard editing.groupDepth > 0 else { return }
        editing.groupDepth -= 1
        guard editing.groupDepth == 0, let start = editing.groupStart, let session else { return }
        editing.groupStart = nil
        record(start, in: session)
    }

    /// `u` and `U`: the current filter's values before its last edit, or after the edit last undone.
    func undo(redo: Bool) {
        closeEditor(keeping: true)
        guard let session else { return }
        var history = editing.histories[historyKey(session), default: UndoHistory()]
        let now = session.snapshot()
        guard let target = redo ? history.redo(from: now) : history.undo(from: now) else {
            message = Message(text: redo ? "nothing to redo" : "nothing to undo", isError: false)
            return
        }
        editing.histories[historyKey(session)] = history
        session.restore(target)
        needsRender = true
        let left = redo ? history.future.count : history.past.count
        message = Message(text: (redo ? "redone" : "undone") + " (\(left) more; \(redo ? "u undoes" : "U redoes"))", isError: false)
    }

    /// `x`: keeps the values shown as one set and shows the other (A/B). The first `x` copies the values, so
    /// both sets start equal and the edits after it make B. Each set keeps its own undo history.
    func swapAB() {
        closeEditor(keeping: true)
        guard let session else { return }
        let shown = session.snapshot()
        let history = editing.histories[historyKey(session), default: UndoHistory()]
        var comparison = editing.comparisons[historyKey(session)] ?? ABComparison(other: shown, otherHistory: history)
        session.restore(comparison.other)
        needsRender = true
        editing.histories[historyKey(session)] = comparison.otherHistory
        (comparison.other, comparison.otherHistory) = (shown, history)
        comparison.showingB.toggle()
        editing.comparisons[historyKey(session)] = comparison
        message = Message(text: "showing \(comparison.showingB ? "B" : "A") (x shows \(comparison.showingB ? "A" : "B"))", isError: false)
    }

    /// "A" or "B" while the current filter has two sets to compare.
    var abLabel: String? {
        guard let session, let comparison = editing.comparisons[historyKey(session)] else { return nil }
        return comparison.showingB ? "B" : "A"
    }

    // MARK: Angles

    func typedInDegrees(_ key: String) -> Bool {
        guard let session else { return false }
        return editing.degreeKeys.contains("\(session.name).\(key)")
    }

    func setTypedInDegrees(_ degrees: Bool, key: String) {
        guard let session else { return }
        if degrees { editing.degreeKeys.insert("\(session.name).\(key)") } else { editing.degreeKeys.remove("\(session.name).\(key)") }
    }

    // MARK: Drawing helpers

    /// Where the value part of a control row starts (the slider bar's column).
    var valueColumn: Int { sliderBar(in: layout.controls).x }

    /// The screen row of the current control.
    var currentRowY: Int { layout.controls.y + controlCursor - controlScroll }

    /// A chooser's row: `◂ value ▸`, with a note after it.
    func drawChooserRow(_ row: WidgetRow, text: String, note: String = "") {
        terminal.put(row.y, row.x, "\(glyphs.left) \(text) \(glyphs.right)\(note)", width: row.width, .init(bold: row.selected))
    }
}
