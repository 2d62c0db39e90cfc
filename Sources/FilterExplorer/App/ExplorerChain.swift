import FilterEngine
import FilterPipeline
import Foundation

// The chain panel: the explorer edits an ordered chain of steps (`Model/Chain.swift`), each with its own
// `FilterSession`. `session` is always the selected step's; the filter list chooses the selected step's filter.
// A chain of one step is the explorer of one filter, unchanged. The hooks in the shared files are small: the
// preview, export and inspector render through `chainFramedOutput`, keys go through `chainKey` first.
extension Explorer {
    static let chainKeys: [(String, String)] = [
        ("c", "the chain panel: focus it (Esc or Enter: back to the inputs)"),
        ("s", "preview the chain's output / the selected step's output (the title says which)"),
        ("chain: ← → h l", "select the previous / next step (its inputs are edited below)"),
        ("chain: o  O", "add a step after / before the selected one, then choose its filter in the list (/ searches)"),
        ("chain: D  Delete", "remove the selected step"),
        ("chain: < >  Shift-← →", "move the selected step earlier / later"),
        ("chain: Space", "bypass the step (dimmed, marked ⊘): it passes its inputImage on"),
        ("chain: the filter list", "moving in the list previews a filter in the selected step; Enter or a click puts it there, Esc keeps the step's"),
        ("chain: image inputs", "← → on a later step's image input also offer the earlier steps' outputs; Enter, step N wires it to step N"),
    ]

    // MARK: Hooks

    /// Called whenever `session` changes: the selected step now edits it (the filter list chose its filter).
    func chainSessionChanged() {
        guard let session else { return }
        chain.setSelectedSession(session)
    }

    /// The rows the chain strip takes above the inputs: shown for a chain of several steps, a bypassed step (so a
    /// preview of the untouched source says why), or while focused.
    var chainStripRows: Int {
        (chain.count > 1 || focus == .chain || chain.steps.contains { $0.bypass }) && !fullScreen ? 1 : 0
    }

    /// What the preview, the export and the inspector render: the chain's output, or the selected step's
    /// (`s`); a chain of one step is its filter's own framed output.
    func chainFramedOutput(proxyFactor: Int = 1, forExport: Bool = false) throws -> PreviewPlanner.Framing {
        let through = chain.previewsSelectedStep && !forExport ? chain.selected : nil
        guard chain.count > 0 else {
            guard let session else { throw FilterExplorerError("no filter") }
            return try session.framedOutput(proxyFactor: proxyFactor, context: context, forExport: forExport)
        }
        // A filter previewed from the list stands in the selected step (never in an export).
        return try chain.substituting(forExport ? nil : browsePreview) {
            try chain.framedOutput(through: through, samples: samples, proxyFactor: proxyFactor, context: context,
                                   forExport: forExport)
        }
    }

    /// The extent of the filter's (or chain's) own output, without the clamp the preview and the export put
    /// before a filter that reads beyond the edge: a Gaussian blur's grows by 3σ a side where the clamped one is
    /// infinite. Only the image graph is built, nothing is rendered.
    func unclampedOutputExtent() throws -> Rect? {
        guard chain.count > 0 else {
            guard let shown = browsePreview ?? session else { return nil }
            return try ResolvedRecipe(steps: shown.resolvedSteps(proxyFactor: 1, context: context, clamped: false)).image(input: nil).extent
        }
        let through = chain.previewsSelectedStep ? chain.selected : nil
        return try chain.substituting(browsePreview) {
            let (recipe, input) = try chain.resolvedRecipe(through: through, samples: samples, context: context, clamped: false)
            return try recipe.image(input: input).extent
        }
    }

    /// The export's recipe, files and command for the whole chain.
    func chainRecipe(output: String, crop: Rect?, allValues: Bool) -> Recipe? {
        guard chain.count > 0 else { return session?.recipe(output: output, crop: crop, allValues: allValues) }
        return chain.recipe(output: output, crop: crop, allValues: allValues, samples: samples)
    }

    func chainExportFiles(output: String) -> [FilterSession.ExportFile] {
        chain.count > 0 ? chain.exportFiles(output: output) : session?.exportFiles(output: output) ?? []
    }

