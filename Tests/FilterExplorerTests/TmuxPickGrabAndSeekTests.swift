import FilterEngine
@testable import FilterExplorer
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The eyedropper, the grab drag, the labels of rectangles and extents, and stepping and seeking a video file,
/// end to end in tmux through the real binary (see `Tmux`, `TmuxMouseClient`).
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: the end-to-end explorer tests need it"))
struct TmuxPickGrabAndSeekTests {
    /// The inspector's 8-bit sRGB bytes in the status line (its long or short form).
    static func srgb(_ screen: String) -> [Int]? {
        let status = Tmux.statusLine(screen)
        guard let range = status.range(of: #"sRGB (8-bit )?\d+ \d+ \d+ \d+"#, options: .regularExpression) else { return nil }
        return status[range].split(separator: " ").compactMap { Int($0) }
    }

    /// The bytes of a "#rrggbbaa" hex.
    static func bytes(ofHex hex: Substring) -> [Int] {
        stride(from: 1, to: 9, by: 2).compactMap { i in
            Int(hex[hex.index(hex.startIndex, offsetBy: i)..<hex.index(hex.startIndex, offsetBy: i + 2)], radix: 16)
        }
    }

    /// The hex the message of a pick gives ("inputColor = #rrggbbaa picked at (x,y) of the output").
    static func picked(_ screen: String) -> (hex: Substring, x: Int, y: Int, from: String)? {
        let status = Tmux.statusLine(screen)
        guard let range = status.range(of: #"inputColor = #[0-9a-f]{8} picked at \(\d+,\d+\) of the \w+"#,
                                       options: .regularExpression) else { return nil }
        let text = status[range]
        let hex = text.split(separator: " ")[2]
        let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return (hex, numbers[numbers.count - 2], numbers[numbers.count - 1], String(text.split(separator: " ").last!))
    }

    static func mouseConfig(_ tmux: Tmux) throws -> String {
        let config = tmux.stateDirectory.appendingPathComponent("tmux.conf")
        try "set -g mouse on\nset -g status off\n".write(to: config, atomically: true, encoding: .utf8)
        return config.path
    }

    /// `I` on the colour row picks from the output: Esc keeps the colour, Enter takes the pixel under the
    /// cursor (the bytes the inspector shows there), and one `u` takes the pick back.
    @Test func theEyedropperTakesThePixelUnderTheCursorAsOneUndoStep() throws {
        let tmux = try Tmux(name: "pick-keys")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIColorMonochrome"])
        try tmux.waitFor("the filter is rendered") { Tmux.statusLine($0).contains(" ms ") }
        tmux.send("Tab", "j")
        let selected = try tmux.waitFor("the colour is selected") { Tmux.statusLine($0).contains("inputColor = #") }
        #expect(selected.contains("I pick from the picture"), "the key bar offers the eyedropper:\n\(selected)")
        let status = Tmux.statusLine(selected)
        let original = try #require(status.range(of: #"#[0-9a-f]{8}"#, options: .regularExpression).map { String(status[$0]) })

        tmux.send("I")
        try tmux.waitFor("picking, with the pixel's bytes") {
            Tmux.statusLine($0).contains("picking inputColor") && Self.srgb($0) != nil
        }
        tmux.send("Escape")
        try tmux.waitFor("Esc keeps the colour") { Tmux.statusLine($0).contains("inputColor kept (nothing picked)") }
        #expect(try tmux.capture().contains(original))

        tmux.send("I")
        try tmux.waitFor("picking again") { Tmux.statusLine($0).contains("picking inputColor") }
        tmux.send("S-Left", "S-Left", "Down")
        usleep(300_000)
        let under = try tmux.waitFor("the cursor's pixel is read") {
            Tmux.statusLine($0).contains("picking inputColor") && Self.srgb($0) != nil && !$0.contains("reading…")
        }
        let bytes = try #require(Self.srgb(under))
        tmux.send("Enter")
        let taken = try tmux.waitFor("Enter takes it") { Self.picked($0) != nil }
        let pick = try #require(Self.picked(taken))
        #expect(pick.from == "output")
        let got = Self.bytes(ofHex: pick.hex)
        #expect(got[3] == 255, "an opaque colour input gets alpha 1")
        for channel in 0..<3 { #expect(abs(got[channel] - bytes[channel]) <= 1, "\(pick.hex) against \(bytes)") }
        #expect(Tmux.lines(taken).contains { $0.contains("Color") && $0.contains(String(pick.hex)) }, "the row shows it:\n\(taken)")

        tmux.send("u")
        let undone = try tmux.waitFor("one undo takes the pick back") { $0.contains("undone") }
        #expect(undone.contains(original), "\(undone)")
        try tmux.quitAndCheckRestored()
    }

    /// A click on the swatch starts picking; a click on the picture takes that pixel, from the source while `b`
    /// shows it.
    @Test func aClickOnTheSwatchThenOnThePicturePicksWhatIsShown() throws {
        let tmux = try Tmux(name: "pick-mouse")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIColorMonochrome"], tmuxConfig: try Self.mouseConfig(tmux))
        try tmux.waitFor("the filter is rendered") { Tmux.statusLine($0).contains(" ms ") }
        tmux.send("b", "Tab", "j")
        let selected = try tmux.waitFor("the colour is selected, the source shown") {
            Tmux.statusLine($0).contains("inputColor = #") && $0.contains("BEFORE")
        }
        let status = Tmux.statusLine(selected)
        let hex = try #require(status.range(of: #"#[0-9a-f]{8}"#, options: .regularExpression).map { String(status[$0]) })
        let row = try #require(Tmux.lines(selected).enumerated().first { $0.element.contains("Color") && $0.element.contains(hex) })
        let hexColumn = row.element.distance(from: row.element.startIndex, to: row.element.range(of: hex)!.lowerBound)
        let client = try TmuxMouseClient(tmux, columns: 120, rows: 40)
        defer { client.close() }
        // The swatch is the two cells before the hex (and a space).
        client.press((hexColumn - 3, row.offset))
        client.release((hexColumn - 3, row.offset))
        try tmux.waitFor("the click on the swatch starts picking") { Tmux.statusLine($0).contains("picking inputColor") }

        let area = ExplorerLayout(columns: 120, rows: 40, controlCount: 3).preview
        let geometry = PreviewGeometry(imageRect: Rect(x: 0, y: 0, width: 512, height: 512), area: area)
        let cell = (x: geometry.cells.x + geometry.cells.width / 3, y: geometry.cells.y + geometry.cells.height / 2)
        let point = geometry.imagePoint(cellX: cell.x, cellY: cell.y)
        let pixel = (x: Int(point.x.rounded(.down)), y: Int(point.y.rounded(.down)))
        client.press(cell)
        client.release(cell)
        let taken = try tmux.waitFor("the click takes the pixel under it") { Self.picked($0) != nil }
        let pick = try #require(Self.picked(taken))
        #expect(pick.x == pixel.x && pick.y == pixel.y && pick.from == "source", "\(Tmux.statusLine(taken))")
        // The source's own pixel there, as the colour input holds it.
        let samples = try ExplorerFixtures.samples()
        let reading = try #require(try PixelReading.read(samples.source, rect: Rect(x: Double(pixel.x), y: Double(pixel.y), width: 1, height: 1),
                                                         context: RenderContext()).first)
        #expect(String(pick.hex) == ColorStepper.hex(PickedColor.color(of: reading, opaque: true)))
        try tmux.quitAndCheckRestored()
    }

