import FilterEngine
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
        return try chain.framedOutput(through: through, samples: samples, proxyFactor: proxyFactor, context: context,
                                      forExport: forExport)
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
        let index = chain.insert(made, after: after)
        showStep(index)
        focus = .filters
        message = Message(text: "step \(index + 1) added \(after ? "after" : "before") step \(after ? index : index + 2): "
                          + "choose its filter in the list (/ searches), Tab edits it, c returns to the chain", isError: false)
    }

    private func freshSession(named name: String) -> FilterSession? {
        tree.list.record(named: name).flatMap { try? FilterSession(descriptor: $0.descriptor, samples: samples) }
    }

    private func removeStep() {
        let name = session?.name ?? ""
        let removed = chain.selected + 1
        do {
            let unlinked = try chain.removeSelected()
            showStep(chain.selected)
            var text = "step \(removed) (\(name)) removed"
            if !unlinked.isEmpty { text += "; back to their own image: " + unlinked.joined(separator: ", ") }
            message = Message(text: text, isError: false)
        } catch {
            message = Message(text: "\(error)", isError: true)
        }
    }

    private func moveStep(by delta: Int) {
        do {
            try chain.moveSelected(by: delta)
            message = Message(text: "\(session?.name ?? "the step") is now step \(chain.selected + 1)", isError: false)
            needsRender = true
        } catch {
            message = Message(text: "\(error)", isError: true)
        }
    }

    private func toggleBypass() {
        guard let step = chain.selectedStep else { return }
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
            chain.setLink(link, step: index, key: key)
            needsRender = true
        case .choice(let choice):
            chain.setLink(nil, step: index, key: key)
            edit { try session.setImage(choice, forKey: key) }
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
            chain.setLink(.step(chain.steps[number - 1].uid), step: chain.selected, key: key)
            needsRender = true
            return true
        }
        if text.trimmingCharacters(in: .whitespaces) == Recipe.inputID, links.contains(.input) {
            chain.setLink(.input, step: chain.selected, key: key)
            needsRender = true
            return true
        }
        if key == "inputImage", chain.selected > 0 {
            throw FilterExplorerError("in a chain, a later step's inputImage is an earlier step's output (step N) or the chain's input (input)")
        }
        chain.setLink(nil, step: chain.selected, key: key)
        return false
    }
}
