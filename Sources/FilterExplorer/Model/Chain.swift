import FilterEngine
import FilterPipeline
import Foundation

/// Where an image input of a chain's step takes its picture when it is not its own choice: the chain's input
/// image, or the output of an earlier step (by the step's `uid`, which survives reordering).
public enum ChainLink: Equatable, Sendable {
    case input
    case step(Int)
}

/// One step of the explorer's chain: a filter with its own values (its `FilterSession`), whether it is bypassed,
/// and which image inputs are wired to the chain's input or an earlier step's output.
public final class ChainStep {
    /// Stable while the step exists (links name steps by it).
    public let uid: Int
    public var session: FilterSession
    /// A bypassed step passes the image its inputImage gets on unchanged.
    public var bypass = false
    /// The id a recipe gave the step, kept so that an export names it the same way.
    public var id: String?
    /// Image inputs wired elsewhere than their own choice. A later step's inputImage without a link takes the
    /// previous step's output (as in a recipe); the first step's takes its own choice (the explorer's source).
    public var links: [String: ChainLink] = [:]

    init(uid: Int, session: FilterSession) {
        self.uid = uid
        self.session = session
    }
}

/// The ordered steps the explorer edits. A chain of one step is the explorer of a single filter, and renders,
/// exports and writes its recipe exactly as that filter alone. Rendering follows `Recipe.makeImage`: each step's
/// inputImage is the previous step's output, image inputs may take an earlier step's output, a bypassed step
/// passes its inputImage on; the clamp the explorer puts before filters that read beyond the edge is written
/// into the recipe as a step of its own.
public final class Chain {
    public private(set) var steps: [ChainStep] = []
    /// The step whose inputs are edited.
    public var selected = 0
    /// Whether the preview shows the selected step's output rather than the whole chain's.
    public var previewsSelectedStep = false
    private var nextUID = 1

    public init() {}

    public var count: Int { steps.count }
    public var isSingle: Bool { steps.count <= 1 }
    public var selectedStep: ChainStep? { steps.indices.contains(selected) ? steps[selected] : nil }

    public func index(ofUID uid: Int) -> Int? { steps.firstIndex { $0.uid == uid } }

    /// The selected step now edits `session` (the filter list chose another filter for it); a chain with no steps
    /// gets its first one.
    public func setSelectedSession(_ session: FilterSession) {
        guard let step = selectedStep else {
            steps = [makeStep(session)]
            selected = 0
            return
        }
        guard step.session !== session else { return }
        step.session = session
        // Its links named the old filter's inputs: those the new filter has are kept.
        step.links = step.links.filter { session.descriptor.input($0.key)?.isImage ?? false }
    }

    /// Replaces every step (a recipe opened), selecting the last.
    public func replaceSteps(_ made: [ChainStep]) {
        steps = made
        selected = max(0, made.count - 1)
        previewsSelectedStep = false
    }

    public func makeStep(_ session: FilterSession) -> ChainStep {
        defer { nextUID += 1 }
        return ChainStep(uid: nextUID, session: session)
    }

    /// Inserts a step with `session` after (or before) the selected one and selects it; returns its index.
    @discardableResult
    public func insert(_ session: FilterSession, after: Bool) -> Int {
        let index = steps.isEmpty ? 0 : (after ? selected + 1 : selected)
        steps.insert(makeStep(session), at: index)
        selected = index
        return index
    }

    /// Removes the selected step (never the last one left). Inputs that took its output go back to their own
    /// image; returns them as "step N's KEY" for the status line.
    @discardableResult
    public func removeSelected() throws -> [String] {
        guard steps.count > 1, let step = selectedStep else { throw FilterExplorerError("the chain keeps at least one step") }
        var unlinked: [String] = []
        for (index, other) in steps.enumerated() where other !== step {
            for (key, link) in other.links.sorted(by: { $0.key < $1.key }) where link == .step(step.uid) {
                other.links[key] = nil
                let after = index > selected ? index : index + 1
                unlinked.append("step \(after)'s \(key)")
            }
        }
        steps.remove(at: selected)
        selected = max(0, min(selected - 1, steps.count - 1))
        if selected < 0 { selected = 0 }
        return unlinked
    }