    func chainRenderCommand(output: String, crop: Rect?) -> String {
        chain.count > 0 ? chain.renderCommand(output: output, crop: crop, samples: samples)
            : session?.renderCommand(output: output, crop: crop) ?? ""
    }

    /// The undo history's and A/B's key for a session: its filter's name, or for a second step with the same
    /// filter (its own session) the name and the session, so each step keeps its own history.
    func historyKey(_ session: FilterSession) -> String {
        sessions[session.name] === session ? session.name : "\(session.name)#\(ObjectIdentifier(session).hashValue)"
    }

    /// A session for a step: the filter list's own for `name` unless another step uses it, else a new one (with
    /// the saved values, as the list's starts).
    func sessionForStep(named name: String) -> FilterSession? {
        if let existing = sessions[name], !chain.steps.contains(where: { $0.session === existing }) { return existing }
        guard let record = tree.list.record(named: name),
              let made = try? FilterSession(descriptor: record.descriptor, samples: samples) else { return nil }
        if let saved = state.values[name] { _ = made.restore(saved) }
        if sessions[name] == nil { sessions[name] = made }
        return made
    }

    /// Whether `session` is held by a step other than the selected one (the filter list then makes a new one).
    func chainHoldsElsewhere(_ session: FilterSession) -> Bool {
        chain.steps.enumerated().contains { $0.offset != chain.selected && $0.element.session === session }
    }

    // MARK: Opening a recipe

    /// `explore --recipe`: every step becomes an editable step of the chain, the last one selected.
    func openRecipeChain(_ recipe: Recipe) {
        var listed: Set<String> = []
        let warnings = chain.open(recipe) { name in
            guard let record = tree.list.record(named: name),
                  let made = try? FilterSession(descriptor: record.descriptor, samples: samples) else { return nil }
            // The list's own session for the filter is the first step's with it (a later one has its own).
            if listed.insert(name).inserted { sessions[name] = made }
            return made
        }
        guard chain.selectedStep != nil else {
            message = Message(text: "the recipe has no step the explorer can show: " + warnings.joined(separator: "; "), isError: true)
            return
        }
        showStep(chain.selected)
        var text = "recipe: " + chain.steps.map(\.session.name).joined(separator: " › ")
        if chain.count > 1 { text += " (\(chain.count) steps, step \(chain.count) selected; c: the chain)" }
        if !warnings.isEmpty { text += "; " + warnings.joined(separator: "; ") }
        message = Message(text: text, isError: !warnings.isEmpty)
    }

    // MARK: Keys

    /// Keys of the chain: `c` and `s` anywhere, the panel's own while it has the focus. Returns false for keys
    /// that are not the chain's (they go on to the usual bindings).
    func chainKey(_ key: Key) -> Bool {
        switch key {
        case .char("c") where focus != .chain:
            focus = .chain
            needsRender = true
            return true
        case .char("s"):
            guard chain.count > 1 else {
                message = Message(text: "a chain of one step: its output is the chain's (c, then o adds a step)", isError: false)
                return true
            }
            chain.previewsSelectedStep.toggle()
            message = Message(text: chain.previewsSelectedStep ? "preview: step \(chain.selected + 1)'s output (s: the chain's)"
                              : "preview: the chain's output (s: the selected step's)", isError: false)
            needsRender = true
            return true
        default:
            break
        }
        guard focus == .chain else { return false }
        switch key {
        case .left, .char("h"), .up, .char("k"): selectStep(chain.selected - 1)
        case .right, .char("l"), .down, .char("j"): selectStep(chain.selected + 1)
        case .home, .char("g"): selectStep(0)
        case .end, .char("G"): selectStep(chain.count - 1)
        case .char("o"), .char("O"): addStep(after: key == .char("o"))
        case .char("D"), .delete, .backspace: removeStep()
        case .char("<"), .shiftLeft, .char(">"), .shiftRight: moveStep(by: key == .char("<") || key == .shiftLeft ? -1 : 1)
        case .char(" "): toggleBypass()
        case .enter, .escape, .char("c"): focus = .controls
        default: return false
        }
        return true
    }

    /// Makes step `index` the one edited: its session, its filter shown in the list.
    func selectStep(_ index: Int) {
        guard chain.steps.indices.contains(index) else { return }
        closeEditor(keeping: true)
        showStep(index)
    }

