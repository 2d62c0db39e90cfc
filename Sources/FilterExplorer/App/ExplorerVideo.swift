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

    /// Takes the newest frame of a playing video as the source; false when there is none new (or it is paused).
    func takeVideoFrame() -> Bool {
        guard let video = playback.video, !playback.videoPaused, let next = video.takeNewest() else { return false }
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

    /// "video 24.8 fps · frame 120 · 3 dropped", "video paused (v) …", "end of stream …" or the stream's error.
    func videoStatus(_ video: VideoSource) -> String {
        let status = video.status
        let frame = playback.videoFrameIndex.map { " · frame \($0 + 1)" } ?? " · waiting for the first frame"
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