    /// Moves the selected step one place earlier (-1) or later (+1). Refused when a step would then take the
    /// output of a step after it.
    public func moveSelected(by delta: Int) throws {
        let target = selected + delta
        guard steps.indices.contains(target), delta != 0 else {
            throw FilterExplorerError(delta < 0 ? "the step is already the first" : "the step is already the last")
        }
        steps.swapAt(selected, target)
        if let problem = forwardLink() {
            steps.swapAt(selected, target)
            throw FilterExplorerError(problem)
        }
        selected = target
    }

    /// A link that names a step at or after the one that uses it, described; nil when every link looks back.
    func forwardLink() -> String? {
        for (index, step) in steps.enumerated() {
            for (key, link) in step.links.sorted(by: { $0.key < $1.key }) {
                guard case .step(let uid) = link, let source = self.index(ofUID: uid), source >= index else { continue }
                return "step \(index + 1) (\(step.session.name)) takes the output of step \(source + 1) "
                    + "(\(steps[source].session.name)) as \(key): that step must stay before it"
            }
        }
        return nil
    }

    public func toggleBypassSelected() {
        selectedStep?.bypass.toggle()
    }

    // MARK: Snapshots (undo)

    /// The chain as it is now, for undo: every step with its session and that session's values.
    public func snapshot(label: String = "") -> ChainSnapshot {
        ChainSnapshot(steps: steps.map {
            ChainSnapshot.Step(uid: $0.uid, session: $0.session, values: $0.session.snapshot(), bypass: $0.bypass, id: $0.id,
                               links: $0.links)
        }, selected: selected, previewsSelectedStep: previewsSelectedStep, label: label)
    }

    /// Puts a snapshot back: the steps (the same sessions, their values), the selection.
    public func restore(_ snapshot: ChainSnapshot) {
        let existing = Dictionary(steps.map { ($0.uid, $0) }, uniquingKeysWith: { a, _ in a })
        steps = snapshot.steps.map { saved in
            let step = existing[saved.uid] ?? ChainStep(uid: saved.uid, session: saved.session)
            step.session = saved.session
            saved.session.restore(saved.values)
            step.bypass = saved.bypass
            step.id = saved.id
            step.links = saved.links
            nextUID = max(nextUID, saved.uid + 1)
            return step
        }
        selected = min(max(0, snapshot.selected), max(0, steps.count - 1))
        previewsSelectedStep = snapshot.previewsSelectedStep && steps.count > 1
    }

    /// Runs `body` with `session` standing in the selected step (a filter previewed from the list), its links
    /// kept where the stand-in has the same image input; nil runs it on the chain as it is.
    public func substituting<T>(_ session: FilterSession?, _ body: () throws -> T) rethrows -> T {
        guard let session, let step = selectedStep, step.session !== session else { return try body() }
        let (kept, keptLinks) = (step.session, step.links)
        step.session = session
        step.links = keptLinks.filter { session.descriptor.input($0.key)?.isImage ?? false }
        defer { (step.session, step.links) = (kept, keptLinks) }
        return try body()
    }

    // MARK: Image inputs

    /// Where the image input `key` of step `index` takes its picture from when not its own choice: its link,
    /// or (inputImage of a later step) the previous step. Nil: its own choice.
    public func link(step index: Int, key: String) -> ChainLink? {
        guard steps.indices.contains(index) else { return nil }
        if let link = steps[index].links[key] { return link }
        if key == "inputImage", index > 0 { return .step(steps[index - 1].uid) }
        return nil
    }

    /// The outputs an image input of step `index` may take: the earlier steps', nearest first for inputImage
    /// (its default is the previous step), in order otherwise; the chain's input for a later inputImage.
    public func links(forStep index: Int, key: String) -> [ChainLink] {
        guard index > 0, steps.indices.contains(index) else { return [] }
        let earlier = steps[..<index].map { ChainLink.step($0.uid) }
        return key == "inputImage" ? earlier.reversed() + [.input] : earlier
    }

