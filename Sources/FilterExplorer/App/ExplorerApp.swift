import FilterEngine
import FilterPipeline
import Foundation

public struct ExplorerOptions: Sendable {
    public var imagePath: String?
    /// Start on this filter instead of the last one.
    public var filterName: String?
    /// Where state is saved (nil: the XDG default).
    public var stateURL: URL?
    /// The colour depth to use instead of the one the terminal announces (`--colors`).
    public var colors: ColorMode?
    /// The graphics protocol to draw the preview with (`--graphics`); nil: as the terminal offers.
    public var graphics: GraphicsProtocol?
    /// A recipe to open (`--recipe`): every step as an editable step of the chain, the last one selected, on its
    /// input image unless `imagePath` names another.
    public var recipe: Recipe?
    /// A Y4M video to use as the source instead of an image (`--video`): a file, or "-" for standard input.
    public var videoPath: String?

    public init(imagePath: String? = nil, filterName: String? = nil, stateURL: URL? = nil, colors: ColorMode? = nil,
                graphics: GraphicsProtocol? = nil, recipe: Recipe? = nil, videoPath: String? = nil) {
        self.videoPath = videoPath
        self.graphics = graphics
        self.recipe = recipe
        self.imagePath = imagePath
        self.filterName = filterName
        self.stateURL = stateURL
        self.colors = colors
    }
}

/// The interactive explorer: owns the terminal, the filter tree, the sessions and the preview renderer.
/// Everything here runs on the interface thread; only `PreviewRenderer` and exports work elsewhere.
public final class Explorer {
    enum Pane { case filters, controls, chain }

    /// What keys currently do beyond the normal bindings.
    enum Mode {
        case normal
        /// Zoom and pan: arrows pan the preview, + - 1 0 zoom.
        case view
        /// The pixel inspector: a cursor on one pixel of the output, its values in the status line.
        case inspect
        case help
        /// The current filter's details (description, fidelity and its evidence) over the screen.
        case details
        case text(TextEntry)
        /// A widget's modal editor, on the current control (`InputWidget.editorKey`).
        case editor(WidgetEditor)

        var isNormal: Bool { if case .normal = self { true } else { false } }
        var isText: Bool { if case .text = self { true } else { false } }
    }

    struct TextEntry {
        enum Purpose {
            case value(key: String)
            case search(cursor: Int, filter: String?)
            case export
            /// Whether to replace the files an export to `path` would overwrite (n goes back to the name).
            case confirmExport(path: String)
            /// The name of a look to save (`S`), then whether to replace the look of that name.
            case saveLook
            case replaceLook(name: String)
            /// The animation of an input (`A`): FROM → TO over SECONDS s [linear|ease-in-out].
            case animation(key: String)
        }
        var purpose: Purpose
        var prompt: String
        var field: TextField
        /// The files Tab completes in a path prompt (nil: not a path prompt).
        var paths: PathCompletion.Kind? = nil
    }

    struct Message: Sendable {
        var text: String
        var isError: Bool
        /// Text to put on the terminal's clipboard when the message is shown (an export's command).
        var clipboard: String? = nil
        /// "no filter matches …": answered (cleared) by the next search that matches, unlike other messages.
        var isSearchMiss = false
    }

    let terminal: Terminal
    let samples: SampleLibrary
    let tree: FilterTree
    // Intermediates upstream of the input being edited (a clamped source, a blur's pyramid) are reused; not for
    // a video, whose frames are each rendered once (a cache would only hold on to old frames).
    let context: RenderContext
    let renderer: PreviewRenderer
    let stateURL: URL
    var state: ExplorerState

