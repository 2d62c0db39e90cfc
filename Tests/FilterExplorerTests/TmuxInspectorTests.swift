import FilterEngine
import FilterPipeline
@testable import FilterExplorer
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The pixel inspector, dragging on the preview, the help at any size and Ctrl-Z, driven end to end in tmux
/// (see `Tmux`). The inspector's numbers are compared with what `cifiltertest render` writes for the same pixel.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: the end-to-end explorer tests need it"))
struct TmuxInspectorTests {
    @Test func inspectorShowsTheExportedValuesOfAConstantColour() throws {
        let tmux = try Tmux(name: "inspect-constant")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIConstantColorGenerator"])
        try tmux.waitFor("the generator is rendered") { Tmux.statusLine($0).contains(" ms ") }
        tmux.send("Tab", "=", "C-u")
        tmux.type("0.25 0.5 0.75 1")
        tmux.send("Enter")
        try tmux.waitFor("the colour is set") { $0.contains("r 0.25 g 0.50 b 0.75 a 1.00") }
        tmux.send("p")
        let screen = try tmux.waitFor("the inspector reads the middle pixel") {
            Inspected(statusLine: Tmux.statusLine($0))?.isAt(256, 256) == true
        }
        #expect(screen.contains("╋"), "the crosshair is drawn on the preview")
        let shown = try #require(Inspected(statusLine: Tmux.statusLine(screen)))
        // Known values: the colour is given in sRGB (as CIColor's are), held linear; and the file's bytes.
        #expect(shown.linear == [0.0509, 0.2140, 0.5225, 1])
        #expect(shown.srgb[0] == 64 && shown.srgb[2] == 191 && shown.srgb[3] == 255)
        try expectSameAsRender(shown, ["CIConstantColorGenerator", "inputColor=0.25 0.5 0.75 1"])

        // Esc leaves: the status line and the crosshair go.
        tmux.send("Escape")
        try tmux.waitFor("Esc leaves the inspector") { !$0.contains("╋") && !Tmux.statusLine($0).contains("pixel (") }
        try tmux.quitAndCheckRestored()
    }

    @Test func inspectorOnACheckerboardFittedAndOneToOne() throws {
        let tmux = try Tmux(name: "inspect-checker")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CICheckerboardGenerator"])
        let opened = try tmux.waitFor("the checkerboard is rendered, its centre in the middle of the image") {
            Tmux.statusLine($0).contains(" ms ") && Tmux.statusLine($0).contains("inputCenter = [256 256]")
        }
        let width = try #require(Tmux.value(of: "Width", in: opened))
        #expect(width == "80")
        let render = ["CICheckerboardGenerator", "inputCenter=[256 256]", "inputWidth=\(width)"]

        tmux.send("p")
        let middle = try tmux.waitFor("the inspector opens on the middle pixel") {
            Inspected(statusLine: Tmux.statusLine($0))?.isAt(256, 256) == true
        }
        let inside = try #require(Inspected(statusLine: Tmux.statusLine(middle)))
        try expectSameAsRender(inside, render)
        // One pixel to the left is across the squares' edge (x = 256): the other colour.
        tmux.send("Left")
        let across = try tmux.waitFor("the cursor moves one pixel left") {
            Inspected(statusLine: Tmux.statusLine($0))?.isAt(255, 256) == true
        }
        let other = try #require(Inspected(statusLine: Tmux.statusLine(across)))
        #expect(other.srgb != inside.srgb)
        try expectSameAsRender(other, render)

        // 1:1, then a cell down with Shift (16 pixels a cell at 1:1) and one pixel down: still the export's values.
        tmux.send("1")
        try tmux.waitFor("the preview is shown 1:1") { $0.contains("· 1:1 ·") }
        tmux.send("S-Down", "Down")
        let zoomed = try tmux.waitFor("the cursor moves a cell and a pixel down at 1:1") {
            Inspected(statusLine: Tmux.statusLine($0))?.isAt(255, 239) == true
        }
        let below = try #require(Inspected(statusLine: Tmux.statusLine(zoomed)))
        try expectSameAsRender(below, render)
        #expect(zoomed.contains("╋"))
        try tmux.quitAndCheckRestored()
    }

