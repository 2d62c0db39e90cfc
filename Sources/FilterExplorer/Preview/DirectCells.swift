/// Writes preview cells straight to the terminal as escape sequences (truecolor `38;2`/`48;2`, 256 colours
/// `38;5`/`48;5`), as chafa's own tool prints, instead of one ncurses colour pair per cell: re-pointing thousands
/// of pairs a frame made ncurses search and repaint the whole screen.
///
/// ncurses keeps the rest of the interface. Each preview cell is left in its screen model as a blank in
/// `Terminal.directMarkPair` (the mark); anything drawn over the preview (help, editors, markers, messages)
/// replaces the mark, so a cell still marked after drawing is ours. The bytes are written after ncurses'
/// refresh, so they land on top of whatever it wrote. Only cells that changed since the last write go out, plus
/// every marked cell of a row ncurses is about to write to (it may clear or rewrite cells it believes blank
/// there), and everything after a full repaint.
struct DirectCellWriter {
    struct Cell: Equatable {
        var char: UInt32
        var foreground: Int32
        var background: Int32
    }

    let mode: ColorMode
    /// In truecolor, a cell showing the same character in colours within this many levels (each channel) of
    /// the new frame's is left as it is: a slider step moves most colours by a level or two, and each cell
    /// written costs the terminal ~35 bytes to parse. What is shown never drifts further than this from the
    /// frame (the comparison is with what is on the screen), and rows ncurses rewrites are written exactly.
    static let truecolorTolerance: Int32 = 2
    /// What was last written at each screen position (`nil`: unknown, ncurses may have drawn there).
    private var shown: [Cell?] = []
    private var screen = (columns: 0, rows: 0)

    init(mode: ColorMode) { self.mode = mode }

    /// Forgets what is on the screen: the next write sends every cell.
    mutating func forget() { shown = [] }

    /// The bytes that bring the terminal's preview cells up to date, or an empty array when none changed.
    /// `owned[y * cells.width + x]` says which cells are still marked; `rowsRewritten[y]` (by preview row) which
    /// rows ncurses writes to in this refresh. Cells written before and outside this frame are blanked where
    /// `isBlank(y, x)` says ncurses' model holds a plain blank there: it believes them blank already (the mark
    /// looks like one), so it would leave the old picture (a smaller frame, no frame).
    mutating func bytes(for cells: PreviewCells, originX: Int, originY: Int, screenColumns: Int, screenRows: Int,
                        owned: [Bool], rowsRewritten: [Bool], isBlank: (Int, Int) -> Bool = { _, _ in true }) -> [UInt8] {
        if screen != (screenColumns, screenRows) || shown.count != screenColumns * screenRows {
            screen = (screenColumns, screenRows)
            shown = [Cell?](repeating: nil, count: screenColumns * screenRows)
        }
        var out: [UInt8] = []
        out.reserveCapacity(cells.width * cells.height * 12)
        var current: (fg: Int32, bg: Int32)?
        for position in shown.indices where shown[position] != nil {
            let (y, x) = (position / screenColumns, position % screenColumns)
            guard y < originY || y >= originY + cells.height || x < originX || x >= originX + cells.width else { continue }
            shown[position] = nil
            if isBlank(y, x) { blank(y, x, &out, &current) }
        }
        for y in 0..<cells.height {
            let screenY = originY + y
            guard screenY >= 0, screenY < screenRows else { continue }
            var cursorAt = -1  // the column the terminal's cursor is at after our last character, if on this row
            for x in 0..<cells.width {
                let screenX = originX + x
                guard screenX >= 0, screenX < screenColumns else { continue }
                let i = y * cells.width + x
                let position = screenY * screenColumns + screenX
                guard owned[i] else {
                    // Something of the interface is drawn here; if it is a plain blank ncurses may not write it.
                    if shown[position] != nil, isBlank(screenY, screenX) {
                        blank(screenY, screenX, &out, &current)
                        cursorAt = -1
                    }
                    shown[position] = nil
                    continue
                }
                let cell = Cell(char: cells.chars[i], foreground: cells.foreground[i], background: cells.background[i])
                guard rowsRewritten[y] || !looksTheSame(shown[position], cell) else { continue }
                if out.isEmpty { out += Self.saveCursor }
                if cursorAt != screenX { Self.moveCursor(screenY, screenX, &out) }
                if current == nil || current! != (cell.foreground, cell.background) {
                    out += Self.csi
                    appendColor(cell.foreground, background: false, to: &out)
                    out.append(UInt8(ascii: ";"))
                    appendColor(cell.background, background: true, to: &out)
                    out.append(UInt8(ascii: "m"))
                    current = (cell.foreground, cell.background)
                }
                Self.appendUTF8(cell.char, to: &out)
                cursorAt = screenX + 1
                shown[position] = cell
            }
        }
        guard !out.isEmpty else { return [] }
        // Attributes back to normal (what ncurses leaves after a refresh), the cursor where ncurses left it.
        out += Self.csi + Array("0m".utf8) + Self.restoreCursor
        return out
    }

