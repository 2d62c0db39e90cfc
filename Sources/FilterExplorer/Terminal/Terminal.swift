import CNcursesW
import CTerminalSignals
import FilterEngine
import Foundation

/// How many colours the preview may use, chosen from what the terminal reports.
public enum ColorMode: String, Sendable {
    case truecolor, indexed256 = "256", indexed16 = "16", indexed8 = "8", monochrome

    /// Truecolor and 256 colours are chosen only on entries with this many pairs. (Their preview no longer uses
    /// pairs, `DirectCellWriter`; the threshold keeps the choice the tests and users know.)
    public static let minimumPerCellPairs = 4096

    /// The best mode for a terminal with `colors` colours and `pairs` colour pairs. Truecolor and 256 colours
    /// write the preview's colours directly; 16 and 8 colours use one pair per foreground/background combination. `NO_COLOR` (any value) asks for monochrome.
    /// The colours the mode shows (monochrome: 0).
    public var colorCount: Int {
        switch self {
        case .truecolor: 1 << 24
        case .indexed256: 256
        case .indexed16: 16
        case .indexed8: 8
        case .monochrome: 0
        }
    }

    public static func choose(colors: Int, pairs: Int, noColor: Bool) -> ColorMode {
        if noColor || colors < 8 { return .monochrome }
        let perCell = Int(Terminal.previewPairBase) + minimumPerCellPairs
        if colors >= 1 << 24, pairs >= perCell { return .truecolor }
        if colors >= 256, pairs >= perCell { return .indexed256 }
        if colors >= 16, pairs >= Int(Terminal.previewPairBase) + 17 * 17 { return .indexed16 }
        if pairs >= Int(Terminal.previewPairBase) + 9 * 9 { return .indexed8 }
        return .monochrome
    }
}

/// Colour pairs of the interface (the preview's pairs start at `Terminal.previewPairBase`).
public enum UIColor: Int32, CaseIterable, Sendable {
    case title = 1, accent, dim, error, marker, category, sliderFill, ok, swatch
}

/// The ncurses screen. Only the interface thread touches it; everything ncurses is behind this class.
public final class Terminal {
    /// The first colour pair used by preview cells; pairs below are the interface's.
    public static let previewPairBase: Int32 = 32

    public private(set) var colorMode: ColorMode = .monochrome
    public private(set) var colors = 0
    public let unicode: Bool
    /// Set when `TERM` was missing or unknown and a fallback terminal type was used.
    public private(set) var termWarning: String?
    public private(set) var mouseEnabled = false
    private var screen: OpaquePointer?
    /// Where keys are read: stdin, or /dev/tty when stdin is not the terminal (`inputFile` is then open on it).
    private let inputDescriptor: Int32
    private let inputFile: UnsafeMutablePointer<FILE>?
    private var running = false
    private let codes: Key.Codes