    private func showStep(_ index: Int) {
        browsePreview = nil
        chain.selected = index
        let step = chain.steps[index]
        session = step.session
        tree.reveal(filterNamed: step.session.name)
        controlCursor = 0
        controlScroll = 0
        stopAnimation(restoring: true)
        state.lastFilter = step.session.name
        needsRender = true
    }

    private func addStep(after: Bool) {
        guard let current = session, let made = sessionForStep(named: current.name) ?? freshSession(named: current.name) else { return }
        closeEditor(keeping: true)
        let position = chain.count == 0 ? 1 : (after ? chain.selected + 2 : chain.selected + 1)
        let before = chain.snapshot(label: "step \(position) (\(current.name)) added")
        let index = chain.insert(made, after: after)
        recordChainEdit(before)
        showStep(index)
        focus = .filters
        message = Message(text: "step \(index + 1) added \(after ? "after" : "before") step \(after ? index : index + 2): "
                          + "choose its filter in the list (/ searches, Enter uses it), Tab edits it, c returns to the chain", isError: false)
    }

    private func freshSession(named name: String) -> FilterSession? {
        tree.list.record(named: name).flatMap { try? FilterSession(descriptor: $0.descriptor, samples: samples) }
    }

    private func removeStep() {
        let name = session?.name ?? ""
        let removed = chain.selected + 1
        let before = chain.snapshot(label: "step \(removed) (\(name)) removed")
        do {
            let unlinked = try chain.removeSelected()
            recordChainEdit(before)
            showStep(chain.selected)
            var text = "step \(removed) (\(name)) removed"
            if !unlinked.isEmpty { text += "; back to their own image: " + unlinked.joined(separator: ", ") }
            message = Message(text: text + " (u undoes)", isError: false)
        } catch {
            message = Message(text: "\(error)", isError: true)
        }
    }

    private func moveStep(by delta: Int) {
        let before = chain.snapshot(label: "\(session?.name ?? "the step") moved from step \(chain.selected + 1) to \(chain.selected + 1 + delta)")
        do {
            try chain.moveSelected(by: delta)
            recordChainEdit(before)
            message = Message(text: "\(session?.name ?? "the step") is now step \(chain.selected + 1)", isError: false)
            needsRender = true
        } catch {
            message = Message(text: "\(error)", isError: true)
        }
    }

    private func toggleBypass() {
        guard let step = chain.selectedStep else { return }
        recordChainEdit(chain.snapshot(label: "step \(chain.selected + 1) (\(step.session.name)) \(step.bypass ? "on again" : "bypassed")"))
        chain.toggleBypassSelected()
        message = Message(text: "step \(chain.selected + 1) (\(step.session.name)) "
                          + (step.bypass ? "bypassed: it passes its inputImage on (Space again: on)" : "on again"), isError: false)
        needsRender = true
    }

    // MARK: Image inputs wired to earlier steps

    /// The image inputs' options in a chain: the earlier steps' outputs (and for a later inputImage, the chain's
    /// input) before the pictures. Nil for the first step (or a chain of one): the widget's own choices.
    func chainImageStep(_ control: InputControl, by steps: Int) -> Bool {
        let key = control.input.key
        let index = chain.selected
        let links = chain.links(forStep: index, key: key)
        guard !links.isEmpty, let session, case .image(let role) = control.kind else { return false }
        enum Option: Equatable { case link(ChainLink), choice(ImageChoice) }
        // A later inputImage is always an earlier output or the input (the chain's spine); others add the pictures.
        let options = links.map(Option.link) + (key == "inputImage" ? [] : samples.choices(for: role).map(Option.choice))
        let current: Option? = chain.link(step: index, key: key).map(Option.link) ?? session.imageChoices[key].map(Option.choice)
        guard let next = ChoiceCycle.step(options, from: current, by: steps) else { return true }
        switch next {
        case .link(let link):
            recordChainEdit(chain.snapshot(label: "step \(index + 1) \(key) wired to the \(chain.label(link))"))
            chain.setLink(link, step: index, key: key)
            needsRender = true
        case .choice(let choice):
            guard chain.steps[index].links[key] != nil else {
                edit { try session.setImage(choice, forKey: key) }
                break
            }
            // Unwiring and the new picture are one edit.
            let before = chain.snapshot(label: "step \(index + 1) \(key): \(choice.persisted) instead of the \(chain.label(chain.steps[index].links[key]!))")
            chain.setLink(nil, step: index, key: key)
            do {
                try session.setImage(choice, forKey: key)
                recordChainEdit(before)
            } catch {
                chain.restore(before)
                message = Message(text: "\(error)", isError: true)
            }
            needsRender = true
        }
        return true
    }