    /// A photo large enough to be previewed from a proxy: the inspector still reads the full-size output, in
    /// full-size coordinates (a checkerboard of odd-sized squares that a proxy would blur).
    @Test func inspectorReadsTheFullSizeOutputOfAProxiedPreview() throws {
        let tmux = try Tmux(name: "inspect-proxy")
        defer { tmux.kill() }
        let big = tmux.stateDirectory.appendingPathComponent("big.png").path
        let (made, _) = try Tmux.spawn(try Tmux.binary(), ["render", "CICheckerboardGenerator", "inputWidth=7",
                                                           "inputCenter=[0 0]", "--crop", "0,0,3000,2000", "-o", big],
                                       capture: true)
        #expect(made == 0)
        try tmux.start(["explore", big, "--filter", "CIColorInvert"])
        try tmux.waitFor("the photo is previewed") { $0.contains("big.png 3000×2000") && Tmux.statusLine($0).contains(" ms") }
        tmux.send("p", "Right", "Right", "Right")
        let screen = try tmux.waitFor("the inspector reads a pixel in full-size coordinates") {
            Inspected(statusLine: Tmux.statusLine($0))?.isAt(1503, 1000) == true
        }
        let shown = try #require(Inspected(statusLine: Tmux.statusLine(screen)))
        #expect(shown.srgb == [0, 0, 0, 255] || shown.srgb == [255, 255, 255, 255], "a proxy would show a blend")
        try expectSameAsRender(shown, ["CIColorInvert", "-i", big])
        try tmux.quitAndCheckRestored()
    }

    @Test func dragMovesTheCentreOfADistortionAndAClickPlacesTheInspector() throws {
        let tmux = try Tmux(name: "drag")
        defer { tmux.kill() }
        let config = tmux.stateDirectory.appendingPathComponent("tmux.conf")
        // No status bar: the attached client's 40 rows are all the window's.
        try "set -g mouse on\nset -g status off\n".write(to: config, atomically: true, encoding: .utf8)
        try tmux.start(["explore", "--filter", "CITwirlDistortion"], tmuxConfig: config.path)
        try tmux.waitFor("the twirl is rendered") { Tmux.statusLine($0).contains(" ms ") }
        tmux.send("Tab", "j")
        try tmux.waitFor("the centre is selected") { Tmux.statusLine($0).contains("inputCenter = [256 256]") }
        // Where the preview is: the layout and geometry the explorer uses for a 120×40 screen, four inputs.
        let area = ExplorerLayout(columns: 120, rows: 40, controlCount: 4).preview
        let geometry = PreviewGeometry(imageRect: Rect(x: 0, y: 0, width: 512, height: 512), area: area)
        func expected(_ cell: (x: Int, y: Int)) -> String {
            let p = geometry.imagePoint(cellX: cell.x, cellY: cell.y)
            return "[\(Int(p.x.rounded())) \(Int(p.y.rounded()))]"
        }
        let start = (x: geometry.cells.x + 10, y: geometry.cells.y + 5)
        let middle = (x: geometry.cells.x + 20, y: geometry.cells.y + 12)
        let end = (x: geometry.cells.x + 30, y: geometry.cells.y + 20)

        let client = try TmuxMouseClient(tmux, columns: 120, rows: 40)
        defer { client.close() }
        client.press(start)
        try tmux.waitFor("the press sets the centre") { Tmux.statusLine($0).contains("inputCenter = \(expected(start))") }
        client.drag(middle)
        try tmux.waitFor("the centre follows the drag before the release") {
            Tmux.statusLine($0).contains("inputCenter = \(expected(middle))")
        }
        client.drag(end)
        client.release(end)
        let dropped = try tmux.waitFor("the centre is where the drag ended") {
            Tmux.statusLine($0).contains("inputCenter = \(expected(end))")
                && Tmux.lines($0).contains { $0.contains("▸ Center") && $0.contains(expected(end)) }
        }
        let marker = try Tmux.position(of: "✛", in: dropped)
        #expect(marker.row == end.y && marker.column == end.x, "the marker is under the pointer")

        // A motion after the release changes nothing (no button is held).
        client.drag(start)
        usleep(300_000)
        #expect(Tmux.statusLine(try tmux.capture()).contains("inputCenter = \(expected(end))"))

        // The inspector: a click puts its cursor on the pixel under the pointer.
        tmux.send("p")
        try tmux.waitFor("the inspector opens") { Tmux.statusLine($0).contains("pixel (") }
        client.press(middle)
        client.release(middle)
        let p = geometry.imagePoint(cellX: middle.x, cellY: middle.y)
        let placed = try tmux.waitFor("the click places the cursor") {
            Inspected(statusLine: Tmux.statusLine($0))?.isAt(Int(p.x.rounded(.down)), Int(p.y.rounded(.down))) == true
        }
        let crosshair = try Tmux.position(of: "╋", in: placed)
        #expect(crosshair.row == middle.y && crosshair.column == middle.x)
        tmux.send("Escape")
        try tmux.quitAndCheckRestored()
    }