    var sessions: [String: FilterSession] = [:]
    var session: FilterSession? { didSet { chainSessionChanged() } }
    /// The steps edited (`App/ExplorerChain.swift`); `session` is the selected step's.
    let chain = Chain()
    var focus: Pane = .filters
    var mode: Mode = .normal
    var controlCursor = 0
    var controlScroll = 0
    var showOriginal = false
    /// The split before/after view: where its divider is, as a fraction of the preview's width (nil: not split).
    var split: Double?
    /// Set while the mouse drags the split view's divider.
    var draggingDivider = false
    /// How the preview is drawn: cells, or pixels through a graphics protocol.
    let graphics: GraphicsProtocol
    /// Whether the preview's pixel image must be written again (a new frame, a key, a resize).
    var imageDirty = true
    /// Where a pixel image is on the screen now, if one is.
    var imageCells: CellRect?
    /// The preview's zoom (fit, or a scale around a centre) and whether it fills the screen.
    var zoom = PreviewZoom.fit
    var fullScreen = false
    /// The full-size rectangle of the newest framed output (what zoom and pan move over).
    var framedRect: Rect?
    /// The output's own extent (full-size coordinates), shown in the title.
    var outputExtent: Rect?
    /// A reduction's values, computed when the details pane opens (`FilterSession.reductionValues`).
    var reductionValues: [String]?
    var frame: PreviewFrame?
    /// The geometry of the newest request (the marker follows it before its frame arrives).
    var requestedGeometry: PreviewGeometry?
    /// Why there is no preview (filter not implemented, empty output ...), shown in the preview area.
    var previewNote: String?
    var message: Message?
    var lastQuery = ""
    var needsRender = true
    var running = true
    /// A filter under the list's cursor, previewed in the selected step of a chain but not put there (Enter does).
    var browsePreview: FilterSession?
    /// Exports started and not yet reported as finished (`q` waits for them).
    var exports: [ExportJob] = []
    /// `q` was pressed while an export ran: the explorer quits when the exports end.
    var quitRequested = false
    /// Exports that were running when `q` was pressed and failed or were abandoned: reported after the terminal
    /// is restored, and the exit status says so.
    var exportFailures: [String] = []
    /// Whether the saved chain was left as it was (a run with --filter or --recipe): saved again unless this
    /// run made a chain of its own.
    var keepsSavedChain = false
    /// Set while the mouse drags a slider knob (the control's index).
    var draggingSlider: Int?
    /// The slider a burst of wheel notches is stepping (one undo step for the burst; `endWheelBurst`).
    var wheelBurstRow: Int?
    /// Undo histories, A/B sets and the edit in progress (`App/ExplorerEditing.swift`).
    var editing = EditingState()
    /// Set while the mouse drags a point or rectangle input on the preview.
    var previewDrag: PreviewDrag?
    /// The pixel inspector's cursor and reading (kept after it closes, so `p` returns to the same pixel).
    var inspector: PixelInspector?
    /// The colour input the inspector is picking a colour for (the eyedropper, `I`), while it does.
    var colorPick: String?
    let probe = PixelProbe()
    /// The newest pixel read asked for (older answers are ignored).
    var probeGeneration = 0
    /// The first help row shown (the help scrolls when it does not fit).
    var helpScroll = 0
    /// What plays: an input's animation (`a`, `A`), a video source, and their frame rate (`App/ExplorerAnimation.swift`).
    var playback = PlaybackState()
    var lastSubmitted = 0
    var submittedAt: UInt64 = 0
    let mailbox = Mailbox()
    /// Truecolor and 256-colour preview cells, written as escape sequences after ncurses' refresh.
    lazy var directWriter = DirectCellWriter(mode: terminal.colorMode)
    /// The preview cells of the frame being drawn when they are written directly, and where.
    var directPreview: (cells: PreviewCells, origin: CellRect)?

    init(options: ExplorerOptions, samples: SampleLibrary, terminal: Terminal, video: VideoSource? = nil) {
        self.samples = samples
        context = RenderContext(options: .init(cacheBytes: video == nil ? 256 << 20 : 0))
        playback.video = video
        self.terminal = terminal
        tree = FilterTree(list: .shared)
        tree.looks = Looks.list()
        stateURL = options.stateURL ?? ExplorerState.defaultURL()
        let loaded = ExplorerState.load(from: stateURL)
        state = loaded.state
        graphics = options.graphics ?? GraphicsProtocol.detect(environment: ProcessInfo.processInfo.environment)
        renderer = PreviewRenderer(context: context, mode: terminal.colorMode, unicode: terminal.unicode, graphics: graphics)
        var warnings = [terminal.termWarning, loaded.warning].compactMap { $0 } + samples.warnings
        // A session that died (a crash, or stuck and killed) on a filter may have died of its saved values:
        // start that filter from its defaults rather than dying again on every launch.
        let diedOn = ExplorerState.unfinishedSession(at: stateURL)
        if let filter = diedOn, state.values[filter] != nil || state.chain?.steps.contains(where: { $0.filter == filter && !$0.values.isEmpty }) == true {
            state.values[filter] = nil
            warnings.append("the last session ended abruptly on \(filter): its saved values were not restored")
        }
        if !warnings.isEmpty { message = Message(text: warnings.joined(separator: "; "), isError: true) }
        let last = options.recipe?.steps.last
        let start = [last?.filter, options.filterName, state.lastFilter, ExplorerHints.firstFilter].compactMap { $0 }
            .first { tree.list.record(named: $0) != nil } ?? tree.list.uniqueFilterNames.first
        if let start {
            tree.reveal(filterNamed: start)
            select(filterNamed: start)
        }
        if let recipe = options.recipe { openRecipeChain(recipe) }
        // The chain of the last session comes back on a plain start; --filter and --recipe open what they name
        // and leave the saved chain for the next plain start.
        if let saved = state.chain, !saved.steps.isEmpty {
            if options.recipe == nil, options.filterName == nil {
                let problems = restoreChain(saved, withoutValues: diedOn)
                if !problems.isEmpty {
                    let text = "saved chain: " + problems.joined(separator: "; ")
                    message = Message(text: [message?.text, text].compactMap { $0 }.joined(separator: "; "), isError: true)
                }
            } else {
                keepsSavedChain = saved.steps.count > 1
            }
        }
    }