    /// The row's text for an image input wired to an earlier step, or nil.
    func chainImageText(_ control: InputControl) -> String? {
        guard chain.count > 1, let link = chain.link(step: chain.selected, key: control.input.key) else { return nil }
        return chain.label(link)
    }

    /// What the text entry of a wired image input starts with: `step N` or `input`.
    func chainImageInitialText(_ control: InputControl) -> String? {
        guard chain.count > 1, let link = chain.link(step: chain.selected, key: control.input.key) else { return nil }
        switch link {
        case .input: return Recipe.inputID
        case .step(let uid): return chain.index(ofUID: uid).map { "step \($0 + 1)" }
        }
    }

    /// Typed text for an image input: `step N` (or `N`) wires it to an earlier step's output, `input` (a later
    /// inputImage) to the chain's input; true when that was it. A path unwires the input; a later step's inputImage
    /// takes no file.
    func chainImageTyped(_ control: InputControl, text: String) throws -> Bool {
        guard chain.count > 1 else { return false }
        let key = control.input.key
        let words = text.lowercased().split(separator: " ")
        let links = chain.links(forStep: chain.selected, key: key)
        if let last = words.last, words.count <= 2, words.count == 1 || words.first == "step", let number = Int(last) {
            guard chain.steps.indices.contains(number - 1), links.contains(.step(chain.steps[number - 1].uid)) else {
                throw FilterExplorerError("\(key) can take the output of an earlier step: step 1 to \(chain.selected)")
            }
            recordChainEdit(chain.snapshot(label: "step \(chain.selected + 1) \(key) wired to step \(number)'s output"))
            chain.setLink(.step(chain.steps[number - 1].uid), step: chain.selected, key: key)
            needsRender = true
            return true
        }
        if text.trimmingCharacters(in: .whitespaces) == Recipe.inputID, links.contains(.input) {
            recordChainEdit(chain.snapshot(label: "step \(chain.selected + 1) \(key) wired to the chain's input"))
            chain.setLink(.input, step: chain.selected, key: key)
            needsRender = true
            return true
        }
        if key == "inputImage", chain.selected > 0 {
            throw FilterExplorerError("in a chain, a later step's inputImage is an earlier step's output (step N) or the chain's input (input)")
        }
        if chain.steps[chain.selected].links[key] != nil {
            recordChainEdit(chain.snapshot(label: "step \(chain.selected + 1) \(key) unwired"))
            chain.setLink(nil, step: chain.selected, key: key)
        }
        return false
    }

    // MARK: Browsing the filter list

    /// Moving in the filter list (keys, search, wheel) goes to a filter. In a chain of several steps it is
    /// previewed in the selected step, which keeps its own filter until Enter (or a click) puts it there; a
    /// single filter is replaced at once, as it always was.
    func browse(toFilterNamed name: String) {
        guard chain.count > 1 else {
            let before = usesChainHistory && session?.name != name
                ? chain.snapshot(label: "step 1: \(session?.name ?? "") → \(name)") : nil
            select(filterNamed: name)
            // A one-step chain with a history of its own: the change is an edit (a run of them is one).
            if let before, session?.name == name, editing.browseRecordDepth != editing.chainHistory.past.count
                || editing.chainHistory.canRedo {
                recordChainEdit(before)
                editing.browseRecordDepth = editing.chainHistory.past.count
            }
            return
        }
        guard let current = session else { return }
        if name == current.name {
            if browsePreview != nil { browsePreview = nil; needsRender = true }
            return
        }
        if browsePreview?.name != name {
            guard let previewed = sessionForStep(named: name) else {
                message = Message(text: "\(name) cannot be opened", isError: true)
                return
            }
            browsePreview = previewed
            needsRender = true
        }
        message = Message(text: "previewing \(name) in step \(chain.selected + 1) — Enter to use it, Esc keeps \(current.name)",
                          isError: false)
    }

