import FilterEngine
import FilterPipeline
import Foundation
import Testing
@testable import FilterExplorer

/// The preview's direct drawing (escape sequences instead of ncurses colour pairs) and a large JPEG's reduced
/// first decode.
@Suite struct DirectCellWriterTests {
    static let block: UInt32 = 0x2580  // ▀

    static func cells(_ width: Int, _ height: Int, fg: Int32, bg: Int32, char: UInt32 = block) -> PreviewCells {
        PreviewCells(width: width, height: height, chars: [UInt32](repeating: char, count: width * height),
                     foreground: [Int32](repeating: fg, count: width * height),
                     background: [Int32](repeating: bg, count: width * height))
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func truecolorCellsAreRunsOfRGBColoursAtTheirPlace() {
        var writer = DirectCellWriter(mode: .truecolor)
        let out = writer.bytes(for: Self.cells(3, 1, fg: 0xFF8000, bg: 0x000102), originX: 4, originY: 2,
                               screenColumns: 20, screenRows: 10, owned: [true, true, true], rowsRewritten: [false])
        // Cursor saved, row 3 column 5 (1-based), one colour change for the run, three characters, reset, restored.
        #expect(Self.text(out) == "\u{1B}7\u{1B}[3;5H\u{1B}[38;2;255;128;0;48;2;0;1;2m▀▀▀\u{1B}[0m\u{1B}8")
    }

    @Test func indexedCellsUse256ColourCodesAndDefaults() {
        var writer = DirectCellWriter(mode: .indexed256)
        let out = writer.bytes(for: Self.cells(1, 1, fg: 196, bg: -1, char: 0x41), originX: 0, originY: 0,
                               screenColumns: 5, screenRows: 5, owned: [true], rowsRewritten: [false])
        #expect(Self.text(out) == "\u{1B}7\u{1B}[1;1H\u{1B}[38;5;196;49mA\u{1B}[0m\u{1B}8")
    }

    @Test func onlyChangedCellsAreWrittenAgain() {
        var writer = DirectCellWriter(mode: .truecolor)
        let first = Self.cells(4, 2, fg: 0x102030, bg: 0x405060)
        let all = [Bool](repeating: true, count: 8)
        #expect(!writer.bytes(for: first, originX: 0, originY: 0, screenColumns: 10, screenRows: 5, owned: all,
                              rowsRewritten: [false, false]).isEmpty)
        // The same frame again: nothing to write.
        #expect(writer.bytes(for: first, originX: 0, originY: 0, screenColumns: 10, screenRows: 5, owned: all,
                             rowsRewritten: [false, false]).isEmpty)
        // One cell changed (row 2, column 3): only it goes out.
        var background = first.background
        background[6] = 0xFFFFFF
        let changed = PreviewCells(width: 4, height: 2, chars: first.chars, foreground: first.foreground, background: background)
        let out = Self.text(writer.bytes(for: changed, originX: 0, originY: 0, screenColumns: 10, screenRows: 5, owned: all,
                                         rowsRewritten: [false, false]))
        #expect(out == "\u{1B}7\u{1B}[2;3H\u{1B}[38;2;16;32;48;48;2;255;255;255m▀\u{1B}[0m\u{1B}8")
        // A row ncurses writes to is written whole; after `forget` everything is.
        let row = Self.text(writer.bytes(for: changed, originX: 0, originY: 0, screenColumns: 10, screenRows: 5, owned: all,
                                         rowsRewritten: [true, false]))
        #expect(row.components(separatedBy: "▀").count - 1 == 4 && row.contains("\u{1B}[1;1H"))
        writer.forget()
        let everything = Self.text(writer.bytes(for: changed, originX: 0, originY: 0, screenColumns: 10, screenRows: 5,
                                                owned: all, rowsRewritten: [false, false]))
        #expect(everything.components(separatedBy: "▀").count - 1 == 8)
    }

    /// In truecolor a cell within `truecolorTolerance` of what is shown stays; beyond it, or with another
    /// character, it is written; the shown colours never drift from the frame by more than the tolerance.
    @Test func truecolorCellsWithinTheToleranceOfWhatIsShownStay() {
        var writer = DirectCellWriter(mode: .truecolor)
        let all = [Bool](repeating: true, count: 3)
        func frame(_ fg: [Int32], _ bg: [Int32], _ chars: [UInt32] = [Self.block, Self.block, Self.block]) -> PreviewCells {
            PreviewCells(width: 3, height: 1, chars: chars, foreground: fg, background: bg)
        }
        func write(_ cells: PreviewCells, rewritten: Bool = false) -> String {
            Self.text(writer.bytes(for: cells, originX: 0, originY: 0, screenColumns: 5, screenRows: 1, owned: all,
                                   rowsRewritten: [rewritten]))
        }
        let t = DirectCellWriter.truecolorTolerance
        _ = write(frame([0x101010, 0x202020, 0x303030], [0x404040, 0x505050, 0x606060]))
        // Each channel moved by the tolerance: nothing to write.
        let near = frame([0x101010 + t * 0x010101, 0x202020 - t, 0x303030], [0x404040, 0x505050 + (t << 8), 0x606060 - t * 0x010000])
        #expect(write(near).isEmpty)
        // One channel of the middle cell one level further: only it goes out, with the frame's exact colours.
        let beyond = frame([0x101010, 0x202020 - t - 1, 0x303030], [0x404040, 0x505050, 0x606060])
        #expect(write(beyond) == "\u{1B}7\u{1B}[1;2H\u{1B}[38;2;32;32;\(0x20 - t - 1);48;2;80;80;80m▀\u{1B}[0m\u{1B}8")
        // Still near the first frame but beyond the tolerance of what is now shown: written (no drift).
        let drift = frame([0x101010, 0x202020 + t, 0x303030], [0x404040, 0x505050, 0x606060])
        #expect(write(drift).contains("\u{1B}[1;2H"))
        // Another character in the same colours is written; a space compares by its background alone.
        #expect(write(frame(drift.foreground, drift.background, [Self.block, 0x2584, Self.block])).contains("▄"))
        _ = write(frame([0x101010, 0x202020, 0x303030], [0x404040, 0x505050, 0x606060], [32, 32, 32]))
        #expect(write(frame([0xFFFFFF, 0x000008, 0x808080], [0x404040, 0x505050, 0x606060], [32, 32, 32])).isEmpty)
        // A row ncurses rewrites gets the frame's exact cells.
        #expect(write(near, rewritten: true).components(separatedBy: "▀").count - 1 == 3)
    }

    @Test func theToleranceIsForTruecolourOnly() {
        var writer = DirectCellWriter(mode: .indexed256)
        _ = writer.bytes(for: Self.cells(1, 1, fg: 100, bg: 200), originX: 0, originY: 0, screenColumns: 2, screenRows: 1,
                         owned: [true], rowsRewritten: [false])
        // Palette indices one apart are unrelated colours.
        #expect(!writer.bytes(for: Self.cells(1, 1, fg: 101, bg: 200), originX: 0, originY: 0, screenColumns: 2, screenRows: 1,
                              owned: [true], rowsRewritten: [false]).isEmpty)
    }

    @Test func cellsCoveredByTheInterfaceAreLeftAloneAndRewrittenWhenUncovered() {
        var writer = DirectCellWriter(mode: .truecolor)
        let frame = Self.cells(3, 1, fg: 0x111111, bg: 0x222222)
        // The middle cell holds something ncurses drew (a marker, an overlay): skipped, with a jump over it.
        let covered = Self.text(writer.bytes(for: frame, originX: 0, originY: 0, screenColumns: 10, screenRows: 2,
                                             owned: [true, false, true], rowsRewritten: [false]))
        #expect(covered.contains("\u{1B}[1;1H") && covered.contains("\u{1B}[1;3H"))
        #expect(covered.components(separatedBy: "▀").count - 1 == 2)
        // Uncovered, it is written even though the frame did not change.
        let uncovered = Self.text(writer.bytes(for: frame, originX: 0, originY: 0, screenColumns: 10, screenRows: 2,
                                               owned: [true, true, true], rowsRewritten: [false]))
        #expect(uncovered == "\u{1B}7\u{1B}[1;2H\u{1B}[38;2;17;17;17;48;2;34;34;34m▀\u{1B}[0m\u{1B}8")
    }

    /// ncurses takes the mark for a blank: where a smaller frame (or none) leaves a plain blank in its model, the
    /// old picture is blanked by the writer; where ncurses draws something, it is left to ncurses.
    @Test func cellsOfAnOldFrameAreBlankedWhereNcursesHasABlank() {
        var writer = DirectCellWriter(mode: .indexed256)
        _ = writer.bytes(for: Self.cells(3, 1, fg: 1, bg: 2), originX: 0, originY: 0, screenColumns: 5, screenRows: 2,
                         owned: [true, true, true], rowsRewritten: [false])
        let smaller = Self.text(writer.bytes(for: Self.cells(1, 1, fg: 1, bg: 2), originX: 0, originY: 0, screenColumns: 5,
                                             screenRows: 2, owned: [true], rowsRewritten: [false],
                                             isBlank: { _, x in x == 1 }))
        // Column 2 (1-based) is blanked; column 3 holds ncurses' text; column 1 is unchanged.
        #expect(smaller == "\u{1B}7\u{1B}[1;2H\u{1B}[39;49m \u{1B}[0m\u{1B}8")
        let none = PreviewCells(width: 0, height: 0, chars: [], foreground: [], background: [])
        let gone = Self.text(writer.bytes(for: none, originX: 0, originY: 0, screenColumns: 5, screenRows: 2, owned: [],
                                          rowsRewritten: []))
        #expect(gone == "\u{1B}7\u{1B}[1;1H\u{1B}[39;49m \u{1B}[0m\u{1B}8")
    }

    @Test func controlCharactersNeverReachTheTerminal() {
        var writer = DirectCellWriter(mode: .indexed256)
        let out = writer.bytes(for: Self.cells(2, 1, fg: 1, bg: 2, char: 0x1B), originX: 0, originY: 0,
                               screenColumns: 4, screenRows: 1, owned: [true, true], rowsRewritten: [false])
        // Only the writer's own sequences carry ESC: save, position, colour, reset, restore.
        #expect(out.filter { $0 == 0x1B }.count == 5)
    }
}

