import FilterEngine
import Foundation

/// A video as the explorer's source (`explore --video`): each frame the preview is ready for replaces the
/// source image (`SampleLibrary.replaceSource`), so whatever renders the filter gets the frame as its input.
extension Explorer {
    /// Until the first frame arrives the source is a mid-grey image of the video's size (inputs placed from
    /// the source's size, such as centres, are then right from the start).
    static func showFirstFrame(of video: VideoSource, in samples: SampleLibrary) {
        let extent = Rect(x: 0, y: 0, width: Double(video.format.width), height: Double(video.format.height))
        let grey = ColorKernel(name: "videoPlaceholder") { span in
            let p = span.out
            for i in 0..<span.count { p.r[i] = 0.2; p.g[i] = 0.2; p.b[i] = 0.2; p.a[i] = 1 }
        }.apply(extent: extent, inputs: [])
        samples.replaceSource(grey, label: videoLabel(video))
    }

    /// "video clip.y4m": the title's and the image choosers' name for the source (the title adds the format).
    static func videoLabel(_ video: VideoSource) -> String { "video \(video.name)" }

    /// Takes the newest frame of a playing video as the source, or the frame a seek asked for (paused too);
    /// false when there is none new.
    func takeVideoFrame() -> Bool {
        guard let video = playback.video else { return false }
        if let seek = playback.videoSeek {
            guard video.status.seeksDone >= seek.number else { return false }
        } else if playback.videoPaused {
            return false
        }
        guard let next = video.takeNewest() else { return false }
        playback.videoSeek = nil
        samples.replaceSource(video.decoder.image(next), label: Self.videoLabel(video))
        playback.videoFramesShown += 1
        playback.videoFrameIndex = next.index
        return true
    }

    /// `v`: pauses or resumes the video. Paused, the frame shown stays and is refined to full size.
    func toggleVideoPause() {
        guard let video = playback.video else {
            message = Message(text: "no video: v pauses the video of cifiltertest explore --video FILE.y4m", isError: false)
            return
        }
        playback.videoPaused.toggle()
        video.setPaused(playback.videoPaused)
        playback.meter.reset()
        // No message: the status line says paused or the frame rate.
    }

    /// How many frames one jump (`<` `>`) moves: this many seconds.
    static let videoJumpSeconds = 5.0

    /// `,` `.`: one frame back or forward, pausing a playing video first (a frame step is looked at, not played).
    /// `<` `>`: `videoJumpSeconds` back or forward, playing or paused. A file only: standard input cannot go back.
    func stepVideo(frames: Int, pausing: Bool) {
        guard let video = playback.video else {
            message = Message(text: "no video: , . step frames and < > jump in cifiltertest explore --video FILE.y4m", isError: false)
            return
        }
        guard video.canSeek else {
            message = Message(text: "standard input cannot be stepped or sought: play a file (explore --video FILE.y4m)", isError: false)
            return
        }
        if pausing, !playback.videoPaused {
            playback.videoPaused = true
            video.setPaused(true)
            playback.meter.reset()
        }
        let from = playback.videoSeek?.frame ?? playback.videoFrameIndex ?? 0
        let target = VideoSeek.target(from: from, by: frames, frameCount: video.status.frameCount)
        playback.videoSeek = (video.seek(toFrame: target), target)
    }

    /// `<` `>`: frames in a jump of `videoJumpSeconds`.
    func jumpVideo(forward: Bool) {
        let frames = Int((Self.videoJumpSeconds * (playback.video?.framesPerSecond ?? 25)).rounded())
        stepVideo(frames: forward ? frames : -frames, pausing: false)
    }

    /// For a video file: the `cifiltertest stream` command that runs the whole clip through the exported recipe
    /// (its -i replaces the recipe's input, the exported frame), writing `out.y4m` beside the export.
    func videoStreamCommand(recipe: String, output: String) -> String? {
        guard let video = playback.video, video.canSeek else { return nil }
        let clip = FilterSession.absolute(video.path)
        let streamed = ((output as NSString).deletingPathExtension as NSString).appendingPathExtension("y4m") ?? output + ".y4m"
        return ["cifiltertest", "stream", "--recipe", recipe, "-i", clip, "-o", streamed]
            .map(FilterSession.shellQuoted).joined(separator: " ")
    }

    /// "video 24.8 fps · frame 120 · 3 dropped", "video paused (v) …", "end of stream …" or the stream's error.
    func videoStatus(_ video: VideoSource) -> String {
        let status = video.status
        let frame = playback.videoFrameIndex.map {
            " · frame \($0 + 1)" + (video.canSeek ? String(format: " (%.2f s)", Double($0) / video.framesPerSecond) : "")
        } ?? " · waiting for the first frame"
        let dropped = " · \(status.dropped) dropped"
        if let error = status.error { return "video stopped: \(error)" }
        if status.ended {
            return "end of stream\(frame)\(dropped)"
        }
        if playback.videoPaused {
            // Standard input is still read while paused (a live source must not fall behind): its frames drop.
            return "video paused (v)\(frame)\(dropped)\(video.isLive ? " while the input goes on" : "")"
        }
        let loops = status.loops > 0 ? " · loop \(status.loops + 1)" : ""
        return "video \(playback.meter.fpsText)\(frame)\(dropped)\(loops)"
    }

    func videoShortStatus(_ video: VideoSource) -> String {
        let status = video.status
        if status.error != nil { return "video stopped (error)" }
        if status.ended { return "end of stream" }
        if playback.videoPaused { return "video paused (v)" }
        return "video \(playback.meter.fpsText) · \(status.dropped) dropped"
    }
}

/// Where a frame step or jump lands: never before the first frame, nor after the last once the count is known
/// (before that, the video source stops at the end itself).
enum VideoSeek {
    static func target(from current: Int, by frames: Int, frameCount: Int?) -> Int {
        var target = max(0, current + frames)
        if let frameCount, frameCount > 0 { target = min(target, frameCount - 1) }
        return target
    }
}
