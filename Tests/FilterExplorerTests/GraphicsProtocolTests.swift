import Foundation
import Testing
@testable import FilterExplorer

/// Graphics protocols: which one the environment offers, and the images libchafa prints for each.
@Suite struct GraphicsProtocolTests {
    @Test(arguments: [
        (["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"], GraphicsProtocol.kitty),
        (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], .iterm),
        (["TERM": "foot"], .sixel),
        (["TERM": "mlterm"], .sixel),
        (["TERM": "xterm-256color"], .symbols),
        (["TERM": "dumb"], .symbols),
        // Inside tmux or screen, whatever the outer terminal: symbols.
        (["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "1"], .symbols),
        (["TERM": "screen-256color", "TERM_PROGRAM": "iTerm.app"], .symbols),
    ])
    func detection(environment: [String: String], expected: GraphicsProtocol) {
        #expect(GraphicsProtocol.detect(environment: environment) == expected, "\(environment)")
    }

    @Test func parsing() {
        #expect(GraphicsProtocol.parse("Sixel") == .sixel)
        #expect(GraphicsProtocol.parse("iterm2") == .iterm)
        #expect(GraphicsProtocol.parse("symbols") == .symbols)
        #expect(GraphicsProtocol.parse("ascii") == nil)
    }

    @Test(arguments: [(GraphicsProtocol.kitty, "\u{1B}_G"), (.sixel, "\u{1B}P"), (.iterm, "\u{1B}]1337;File=")])
    func eachProtocolPrintsItsImage(graphics: GraphicsProtocol, start: String) {
        // 4×2 cells of a red-to-blue gradient, 8×16 pixels a cell.
        let (width, height) = (32, 32)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height { for x in 0..<width {
            let i = (y * width + x) * 4
            pixels[i] = UInt8(255 * x / (width - 1)); pixels[i + 1] = 0; pixels[i + 2] = UInt8(255 - 255 * x / (width - 1))
        } }
        let printer = ChafaPixelPrinter(graphics: graphics, environment: ["TERM": "xterm-256color"])
        let image = printer.print(pixels, width: width, height: height, columns: 4, rows: 2)
        #expect(image.contains(start), "\(image.prefix(40).debugDescription)")
        #expect(image.utf8.count > 40)
    }
}
