import FilterEngine
import Foundation

/// What plays in the explorer: an input's live animation (`a`, `A`), a video source (`explore --video`, `v`),
/// and the frame rate the preview reaches while either plays.
struct PlaybackState {
    var animation: RunningAnimation?
    var video: VideoSource?
    /// Whether the person paused the video (`v`).
    var videoPaused = false
    /// Frames shown, for the frame rate.
    var meter = FrameRateMeter()
    /// Video frames shown so far, and the stream's last shown frame number.
    var videoFramesShown = 0
    var videoFrameIndex: Int?
    /// A seek asked of the video (`VideoSource.seek`'s number, and the frame asked for) not shown yet: the
    /// next step or jump goes on from its frame, so keys pressed faster than frames arrive add up.
    var videoSeek: (number: Int, frame: Int)?
    /// Whether the stream's error was shown as a message (once; the status line keeps saying it).
    var videoErrorShown = false
}

/// An animation in progress on one filter's input: the value to put back when it stops, and its clock.
struct RunningAnimation {
    var animation: LiveAnimation
    /// The animated step's session (a chain may hold the same filter twice, each step with its own).
    let session: FilterSession
    var filter: String { session.name }
    /// The input's value before the animation (restored by `a`, and between events: see `withAnimationSettled`).
    let base: FilterValue
    /// Whether the input counted as edited before (the animation's own changes do not make it so).
    let wasEdited: Bool
    /// When the loop's progress was 0 (uptime nanoseconds).
    let started: UInt64
    /// Set once per start, so a new animation started by a key is told from the one before.
    let serial: Int

    func elapsed(now: UInt64) -> Double { Double(now &- started) / 1e9 }
    func value(now: UInt64) -> FilterValue { animation.value(atProgress: animation.progress(elapsed: elapsed(now: now))) }
}

/// Frames per second over the last two seconds of frames.
struct FrameRateMeter {
    private(set) var times: [UInt64] = []
    static let window: UInt64 = 2_000_000_000

    mutating func tick(at now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        times.append(now)
        times.removeAll { now &- $0 > Self.window }
    }

    mutating func reset() { times = [] }

    /// Nil until two frames arrived; 0 when none arrived for a whole window.
    func fps(at now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Double? {
        guard let first = times.first, let last = times.last, times.count >= 2 else { return nil }
        if now &- last > Self.window { return 0 }
        return Double(times.count - 1) / (Double(last &- first) / 1e9)
    }

    var fpsText: String { fps().map { String(format: "%.1f fps", $0) } ?? "… fps" }
}

extension Explorer {
    nonisolated(unsafe) private static var nextSerial = 0  // the interface thread's only

    // MARK: Keys

    /// The input `a` and `A` act on: the selected input when the inputs have the focus and it can move; else the
    /// filter's time input (transitions), as CIFilterTest's play button.
    var animationTarget: InputControl? {
        guard let session else { return nil }
        if focus == .controls, let control = currentControl, canAnimate(control) { return control }
        return session.controls.first { $0.input.type == .time }
    }

    func canAnimate(_ control: InputControl) -> Bool {
        switch control.kind {
        case .readOnly, .toggle, .choice, .text, .image, .colorCube, .colorCurves, .colorSpace: return false
        default: return session?.value(forKey: control.input.key).flatMap(LiveAnimation.components) != nil
        }
    }

    /// `a`: stops the animation (the input goes back to its value from before), or starts one on the selected
    /// input from its value to a sensible other end (`LiveAnimation.defaultAnimation`); a time input goes 0→1.
    func toggleAnimation() {
        if let running = playback.animation {
            stopAnimation(restoring: true)
            message = Message(text: "animation stopped: \(running.animation.key) is back to "
                + ValueParser.format(running.base) + " (A types another)", isError: false)
            return
        }
        guard let session, let control = animationTarget else {
            message = Message(text: "nothing to animate here: select a number, point, colour or vector input (Tab, ↑ ↓) and press a",
                              isError: false)
            return
        }
        guard let animation = defaultAnimation(for: control) else {
            message = Message(text: "\(control.input.key) cannot be animated", isError: false)
            return
        }
        var offset = 0.0
        if control.input.type == .time, case .number(let n)? = session.value(forKey: control.input.key) {
            // A transition continues from where its time is (0.5 at the start), as the play button did.
            offset = animation.elapsed(atValue: n)
        }
        startAnimation(animation, offset: offset)
    }