    /// Whether `shown` already shows `cell`: equal, or in truecolor the same character in colours each within
    /// `truecolorTolerance` of the cell's.
    func looksTheSame(_ shown: Cell?, _ cell: Cell) -> Bool {
        guard let shown else { return false }
        if shown == cell { return true }
        guard mode == .truecolor, shown.char == cell.char else { return false }
        func near(_ a: Int32, _ b: Int32) -> Bool {
            guard a >= 0, b >= 0 else { return a == b }
            let t = Self.truecolorTolerance
            return abs((a >> 16 & 0xFF) - (b >> 16 & 0xFF)) <= t && abs((a >> 8 & 0xFF) - (b >> 8 & 0xFF)) <= t
                && abs((a & 0xFF) - (b & 0xFF)) <= t
        }
        // A space shows only its background.
        return (cell.char == 32 || near(shown.foreground, cell.foreground)) && near(shown.background, cell.background)
    }

    /// A blank in default colours at (y, x), where ncurses' model has one (its mark looked the same to it).
    private func blank(_ y: Int, _ x: Int, _ out: inout [UInt8], _ current: inout (fg: Int32, bg: Int32)?) {
        if out.isEmpty { out += Self.saveCursor }
        Self.moveCursor(y, x, &out)
        out += Self.csi + Array("39;49m ".utf8)
        current = (-1, -1)
    }

    /// CUP to the 0-based screen position (y, x).
    private static func moveCursor(_ y: Int, _ x: Int, _ out: inout [UInt8]) {
        out += csi
        appendNumber(y + 1, to: &out)
        out.append(UInt8(ascii: ";"))
        appendNumber(x + 1, to: &out)
        out.append(UInt8(ascii: "H"))
    }

    static let csi: [UInt8] = [0x1B, UInt8(ascii: "[")]
    static let saveCursor: [UInt8] = [0x1B, UInt8(ascii: "7")]
    static let restoreCursor: [UInt8] = [0x1B, UInt8(ascii: "8")]

    /// SGR parameters for a colour: the terminal's default for -1, an index in 256 colours, RGB in truecolor.
    private func appendColor(_ color: Int32, background: Bool, to out: inout [UInt8]) {
        if color < 0 {
            out += background ? Array("49".utf8) : Array("39".utf8)
            return
        }
        out += background ? Array("48;".utf8) : Array("38;".utf8)
        if mode == .truecolor {
            out += Array("2;".utf8)
            Self.appendNumber(Int(color >> 16 & 0xFF), to: &out)
            out.append(UInt8(ascii: ";"))
            Self.appendNumber(Int(color >> 8 & 0xFF), to: &out)
            out.append(UInt8(ascii: ";"))
            Self.appendNumber(Int(color & 0xFF), to: &out)
        } else {
            out += Array("5;".utf8)
            Self.appendNumber(Int(color), to: &out)
        }
    }

    static func appendNumber(_ value: Int, to out: inout [UInt8]) {
        if value >= 10 { appendNumber(value / 10, to: &out) }
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        // Only printable characters reach the terminal (chafa gives blocks, borders, spaces or ASCII).
        guard scalar >= 0x20, scalar != 0x7F, !(0x80..<0xA0).contains(scalar), Unicode.Scalar(scalar) != nil else {
            out.append(UInt8(ascii: " "))
            return
        }
        switch scalar {
        case ..<0x80: out.append(UInt8(scalar))
        case ..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