    /// Opens the explorer and runs it until the person quits or a signal arrives. The terminal is restored on
    /// every exit path (errors, signals; crash signals are handled in the C shim). Returns the signal that
    /// ended it (SIGINT, SIGTERM, SIGHUP), or 0 after `q`.
    public static func run(_ options: ExplorerOptions) throws -> Int32 {
        // Read the images before touching the terminal, so a missing file is a plain error message.
        let samples = try SampleLibrary(imagePath: options.imagePath ?? options.recipe?.input)
        // A video's header too: a stream that is not Y4M is refused before the terminal changes.
        let video = try options.videoPath.map { try VideoSource(path: $0) }
        if let video { showFirstFrame(of: video, in: samples) }
        let terminal = try Terminal(forcedColors: options.colors)
        var failures: [String] = []
        do {
            defer { terminal.stop() }
            let explorer = Explorer(options: options, samples: samples, terminal: terminal, video: video)
            defer { explorer.renderer.stop() }
            video?.start()
            defer { video?.stop() }
            explorer.loop()
            explorer.saveState()
            failures = explorer.exportFailures
        }
        // After the terminal is back: a stream that went bad while it played, in one line.
        if let error = video?.status.error { throw FilterError(error) }
        if !failures.isEmpty, terminal.pendingSignal == 0 { throw ExportsLost(failures: failures) }
        return terminal.pendingSignal
    }

    func loop() {
        var dirty = true
        var shownRenderingTenths: Int?
        var shownExportStatus: String?
        var idlePolls = 0
        while running {
            if terminal.pendingSignal != 0 { break }
            if let finished = renderer.takeFrame() {
                frame = finished
                countShownFrame()
                imageDirty = true
                if let error = finished.error { message = Message(text: "render failed: \(error)", isError: true) }
                dirty = true
            }
            if takeProbeResult() { dirty = true }
            // A large JPEG's full-size decode replaces the reduced one it opened on.
            if samples.takeFullSource() {
                needsRender = true
                if let error = samples.fullDecodeError { message = Message(text: "full-size decode failed: \(error)", isError: true) }
            }
            // Ctrl-Z (SIGTSTP): leave curses, stop; SIGCONT (fg): back in, everything repainted.
            if terminal.suspendRequested {
                terminal.suspend()
                dirty = true
            }
            if terminal.takeResumed() {
                terminal.resume()
                imageCells = nil
                imageDirty = true
                needsRender = true
                dirty = true
            }
            for posted in mailbox.take() {
                message = posted
                if let text = posted.clipboard { copyToClipboard(text) }
                dirty = true
            }
            if takeFinishedExports() { dirty = true }
            if !running { break }
            advancePlayback()
            if needsRender { submitPreview() }
            // While a preview is awaited, polled often enough that its frame shows within a few ms of being
            // finished (the renderer cannot wake ncurses' wait).
            terminal.setInputTimeout(milliseconds: isPlaying ? 8 : renderingFor != nil ? 4 : 30)
            // The busy indicator counts tenths of a second while a render is in flight.
            let tenths = renderingFor.map { Int($0 * 10) }
            if tenths != shownRenderingTenths {
                shownRenderingTenths = tenths
                dirty = true
            }
            let exporting = exportStatus
            if exporting != shownExportStatus {
                shownExportStatus = exporting
                dirty = true
            }
            if dirty {
                draw()
                dirty = false
            }
            guard let event = terminal.readEvent() else {
                // A hung-up terminal (window closed without SIGHUP reaching us) reads nothing forever: leave.
                idlePolls += 1
                if idlePolls % 64 == 0, !terminal.isAttached { running = false }
                continue
            }
            // Every key already typed is handled before the next frame is drawn or submitted: while frames follow
            // each other (an animation, a video) keys would otherwise wait a frame each, and typed text would
            // echo a few characters a second.
            var pending: InputEvent? = event
            while let event = pending, running {
                // A pixel image is written again only when ncurses may have drawn over it: an overlay opened or
                // closed, a repaint (Ctrl-L, resize). New frames set it too. (Not on every key: over ssh a sixel
                // image is hundreds of kilobytes.)
                let overlayBefore = coversPreview
                withAnimationSettled { handle(event) }
                if coversPreview != overlayBefore || event == .key(.ctrl("l")) || event == .resize { imageDirty = true }
                if event == .resize { directWriter.forget() }
                // Keys typed after a quit belong to the shell.
                pending = running ? terminal.readEvent(waiting: false) : nil
            }
            dirty = true
            renderer.noteInput()
        }
        // The state is saved with the animated input's value from before the animation.
        stopAnimation(restoring: true)
    }