    /// Starts curses mode with the colour depth the terminal announces (`ColorDepth.announced`) or `forcedColors`.
    /// Throws if no terminal type works (the terminal is left untouched then).
    public init(forcedColors: ColorMode? = nil) throws {
        setlocale(LC_ALL, "")
        unicode = String(cString: nl_langinfo(nl_item(CODESET))).uppercased().replacingOccurrences(of: "-", with: "") == "UTF8"
        guard isatty(STDOUT_FILENO) != 0 else {
            throw FilterExplorerError("the explorer needs a terminal (stdout must be a tty)")
        }
        // Keys come from stdin when it is the terminal; when it carries data (`explore --video -`), from the
        // process's terminal, /dev/tty.
        if isatty(STDIN_FILENO) != 0 {
            inputDescriptor = STDIN_FILENO
            inputFile = nil
        } else {
            let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0, isatty(fd) != 0, let file = fdopen(fd, "r") else {
                if fd >= 0 { close(fd) }
                throw FilterExplorerError("the explorer needs a terminal to read keys from: stdin is not one and /dev/tty cannot be opened")
            }
            inputDescriptor = fd
            inputFile = file
        }
        // The settings a signal handler puts back if the program must die without leaving curses normally.
        cts_save_terminal(STDOUT_FILENO)
        // Our handlers go in before curses starts. ncurses takes SIGTSTP only when it finds the default action
        // there at newterm; otherwise it leaves SIGTSTP alone for good. Installed after newterm, ours would be
        // swapped for SIG_IGN during every screen update (ncurses shields its own updates that way), and a
        // Ctrl-Z or `kill -TSTP` arriving then would be discarded.
        cts_install(Self.signalGraceSeconds)
        var started = false
        defer { if !started { cts_uninstall() } }
        let environment = ProcessInfo.processInfo.environment
        let requested = environment["TERM"] ?? ""
        // A terminal that cannot address the cursor (TERM=dumb, an editor's shell buffer) would show a blank
        // or garbled screen: refuse, saying why, before touching it.
        if !requested.isEmpty, cnc_probe_addressing(requested) == 0 {
            throw TerminalUnsupported(message: "the explorer needs a terminal that can move the cursor; TERM=\(requested) cannot "
                + "(run it in a terminal emulator, or use `cifiltertest render` for scripts)")
        }
        var announced = ColorMode.monochrome
        // An unknown TERM would make ncurses exit the process; try it, then common relatives.
        for term in [requested, "xterm-256color", "xterm", "vt100"] where !term.isEmpty {
            var terminfoColors: Int32 = 0, rgb: Int32 = 0
            guard cnc_probe_terminal(term, &terminfoColors, &rgb) == 0 else { continue }
            announced = ColorDepth.announced(environment: environment, terminfoColors: Int(terminfoColors),
                                             terminfoRGB: rgb != 0, term: term, forced: forcedColors)
            // Truecolor announced (COLORTERM) on an entry without direct colour: open a direct variant of it.
            var name = term
            if announced == .truecolor, terminfoColors < 1 << 24,
               let variant = ColorDepth.directVariant(of: term, environment: environment) {
                setenv("TERMINFO_DIRS", variant.directory + ":" + (environment["TERMINFO_DIRS"] ?? ""), 1)
                name = variant.name
            }
            let input = inputFile
            func newScreen(_ name: String) -> OpaquePointer? {
                if let input { return cnc_newterm_input(name, input) }
                return cnc_newterm(name)
            }
            if let made = newScreen(name) ?? (name != term ? newScreen(term) : nil) {
                screen = made
                if term != requested {
                    termWarning = requested.isEmpty ? "TERM is not set; using \(term)" : "unknown TERM \(requested); using \(term)"
                }
                break
            }
        }
        guard screen != nil else { throw FilterExplorerError("cannot start the terminal interface (TERM=\(requested))") }
        codes = Key.Codes(
            up: cnc_key_up(), down: cnc_key_down(), left: cnc_key_left(), right: cnc_key_right(),
            shiftLeft: cnc_key_sleft(), shiftRight: cnc_key_sright(), shiftUp: cnc_key_sr(), shiftDown: cnc_key_sf(),
            pageUp: cnc_key_ppage(), pageDown: cnc_key_npage(), home: cnc_key_home(), end: cnc_key_end(),
            enter: cnc_key_enter(), backspace: cnc_key_backspace(), delete: cnc_key_dc(), backTab: cnc_key_btab(),
            f1: cnc_key_f1())
        running = true
        let restore = Self.restoreSequence()
        cts_set_restore_sequence(restore, restore.utf8.count)
        started = true
        cbreak()
        noecho()
        nonl()
        // Ctrl-S is a key here, not XOFF: with flow control on it would stop all output and the interface
        // would look frozen. (The terminal's own setting comes back on exit.)
        var settings = termios()
        if tcgetattr(inputDescriptor, &settings) == 0 {
            settings.c_iflag &= ~tcflag_t(IXON)
            tcsetattr(inputDescriptor, TCSANOW, &settings)
            def_prog_mode()
        }
        keypad(cnc_stdscr(), true)
        curs_set(0)
        // A bare Esc must cancel at once, not after ncurses' default one-second wait for a sequence.
        set_escdelay(25)
        // Clicks are not synthesised from press/release (that adds a delay); we use press and release.
        mouseinterval(0)
        // The loop wakes every 30 ms to pick up finished preview frames.
        timeout(30)
        setupColors(announced: announced)
        setMouse(true)
    }

    deinit { stop() }

