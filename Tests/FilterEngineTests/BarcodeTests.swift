import Foundation
import Testing
@testable import FilterEngine

/// QR and Code 128 generators: known codewords, a decoder written here that reads our symbols back, layout and
/// extents, and Core Image's own renders.
@Suite struct BarcodeTests {
    /// Dark modules of a rendered generator, row 0 at the top (as printed).
    static func modules(_ image: Image) throws -> (width: Int, height: Int, dark: [[Bool]]) {
        let buffer = try TestImages.render(image)
        let w = buffer.rect.width, h = buffer.rect.height
        var rows: [[Bool]] = []
        for top in 0..<h {
            let y = h - 1 - top
            rows.append((0..<w).map { x in
                let p = buffer.pixel(x: x, y: y)
                #expect(p.w == 1 && (p.x == 0 || p.x == 1) && p.x == p.y && p.y == p.z)
                return p.x == 0
            })
        }
        return (w, h, rows)
    }

    static func qr(_ message: String, _ level: String = "M") throws -> Image {
        try TestImages.filter("CIQRCodeGenerator", ["inputMessage": .data(Array(message.utf8)),
                                                    "inputCorrectionLevel": .string(level)])
    }

    // MARK: QR building blocks

    @Test func reedSolomonKnownCodewords() {
        // Version 1-M "HELLO WORLD" (alphanumeric), a published worked example of the encoding.
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        let ecc = GaloisField.qr.checkWords(data.map(Int.init), count: 10)
        #expect(ecc == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    @Test func formatAndVersionBits() {
        // Values from the standard's tables.
        #expect(QRCode.formatBits(level: .medium, mask: 0) == 0b101010000010010)
        #expect(QRCode.formatBits(level: .low, mask: 0) == 0b111011111000100)
        #expect(QRCode.formatBits(level: .high, mask: 7) == 0b000100000111011)
        #expect(QRCode.versionBits(7) == 0b000111110010010100)
        #expect(QRCode.versionBits(40) == 0b101000110001101001)
    }

    @Test func capacitiesAndAlignment() {
        // Byte-mode capacities of the standard: 1-L 17, 1-H 7, 10-M 213, 40-L 2953, 40-H 1273 bytes.
        func capacity(_ v: Int, _ l: QRCode.Level) -> Int { (QRCode.dataCodewords(v, l) * 8 - 4 - (v <= 9 ? 8 : 16)) / 8 }
        #expect(capacity(1, .low) == 17)
        #expect(capacity(1, .high) == 7)
        #expect(capacity(10, .medium) == 213)
        #expect(capacity(40, .low) == 2953)
        #expect(capacity(40, .high) == 1273)
        #expect(QRCode(bytes: [UInt8](repeating: 65, count: 17), level: .low)?.version == 1)
        #expect(QRCode(bytes: [UInt8](repeating: 65, count: 18), level: .low)?.version == 2)
        #expect(QRCode(bytes: [UInt8](repeating: 65, count: 2953), level: .low)?.version == 40)
        #expect(QRCode(bytes: [UInt8](repeating: 65, count: 2954), level: .low) == nil)
        #expect(QRCode.alignmentPositions(2) == [6, 18])
        #expect(QRCode.alignmentPositions(7) == [6, 22, 38])
        #expect(QRCode.alignmentPositions(32) == [6, 34, 60, 86, 112, 138])
        #expect(QRCode.alignmentPositions(40) == [6, 30, 58, 86, 114, 142, 170])
    }

    // MARK: Reading our own symbols back

