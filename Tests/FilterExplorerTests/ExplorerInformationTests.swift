import FilterEngine
import Foundation
import Testing
@testable import FilterExplorer

/// What a new user cannot guess: shades without colour, an input's help line, the output extent, the numbers
/// of a reduction.
@Suite struct ExplorerInformationTests {
    @Test func withoutColourCellsAreShadesByLuminance() {
        // Four cells of 8×16 pixels: black, dark grey, light grey, white.
        let greys: [UInt8] = [0, 90, 170, 255]
        var pixels = [UInt8](repeating: 255, count: 32 * 16 * 4)
        for y in 0..<16 { for x in 0..<32 { for c in 0..<3 { pixels[(y * 32 + x) * 4 + c] = greys[x / 8] } } }
        let cells = ChafaConverter.shades(pixels, width: 32, height: 16, columns: 4, rows: 1, unicode: true)
        #expect(cells.chars.map { Character(Unicode.Scalar($0)!) } == [" ", "░", "▓", "█"])
        let ascii = ChafaConverter.shades(pixels, width: 32, height: 16, columns: 4, rows: 1, unicode: false)
        #expect(ascii.chars.map { Character(Unicode.Scalar($0)!) } == [" ", "-", "*", "@"])
    }

    @Test func theInputHelpLineHasDescriptionDefaultRangeAndType() throws {
        let input = try #require(FiltersList.shared.record(named: "CIGaussianBlur")?.descriptor.input("inputRadius"))
        let line = Explorer.inputHelp(input)
        #expect(line.contains("default 10"))
        #expect(line.contains("range 0 … "))
        #expect(line.hasPrefix("distance · ") || line.hasPrefix("scalar · "))
    }

    @Test func theExtentLabelSaysWhereTheOutputIs() {
        #expect(Explorer.extentLabel(Rect(x: -80, y: -80, width: 672, height: 672), shown: nil)
                == "output 672×672 at (−80,−80)")
        #expect(Explorer.extentLabel(.infinite, shown: Rect(x: 0, y: 0, width: 512, height: 512))
                == "output infinite, shown 512×512")
    }

    @Test func aReductionShowsItsNumbers() throws {
        let samples = try ExplorerFixtures.samples()
        let record = try #require(FiltersList.shared.record(named: "CIAreaAverage"))
        let session = try FilterSession(descriptor: record.descriptor, samples: samples)
        let lines = try #require(try session.reductionValues())
        #expect(lines.count == 1 && lines[0].hasPrefix("(0,0) linear RGBA ") && lines[0].contains("· sRGB 8-bit "))
        // The numbers are the engine's own: the same pixel rendered directly.
        let output = try session.framedOutput(forExport: true).image
        let p = try RenderContext().render(output, rect: output.extent).pixel(x: 0, y: 0)
        #expect(lines[0].contains(String(format: "%.4f %.4f %.4f", p.x, p.y, p.z)))
        let sepia = try FilterSession(descriptor: try #require(FiltersList.shared.record(named: "CISepiaTone")).descriptor,
                                      samples: samples)
        #expect(try sepia.reductionValues() == nil)
    }
}
