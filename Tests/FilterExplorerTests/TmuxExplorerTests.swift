import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// End-to-end tests: the real `cifiltertest` binary driven in a detached tmux session, the screen read with
/// `capture-pane`. Each test has its own tmux socket (`tmux -L`) and kills its server when done. They poll the
/// screen with a timeout instead of sleeping. Skipped (with the reason) when tmux is not installed.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: the end-to-end explorer tests need it"))
struct TmuxExplorerTests {
    /// The shared helper every tmux test starts its server with: a socket of its own (also for two tests of one
    /// name) and a session that answers before the test goes on.
    @Test func tmuxTestsHaveTheirOwnSocketAndWaitForTheirServer() throws {
        let first = try Tmux(name: "own-socket"), second = try Tmux(name: "own-socket")
        defer { first.kill(); second.kill() }
        #expect(first.socket != second.socket)
        try first.newSession(script: "exec sleep 60")
        try second.newSession(script: "exec sleep 60")
        #expect((try? first.run(["has-session", "-t", "main"])) != nil)
        second.kill()
        #expect((try? first.run(["has-session", "-t", "main"])) != nil, "killing one server leaves the other")
    }

    @Test func fidelityMarksAndDetails() throws {
        let tmux = try Tmux(name: "fidelity")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIBoxBlur"])
        try tmux.waitFor("the inputs header carries the status, the tree the mark") {
            $0.contains("Inputs: Box Blur (CIBoxBlur) · ✓ verified") && $0.contains("✓ • Box Blur")
        }
        tmux.send("i")
        try tmux.waitFor("the details show the evidence") {
            $0.contains("Details (any key closes)") && $0.contains("Fidelity: ✓ verified")
                && $0.contains("conformance CIBoxBlur/7DCF5DCD")
        }
        tmux.send("Escape")
        try tmux.waitFor("any key closes the details") { !$0.contains("Details (any key closes)") }
    }

    @Test func openBrowseSearchSliderAndQuit() throws {
        let tmux = try Tmux(name: "open")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CISepiaTone"])
        try tmux.waitFor("opens on the sample with its inputs") {
            $0.contains("astronaut.png 512×512") && $0.contains("Inputs: Sepia Tone") && $0.contains("ms · ? help")
        }

        // Browse: go to the top of the list and open the first category.
        tmux.send("g", "Enter")
        try tmux.waitFor("the Distortion Effect category opens") {
            $0.contains("▾ Distortion Effect") && $0.contains("Twirl Distortion")
        }

        // Search: incremental, the filter is selected and its inputs shown.
        tmux.send("/")
        tmux.type("vignette")
        tmux.send("Enter")
        try tmux.waitFor("the search selects CIVignette") { $0.contains("Inputs: Vignette (CIVignette)") }
        try tmux.waitFor("the vignette is rendered") { Tmux.statusLine($0).contains(" ms ") }

        // A slider: the status value and the preview's cells change.
        tmux.send("Tab", "j")
        try tmux.waitFor("the Intensity input is selected") { Tmux.statusLine($0).contains("inputIntensity = 0") }
        let before = try tmux.capture(colors: true)
        tmux.send("L", "L", "L")
        let status = try tmux.waitFor("the intensity rises by three coarse steps") {
            Tmux.statusLine($0).contains("inputIntensity = 0.6")
        }
        #expect(Tmux.statusLine(status).contains("CIVignette"))
        try tmux.waitFor("the preview's cells change", colors: true) {
            Tmux.previewRows($0) != Tmux.previewRows(before)
        }

        try tmux.quitAndCheckRestored()
    }