    /// Decodes a symbol (quiet zone of one module removed): checks function patterns and format information,
    /// unmasks, de-interleaves, verifies every Reed-Solomon block and returns the byte-mode message.
    static func decode(_ rows: [[Bool]]) throws -> (level: Int, mask: Int, version: Int, message: [UInt8]) {
        let size = rows.count - 2
        let version = (size - 17) / 4
        #expect((size - 17) % 4 == 0)
        func dark(_ x: Int, _ y: Int) -> Bool { rows[y + 1][x + 1] }
        // Quiet zone light.
        for i in 0..<rows.count {
            #expect(!rows[0][i] && !rows[rows.count - 1][i] && !rows[i][0] && !rows[i][rows.count - 1])
        }
        // Finders (7×7 rings) and their light separators.
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 {
                    let x = cx + dx, y = cy + dy
                    guard x >= 0, y >= 0, x < size, y < size else { continue }
                    let ring = max(abs(dx), abs(dy))
                    #expect(dark(x, y) == (ring <= 3 && ring != 2), "finder at \(cx),\(cy) module \(x),\(y)")
                }
            }
        }
        // Timing patterns.
        for i in 8..<(size - 8) {
            #expect(dark(i, 6) == (i % 2 == 0))
            #expect(dark(6, i) == (i % 2 == 0))
        }
        #expect(dark(8, size - 8), "dark module")
        // Format information: both copies agree and form a BCH code word.
        var first = 0, second = 0
        let firstPositions = [(8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 7), (8, 8), (7, 8),
                              (5, 8), (4, 8), (3, 8), (2, 8), (1, 8), (0, 8)]
        for (i, (x, y)) in firstPositions.enumerated() where dark(x, y) { first |= 1 << i }
        for i in 0..<8 where dark(size - 1 - i, 8) { second |= 1 << i }
        for i in 8..<15 where dark(8, size - 15 + i) { second |= 1 << i }
        #expect(first == second)
        let unmasked = first ^ 0x5412
        // BCH(15,5) with generator 0x537: the remainder of the whole word is zero.
        var rem = unmasked
        for shift in stride(from: 4, through: 0, by: -1) where rem & (1 << (shift + 10)) != 0 { rem ^= 0x537 << shift }
        #expect(rem == 0, "format BCH")
        let level = unmasked >> 13, mask = (unmasked >> 10) & 7

        // Data modules: everything the encoder does not reserve, read in the zigzag order.
        var grid = QRCode.Grid(version: version)
        grid.drawFunctionPatterns()
        var bits: [Bool] = []
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vert in 0..<size {
                for j in 0..<2 {
                    let x = right - j
                    let y = ((right + 1) & 2) == 0 ? size - 1 - vert : vert
                    guard !grid.isFunction[y * size + x] else { continue }
                    let flip: Bool = switch mask {
                    case 0: (x + y) % 2 == 0
                    case 1: y % 2 == 0
                    case 2: x % 3 == 0
                    case 3: (x + y) % 3 == 0
                    case 4: (x / 3 + y / 2) % 2 == 0
                    case 5: (x * y) % 2 + (x * y) % 3 == 0
                    case 6: ((x * y) % 2 + (x * y) % 3) % 2 == 0
                    default: ((x + y) % 2 + (x * y) % 3) % 2 == 0
                    }
                    bits.append(dark(x, y) != flip)
                }
            }
            right -= 2
        }
        let total = bits.count / 8
        var codewords = [UInt8](repeating: 0, count: total)
        for i in 0..<(total * 8) where bits[i] { codewords[i / 8] |= 0x80 >> UInt8(i % 8) }
        // De-interleave with the block table, and check each block's syndromes vanish.
        let levelIndex = [1, 0, 3, 2][level]  // format bits → L, M, Q, H
        let blocks = QRCode.blockCount[levelIndex][version], ecc = QRCode.eccPerBlock[levelIndex][version]
        let short = blocks - total % blocks, shortData = total / blocks - ecc
        var blockData = (0..<blocks).map { _ in [UInt8]() }
        var k = 0
        for i in 0...shortData {
            for b in 0..<blocks where i < shortData + (b < short ? 0 : 1) { blockData[b].append(codewords[k]); k += 1 }
        }
        var blockEcc = (0..<blocks).map { _ in [UInt8]() }
        for _ in 0..<ecc { for b in 0..<blocks { blockEcc[b].append(codewords[k]); k += 1 } }
        for b in 0..<blocks {
            let word = blockData[b] + blockEcc[b]
            for r in 0..<ecc {
                // Evaluate the codeword polynomial at α^r by Horner's rule.
                var alpha: UInt8 = 1
                for _ in 0..<r { alpha = gfMultiply(alpha, 2) }
                var s: UInt8 = 0
                for c in word { s = gfMultiply(s, alpha) ^ c }
                #expect(s == 0, "block \(b) syndrome \(r)")
            }
        }
        // Byte-mode segment.
        let data = blockData.flatMap { $0 }
        var position = 0
        func read(_ n: Int) -> Int {
            var v = 0
            for _ in 0..<n {
                v = v << 1 | Int((data[position >> 3] >> UInt8(7 - position & 7)) & 1)
                position += 1
            }
            return v
        }
        #expect(read(4) == 0b0100)
        let count = read(version <= 9 ? 8 : 16)
        let message = (0..<count).map { _ in UInt8(read(8)) }
        return (level, mask, version, message)
    }

    /// Multiplication in GF(256) modulo 0x11D, bit by bit (independent of the encoder's tables).
    static func gfMultiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var x = Int(a), y = Int(b), r = 0
        while y != 0 {
            if y & 1 != 0 { r ^= x }
            x <<= 1
            if x & 0x100 != 0 { x ^= 0x11D }
            y >>= 1
        }
        return UInt8(r)
    }

    @Test(arguments: [("Hello world", "L"), ("https://example.com/cifiltertest?q=barcodes", "M"),
                      (String(repeating: "Core Image 0123456789 ", count: 10), "Q"), ("", "H"),
                      (String(repeating: "x", count: 400), "H")])
    func symbolsReadBack(_ message: String, _ level: String) throws {
        let image = try Self.qr(message, level)
        let (w, h, rows) = try Self.modules(image)
        #expect(w == h)
        #expect(image.extent == Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
        let decoded = try Self.decode(rows)
        #expect(decoded.level == ["L": 1, "M": 0, "Q": 3, "H": 2][level])
        #expect(decoded.message == Array(message.utf8))
        #expect(w == decoded.version * 4 + 17 + 2)
    }

    @Test func versionInformationOnLargeSymbols() throws {
        let image = try Self.qr(String(repeating: "7", count: 200), "M")  // 200 bytes at M: version 10
        let (_, _, rows) = try Self.modules(image)
        let size = rows.count - 2
        #expect(size == 57)
        // Version information block above the bottom-left finder, read back and compared with the standard's word.
        var bits = 0
        for i in 0..<18 where rows[size - 11 + i % 3 + 1][i / 3 + 1] { bits |= 1 << i }
        #expect(bits == 0b001010010011010011)
        #expect(try Self.decode(rows).message == [UInt8](repeating: 55, count: 200))
    }

    @Test func defaultsAndErrors() throws {
        // Unset message: an empty version 1 symbol at the default level (M).
        let empty = try Filter(named: "CIQRCodeGenerator").makeOutputImage()
        #expect(empty.extent == Rect(x: 0, y: 0, width: 23, height: 23))
        let decoded = try Self.decode(try Self.modules(empty).dark)
        #expect(decoded.level == 0 && decoded.message.isEmpty)
        #expect(throws: FilterError.self) { try Self.qr("x", "Z") }
        #expect(throws: FilterError.self) { try Self.qr(String(repeating: "x", count: 1300), "H") }
    }

    // MARK: Code 128

    static func code128(_ message: String, quiet: Double = 10, height: Double = 32) throws -> Image {
        try TestImages.filter("CICode128BarcodeGenerator", ["inputMessage": .data(Array(message.utf8)),
            "inputQuietSpace": .number(quiet), "inputBarcodeHeight": .number(height)])
    }

    /// The check symbol computed here: start value plus each value times its position, modulo 103.
    static func withCheck(_ values: [Int]) -> [Int] {
        values + [values.enumerated().reduce(0) { $0 + max($1.offset, 1) * $1.element } % 103]
    }

    @Test func code128Values() {
        // Set B for text: H e l l o.
        #expect(Code128.encode(Array("Hello".utf8)) == Self.withCheck([104, 40, 69, 76, 76, 79]))
        // Even digits: all set C.
        #expect(Code128.encode(Array("123456".utf8)) == Self.withCheck([105, 12, 34, 56]))
        // Text then a digit run: switch to C for it.
        #expect(Code128.encode(Array("AB1234".utf8)) == Self.withCheck([104, 33, 34, 99, 12, 34]))
        // Control characters need set A (TAB is 9 + 64).
        #expect(Code128.encode([9]) == Self.withCheck([103, 73]))
        #expect(Code128.encode([]) == Self.withCheck([104]))
        #expect(Code128.encode([200]) == nil)
        for p in Code128.patterns { #expect(p.reduce(0) { $0 + Int(String($1))! } == 11) }
        #expect(Set(Code128.patterns).count == 106)
    }

    @Test func code128Layout() throws {
        let image = try Self.code128("Hi", quiet: 3, height: 5)
        // Start B, H, i, check, stop: 4 × 11 + 13 modules, plus 3 on each side; height 5 + 2 × 3.
        #expect(image.extent == Rect(x: 0, y: 0, width: 57 + 6, height: 11))
        let (_, _, rows) = try Self.modules(image)
        func bars(_ widths: String) -> [Bool] {
            widths.enumerated().flatMap { k, w in [Bool](repeating: k % 2 == 0, count: Int(String(w))!) }
        }
        // H is value 40, i value 73, the check (104 + 40 + 2 × 73) mod 103 = 84.
        let expected = [Bool](repeating: false, count: 3) + bars("211214") + bars("231113") + bars("142112")
            + bars("124112") + bars("2331112") + [Bool](repeating: false, count: 3)
        for (top, row) in rows.enumerated() {
            if top < 3 || top >= 8 { #expect(row.allSatisfy { !$0 }) } else { #expect(row == expected) }
        }
        // Zero quiet space: bars reach the edges.
        let tight = try Self.code128("Hi", quiet: 0, height: 1)
        #expect(tight.extent == Rect(x: 0, y: 0, width: 57, height: 1))
        #expect(try Self.modules(tight).dark[0] == Array(expected[3..<60]))
        #expect(throws: FilterError.self) { try TestImages.filter("CICode128BarcodeGenerator", ["inputMessage": .data([0xC3, 0xA9])]) }
    }
}