    /// Leaves curses mode and restores the terminal; safe to call more than once.
    public func stop() {
        guard running else { return }
        running = false
        if mouseEnabled { setMouse(false) }
        endwin()
        if let screen { delscreen(screen) }
        screen = nil
        cts_uninstall()
    }

    /// How long a quit signal waits for the interface loop to leave normally before the handler restores the
    /// terminal itself and the program dies of the signal (a loop stuck in a system call).
    static let signalGraceSeconds: UInt32 = 2

    /// The bytes that undo curses' screen modes, for a signal handler that cannot call curses: leave the
    /// alternate screen, show the cursor, keypad off, attributes off, and every mouse reporting mode off.
    static func restoreSequence() -> String {
        let names: [String] = ["sgr0", "rmkx", "cnorm", "rmcup"]
        let capabilities = names.compactMap { name -> String? in cnc_tigetstr(name).map { String(cString: $0) } }
        let mouseOff = "\u{1b}[?1000l\u{1b}[?1002l\u{1b}[?1003l\u{1b}[?1006l\u{1b}[?1015l"
        return capabilities.joined() + mouseOff + "\r\n"
    }

    /// How many preview cells can be drawn: unlimited (truecolor and 256 colours are written directly, the
    /// other modes share pairs).
    public var maximumPreviewCells: Int { .max }

    /// Whether the preview's cells are written as escape sequences (`DirectCellWriter`) rather than through
    /// ncurses: in truecolor and 256 colours. 16, 8 colours and monochrome keep ncurses' fixed pairs.
    public var drawsPreviewDirectly: Bool { colorMode == .truecolor || colorMode == .indexed256 }

    /// The colour pair (default colours) of the blank that marks a directly written preview cell in ncurses'
    /// screen model.
    public static let directMarkPair: Int32 = previewPairBase

    private func setupColors(announced: ColorMode) {
        guard has_colors() else { return }
        start_color()
        use_default_colors()
        colors = Int(cnc_colors())
        // The announced depth, as far as the opened terminal entry can go.
        colorMode = ColorMode.choose(colors: min(colors, announced.colorCount), pairs: Int(cnc_color_pairs()),
                                     noColor: announced == .monochrome)
        if announced == .truecolor && colorMode != .truecolor {
            termWarning = [termWarning, "truecolor announced, but no direct-colour terminal entry could be made; using \(colorMode.rawValue) colours"]
                .compactMap { $0 }.joined(separator: "; ")
        }
        // Grey: colour 8 in 16+ colours; in direct colour a number is RGB, so grey is given as RGB.
        let grey: Int32 = colorMode == .truecolor ? 0x80_8080 : colors >= 16 ? 8 : -1
        let table: [(UIColor, Int32, Int32)] = [
            (.title, COLOR_BLACK, COLOR_CYAN), (.accent, COLOR_CYAN, -1), (.dim, grey, -1), (.error, COLOR_RED, -1),
            (.marker, COLOR_YELLOW, COLOR_BLACK), (.category, COLOR_YELLOW, -1), (.sliderFill, COLOR_CYAN, -1),
            (.ok, COLOR_GREEN, -1), (.swatch, -1, -1),
        ]
        for (pair, fg, bg) in table { _ = cnc_init_extended_pair(pair.rawValue, fg, bg) }
        if colorMode == .truecolor || colorMode == .indexed256 { _ = cnc_init_extended_pair(Self.directMarkPair, -1, -1) }
        // 16 and 8 colours: one pair per (foreground, background), index 16 (or 8) being the default colour.
        if colorMode == .indexed16 || colorMode == .indexed8 {
            let n: Int32 = colorMode == .indexed16 ? 16 : 8
            for fg in 0...n {
                for bg in 0...n {
                    _ = cnc_init_extended_pair(Self.previewPairBase + fg * (n + 1) + bg, fg == n ? -1 : fg, bg == n ? -1 : bg)
                }
            }
        }
    }

    // MARK: Size and input

    public var rows: Int { Int(cnc_lines()) }
    public var cols: Int { Int(cnc_cols()) }

    /// Whether the terminal is still there (a hung-up tty has no foreground process group).
    public var isAttached: Bool { isatty(inputDescriptor) != 0 && tcgetpgrp(inputDescriptor) >= 0 }

    /// The signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT ...) that asked us to quit, or 0.
    public var pendingSignal: Int32 { cts_pending_signal() }

