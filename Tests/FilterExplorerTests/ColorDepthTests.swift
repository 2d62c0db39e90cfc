import Testing
@testable import FilterExplorer

@Suite struct ColorDepthTests {
    func depth(_ environment: [String: String] = [:], colors: Int = 256, rgb: Bool = false, term: String = "xterm-256color",
               forced: ColorMode? = nil) -> ColorMode {
        ColorDepth.announced(environment: environment, terminfoColors: colors, terminfoRGB: rgb, term: term, forced: forced)
    }

    @Test func announcedDepths() {
        #expect(depth() == .indexed256)
        #expect(depth(["COLORTERM": "truecolor"]) == .truecolor)
        #expect(depth(["COLORTERM": "24bit"]) == .truecolor)
        #expect(depth(["COLORTERM": "yes"]) == .indexed256)
        #expect(depth(rgb: true) == .truecolor)
        #expect(depth(term: "xterm-direct") == .truecolor)
        #expect(depth(colors: 1 << 24) == .truecolor)
        #expect(depth(colors: 16, term: "xterm-16color") == .indexed16)
        #expect(depth(colors: 8, term: "xterm") == .indexed8)
        #expect(depth(colors: -1, term: "vt100") == .monochrome)
        #expect(depth(["NO_COLOR": "1", "COLORTERM": "truecolor"], rgb: true) == .monochrome)
        #expect(depth(["NO_COLOR": ""]) == .indexed256, "an empty NO_COLOR is not set")
        #expect(depth(["NO_COLOR": "1"], forced: .indexed16) == .indexed16, "the flag wins")
        #expect(depth(["COLORTERM": "truecolor"], forced: .indexed8) == .indexed8)
    }

    @Test func flagValues() {
        #expect(ColorDepth.parse("truecolor") == .truecolor && ColorDepth.parse("24bit") == .truecolor)
        #expect(ColorDepth.parse("256") == .indexed256 && ColorDepth.parse("16") == .indexed16 && ColorDepth.parse("8") == .indexed8)
        #expect(ColorDepth.parse("none") == .monochrome && ColorDepth.parse("mono") == .monochrome)
        #expect(ColorDepth.parse("lots") == nil)
    }

    @Test func directColourNumbersAvoidTheANSIRange() {
        #expect(TerminalPalette.direct(0) == 8 && TerminalPalette.direct(7) == 8)
        #expect(TerminalPalette.direct(8) == 8 && TerminalPalette.direct(0xFF0000) == 0xFF0000 && TerminalPalette.direct(-1) == -1)
        #expect(TerminalPalette.index(red: 0, green: 0, blue: 0, mode: .truecolor) == 8)
    }
}