    @Test func pointEditorColourEditorAndBeforeAfter() throws {
        let tmux = try Tmux(name: "edit")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CITwirlDistortion"])
        try tmux.waitFor("twirl opens with its centre at the image centre") {
            $0.contains("Inputs: Twirl Distortion") && $0.contains("[256 256]") && Tmux.statusLine($0).contains(" ms ")
        }
        tmux.send("Tab", "j")
        let selected = try tmux.waitFor("the centre's marker is drawn on the preview") { $0.contains("✛") }
        let markerBefore = try Tmux.position(of: "✛", in: selected)

        // Point editor: Enter, then arrows move the marker; Esc puts it back.
        tmux.send("Enter")
        try tmux.waitFor("the point editor opens") { Tmux.statusLine($0).contains("point: arrows move") }
        tmux.send("L", "L", "K")
        let moved = try tmux.waitFor("the centre moves right and up") { $0.contains("[358 307]") }
        let markerAfter = try Tmux.position(of: "✛", in: moved)
        #expect(markerAfter.column > markerBefore.column)
        #expect(markerAfter.row < markerBefore.row)
        tmux.send("Escape")
        try tmux.waitFor("Esc restores the centre") { $0.contains("[256 256]") && !Tmux.statusLine($0).contains("point:") }

        // Colour editor on a colour filter: step the red component, then type a hex colour.
        tmux.send("/")
        tmux.type("monochrome")
        tmux.send("Enter")
        try tmux.waitFor("Color Monochrome is selected") { $0.contains("Inputs: Color Monochrome") }
        tmux.send("Tab", "j", "Enter")
        try tmux.waitFor("the colour editor opens") { Tmux.statusLine($0).contains("colour: ") }
        tmux.send("H", "H")
        try tmux.waitFor("red drops by two coarse steps") { $0.contains("r 0.40") }
        tmux.send("#")
        try tmux.waitFor("hex entry opens") { Tmux.statusLine($0).contains("inputColor = #") }
        tmux.send("C-u")
        tmux.type("#ff0000")
        tmux.send("Enter")  // accepts the hex value and closes the colour editor
        let red = try tmux.waitFor("the colour is pure red", colors: true) {
            $0.contains("#ff0000ff") && !Tmux.statusLine($0).contains("colour:")
        }
        // The swatch is drawn in the colour (xterm-256 red is 196).
        #expect(red.contains("48;5;196m"))

        // Before/after: the title says which, and the preview shows the source.
        let after = try tmux.capture(colors: true)
        tmux.send("b")
        try tmux.waitFor("before shows the source", colors: true) {
            $0.contains("BEFORE") && Tmux.previewRows($0) != Tmux.previewRows(after)
        }
        tmux.send("b")
        try tmux.waitFor("after again") { !$0.contains("BEFORE") }

        try tmux.quitAndCheckRestored()
    }

    @Test func colourCubeLooksAndCubeFiles() throws {
        let tmux = try Tmux(name: "cube")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIColorCube"])
        try tmux.waitFor("the cube opens on its stock look, rendered") {
            $0.contains("Inputs: Color Cube (CIColorCube)") && $0.contains("◂ Warm (32³) ▸") && Tmux.statusLine($0).contains(" ms ")
        }
        tmux.send("Tab", "j", "j")
        try tmux.waitFor("the cube data is selected") { Tmux.statusLine($0).contains("inputCubeData = Warm (32³)") }
        let before = try tmux.capture(colors: true)

        // → steps to the next look: the status and the preview's cells change.
        tmux.send("l")
        try tmux.waitFor("the next look is chosen") { Tmux.statusLine($0).contains("inputCubeData = Cool (32³)") }
        try tmux.waitFor("the preview's cells change", colors: true) { Tmux.previewRows($0) != Tmux.previewRows(before) }

        // Enter reads a .cube file: a malformed one is refused with its line number and the look stays.
        let bad = tmux.stateDirectory.appendingPathComponent("bad.cube")
        try "LUT_3D_SIZE 2\n0 0 0\n1 x 0\n".write(to: bad, atomically: true, encoding: .utf8)
        tmux.send("Enter")
        try tmux.waitFor("the file prompt opens") { Tmux.statusLine($0).contains("inputCubeData (.cube file or look): Cool") }
        tmux.send("C-u")
        tmux.type(bad.path)
        tmux.send("Enter")
        try tmux.waitFor("the error names the line") { $0.contains("bad.cube: .cube line 3: cannot read") }
        tmux.send("Escape")
        try tmux.waitFor("the look stays") { $0.contains("◂ Cool (32³) ▸") && !Tmux.statusLine($0).contains(".cube file or look") }

        try tmux.quitAndCheckRestored()
    }

    @Test func toneCurveEditor() throws {
        let tmux = try Tmux(name: "curve")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIToneCurve"])
        try tmux.waitFor("tone curve opens") { $0.contains("Inputs: Tone Curve") && Tmux.statusLine($0).contains(" ms ") }
        tmux.send("Tab", "j", "j")
        try tmux.waitFor("point 1 is selected and the curve is drawn") {
            Tmux.statusLine($0).contains("inputPoint1 = [0.25 0.25]") && $0.contains("Tone curve (Enter edits)")
        }
        tmux.send("Enter")
        try tmux.waitFor("the curve editor opens") { Tmux.statusLine($0).contains("curve: Tab/0-4 point") }
        tmux.send("K")
        try tmux.waitFor("point 1 rises") { $0.contains("point 1 [0.25 0.35]") }
        // Tab selects the next point; its input stops short of its neighbour's.
        tmux.send("Tab", "L", "L", "L", "L", "L")
        try tmux.waitFor("point 2 moves right as far as point 3 allows") { Tmux.statusLine($0).contains("inputPoint2 = [0.74 0.5]") }
        tmux.send("Escape")
        try tmux.waitFor("Esc puts every point back") {
            $0.contains("[0.25 0.25]") && $0.contains("[0.5 0.5]") && $0.contains("Tone curve (Enter edits)")
        }
        try tmux.quitAndCheckRestored()
    }

