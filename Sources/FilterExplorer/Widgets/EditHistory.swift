import FilterEngine

/// Undo and redo over whole states: each edit records the state from before it; undo steps back to it (the
/// current state goes on the redo side), redo forward again. A new edit after an undo drops the redo side.
/// Pure and generic, so it is tested without a terminal.
public struct UndoHistory<State> {
    public private(set) var past: [State] = []
    public private(set) var future: [State] = []
    /// Edits kept; the oldest are dropped beyond it.
    public let limit: Int

    public init(limit: Int = 200) { self.limit = limit }

    public var canUndo: Bool { !past.isEmpty }
    public var canRedo: Bool { !future.isEmpty }

    /// Records an edit that turned `before` into something else.
    public mutating func record(_ before: State) {
        past.append(before)
        if past.count > limit { past.removeFirst(past.count - limit) }
        future = []
    }

    /// The state to go back to, given the state now (kept for redo); nil when there is nothing to undo.
    public mutating func undo(from current: State) -> State? {
        guard let previous = past.popLast() else { return nil }
        future.append(current)
        return previous
    }

    public mutating func redo(from current: State) -> State? {
        guard let next = future.popLast() else { return nil }
        past.append(current)
        return next
    }
}

/// Two whole parameter sets of a filter to compare, A and B: the shown one is the session's live values; the
/// other is kept here with its own undo history. Swapping stores the live set and brings back the other (a
/// copy of the live set the first time); undo then works on the set shown.
struct ABComparison {
    var showingB = false
    var other: FilterSession.Snapshot
    var otherHistory: UndoHistory<FilterSession.Snapshot>
}

/// Where an edit began: the edited session's values, and in a chain the whole chain (the chain's history
/// records the edit then).
struct EditStart {
    let session: FilterSession
    let values: FilterSession.Snapshot
    let chain: ChainSnapshot?
}

/// The explorer's editing memory: a single filter's undo histories (one per filter, as each is explored on its
/// own), the chain's history (structural edits and the values of every step, in the order they were made), A/B
/// comparisons, the undo group in progress (an open editor or a slider drag counts as one edit), and the angles
/// typed in degrees.
struct EditingState {
    var histories: [String: UndoHistory<FilterSession.Snapshot>] = [:]
    /// Used once the chain has several steps or an edit of its own was made (`Explorer.usesChainHistory`).
    var chainHistory = UndoHistory<ChainSnapshot>()
    /// The chain history's depth right after a filter change made by browsing a one-step chain: the next such
    /// change, with nothing recorded in between, is part of the same edit.
    var browseRecordDepth: Int?
    var comparisons: [String: ABComparison] = [:]
    /// The state from before the open editor or the drag in progress (recorded as one edit when it ends).
    var groupStart: EditStart?
    /// Groups open (an editor, and a drag inside it): the edit is recorded when the last one closes.
    var groupDepth = 0
    /// "filter.key" of angle inputs whose value was last typed in degrees.
    var degreeKeys: Set<String> = []
}
