import FilterEngine
import Testing
@testable import FilterExplorer

/// Widget logic without a terminal: stepping, clamping, text entry, key decoding, layout.
@Suite struct WidgetSliderTests {
    func input(_ filter: String, _ key: String) throws -> InputDescriptor {
        try #require(Catalog.builtIn.filter(named: filter)?.input(key))
    }

    @Test func sliderFromCatalogue() throws {
        let spec = SliderSpec(try input("CISepiaTone", "inputIntensity"))
        #expect(spec.lower == 0 && spec.upper == 1)
        #expect(spec.fineStep == 0.01 && spec.coarseStep == 0.1)
        #expect(spec.stepped(0.3, by: 1) == 0.31)
        #expect(spec.stepped(0.3, by: -3, coarse: true) == 0)
        #expect(spec.stepped(0.95, by: 1, coarse: true) == 1)
    }

    @Test func sliderRangeIsClampedToTheLegalRange() {
        let spec = SliderSpec(lower: -5, upper: 5, legalLower: 0, legalUpper: 3)
        #expect(spec.lower == 0 && spec.upper == 3)
        #expect(spec.stepped(3, by: 10, coarse: true) == 3)
        #expect(spec.clampedToLegal(-1) == 0)
    }

    @Test func typedValuesOutsideTheSliderRangeAreKept() {
        let spec = SliderSpec(lower: 0, upper: 100)
        #expect(spec.stepped(150, by: 1) == 150)
        #expect(spec.stepped(150, by: -1) == 149)
        #expect(spec.fraction(of: 150) == 1)
    }

    @Test func typedValuesOutsideTheLegalRangeAreKept() {
        // Core Image's ranges are hints: a typed 5 above a legal maximum of 3 stays, and steps down from there.
        let spec = SliderSpec(lower: 0, upper: 3, legalLower: 0, legalUpper: 3)
        #expect(spec.stepped(5, by: 1) == 5)
        let down = spec.stepped(5, by: -1)
        #expect(down < 5 && down > 3)
        #expect(spec.stepped(-2, by: -1) == -2)
    }

    @Test func integerSlidersStepByOne() {
        let spec = SliderSpec(lower: 0, upper: 30, isInteger: true)
        #expect(spec.fineStep == 1 && spec.coarseStep == 3)
        #expect(spec.stepped(2.4, by: 1) == 3)
        #expect(spec.value(atFraction: 0.5) == 15)
    }

    @Test func degenerateRangesGetRoom() {
        let spec = SliderSpec(lower: 2, upper: 2)
        #expect(spec.upper > spec.lower)
        let capped = SliderSpec(lower: 5, upper: 5, legalUpper: 5)
        #expect(capped.upper == 5 && capped.lower < 5)
    }

    @Test func niceSteps() {
        #expect(SliderSpec.niceStep(0.0628) == 0.05)
        #expect(SliderSpec.niceStep(3) == 2)
        #expect(SliderSpec.niceStep(0) == 1)
    }

    @Test func barGeometryRoundTrips() {
        #expect(ControlDisplay.knobColumn(fraction: 0, width: 20) == 0)
        #expect(ControlDisplay.knobColumn(fraction: 1, width: 20) == 19)
        #expect(ControlDisplay.fraction(column: 19, width: 20) == 1)
        #expect(ControlDisplay.fraction(column: -3, width: 20) == 0)
        let spec = SliderSpec(lower: -1, upper: 1)
        #expect(spec.value(atFraction: ControlDisplay.fraction(column: 10, width: 21)) == 0)
    }

    @Test func valueTexts() {
        let angle = SliderSpec(lower: -3.14, upper: 3.14, isAngle: true)
        #expect(ControlDisplay.text(.number(.pi / 2), kind: .slider(angle)) == "1.570796 (90.0°)")
        #expect(ControlDisplay.text(.number(1), kind: .toggle) == "[x] on")
        #expect(ControlDisplay.text(.vector([1, 2]), kind: .point(offset: false)) == "[1 2]")
        #expect(ControlDisplay.text(nil, kind: .vector) == "(not set)")
        #expect(ControlDisplay.text(.color(Color(red: 1, green: 0.5, blue: 0)), kind: .color)
            == "#ff8000ff  r 1.00 g 0.50 b 0.00 a 1.00")
    }
}