    @Test func generatorResizeAndSignals() throws {
        let tmux = try Tmux(name: "resize")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CICheckerboardGenerator"])
        try tmux.waitFor("the generator is rendered, cropped to the view") {
            $0.contains("Inputs: Checkerboard") && Tmux.statusLine($0).contains(" ms ")
        }

        tmux.resize(columns: 50, rows: 12)
        try tmux.waitFor("a clear message below the minimum size") { $0.contains("too small") && $0.contains("60×16") }
        tmux.resize(columns: 120, rows: 40)
        try tmux.waitFor("the explorer comes back") {
            $0.contains("Inputs: Checkerboard") && Tmux.statusLine($0).contains(" ms ")
        }

        // SIGTERM: the terminal is restored and the exit status says why.
        let pid = try tmux.explorerPID()
        kill(pid, SIGTERM)
        try tmux.waitFor("the explorer exits on SIGTERM") { $0.contains("EXITED:143") }
        try tmux.expectRestored()
    }

    @Test func transitionStartsHalfWayAndAnimatesThenAReductionShowsAsABand() throws {
        let tmux = try Tmux(name: "families")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIPageCurlTransition"])
        let opened = try tmux.waitFor("the page curl opens half-way with its shading ball") {
            $0.contains("Inputs: Page Curl (CIPageCurlTransition)") && $0.contains("shading (lit ball)")
                && Tmux.statusLine($0).contains(" ms ")
        }
        #expect(Tmux.value(of: "Time", in: opened) == "0.5")
        #expect(Tmux.value(of: "Extent", in: opened) == "[0 0 512 512]")
        let before = try tmux.capture(colors: true)

        // a animates the time input: the value moves on and the preview follows; a again stops.
        tmux.send("a")
        try tmux.waitFor("the time moves on") { ["0.5", nil].contains(Tmux.value(of: "Time", in: $0)) == false }
        try tmux.waitFor("the preview's cells change", colors: true) { Tmux.previewRows($0) != Tmux.previewRows(before) }
        tmux.send("a")
        try tmux.waitFor("the animation stops") { $0.contains("animation stopped") }

        // A reduction: the 64×1 histogram is enlarged into a band of bars, not one line of cells.
        tmux.send("/")
        tmux.type("area histogram")
        tmux.send("Enter")
        func drawnRows(_ screen: String) -> Int {
            Tmux.previewRows(screen).filter { row in
                guard let bar = row.firstIndex(of: "│") else { return false }
                return row[row.index(after: bar)...].contains { $0 != " " }
            }.count
        }
        // The page curl filled every preview row; the band fills a quarter of them.
        let histogram = try tmux.waitFor("the area histogram is rendered as a band") {
            $0.contains("Inputs: Area Histogram (CIAreaHistogram)") && Tmux.statusLine($0).contains(" ms ")
                && drawnRows($0) >= 4 && drawnRows($0) <= Tmux.previewRows($0).count / 2
        }
        #expect(Tmux.statusLine(histogram).contains("CIAreaHistogram"))
        #expect(Tmux.value(of: "Scale", in: histogram) == "16")
        try tmux.quitAndCheckRestored()
    }

    /// Every quit signal, sent by `kill` or typed (Ctrl-C, Ctrl-\\): the terminal is restored (screen modes and
    /// tty settings) and the program dies of the signal, so the shell sees 128+n.
    @Test(arguments: [
        ("TERM", SIGTERM, nil), ("INT", SIGINT, nil), ("HUP", SIGHUP, nil), ("QUIT", SIGQUIT, nil),
        ("Ctrl-C", SIGINT, "C-c"), ("Ctrl-\\", SIGQUIT, "C-\\"),
    ] as [(String, Int32, String?)])
    func quitSignalsRestoreTheTerminal(name: String, signal: Int32, key: String?) throws {
        let tmux = try Tmux(name: "signal-\(signal)-\(key == nil ? "kill" : "key")")
        defer { tmux.kill() }
        try tmux.start(["explore"])
        try tmux.waitFor("the explorer opens") { $0.contains("? help") }
        if let key {
            tmux.send(key)
        } else {
            Glibc.kill(try tmux.explorerPID(), signal)
        }
        try tmux.waitFor("\(name) ends it with status \(128 + signal)") { $0.contains("EXITED:\(128 + signal)") }
        try tmux.expectRestored()
    }