    /// Whether an overlay (help, details) covers the preview.
    var coversPreview: Bool {
        switch mode {
        case .help, .details: true
        case .editor: currentControl?.widget.editorCoversPreview ?? false
        default: false
        }
    }

    // MARK: Filters and values

    var layout: ExplorerLayout {
        ExplorerLayout(columns: terminal.cols, rows: terminal.rows, controlCount: session?.controls.count ?? 0,
                       fullScreen: fullScreen, chainRows: chainStripRows)
    }

    func select(filterNamed name: String) {
        guard session?.name != name, let record = tree.list.record(named: name) else { return }
        closeEditor(keeping: true)
        if let existing = sessions[name], !chainHoldsElsewhere(existing) {
            show(existing)
            return
        } else {
            do {
                let made = try FilterSession(descriptor: record.descriptor, samples: samples)
                if let saved = state.values[name] {
                    let warnings = made.restore(saved)
                    if !warnings.isEmpty {
                        // After any warning from the start (an unreadable state, a session that died).
                        let text = "saved values ignored: " + warnings.joined(separator: "; ")
                        message = Message(text: [message?.text, text].compactMap { $0 }.joined(separator: "; "), isError: true)
                    }
                }
                // Another step of the chain may hold the list's own session for this filter: this one is the step's.
                if sessions[name] == nil || !chainHoldsElsewhere(sessions[name]!) { sessions[name] = made }
                show(made)
            } catch {
                message = Message(text: "\(error)", isError: true)
                session = nil
                needsRender = true
            }
        }
    }

    /// Makes `shown` the session edited (the selected step's), from its first input.
    func show(_ shown: FilterSession) {
        session = shown
        controlCursor = 0
        controlScroll = 0
        stopAnimation(restoring: true)
        state.lastFilter = shown.name
        ExplorerState.markSession(at: stateURL, filter: shown.name)
        needsRender = true
    }

    var currentControl: InputControl? {
        guard let session, session.controls.indices.contains(controlCursor) else { return nil }
        return session.controls[controlCursor]
    }

    /// Sets a value as an undoable edit, reporting a refused one in the status line.
    func apply(_ value: FilterValue, to key: String) {
        guard let session else { return }
        edit { try session.set(value, forKey: key) }
    }

    func saveState() {
        for (name, session) in sessions {
            let values = session.persistedValues()
            state.values[name] = values.isEmpty ? nil : values
        }
        if !(keepsSavedChain && chain.count <= 1) { state.chain = chain.count > 0 ? savedChain() : nil }
        do {
            try state.save(to: stateURL)
            ExplorerState.markSession(at: stateURL, filter: nil)
        } catch {
            FileHandle.standardError.write(Data("cifiltertest: could not save \(stateURL.path): \(error)\n".utf8))
        }
    }

    // MARK: Preview