    // MARK: Job control

    /// Whether Ctrl-Z (SIGTSTP) asked to suspend.
    public var suspendRequested: Bool { cts_suspend_requested() != 0 }

    /// Leaves curses mode (the shell's tty settings, the normal screen, mouse reporting off) and stops the process
    /// as Ctrl-Z does; returns once it is continued (`fg`). Call `resume` then.
    public func suspend() {
        if mouseEnabled { writeRaw(Self.mouseMotionOff) }
        endwin()
        fflush(nil)
        cts_suspend_now(0)
    }

    /// Whether SIGCONT arrived (after a stop, or sent alone) since the last call.
    public func takeResumed() -> Bool { cts_take_resumed() != 0 }

    /// Back after a stop: curses mode again (the shell may have changed the tty), and every cell repainted on
    /// the next refresh.
    public func resume() {
        // After a stop the handler made itself (a stuck loop), curses still thinks it owns the screen.
        if !isendwin() { endwin() }
        clearok(cnc_stdscr(), true)
        repaintsEverything = true
        CNcursesW.refresh()
        cts_reinstall_tstp()
        if mouseEnabled { setMouse(true) }
    }

    /// How long `readEvent` waits for input, in milliseconds: 30 normally, less while a video or an
    /// animation plays or a preview is awaited, so that finished frames are picked up sooner.
    public func setInputTimeout(milliseconds: Int32) {
        guard milliseconds != inputTimeout else { return }
        inputTimeout = milliseconds
        timeout(milliseconds)
    }
    private var inputTimeout: Int32 = 30

    /// Waits up to the input timeout (30 ms) for a key, a mouse event or a resize; with `waiting` false, only
    /// takes one that is already there.
    public func readEvent(waiting: Bool = true) -> InputEvent? {
        if !waiting { timeout(0) }
        defer { if !waiting { timeout(inputTimeout) } }
        var value: Int32 = 0
        let status = cnc_get_wch(&value)
        if status == cnc_err() { return nil }
        let isKeyCode = status == cnc_key_code_yes()
        if isKeyCode && value == cnc_key_resize() { return .resize }
        if isKeyCode && value == cnc_key_mouse() { return readMouse() }
        return .key(Key.decode(value, isKeyCode: isKeyCode, codes: codes))
    }