    /// A crash: the explorer's handler restores the terminal before the Swift runtime's crash reporter runs, and
    /// the reporter does not stop to wait for a key (the explorer starts it with interactive=no).
    @Test func crashRestoresTheTerminalAndDoesNotWait() throws {
        let tmux = try Tmux(name: "crash")
        defer { tmux.kill() }
        try tmux.start(["explore"])
        try tmux.waitFor("the explorer opens") { $0.contains("? help") }
        Glibc.kill(try tmux.explorerPID(), SIGSEGV)
        let screen = try tmux.waitFor("the crash ends it with status 139", timeout: 60) { $0.contains("EXITED:139") }
        #expect(!screen.contains("Press space"))
        try tmux.expectRestored()
    }

    /// Ctrl-S (XOFF) must not freeze the interface: flow control is off while the explorer runs, on again after.
    @Test func ctrlSDoesNotFreezeTheInterface() throws {
        let tmux = try Tmux(name: "xoff")
        defer { tmux.kill() }
        try tmux.start(["explore"])
        try tmux.waitFor("the explorer opens") { $0.contains("? help") }
        tmux.send("C-s")
        tmux.send("?")
        try tmux.waitFor("the help still opens after Ctrl-S", timeout: 5) { $0.contains("Keys (any key closes)") }
        tmux.send("Escape")
        try tmux.quitAndCheckRestored()
    }

    @Test func zoomOneToOneFullScreenAndPan() throws {
        let tmux = try Tmux(name: "zoom")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CITwirlDistortion"])
        try tmux.waitFor("opens fitted") { $0.contains("· fit ") && Tmux.statusLine($0).contains(" ms ") }
        tmux.send("+")
        try tmux.waitFor("+ zooms in, the level in the header") { $0.contains("· zoom ") }
        tmux.send("1")
        try tmux.waitFor("1 is one image pixel per preview pixel") { $0.contains("· 1:1 ·") }
        tmux.send("Tab", "j")
        try tmux.waitFor("the centre input is selected") { Tmux.statusLine($0).contains("inputCenter") }
        tmux.send("f", "+")
        try tmux.waitFor("f hides the list and the inputs") {
            // (The header's end, "full screen (f)", may be cut: the twirl's output is larger than the photo.)
            !$0.contains("Inputs:") && !$0.contains("Distortion Effect")
                && $0.contains("zoom 200%")
        }
        // Zoomed around the image centre, where the twirl's centre is: its marker is mid-screen.
        let marked = try tmux.waitFor("the centre's marker is drawn on the zoomed preview") { $0.contains("✛") }
        let marker = try Tmux.position(of: "✛", in: marked)
        #expect(abs(marker.column - 60) <= 1 && abs(marker.row - 20) <= 1, "marker at \(marker)")
        // Arrows pan in full screen: the marker moves left as the view moves right.
        tmux.send("Right")
        let panned = try tmux.waitFor("the view pans right") {
            guard let p = try? Tmux.position(of: "✛", in: $0) else { return true }
            return p.column < marker.column
        }
        if let p = try? Tmux.position(of: "✛", in: panned) { #expect(p.row == marker.row) }
        tmux.send("0", "f")
        try tmux.waitFor("0 fits, f restores the list") { $0.contains("· fit ") && $0.contains("Inputs: Twirl") }
        try tmux.quitAndCheckRestored()
    }

    @Test func dumbTerminalIsRefusedWithAReason() throws {
        let tmux = try Tmux(name: "dumb")
        defer { tmux.kill() }
        try tmux.start(["explore"], environment: ["TERM": "dumb"])
        let screen = try tmux.waitFor("a one-line reason and exit status 2") { $0.contains("EXITED:2") }
        #expect(screen.contains("needs a terminal that can move the cursor; TERM=dumb cannot"))
    }

    @Test func noColorShadesInputHelpOutputExtentAndReductionValues() throws {
        let tmux = try Tmux(name: "nocolor")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIAreaAverage"], environment: ["NO_COLOR": "1"])
        let screen = try tmux.waitFor("the average shows as a shade, the extent in the title") {
            $0.contains("output 1×1") && Tmux.statusLine($0).contains(" ms ")
        }
        // The astronaut's mean luminance is mid-dark: a medium shade, not chafa's 1-bit threshold.
        #expect(Tmux.previewRows(screen).contains { $0.contains("▒▒▒▒") })
        tmux.send("Tab", "j")
        try tmux.waitFor("the selected input's description, default and type under the inputs") {
            // The value the explorer starts at (what r resets to), not Apple's [0 0 640 80].
            $0.contains("rectangle · default [0 0 512 512] · ")
        }
        tmux.send("i")
        try tmux.waitFor("the details give the average's numbers") {
            $0.contains("Output values") && $0.contains("(0,0) linear RGBA 0.") && $0.contains("sRGB 8-bit")
        }
        tmux.send("Escape")
        try tmux.quitAndCheckRestored()
    }

    @Test func graphicsProtocolSymbolsInTmuxUnlessForced() throws {
        let tmux = try Tmux(name: "graphics")
        defer { tmux.kill() }
        // Inside tmux (TMUX set, as for anyone running it there) the default is symbols, even in kitty.
        try tmux.start(["explore", "--filter", "CISepiaTone"], environment: ["TMUX": "/tmp/x,1,0", "KITTY_WINDOW_ID": "1"])
        let symbols = try tmux.waitFor("symbols by default") { Tmux.statusLine($0).contains(" ms ") }
        #expect(!symbols.contains("graphics "))
        try tmux.quitAndCheckRestored()

        let forced = try Tmux(name: "graphics-kitty")
        defer { forced.kill() }
        let output = forced.stateDirectory.appendingPathComponent("pane-output").path
        try forced.start(["explore", "--filter", "CISepiaTone", "--graphics", "kitty"])
        forced.pipeOutput(to: output)
        try forced.waitFor("forced kitty is named in the header") {
            $0.contains("graphics kitty") && Tmux.statusLine($0).contains(" ms ")
        }
        // Any key writes the image again: a kitty image (transmit and display) at the preview's place.
        forced.send("C-l")
        var bytes = ""
        for _ in 0..<50 {
            bytes = (try? String(contentsOfFile: output, encoding: .isoLatin1)) ?? ""
            if bytes.contains("\u{1B}_Ga=T") { break }
            usleep(100_000)
        }
        #expect(bytes.contains("\u{1B}7\u{1B}[2;") && bytes.contains("\u{1B}_Ga=T"))
        // Help over the preview removes the image (kitty keeps images until told).
        forced.send("?")
        try forced.waitFor("help opens") { $0.contains("Keys (any key closes)") }
        usleep(300_000)
        let after = (try? String(contentsOfFile: output, encoding: .isoLatin1)) ?? ""
        #expect(after.contains("\u{1B}_Ga=d,d=A\u{1B}\\"))
        forced.send("Escape")
        try forced.quitAndCheckRestored()
    }

    @Test func helpThenCtrlC() throws {
        let tmux = try Tmux(name: "ctrlc")
        defer { tmux.kill() }
        try tmux.start(["explore"])
        try tmux.waitFor("the explorer opens") { $0.contains("? help") }
        tmux.send("?")
        // The help is longer than 40 rows now: it scrolls (End shows its last entries).
        try tmux.waitFor("the help lists the keys") { $0.contains("Keys (any key closes)") && $0.contains("quit (state is saved)") }
        tmux.send("End")
        try tmux.waitFor("the help scrolls to its end") { $0.contains("Ctrl-L") }
        tmux.send("Escape")
        tmux.send("C-c")
        try tmux.waitFor("Ctrl-C ends it") { $0.contains("EXITED:130") }
        try tmux.expectRestored()
    }
}

final class SocketCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}