@Suite struct WidgetFactoryTests {
    func kind(_ filter: String, _ key: String) throws -> ControlKind {
        ControlFactory.kind(for: try #require(Catalog.builtIn.filter(named: filter)?.input(key)))
    }

    @Test func knownInputs() throws {
        #expect(try kind("CITwirlDistortion", "inputCenter") == .point(offset: false))
        #expect(try kind("CICrop", "inputRectangle") == .rectangle)
        #expect(try kind("CIAffineTransform", "inputTransform") == .transform)
        #expect(try kind("CIQRCodeGenerator", "inputMessage") == .text)
        #expect(try kind("CIColorMonochrome", "inputColor") == .color)
        #expect(try kind("CISepiaTone", "inputImage") == .image(.picture))
        #expect(try kind("CITemperatureAndTint", "inputNeutral") == .vector)
        #expect(try kind("CIMeshGenerator", "inputMesh") == .vector)  // segments typed as a flat list
        #expect(try kind("CIBarcodeGenerator", "inputBarcodeDescriptor") == .text)  // its text form: qr:…, pdf417:…
        if case .slider = try kind("CIGaussianBlur", "inputRadius") {} else { Issue.record("radius should be a slider") }
    }

    @Test func everyInputOfTheCatalogueGetsAControl() {
        var kinds: Set<String> = []
        for filter in Catalog.builtIn.filters {
            for input in filter.inputs {
                let kind = ControlFactory.kind(for: input)
                kinds.insert("\(kind)".components(separatedBy: "(").first!)
                if input.isBoolean { #expect(kind == .toggle, "\(filter.name).\(input.key)") }
                if case .slider(let spec) = kind {
                    #expect(spec.upper > spec.lower, "\(filter.name).\(input.key)")
                    if let lo = input.minimum { #expect(spec.lower >= lo, "\(filter.name).\(input.key)") }
                    if let hi = input.maximum { #expect(spec.upper <= hi, "\(filter.name).\(input.key)") }
                }
            }
        }
        #expect(kinds.isSuperset(of: ["slider", "toggle", "color", "point", "rectangle", "vector", "text", "image",
                                      "transform", "colorCube", "colorCurves", "colorSpace", "curvePoint", "readOnly"]))
    }

    @Test func colourStepping() {
        let c = Color(red: 0.95, green: 0.5, blue: 0, alpha: 1)
        #expect(ColorStepper.stepped(c, component: 0, by: 1, coarse: true).red == 1)
        #expect(ColorStepper.stepped(c, component: 2, by: -1, coarse: false).blue == 0)
        #expect(ColorStepper.stepped(c, component: 1, by: 2, coarse: false).green == 0.52)
        #expect(ColorStepper.hex(Color(red: 1, green: 0, blue: 0)) == "#ff0000ff")
    }

    @Test func pointAndRectangleStepping() {
        let bounds = Rect(x: 0, y: 0, width: 512, height: 300)
        #expect(GeometryStepper.moved([256, 150], dx: 1, dy: -1, coarse: false, bounds: bounds) == [261, 147])
        #expect(GeometryStepper.moved([256, 150], dx: -1, dy: 1, coarse: true, bounds: bounds) == [205, 180])
        #expect(GeometryStepper.rectangle([10, 10, 20, 20], dx: 1, dy: 0, coarse: false, resize: false, bounds: bounds)
            == [15, 10, 20, 20])
        #expect(GeometryStepper.rectangle([10, 10, 4, 4], dx: -1, dy: -1, coarse: false, resize: true, bounds: bounds)
            == [10, 10, 1, 1])
    }

    @Test func transformHandles() {
        var t = FilterEngine.AffineTransform.identity
        for _ in 0..<6 { t = TransformHandle.rotate.applied(to: t, steps: 1, coarse: true) }
        #expect(abs(t.a) < 1e-9 && abs(t.b - 1) < 1e-9 && abs(t.c + 1) < 1e-9)
        let moved = TransformHandle.translateX.applied(to: .identity, steps: -2, coarse: true)
        #expect(moved.tx == -20 && moved.ty == 0)
        let scaled = TransformHandle.scale.applied(to: .identity, steps: 1, coarse: true)
        #expect(scaled.a == 1.1 && scaled.d == 1.1)
    }
}

