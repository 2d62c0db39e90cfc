import FilterEngine
import Foundation
import Testing
@testable import FilterExplorer

/// The pure parts behind the mouse and the prompts: path completion, colour text, the transform's summary,
/// clicks on the chain strip, the wheel scrolling the list, the remembered export folder.
@Suite struct PromptAndMouseModelTests {
    // MARK: Path completion

    /// A folder with pictures, a cube, a hidden file, a subfolder and a text file.
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-complete-\(UUID())").path
        let fm = FileManager.default
        try fm.createDirectory(atPath: path + "/photos", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: path + "/.hidden-folder", withIntermediateDirectories: true)
        for name in ["portrait.png", "portrait-2.jpg", "poster.JPEG", "notes.txt", "film.cube", ".secret.png", "photos/a.png"] {
            try Data().write(to: URL(fileURLWithPath: path + "/" + name))
        }
        return path
    }

    @Test func tabCompletesTheSharedPrefixThenListsTheMatches() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let keep = PathCompletion.Kind.image.keeps
        // "p" matches photos/, portrait.png, portrait-2.jpg, poster.JPEG: they share "p" only, then "po".
        let first = PathCompletion.complete("p", in: dir, keeps: keep)
        #expect(first.candidates == ["photos/", "portrait-2.jpg", "portrait.png", "poster.JPEG"])
        #expect(first.text == "p" && first.isAmbiguous(from: "p"), "nothing to add: the second Tab lists them")
        let po = PathCompletion.complete("po", in: dir, keeps: keep)
        #expect(po.text == "po" && po.candidates.count == 3)
        let port = PathCompletion.complete("port", in: dir, keeps: keep)
        #expect(port.text == "portrait" && !port.isAmbiguous(from: "port"), "the shared prefix is added")
        #expect(PathCompletion.complete("portrait.", in: dir, keeps: keep).text == "portrait.png")
        // A directory ends in /, and completing inside it goes on from there.
        #expect(PathCompletion.complete("ph", in: dir, keeps: keep).text == "photos/")
        #expect(PathCompletion.complete("photos/", in: dir, keeps: keep).text == "photos/a.png")
        // Absolute paths, and text files are not offered for an image.
        #expect(PathCompletion.complete(dir + "/n", keeps: keep).candidates.isEmpty)
        #expect(PathCompletion.complete(dir + "/pos", keeps: keep).text == dir + "/poster.JPEG")
        #expect(PathCompletion.complete("f", in: dir, keeps: PathCompletion.Kind.cube.keeps).text == "film.cube")
        #expect(PathCompletion.complete("nothing-like-this", in: dir, keeps: keep).candidates.isEmpty)
        #expect(PathCompletion.complete("missing-folder/x", in: dir, keeps: keep).candidates.isEmpty)
    }

    @Test func hiddenEntriesOnlyForADotAndHomeIsKeptAsTyped() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let all = PathCompletion.complete("", in: dir)
        #expect(!all.candidates.contains { $0.hasPrefix(".") })
        #expect(all.candidates.contains("notes.txt"), "without a kind every file is offered")
        let dotted = PathCompletion.complete(".", in: dir, keeps: PathCompletion.Kind.image.keeps)
        #expect(dotted.candidates == [".hidden-folder/", ".secret.png"])
        let home = PathCompletion.complete("~/ph", in: "/", keeps: nil, home: dir)
        #expect(home.text == "~/photos/")
    }

    @Test func aLongListingIsCut() {
        let names = (1...40).map { "f\($0).png" }
        let text = PathCompletion.listing(names, limit: 5)
        #expect(text.hasPrefix("40 matches: f1.png  f2.png"))
        #expect(text.contains("… and 35 more"))
    }

    // MARK: Colours

    @Test func coloursInEveryForm() throws {
        let red = Color(red: 1, green: 0, blue: 0)
        for text in ["#ff0000", "ff0000", "FF0000", "#ff0000ff", "red", " Red ", "hsv(0,1,1)", "hsl(0,100%,50%)",
                     "hsv(360, 100%, 100%)", "hsl(0deg 1 0.5)", "1 0 0", "1,0,0,1"] {
            #expect(ColorText.parse(text) == red, "\(text)")
        }
        #expect(ColorText.parse("ff000080")?.alpha == Double(0x80) / 255)
        #expect(ColorText.parse("navy") == Color(red: 0, green: 0, blue: Double(0x80) / 255))
        #expect(ColorText.parse("hsv(120,1,1)") == Color(red: 0, green: 1, blue: 0))
        #expect(ColorText.parse("hsv(240,0.5,1)") == Color(red: 0.5, green: 0.5, blue: 1))
        #expect(ColorText.parse("hsl(120,1,0.25)") == Color(red: 0, green: 0.5, blue: 0))
        #expect(ColorText.parse("hsl(0,0,0.5)") == Color(red: 0.5, green: 0.5, blue: 0.5))
        #expect(ColorText.parse("hsv(60,1,1,0.5)") == Color(red: 1, green: 1, blue: 0, alpha: 0.5))
        #expect(ColorText.parse("hsv(-120,1,1)") == Color(red: 0, green: 0, blue: 1), "hue wraps around")
        for bad in ["", "redd", "ff00", "#ff00", "gg0000", "hsv(0,2,1)", "hsv(0,1)", "hsl(x,1,1)", "hsv(0,1,1", "1 0"] {
            #expect(ColorText.parse(bad) == nil, "\(bad)")
        }
        // Every listed name is a colour.
        for name in ColorText.names.keys { #expect(ColorText.parse(name) != nil, "\(name)") }
    }

    @Test func anOpaqueColourRefusesAlphaWithOneLine() throws {
        let filter = try #require(Catalog.builtIn.filter(named: "CISpotLight"))
        let input = try #require(filter.input("inputColor"))
        #expect(input.type == .opaqueColor)
        let control = InputControl(input: input, widget: ColorWidget())
        #expect(throws: Never.self) { try ColorWidget.checkOpaque(Color(red: 1, green: 0, blue: 0), control: control) }
        do {
            try ColorWidget.checkOpaque(Color(red: 1, green: 0, blue: 0, alpha: 0.5), control: control)
            Issue.record("alpha 0.5 was accepted")
        } catch {
            #expect("\(error)" == "inputColor is an opaque colour: its alpha stays 1 (0.5 refused)")
        }
        // An ordinary colour keeps its alpha.
        let plain = try #require(Catalog.builtIn.filter(named: "CIConstantColorGenerator")?.input("inputColor"))
        #expect(throws: Never.self) {
            try ColorWidget.checkOpaque(Color(red: 1, green: 0, blue: 0, alpha: 0.5), control: InputControl(input: plain, widget: ColorWidget()))
        }
    }

    // MARK: Transform

    @Test func transformSummaryReadsTheHandles() {
        #expect(TransformSummary.text(.identity) == "identity")
        var t = FilterEngine.AffineTransform.identity
        for _ in 0..<3 { t = TransformHandle.rotate.applied(to: t, steps: 1, coarse: false) }
        t = TransformHandle.scale.applied(to: t, steps: -2, coarse: false)
        t = TransformHandle.translateX.applied(to: t, steps: 1, coarse: true)
        #expect(TransformSummary.text(t) == "rot 3° scale 0.98 move 10,0")
        #expect(TransformSummary.text(.translation(x: -4.5, y: 2)) == "move −4.5,2")
        #expect(TransformSummary.text(.scale(x: 2, y: 0.5)) == "scale 2×0.5")
        #expect(TransformSummary.text(.scale(x: 1, y: -1)) == "scale 1×−1", "a mirror shows as a negative scale")
        #expect(TransformSummary.text(.rotation(-.pi / 2)) == "rot −90°")
        #expect(TransformSummary.text(FilterEngine.AffineTransform([1, 0, 0.5, 1, 0, 0])) == "shear 0.5")
        #expect(TransformSummary.text(FilterEngine.AffineTransform([0, 0, 0, 0, 1, 2])).hasSuffix("(flattened)"))
    }

    // MARK: The chain strip and the list

    @Test func aClickOnTheChainStripFindsItsStep() {
        let names = ["CIColorControls", "CIVignette", "CIMultiplyCompositing"]
        let items = ChainStrip.items(names: names, bypassed: [false, true, false], selected: 0, width: 200)
        // "1 CIColorControls › 2 ⊘CIVignette › 3 CIMultiplyCompositing"
        #expect(ChainStrip.step(atColumn: 0, items: items) == 0)
        #expect(ChainStrip.step(atColumn: 16, items: items) == 0)
        #expect(ChainStrip.step(atColumn: 17, items: items) == nil, "the separator")
        #expect(ChainStrip.step(atColumn: 20, items: items) == 1)
        #expect(ChainStrip.step(atColumn: 36, items: items) == 2)
        #expect(ChainStrip.step(atColumn: 200, items: items) == nil)
        #expect(ChainStrip.step(atColumn: -1, items: items) == nil)
        // Cut at the start: the "…" is no step, the next item is step 2 (index 1).
        let cut = ChainStrip.items(names: names, bypassed: [false, false, false], selected: 2, width: 45)
        #expect(cut.first?.text == "…")
        #expect(ChainStrip.step(atColumn: 0, items: cut) == nil)
        #expect(ChainStrip.step(atColumn: 4, items: cut) == cut[1].step)
    }

    @Test func theWheelScrollsTheListWithoutMovingTheCursor() {
        let tree = FilterTree(list: .shared)
        tree.reveal(filterNamed: "CISepiaTone")
        tree.scrollToCursor(height: 10)
        let cursor = tree.cursor, scroll = tree.scroll
        tree.scrollView(by: 3, height: 10)
        tree.scrollToCursor(height: 10)
        #expect(tree.cursor == cursor && tree.scroll == min(scroll + 3, tree.rows.count - 10), "drawing does not pull the view back")
        tree.scrollView(by: -1000, height: 10)
        #expect(tree.scroll == 0)
        tree.scrollView(by: 100_000, height: 10)
        #expect(tree.scroll == tree.rows.count - 10)
        // A key moving the cursor brings it back into view.
        tree.moveCursor(by: 1)
        tree.scrollToCursor(height: 10)
        #expect((tree.scroll..<tree.scroll + 10).contains(tree.cursor))
    }

    @Test func theExportFolderIsRemembered() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-state-\(UUID())/state.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        var state = ExplorerState(lastFilter: "CISepiaTone")
        state.lastExportFolder = "/tmp/exports"
        try state.save(to: url)
        let (loaded, warning) = ExplorerState.load(from: url)
        #expect(warning == nil)
        #expect(loaded == state && loaded.lastExportFolder == "/tmp/exports")
        // A folder of the wrong shape is forgotten quietly.
        try Data(#"{"version": 2, "lastFilter": "CIVignette", "lastExportFolder": 7}"#.utf8).write(to: url)
        let odd = ExplorerState.load(from: url)
        #expect(odd.state.lastFilter == "CIVignette" && odd.state.lastExportFolder == nil && odd.warning == nil)
    }
}
