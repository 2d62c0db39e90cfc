import FilterEngine
import FilterPipeline
import Foundation
import Testing
@testable import FilterExplorer

/// The colour filters' special inputs: cube looks and .cube files, colour curves, colour spaces, the tone-curve
/// editor, generated gradients and palettes, and export command lines that reproduce them.
@Suite struct SpecialEditorTests {
    static func kind(_ filter: String, _ key: String) throws -> ControlKind {
        ControlFactory.kind(for: try #require(Catalog.builtIn.filter(named: filter)?.input(key)))
    }

    static func bytes(_ session: FilterSession, _ key: String) -> [UInt8]? {
        if case .data(let d)? = session.value(forKey: key) { d } else { nil }
    }

    /// Whether a data input holds exactly `expected` (a Bool, so a failure does not print the whole table).
    static func table(_ session: FilterSession, _ key: String, is expected: [UInt8]?) -> Bool {
        bytes(session, key) == expected
    }

    static func number(_ session: FilterSession, _ key: String) -> Double? {
        if case .number(let n)? = session.value(forKey: key) { n } else { nil }
    }

    /// A temporary directory removed by the caller.
    static func temporaryDirectory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("special-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A .cube file of `dimension` whose table maps (r, g, b) to (b, g, r).
    static func swapCube(dimension: Int) -> String {
        var lines = ["LUT_3D_SIZE \(dimension)"]
        let top = Double(dimension - 1)
        for b in 0..<dimension { for g in 0..<dimension { for r in 0..<dimension {
            lines.append("\(Double(b) / top) \(Double(g) / top) \(Double(r) / top)")
        } } }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: The factory

    @Test func theFactoryGivesTheSpecialInputsTheirEditors() throws {
        #expect(try Self.kind("CIColorCube", "inputCubeData") == .colorCube)
        #expect(try Self.kind("CIColorCubeWithColorSpace", "inputCubeData") == .colorCube)
        #expect(try Self.kind("CIColorCubesMixedWithMask", "inputCube0Data") == .colorCube)
        #expect(try Self.kind("CIColorCubesMixedWithMask", "inputCube1Data") == .colorCube)
        #expect(try Self.kind("CIColorCurves", "inputCurvesData") == .colorCurves)
        #expect(try Self.kind("CIColorCurves", "inputColorSpace") == .colorSpace)
        #expect(try Self.kind("CIColorCubeWithColorSpace", "inputColorSpace") == .colorSpace)
        #expect(try Self.kind("CIToneCurve", "inputPoint0") == .curvePoint(index: 0))
        #expect(try Self.kind("CIToneCurve", "inputPoint4") == .curvePoint(index: 4))
        #expect(try Self.kind("CIColorMap", "inputGradientImage") == .image(.gradient))
        #expect(try Self.kind("CIPalettize", "inputPaletteImage") == .image(.palette))
        #expect(try Self.kind("CIPaletteCentroid", "inputPaletteImage") == .image(.palette))
        #expect(try Self.kind("CIColorMap", "inputImage") == .image(.picture))
        // Positions named inputPoint0 elsewhere stay points on the preview.
        #expect(try Self.kind("CILinearGradient", "inputPoint0") == .point(offset: false))
        #expect(try Self.kind("CIQRCodeGenerator", "inputMessage") == .text)
    }

    @Test func choicesWrapBothWays() {
        let options = ["a", "b", "c"]
        #expect(ChoiceCycle.step(options, from: "a", by: 1) == "b")
        #expect(ChoiceCycle.step(options, from: "a", by: -1) == "c")
        #expect(ChoiceCycle.step(options, from: "c", by: 1) == "a")
        #expect(ChoiceCycle.step(options, from: "b", by: 4) == "c")
        #expect(ChoiceCycle.step(options, from: nil, by: 1) == "a")
        #expect(ChoiceCycle.step(options, from: "zzz", by: -1) == "c")
        #expect(ChoiceCycle.step([String](), from: nil, by: 1) == nil)
    }

    // MARK: Colour cubes

    @Test func cubesStartOnAVisibleLookAtTheirDimension() throws {
        let cube = try ExplorerFixtures.session("CIColorCube")
        #expect(cube.tableChoices["inputCubeData"] == .look(.warm))
        #expect(Self.number(cube, "inputCubeDimension") == Double(FilterSession.stockCubeDimension))
        #expect(Self.table(cube, "inputCubeData", is: ColorCubeData.look(.warm, dimension: 32, space: .linear)))
        let control = try #require(cube.controls.first { $0.input.key == "inputCubeData" })
        #expect(cube.displayText(control) == "Warm (32³)")
        // The two cubes of the mixed filter differ, so the mask shows.
        let mixed = try ExplorerFixtures.session("CIColorCubesMixedWithMask")
        #expect(mixed.tableChoices["inputCube0Data"] == .look(.blackAndWhite))
        #expect(mixed.tableChoices["inputCube1Data"] == .look(.warm))
        // The look changes the picture.
        let output = try cube.framedOutput()
        let context = RenderContext()
        let source = try ExplorerFixtures.samples().source
        #expect(try context.renderRGBA8(output.image, rect: output.rect).bytes != context.renderRGBA8(source, rect: output.rect).bytes)
    }

    @Test func steppingThroughLooksKeepsDataAndDimensionTogether() throws {
        let cube = try ExplorerFixtures.session("CIColorCube")
        var choice = cube.tableChoices["inputCubeData"]
        var seen: [TableChoice] = []
        for _ in TableChoice.cubeOptions {
            choice = ChoiceCycle.step(TableChoice.cubeOptions, from: choice, by: 1)
            try cube.setTable(try #require(choice), forKey: "inputCubeData")
            seen.append(try #require(cube.tableChoices["inputCubeData"]))
        }
        #expect(Set(seen.map(\.label)) == Set(ColorCubeData.Look.allCases.map(\.rawValue)))
        #expect(seen.last == .look(.warm))  // round the whole cycle
        #expect(cube.edited.contains("inputCubeData"))
        // A new dimension rebuilds the look at that size.
        try cube.set(.number(8), forKey: "inputCubeDimension")
        #expect(Self.table(cube, "inputCubeData", is: ColorCubeData.look(.warm, dimension: 8, space: .linear)))
        try cube.setText("identity", forKey: "inputCubeData")
        #expect(cube.tableChoices["inputCubeData"] == .look(.identity))
        #expect(Self.table(cube, "inputCubeData", is: ColorCubeData.identity(dimension: 8)))
    }

    @Test func aCubeFileSetsTheDimensionAndHoldsIt() throws {
        let directory = try Self.temporaryDirectory("cube")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("swap.cube").path
        try Self.swapCube(dimension: 3).write(toFile: path, atomically: true, encoding: .utf8)

        let cube = try ExplorerFixtures.session("CIColorCube")
        try cube.setText(path, forKey: "inputCubeData")
        #expect(cube.tableChoices["inputCubeData"] == .cubeFile(path))
        #expect(Self.number(cube, "inputCubeDimension") == 3)
        #expect(Self.table(cube, "inputCubeData", is: (try ColorCubeData.parseCubeFile(Self.swapCube(dimension: 3))).data))
        // The dimension is the file's: another one is refused and nothing changes.
        let refused = #expect(throws: FilterExplorerError.self) { try cube.set(.number(5), forKey: "inputCubeDimension") }
        #expect(refused?.message.contains("size of the .cube file") == true)
        #expect(Self.number(cube, "inputCubeDimension") == 3)
        try cube.set(.number(3), forKey: "inputCubeDimension")
        _ = try cube.framedOutput().image  // data and dimension agree

        // A malformed file: the error names the line; the previous table stays.
        let bad = directory.appendingPathComponent("bad.cube").path
        try "LUT_3D_SIZE 2\n0 0 0\n1 x 0\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let error = #expect(throws: FilterExplorerError.self) { try cube.setText(bad, forKey: "inputCubeData") }
        #expect(error?.message.contains(".cube line 3") == true)
        #expect(cube.tableChoices["inputCubeData"] == .cubeFile(path))
        #expect(throws: FilterExplorerError.self) { try cube.setText(directory.appendingPathComponent("none.cube").path, forKey: "inputCubeData") }

        // Back to a look: the dimension is free again; a reset returns to the stock look and dimension.
        try cube.setTable(.look(.cool), forKey: "inputCubeData")
        try cube.set(.number(16), forKey: "inputCubeDimension")
        #expect(Self.bytes(cube, "inputCubeData")?.count == 16 * 16 * 16 * 16)
        cube.resetAll()
        #expect(cube.tableChoices["inputCubeData"] == .look(.warm))
        #expect(Self.number(cube, "inputCubeDimension") == 32)

        // Two cubes share one dimension: files of different sizes are refused; a look follows the file's size.
        let other = directory.appendingPathComponent("swap4.cube").path
        try Self.swapCube(dimension: 4).write(toFile: other, atomically: true, encoding: .utf8)
        let mixed = try ExplorerFixtures.session("CIColorCubesMixedWithMask")
        try mixed.setTable(.cubeFile(path), forKey: "inputCube0Data")
        #expect(Self.number(mixed, "inputCubeDimension") == 3)
        #expect(Self.table(mixed, "inputCube1Data", is: ColorCubeData.look(.warm, dimension: 3, space: .linear)))
        #expect(throws: FilterExplorerError.self) { try mixed.setTable(.cubeFile(other), forKey: "inputCube1Data") }
        #expect(mixed.tableChoices["inputCube1Data"] == .look(.warm))
    }

    @Test func colourSpacesAreChosenByName() throws {
        #expect(ColorSpaceChoice.options == ["sRGB", "linear", "Display P3"])
        // Unset is the working space, which is linear.
        #expect(ColorSpaceChoice.stepped(nil, by: 1) == "Display P3")
        #expect(ColorSpaceChoice.stepped(nil, by: -1) == "sRGB")
        #expect(ColorSpaceChoice.stepped("Display P3", by: 1) == "sRGB")
        #expect(ControlDisplay.text(nil, kind: .colorSpace) == ColorSpaceChoice.unsetLabel)

        let cube = try ExplorerFixtures.session("CIColorCubeWithColorSpace")
        #expect(cube.value(forKey: "inputColorSpace") == nil)
        try cube.setText("p3", forKey: "inputColorSpace")
        #expect(cube.value(forKey: "inputColorSpace").map(ValueParser.format) == "Display P3")
        // The look is rebuilt for the space it is applied in.
        #expect(Self.table(cube, "inputCubeData", is: ColorCubeData.look(.warm, dimension: 32, space: .displayP3)))
        let error = #expect(throws: FilterError.self) { try cube.setText("bogus", forKey: "inputColorSpace") }
        #expect(error?.message.contains("unknown colour space") == true)
        #expect(cube.value(forKey: "inputColorSpace").map(ValueParser.format) == "Display P3")
    }

    // MARK: Colour curves

    @Test func curvesAreGeneratedInTheEnginesLayout() throws {
        let curves = try ExplorerFixtures.session("CIColorCurves")
        #expect(curves.tableChoices["inputCurvesData"] == .curves(.sCurve))
        #expect(Self.bytes(curves, "inputCurvesData")?.count == CurvesPreset.tableEntries * 12)

        // Identity over the domain in an encoded space: entry i is the domain sampled evenly, in all channels.
        try curves.setTable(.curves(.identity), forKey: "inputCurvesData")
        try curves.set(.string("sRGB"), forKey: "inputColorSpace")
        try curves.set(.vector([0, 2]), forKey: "inputCurvesDomain")
        let floats = try #require(Self.bytes(curves, "inputCurvesData")).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(floats.count == CurvesPreset.tableEntries * 3)
        #expect(floats[0] == 0 && floats[1] == 0 && floats[2] == 0)
        #expect(abs(floats[floats.count - 1] - 2) < 1e-6)
        let middle = (CurvesPreset.tableEntries - 1) / 2 * 3
        #expect(abs(Double(floats[middle]) - 2 * Double((CurvesPreset.tableEntries - 1) / 2) / Double(CurvesPreset.tableEntries - 1)) < 1e-6)

        // The S-curve darkens the quarter tone and brightens the three-quarter tone, keeping the middle.
        let s = CurvesPreset.sCurve
        #expect(s.curves(0.25).x < 0.25 && s.curves(0.75).x > 0.75 && abs(s.curves(0.5).x - 0.5) < 1e-12)
        // In the working space (linear) the table is the encoded design, decoded: identity stays identity.
        let linear = CurvesPreset.identity.table(domain: (0, 1), space: nil, entries: 5)
            .withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        for (i, v) in linear.enumerated() { #expect(abs(v - Float(i / 3) / 4) < 1e-5) }

        #expect(throws: FilterExplorerError.self) { try curves.setText("wobbly", forKey: "inputCurvesData") }
        try curves.setText("fade", forKey: "inputCurvesData")
        #expect(curves.tableChoices["inputCurvesData"] == .curves(.fade))
    }

    // MARK: Tone curve

    static let diagonal: [[Double]] = [[0, 0], [0.25, 0.25], [0.5, 0.5], [0.75, 0.75], [1, 1]]

    @Test func curvePointsMoveBetweenTheirNeighbours() {
        let points = Self.diagonal
        #expect(ToneCurveEditor.moved(points, index: 2, dx: 1, dy: 0, coarse: false) == [0.51, 0.5])
        #expect(ToneCurveEditor.moved(points, index: 2, dx: 0, dy: 1, coarse: true) == [0.5, 0.6])
        // x stops a gap before the neighbours.
        #expect(ToneCurveEditor.moved(points, index: 2, dx: 5, dy: 0, coarse: true) == [0.74, 0.5])
        #expect(ToneCurveEditor.moved(points, index: 2, dx: -5, dy: 0, coarse: true) == [0.26, 0.5])
        // The ends stay within 0…1; y too.
        #expect(ToneCurveEditor.moved(points, index: 0, dx: -1, dy: -1, coarse: false) == [0, 0])
        #expect(ToneCurveEditor.moved(points, index: 4, dx: 1, dy: 3, coarse: true) == [1, 1])
        #expect(ToneCurveEditor.moved(points, index: 4, dx: -3, dy: -3, coarse: true) == [0.76, 0.7])
        // A move of y alone leaves x as typed, even outside the neighbours.
        var crossed = points
        crossed[1] = [0.6, 0.2]
        #expect(ToneCurveEditor.moved(crossed, index: 1, dx: 0, dy: 1, coarse: false) == [0.6, 0.21])
        // Neighbours with no room between them: x stays.
        let tight: [[Double]] = [[0, 0], [0.5, 0.5], [0.505, 0.5], [0.51, 0.6], [1, 1]]
        #expect(ToneCurveEditor.moved(tight, index: 2, dx: 1, dy: 0, coarse: false) == [0.505, 0.5])
    }

    @Test func theCurveIsDrawnAsTheEngineMakesIt() throws {
        let identity = try ToneCurveEditor.plot(points: Self.diagonal, extrapolate: false, count: 11)
        for (i, y) in identity.enumerated() { #expect(abs(y - Double(i) / 10) < 1e-4) }
        var lifted = Self.diagonal
        lifted[2] = [0.5, 0.8]
        let curve = try ToneCurveEditor.plot(points: lifted, extrapolate: false, count: 11)
        #expect(abs(curve[5] - 0.8) < 1e-3)  // through the moved point
        #expect(abs(curve[0]) < 1e-3 && abs(curve[10] - 1) < 1e-3)  // and the unmoved ends
    }

    @Test func pointKeys() {
        #expect(ToneCurveEditor.pointIndex(of: "inputPoint3") == 3)
        #expect(ToneCurveEditor.pointIndex(of: "inputPoint5") == nil)
        #expect(ToneCurveEditor.pointIndex(of: "inputPoint") == nil)
        #expect(ToneCurveEditor.key(4) == "inputPoint4")
    }

    // MARK: Gradients and palettes

    @Test func gradientAndPaletteInputsOfferTheGeneratedImagesFirst() throws {
        let samples = try ExplorerFixtures.samples()
        let gradients = samples.choices(for: .gradient)
        #expect(gradients.starts(with: StockImages.gradientNames.map(ImageChoice.gradient)))
        #expect(gradients.contains(.source) && gradients.contains(.mask))
        #expect(samples.choices(for: .palette).starts(with: StockImages.paletteNames.map(ImageChoice.palette)))
        #expect(samples.choices(for: .picture) == samples.choices)

        let map = try ExplorerFixtures.session("CIColorMap", samples: samples)
        #expect(map.imageChoices["inputGradientImage"] == .gradient(StockImages.gradientNames[0]))
        #expect(map.imageChoices["inputImage"] == .source)
        let palettize = try ExplorerFixtures.session("CIPalettize", samples: samples)
        #expect(palettize.imageChoices["inputPaletteImage"] == .palette(StockImages.paletteNames[0]))
        let centroid = try ExplorerFixtures.session("CIPaletteCentroid", samples: samples)
        #expect(centroid.imageChoices["inputPaletteImage"] == .palette(StockImages.paletteNames[0]))

        let thermal = try samples.image(.gradient("Thermal"))
        #expect(thermal.extent == Rect(x: 0, y: 0, width: 256, height: 1))
        #expect(try samples.image(.gradient("Thermal")) === thermal)  // made once
        #expect(throws: FilterExplorerError.self) { try samples.image(.palette("Nope")) }
        for choice in [ImageChoice.gradient("X-Ray"), .palette("Game Boy")] {
            #expect(ImageChoice(persisted: choice.persisted) == choice)
        }
    }

    // MARK: Persistence and export

    @Test func tableChoicesRoundTripThroughTheStateFile() throws {
        let directory = try Self.temporaryDirectory("persist")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("swap.cube").path
        try Self.swapCube(dimension: 3).write(toFile: path, atomically: true, encoding: .utf8)
        for choice in [TableChoice.look(.faded), .cubeFile("/a b.cube"), .curves(.crossProcess)] {
            #expect(TableChoice(persisted: choice.persisted) == choice)
        }
        #expect(TableChoice(persisted: "look:Nope") == nil)

        let mixed = try ExplorerFixtures.session("CIColorCubesMixedWithMask")
        try mixed.setTable(.cubeFile(path), forKey: "inputCube0Data")
        try mixed.setTable(.look(.invert), forKey: "inputCube1Data")
        try mixed.set(.string("sRGB"), forKey: "inputColorSpace")
        let saved = mixed.persistedValues()
        #expect(saved == ["inputCube0Data": "cube-file:" + path, "inputCube1Data": "look:Invert", "inputColorSpace": "sRGB"])
        let restored = try ExplorerFixtures.session("CIColorCubesMixedWithMask")
        #expect(restored.restore(saved).isEmpty)
        #expect(restored.tableChoices == mixed.tableChoices)
        #expect(Self.number(restored, "inputCubeDimension") == 3)
        #expect(Self.table(restored, "inputCube1Data", is: Self.bytes(mixed, "inputCube1Data")))
    }

    /// Runs the words of a `cifiltertest render` command the way the command does (its values through
    /// `ValueParser`), rendered over `rect`.
    static func runRender(_ words: [String], rect: Rect, context: RenderContext) throws -> [UInt8] {
        #expect(Array(words.prefix(2)) == ["cifiltertest", "render"])
        let filter = try Filter(named: words[2])
        var i = 3
        while i < words.count {
            switch words[i] {
            case "-i":
                try filter.setValue(.image(try ImageFile.read(words[i + 1])), forKey: "inputImage")
                i += 2
            case "-o":
                i += 2
            default:
                let parts = words[i].split(separator: "=", maxSplits: 1).map(String.init)
                let input = try #require(filter.descriptor.input(parts[0]))
                try filter.setValue(try ValueFiles().value(parts[1], for: input, filter: filter.name), forKey: parts[0])
                i += 1
            }
        }
        return try context.renderRGBA8(try filter.makeOutputImage(), rect: rect).bytes
    }

    @Test(arguments: ["CIColorCube", "CIColorCubeWithColorSpace", "CIColorCubesMixedWithMask", "CIColorCurves",
                      "CIColorMap", "CIPalettize"])
    func exportWritesWhatTheCommandLineCannotSay(filter name: String) throws {
        let directory = try Self.temporaryDirectory("export-\(name)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples = try ExplorerFixtures.samples()
        let session = try ExplorerFixtures.session(name, samples: samples)
        if session.descriptor.input("inputColorSpace") != nil { try session.set(.string("sRGB"), forKey: "inputColorSpace") }
        if name == "CIColorMap" { try session.setImage(.gradient("Thermal"), forKey: "inputGradientImage") }
        let output = directory.appendingPathComponent("out.png").path
        let files = session.exportFiles(output: output)
        let context = RenderContext()
        for file in files { try file.write(context: context) }
        let words = session.renderArguments(output: output)
        for file in files { #expect(words.contains("\(file.key)=\(file.path)")) }
        let expectedFiles: [String: String] = [
            "CIColorCube": "out-cube.cube", "CIColorCubeWithColorSpace": "out-cube.cube",
            "CIColorCubesMixedWithMask": "out-mask.png out-cube0.cube out-cube1.cube", "CIColorCurves": "out-curves.f32",
            "CIColorMap": "out-gradient.png", "CIPalettize": "out-palette.png",
        ]
        #expect(files.map { ($0.path as NSString).lastPathComponent }.joined(separator: " ") == expectedFiles[name])

        let framing = try session.framedOutput()
        let expected = try context.renderRGBA8(framing.image, rect: framing.rect).bytes
        let reproduced = try Self.runRender(words, rect: framing.rect, context: context)
        #expect(reproduced.count == expected.count)
        // Generated images go through 16-bit PNG files: at most one level of difference.
        let worst = zip(expected, reproduced).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(name): the command line's render differs by up to \(worst) levels")
    }

    @Test func theCommandLineReadsCubeFilesForDataInputs() throws {
        let directory = try Self.temporaryDirectory("parse")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try #require(Catalog.builtIn.filter(named: "CIColorCube")?.input("inputCubeData"))
        let path = directory.appendingPathComponent("swap.cube").path
        try Self.swapCube(dimension: 3).write(toFile: path, atomically: true, encoding: .utf8)
        guard case .data(let data) = try ValueFiles().value(path, for: input, filter: "CIColorCube") else {
            Issue.record("a .cube path should give data")
            return
        }
        #expect(data == (try ColorCubeData.parseCubeFile(Self.swapCube(dimension: 3))).data)

        let bad = directory.appendingPathComponent("bad.cube").path
        try "LUT_3D_SIZE 2\n0 0 0\n1 x 0\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let error = #expect(throws: FilterError.self) { try ValueFiles().value(bad, for: input, filter: "CIColorCube") }
        #expect(error?.message == "CIColorCube.inputCubeData: \(bad): .cube line 3: cannot read \"1 x 0\" as three numbers")

        // Raw float32 tables from .f32 files; any other text is its bytes (a missing .cube path too).
        let raw = directory.appendingPathComponent("curves.f32").path
        try Data([1, 2, 3, 4]).write(to: URL(fileURLWithPath: raw))
        let curves = try #require(Catalog.builtIn.filter(named: "CIColorCurves")?.input("inputCurvesData"))
        guard case .data(let rawBytes) = try ValueFiles().value(raw, for: curves, filter: "CIColorCurves") else { return }
        #expect(rawBytes == [1, 2, 3, 4])
        let message = try #require(Catalog.builtIn.filter(named: "CIQRCodeGenerator")?.input("inputMessage"))
        guard case .data(let text) = try ValueFiles().value("see /nowhere/x.cube", for: message, filter: "CIQRCodeGenerator") else { return }
        #expect(text == Array("see /nowhere/x.cube".utf8))
    }
}