@Suite struct ReducedDecodeTests {
    /// A smooth 803×601 JPEG (odd sizes: the reduced size rounds up).
    static func jpeg() throws -> Data {
        let (width, height) = (803, 601)
        let buffer = PixelBuffer(rect: PixelRect(x: 0, y: 0, width: width, height: height))
        for y in 0..<height {
            let row = buffer.row(y)
            for x in 0..<width {
                let u = Float(x) / Float(width), v = Float(y) / Float(height)
                row[x] = Pixel(u, v, 0.5 + 0.4 * sin(u * 6), 1)
            }
        }
        return try ImageFile.encode(Image(buffer: buffer), format: .jpeg, context: RenderContext())
    }

    @Test func aQuarterDecodeHasTheRoundedUpSizeAndTheBlockMeans() throws {
        let data = try Self.jpeg()
        let context = RenderContext()
        let full = try ImageFile.decode(data)
        var options = ImageFile.DecodeOptions()
        options.jpegReduction = 4
        let quarter = try ImageFile.decode(data, options: options)
        #expect(quarter.image.extent.width == 201 && quarter.image.extent.height == 151)
        // The properties give the file's size, as for a full decode.
        #expect(quarter.properties.pixelWidth == 803 && quarter.properties.pixelHeight == 601)
        let reduced = try context.renderRGBA8(quarter.image, rect: quarter.image.extent)
        // Compared on whole 4×4 blocks from the file's top left (the last, partial row and column of blocks
        // left out; the engine's y goes up, so the top 600 rows are moved down onto a grid from 0).
        let top = full.image.transformed(by: .translation(x: 0, y: -1)).cropped(to: Rect(x: 0, y: 0, width: 800, height: 600))
        let means = try context.renderRGBA8(top.downsampled(by: 4), rect: Rect(x: 0, y: 0, width: 200, height: 150))
        var total = 0, worst = 0, count = 0
        for y in 0..<150 {
            for x in 0..<200 {
                for c in 0..<3 {
                    // Rows top to bottom in both: the reduced image's top row is the file's first.
                    let d = abs(Int(reduced.bytes[(y * 201 + x) * 4 + c]) - Int(means.bytes[(y * 200 + x) * 4 + c]))
                    total += d
                    worst = max(worst, d)
                    count += 1
                }
            }
        }
        #expect(Double(total) / Double(count) < 2, "mean difference \(Double(total) / Double(count))")
        #expect(worst <= 12, "worst difference \(worst)")
    }

    @Test func aLargeJPEGOpensReducedAtItsTrueSizeThenFullSize() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-reduced-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("big.jpg").path
        // 4001×2003: 8 MP, above the quick-decode threshold, sizes not divisible by the reduction.
        let big = Image(buffer: PixelBuffer(rect: PixelRect(x: 0, y: 0, width: 4001, height: 2003)))
        try ImageFile.write(big, to: path, context: RenderContext())
        let samples = try SampleLibrary(imagePath: path, environment: [:])
        #expect(samples.sourceRect == Rect(x: 0, y: 0, width: 4001, height: 2003))
        #expect(samples.isSourceReduced)
        // A proxy from the reduced decode is on the full image's grid.
        let proxy = try samples.proxy(.source, factor: 7, context: RenderContext())
        #expect(proxy.extent == Rect(x: 0, y: 0, width: 572, height: 287))
        samples.waitForFullSource()
        #expect(!samples.isSourceReduced)
        #expect(samples.sourceRect == Rect(x: 0, y: 0, width: 4001, height: 2003))
        #expect(try samples.proxy(.source, factor: 7, context: RenderContext()).extent == proxy.extent)
    }
}