    /// Enter or a click on the previewed filter: it becomes the selected step's filter (one undo step).
    /// Returns false when nothing was previewed.
    @discardableResult
    func commitBrowsePreview() -> Bool {
        guard let previewed = browsePreview, let current = session else { return false }
        closeEditor(keeping: true)
        let before = chain.snapshot(label: "step \(chain.selected + 1): \(current.name) → \(previewed.name)")
        browsePreview = nil
        show(previewed)
        recordChainEdit(before)
        message = Message(text: "step \(chain.selected + 1) is now \(previewed.name) (u undoes)", isError: false)
        return true
    }

    /// Ends a preview from the list: the list goes back to the selected step's filter.
    func endBrowsePreview() {
        guard browsePreview != nil else { return }
        browsePreview = nil
        if let name = session?.name { tree.reveal(filterNamed: name) }
        needsRender = true
    }

    // MARK: Saving and restoring

    /// The chain as the state file keeps it.
    func savedChain() -> SavedChain {
        let steps = chain.steps.enumerated().map { index, step in
            var links: [String: String] = [:]
            for (key, link) in step.links {
                switch link {
                case .input: links[key] = "input"
                case .step(let uid): if let source = chain.index(ofUID: uid) { links[key] = "step \(source + 1)" }
                }
            }
            return SavedStep(filter: step.session.name, values: step.session.persistedValues(), bypass: step.bypass,
                             id: step.id, links: links)
        }
        return SavedChain(steps: steps, selected: chain.selected, previewsSelectedStep: chain.previewsSelectedStep)
    }

    /// Rebuilds a saved chain; returns what could not be restored. `withoutValues`: a filter whose saved values
    /// are not trusted (the last session died on it), started from its defaults.
    func restoreChain(_ saved: SavedChain, withoutValues: String? = nil) -> [String] {
        var warnings: [String] = []
        var made: [ChainStep] = []
        var uidBySavedIndex: [Int: Int] = [:]
        // The step the explorer started with gives its session back to the list (a saved step may take it).
        let started = chain.snapshot()
        chain.replaceSteps([])
        for (savedIndex, step) in saved.steps.enumerated() {
            var candidate = sessionForStep(named: step.filter)
            // A filter used by an earlier step of this chain too: each step has its own session.
            if let taken = candidate, made.contains(where: { $0.session === taken }) { candidate = freshSession(named: step.filter) }
            guard let session = candidate else {
                warnings.append("chain step \(savedIndex + 1): \(step.filter) is not in the filter list: left out")
                continue
            }
            session.resetAll()
            if step.filter != withoutValues { warnings += session.restore(step.values) }
            let chainStep = chain.makeStep(session)
            chainStep.bypass = step.bypass
            chainStep.id = step.id
            for (key, text) in step.links.sorted(by: { $0.key < $1.key }) {
                guard session.descriptor.input(key)?.isImage ?? false, let link = SavedStep.parseLink(text) else {
                    warnings.append("chain step \(savedIndex + 1): \(key) = \(text) is not a link")
                    continue
                }
                if link.isInput, !made.isEmpty { chainStep.links[key] = .input; continue }
                if let number = link.step, number - 1 < savedIndex, let uid = uidBySavedIndex[number - 1] {
                    chainStep.links[key] = .step(uid)
                } else {
                    warnings.append("chain step \(savedIndex + 1): \(key) takes \(text), which is not an earlier step")
                }
            }
            uidBySavedIndex[savedIndex] = chainStep.uid
            made.append(chainStep)
            // The list shows the filter with these values too.
            if sessions[step.filter] == nil { sessions[step.filter] = session }
        }
        guard !made.isEmpty else {
            chain.restore(started)
            return warnings
        }
        chain.replaceSteps(made)
        chain.selected = min(max(0, saved.selected), made.count - 1)
        chain.previewsSelectedStep = saved.previewsSelectedStep && made.count > 1
        showStep(chain.selected)
        return warnings
    }
}