    @Test func dragMovesARectangleByThePointersMotion() throws {
        let tmux = try Tmux(name: "drag-rect")
        defer { tmux.kill() }
        let config = tmux.stateDirectory.appendingPathComponent("tmux.conf")
        // No status bar: the attached client's 40 rows are all the window's.
        try "set -g mouse on\nset -g status off\n".write(to: config, atomically: true, encoding: .utf8)
        try tmux.start(["explore", "--filter", "CICrop"], tmuxConfig: config.path)
        try tmux.waitFor("the crop is rendered") { Tmux.statusLine($0).contains(" ms ") }
        // The source shown (b), so the preview's frame is the whole image whatever the crop.
        tmux.send("b", "Tab", "j")
        try tmux.waitFor("the rectangle is selected") { Tmux.statusLine($0).contains("inputRectangle = [64 64 384 384]") }
        let area = ExplorerLayout(columns: 120, rows: 40, controlCount: 2).preview
        let geometry = PreviewGeometry(imageRect: Rect(x: 0, y: 0, width: 512, height: 512), area: area)
        let start = (x: geometry.cells.x + 20, y: geometry.cells.y + 10)
        let end = (x: geometry.cells.x + 26, y: geometry.cells.y + 6)
        let a = geometry.imagePoint(cellX: start.x, cellY: start.y), b = geometry.imagePoint(cellX: end.x, cellY: end.y)
        let moved = "[\(64 + Int((b.x - a.x).rounded())) \(64 + Int((b.y - a.y).rounded())) 384 384]"

        let client = try TmuxMouseClient(tmux, columns: 120, rows: 40)
        defer { client.close() }
        client.press(start)
        usleep(200_000)
        #expect(Tmux.statusLine(try tmux.capture()).contains("inputRectangle = [64 64 384 384]"), "a press alone moves nothing")
        client.drag(end)
        client.release(end)
        try tmux.waitFor("the rectangle moved by the pointer's motion, its size kept") {
            Tmux.statusLine($0).contains("inputRectangle = \(moved)")
        }
        try tmux.quitAndCheckRestored()
    }

    @Test func helpScrollsAt40x12AndShowsEverythingAt200x60() throws {
        let tmux = try Tmux(name: "help-size")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CISepiaTone"])
        try tmux.waitFor("the explorer opens") { $0.contains("? help") }
        tmux.resize(columns: 40, rows: 12)
        try tmux.waitFor("too small, saying ? still helps") { $0.contains("too small") && $0.contains("shows the keys") }
        tmux.send("?")
        // The footer (lines 1–n of m, ↓) may come a frame after the title: waited for with it.
        let top = try tmux.waitFor("the help opens, scrollable, its footer saying there is more below") {
            $0.contains("Keys (any key closes) · ↑↓ scroll") && $0.contains("quit (state is saved)")
                && Tmux.lines($0).contains { $0.contains("1–") && $0.trimmingCharacters(in: .whitespaces).hasSuffix("↓") }
        }
        #expect(!top.contains("this help"))
        tmux.send("End")
        let bottom = try tmux.waitFor("End shows the last line") { $0.contains("this help") }
        #expect(!bottom.contains("quit (state is saved)"))
        let footer = try #require(Tmux.lines(bottom).last { $0.contains(" of ") })
        let numbers = footer.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        #expect(numbers.count == 3 && numbers[1] == numbers[2], "the footer says the last row is shown: \(footer)")
        tmux.send("PageUp")
        try tmux.waitFor("PgUp scrolls back a page") { !$0.contains("this help") }
        tmux.send("Home")
        try tmux.waitFor("Home goes back to the top") { $0.contains("quit (state is saved)") }
        tmux.send("x")
        try tmux.waitFor("another key closes it") { $0.contains("too small") }

        tmux.resize(columns: 200, rows: 60)
        try tmux.waitFor("the explorer is back") { $0.contains("Inputs: Sepia Tone") }
        tmux.send("?")
        let all = try tmux.waitFor("the help is drawn") { $0.contains("Keys (any key closes)") && $0.contains("this help (") }
        // Every key and its whole meaning, each on one line, nothing to scroll.
        for (keys, meaning) in Explorer.keyHelp {
            #expect(Tmux.lines(all).contains { $0.contains(keys) && $0.contains(meaning) }, "\(keys): \(meaning)")
        }
        #expect(!all.contains(" of \(Explorer.keyHelp.count)"))
        tmux.send("Escape")
        try tmux.quitAndCheckRestored()
    }