    /// The preview area minus nothing: the whole region right of the tree above the controls.
    func submitPreview() {
        needsRender = false
        // The inspected pixel follows every change of the output (and says so when there is none).
        defer { probeInspector() }
        previewNote = nil
        let layout = layout
        guard !layout.isTooSmall, let session else { return }
        // Large photos preview from a proxy about the preview's size, then refine at full size in the background.
        let fitFactor = samples.proxyFactor(forPreview: PreviewGeometry(imageRect: samples.sourceRect, area: layout.preview,
                                                                        maximumCells: terminal.maximumPreviewCells).pixelSize)
        // Zoomed in, the proxy is as fine as the zoom needs (full size from 1:1 on, where only the visible
        // region is rendered); never coarser than the fitted view's.
        let proxyFactor = zoom.proxyFactor.map { min($0, fitFactor) } ?? fitFactor
        var framing: PreviewPlanner.Framing
        var refinement: Image?
        // The full-size framing's rectangles when a proxy is shown: a proxy's, scaled back, is rounded up to a
        // multiple of its factor (6006×4004 for a 6000×4000 photo at ÷7).
        var fullSize: PreviewPlanner.Framing?
        if showOriginal || showsSourceForRectangle {
            framing = PreviewPlanner.Framing(image: samples.source, rect: samples.sourceRect)
        } else {
            let shown = browsePreview ?? session
            if let reason = shown.descriptor.unavailableReason {
                previewNote = "\(shown.name) is not available here: it \(reason)"
            } else if !shown.isImplemented {
                previewNote = "\(shown.name) is not implemented yet"
            }
            if previewNote != nil {
                frame = nil
                imageDirty = true
                requestedGeometry = nil
                return
            }
            do {
                framing = try chainFramedOutput(proxyFactor: proxyFactor)
                if framing.proxyFactor > 1 {
                    fullSize = try chainFramedOutput()
                    // From a large JPEG's reduced decode, the refinement waits for the full decode (a new request).
                    refinement = samples.isSourceReduced ? nil : fullSize?.image
                }
            } catch {
                // The error in place of the picture: an older frame would show another filter's output.
                message = Message(text: "\(error)", isError: true)
                previewNote = "no picture: \(error)"
                frame = nil
                outputExtent = nil
                imageDirty = true
                requestedGeometry = nil
                return
            }
        }
        guard !framing.rect.isEmpty, !framing.rect.isInfinite else {
            previewNote = "the output is empty"
            frame = nil
            imageDirty = true
            requestedGeometry = nil
            return
        }
        framedRect = fullSize?.fullSizeRect ?? framing.fullSizeRect
        outputExtent = fullSize?.fullSizeOutputExtent ?? framing.fullSizeOutputExtent
        // Infinite because of the preview's clamp: the header gives the filter's own extent.
        if !showOriginal, !showsSourceForRectangle, outputExtent?.isInfinite == true, let own = try? unclampedOutputExtent() {
            outputExtent = own
        }
        let visible = zoom.visibleRect(of: framedRect!, area: layout.preview)
        let geometry = PreviewGeometry(imageRect: visible, area: layout.preview,
                                       maximumCells: terminal.maximumPreviewCells, scale: zoom.scale)
        requestedGeometry = geometry
        var request = PreviewRequest(image: framing.image, geometry: geometry, proxyFactor: framing.proxyFactor,
                                     refinement: refinement)
        if let split, !showOriginal {
            do {
                let before = framing.proxyFactor > 1
                    ? try samples.proxy(.source, factor: framing.proxyFactor, context: context) : samples.source
                request.split = SplitPreview(before: before, beforeRefinement: refinement == nil ? nil : samples.source,
                                             fraction: split)
            } catch {
                message = Message(text: "split view: \(error)", isError: true)
            }
        }
        request.scalesToPreviewSize = playback.video != nil
        lastSubmitted = renderer.submit(request)
        submittedAt = DispatchTime.now().uptimeNanoseconds
    }

    /// Whether the preview shows the source because a rectangle is edited whose place the output does not show
    /// (`ExplorerHints.editsRectangleOnSource`).
    var showsSourceForRectangle: Bool {
        guard let editor, let control = currentControl, editor.key == control.input.key, case .rectangle = control.kind,
              let session, browsePreview == nil else { return false }
        return ExplorerHints.editsRectangleOnSource(session.descriptor)
    }

    /// Seconds since the newest preview request, while its frame has not arrived (nil when none is in flight).
    var renderingFor: Double? {
        guard (frame?.generation ?? 0) < lastSubmitted, previewNote == nil else { return nil }
        return Double(DispatchTime.now().uptimeNanoseconds - submittedAt) / 1e9
    }

