import Foundation
import Testing
@testable import FilterEngine

/// CIPDF417BarcodeGenerator: the symbol character table, known codewords, the layout and geometry rules, and
/// every symbol read back by zxing-cpp.
@Suite struct PDF417Tests {
    static func pdf417(_ message: String, _ values: [String: FilterValue] = [:]) throws -> Image {
        try pdf417(Array(message.utf8), values)
    }

    static func pdf417(_ message: [UInt8], _ values: [String: FilterValue] = [:]) throws -> Image {
        var all = values
        all["inputMessage"] = .data(message)
        return try TestImages.filter("CIPDF417BarcodeGenerator", all)
    }

    // MARK: Building blocks

    /// Bar and space widths of a table entry (16 stored modules plus the trailing space).
    static func widths(_ pattern: UInt16) -> [Int] {
        var widths: [Int] = [], run = 0, previous = true
        for i in stride(from: 15, through: -1, by: -1) {
            let bar = i >= 0 && (pattern >> UInt16(i)) & 1 != 0
            if bar == previous { run += 1 } else { widths.append(run); run = 1; previous = bar }
        }
        widths.append(run)
        return widths
    }

    @Test func symbolCharacterTable() {
        var seen = Set<UInt16>()
        for (index, cluster) in PDF417Patterns.clusters.enumerated() {
            #expect(cluster.count == 929)
            for pattern in cluster {
                let w = Self.widths(pattern)
                // Four bars and four spaces, each 1-6 modules, 17 in all, starting with a bar.
                #expect(pattern & 0x8000 != 0 && w.count == 8 && w.reduce(0, +) == 17 && w.allSatisfy { (1...6).contains($0) })
                #expect(w.count == 8 && ((w[0] - w[2] + w[4] - w[6]) % 9 + 9) % 9 == 3 * index)
                seen.insert(pattern)
            }
        }
        #expect(seen.count == 3 * 929)
        // Published first characters: codeword 0 is 31111136 in cluster 0, 51111125 in cluster 3, 21111155 in 6.
        #expect(Self.widths(PDF417Patterns.cluster0[0]) == [3, 1, 1, 1, 1, 1, 3, 6])
        #expect(Self.widths(PDF417Patterns.cluster3[0]) == [5, 1, 1, 1, 1, 1, 2, 5])
        #expect(Self.widths(PDF417Patterns.cluster6[0]) == [2, 1, 1, 1, 1, 1, 5, 5])
    }

    @Test func textCompactionAndCheckWords() throws {
        // The worked example of the PDF417 encoding tutorial: "PDF417" is 453 178 121 239 in text compaction
        // (P D, F then latch to mixed, 4 1, 7 and the pad), and with its length codeword 5 the four level-1 check
        // words are 452 327 657 619.
        let data = try PDF417Code.dataCodewords(Array("PDF417".utf8), compaction: .automatic, alwaysSpecify: false)
        #expect(data == [453, 178, 121, 239])
        #expect(PDF417Code.checkWords([5] + data, count: 4) == [452, 327, 657, 619])
        // Always-specify-compaction writes the text latch the default mode does not need.
        #expect(try PDF417Code.dataCodewords(Array("PDF417".utf8), compaction: .automatic, alwaysSpecify: true) == [900] + data)
        #expect(try PDF417Code.dataCodewords(Array("PDF417".utf8), compaction: .text, alwaysSpecify: true) == [900] + data)
    }