    private func defaultAnimation(for control: InputControl) -> LiveAnimation? {
        guard let session, let current = session.value(forKey: control.input.key) else { return nil }
        if control.input.type == .time {
            return LiveAnimation(key: control.input.key, from: .number(control.input.minimum ?? 0),
                                 to: .number(control.input.maximum ?? 1))
        }
        return LiveAnimation.defaultAnimation(for: control.input, kind: control.kind, current: current, source: samples.sourceRect)
    }

    /// `A`: a prompt for the animation of the selected input, filled with the one playing or the one `a` would start.
    func beginAnimationPrompt() {
        guard let session, let control = animationTarget else {
            message = Message(text: "nothing to animate here: select a number, point, colour or vector input (Tab, ↑ ↓) and press A",
                              isError: false)
            return
        }
        let key = control.input.key
        let playing = playback.animation.flatMap { $0.animation.key == key && $0.session === session ? $0.animation : nil }
        let text = (playing ?? defaultAnimation(for: control))?.promptText ?? ""
        mode = .text(TextEntry(purpose: .animation(key: key), prompt: "animate \(key): ", field: TextField(text)))
    }

    /// The prompt's text, read for its input: refused text throws with the reason (the prompt stays open).
    func submitAnimationPrompt(_ text: String, key: String) throws {
        guard let session, let control = session.controls.first(where: { $0.input.key == key }) else { return }
        // The value before any animation: the one playing is stopped (and its input put back) first.
        let current = playback.animation.flatMap { $0.session === session && $0.animation.key == key ? $0.base : nil }
            ?? session.value(forKey: key)
        guard let current else { throw FilterExplorerError("\(key) has no value to animate from") }
        let animation = try LiveAnimation.parse(text, input: control.input, current: current)
        stopAnimation(restoring: true)
        startAnimation(animation, offset: 0)
    }

    func startAnimation(_ animation: LiveAnimation, offset: Double) {
        guard let session, let base = session.value(forKey: animation.key) else { return }
        Self.nextSerial += 1
        let now = DispatchTime.now().uptimeNanoseconds
        playback.animation = RunningAnimation(animation: animation, session: session, base: base,
                                              wasEdited: session.edited.contains(animation.key),
                                              started: now &- UInt64(max(0, offset) * 1e9), serial: Self.nextSerial)
        playback.meter.reset()
        // No message: the status line says what is animating and the frame rate reached.
        message = nil
        applyAnimationFrame()
    }

    /// Ends the animation; with `restoring`, its input gets its value from before back (not an edit: no undo step).
    func stopAnimation(restoring: Bool) {
        guard let running = playback.animation else { return }
        playback.animation = nil
        if restoring { putBack(running) }
        needsRender = true
    }

    /// The animated input's value from before, and whether it counted as edited.
    private func putBack(_ running: RunningAnimation) {
        let session = running.session
        var snapshot = session.snapshot()
        snapshot.values[running.animation.key] = running.base
        if !running.wasEdited { snapshot.edited.remove(running.animation.key) }
        session.restore(snapshot)
    }

    /// Sets the animated input to where the clock says (not an edit: no undo step per frame).
    private func applyAnimationFrame() {
        guard let running = playback.animation, let session, session === running.session else { return }
        try? session.set(running.value(now: DispatchTime.now().uptimeNanoseconds), forKey: running.animation.key)
        needsRender = true
    }

