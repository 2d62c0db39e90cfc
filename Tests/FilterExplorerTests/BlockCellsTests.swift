@testable import FilterExplorer
import Testing

/// The truecolor preview's own cells: block elements and colours by least squares over 8×8 samples a cell.
@Suite struct BlockCellsTests {
    /// RGBA8 pixels, `colour(x, y)` giving packed 0xRRGGBB.
    static func pixels(_ width: Int, _ height: Int, _ colour: (Int, Int) -> Int32) -> [UInt8] {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let c = colour(x, y), i = (y * width + x) * 4
                bytes[i] = UInt8(c >> 16 & 0xFF)
                bytes[i + 1] = UInt8(c >> 8 & 0xFF)
                bytes[i + 2] = UInt8(c & 0xFF)
            }
        }
        return bytes
    }

    static let red: Int32 = 0xFF0000, white: Int32 = 0xFFFFFF

    @Test func aUniformAreaIsASpaceOfItsColour() {
        let cells = BlockCells.convert(Self.pixels(32, 32) { _, _ in 0x336699 }, width: 32, height: 32, columns: 4, rows: 2)
        #expect(cells.width == 4 && cells.height == 2)
        #expect(cells.chars == [UInt32](repeating: 32, count: 8))
        #expect(cells.background == [Int32](repeating: 0x336699, count: 8))
    }

    /// The red part of a cell and the symbol that draws it red on white.
    enum Shape: CaseIterable, Sendable {
        case lowerQuarter, lowerSevenEighths, leftThreeEighths, leftSevenEighths
        case upperLeft, upperRight, lowerLeft, lowerRight, diagonal

        var symbol: UInt32 {
            switch self {
            case .lowerQuarter: 0x2582       // ▂
            case .lowerSevenEighths: 0x2587  // ▇
            case .leftThreeEighths: 0x258D   // ▍
            case .leftSevenEighths: 0x2589   // ▉
            case .upperLeft: 0x2598          // ▘
            case .upperRight: 0x259D         // ▝
            case .lowerLeft: 0x2596          // ▖
            case .lowerRight: 0x2597         // ▗
            case .diagonal: 0x259A           // ▚
            }
        }

        func isRed(_ x: Int, _ y: Int) -> Bool {
            switch self {
            case .lowerQuarter: y >= 6
            case .lowerSevenEighths: y >= 1
            case .leftThreeEighths: x < 3
            case .leftSevenEighths: x < 7
            case .upperLeft: x < 4 && y < 4
            case .upperRight: x >= 4 && y < 4
            case .lowerLeft: x < 4 && y >= 4
            case .lowerRight: x >= 4 && y >= 4
            case .diagonal: (x < 4) == (y < 4)
            }
        }
    }

    /// One cell of 8×8 pixels, each pixel a sample: the split drawn is the one the pixels have.
    @Test(arguments: Shape.allCases)
    func eachSplitIsFoundWithItsTwoColours(shape: Shape) {
        let cells = BlockCells.convert(Self.pixels(8, 8) { shape.isRed($0, $1) ? Self.red : Self.white }, width: 8, height: 8,
                                       columns: 1, rows: 1)
        #expect(cells.chars == [shape.symbol])
        #expect(cells.foreground == [Self.red])
        #expect(cells.background == [Self.white])
    }

    @Test func theInverseSplitIsTheSameSymbolWithTheColoursSwapped() {
        // The upper five eighths red is the lower three eighths white.
        let cells = BlockCells.convert(Self.pixels(8, 8) { _, y in y < 5 ? Self.red : Self.white }, width: 8, height: 8,
                                       columns: 1, rows: 1)
        #expect(cells.chars == [0x2583])
        #expect(cells.foreground == [Self.white] && cells.background == [Self.red])
    }

    @Test func aLargerPictureIsAveragedIntoEachCell() {
        // 40×20 pixels into 5×1 cells: each cell 8×20 pixels; the left half of every cell black, the right white.
        let cells = BlockCells.convert(Self.pixels(40, 20) { x, _ in x % 8 < 4 ? 0x000000 : 0xFFFFFF }, width: 40, height: 20,
                                       columns: 5, rows: 1)
        #expect(cells.chars == [UInt32](repeating: 0x258C, count: 5))  // ▌
        // Pure black is sent as #000008 (numbers below 8 are the theme's ANSI colours).
        #expect(cells.foreground == [Int32](repeating: 8, count: 5))
        #expect(cells.background == [Int32](repeating: 0xFFFFFF, count: 5))
    }

    @Test func areaAverageWeighsPartsOfPixels() {
        // Three pixels into two samples: each covers one and a half pixels.
        let row = Self.pixels(3, 1) { x, _ in Int32(x * 30) << 16 }
        let shrunk = BlockCells.areaAverage(row, width: 3, height: 1, to: 2, 1)
        #expect(abs(shrunk[0] - 10) < 1e-3 && abs(shrunk[3] - 50) < 1e-3)
        // Enlarging repeats: one pixel to 3×2 samples of its colour.
        let one = BlockCells.areaAverage(Self.pixels(1, 1) { _, _ in 0x0A141E }, width: 1, height: 1, to: 3, 2)
        #expect(one.count == 18)
        for i in stride(from: 0, to: 18, by: 3) {
            #expect(abs(one[i] - 10) < 1e-3 && abs(one[i + 1] - 20) < 1e-3 && abs(one[i + 2] - 30) < 1e-3)
        }
    }

    @Test func emptyOrShortInputGivesBlankCellsNotACrash() {
        let none = BlockCells.convert([], width: 0, height: 0, columns: 3, rows: 2)
        #expect(none.chars == [UInt32](repeating: 32, count: 6) && none.background == [Int32](repeating: -1, count: 6))
        let short = BlockCells.convert([1, 2, 3], width: 4, height: 4, columns: 1, rows: 1)
        #expect(short.chars == [32])
        let noCells = BlockCells.convert(Self.pixels(4, 4) { _, _ in 0 }, width: 4, height: 4, columns: 0, rows: 0)
        #expect(noCells.chars.isEmpty)
    }

    /// The truecolor converter uses them; the palettes keep chafa.
    @Test func theTruecolorConverterDrawsBlockCells() {
        let bytes = Self.pixels(16, 16) { x, y in x < 8 && y < 8 ? Self.red : Self.white }
        let cells = ChafaConverter(mode: .truecolor, unicode: true).convert(bytes, width: 16, height: 16, columns: 1, rows: 1)
        #expect(cells == BlockCells.convert(bytes, width: 16, height: 16, columns: 1, rows: 1))
        #expect(cells.chars == [0x2598])
    }
}