    /// Wires (or, with nil, unwires) an image input of step `index`; a later inputImage wired to the previous
    /// step is its default and is stored as no link.
    public func setLink(_ link: ChainLink?, step index: Int, key: String) {
        guard steps.indices.contains(index) else { return }
        if key == "inputImage", index > 0, link == .step(steps[index - 1].uid) {
            steps[index].links[key] = nil
        } else {
            steps[index].links[key] = link
        }
    }

    /// "output of step 2 (CIVignette)" or "the chain's input".
    public func label(_ link: ChainLink) -> String {
        switch link {
        case .input: return "the chain's input"
        case .step(let uid):
            guard let index = index(ofUID: uid) else { return "a removed step" }
            return "output of step \(index + 1) (\(steps[index].session.name))"
        }
    }

    // MARK: Rendering

    /// The chain through step `last` (the whole chain by default) as a resolved recipe, for images `proxyFactor`
    /// times smaller (`FilterSession.resolvedSteps`): each step's output named by its uid, links as those names
    /// or the recipe's input; and the chain's input, what its first step's inputImage shows (the explorer's source
    /// by default).
    public func resolvedRecipe(through last: Int? = nil, samples: SampleLibrary, proxyFactor: Int = 1,
                               context: RenderContext = RenderContext(), clamped: Bool = true) throws -> (recipe: ResolvedRecipe, input: Image) {
        let end = last ?? steps.count - 1
        guard steps.indices.contains(end) else { throw FilterExplorerError("the chain has no step \(end + 1)") }
        if let problem = forwardLink() { throw FilterExplorerError(problem) }
        let factor = max(1, proxyFactor)
        let first = steps[0].session
        let input = try first.imageChoices["inputImage"].map { try samples.proxy($0, factor: factor, context: context) }
            ?? samples.proxy(.source, factor: factor, context: context)
        var resolved: [ResolvedRecipe.Step] = []
        for (index, step) in steps[...end].enumerated() {
            let links = step.links.mapValues { link -> String in
                switch link {
                case .input: Recipe.inputID
                case .step(let uid): Self.resolvedID(uid)
                }
            }
            resolved += try step.session.resolvedSteps(proxyFactor: factor, context: context, links: links,
                                                       followsAStep: index > 0, id: Self.resolvedID(step.uid),
                                                       bypass: step.bypass, clamped: clamped)
        }
        return (ResolvedRecipe(steps: resolved), input)
    }

    /// The name a step's output has in `resolvedRecipe` (not a recipe file's id: those are `recipeIDs`).
    static func resolvedID(_ uid: Int) -> String { "#\(uid)" }

    /// The output of step `last` (the chain's by default) framed for the preview or an export, as a single
    /// filter's is (`FilterSession.framedOutput`): a chain of one step is exactly that.
    public func framedOutput(through last: Int? = nil, samples: SampleLibrary, proxyFactor: Int = 1,
                             context: RenderContext = RenderContext(), forExport: Bool = false) throws -> PreviewPlanner.Framing {
        let end = last ?? steps.count - 1
        let factor = max(1, proxyFactor)
        let (recipe, input) = try resolvedRecipe(through: end, samples: samples, proxyFactor: factor, context: context)
        let image = try recipe.image(input: input)
        let step = steps[end]
        let scale = AffineTransform.scale(x: 1 / Double(factor), y: 1 / Double(factor))
        return PreviewPlanner.frame(output: image, descriptor: step.bypass ? nil : step.session.descriptor,
                                    sourceRect: scale.apply(to: samples.sourceRect), opaque: !forExport, proxyFactor: factor)
    }

    // MARK: Recipes

    /// The ids the recipe gives the steps: a recipe's own, and "stepN" for steps whose output a link takes.
    func recipeIDs() -> [Int: String] {
        let referenced = Set(steps.flatMap { $0.links.values.compactMap { if case .step(let uid) = $0 { uid } else { nil } } })
        var ids: [Int: String] = [:]
        var used = Set(steps.compactMap(\.id))
        for step in steps {
            if let id = step.id { ids[step.uid] = id; continue }
            guard referenced.contains(step.uid) else { continue }
            var n = (index(ofUID: step.uid) ?? 0) + 1
            while used.contains("step\(n)") || "step\(n)" == Recipe.inputID { n += 1 }
            ids[step.uid] = "step\(n)"
            used.insert("step\(n)")
        }
        return ids
    }

