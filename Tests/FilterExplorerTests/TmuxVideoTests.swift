import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Video as the explorer's source (`explore --video`) and the live animation of inputs (`a`, `A`), driven end to
/// end in tmux (see `Tmux`): frames advance and are counted, the filter applies to them, `v` pauses, standard
/// input carries the video while the keys still work, and an animated slider moves and comes back.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: the end-to-end explorer tests need it"))
struct TmuxVideoTests {
    /// A 4:2:0 Y4M stream whose every frame is one flat colour that changes with the frame's number.
    static func writeClip(_ path: String, width: Int = 160, height: Int = 120, frames: Int = 80, rate: String = "10:1") throws {
        var data = Data("YUV4MPEG2 W\(width) H\(height) F\(rate) Ip A1:1 C420jpeg\n".utf8)
        let chroma = ((width + 1) / 2) * ((height + 1) / 2)
        for i in 0..<frames {
            data.append(contentsOf: Array("FRAME\n".utf8))
            data.append(contentsOf: [UInt8](repeating: UInt8(40 + (i * 7) % 180), count: width * height))
            data.append(contentsOf: [UInt8](repeating: UInt8(60 + (i * 11) % 140), count: chroma))
            data.append(contentsOf: [UInt8](repeating: UInt8(200 - (i * 5) % 140), count: chroma))
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// The frame number in the status line ("frame 12").
    static func frameNumber(_ screen: String) -> Int? {
        let status = Tmux.statusLine(screen)
        guard let range = status.range(of: #"frame \d+"#, options: .regularExpression) else { return nil }
        return Int(status[range].dropFirst(6))
    }

    /// The frame rate in the status line ("12.5 fps").
    static func fps(_ screen: String) -> Double? {
        let status = Tmux.statusLine(screen)
        guard let range = status.range(of: #"\d+\.\d fps"#, options: .regularExpression) else { return nil }
        return Double(status[range].dropLast(4))
    }

    @Test func aVideoFilePlaysWithTheFilterAndPauses() throws {
        let tmux = try Tmux(name: "video-file")
        defer { tmux.kill() }
        let clip = tmux.stateDirectory.appendingPathComponent("clip.y4m").path
        try Self.writeClip(clip)
        try tmux.start(["explore", "--video", clip, "--filter", "CISepiaTone"])
        let opened = try tmux.waitFor("the title names the video, its size and format; frames are counted", timeout: 30) {
            $0.contains("video clip.y4m 160×120") && $0.contains("Y4M C420jpeg BT.601 10 fps") && Self.frameNumber($0) != nil
        }
        #expect(opened.contains("Inputs: Sepia Tone"))
        let first = try #require(Self.frameNumber(opened))
        // Frames advance (the file plays at 10 fps), and the frame rate shown is measured.
        try tmux.waitFor("later frames are shown", timeout: 20) { (Self.frameNumber($0) ?? first) >= first + 5 }
        try tmux.waitFor("the frame rate shown is measured") { (Self.fps($0) ?? 0) > 0 }
        #expect(Tmux.statusLine(try tmux.capture()).contains(" dropped"))

        // v pauses: the frame number stays.
        tmux.send("v")
        let paused = try tmux.waitFor("paused") { Tmux.statusLine($0).contains("video paused (v)") }
        let still = try #require(Self.frameNumber(paused))
        usleep(800_000)
        #expect(Self.frameNumber(try tmux.waitFor("still paused") { Tmux.statusLine($0).contains("video paused") }) == still)

        // The filter is applied to the frame: before (b) shows the frame itself, in other colours than sepia.
        let filtered = try tmux.waitUntilStill(colors: true)
        tmux.send("b")
        try tmux.waitFor("before shows the unfiltered frame", colors: true) {
            $0.contains("BEFORE") && Tmux.previewRows($0) != Tmux.previewRows(filtered)
        }
        tmux.send("b")
        try tmux.waitFor("after again", colors: true) { !$0.contains("BEFORE") && Tmux.previewRows($0) == Tmux.previewRows(filtered) }

        // The inputs stay live on the paused frame: lowering the intensity changes it.
        tmux.send("Tab", "j", "H", "H", "H")
        try tmux.waitFor("the intensity drops") { Tmux.statusLine($0).contains("inputIntensity = 0.7") }
        try tmux.waitFor("the preview follows the input", colors: true) { Tmux.previewRows($0) != Tmux.previewRows(filtered) }

        // v resumes.
        tmux.send("v")
        try tmux.waitFor("playing again", timeout: 20) { screen in Self.frameNumber(screen).map { $0 != still } ?? false }
        try tmux.quitAndCheckRestored()
    }

    /// The video on standard input: the keys come from the terminal, the last frame stays at the end.
    @Test func aVideoOnStandardInputStillTakesKeys() throws {
        let tmux = try Tmux(name: "video-stdin")
        defer { tmux.kill() }
        let clip = tmux.stateDirectory.appendingPathComponent("clip.y4m").path
        try Self.writeClip(clip, frames: 30)
        try tmux.startPiped(producer: "cat '\(clip)'", ["explore", "--video", "-", "--filter", "CISepiaTone"])
        try tmux.waitFor("the stream plays to its end and the last frame stays", timeout: 30) {
            $0.contains("video standard input 160×120") && Tmux.statusLine($0).contains("end of stream · frame 30")
        }
        tmux.send("Tab", "j")
        try tmux.waitFor("keys reach the explorer") { Tmux.statusLine($0).contains("inputIntensity = 1") }
        tmux.send("?")
        try tmux.waitFor("the help opens") { $0.contains("Keys (any key closes)") }
        tmux.send("Escape")
        try tmux.quitAndCheckRestored()
    }

    /// A live source that has not ended: q still quits at once and the terminal is restored.
    @Test func qQuitsWhileStandardInputIsStillOpen() throws {
        let tmux = try Tmux(name: "video-live")
        defer { tmux.kill() }
        let clip = tmux.stateDirectory.appendingPathComponent("clip.y4m").path
        try Self.writeClip(clip, frames: 10)
        // One more frame, written again every 0.2 s until the pipe closes (the producer then stops).
        let one = tmux.stateDirectory.appendingPathComponent("one.y4m").path
        try Self.writeClip(one, frames: 1)
        let frame = try Data(contentsOf: URL(fileURLWithPath: one))
        try frame.suffix(from: frame.firstIndex(of: 10)! + 1).write(to: URL(fileURLWithPath: one))
        try tmux.startPiped(producer: "{ cat '\(clip)'; while sleep 0.2; do cat '\(one)' || exit; done; }",
                            ["explore", "--video", "-"])
        try tmux.waitFor("the frames are shown as they arrive", timeout: 30) { (Self.frameNumber($0) ?? 0) >= 14 }
        #expect(!Tmux.statusLine(try tmux.capture()).contains("end of stream"))
        try tmux.quitAndCheckRestored()
    }

    @Test func badStreamsAndAnImageWithAVideoAreRefusedInOneLine() throws {
        let tmux = try Tmux(name: "video-bad")
        defer { tmux.kill() }
        let bad = tmux.stateDirectory.appendingPathComponent("bad.y4m").path
        try Data("P6 not a video\n".utf8).write(to: URL(fileURLWithPath: bad))
        try tmux.start(["explore", "--video", bad])
        let refused = try tmux.waitFor("the header is refused before the terminal changes") { $0.contains("EXITED:") }
        #expect(refused.contains("bad.y4m: not a usable Y4M stream: it does not start with \"YUV4MPEG2 \""))
        #expect(!refused.contains("EXITED:0"))
        try tmux.expectRestored()

        let both = try Tmux(name: "video-image")
        defer { both.kill() }
        try both.start(["explore", "--video", bad, "photo.png"])
        let screen = try both.waitFor("--video with an image is refused") { $0.contains("EXITED:") }
        #expect(screen.contains("--video and an image cannot go together"))
        #expect(!screen.contains("EXITED:0"))

        // A frame cut short while playing: the explorer says so, and after q the same line and a restored terminal.
        let cut = try Tmux(name: "video-cut")
        defer { cut.kill() }
        let clip = cut.stateDirectory.appendingPathComponent("cut.y4m").path
        try Self.writeClip(clip, frames: 5)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: clip))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("FRAME\nshort".utf8))
        try handle.close()
        try cut.start(["explore", "--video", clip])
        try cut.waitFor("the truncated frame is reported", timeout: 30) { $0.contains("video stopped: ") && $0.contains("frame 6 is truncated") }
        cut.send("q")
        let after = try cut.waitFor("the explorer exits and repeats the reason") { $0.contains("EXITED:") }
        #expect(after.contains("frame 6 is truncated"))
        try cut.expectRestored()
    }

    // MARK: Animation

    /// The value at the end of the Intensity row, selected (`▸ Intensity`) or not.
    static func intensity(_ screen: String) -> String? {
        Tmux.lines(screen).first { $0.contains(" Intensity ") && $0.contains("│") }?
            .split(separator: " ").last.map(String.init)
    }

    @Test func anAnimatedSliderMovesAndComesBack() throws {
        let tmux = try Tmux(name: "animate-slider")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIVignette"])
        try tmux.waitFor("the vignette is rendered") { $0.contains("Inputs: Vignette") && Tmux.statusLine($0).contains(" ms ") }
        tmux.send("Tab", "j")
        let before = try tmux.waitFor("the intensity is selected") { Tmux.statusLine($0).contains("inputIntensity = 0") }
        let start = try #require(Self.intensity(before))

        // a: from the value to the far end of the slider, over 2 s; the status says what and how fast.
        tmux.send("a")
        let first = try tmux.waitFor("the status names the animation and its frame rate") {
            Tmux.statusLine($0).contains("animating inputIntensity") && Self.fps($0) != nil
        }
        let seen = Self.intensity(first)
        try tmux.waitFor("the value keeps moving") { Self.intensity($0) != seen && Self.intensity($0) != start }

        // a again: stopped, the value from before is back.
        tmux.send("a")
        try tmux.waitFor("the animation stops and the value is restored") {
            $0.contains("animation stopped: inputIntensity is back to \(start)") && Self.intensity($0) == start
        }
        usleep(300_000)
        #expect(Self.intensity(try tmux.capture()) == start)

        // A types one: bad text is refused with the reason, good text plays eased.
        tmux.send("A")
        try tmux.waitFor("the prompt is filled with a") { Tmux.statusLine($0).contains("animate inputIntensity: \(start) → ") }
        tmux.send("C-u")
        tmux.type("0 -> 2 over -1 s")
        tmux.send("Enter")
        try tmux.waitFor("a bad duration is refused") { $0.contains("the duration must be at least 0.05 s, not -1 s") }
        tmux.send("C-u")
        tmux.type("0.5 -> -0.5 over 1 s ease-in-out")
        tmux.send("Enter")
        try tmux.waitFor("the typed animation plays") {
            Tmux.statusLine($0).contains("animating inputIntensity 0.5 → -0.5 over 1 s ease-in-out")
        }
        // e while it plays: the still as always, and the animate command that plays it on the clipboard line.
        let out = tmux.stateDirectory.appendingPathComponent("still.png").path
        tmux.send("e")
        try tmux.waitFor("the export prompt opens") { Tmux.statusLine($0).contains("export to: ") }
        tmux.send("C-u")
        tmux.type(out)
        tmux.send("Enter")
        let exported = try tmux.waitFor("the still is written and the animate command shown", timeout: 30) {
            $0.contains("wrote \(out)") && $0.contains("--animate")
        }
        let joined = Tmux.lines(exported).suffix(5).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(joined.contains("sent to the clipboard: cifiltertest animate CIVignette"), "\(joined)")
        #expect(joined.contains("--animate CIVignette.inputIntensity=0.5:-0.5 --frames 25 --fps 25 --ease ease-in-out -o"),
                "\(joined)")
        #expect(FileManager.default.fileExists(atPath: out))
        // Stepping the animated input yourself stops the animation there (so it was still playing after e).
        tmux.send("L")
        try tmux.waitFor("the animation stops on a change of its input") { $0.contains("animation stopped: inputIntensity was changed") }
        try tmux.quitAndCheckRestored()
    }
}

extension Tmux {
    /// `start` with the explorer's standard input coming from `producer` (a shell command) through a pipe.
    func startPiped(producer: String, _ arguments: [String]) throws {
        let binary = try Self.binary()
        let command = ([binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let script = "trap : INT QUIT; ulimit -c 0; cd /tmp && " + producer + " | env -i PATH=/usr/bin:/bin HOME=/tmp "
            + "TERM=tmux-256color LANG=C.UTF-8 XDG_STATE_HOME='\(stateDirectory.path)' "
            + "XDG_CACHE_HOME='\(stateDirectory.path)/cache' \(command); echo EXITED:$?; "
            + "case \"$(stty -a)\" in *-icanon*|*' -echo '*) echo TTY:raw;; *) echo TTY:sane;; esac; exec sleep 600"
        try newSession(script: script)
    }
}