    @Test func statusLineHintsAreShortenedNotCutAtTheSmallestSize() throws {
        let tmux = try Tmux(name: "status-fit")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CITwirlDistortion"])
        try tmux.waitFor("the twirl is rendered") { Tmux.statusLine($0).contains(" ms ") }
        tmux.resize(columns: 60, rows: 16)
        tmux.send("Tab", "j", "Enter")
        let screen = try tmux.waitFor("the point editor's short hint") {
            Tmux.statusLine($0).contains("point: arrows, click, Enter/Esc")
        }
        // The value and the editor's keys, whole; the filter's name, the time and "? help" gave way.
        let status = Tmux.statusLine(screen).trimmingCharacters(in: .whitespaces)
        #expect(status == "inputCenter = [256 256] · point: arrows, click, Enter/Esc", "\(status)")
        // Wider, the name and the full hint come back.
        tmux.resize(columns: 200, rows: 60)
        try tmux.waitFor("the full hint at 200 columns") {
            Tmux.statusLine($0).contains("CITwirlDistortion · inputCenter = [256 256]")
                && Tmux.statusLine($0).contains("point: arrows move (Shift/HJKL ×10), click places, Enter done, Esc cancel")
        }
        tmux.send("Escape")
        try tmux.quitAndCheckRestored()
    }

    /// Ctrl-Z in a shell with job control: the terminal is given back to the shell; `fg` brings the interface
    /// back whole. `kill -TSTP` does the same.
    @Test(arguments: [["C-z"], ["kill"], ["C-z", "kill"]])
    func ctrlZSuspendsAndFgRepaints(stops: [String]) throws {
        let tmux = try Tmux(name: "suspend-\(stops.joined(separator: "-"))")
        defer { tmux.kill() }
        try tmux.startShell()
        tmux.type("'\(try Tmux.binary())' explore --filter CISepiaTone")
        tmux.send("Enter")
        try tmux.waitFor("the explorer opens from the shell") { $0.contains("Inputs: Sepia Tone") && Tmux.statusLine($0).contains(" ms ") }
        #expect(try tmux.format("#{alternate_on}") == "1")

        for (index, stop) in stops.enumerated() {
            let explorer = try tmux.childRunning("explore")
            if stop == "kill" { kill(explorer, SIGTSTP) } else { tmux.send("C-z") }
            do {
                try tmux.waitFor("the shell reports the job stopped (\(stop))", timeout: 20) {
                    $0.contains("Stopped") && Tmux.statusLine($0).hasPrefix("PROMPT$")
                }
            } catch {
                let status = (try? String(contentsOfFile: "/proc/\(explorer)/status", encoding: .utf8)) ?? "gone"
                let lines = status.split(separator: "\n").filter { $0.hasPrefix("Sig") || $0.hasPrefix("Shd") || $0.hasPrefix("State") }
                Issue.record("the explorer's signal state: \(lines)")
                throw error
            }
            #expect(try tmux.format("#{alternate_on}") == "0")
            #expect(try tmux.format("#{cursor_flag}") == "1")
            #expect(try tmux.format("#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}") == "000")
            #expect(try tmux.format("#{keypad_cursor_flag}") == "0")
            tmux.type("clear; case \"$(stty -a)\" in *-icanon*|*' -echo '*) echo TTY:raw;; *) echo TTY:sane;; esac")
            tmux.send("Enter")
            // The answer's own line (the typed command holds both words too).
            func answer(_ screen: String) -> String? {
                Tmux.lines(screen).map { $0.trimmingCharacters(in: .whitespaces) }.last { $0 == "TTY:sane" || $0 == "TTY:raw" }
            }
            let settings = try tmux.waitFor("the shell has its tty settings back (\(stop))") { answer($0) != nil }
            #expect(answer(settings) == "TTY:sane")

            tmux.type("fg")
            tmux.send("Enter")
            let back = try tmux.waitFor("fg repaints the whole interface (\(stop))") {
                $0.contains("cifiltertest · astronaut.png") && $0.contains("Inputs: Sepia Tone") && $0.contains("? help")
                    && answer($0) == nil
            }
            #expect(Tmux.previewRows(back).contains { $0.contains("│") && $0.split(separator: "│").last.map { !$0.trimmingCharacters(in: .whitespaces).isEmpty } == true })
            #expect(try tmux.format("#{alternate_on}") == "1")
            #expect(try tmux.format("#{mouse_button_flag}") == "1")
            // Keys work again: a coarse step down of the intensity (1 → 0.9 → 0.8).
            tmux.send("Tab", "j", "H")
            let intensity = index == 0 ? "0.9" : "0.8"
            try tmux.waitFor("a key after fg changes a value (\(stop))") { Tmux.statusLine($0).contains("inputIntensity = \(intensity) ") }
            tmux.send("Tab")
        }
        tmux.send("q")
        tmux.type("echo EXITED:$?")
        tmux.send("Enter")
        try tmux.waitFor("q still quits with status 0") { $0.contains("EXITED:0") }
    }

