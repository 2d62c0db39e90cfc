import FilterEngine
import FilterPipeline
import Foundation
import Testing

/// The explorer answering at once, end to end in tmux (see `Tmux`): the directly written preview shows the
/// image's colours and comes back after an overlay, keys typed while an animation plays echo at once, and a
/// large JPEG's header gives its own size.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: the end-to-end explorer tests need it"))
struct TmuxSpeedTests {
    /// A 96×64 PNG of one colour (magenta: linear 1, 0, 1 is sRGB 255, 0, 255 exactly).
    static func solidImage(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("magenta.png").path
        let buffer = PixelBuffer(rect: PixelRect(x: 0, y: 0, width: 96, height: 64))
        for y in 0..<64 {
            let row = buffer.row(y)
            for x in 0..<96 { row[x] = Pixel(1, 0, 1, 1) }
        }
        try ImageFile.write(Image(buffer: buffer), to: path, context: RenderContext())
        return path
    }

    /// How many preview rows show `colour` as an SGR colour (`38;…` or `48;…`) in a `capture-pane -e` screen.
    static func rows(showing colour: String, in screen: String) -> Int {
        Tmux.previewRows(screen).filter { $0.contains("8;" + colour + "m") || $0.contains("8;" + colour + ";") }.count
    }

    /// The preview rows of a `capture-pane -e` screen as cells: each character with the foreground and background
    /// in force (tmux writes only the changes, which depend on what came before, so the text itself is not
    /// comparable between two captures of the same picture).
    static func previewCells(_ screen: String) -> [[String]] {
        // The colours in force carry over from one line to the next.
        var (fg, bg) = ("39", "49")
        let all = Tmux.lines(screen)
        let end = all.firstIndex { $0.contains("Inputs:") } ?? min(all.count, 20)
        let rows: [[String]] = all.map { row in
            var cells: [String] = []
            var scalars = Array(row.unicodeScalars)[...]
            while let first = scalars.first {
                scalars = scalars.dropFirst()
                guard first == "\u{1B}" else {
                    cells.append("\(first)|\(fg)|\(bg)")
                    continue
                }
                // ESC [ parameters m
                guard scalars.first == "[", let end = scalars.firstIndex(where: { $0.properties.isAlphabetic }) else { continue }
                let parameters = String(String.UnicodeScalarView(scalars[scalars.index(after: scalars.startIndex)..<end]))
                let final = scalars[end]
                scalars = scalars[scalars.index(after: end)...]
                guard final == "m" else { continue }
                var codes = parameters.split(separator: ";", omittingEmptySubsequences: false).map(String.init)[...]
                if codes.isEmpty { codes = ["0"] }
                while let code = codes.popFirst() {
                    switch code {
                    case "", "0": (fg, bg) = ("39", "49")
                    case "39": fg = "39"
                    case "49": bg = "49"
                    case let basic where (30...37).contains(Int(basic) ?? 0) || (90...97).contains(Int(basic) ?? 0): fg = basic
                    case let basic where (40...47).contains(Int(basic) ?? 0) || (100...107).contains(Int(basic) ?? 0): bg = basic
                    case "38", "48":
                        let count = codes.first == "2" ? 4 : 2
                        let colour = codes.prefix(count).joined(separator: ";")
                        codes = codes.dropFirst(count)
                        if code == "38" { fg = colour } else { bg = colour }
                    default: break
                    }
                }
            }
            // Trailing default blanks are what tmux leaves off or keeps depending on how they were written.
            while let last = cells.last, last == " |39|49" { cells.removeLast() }
            return cells
        }
        return Array(rows[min(1, end)..<end])
    }