    /// Dragging the picture of a crop moves the picture with the pointer (the crop's window the other way);
    /// zoomed in, a drag away from the point's marker pans and leaves the point, a click places it, and a drag
    /// from the marker moves it.
    @Test func dragTheCroppedPictureAndPanAZoomedOne() throws {
        let tmux = try Tmux(name: "grab")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CICrop"], tmuxConfig: try Self.mouseConfig(tmux))
        try tmux.waitFor("the crop is rendered") { Tmux.statusLine($0).contains(" ms ") }
        tmux.send("Tab", "j")
        try tmux.waitFor("the rectangle is selected") { Tmux.statusLine($0).contains("inputRectangle = [64 64 384 384]") }
        let area = ExplorerLayout(columns: 120, rows: 40, controlCount: 2).preview
        let cropped = PreviewGeometry(imageRect: Rect(x: 64, y: 64, width: 384, height: 384), area: area)
        let start = (x: cropped.cells.x + 20, y: cropped.cells.y + 10)
        let end = (x: start.x + 6, y: start.y - 4)
        let a = cropped.imagePoint(cellX: start.x, cellY: start.y), b = cropped.imagePoint(cellX: end.x, cellY: end.y)
        let moved = "[\(64 - Int((b.x - a.x).rounded())) \(64 - Int((b.y - a.y).rounded())) 384 384]"
        let client = try TmuxMouseClient(tmux, columns: 120, rows: 40)
        defer { client.close() }
        client.press(start)
        client.drag(end)
        client.release(end)
        try tmux.waitFor("the crop's window moved against the pointer: the picture follows it") {
            Tmux.statusLine($0).contains("inputRectangle = \(moved)")
        }
        tmux.send("u")
        try tmux.waitFor("one undo step") { Tmux.statusLine($0).contains("undone") && $0.contains("[64 64 384 384]") }
        try tmux.quitAndCheckRestored()

        let twirl = try Tmux(name: "grab-zoomed")
        defer { twirl.kill() }
        try twirl.start(["explore", "--filter", "CITwirlDistortion"], tmuxConfig: try Self.mouseConfig(twirl))
        try twirl.waitFor("the twirl is rendered") { Tmux.statusLine($0).contains(" ms ") }
        twirl.send("Tab", "j", "+")
        let zoomed = try twirl.waitFor("zoomed, the centre selected") {
            $0.contains("zoom ") && Tmux.statusLine($0).contains("inputCenter = [256 256]") && $0.contains("✛")
        }
        let marker = try Tmux.position(of: "✛", in: zoomed)
        let pointer = try TmuxMouseClient(twirl, columns: 120, rows: 40)
        defer { pointer.close() }
        let from = (x: marker.column - 12, y: marker.row - 5), to = (x: marker.column - 6, y: marker.row - 2)
        pointer.press(from)
        pointer.drag(to)
        pointer.release(to)
        let panned = try twirl.waitFor("the picture moved with the pointer, the marker with it") {
            guard let now = try? Tmux.position(of: "✛", in: $0) else { return false }
            return abs(now.column - (marker.column + 6)) <= 1 && abs(now.row - (marker.row + 3)) <= 1
        }
        #expect(Tmux.statusLine(panned).contains("inputCenter = [256 256]") || panned.contains("Center") && panned.contains("[256 256]"),
                "a pan leaves the point:\n\(panned)")
        // A click away from the marker places the point there.
        let click = (x: marker.column - 10, y: marker.row + 4)
        pointer.press(click)
        pointer.release(click)
        let placed = try twirl.waitFor("the click places the centre under the pointer") {
            (try? Tmux.position(of: "✛", in: $0)).map { $0.column == click.x && $0.row == click.y } ?? false
        }
        #expect(!placed.contains("inputCenter = [256 256]"))
        // A drag from the marker moves the point with the pointer.
        pointer.press(click)
        pointer.drag((click.x + 5, click.y - 2))
        pointer.release((click.x + 5, click.y - 2))
        try twirl.waitFor("the point follows a drag from its marker") {
            (try? Tmux.position(of: "✛", in: $0)).map { $0.column == click.x + 5 && $0.row == click.y - 2 } ?? false
        }
        try twirl.quitAndCheckRestored()
    }

    /// An infinite rectangle reads "infinite", the default shown is the explorer's own, and a blur's header gives
    /// its true extent (the source grown by 3σ) and what is shown of it.
    @Test func rectanglesDefaultsAndTheBlursExtent() throws {
        let blur = try Tmux(name: "label-blur")
        defer { blur.kill() }
        try blur.start(["explore", "--filter", "CIGaussianBlur"])
        let header = try blur.waitFor("the blur's header") { Tmux.statusLine($0).contains(" ms ") && $0.contains("output ") }
        #expect(Tmux.lines(header)[0].contains("output 572×572 at (−30,−30), shown 512×512"), "\(Tmux.lines(header)[0])")
        try blur.quitAndCheckRestored()

        let crop = try Tmux(name: "label-crop")
        defer { crop.kill() }
        try crop.start(["explore", "--filter", "CICrop"])
        try crop.waitFor("the crop is rendered") { Tmux.statusLine($0).contains(" ms ") }
        crop.send("Tab", "j")
        let help = try crop.waitFor("the rectangle's line gives the explorer's default") { $0.contains("default [64 64 384 384]") }
        #expect(!help.contains("e+307"))
        try crop.quitAndCheckRestored()

        let average = try Tmux(name: "label-average")
        defer { average.kill() }
        try average.start(["explore", "--filter", "CIAreaAverage"])
        try average.waitFor("the reduction is rendered") { Tmux.statusLine($0).contains(" ms ") }
        average.send("Tab", "j")
        let line = try average.waitFor("the extent's line gives the value in force") { $0.contains("default [0 0 512 512]") }
        #expect(!line.contains("640 80"))
        try average.quitAndCheckRestored()
    }

    /// A paused video file steps a frame at a time, jumps 5 s and stops at its ends; `e` gives the stream
    /// command for the whole clip, which runs.
    @Test func aVideoFileStepsJumpsAndExportsTheStreamCommand() throws {
        let tmux = try Tmux(name: "video-seek")
        defer { tmux.kill() }
        let clip = tmux.stateDirectory.appendingPathComponent("clip.y4m").path
        try TmuxVideoTests.writeClip(clip, frames: 80)
        try tmux.start(["explore", "--video", clip, "--filter", "CISepiaTone"], tmuxConfig: try TmuxExportTests.clipboardConfig(tmux))
        try tmux.waitFor("playing", timeout: 30) { TmuxVideoTests.frameNumber($0) != nil }
        tmux.send("v")
        let paused = try tmux.waitFor("paused") { Tmux.statusLine($0).contains("video paused (v)") }
        #expect(paused.contains(", . frame") && paused.contains("< > ±5 s"), "the key bar offers them:\n\(paused)")
        func expectFrame(_ frame: Int, _ what: String) throws {
            try tmux.waitFor(what, timeout: 20) {
                TmuxVideoTests.frameNumber($0) == frame && Tmux.statusLine($0).contains("video paused")
            }
        }
        tmux.send("<", "<")
        try expectFrame(1, "< < go back to the first frame")
        tmux.send(".", ".")
        try expectFrame(3, ". . step two frames forward")
        tmux.send(",")
        try expectFrame(2, ", steps back")
        tmux.send(">")
        try expectFrame(52, "> jumps 5 s (50 frames at 10 fps)")
        tmux.send(">")
        try expectFrame(80, "> past the end stops at the last frame")
        tmux.send(".")
        usleep(500_000)
        try expectFrame(80, "the last frame stays")
        #expect(Tmux.statusLine(try tmux.capture()).contains("frame 80 (7.90 s)"))

        let output = tmux.stateDirectory.appendingPathComponent("still.png").path
        let (_, command) = try TmuxExportTests.export(tmux, to: output)
        let streamed = tmux.stateDirectory.appendingPathComponent("still.y4m").path
        let recipe = tmux.stateDirectory.appendingPathComponent("still.json").path
        #expect(command == "cifiltertest stream --recipe \(recipe) -i \(clip) -o \(streamed)", "\(command)")
        try tmux.quitAndCheckRestored()
        // The command processes the whole clip.
        let line = "'\(try Tmux.binary())' " + command.dropFirst("cifiltertest ".count)
        let (status, printed) = try Tmux.spawnWithErrors("/bin/sh", ["-c", line])
        #expect(status == 0, "\(line): \(printed)")
        let written = try Data(contentsOf: URL(fileURLWithPath: streamed))
        let frames = written.count > 0 ? String(decoding: written.prefix(64), as: UTF8.self) : ""
        #expect(frames.hasPrefix("YUV4MPEG2 W160 H120"))
        let marker = Data("FRAME".utf8)
        var count = 0, from = written.startIndex
        while let found = written.range(of: marker, in: from..<written.endIndex) { count += 1; from = found.upperBound }
        #expect(count == 80, "every frame of the clip")
    }
}
