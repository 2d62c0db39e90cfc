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

    /// `edit`, passing a refusal on to the caller. A refused change puts back the values from before it.
    func editThrowing(_ change: () throws -> Void) throws {
        guard session != nil else { return }
        // Changes made inside the change (a widget calling `apply`) belong to this one edit.
        let start = editing.groupDepth == 0 ? editStart() : nil
        editing.groupDepth += 1
        var refused = false
        defer {
            editing.groupDepth -= 1
            if let start {
                if refused { start.session.restore(start.values) } else { record(start) }
            }
            needsRender = true
        }
        do { try change() } catch {
            refused = true
            throw error
        }
    }

    /// Whether edits go to the chain's history: the chain has several steps, or has a history of its own (a
    /// step removed down to one can still be brought back).
    var usesChainHistory: Bool {
        chain.count > 1 || editing.chainHistory.canUndo || editing.chainHistory.canRedo
    }

    func editStart() -> EditStart? {
        guard let session else { return nil }
        return EditStart(session: session, values: session.snapshot(), chain: usesChainHistory ? chain.snapshot() : nil)
    }

    private func record(_ start: EditStart) {
        let now = start.session.snapshot()
        guard !start.values.isSame(as: now) else { return }
        if var before = start.chain {
            before.label = valueEditLabel(start.session, from: start.values, to: now)
            recordChainEdit(before)
        } else {
            editing.histories[historyKey(start.session), default: UndoHistory()].record(start.values)
        }
    }

    /// Records a chain edit (its `label` says what it did) that changed the chain from `before`.
    func recordChainEdit(_ before: ChainSnapshot) {
        editing.chainHistory.record(before)
        editing.browseRecordDepth = nil
    }

    /// "step 2 (CIVignette) inputIntensity 1 → 0.8", for undo messages.
    func valueEditLabel(_ session: FilterSession, from before: FilterSession.Snapshot, to after: FilterSession.Snapshot) -> String {
        let step = chain.steps.firstIndex { $0.session === session }.map { "step \($0 + 1) (\(session.name))" } ?? session.name
        let keys = before.changedKeys(to: after)
        guard let key = keys.first else { return step }
        let more = keys.count > 1 ? " and \(keys.count - 1) more" : ""
        return "\(step) \(key) \(DisplayText.escaped(before.text(key), limit: 24)) → \(DisplayText.escaped(after.text(key), limit: 24))\(more)"
    }

    /// Starts an edit made of many changes (an editor, a drag); groups nest.
    func beginEditGroup() {
        if editing.groupDepth == 0 { editing.groupStart = editStart() }
        editing.groupDepth += 1
    }

    func endEditGroup() {
        guard editing.groupDepth > 0 else { return }
        editing.groupDepth -= 1
        guard editing.groupDepth == 0, let start = editing.groupStart else { return }
        editing.groupStart = nil
        record(start)
    }

    /// `u` and `U`: in a chain, the chain before its last edit (a step added, removed, moved, bypassed, rewired,
    /// given another filter, or a value of any step), or after the edit last undone; a single filter's own
    /// values before its last edit.
    func undo(redo: Bool) {
        closeEditor(keeping: true)
        endBrowsePreview()
        if usesChainHistory, undoChain(redo: redo) { return }
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
        // The edit undone or redone, as it was made: "inputIntensity 1 → 0.9".
        let (from, to) = redo ? (now, target) : (target, now)
        let changed = from.changedKeys(to: to)
        let what = changed.first.map { key in
            ": \(key) \(DisplayText.escaped(from.text(key), limit: 24)) → \(DisplayText.escaped(to.text(key), limit: 24))"
                + (changed.count > 1 ? " and \(changed.count - 1) more" : "")
        } ?? ""
        message = Message(text: (redo ? "redone" : "undone") + " (\(left) more; \(redo ? "u undoes" : "U redoes"))" + what, isError: false)
    }

    /// Undo or redo in the chain's history; false when it has nothing on that side and the chain is a single
    /// step (whose own history is used then).
    private func undoChain(redo: Bool) -> Bool {
        var history = editing.chainHistory
        guard let label = (redo ? history.future.last : history.past.last)?.label else {
            guard chain.count > 1 else { return false }
            message = Message(text: redo ? "nothing to redo" : "nothing to undo", isError: false)
            return true
        }
        let now = chain.snapshot(label: label)
        guard let target = redo ? history.redo(from: now) : history.undo(from: now) else { return false }
        editing.chainHistory = history
        editing.browseRecordDepth = nil
        let previous = session
        chain.restore(target)
        if let step = chain.selectedStep {
            session = step.session
            tree.reveal(filterNamed: step.session.name)
            state.lastFilter = step.session.name
            if previous !== step.session {
                controlCursor = 0
                controlScroll = 0
            }
        }
        needsRender = true
        let left = redo ? history.future.count : history.past.count
        message = Message(text: (redo ? "redone" : "undone") + " (\(left) more; \(redo ? "u undoes" : "U redoes")): \(label)",
                          isError: false)
        return true
    }

    /// `x`: keeps the values shown as one set and shows the other (A/B). The first `x` copies the values, so
    /// both sets start equal and the edits after it make B. Each set keeps its own undo history.
    func swapAB() {
        closeEditor(keeping: true)
        guard let session else { return }
        let shown = session.snapshot()
        if usesChainHistory { recordChainEdit(chain.snapshot(label: "A/B of \(session.name)")) }
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