    // MARK: Helpers

    /// Renders the inspected pixel with `cifiltertest render … --crop x,y,1,1` (8-bit and 16-bit linear) and checks
    /// the inspector showed the same bytes and, within the display's rounding, the same linear values.
    func expectSameAsRender(_ shown: Inspected, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inspector-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let crop = ["--crop", "\(shown.position.x),\(shown.position.y),1,1"]
        let eight = directory.appendingPathComponent("8.png").path, sixteen = directory.appendingPathComponent("16.png").path
        let (status8, _) = try Tmux.spawn(try Tmux.binary(), ["render"] + arguments + crop + ["-o", eight], capture: true)
        let (status16, _) = try Tmux.spawn(try Tmux.binary(), ["render"] + arguments + crop + ["--16bit", "-o", sixteen], capture: true)
        #expect(status8 == 0 && status16 == 0, sourceLocation: sourceLocation)
        let context = RenderContext()
        let file8 = try ImageFile.read(eight)
        // The 8-bit file read back and encoded again by the same encoder: its own bytes.
        let bytes = try context.renderRGBA8(file8, rect: file8.extent).bytes
        let fileBytes = bytes.prefix(4).map(Int.init)
        #expect(shown.srgb == fileBytes, "8-bit: shown \(shown.srgb), file \(fileBytes)",
                sourceLocation: sourceLocation)
        let file16 = try ImageFile.read(sixteen)
        let p = try context.render(file16, rect: file16.extent).pixel(x: 0, y: 0)
        let linear = [p.x, p.y, p.z, p.w].map(Double.init)
        for (a, b) in zip(shown.linear, linear) {
            #expect(abs(min(max(a, 0), 1) - b) < 1.5e-4, "linear: shown \(shown.linear), file \(linear)", sourceLocation: sourceLocation)
        }
    }
}

/// What the inspector's status line says: "pixel (x,y) · sRGB 8-bit r g b a · linear RGBA r g b a".
struct Inspected {
    let position: (x: Int, y: Int)
    let srgb: [Int]
    let linear: [Double]

    func isAt(_ x: Int, _ y: Int) -> Bool { position.x == x && position.y == y }

    init?(statusLine: String) {
        let parts = statusLine.components(separatedBy: " · ").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let where_ = parts.first(where: { $0.hasPrefix("pixel (") }),
              let srgbPart = parts.first(where: { $0.hasPrefix("sRGB 8-bit ") }),
              let linearPart = parts.first(where: { $0.hasPrefix("linear RGBA ") }) else { return nil }
        let xy = where_.dropFirst("pixel (".count).dropLast().split(separator: ",").compactMap { Int($0) }
        let srgb = srgbPart.dropFirst("sRGB 8-bit ".count).split(separator: " ").compactMap { Int($0) }
        let linear = linearPart.dropFirst("linear RGBA ".count).split(separator: " ").compactMap { Double($0) }
        guard xy.count == 2, srgb.count == 4, linear.count == 4 else { return nil }
        position = (xy[0], xy[1])
        self.srgb = srgb
        self.linear = linear
    }
}