    /// Where step `index` names the files it writes beside an export: the output itself for the first step (so a
    /// chain of one writes what the filter alone does), `out-step2.png` … for the others.
    static func stepOutput(_ output: String, index: Int) -> String {
        guard index > 0 else { return output }
        let ext = (output as NSString).pathExtension
        let base = (output as NSString).deletingPathExtension + "-step\(index + 1)"
        return ext.isEmpty ? base : base + "." + ext
    }

    /// The files an export writes beside `output` for the whole chain (generated images, looks, curves).
    public func exportFiles(output: String) -> [FilterSession.ExportFile] {
        steps.enumerated().flatMap { index, step in
            step.session.exportFiles(output: Self.stepOutput(output, index: index)).filter { file in
                step.links[file.key] == nil && !(index > 0 && file.key == "inputImage")
            }
        }
    }

    /// The recipe of the whole chain: every step with its values (`FilterSession.recipe`), the clamps the
    /// explorer puts before filters that read beyond the edge, bypass flags, and links as `{"image": ID}`.
    public func recipe(output: String, crop: Rect? = nil, allValues: Bool = false, samples: SampleLibrary) -> Recipe {
        writtenRecipe(output: output, crop: crop, allValues: allValues, samples: samples).recipe
    }

    /// `recipe`, and where each step of the chain is among the recipe's steps (the clamps shift them), from 1.
    public func writtenRecipe(output: String, crop: Rect? = nil, allValues: Bool = false,
                              samples: SampleLibrary) -> (recipe: Recipe, positions: [Int]) {
        if steps.count == 1, !steps[0].bypass, steps[0].links.isEmpty, steps[0].id == nil {
            let recipe = steps[0].session.recipe(output: output, crop: crop, allValues: allValues)
            return (recipe, [recipe.steps.count])
        }
        var positions: [Int] = []
        let ids = recipeIDs()
        var written: [Recipe.Step] = []
        var input: String?
        for (index, step) in steps.enumerated() {
            let own = step.session.recipe(output: Self.stepOutput(output, index: index), crop: nil, allValues: allValues)
            if index == 0 { input = own.input }
            guard var main = own.steps.last else { continue }
            var clamp = own.steps.count > 1 ? own.steps.first : nil
            // A later step's clamp reads the previous output, as its inputImage does.
            if clamp == nil, index > 0, !step.bypass, step.session.descriptor.input("inputImage") != nil,
               PreviewPlanner.readsBeyondEdge(step.session.descriptor) {
                clamp = Recipe.Step(filter: ExplorerHints.clampFilter)
            }
            for (key, link) in step.links.sorted(by: { $0.key < $1.key }) {
                let reference: Recipe.Value
                switch link {
                case .input: reference = .image(Recipe.inputID)
                case .step(let uid): reference = .image(ids[uid] ?? Recipe.inputID)
                }
                main.inputs.removeAll { $0.key == key }
                if key == "inputImage", clamp != nil, !step.bypass {
                    clamp!.inputs = [.init(key, reference)]
                } else {
                    main.inputs.append(.init(key, reference))
                }
            }
            if step.bypass { clamp = nil }
            main.bypass = step.bypass
            main.id = ids[step.uid]
            written += (clamp.map { [$0] } ?? []) + [main]
            positions.append(written.count)
        }
        // A first step without an image of its own (a generator) still gives the chain an input when something
        // reads it: the explorer's source.
        let readsInput = steps.contains { $0.links.values.contains(.input) } || steps.first?.bypass == true
        if input == nil, readsInput, let path = samples.path(.source) { input = FilterSession.absolute(path) }
        return (Recipe(input: input, crop: crop, steps: written), positions)
    }