@Suite struct WidgetTextAndKeyTests {
    @Test func textFieldEditing() {
        var field = TextField("0.5")
        #expect(field.cursor == 3)
        field.handle(.backspace)
        field.handle(.char("7"))
        #expect(field.text == "0.7")
        field.handle(.home)
        field.handle(.char("-"))
        #expect(field.text == "-0.7" && field.cursor == 1)
        field.handle(.end)
        field.handle(.char(" "))
        field.handle(.char("x"))
        field.handle(.ctrl("w"))
        #expect(field.text == "-0.7 ")
        field.handle(.ctrl("u"))
        #expect(field.text == "" && field.cursor == 0)
        #expect(field.handle(.enter) == .submit)
        #expect(field.handle(.escape) == .cancel)
        #expect(field.handle(.function(5)) == .unhandled)
    }

    @Test func textFieldScrollsToKeepTheCursorVisible() {
        let field = TextField("/a/long/path/to/an/image.png")
        let shown = field.visible(width: 10)
        #expect(shown.text == "image.png")
        #expect(shown.cursorColumn == 9)
    }

    static let codes = Key.Codes(up: 259, down: 258, left: 260, right: 261, shiftLeft: 393, shiftRight: 402,
                                 shiftUp: 337, shiftDown: 336, pageUp: 339, pageDown: 338, home: 262, end: 360,
                                 enter: 343, backspace: 263, delete: 330, backTab: 353, f1: 265)

    @Test func keyDecoding() {
        func key(_ value: Int32, _ code: Bool = false) -> Key { Key.decode(value, isKeyCode: code, codes: Self.codes) }
        #expect(key(Int32(UnicodeScalar("j").value)) == .char("j"))
        #expect(key(12) == .ctrl("l"))
        #expect(key(3) == .ctrl("c"))
        #expect(key(27) == .escape)
        #expect(key(13) == .enter && key(10) == .enter)
        #expect(key(9) == .tab)
        #expect(key(127) == .backspace)
        #expect(key(0xE9) == .char("é"))
        #expect(key(259, true) == .up)
        #expect(key(402, true) == .shiftRight)
        #expect(key(266, true) == .function(2))
        #expect(key(9999, true) == .unknown(9999))
        #expect(Key.ctrl("l").label == "Ctrl-L")
    }
}

@Suite struct WidgetLayoutTests {
    @Test(arguments: [(120, 40), (80, 24), (60, 16), (200, 60), (61, 17), (300, 100)])
    func layoutFits(columns: Int, rows: Int) {
        for controls in [0, 2, 6, 30] {
            let layout = ExplorerLayout(columns: columns, rows: rows, controlCount: controls)
            #expect(!layout.isTooSmall)
            let parts = [layout.title, layout.tree, layout.preview, layout.controlsHeader, layout.controls, layout.status]
            for part in parts {
                #expect(part.x >= 0 && part.y >= 0 && part.maxX <= columns && part.maxY <= rows, "\(part)")
            }
            #expect(layout.preview.height >= 5)
            #expect(layout.controls.height >= min(max(1, controls), 3))
            #expect(layout.tree.maxX < layout.preview.x)
            #expect(layout.preview.maxY == layout.controlsHeader.y)
            #expect(layout.controlsHeader.maxY == layout.controls.y)
            #expect(layout.controls.maxY == layout.inputHelp.y)
            #expect(layout.inputHelp.maxY == layout.keyBar.y)
            #expect(layout.keyBar.maxY == layout.status.y)
            #expect(layout.keyBar.height == (rows >= ExplorerLayout.keyBarMinimumRows ? 1 : 0))
        }
    }