    /// Runs a key or mouse event with the animated input at its value from before, so that every edit, undo
    /// step, A/B set, export and saved state sees that value rather than a passing frame. Afterwards the
    /// animation goes on, unless the event changed the animated input itself (typed, stepped, reset, undone):
    /// the person took it over, and the animation stops there keeping the new value.
    func withAnimationSettled(_ body: () -> Void) {
        guard let before = playback.animation else { return body() }
        putBack(before)
        body()
        guard let after = playback.animation else { return }
        if after.serial != before.serial {
            applyAnimationFrame()
            return
        }
        guard running, let session, session === after.session else {
            // Another filter: this one keeps its value from before.
            playback.animation = nil
            return
        }
        if let value = session.value(forKey: after.animation.key), FilterSession.Snapshot.same(value, after.base) {
            applyAnimationFrame()
        } else {
            playback.animation = nil
            message = Message(text: "animation stopped: \(after.animation.key) was changed", isError: false)
        }
    }

    /// The next frame of what plays: a new video frame and the animation's value at this moment, once the
    /// previous frame is shown, so frames go to the preview as fast as it renders them and a slow filter skips
    /// values (the progress follows the clock) rather than slowing the animation down.
    func advancePlayback() {
        let idle = (frame?.generation ?? 0) >= lastSubmitted
        if let error = playback.video?.status.error, !playback.videoErrorShown {
            playback.videoErrorShown = true
            message = Message(text: "video stopped: \(error)", isError: true)
        }
        guard idle else { return }
        if takeVideoFrame() { needsRender = true }
        if playback.animation != nil { applyAnimationFrame() }
    }

    /// Notes a finished preview frame for the frame rate.
    func countShownFrame() {
        if playback.animation != nil || (playback.video != nil && !playback.videoPaused) { playback.meter.tick() }
    }

    /// The status line's part for what plays (priority 0, as the value shown: after the filter's name, so that
    /// the input's value, cuttable, gives way first).
    func playbackStatusParts() -> [StatusLine.Part] {
        var parts: [StatusLine.Part] = []
        if let video = playback.video {
            parts.append(.init(text: videoStatus(video), short: videoShortStatus(video), priority: 0))
        }
        if let running = playback.animation {
            let fps = playback.video == nil ? " · " + playback.meter.fpsText : ""
            parts.append(.init(text: "animating \(running.animation.summary)\(fps)",
                               short: "animating \(running.animation.key)\(fps)", priority: 0))
        }
        return parts
    }

    /// Whether frames follow each other (the busy mark then shows only for a slow frame).
    var isPlaying: Bool { playback.animation != nil || (playback.video != nil && !playback.videoPaused && !(playback.video?.status.ended ?? true)) }

    // MARK: Export

    /// While an input is animated: the `cifiltertest animate` command that plays the same animation into a
    /// looping GIF beside the export (`out.png` → `out.gif`): the render command's chain with `--animate`,
    /// `--frames` (one pass at 25 fps), `--fps` and `--ease`.
    func animationCommand(output: String, crop: Rect) -> String? {
        guard let running = playback.animation, let session, session === running.session else { return nil }
        // The step by filter name, or by its number in the written recipe when the filter is there more than once.
        guard chain.count > 0 else {
            return running.animation.animateArguments(render: session.renderArguments(output: output, crop: crop), step: session.name)?
                .map(FilterSession.shellQuoted).joined(separator: " ")
        }
        let written = chain.writtenRecipe(output: output, crop: crop, samples: samples)
        let steps = written.recipe.steps
        let position = written.positions.indices.contains(chain.selected) ? written.positions[chain.selected] : steps.count
        let step = steps.filter { $0.filter == session.name }.count > 1 ? String(position) : session.name
        let render = chain.renderArguments(output: output, crop: crop, samples: samples)
        return running.animation.animateArguments(render: render, step: step)?
            .map(FilterSession.shellQuoted).joined(separator: " ")
    }
}
