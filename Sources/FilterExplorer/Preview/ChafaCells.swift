import CChafa
import Foundation

/// A preview turned into terminal cells: a character and foreground/background colours per cell, the colours
/// being terminal colour numbers for the chosen `ColorMode` (packed RGB in truecolor, -1 for the default).
public struct PreviewCells: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let chars: [UInt32]
    public let foreground: [Int32]
    public let background: [Int32]
}

/// Turns RGBA8 pixels into cells: in truecolor with Unicode, block elements chosen by least squares
/// (`BlockCells`); in the palettes and ASCII with libchafa (the library side of chafa; chafa's
/// `examples/ncurses.c` does the same); without colour, shades. One converter per thread: canvases are not shared.
public final class ChafaConverter {
    private let mode: ColorMode
    private let symbols: OpaquePointer
    private let unicode: Bool

    public init(mode: ColorMode, unicode: Bool) {
        self.mode = mode
        self.unicode = unicode
        symbols = chafa_symbol_map_new()
        if unicode {
            // Blocks, borders and spaces read well at a glance; wide symbols would break the cell grid.
            chafa_symbol_map_add_by_tags(symbols, ChafaSymbolTags(
                CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_BORDER.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue))
            chafa_symbol_map_remove_by_tags(symbols, CHAFA_SYMBOL_TAG_WIDE)
        } else {
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_ASCII)
        }
    }

    deinit { chafa_symbol_map_unref(symbols) }

    /// Without colour (NO_COLOR, `--colors none`): each cell a shade by its mean luminance, so tones show as
    /// tones rather than chafa's two-colour threshold. Light is drawn as ink (the usual light-on-dark terminal).
    /// Where a cell holds an edge (its quarters differ by more than `edgeContrast`), a quadrant block draws its
    /// light quarters instead, so shapes keep twice the detail across and down that whole-cell shades give.
    static let shadeRamp: [Character] = [" ", "░", "▒", "▓", "█"]
    static let asciiRamp: [Character] = [" ", ".", ":", "-", "=", "+", "*", "#", "%", "@"]
    /// Quadrant blocks by their lit quarters: bit 0 top left, 1 top right, 2 bottom left, 3 bottom right.
    static let quadrants: [Character] = [" ", "▘", "▝", "▀", "▖", "▌", "▞", "▛", "▗", "▚", "▐", "▜", "▄", "▙", "▟", "█"]
    static let edgeContrast = 0.35

    static func shades(_ pixels: [UInt8], width: Int, height: Int, columns: Int, rows: Int, unicode: Bool) -> PreviewCells {
        let ramp = unicode ? shadeRamp : asciiRamp
        var chars = [UInt32](repeating: 32, count: columns * rows)
        /// Summed luminance (0…255 a pixel) of a block of pixels, and how many pixels it has.
        func luminance(_ xs: Range<Int>, _ ys: Range<Int>) -> (sum: Double, count: Int) {
            var sum = 0.0, count = 0
            for y in ys.clamped(to: 0..<height) {
                for x in xs.clamped(to: 0..<width) {
                    let i = (y * width + x) * 4
                    // Rec. 709 weights on the encoded values: how light the cell looks.
                    sum += 0.2126 * Double(pixels[i]) + 0.7152 * Double(pixels[i + 1]) + 0.0722 * Double(pixels[i + 2])
                    count += 1
                }
            }
            return (sum, count)
        }
        func level(_ block: (sum: Double, count: Int)) -> Double? { block.count == 0 ? nil : block.sum / Double(block.count) / 255 }
        for row in 0..<rows {
            let y0 = row * height / rows, y1 = max(y0 + 1, (row + 1) * height / rows)
            for column in 0..<columns {
                let x0 = column * width / columns, x1 = max(x0 + 1, (column + 1) * width / columns)
                // A cell of at least 2×2 pixels is read as its quarters (also giving its mean), else whole.
                let xm = (x0 + x1) / 2, ym = (y0 + y1) / 2
                let quarters = unicode && x1 - x0 >= 2 && y1 - y0 >= 2
                    ? [luminance(x0..<xm, y0..<ym), luminance(xm..<x1, y0..<ym), luminance(x0..<xm, ym..<y1), luminance(xm..<x1, ym..<y1)]
                    : nil
                let whole = quarters.map { $0.reduce((sum: 0.0, count: 0)) { ($0.sum + $1.sum, $0.count + $1.count) } }
                    ?? luminance(x0..<x1, y0..<y1)
                let mean = level(whole) ?? 0
                var glyph = ramp[min(ramp.count - 1, Int(mean * Double(ramp.count)))]
                if let quarters {
                    let levels = quarters.map { level($0) ?? mean }
                    let (low, high) = (levels.min()!, levels.max()!)
                    if high - low > edgeContrast {
                        let middle = (low + high) / 2
                        let lit = levels.enumerated().reduce(0) { $0 | ($1.element > middle ? 1 << $1.offset : 0) }
                        glyph = quadrants[lit]
                    }
                }
                chars[row * columns + column] = glyph.unicodeScalars.first!.value
            }
        }
        let none = [Int32](repeating: -1, count: columns * rows)
        return PreviewCells(width: columns, height: rows, chars: chars, foreground: none, background: none)
    }

    private var canvasMode: ChafaCanvasMode {
        switch mode {
        case .truecolor: CHAFA_CANVAS_MODE_TRUECOLOR
        // 240 leaves out the 16 colours a user's theme may have redefined, as the chafa tool does.
        case .indexed256: CHAFA_CANVAS_MODE_INDEXED_240
        case .indexed16: CHAFA_CANVAS_MODE_INDEXED_16
        case .indexed8: CHAFA_CANVAS_MODE_INDEXED_8
        case .monochrome: CHAFA_CANVAS_MODE_FGBG
        }
    }

    /// Converts `pixels` (straight-alpha RGBA8, rows top to bottom) into a `columns`×`rows` canvas.
    public func convert(_ pixels: [UInt8], width: Int, height: Int, columns: Int, rows: Int) -> PreviewCells {
        if mode == .monochrome { return Self.shades(pixels, width: width, height: height, columns: columns, rows: rows, unicode: unicode) }
        // In truecolor the colours need no palette: block elements by least squares match chafa's picture in a
        // tenth of its time (see `BlockCells`). Chafa keeps the palettes and ASCII.
        if mode == .truecolor, unicode {
            return BlockCells.convert(pixels, width: width, height: height, columns: columns, rows: rows)
        }
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        chafa_canvas_config_set_canvas_mode(config, canvasMode)
        chafa_canvas_config_set_symbol_map(config, symbols)
        // Above 0.75 chafa switches to an exhaustive matcher: 135–175 ms instead of ~20 ms for 120×40 cells.
        chafa_canvas_config_set_work_factor(config, 0.5)
        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        pixels.withUnsafeBufferPointer { memory in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, memory.baseAddress,
                                         Int32(width), Int32(height), Int32(width * 4))
        }
        var chars = [UInt32](repeating: 32, count: columns * rows)
        var foreground = [Int32](repeating: -1, count: columns * rows)
        var background = [Int32](repeating: -1, count: columns * rows)
        for y in 0..<rows {
            for x in 0..<columns {
                let i = y * columns + x
                chars[i] = chafa_canvas_get_char_at(canvas, Int32(x), Int32(y))
                var fg: Int32 = -1, bg: Int32 = -1
                // The raw colours are what the mode produced: palette indices in the indexed modes (the
                // non-raw call gives packed RGB whatever the mode), packed RGB in truecolor, -1 transparent.
                chafa_canvas_get_raw_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                foreground[i] = mode == .truecolor ? TerminalPalette.direct(fg) : fg
                background[i] = mode == .truecolor ? TerminalPalette.direct(bg) : bg
            }
        }
        return PreviewCells(width: columns, height: rows, chars: chars, foreground: foreground, background: background)
    }
}