/// A detached tmux server on its own socket running the explorer.
struct Tmux {
    static let isAvailable: Bool = executable("tmux") != nil

    let socket: String
    let stateDirectory: URL

    /// Sockets made so far by this process: two servers never share one, even for tests of the same name.
    private static let socketCount = SocketCounter()

    init(name: String) throws {
        socket = "cifiltertest-\(name)-\(getpid())-\(Self.socketCount.next())"
        stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try? FileManager.default.removeItem(at: stateDirectory)
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
    }

    /// Runs the binary with `arguments` in a 120×40 pane; the shell prints its exit status and stays open.
    func start(_ arguments: [String], environment: [String: String] = [:], tmuxConfig: String = "/dev/null") throws {
        let binary = try Self.binary()
        let command = ([binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        // A clean environment: no NO_COLOR or COLORTERM from whoever runs the tests.
        // The shell traps SIGINT (a handler, not an ignore, so the explorer gets the default) to outlive a Ctrl-C
        // sent to the whole foreground group and report the explorer's status.
        // QUIT too (Ctrl-\\); no core files. After the program the shell prints its status and whether the tty
        // settings are back (canonical mode and echo on).
        let script = "trap : INT QUIT; ulimit -c 0; cd /tmp && env -i PATH=/usr/bin:/bin HOME=/tmp TERM=tmux-256color LANG=C.UTF-8 "
            + "XDG_STATE_HOME='\(stateDirectory.path)' XDG_CACHE_HOME='\(stateDirectory.path)/cache' "
            + environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)' " }.joined()
            + "\(command); echo EXITED:$?; "
            + "case \"$(stty -a)\" in *-icanon*|*' -echo '*) echo TTY:raw;; *) echo TTY:sane;; esac; exec sleep 600"
        try newSession(script: script, tmuxConfig: tmuxConfig)
    }

    /// Starts the detached 120×40 session "main" running `script` on this test's server, and waits until the
    /// server answers for it. A server that fails to start (a CI run's `new-session` once did) or never
    /// answers is killed and started again, up to four times. Every test starts its server here.
    func newSession(script: String, tmuxConfig: String = "/dev/null") throws {
        var failure: Error = TmuxError("tmux new-session was not run")
        for attempt in 0..<4 {
            if attempt > 0 {
                _ = try? run(["kill-server"])
                usleep(UInt32(200_000 * attempt))
            }
            do {
                // Not captured: the server forked here would hold the pipe open and reading it would never end.
                try run(["-f", tmuxConfig, "new-session", "-d", "-x", "120", "-y", "40", "-s", "main", "sh", "-c", script],
                        capture: false)
            } catch {
                failure = error
                continue
            }
            for _ in 0..<100 {
                if (try? run(["has-session", "-t", "main"])) != nil { return }
                usleep(20_000)
            }
            failure = TmuxError("the tmux server \(socket) did not answer for its session")
        }
        throw failure
    }

    /// Copies everything the program writes to the pane (escape sequences included) to `path`.
    func pipeOutput(to path: String) {
        _ = try? run(["pipe-pane", "-t", "main", "-o", "cat >> '\(path)'"])
    }

    func send(_ keys: String...) {
        _ = try? run(["send-keys", "-t", "main"] + keys)
    }

    /// Types text literally (no key-name lookup).
    func type(_ text: String) {
        _ = try? run(["send-keys", "-t", "main", "-l", text])
    }

    func resize(columns: Int, rows: Int) {
        _ = try? run(["resize-window", "-t", "main", "-x", "\(columns)", "-y", "\(rows)"])
    }

    func capture(colors: Bool = false) throws -> String {
        try run(["capture-pane", "-p", "-t", "main"] + (colors ? ["-e"] : []))
    }

    /// tmux's paste buffers (an OSC 52 sequence written to the pane would add one).
    func buffers() throws -> String {
        try run(["list-buffers"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func format(_ variable: String) throws -> String {
        try run(["display-message", "-p", "-t", "main", variable]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen every 50 ms until `condition` holds, for at most `timeout` seconds.
    @discardableResult
    func waitFor(_ what: String, colors: Bool = false, timeout: TimeInterval = 15,
                 _ condition: (String) -> Bool) throws -> String {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var screen = ""
        while Date() < deadline {
            screen = (try? capture(colors: colors)) ?? ""
            if condition(screen) { return screen }
            usleep(50_000)
        }
        // The screen also goes to a file: test logs mangle the block characters of the preview.
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-timeout.txt")
        try? screen.write(to: dump, atomically: true, encoding: .utf8)
        Issue.record("timed out waiting until \(what); the screen (also in \(dump.path)) was:\n\(screen)")
        throw TmuxError("timed out: \(what)")
    }

    /// Polls until the screen has not changed for `quiet` seconds (a render and its refinement drawn), and
    /// returns it.
    @discardableResult
    func waitUntilStill(colors: Bool = false, quiet: TimeInterval = 0.4, timeout: TimeInterval = 15) throws -> String {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var screen = try capture(colors: colors)
        var since = Date()
        while Date() < deadline {
            usleep(100_000)
            let again = try capture(colors: colors)
            if again != screen {
                screen = again
                since = Date()
            } else if Date().timeIntervalSince(since) >= quiet {
                return screen
            }
        }
        Issue.record("the screen kept changing for \(timeout) s")
        throw TmuxError("timed out: the screen kept changing")
    }

    /// Quits with q and checks the exit status and the terminal's state.
    func quitAndCheckRestored() throws {
        send("q")
        try waitFor("the explorer exits on q") { $0.contains("EXITED:0") }
        try expectRestored()
    }

    /// After curses: the alternate screen is left, the cursor shown, mouse reporting and keypad mode off, and
    /// the tty back in canonical mode with echo.
    func expectRestored() throws {
        try waitFor("the shell reports the tty settings restored") { $0.contains("TTY:sane") || $0.contains("TTY:raw") }
        #expect(try capture().contains("TTY:sane"))
        #expect(try format("#{alternate_on}") == "0")
        #expect(try format("#{cursor_flag}") == "1")
        #expect(try format("#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}") == "000")
        #expect(try format("#{keypad_cursor_flag}") == "0")
    }

    /// The explorer's process: the child of the pane's shell.
    func explorerPID() throws -> pid_t {
        let shell = try format("#{pane_pid}")
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        guard let pid = children.split(separator: " ").first.flatMap({ pid_t($0) }) else {
            throw TmuxError("no explorer process under the pane's shell \(shell)")
        }
        return pid
    }

    func kill() {
        _ = try? run(["kill-server"])
        // The server is gone once its socket no longer answers.
        for _ in 0..<40 where (try? run(["list-sessions"])) != nil { usleep(50_000) }
        if (try? run(["list-sessions"])) != nil { Issue.record("the tmux server \(socket) did not exit") }
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        try? FileManager.default.removeItem(atPath: "\(directory)/tmux-\(getuid())/\(socket)")
        try? FileManager.default.removeItem(at: stateDirectory)
    }

    @discardableResult
    func run(_ arguments: [String], capture: Bool = true) throws -> String {
        let (status, output) = try Self.spawn(Self.executable("tmux")!, ["-L", socket] + arguments, capture: capture)
        guard status == 0 else {
            throw TmuxError("tmux \(arguments.joined(separator: " ")) failed (\(status))")
        }
        return output
    }

    /// Runs a program and waits for it with posix_spawn and waitpid. (Foundation's `Process.waitUntilExit` can
    /// hang inside Swift Testing's thread pool on Linux: the child is left a zombie and never reaped.)
    static func spawn(_ path: String, _ arguments: [String], capture: Bool) throws -> (Int32, String) {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw TmuxError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if capture {
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addclose(&actions, pipe[1])
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The test runner's threads block most signals and a spawned process inherits that mask: a tmux server
        // started with it never finishes kill-server (it waits for SIGCHLD). Start children with none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE, SIGWINCH] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else { throw TmuxError("cannot run \(path): error \(spawned)") }
        var data = [UInt8]()
        if capture {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(pipe[0], &buffer, buffer.count)
                if n <= 0 { break }
                data += buffer[0..<n]
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, String(decoding: data, as: UTF8.self))
    }

    // MARK: Reading the screen

    static func lines(_ screen: String) -> [Substring] { screen.split(separator: "\n", omittingEmptySubsequences: false) }

    /// The last non-empty line: the status line.
    static func statusLine(_ screen: String) -> String {
        String(lines(screen).last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "")
    }

    /// The rows that hold the preview (between the title bar and the inputs' header).
    static func previewRows(_ screen: String) -> [Substring] {
        let all = lines(screen)
        let end = all.firstIndex { $0.contains("Inputs:") } ?? min(all.count, 20)
        return Array(all[min(1, end)..<end])
    }

    /// The value at the end of the control row labelled `label` (the last word of the row), if shown.
    static func value(of label: String, in screen: String) -> String? {
        guard let row = lines(screen).first(where: { $0.contains("  \(label) ") && $0.contains("│") }) else { return nil }
        let text = row.trimmingCharacters(in: .whitespaces)
        if let open = text.lastIndex(of: "["), text.hasSuffix("]") { return String(text[open...]) }
        return text.split(separator: " ").last.map(String.init)
    }

    /// Row and column (in characters) of the first occurrence of `text`.
    static func position(of text: String, in screen: String) throws -> (row: Int, column: Int) {
        for (row, line) in lines(screen).enumerated() {
            if let range = line.range(of: text) { return (row, line.distance(from: line.startIndex, to: range.lowerBound)) }
        }
        throw TmuxError("\(text) is not on the screen")
    }

    // MARK: Finding programs

    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The `cifiltertest` binary: `$CIFILTERTEST_BIN`, or the one built beside this test bundle.
    static func binary() throws -> String {
        if let explicit = ProcessInfo.processInfo.environment["CIFILTERTEST_BIN"] { return explicit }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("cifiltertest")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            directory = directory.deletingLastPathComponent()
        }
        throw TmuxError("cifiltertest is not built beside the tests (\(CommandLine.arguments[0])); build it or set CIFILTERTEST_BIN")
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Saved state that names bad images, and a session that died: the explorer starts, says why, and stays usable.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: the end-to-end explorer tests need it"))
struct TmuxExplorerStateTests {
    @Test func badSavedImagesAndADeadSessionStartWithWarnings() throws {
        let tmux = try Tmux(name: "badstate")
        defer { tmux.kill() }
        let directory = tmux.stateDirectory.appendingPathComponent("folder.png")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fifo = tmux.stateDirectory.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let stateDirectory = tmux.stateDirectory.appendingPathComponent("cifiltertest")
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        let state: [String: Any] = [
            "version": 1, "lastFilter": "CISepiaTone",
            "values": [
                "CISepiaTone": ["inputImage": "file:\(directory.path)", "inputIntensity": "0.5"],
                "CIColorInvert": ["inputImage": "file:\(fifo)"],
                "CIZoomBlur": ["inputAmount": "1e30"],
            ],
        ]
        try JSONSerialization.data(withJSONObject: state).write(to: stateDirectory.appendingPathComponent("state.json"))
        // The last session died on the zoom blur.
        try Data("CIZoomBlur".utf8).write(to: stateDirectory.appendingPathComponent("state.json.open"))

        try tmux.start(["explore"])
        try tmux.waitFor("the explorer opens with both warnings") {
            $0.contains("Inputs: Sepia Tone") && $0.contains("is a directory") && $0.contains("ended abruptly on CIZoomBlur")
        }
        tmux.send("/")
        tmux.type("color invert")
        tmux.send("Enter")
        try tmux.waitFor("the FIFO is refused at once", timeout: 5) {
            $0.contains("Inputs: Color Invert") && $0.contains("named pipe")
        }
        // The zoom blur starts from its defaults (its saved 1e30 was dropped).
        tmux.send("/")
        tmux.type("zoom blur")
        tmux.send("Enter")
        try tmux.waitFor("the zoom blur renders from its defaults") {
            $0.contains("Inputs: Zoom Blur") && Tmux.value(of: "Amount", in: $0) == "20" && Tmux.statusLine($0).contains(" ms ")
        }
        try tmux.quitAndCheckRestored()
        #expect(!FileManager.default.fileExists(atPath: stateDirectory.appendingPathComponent("state.json.open").path),
                "a normal exit removes the session marker")
    }

    /// A value holding an OSC 52 sequence (set the clipboard) is drawn escaped: the terminal (tmux, which
    /// honours OSC 52 into its paste buffers) never receives it.
    @Test func controlSequencesInValuesAreDrawnEscaped() throws {
        let tmux = try Tmux(name: "osc52")
        defer { tmux.kill() }
        let stateDirectory = tmux.stateDirectory.appendingPathComponent("cifiltertest")
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        let state: [String: Any] = [
            "version": 1, "lastFilter": "CITextImageGenerator",
            "values": ["CITextImageGenerator": ["inputText": "hi\u{1b}]52;c;aGVsbG8=\u{07}\u{1b}[2J"]],
        ]
        try JSONSerialization.data(withJSONObject: state).write(to: stateDirectory.appendingPathComponent("state.json"))
        // tmux turns an OSC 52 sequence from the program into a paste buffer with set-clipboard on.
        let config = tmux.stateDirectory.appendingPathComponent("tmux.conf")
        try "set -g set-clipboard on\n".write(to: config, atomically: true, encoding: .utf8)
        try tmux.start(["explore"], tmuxConfig: config.path)
        tmux.send("Tab", "j")
        try tmux.waitFor("the text value is shown escaped") {
            $0.contains("Inputs: Text Image") && $0.contains("hi\\e]52;c;aGVsbG8=^G\\e[2J")
        }
        let buffers = try tmux.buffers()
        #expect(buffers.isEmpty, "the terminal received an OSC 52 sequence: \(buffers)")
        try tmux.quitAndCheckRestored()
    }
}

/// Colour depth as terminals announce it, and the flag that forces it.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: the end-to-end explorer tests need it"))
struct TmuxColorDepthTests {
    @Test(arguments: [
        ([:], [], "colours 256", "38;5;"),
        (["COLORTERM": "truecolor"], [], "colours truecolor", "38;2;"),
        (["COLORTERM": "24bit"], ["--colors", "16"], "colours 16", nil),
        (["NO_COLOR": "1", "COLORTERM": "truecolor"], [], "colours monochrome", nil),
        ([:], ["--colors", "truecolor"], "colours truecolor", "38;2;"),
    ] as [([String: String], [String], String, String?)])
    func announcedOrForcedDepth(environment: [String: String], flags: [String], header: String, sequence: String?) throws {
        let tmux = try Tmux(name: "colors-\(header.split(separator: " ").last!)-\(flags.count)")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CISepiaTone"] + flags, environment: environment)
        try tmux.waitFor("the header says \(header)") { $0.contains(header) && Tmux.statusLine($0).contains(" ms ") }
        if let sequence {
            try tmux.waitFor("the preview uses \(sequence) colours", colors: true) { $0.contains(sequence) }
        }
        // Grey interface text (the CI names in the list) stays visible in direct colour: mid-grey RGB, not
        // colour number 8 (which direct colour reads as the near-black #000008).
        if header.hasSuffix("truecolor") { #expect(try tmux.capture(colors: true).contains("38;2;128;128;128m")) }
        try tmux.quitAndCheckRestored()
    }
}