    /// The geometry the marker and mouse use: the newest requested one.
    var geometry: PreviewGeometry? { requestedGeometry ?? frame?.geometry }

    // MARK: Export

    /// Writes the output at full resolution with its recipe beside it (`out.png` → `out.json`) and the files the
    /// recipe names (generated masks, gradients, looks), then shows the `render` command that makes the same bytes
    /// and copies it to the clipboard. The image is rendered from the recipe, read back as `render --recipe` reads
    /// it, so the file, the recipe and the command cannot disagree.
    func export(to typed: String, replacing: Bool = false) {
        guard session != nil else { return }
        let path = FilterSession.absolute(typed)
        guard ImageFile.Format(path: path) != nil else {
            message = Message(text: "export failed: \(path): the name must end in .png, .jpg or .jpeg", isError: true)
            return
        }
        // Files of an earlier export are replaced only when asked: its image, and its recipe (x.json is also
        // the recipe of x.png when x.jpg is exported) and side files.
        let existing = exportFilesExisting(output: path)
        if !replacing, !existing.isEmpty {
            let names = existing.map { ($0 as NSString).lastPathComponent }
            mode = .text(TextEntry(purpose: .confirmExport(path: typed),
                                   prompt: "\(names.joined(separator: ", ")) exist\(names.count == 1 ? "s" : ""): replace? (y/n) ",
                                   field: TextField()))
            return
        }
        state.lastExportFolder = (path as NSString).deletingLastPathComponent
        let framing: PreviewPlanner.Framing
        do { framing = try chainFramedOutput(forExport: true) } catch {
            message = Message(text: "export failed: \(error)", isError: true)
            return
        }
        let files = chainExportFiles(output: path)
        guard let recipe = chainRecipe(output: path, crop: framing.rect, allValues: true) else { return }
        let recipePath = FilterSession.recipePath(output: path)
        // While an input is animated, the `animate` command that plays it (the still is written as always).
        let command = animationCommand(output: path, crop: framing.rect) ?? videoStreamCommand(recipe: recipePath, output: path)
            ?? chainRenderCommand(output: path, crop: framing.rect)
        let context = context
        let mailbox = mailbox
        let job = ExportJob(path: path)
        exports.append(job)
        message = Message(text: "exporting \(path)…" + (browsePreview.map { " (the chain as it is: the previewed \($0.name) is not in it)" } ?? ""),
                          isError: false)
        // Full resolution can take a while: written off the interface thread, reported through the mailbox.
        DispatchQueue.global().async {
            do {
                for file in files { try file.write(context: context) }
                try RegularFile.writeAtomically(Data(recipe.json.utf8), to: recipePath)
                let source = try recipe.input.map { try ImageFile.load($0).image }
                let image = try recipe.makeImage(input: source)
                let rect = try Recipe.outputRect(crop: recipe.crop, image: image, input: source)
                try ImageFile.write(image, to: path, rect: rect, context: context, cancellation: job.cancellation)
                let size = "\(Int(rect.width))×\(Int(rect.height))"
                job.finish(error: nil)
                mailbox.post(Message(text: "wrote \(path) (\(size)) and \((recipePath as NSString).lastPathComponent) · sent to the clipboard: \(command)",
                                     isError: false, clipboard: command))
            } catch {
                let reason = job.cancellation.isCancelled ? "abandoned (q pressed again)" : "\(error)"
                job.finish(error: reason)
                mailbox.post(Message(text: "export of \(path) failed: \(reason)", isError: true))
            }
        }
    }