    @Test func belowTheMinimumIsTooSmall() {
        #expect(ExplorerLayout(columns: 59, rows: 40, controlCount: 2).isTooSmall)
        #expect(ExplorerLayout(columns: 120, rows: 15, controlCount: 2).isTooSmall)
        #expect(ExplorerLayout(columns: 0, rows: 0, controlCount: 2).isTooSmall)
    }

    @Test func previewKeepsTheAspectRatio() {
        let square = PreviewGeometry(imageRect: Rect(x: 0, y: 0, width: 512, height: 512),
                                     area: CellRect(x: 10, y: 1, width: 100, height: 30))
        #expect(square.cells.width == 60 && square.cells.height == 30)
        #expect(square.cells.x == 30)
        let wide = PreviewGeometry(imageRect: Rect(x: 0, y: 0, width: 600, height: 100),
                                   area: CellRect(x: 0, y: 0, width: 60, height: 30))
        #expect(wide.cells.width == 60 && wide.cells.height == 5)
        // One-pixel strips are stretched to a quarter of the area across.
        let row = PreviewGeometry(imageRect: Rect(x: 0, y: 0, width: 64, height: 1), area: CellRect(x: 0, y: 0, width: 60, height: 30))
        #expect(row.cells.width == 60 && row.cells.height == 7)
        let column = PreviewGeometry(imageRect: Rect(x: 0, y: 0, width: 1, height: 512), area: CellRect(x: 0, y: 0, width: 60, height: 30))
        #expect(column.cells.width == 15 && column.cells.height == 30)
        let capped = PreviewGeometry(imageRect: Rect(x: 0, y: 0, width: 512, height: 512),
                                     area: CellRect(x: 0, y: 0, width: 100, height: 30), maximumCells: 450)
        #expect(capped.cells.width * capped.cells.height <= 450)
    }

    @Test func cellsAndImagePointsRoundTrip() {
        let geometry = PreviewGeometry(imageRect: Rect(x: 0, y: 0, width: 512, height: 512),
                                       area: CellRect(x: 10, y: 1, width: 100, height: 32))
        let centre = geometry.cell(imageX: 256, imageY: 256)!
        let back = geometry.imagePoint(cellX: centre.x, cellY: centre.y)
        #expect(abs(back.x - 256) <= 512 / 64 && abs(back.y - 256) <= 512 / 32)
        // y is up in the image, down on the screen.
        #expect(geometry.cell(imageX: 0, imageY: 511)!.y == geometry.cells.y)
        #expect(geometry.cell(imageX: 0, imageY: 0)!.y == geometry.cells.maxY - 1)
        #expect(geometry.cell(imageX: -1, imageY: 0) == nil)
    }

    @Test func colourModesAndPalette() {
        #expect(ColorMode.choose(colors: 256, pairs: 65536, noColor: false) == .indexed256)
        #expect(ColorMode.choose(colors: 1 << 24, pairs: 65536, noColor: false) == .truecolor)
        #expect(ColorMode.choose(colors: 256, pairs: 256, noColor: false) == .indexed8)
        #expect(ColorMode.choose(colors: 16, pairs: 65536, noColor: false) == .indexed16)
        #expect(ColorMode.choose(colors: 8, pairs: 64, noColor: false) == .monochrome)
        #expect(ColorMode.choose(colors: 256, pairs: 65536, noColor: true) == .monochrome)
        #expect(TerminalPalette.index(red: 1, green: 0, blue: 0, mode: .indexed256) == 196)
        #expect(TerminalPalette.index(red: 0.5, green: 0.5, blue: 0.5, mode: .indexed256) == 244)
        #expect(TerminalPalette.index(red: 1, green: 0, blue: 0, mode: .truecolor) == 0xFF0000)
        #expect(TerminalPalette.index(red: 1, green: 1, blue: 1, mode: .indexed16) == 15)
    }
}