    /// The `cifiltertest render` command that makes the chain's output (the command line's words when it can
    /// say the chain, else `render --recipe` on the recipe written beside the output).
    public func renderCommand(output: String, crop: Rect? = nil, samples: SampleLibrary) -> String {
        renderArguments(output: output, crop: crop, samples: samples).map(FilterSession.shellQuoted).joined(separator: " ")
    }

    public func renderArguments(output: String, crop: Rect? = nil, samples: SampleLibrary) -> [String] {
        recipe(output: output, crop: crop, samples: samples).commandArguments(output: output)
            ?? ["cifiltertest", "render", "--recipe", FilterSession.recipePath(output: output), "-o", output]
    }

    // MARK: Opening a recipe

    /// A recipe's steps as the explorer shows them: the clamp it writes before a filter that reads beyond the
    /// edge is left out (the explorer puts it back), its inputImage link moved to the filter.
    public static func editableSteps(of recipe: Recipe) -> [Recipe.Step] {
        var result: [Recipe.Step] = []
        var index = 0
        let steps = recipe.steps
        while index < steps.count {
            let step = steps[index]
            if step.filter == ExplorerHints.clampFilter, step.id == nil, !step.bypass, index + 1 < steps.count,
               step.inputs.allSatisfy({ $0.key == "inputImage" && { if case .image = $0.value { true } else { false } }($0) }) {
                var next = steps[index + 1]
                if !next.bypass, !next.inputs.contains(where: { $0.key == "inputImage" }),
                   let descriptor = Filter(name: next.filter)?.descriptor, PreviewPlanner.readsBeyondEdge(descriptor) {
                    next.inputs += step.inputs
                    result.append(next)
                    index += 2
                    continue
                }
            }
            result.append(step)
            index += 1
        }
        return result
    }

    /// Makes the chain's steps from a recipe's (`editableSteps`): each filter's values over the catalogue's
    /// defaults, `{"image": ID}` as links. `makeSession` gives a fresh session for a filter name (nil: not
    /// in the list). Returns the warnings of what the explorer cannot show.
    public func open(_ recipe: Recipe, makeSession: (String) -> FilterSession?) -> [String] {
        var made: [ChainStep] = []
        var warnings: [String] = []
        var uidsByID: [String: Int] = [:]
        for step in Self.editableSteps(of: recipe) {
            guard let session = makeSession(step.filter) else {
                warnings.append("\(step.filter) is not in the filter list: left out")
                continue
            }
            session.resetForRecipe()
            let chainStep = makeStep(session)
            chainStep.bypass = step.bypass
            chainStep.id = step.id
            var rest = step
            rest.inputs = []
            for entry in step.inputs {
                guard case .image(let reference) = entry.value,
                      session.descriptor.input(entry.key)?.isImage ?? false else { rest.inputs.append(entry); continue }
                if reference == Recipe.inputID {
                    if entry.key == "inputImage", !made.isEmpty { chainStep.links[entry.key] = .input }
                    else { rest.inputs.append(entry) }  // the source image, as the explorer's own choice
                } else if let uid = uidsByID[reference] {
                    if entry.key != "inputImage" || made.last?.uid != uid { chainStep.links[entry.key] = .step(uid) }
                } else {
                    warnings.append("\(step.filter).\(entry.key) takes \"\(reference)\", which is not an earlier step")
                }
            }
            warnings += session.apply(rest)
            if let id = step.id { uidsByID[id] = chainStep.uid }
            made.append(chainStep)
        }
        if !made.isEmpty { replaceSteps(made) }
        return warnings
    }
}

/// The whole chain at one moment (undo of chain edits and of values in a chain): each step's session and its
/// values, bypass flag, id and links; the selected step. `label` says what the edit that followed it did.
public struct ChainSnapshot {
    public struct Step {
        let uid: Int
        let session: FilterSession
        let values: FilterSession.Snapshot
        let bypass: Bool
        let id: String?
        let links: [String: ChainLink]
    }
    var steps: [Step]
    var selected: Int
    var previewsSelectedStep: Bool
    var label: String
}