    /// The files an export to `output` writes that are there already.
    func exportFilesExisting(output: String) -> [String] {
        let paths = [output, FilterSession.recipePath(output: output)] + chainExportFiles(output: output).map(\.path)
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted && FileManager.default.fileExists(atPath: $0) }
    }

    /// The name `e` offers: the filter's (or the chain's last step's) in the folder of the last export, or the
    /// working directory the first time (or when that folder is gone).
    func defaultExportPath(name: String) -> String {
        var isDirectory: ObjCBool = false
        let folder = state.lastExportFolder.flatMap {
            FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue ? $0 : nil
        } ?? FileManager.default.currentDirectoryPath
        let base = (folder as NSString).appendingPathComponent("\(name)-export")
        // Not an earlier export's name: the first free one (-2, -3 ...), so a second e does not offer to replace.
        var candidate = base + ".png", n = 2
        while !exportFilesExisting(output: candidate).isEmpty, n < 1000 {
            candidate = "\(base)-\(n).png"
            n += 1
        }
        return candidate
    }

    /// The exports still running.
    var runningExports: [ExportJob] { exports.filter { !$0.isFinished } }

    /// "exporting out.png… 42% · 3 s" while exports run (the first one's progress); nil when none does.
    var exportStatus: String? {
        let running = runningExports
        guard let job = running.first else { return nil }
        let name = (job.path as NSString).lastPathComponent
        let fraction = job.cancellation.fractionDone
        let seconds = Int(Double(DispatchTime.now().uptimeNanoseconds - job.startedAt) / 1e9)
        var text = fraction < 1 ? "exporting \(name)… \(Int(fraction * 100))% · \(seconds) s"
            : "exporting \(name)… 100% rendered, encoding · \(seconds) s"
        if running.count > 1 { text += " (and \(running.count - 1) more)" }
        if quitRequested { text += " · quits when done (q again abandons it)" }
        return text
    }

    /// Forgets finished exports (their outcome came through the mailbox); while quitting, keeps the failures
    /// and stops the loop when none runs any more. Returns whether something changed.
    func takeFinishedExports() -> Bool {
        let finished = exports.filter(\.isFinished)
        guard !finished.isEmpty || (quitRequested && exports.isEmpty) else { return false }
        if quitRequested { exportFailures += finished.compactMap { job in job.error.map { "export of \(job.path) failed: \($0)" } } }
        exports.removeAll { $0.isFinished }
        if quitRequested && exports.isEmpty { running = false }
        return true
    }

    /// `q`: quits, after the running exports end (a second `q` abandons them; Esc stays).
    func requestQuit() {
        let running = runningExports
        guard !running.isEmpty else {
            self.running = false
            return
        }
        if quitRequested {
            for job in running { job.cancellation.cancel() }
            exportFailures += running.map { "export of \($0.path) abandoned (q pressed twice): the image was not written" }
            exports.removeAll()
            self.running = false
            return
        }
        quitRequested = true
        message = Message(text: "finishing the export before quitting (q again abandons it, Esc stays)", isError: false)
    }

    /// Puts `text` on the clipboard of the terminal the person sees (OSC 52, which also works over ssh), written
    /// between ncurses' updates. Inside tmux the sequence goes twice: plainly, which tmux takes into a paste
    /// buffer and passes on to its own terminal when `set-clipboard` is on, and wrapped for `allow-passthrough`,
    /// which reaches the outer terminal directly. A terminal or tmux that allows neither ignores both.
    func copyToClipboard(_ text: String) {
        terminal.writeRaw(Clipboard.sequences(for: text, environment: ProcessInfo.processInfo.environment))
    }
}

/// OSC 52 clipboard sequences.
public enum Clipboard {
    public static func sequences(for text: String, environment: [String: String]) -> String {
        let osc = "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
        let term = environment["TERM"] ?? ""
        guard environment["TMUX"] != nil || term.hasPrefix("tmux") else { return osc }
        // tmux's passthrough: DCS tmux; with every ESC inside doubled, ended by ST.
        return osc + "\u{1B}Ptmux;" + osc.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
    }
}

/// Messages from background work to the interface thread.
final class Mailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [Explorer.Message] = []

    func post(_ message: Explorer.Message) {
        lock.lock()
        messages.append(message)
        lock.unlock()
    }

    func take() -> [Explorer.Message] {
        lock.lock()
        defer { lock.unlock() }
        let taken = messages
        messages = []
        return taken
    }
}

/// An export running off the interface thread: its file, its progress and how it ended.
final class ExportJob: @unchecked Sendable {
    let path: String
    let cancellation = RenderCancellation()
    let startedAt = DispatchTime.now().uptimeNanoseconds
    private let lock = NSLock()
    private var finished = false
    private var failure: String?

    init(path: String) { self.path = path }

    func finish(error: String?) {
        lock.lock()
        (finished, failure) = (true, error)
        lock.unlock()
    }

    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    /// Why it failed (nil: it did not, or is not finished).
    var error: String? {
        lock.lock()
        defer { lock.unlock() }
        return failure
    }
}

/// Exports that were running when the explorer was asked to quit and did not write their image.
public struct ExportsLost: Error, CustomStringConvertible {
    public let failures: [String]
    public var description: String { failures.joined(separator: "; ") }
}