    private func readMouse() -> InputEvent? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let state = event.bstate
        let (x, y) = (Int(event.x), Int(event.y))
        if state & cnc_button4_pressed() != 0 { return .mouse(MouseEvent(.wheelUp, x: x, y: y)) }
        if state & cnc_button5_pressed() != 0 { return .mouse(MouseEvent(.wheelDown, x: x, y: y)) }
        if state & cnc_button1_pressed() != 0 { return .mouse(MouseEvent(.press, x: x, y: y)) }
        if state & cnc_button1_released() != 0 { return .mouse(MouseEvent(.release, x: x, y: y)) }
        if state & (cnc_button1_clicked() | cnc_button1_double_clicked()) != 0 { return .mouse(MouseEvent(.click, x: x, y: y)) }
        if state & cnc_report_mouse_position() != 0 { return .mouse(MouseEvent(.drag, x: x, y: y)) }
        return nil
    }

    /// Button-event tracking (xterm mode 1002): motion is reported while a button is held, so a press-drag
    /// reaches us as drag events. ncurses asks only for clicks (mode 1000) on most terminal entries.
    static let mouseMotionOn = "\u{1b}[?1002h"
    static let mouseMotionOff = "\u{1b}[?1002l"

    public func setMouse(_ on: Bool) {
        mouseEnabled = on
        mousemask(on ? cnc_all_mouse_events() : 0, nil)
        // Written after ncurses' mode 1000, which would replace it (terminals keep the last tracking mode set).
        fflush(nil)
        writeRaw(on ? Self.mouseMotionOn : Self.mouseMotionOff)
    }

    // MARK: Drawing

    public func erase() { CNcursesW.erase() }
    public func refresh() { CNcursesW.refresh() }

    /// Writes bytes to the terminal behind ncurses' back (graphics-protocol images), after its output is flushed.
    public func writeRaw(_ text: String) {
        fflush(nil)  // every stream: ncurses writes through its own
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 { if errno == EINTR || errno == EAGAIN { continue } else { return } }
            bytes = bytes.dropFirst(written)
        }
    }
    /// Forgets what ncurses thinks is on the screen, so the next refresh repaints everything (Ctrl-L).
    public func clearAll() {
        clearok(cnc_stdscr(), true)
        repaintsEverything = true
    }

    /// Whether the next refresh repaints the whole screen (Ctrl-L, a resize, back from a stop): what is written
    /// behind ncurses' back must then be written again. Reading it clears it.
    public func takeFullRepaint() -> Bool {
        defer { repaintsEverything = false }
        return repaintsEverything
    }
    private var repaintsEverything = true

    /// Writes bytes to the terminal behind ncurses' back, after its output is flushed.
    public func writeRaw(bytes: [UInt8]) {
        fflush(nil)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 { if errno == EINTR || errno == EAGAIN { continue } else { return } }
            offset += written
        }
    }

    /// Marks a cell as written directly (see `DirectCellWriter`).
    public func markDirectCell(_ y: Int, _ x: Int) {
        _ = cnc_put_cell(Int32(y), Int32(x), wchar_t(32), Self.directMarkPair, cnc_a_normal())
    }

    /// Which of `count` cells of row `y` from column `x` still hold the direct mark (nothing drawn over them).
    public func directCells(_ y: Int, _ x: Int, count: Int) -> [Bool] {
        guard count > 0 else { return [] }
        var marks = [UInt8](repeating: 0, count: count)
        cnc_marked_cells(Int32(y), Int32(x), Int32(count), Self.directMarkPair, &marks)
        return marks.map { $0 != 0 }
    }

    /// Whether ncurses' model holds a plain blank (a space, default colours, no attributes) at (y, x).
    public func isPlainBlank(_ y: Int, _ x: Int) -> Bool { cnc_cell_is_mark(cnc_stdscr(), Int32(y), Int32(x), 0) != 0 }

    /// Whether the next refresh writes to row `y` (its content differs from what ncurses believes is shown).
    public func rowWillChange(_ y: Int) -> Bool { cnc_row_will_change(Int32(y)) != 0 }

    public struct Style: Sendable {
        public var color: UIColor?
        public var bold = false, reverse = false, dim = false, underline = false

        public init(_ color: UIColor? = nil, bold: Bool = false, reverse: Bool = false, dim: Bool = false,
                    underline: Bool = false) {
            (self.color, self.bold, self.reverse, self.dim, self.underline) = (color, bold, reverse, dim, underline)
        }

        public static let plain = Style()
    }

    private func attributes(_ style: Style) -> attr_t {
        var attrs = cnc_a_normal()
        if style.bold { attrs |= cnc_a_bold() }
        if style.reverse { attrs |= cnc_a_reverse() }
        if style.dim || (style.color == .dim && colorMode == .monochrome) { attrs |= cnc_a_dim() }
        if style.underline { attrs |= cnc_a_underline() }
        return attrs
    }

    /// Writes `text` at (y, x), cut at `width` columns (default: to the right edge). Control characters are
    /// drawn escaped (`DisplayText`): no text, wherever it comes from, reaches the terminal as a command.
    public func put(_ y: Int, _ x: Int, _ text: String, width: Int? = nil, _ style: Style = .plain) {
        let limit = min(width ?? Int.max, cols - x)
        guard y >= 0, y < rows, x >= 0, limit > 0 else { return }
        var scalars = Array(DisplayText.escaped(text, limit: limit).unicodeScalars.map { wchar_t(bitPattern: $0.value) }.prefix(limit))
        let count = Int32(scalars.count)
        scalars.append(0)
        let pair = colorMode == .monochrome && style.color != .error ? 0 : Int32(style.color?.rawValue ?? 0)
        _ = cnc_put_string(Int32(y), Int32(x), scalars, count, pair, attributes(style))
    }

    /// Fills a rectangle with spaces in a style (a background for bars and panels).
    public func fill(_ y: Int, _ x: Int, width: Int, height: Int = 1, _ style: Style = .plain) {
        guard width > 0 else { return }
        let blank = String(repeating: " ", count: width)
        for row in y..<(y + height) { put(row, x, blank, width: width, style) }
    }

    /// Draws one cell with a raw colour pair (preview cells).
    public func putCell(_ y: Int, _ x: Int, _ scalar: UInt32, pair: Int32, reverse: Bool = false) {
        _ = cnc_put_cell(Int32(y), Int32(x), wchar_t(bitPattern: scalar), pair, reverse ? cnc_a_reverse() : cnc_a_normal())
    }

    /// Sets a colour pair to terminal colours (colour numbers, or packed RGB on a direct-colour terminal).
    public func setPair(_ pair: Int32, fg: Int32, bg: Int32) {
        // Re-pointing a pair makes ncurses look for it in every cell of the screen (to repaint them): skipped
        // when the pair already has these colours. A 200×60 preview is 8,000 pairs a frame; perf put ~35% of a
        // playing video's time (1080p, 200×60, 2 cores) in that search before this.
        let index = Int(pair)
        if index < pairColors.count, pairColors[index] == (Int64(fg) << 32 | Int64(UInt32(bitPattern: bg))) { return }
        _ = cnc_init_extended_pair(pair, fg, bg)
        if index >= 0 && index < 1 << 20 {
            if index >= pairColors.count { pairColors += [Int64](repeating: .min, count: index + 1 - pairColors.count) }
            pairColors[index] = Int64(fg) << 32 | Int64(UInt32(bitPattern: bg))
        }
    }
    /// The colours each pair was last given through `setPair` (`.min`: unknown), by pair number.
    private var pairColors: [Int64] = []

    /// Sets the swatch pair's background to a colour given in 0…1 sRGB, in the terminal's colour mode.
    public func setSwatch(red: Double, green: Double, blue: Double) {
        let index = TerminalPalette.index(red: red, green: green, blue: blue, mode: colorMode)
        setPair(UIColor.swatch.rawValue, fg: -1, bg: index)
    }
}

