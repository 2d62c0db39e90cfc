import Foundation
import Testing

/// What the preview itself shows, driven end to end in tmux (see `Tmux`): a large photo first previewed from a
/// proxy with its mark, then refined at full size; transparent output over the grey checkerboard.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: the end-to-end explorer tests need it"))
struct TmuxPreviewTests {
    @Test func aLargePhotoShowsAProxyOrBusyMarkThenTheRefinedFrame() throws {
        let tmux = try Tmux(name: "preview-proxy")
        defer { tmux.kill() }
        let big = tmux.stateDirectory.appendingPathComponent("big.png").path
        let (made, _) = try Tmux.spawn(try Tmux.binary(), ["render", "CICheckerboardGenerator", "inputWidth=37",
                                                           "--crop", "0,0,4000,3000", "-o", big], capture: true)
        #expect(made == 0)
        // A bokeh blur is slow at full size (seconds on 12 MP), so the proxy frame and the busy mark stay long
        // enough to be read.
        try tmux.start(["explore", big, "--filter", "CIBokehBlur"])
        try tmux.waitFor("a proxy frame or the busy mark", timeout: 30) {
            let status = Tmux.statusLine($0)
            return status.contains("(proxy ÷") || status.contains("rendering…")
        }
        try tmux.waitFor("the full-size refinement replaces the proxy", timeout: 120) {
            let status = Tmux.statusLine($0)
            return status.contains(" ms") && !status.contains("proxy") && !status.contains("rendering…")
        }
        try tmux.quitAndCheckRestored()
    }

    @Test func transparentOutputIsShownOverTheGreyCheckerboard() throws {
        let tmux = try Tmux(name: "preview-matte")
        defer { tmux.kill() }
        // Text on a transparent background, in true colour so the greys can be read back exactly.
        try tmux.start(["explore", "--filter", "CITextImageGenerator", "--colors", "truecolor"])
        let screen = try tmux.waitFor("the text is rendered", colors: true) { Tmux.statusLine($0).contains(" ms") }
        // The checkerboard's two greys (204 and 153, squares of half a cell) appear as cell colours.
        let greys = Set(Self.rgbColours(in: screen).filter { $0.r == $0.g && $0.g == $0.b }.map(\.r))
        #expect(greys.contains(204) && greys.contains(153), "greys drawn: \(greys.sorted())")
        try tmux.quitAndCheckRestored()
    }

    /// Every 24-bit colour of an SGR sequence (`38;2;r;g;b` or `48;2;r;g;b`) in a `capture-pane -e` screen.
    static func rgbColours(in screen: String) -> [(r: Int, g: Int, b: Int)] {
        let pattern = try! NSRegularExpression(pattern: "[34]8;2;(\\d+);(\\d+);(\\d+)")
        let text = screen as NSString
        return pattern.matches(in: screen, range: NSRange(location: 0, length: text.length)).map { match in
            let n = (1...3).map { Int(text.substring(with: match.range(at: $0)))! }
            return (n[0], n[1], n[2])
        }
    }
}