    @Test(arguments: [("truecolor", "2;0;255;0"), ("256", "5;46")])
    func thePreviewShowsTheImagesColoursAndComesBackAfterTheHelp(colors: String, green: String) throws {
        let tmux = try Tmux(name: "direct-\(colors)")
        defer { tmux.kill() }
        let image = try Self.solidImage(in: tmux.stateDirectory)
        // Inverted, magenta is pure green: in truecolor RGB 0,255,0; in 256 colours index 46.
        try tmux.start(["explore", image, "--filter", "CIColorInvert", "--colors", colors])
        let shown = try tmux.waitFor("the inverted image is drawn in green cells", colors: true) {
            Tmux.statusLine($0).contains(" ms") && Self.rows(showing: green, in: $0) > 20
        }
        let preview = Self.previewCells(shown)
        #expect(!shown.contains("8;2;255;0;255") && !shown.contains("8;5;201"), "no magenta left")
        // The help covers the preview; closed, the preview is exactly as it was.
        tmux.send("?")
        try tmux.waitFor("the help covers the preview", colors: true) { Self.previewCells($0) != preview }
        tmux.send("Escape")
        try tmux.waitFor("the preview is whole again", colors: true) { Self.previewCells($0) == preview }
        // The pixel inspector's crosshair is drawn over the picture, and the picture comes back when it closes.
        tmux.send("p")
        try tmux.waitFor("the crosshair shows on the preview") { Tmux.previewRows($0).contains { $0.contains("╋") } }
        tmux.send("Escape")
        try tmux.waitFor("the preview is whole again after the inspector", colors: true) { Self.previewCells($0) == preview }
        // A repaint (Ctrl-L) and a resize there and back keep it whole.
        tmux.send("C-l")
        tmux.resize(columns: 110, rows: 38)
        try tmux.waitFor("the preview is drawn at the new size", colors: true) {
            Self.rows(showing: green, in: $0) > 20 && Self.previewCells($0) != preview
        }
        tmux.resize(columns: 120, rows: 40)
        try tmux.waitFor("the preview is back at its size", colors: true) { Self.previewCells($0) == preview }
        try tmux.quitAndCheckRestored()
    }

    @Test func keysTypedDuringAnAnimationEchoAtOnce() throws {
        let tmux = try Tmux(name: "key-latency")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIGaussianBlur", "--colors", "truecolor"])
        try tmux.waitFor("the blur is rendered") { Tmux.statusLine($0).contains(" ms") }
        // The radius: Tab to the inputs, down from the image.
        tmux.send("Tab")
        tmux.send("Down")
        try tmux.waitFor("the radius is selected") { Tmux.statusLine($0).contains("inputRadius") }
        tmux.send("a")
        try tmux.waitFor("the radius animates") { Tmux.statusLine($0).contains("animating inputRadius") }
        var times: [Double] = []
        for _ in 0..<5 {
            let start = Date()
            tmux.type("/sepia")
            try tmux.waitFor("the typed search shows", timeout: 5) { Tmux.statusLine($0).hasPrefix("/sepia") }
            times.append(Date().timeIntervalSince(start) * 1000)
            tmux.send("Escape")
            try tmux.waitFor("the search closes", timeout: 5) { !Tmux.statusLine($0).hasPrefix("/") }
        }
        times.sort()
        // Each character used to wait for a frame (about 3 a second); the poll itself takes ~10–30 ms.
        #expect(times[2] < 250, "six characters typed during the animation showed after \(times.map { Int($0) }) ms")
        try tmux.quitAndCheckRestored()
    }

    /// `explore --bench --filter` takes names as `explore --filter` does, and a typo fails with a suggestion.
    @Test func benchFilterNamesAreResolvedAsExploreTakesThem() throws {
        let binary = try Tmux.binary()
        let (status, output) = try Tmux.spawnWithErrors(binary, ["explore", "--bench", "--filter", "sepia tone,colorinvert",
                                                                 "--size", "80x24"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("CISepiaTone") && output.contains("CIColorInvert"), "\(output)")
        let (typoStatus, typo) = try Tmux.spawnWithErrors(binary, ["explore", "--bench", "--filter", "CISepiaTome", "--size", "80x24"])
        #expect(typoStatus != 0)
        #expect(typo.contains("no filter named \"CISepiaTome\"") && typo.contains("CISepiaTone"), "\(typo)")
    }

    @Test func aLargeJPEGHeaderGivesItsOwnSize() throws {
        let tmux = try Tmux(name: "header-size")
        defer { tmux.kill() }
        // 12 MP, sizes no proxy factor divides: opened from a reduced decode, then at full size.
        let big = tmux.stateDirectory.appendingPathComponent("big.jpg").path
        let (made, _) = try Tmux.spawn(try Tmux.binary(), ["render", "CICheckerboardGenerator", "inputWidth=37",
                                                           "--crop", "0,0,4001,3001", "-o", big], capture: true)
        #expect(made == 0)
        try tmux.start(["explore", big, "--filter", "CISepiaTone"])
        let first = try tmux.waitFor("a proxy frame") { Tmux.statusLine($0).contains("(proxy ÷") }
        let title = String(Tmux.lines(first)[0])
        #expect(title.contains("big.jpg 4001×3001") && title.contains("output 4001×3001"), "title: \(title)")
        let refined = try tmux.waitFor("the full-size refinement", timeout: 120) {
            let status = Tmux.statusLine($0)
            return status.contains(" ms") && !status.contains("proxy") && !status.contains("rendering…")
        }
        #expect(String(Tmux.lines(refined)[0]).contains("output 4001×3001"))
        try tmux.quitAndCheckRestored()
    }
}