/// Maps sRGB colours to terminal colour numbers for the swatch (the preview's colours come from chafa).
public enum TerminalPalette {
    public static func index(red: Double, green: Double, blue: Double, mode: ColorMode) -> Int32 {
        let r = Int((min(max(red, 0), 1) * 255).rounded())
        let g = Int((min(max(green, 0), 1) * 255).rounded())
        let b = Int((min(max(blue, 0), 1) * 255).rounded())
        switch mode {
        case .truecolor: return direct(Int32(r << 16 | g << 8 | b))
        case .indexed256:
            // The 6×6×6 cube of xterm's palette, or its grey ramp when that is closer.
            let levels = [0, 95, 135, 175, 215, 255]
            func nearest(_ v: Int) -> Int { levels.indices.min { abs(levels[$0] - v) < abs(levels[$1] - v) }! }
            let (cr, cg, cb) = (nearest(r), nearest(g), nearest(b))
            let cubeError = sq(levels[cr] - r) + sq(levels[cg] - g) + sq(levels[cb] - b)
            let grey = min(23, max(0, ((r + g + b) / 3 - 8 + 5) / 10))
            let greyValue = 8 + grey * 10
            let greyError = sq(greyValue - r) + sq(greyValue - g) + sq(greyValue - b)
            return Int32(greyError < cubeError ? 232 + grey : 16 + 36 * cr + 6 * cg + cb)
        case .indexed16, .indexed8:
            let bright = (r + g + b) / 3 > 170 && mode == .indexed16
            let bits = (r > 100 ? 1 : 0) | (g > 100 ? 2 : 0) | (b > 100 ? 4 : 0)
            return Int32(bits + (bright ? 8 : 0))
        case .monochrome: return -1
        }
    }

    private static func sq(_ v: Int) -> Int { v * v }

    /// A packed RGB colour as a direct-colour terminal number: numbers below 8 mean the eight ANSI colours
    /// (the theme's, e.g. red for 1), so the near-blacks #000000–#000007 are sent as #000008.
    @inline(__always) public static func direct(_ packed: Int32) -> Int32 { packed >= 0 && packed < 8 ? 8 : packed }
}

/// An error the explorer shows as a message (not a crash).
public struct FilterExplorerError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The terminal cannot run a full-screen program (no cursor addressing): the command says so and exits 2.
public struct TerminalUnsupported: Error, Sendable {
    public let message: String
}
