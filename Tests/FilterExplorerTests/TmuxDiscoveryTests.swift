import FilterEngine
@testable import FilterExplorer
import Foundation
import Testing

/// What a newcomer finds without the README: the key bar, the split view, names as `info` takes them, searches
/// that fail where they are, generators that open on a picture. Through the real binary in tmux.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: the end-to-end explorer tests need it"))
struct TmuxDiscoveryTests {
    /// The row above the status line (the key bar from 20 rows on).
    static func keyBar(_ screen: String) -> String {
        let rows = Tmux.lines(screen).enumerated().filter { !$0.element.trimmingCharacters(in: .whitespaces).isEmpty }
        guard rows.count >= 2 else { return "" }
        return String(rows[rows.count - 2].element)
    }

    @Test func theKeyBarShowsTheContextsKeysAndGivesWayOnSmallTerminals() throws {
        let tmux = try Tmux(name: "keybar")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CISepiaTone"])
        tmux.resize(columns: 80, rows: 24)
        let narrow = try tmux.waitFor("the key bar at 80×24") {
            Self.keyBar($0).contains("? help") && Tmux.statusLine($0).contains(" ms ")
        }
        let bar80 = Self.keyBar(narrow)
        for key in ["/ search", "e export", "c chain", "? help"] { #expect(bar80.contains(key), "\(bar80)") }
        #expect(bar80.count <= 80)

        tmux.resize(columns: 200, rows: 60)
        let wide = try tmux.waitFor("more keys at 200×60") { Self.keyBar($0).contains("f full screen") }
        let bar200 = Self.keyBar(wide)
        for key in ["e export", "c chain", "a animate", "i details", "| split", "p pixel", "? help"] {
            #expect(bar200.contains(key), "\(bar200)")
        }

        // The inputs have their own keys.
        tmux.send("Tab")
        try tmux.waitFor("the inputs' keys") { Self.keyBar($0).contains("← → adjust") && Self.keyBar($0).contains("u undo") }

        // 60×16: no room for the bar; the status line keeps "? help".
        tmux.resize(columns: 60, rows: 16)
        try tmux.waitFor("the bar gives way, ? help stays") {
            Tmux.statusLine($0).contains("? help") && !$0.contains("e export")
        }

        // The help explains the fidelity marks.
        tmux.resize(columns: 200, rows: 60)
        tmux.send("?")
        try tmux.waitFor("the marks' legend in the help") {
            $0.contains("fidelity mark in the list: verified, matches a real Apple render") && $0.contains("fidelity mark in the list: approximate")
        }
        tmux.send("Escape")
        tmux.send("i")
        try tmux.waitFor("the legend in the details") { $0.contains("The marks in the list: ✓ verified · ƒ formula") }
        tmux.send("Escape")
        try tmux.quitAndCheckRestored()
    }

    @Test func theSplitViewTogglesAndItsDividerMoves() throws {
        let tmux = try Tmux(name: "split")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIColorInvert"])
        try tmux.waitFor("the inverted picture", colors: true) { Tmux.statusLine($0).contains(" ms ") }
        let after = try tmux.waitUntilStill(colors: true)
        tmux.send("|")
        let half = try tmux.waitFor("split: source left, output right", colors: true) {
            $0.contains("split: before | after") && Tmux.previewRows($0) != Tmux.previewRows(after)
        }
        tmux.send("}", "}", "}")
        let moved = try tmux.waitFor("the divider moves right", colors: true) {
            $0.contains("split at 65%") && Tmux.previewRows($0) != Tmux.previewRows(half)
        }
        tmux.send("{")
        try tmux.waitFor("and back left", colors: true) {
            $0.contains("split at 60%") && Tmux.previewRows($0) != Tmux.previewRows(moved)
        }
        // b still toggles the whole view; | ends the split.
        tmux.send("b")
        try tmux.waitFor("before") { $0.contains("BEFORE") }
        tmux.send("b", "|")
        try tmux.waitFor("the whole output again", colors: true) {
            $0.contains("after (b: before)") && Tmux.previewRows($0) == Tmux.previewRows(after)
        }
        try tmux.quitAndCheckRestored()
    }

    @Test func theSplitViewsDividerFollowsAMouseDrag() throws {
        let tmux = try Tmux(name: "split-drag")
        defer { tmux.kill() }
        let config = tmux.stateDirectory.appendingPathComponent("tmux.conf")
        try "set -g mouse on\nset -g status off\n".write(to: config, atomically: true, encoding: .utf8)
        try tmux.start(["explore", "--filter", "CIColorInvert"], tmuxConfig: config.path)
        try tmux.waitFor("the inverted picture") { Tmux.statusLine($0).contains(" ms ") }
        tmux.send("|")
        try tmux.waitFor("split") { $0.contains("split: before | after") }
        let area = ExplorerLayout(columns: 120, rows: 40, controlCount: 1).preview
        let cells = PreviewGeometry(imageRect: Rect(x: 0, y: 0, width: 512, height: 512), area: area).cells
        let divider = (x: cells.x + Int((Double(cells.width) * 0.5).rounded()), y: cells.y + cells.height / 2)
        let target = (x: divider.x - 10, y: divider.y)
        let fraction: Double = Double(target.x - cells.x) / Double(cells.width)
        let percent = Int((fraction * 100).rounded())
        let client = try TmuxMouseClient(tmux, columns: 120, rows: 40)
        defer { client.close() }
        client.press(divider)
        client.drag(target)
        client.release(target)
        try tmux.waitFor("the divider follows the pointer") { $0.contains("split at \(percent)%") }
        try tmux.quitAndCheckRestored()
    }

    @Test func aFilterNameIsTakenAsInfoTakesItOrRefusedWithASuggestion() throws {
        let binary = try Tmux.binary()
        let (status, output) = try Tmux.spawnWithErrors(binary, ["explore", "--filter", "CIGausianBlur"])
        #expect(status != 0)
        #expect(output.contains("no filter named \"CIGausianBlur\"") && output.contains("did you mean CIGaussianBlur"), "\(output)")

        for typed in ["gaussianblur", "Gaussian Blur"] {
            let tmux = try Tmux(name: "filter-\(typed.count)")
            defer { tmux.kill() }
            try tmux.start(["explore", "--filter", typed])
            try tmux.waitFor("\(typed) opens the Gaussian blur") { $0.contains("Inputs: Gaussian Blur (CIGaussianBlur)") }
            try tmux.quitAndCheckRestored()
        }
    }

    @Test func aFailedSearchStaysWhereItWasAndSaysSo() throws {
        let tmux = try Tmux(name: "search")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CISepiaTone"])
        try tmux.waitFor("sepia") { $0.contains("Inputs: Sepia Tone (CISepiaTone)") && Tmux.statusLine($0).contains(" ms ") }
        tmux.send("/")
        tmux.type("zzzz")
        // "z" alone matches (Crystallize, Zoom Blur…), "zz" does not: the search is back on sepia at once.
        try tmux.waitFor("no match, said at once, back where it started") {
            $0.contains("no filter matches \"zzzz\"") && $0.contains("Inputs: Sepia Tone (CISepiaTone)")
        }
        tmux.send("Enter")
        try tmux.waitFor("Enter keeps sepia and says so") {
            $0.contains("no filter matches \"zzzz\"") && $0.contains("Inputs: Sepia Tone (CISepiaTone)")
        }
        // Input keys and descriptions are searched too (after names).
        tmux.send("/")
        tmux.type("inputSharpness")
        tmux.send("Enter")
        try tmux.waitFor("a filter with an inputSharpness input") {
            !$0.contains("Inputs: Sepia Tone") && $0.contains("Sharpness")
        }
        try tmux.quitAndCheckRestored()
    }

    @Test func theBarcodeGeneratorOpensOnAPicture() throws {
        let tmux = try Tmux(name: "barcode")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIBarcodeGenerator"])
        let screen = try tmux.waitFor("the barcode generator renders") {
            $0.contains("Inputs: Barcode Generator") && $0.contains("output 23×23")
        }
        #expect(!screen.contains("is not set"))
        #expect(screen.contains("qr:"), "the descriptor is shown")
        try tmux.quitAndCheckRestored()
    }

    @Test func aSavedLookIsListedUnderLooksAndOpensAfterARestart() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-looks-\(getpid())")
        try? FileManager.default.removeItem(at: config)
        defer { try? FileManager.default.removeItem(at: config) }
        let environment = ["XDG_CONFIG_HOME": config.path]
        let saved = config.appendingPathComponent("cifiltertest/looks/warm sepia.json")
        do {
            let tmux = try Tmux(name: "look-save")
            defer { tmux.kill() }
            try tmux.start(["explore", "--filter", "CISepiaTone"], environment: environment)
            try tmux.waitFor("sepia") { $0.contains("Inputs: Sepia Tone (CISepiaTone)") && Tmux.statusLine($0).contains(" ms ") }
            tmux.send("Tab", "j", "Left")
            try tmux.waitFor("intensity 0.99") { Tmux.statusLine($0).contains("inputIntensity = 0.99") }
            tmux.send("S")
            try tmux.waitFor("the name prompt") { Tmux.statusLine($0).contains("save the look as: sepiatone") }
            tmux.send("C-u")
            tmux.type("warm sepia")
            tmux.send("Enter")
            try tmux.waitFor("saved") { $0.contains("saved the look warm sepia") }
            #expect(FileManager.default.fileExists(atPath: saved.path))
            // The same name again: asked, and kept on "n".
            tmux.send("S", "C-u")
            tmux.type("warm sepia")
            tmux.send("Enter")
            try tmux.waitFor("asked before replacing") { Tmux.statusLine($0).contains("warm sepia exists: replace it? (y/n)") }
            tmux.type("n")
            tmux.send("Enter")
            try tmux.waitFor("kept") { $0.contains("the look warm sepia was kept as it was") }
            // A name that would leave the directory or hide the file is made safe.
            tmux.send("S", "C-u")
            tmux.type("../.hidden")
            tmux.send("Enter")
            try tmux.waitFor("saved under a safe name") { $0.contains("saved the look -.hidden") }
            try tmux.quitAndCheckRestored()
        }
        #expect(!FileManager.default.fileExists(atPath: config.appendingPathComponent("cifiltertest/.hidden.json").path))

        // After a restart, on another filter: the look is under Looks, with the shipped ones, and opens.
        let tmux = try Tmux(name: "look-open")
        defer { tmux.kill() }
        try tmux.start(["explore", "--filter", "CIColorInvert"], environment: environment)
        try tmux.waitFor("invert") { $0.contains("Inputs: Color Invert (CIColorInvert)") && Tmux.statusLine($0).contains(" ms ") }
        tmux.send("G")
        try tmux.waitFor("the Looks category at the end of the list") { $0.contains("Looks (") }
        tmux.send("Enter", "G")
        try tmux.waitFor("the looks, shipped and saved") {
            $0.contains("vintage-film") && $0.contains("shipped look") && $0.contains("warm sepia your look")
        }
        tmux.send("Enter")
        let opened = try tmux.waitFor("the look opens on sepia with its value") {
            $0.contains("Inputs: Sepia Tone (CISepiaTone)") && Tmux.value(of: "Intensity", in: $0) == "0.99"
        }
        #expect(opened.contains("recipe: CISepiaTone"))
        try tmux.quitAndCheckRestored()
    }
}

/// Look names are made safe as file names.
struct LookNameTests {
    @Test func namesAreSanitised() throws {
        #expect(try Looks.sanitizedName(" warm sepia ") == "warm sepia")
        #expect(try Looks.sanitizedName("a/b") == "a-b")
        #expect(try Looks.sanitizedName("../x") == "-x")
        #expect(try Looks.sanitizedName(".hidden") == "hidden")
        #expect(try Looks.sanitizedName("film.json") == "film")
        #expect(throws: FilterExplorerError.self) { try Looks.sanitizedName("...") }
        #expect(throws: FilterExplorerError.self) { try Looks.sanitizedName("   ") }
        #expect(Looks.ownDirectory(environment: ["XDG_CONFIG_HOME": "/tmp/c"]).path == "/tmp/c/cifiltertest/looks")
        #expect(Looks.ownDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.config/cifiltertest/looks")
    }
}