    @Test func numericAndByteCompaction() throws {
        // ISO/IEC 15438's numeric example: 000213298174000 is 1 624 434 632 282 200 after the latch.
        #expect(try PDF417Code.dataCodewords(Array("000213298174000".utf8), compaction: .numeric, alwaysSpecify: false)
            == [902, 1, 624, 434, 632, 282, 200])
        // Six bytes make five base-900 codewords after latch 924; a shorter tail is one codeword per byte (901).
        let six: [UInt8] = [0xFF, 0xFE, 0x00, 0x41, 0x80, 0x07]
        let words = PDF417Code.bytes(six[...])
        #expect(words.first == 924 && words.count == 6)
        let value = words.dropFirst().reduce(UInt64(0)) { $0 * 900 + UInt64($1) }
        #expect(value == six.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        #expect(PDF417Code.bytes([1, 2, 3][...]) == [901, 1, 2, 3])
        // Automatic: a long digit run goes numeric, a lone byte inside text is shifted.
        let mixed = try PDF417Code.dataCodewords(Array("AB1234567890123CD".utf8), compaction: .automatic, alwaysSpecify: false)
        #expect(mixed.contains(902))
        let shifted = try PDF417Code.dataCodewords(Array("ABCDEF".utf8) + [0xE9] + Array("GHIJK".utf8), compaction: .automatic, alwaysSpecify: false)
        #expect(shifted.contains(913) && !shifted.contains(901))
        // Forced modes refuse what they cannot carry.
        #expect(throws: FilterError.self) { try PDF417Code.dataCodewords(Array("12a".utf8), compaction: .numeric, alwaysSpecify: false) }
        #expect(throws: FilterError.self) { try PDF417Code.dataCodewords([0xE9], compaction: .text, alwaysSpecify: false) }
    }

    @Test func rowIndicatorsCarryTheDimensions() {
        // 10 rows, 4 columns, level 3: (rows-1)/3 = 3, columns-1 = 3, level*3 + (rows-1)%3 = 9.
        let code = PDF417Code(data: [1, 2, 3], rows: 10, columns: 4, level: 3, compact: false)!
        #expect(code.rowIndicators(0) == (3, 3))
        #expect(code.rowIndicators(1) == (9, 3))
        #expect(code.rowIndicators(2) == (3, 9))
        #expect(code.rowIndicators(3) == (33, 33))
        #expect(code.codewords.count == 40 && code.codewords[0] == 40 - 16)
    }

    // MARK: Geometry

    @Test func geometryFollowsCoreImagesAttributeRanges() throws {
        // Width = modules + 4 (2-pixel margins), height = 3 pixels a row + 4: Core Image's own ranges for
        // inputMinWidth (56…583) and inputMinHeight (from 13) are the smallest and largest symbols so drawn.
        let smallest = try Self.pdf417("", ["inputCompactStyle": .number(1), "inputDataColumns": .number(1), "inputRows": .number(3),
                                             "inputCorrectionLevel": .number(0)])
        #expect(smallest.extent == Rect(x: 0, y: 0, width: 56, height: 13))
        let widest = try Self.pdf417("A", ["inputDataColumns": .number(30), "inputRows": .number(3)])
        #expect(widest.extent == Rect(x: 0, y: 0, width: 583, height: 13))
        for (columns, rows, compact) in [(1, 16, false), (4, 7, true), (12, 20, false)] {
            let image = try Self.pdf417("Geometry", ["inputDataColumns": .number(Double(columns)), "inputRows": .number(Double(rows)),
                                                     "inputCompactStyle": .number(compact ? 1 : 0)])
            let modules = 17 * columns + (compact ? 35 : 69)
            #expect(image.extent == Rect(x: 0, y: 0, width: Double(modules + 4), height: Double(3 * rows + 4)))
            let m = try BarcodeTests.modules(image)
            // Light margins, the start pattern (8 bars) at x = 2, each row 3 pixels of identical modules.
            for x in 0..<m.width { #expect(!m.dark[0][x] && !m.dark[1][x] && !m.dark[m.height - 1][x] && !m.dark[m.height - 2][x]) }
            for y in 0..<m.height { #expect(!m.dark[y][0] && !m.dark[y][1] && !m.dark[y][m.width - 1] && !m.dark[y][m.width - 2]) }
            for r in 0..<rows {
                #expect(m.dark[2 + 3 * r] == m.dark[3 + 3 * r] && m.dark[2 + 3 * r] == m.dark[4 + 3 * r])
                #expect(Array(m.dark[2 + 3 * r][2..<12]) == [true, true, true, true, true, true, true, true, false, true])
            }
        }
    }

    @Test func layoutChoices() throws {
        let message = String(repeating: "PDF417 layout ", count: 8)
        // Without constraints: the layout nearest a 3:1 picture.
        let free = try Self.pdf417(message)
        #expect(abs(free.extent.width / free.extent.height - 3) < 1)
        // A preferred aspect ratio moves it; width and height bounds are respected.
        let wide = try Self.pdf417(message, ["inputPreferredAspectRatio": .number(12)])
        #expect(wide.extent.width / wide.extent.height > free.extent.width / free.extent.height)
        let narrow = try Self.pdf417(message, ["inputMaxWidth": .number(150)])
        #expect(narrow.extent.width <= 150)
        let tall = try Self.pdf417(message, ["inputMinHeight": .number(200)])
        #expect(tall.extent.height >= 200)
        // Fixed rows or columns are kept.
        #expect(try Self.pdf417(message, ["inputDataColumns": .number(7)]).extent.width == Double(17 * 7 + 69 + 4))
        #expect(try Self.pdf417(message, ["inputRows": .number(40)]).extent.height == Double(3 * 40 + 4))
        // What cannot fit is an error naming the filter.
        #expect(throws: FilterError.self) { try Self.pdf417(String(repeating: "x", count: 600), ["inputRows": .number(3), "inputDataColumns": .number(2)]) }
        // Bounds no layout meets give the nearest one: here the narrowest, one column.
        #expect(try Self.pdf417("Narrow", ["inputMaxWidth": .number(60)]).extent.width == Double(17 + 69 + 4))
        // The default correction level follows ISO/IEC 15438's recommendation: 8 check words for a short message.
        let code = try BarcodeFilters.pdf417Code(Array("Hi".utf8), compaction: .automatic, alwaysSpecify: false, compact: false, level: nil,
                                                 columns: nil, rows: nil, bounds: .init(), aspectRatio: nil)
        #expect(code.correctionLevel == 2)
    }

    // MARK: Decoded by zxing-cpp

    /// zxing-cpp reports compact PDF417 as "PDF417" too; compactness is checked by the geometry test.
    @Test func decodesAcrossOptions() throws {
        let binary: [UInt8] = (0..<200).map { UInt8(($0 * 37 + 11) % 256) }
        let cases: [([UInt8], [String: FilterValue], String)] = [
            (Array("Hello, world".utf8), [:], "PDF417"),
            (Array("Hello, world".utf8), ["inputCompactStyle": .number(1)], "PDF417"),
            (Array("0123456789012345678901234567890123456789012345678901234567890".utf8), ["inputCompactionMode": .number(1)], "PDF417"),
            (Array("Text compaction: lower, UPPER, 12 digits; punctuation {}~!".utf8), ["inputCompactionMode": .number(2)], "PDF417"),
            (Array("Text compaction always specified".utf8), ["inputCompactionMode": .number(2), "inputAlwaysSpecifyCompaction": .number(1)], "PDF417"),
            (Array("Bytes: \u{00e9}t\u{00e9}".utf8), ["inputCompactionMode": .number(3)], "PDF417"),
            (binary, [:], "PDF417"),
            (binary, ["inputCompactionMode": .number(3), "inputCompactStyle": .number(1), "inputDataColumns": .number(9)], "PDF417"),
            (Array("Mixed 1234567890123456 and text again, then bytes \u{00ff}\u{00fe} and more text".utf8), ["inputAlwaysSpecifyCompaction": .number(1)], "PDF417"),
            (Array("Level 0".utf8), ["inputCorrectionLevel": .number(0)], "PDF417"),
            (Array("Level 5".utf8), ["inputCorrectionLevel": .number(5), "inputDataColumns": .number(6)], "PDF417"),
            (Array("Level 8".utf8), ["inputCorrectionLevel": .number(8)], "PDF417"),
            (Array("One column".utf8), ["inputDataColumns": .number(1)], "PDF417"),
            (Array("Thirty columns".utf8), ["inputDataColumns": .number(30), "inputCorrectionLevel": .number(4)], "PDF417"),
            (Array("Many rows".utf8), ["inputRows": .number(60), "inputDataColumns": .number(2)], "PDF417"),
        ]
        let images = try cases.map { try Self.pdf417($0.0, $0.1) }
        guard let decoded = try BarcodeDecoder.decode(images) else { return }
        for (i, (message, values, format)) in cases.enumerated() {
            #expect(decoded[i] == [BarcodeDecoder.Result(format: format, bytes: message)], "case \(i): \(values)")
        }
    }

    /// Every codeword value 0-899 in every cluster: byte compaction turns 6 bytes into 5 base-900 codewords, so
    /// messages are built from chosen codewords; a row of 30 columns shifted down by whole rows moves each
    /// codeword through the three clusters.
    @Test func everyCodewordInEveryCluster() throws {
        var images: [Image] = [], messages: [[UInt8]] = []
        for part in 0..<3 {
            for shift in 0..<3 {
                var words: [Int] = []
                for g in 0..<(shift * 6) { words += [1, g, g, g, g] }  // whole rows of filler before
                for g in 0..<75 {
                    let base = (part * 75 + g) * 4
                    words += [1, base, base + 1, base + 2, base + 3]
                }
                var message: [UInt8] = []
                for group in stride(from: 0, to: words.count, by: 5) {
                    let value = words[group..<group + 5].reduce(UInt64(0)) { $0 * 900 + UInt64($1) }
                    for k in stride(from: 40, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: value >> UInt64(k))) }
                }
                #expect(PDF417Code.bytes(message[...]) == [924] + words)
                messages.append(message)
                // Length, latch, then the groups: 2 codewords ahead of the first group; 30 columns.
                images.append(try Self.pdf417(message, ["inputCompactionMode": .number(3), "inputDataColumns": .number(30),
                                                        "inputCorrectionLevel": .number(0)]))
            }
        }
        guard let decoded = try BarcodeDecoder.decode(images) else { return }
        for i in images.indices {
            #expect(decoded[i] == [BarcodeDecoder.Result(format: "PDF417", bytes: messages[i])], "symbol \(i)")
        }
    }
}
