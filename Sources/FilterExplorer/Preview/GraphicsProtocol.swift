import CChafa
import Foundation

/// How the preview reaches the screen: character cells (symbols, through ncurses, any terminal), or true
/// pixels through a terminal graphics protocol that libchafa (1.12 here) can print: kitty, sixel, iTerm2.
public enum GraphicsProtocol: String, Sendable, CaseIterable {
    case symbols, kitty, sixel, iterm

    public static func parse(_ text: String) -> GraphicsProtocol? {
        switch text.lowercased() {
        case "symbols", "none", "cells": .symbols
        case "kitty": .kitty
        case "sixel", "sixels": .sixel
        case "iterm", "iterm2": .iterm
        default: nil
        }
    }

    /// The protocol the terminal offers, judged from the environment as chafa does (its terminal database reads
    /// TERM, TERM_PROGRAM, KITTY_WINDOW_ID, VTE_VERSION ...), kitty first, then iTerm2, then sixel. Inside tmux or
    /// screen the protocols do not pass through: symbols.
    public static func detect(environment: [String: String]) -> GraphicsProtocol {
        let term = environment["TERM"] ?? ""
        if environment["TMUX"] != nil || environment["STY"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux") {
            return .symbols
        }
        if environment["KITTY_WINDOW_ID"] != nil || term.contains("kitty") { return .kitty }
        if environment["TERM_PROGRAM"] == "iTerm.app" { return .iterm }
        let info = ChafaTerminal.detect(environment: environment)
        defer { chafa_term_info_unref(info) }
        if chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1) != 0 { return .kitty }
        if chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE) != 0 { return .iterm }
        if chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_SIXELS) != 0 { return .sixel }
        return .symbols
    }

    var pixelMode: ChafaPixelMode {
        switch self {
        case .symbols: CHAFA_PIXEL_MODE_SYMBOLS
        case .kitty: CHAFA_PIXEL_MODE_KITTY
        case .sixel: CHAFA_PIXEL_MODE_SIXELS
        case .iterm: CHAFA_PIXEL_MODE_ITERM2
        }
    }

    /// What removes a shown image before the next one (kitty keeps images until told; the others are
    /// overwritten by what is drawn over them).
    var clearSequence: String {
        self == .kitty ? "\u{1B}_Ga=d,d=A\u{1B}\\" : ""
    }
}

/// chafa's terminal database, for the sequences of a protocol.
enum ChafaTerminal {
    /// The terminal chafa recognises in `environment` (a new reference: unref it).
    static func detect(environment: [String: String]) -> OpaquePointer {
        var strings = environment.map { strdup("\($0.key)=\($0.value)") }
        strings.append(nil)
        defer { for s in strings { free(s) } }
        return strings.withUnsafeMutableBufferPointer { envp in
            chafa_term_db_detect(chafa_term_db_get_default(), envp.baseAddress)
        }
    }

    /// The detected terminal's sequences, supplemented with chafa's fallback ones so a forced protocol prints
    /// even where the database does not know the terminal has it.
    static func printingInfo(environment: [String: String]) -> OpaquePointer {
        let info = detect(environment: environment)
        let fallback = chafa_term_db_get_fallback_info(chafa_term_db_get_default())
        chafa_term_info_supplement(info, fallback)
        chafa_term_info_unref(fallback)
        return info
    }
}

/// Converts RGBA8 pixels into one graphics-protocol image (the escape sequence that draws it) filling
/// `columns`×`rows` cells. One per thread.
final class ChafaPixelPrinter {
    let graphics: GraphicsProtocol
    private let termInfo: OpaquePointer

    init(graphics: GraphicsProtocol, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.graphics = graphics
        termInfo = ChafaTerminal.printingInfo(environment: environment)
    }

    deinit { chafa_term_info_unref(termInfo) }

    func print(_ pixels: [UInt8], width: Int, height: Int, columns: Int, rows: Int) -> String {
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        chafa_canvas_config_set_pixel_mode(config, graphics.pixelMode)
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        // The preview is rendered at 8×16 pixels a cell (PreviewGeometry.pixelsPerCell).
        chafa_canvas_config_set_cell_geometry(config, Int32(PreviewGeometry.pixelsPerCell.x), Int32(PreviewGeometry.pixelsPerCell.y))
        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        pixels.withUnsafeBufferPointer { memory in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, memory.baseAddress,
                                         Int32(width), Int32(height), Int32(width * 4))
        }
        guard let printed = chafa_canvas_print(canvas, termInfo) else { return "" }
        defer { g_string_free(printed, 1) }
        return String(cString: printed.pointee.str)
    }
}