extension Tmux {
    /// The pane shell's child whose command line contains `text` (the shell may also have a finished child not
    /// reaped yet).
    func childRunning(_ text: String) throws -> pid_t {
        let shell = try format("#{pane_pid}")
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        for pid in children.split(separator: " ").compactMap({ pid_t($0) }) {
            let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            if command.contains(text) { return pid }
        }
        throw TmuxError("no process running \(text) under the pane's shell \(shell)")
    }

    /// An interactive shell with job control in the pane (for Ctrl-Z and fg), prompt `PROMPT$ `.
    func startShell() throws {
        let shell = Self.executable("bash").map { "'\($0)' --norc --noprofile -i" } ?? "sh -i"
        let script = "cd /tmp && exec env -i PATH=/usr/bin:/bin HOME=/tmp TERM=tmux-256color LANG=C.UTF-8 PS1='PROMPT$ ' "
            + "XDG_STATE_HOME='\(stateDirectory.path)' XDG_CACHE_HOME='\(stateDirectory.path)/cache' \(shell)"
        try newSession(script: script)
        try waitFor("the shell's prompt") { $0.contains("PROMPT$") }
    }
}

/// A tmux client attached through a pseudo-terminal, writing mouse reports as a terminal does (SGR encoding,
/// 1-based cells): tmux passes them to the explorer in the mode it asked for. (`send-keys` cannot make mouse
/// events.) The tmux server needs `mouse on`.
final class TmuxMouseClient {
    private let master: Int32
    private let pid: pid_t

    init(_ tmux: Tmux, columns: Int, rows: Int) throws {
        // posix_openpt, unlockpt and ptsname are not in the Glibc module: Linux's ioctls do the same.
        let (getNumber, setLock): (UInt, UInt) = (0x8004_5430, 0x4004_5431)  // TIOCGPTN, TIOCSPTLCK
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard master >= 0, ioctl(master, setLock, &unlock) == 0, ioctl(master, getNumber, &number) == 0 else {
            throw TmuxError("cannot open a pseudo-terminal")
        }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slave = "/dev/pts/\(number)"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // In a new session, the terminal opened first becomes the client's controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, master)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        let newSession: Int32 = 0x80  // POSIX_SPAWN_SETSID (not imported)
        posix_spawnattr_setflags(&attributes, Int16(newSession | POSIX_SPAWN_SETSIGMASK))
        let arguments = [Tmux.executable("tmux")!, "-L", tmux.socket, "attach", "-t", "main"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let settings = ["TERM=xterm-256color", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"]
        let environment: [UnsafeMutablePointer<CChar>?] = settings.map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        var child: pid_t = 0
        guard posix_spawn(&child, arguments[0], &actions, &attributes, argv, environment) == 0 else {
            Glibc.close(master)
            throw TmuxError("cannot run tmux attach")
        }
        pid = child
        // The client's screen output is read and dropped, so it never blocks on a full terminal.
        let fd = master
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while read(fd, &buffer, buffer.count) > 0 {}
        }
        // Attached once the server counts two clients' worth of sessions... simply wait for the client to draw.
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline, ((try? tmux.run(["list-clients"])) ?? "").isEmpty { usleep(50_000) }
        usleep(300_000)
    }

    /// Button 1 pressed, dragged (motion with the button held) and released at screen cells (0-based).
    func press(_ cell: (x: Int, y: Int)) { send("\u{1B}[<0;\(cell.x + 1);\(cell.y + 1)M") }
    func drag(_ cell: (x: Int, y: Int)) { send("\u{1B}[<32;\(cell.x + 1);\(cell.y + 1)M") }
    func release(_ cell: (x: Int, y: Int)) { send("\u{1B}[<0;\(cell.x + 1);\(cell.y + 1)m") }

    /// Writes one report as the terminal would.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
        // One report at a time, as a hand moves: each reaches the explorer before the next.
        usleep(150_000)
    }

    func close() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        Glibc.close(master)
    }
}
