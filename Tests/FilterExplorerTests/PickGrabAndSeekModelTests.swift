import FilterEngine
import FilterPipeline
import Foundation
import Testing
@testable import FilterExplorer

/// The pure parts behind the eyedropper, the grab drag, the labels of rectangles and extents, and video seeking.
@Suite struct PickGrabAndSeekModelTests {
    // MARK: Eyedropper

    /// A pixel read from a rendered colour gives that colour back, as the colour input holds it (sRGB, straight
    /// alpha); an opaque colour input gets alpha 1.
    @Test func aPickedPixelIsTheColourThatMadeIt() throws {
        let colour = Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5)
        let filter = try Filter(named: "CIConstantColorGenerator")
        try filter.setValue(.color(colour), forKey: "inputColor")
        let image = try filter.makeOutputImage()
        let reading = try #require(try PixelReading.read(image, rect: Rect(x: 3, y: 5, width: 1, height: 1),
                                                         context: RenderContext()).first)
        let picked = PickedColor.color(of: reading, opaque: false)
        for (got, want) in zip(picked.components, colour.components) { #expect(abs(got - want) < 0.0002, "\(picked)") }
        let opaque = PickedColor.color(of: reading, opaque: true)
        #expect(opaque.alpha == 1 && abs(opaque.red - 0.2) < 0.0002)
        // The hex the row shows is the 8-bit export's bytes (straight sRGB).
        #expect(ColorStepper.hex(picked) == "#" + reading.srgb8.map { String(format: "%02x", $0) }.joined())
    }

    @Test func aTransparentPixelPicksClearAndExtendedValuesAreKept() {
        let clear = PixelReading(x: 0, y: 0, linear: [0, 0, 0, 0], srgb8: [0, 0, 0, 0])
        #expect(PickedColor.color(of: clear, opaque: false) == Color(red: 0, green: 0, blue: 0, alpha: 0))
        #expect(PickedColor.color(of: clear, opaque: true).alpha == 1)
        // A brighter-than-white pixel stays brighter than white (Core Image's colours are extended range).
        let bright = PixelReading(x: 0, y: 0, linear: [2, 1, 0, 1], srgb8: [255, 255, 0, 255])
        let picked = PickedColor.color(of: bright, opaque: false)
        #expect(picked.red > 1 && picked.green == 1 && picked.blue == 0)
    }

    // MARK: Grab drag

    @Test func aDragOnTheMarkEditsElsewhereItGrabsThePicture() {
        // On the point's marker (or inside a rectangle drawn over the picture): the value, zoomed or not.
        #expect(PreviewGrab.decide(onValue: true, zoomed: true, viewportKey: nil, editsValue: true) == .editValue)
        #expect(PreviewGrab.decide(onValue: true, zoomed: false, viewportKey: nil, editsValue: true) == .editValue)
        // Elsewhere: a zoomed view pans, a crop's window moves.
        #expect(PreviewGrab.decide(onValue: false, zoomed: true, viewportKey: nil, editsValue: true) == .pan)
        #expect(PreviewGrab.decide(onValue: false, zoomed: true, viewportKey: "inputRectangle", editsValue: true) == .pan)
        #expect(PreviewGrab.decide(onValue: false, zoomed: false, viewportKey: "inputRectangle", editsValue: true) == .moveViewport)
        // Nothing to pan: the selected point or rectangle, as before; else nothing.
        #expect(PreviewGrab.decide(onValue: false, zoomed: false, viewportKey: nil, editsValue: true) == .editValue)
        #expect(PreviewGrab.decide(onValue: false, zoomed: false, viewportKey: nil, editsValue: false) == .nothing)
    }

    @Test func grabbingMovesTheViewWithThePointerInsideTheOutput() {
        let rect = Rect(x: 0, y: 0, width: 512, height: 512)
        let zoom = PreviewZoom(scale: 2, centreX: 256, centreY: 256)
        let shown = Rect(x: 192, y: 224, width: 128, height: 64)
        // The picture dragged right and up by (10, 5): the window goes left and down by as much.
        let moved = zoom.grabbed(shown: shown, by: (10, 5), of: rect)
        #expect(moved.centreX == 246 && moved.centreY == 251 && moved.scale == 2)
        // Never past the output's edges.
        let far = zoom.grabbed(shown: shown, by: (1000, -1000), of: rect)
        #expect(far.centreX == 64 && far.centreY == 480)
        #expect(PreviewZoom.fit.grabbed(shown: rect, by: (10, 10), of: rect) == .fit, "a fitted view has nothing to pan")
        #expect(PreviewGrab.sameRect(Rect(x: 64, y: 64, width: 384, height: 384), Rect(x: 64.2, y: 63.9, width: 384, height: 384)))
        #expect(!PreviewGrab.sameRect(Rect(x: 64, y: 64, width: 384, height: 384), Rect(x: 65, y: 64, width: 384, height: 384)))
    }

    // MARK: Labels

    @Test func anInfiniteRectangleReadsInfinite() throws {
        let infinite = Rect.infinite
        let value = FilterValue.vector([infinite.x, infinite.y, infinite.width, infinite.height])
        #expect(ControlDisplay.text(value, kind: .rectangle) == "infinite")
        #expect(ControlDisplay.text(.vector([0, 0, 640, 80]), kind: .rectangle) == "[0 0 640 80]")
        let crop = try #require(Catalog.builtIn.filter(named: "CICrop")?.input("inputRectangle"))
        let line = Explorer.inputHelp(crop, kind: .rectangle)
        #expect(line.contains("default infinite") && !line.contains("e+307"), "\(line)")
    }

    /// The default the input line shows is the value the explorer starts at (what r resets to).
    @Test func theDefaultShownIsTheExplorersStartingValue() throws {
        let average = try ExplorerFixtures.session("CIAreaAverage")
        let extent = try #require(average.controls.first { $0.input.key == "inputExtent" })
        let start = try #require(average.startingValue(forKey: "inputExtent"))
        #expect(ControlDisplay.text(start, kind: .rectangle) == "[0 0 512 512]")
        let line = Explorer.inputHelp(extent.input, kind: extent.kind, start: start)
        #expect(line.contains("default [0 0 512 512]") && !line.contains("640"), "\(line)")
        // The same as reset gives, after an edit.
        try average.set(.vector([1, 2, 3, 4]), forKey: "inputExtent")
        average.reset("inputExtent")
        #expect(average.value(forKey: "inputExtent").map { ControlDisplay.text($0, kind: .rectangle) } == "[0 0 512 512]")
        let crop = try ExplorerFixtures.session("CICrop")
        #expect(crop.startingValue(forKey: "inputRectangle").map { ControlDisplay.text($0, kind: .rectangle) } == "[64 64 384 384]")
        // Computing it changes nothing in the session.
        try crop.set(.vector([10, 10, 100, 100]), forKey: "inputRectangle")
        _ = crop.startingValue(forKey: "inputRectangle")
        #expect(crop.value(forKey: "inputRectangle").map { ControlDisplay.text($0, kind: .rectangle) } == "[10 10 100 100]")
    }

    /// A Gaussian blur's own output grows by 3σ a side (Core Image's); the preview's clamp makes it infinite,
    /// which the header no longer says.
    @Test func aBlursOwnExtentIsTheSourceGrownByThreeSigma() throws {
        let blur = try ExplorerFixtures.session("CIGaussianBlur")
        try blur.set(.number(10), forKey: "inputRadius")
        let clamped = try ResolvedRecipe(steps: blur.resolvedSteps(proxyFactor: 1, context: RenderContext())).image(input: nil)
        #expect(clamped.extent.isInfinite)
        let own = try ResolvedRecipe(steps: blur.resolvedSteps(proxyFactor: 1, context: RenderContext(), clamped: false))
            .image(input: nil).extent
        #expect(own == Rect(x: -30, y: -30, width: 572, height: 572))
        #expect(Explorer.extentLabel(own, shown: Rect(x: 0, y: 0, width: 512, height: 512))
                == "output 572×572 at (−30,−30), shown 512×512")
    }

    // MARK: Without colour

    /// A cell with an edge draws its light quarters (shape within the cell); a flat or soft one stays a shade.
    @Test func withoutColourAnEdgeInACellShowsAsQuadrants() {
        /// One 8×16 cell whose pixel (x, y) (y down) has grey `value(x, y)`.
        func cell(_ value: (Int, Int) -> UInt8, unicode: Bool = true) -> Character {
            var pixels = [UInt8](repeating: 255, count: 8 * 16 * 4)
            for y in 0..<16 { for x in 0..<8 { for c in 0..<3 { pixels[(y * 8 + x) * 4 + c] = value(x, y) } } }
            let cells = ChafaConverter.shades(pixels, width: 8, height: 16, columns: 1, rows: 1, unicode: unicode)
            return Character(Unicode.Scalar(cells.chars[0])!)
        }
        #expect(cell { _, y in y < 8 ? 255 : 0 } == "▀")
        #expect(cell { _, y in y < 8 ? 0 : 255 } == "▄")
        #expect(cell { x, _ in x < 4 ? 255 : 0 } == "▌")
        #expect(cell { x, y in (x < 4) == (y < 8) ? 255 : 0 } == "▚")
        #expect(cell { x, y in x >= 4 && y >= 8 ? 0 : 255 } == "▛")
        // A soft step (under the edge contrast) and a flat cell are shades of their mean.
        #expect(cell { _, y in y < 8 ? 150 : 110 } == "▒")
        #expect(cell { _, _ in 255 } == "█")
        // ASCII has no quadrants: the mean's character.
        #expect(ChafaConverter.asciiRamp.contains(cell({ _, y in y < 8 ? 255 : 0 }, unicode: false)))
    }

    // MARK: Video seeking

    @Test func aSeekLandsInsideTheClip() {
        #expect(VideoSeek.target(from: 10, by: 1, frameCount: nil) == 11)
        #expect(VideoSeek.target(from: 0, by: -1, frameCount: nil) == 0)
        #expect(VideoSeek.target(from: 3, by: -50, frameCount: 80) == 0)
        #expect(VideoSeek.target(from: 78, by: 50, frameCount: 80) == 79)
        #expect(VideoSeek.target(from: 78, by: 50, frameCount: nil) == 128, "the source stops at the end itself")
    }

    /// A file sought while paused: forward, past the end (the last frame), and back; each frame is the one asked.
    @Test func aPausedFileIsSoughtFrameByFrame() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-seek-\(UUID()).y4m").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Eight 4×4 4:4:4 frames whose luma is their number.
        var data = Data("YUV4MPEG2 W4 H4 F25:1 Ip A1:1 C444\n".utf8)
        for i in 0..<8 {
            data.append(contentsOf: Array("FRAME\n".utf8))
            data.append(contentsOf: [UInt8](repeating: UInt8(16 + i), count: 16) + [UInt8](repeating: 128, count: 32))
        }
        try data.write(to: URL(fileURLWithPath: path))
        let video = try VideoSource(path: path)
        #expect(video.canSeek)
        video.setPaused(true)
        video.start()
        defer { video.stop() }
        func seek(_ frame: Int) throws -> Int {
            let number = video.seek(toFrame: frame)
            let deadline = Date(timeIntervalSinceNow: 10)
            while video.status.seeksDone < number, Date() < deadline { usleep(5_000) }
            #expect(video.status.seeksDone >= number, "the sought frame arrives while paused")
            return try #require(video.takeNewest()).index
        }
        #expect(try seek(5) == 5)
        #expect(try seek(6) == 6, "forward from where it is")
        #expect(try seek(100) == 7, "past the end: the last frame")
        #expect(video.status.frameCount == 8)
        #expect(try seek(1) == 1, "back: read again from the start")
        #expect(try seek(0) == 0)
        usleep(200_000)
        let extra = video.takeNewest()
        #expect(extra == nil, "paused: nothing else is read (frame \(extra?.index ?? -1), \(video.status))")
        #expect(video.status.error == nil)
    }
}
