import Foundation
import Testing
@testable import FilterEngine
@testable import FilterPipeline

/// CIAztecCodeGenerator: a decoder written here reads our symbols back (bullseye, mode message, Reed-Solomon
/// syndromes, bit unstuffing, the text modes and binary shift), plus sizes and a few hand-worked bit strings.
@Suite struct AztecCodeTests {
    static func aztec(_ message: [UInt8], percent: Int = 23, compact: Bool = false, layers: Int? = nil) throws -> Image {
        var values: [String: FilterValue] = ["inputMessage": .data(message), "inputCorrectionLevel": .number(Double(percent)),
                                             "inputCompactStyle": .number(compact ? 1 : 0)]
        if let layers { values["inputLayers"] = .number(Double(layers)) }
        return try TestImages.filter("CIAztecCodeGenerator", values)
    }

    /// Multiplication in GF(2^m) modulo `poly`, bit by bit.
    static func multiply(_ a: Int, _ b: Int, _ poly: Int, _ bits: Int) -> Int {
        var x = a, y = b, r = 0
        while y != 0 {
            if y & 1 != 0 { r ^= x }
            x <<= 1
            if x >> bits != 0 { x ^= poly }
            y >>= 1
        }
        return r
    }

    /// Every syndrome S_i = c(α^i), i = 1...checkCount, of a codeword (highest degree first) is zero.
    static func syndromesVanish(_ words: [Int], checkCount: Int, poly: Int, bits: Int) -> Bool {
        var alpha = 1
        for _ in 1...checkCount {
            alpha = multiply(alpha, 2, poly, bits)
            var s = 0
            for w in words { s = multiply(s, alpha, poly, bits) ^ w }
            if s != 0 { return false }
        }
        return true
    }

    struct Decoded { var compact: Bool; var layers: Int; var dataWords: Int; var message: [UInt8] }

    static func decode(_ image: Image) throws -> Decoded {
        let buffer = try TestImages.render(image)
        let full = buffer.rect.width
        #expect(buffer.rect.height == full)
        // Row 0 at the top; drop the two-module margin (checked light), Apple's (iOS 13.3 render 51F21ACB: 27×27
        // for a 23×23 symbol).
        func px(_ x: Int, _ top: Int) -> Bool { buffer.pixel(x: x, y: full - 1 - top).x == 0 }
        for i in 0..<full {
            for m in 0..<2 { #expect(!px(i, m) && !px(i, full - 1 - m) && !px(m, i) && !px(full - 1 - m, i)) }
        }
        let size = full - 4
        func dark(_ x: Int, _ y: Int) -> Bool { px(x + 2, y + 2) }
        let center = size / 2
        // A compact bullseye has its orientation corner five modules out; a full-range one a light ring there.
        let compact = dark(center - 5, center - 5)
        let eye = compact ? 5 : 7
        // Bullseye: dark rings at even Chebyshev distances, light at odd ones, inside the mode ring.
        for dy in -(eye - 1)...(eye - 1) {
            for dx in -(eye - 1)...(eye - 1) {
                #expect(dark(center + dx, center + dy) == (max(abs(dx), abs(dy)) % 2 == 0))
            }
        }
        // Orientation marks: three dark at top left, two at top right, one at bottom right, none bottom left.
        #expect(dark(center - eye, center - eye) && dark(center - eye + 1, center - eye) && dark(center - eye, center - eye + 1))
        #expect(dark(center + eye, center - eye) && dark(center + eye, center - eye + 1) && !dark(center + eye - 1, center - eye))
        #expect(dark(center + eye, center + eye - 1) && !dark(center + eye, center + eye) && !dark(center + eye - 1, center + eye))
        #expect(!dark(center - eye, center + eye) && !dark(center - eye + 1, center + eye) && !dark(center - eye, center + eye - 1))

        // Mode message, clockwise from the top left, in 4-bit words.
        var modeBits: [Bool] = []
        if compact {
            for i in 0..<7 { modeBits.append(dark(center - 3 + i, center - 5)) }
            for i in 0..<7 { modeBits.append(dark(center + 5, center - 3 + i)) }
            for i in 0..<7 { modeBits.append(dark(center + 3 - i, center + 5)) }
            for i in 0..<7 { modeBits.append(dark(center - 5, center + 3 - i)) }
        } else {
            let offsets = (0..<10).map { center - 5 + $0 + $0 / 5 }
            for o in offsets { modeBits.append(dark(o, center - 7)) }
            for o in offsets { modeBits.append(dark(center + 7, o)) }
            for o in offsets.reversed() { modeBits.append(dark(o, center + 7)) }
            for o in offsets.reversed() { modeBits.append(dark(center - 7, o)) }
        }
        let modeWords = stride(from: 0, to: modeBits.count, by: 4).map { i in
            (0..<4).reduce(0) { $0 << 1 | (modeBits[i + $1] ? 1 : 0) }
        }
        #expect(syndromesVanish(modeWords, checkCount: compact ? 5 : 6, poly: 0x13, bits: 4), "mode message check words")
        let layers: Int, dataWords: Int
        if compact {
            layers = (modeWords[0] >> 2) + 1
            dataWords = ((modeWords[0] & 3) << 4 | modeWords[1]) + 1
            #expect(size == 11 + 4 * layers)
        } else {
            layers = (modeWords[0] << 1 | modeWords[1] >> 3) + 1
            dataWords = ((modeWords[1] & 7) << 8 | modeWords[2] << 4 | modeWords[3]) + 1
        }

        // Layer bits in placement order: each layer four bands of two-module columns, outside in, skipping
        // reference grid lines (every 16 modules from the centre) in full-range symbols.
        let baseSize = (compact ? 11 : 14) + 4 * layers
        var coordinate: [Int] = []
        if compact {
            coordinate = Array(0..<baseSize)
        } else {
            #expect(size == baseSize + 1 + 2 * ((baseSize / 2 - 1) / 15))
            coordinate = (0..<size).filter { abs($0 - center) % 16 != 0 }
            #expect(coordinate.count == baseSize)
        }
        var bits: [Bool] = []
        for i in 0..<layers {
            let length = (layers - i) * 4 + (compact ? 9 : 12)
            let lo = i * 2, hi = baseSize - 1 - i * 2
            var sides: [[Bool]] = [[], [], [], []]
            for j in 0..<length {
                for k in 0..<2 {
                    sides[0].append(dark(coordinate[lo + k], coordinate[lo + j]))
                    sides[1].append(dark(coordinate[lo + j], coordinate[hi - k]))
                    sides[2].append(dark(coordinate[hi - k], coordinate[hi - j]))
                    sides[3].append(dark(coordinate[hi - j], coordinate[lo + k]))
                }
            }
            bits += sides.flatMap { $0 }
        }
        let wordSize = layers <= 2 ? 6 : layers <= 8 ? 8 : layers <= 22 ? 10 : 12
        let poly = [6: 0x43, 8: 0x12D, 10: 0x409, 12: 0x1069][wordSize]!
        let start = bits.count % wordSize
        let words = stride(from: start, to: bits.count, by: wordSize).map { i in
            (0..<wordSize).reduce(0) { $0 << 1 | (bits[i + $1] ? 1 : 0) }
        }
        #expect(syndromesVanish(words, checkCount: words.count - dataWords, poly: poly, bits: wordSize), "data check words")

        // Unstuff: a word whose first wordSize-1 bits are equal carries one stuffed bit at its end.
        var stream: [Bool] = []
        for w in words.prefix(dataWords) {
            let head = w >> 1
            let n = (head == 0 || head == (1 << (wordSize - 1)) - 1) ? wordSize - 1 : wordSize
            for j in 0..<n { stream.append((w >> (wordSize - 1 - j)) & 1 != 0) }
        }
        return Decoded(compact: compact, layers: layers, dataWords: dataWords, message: decodeText(stream))
    }

    /// The text modes and binary shift, read as a decoder does (trailing padding ignored).
    static func decodeText(_ stream: [Bool]) -> [UInt8] {
        var pos = 0
        func read(_ n: Int) -> Int? {
            guard pos + n <= stream.count else { return nil }
            defer { pos += n }
            return (0..<n).reduce(0) { $0 << 1 | (stream[pos + $1] ? 1 : 0) }
        }
        let punct = Array("!\"#$%&'()*+,-./:;<=>?[]{}".utf8)
        let mixed: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 27, 28, 29, 30, 31, 64, 92, 94, 95, 96, 124, 126, 127]
        enum M { case upper, lower, mixed, digit, punct }
        var latched = M.upper
        var shifted: M? = nil
        var out: [UInt8] = []
        while true {
            let mode = shifted ?? latched
            shifted = nil
            guard let code = read(mode == .digit ? 4 : 5) else { break }
            switch mode {
            case .upper, .lower:
                if code == 0 { shifted = .punct } else if code == 1 { out.append(32) }
                else if code < 28 { out.append(UInt8((mode == .upper ? 63 : 95) + code)) }
                else if code == 28 { if mode == .upper { latched = .lower } else { shifted = .upper } }
                else if code == 29 { latched = .mixed }
                else if code == 30 { latched = .digit }
                else {
                    guard var length = read(5) else { return out }
                    if length == 0 { guard let long = read(11) else { return out }; length = long + 31 }
                    guard pos + 8 * length <= stream.count else { return out }
                    for _ in 0..<length { out.append(UInt8(read(8)!)) }
                }
            case .mixed:
                if code == 0 { shifted = .punct } else if code == 1 { out.append(32) }
                else if code < 28 { out.append(mixed[code - 2]) }
                else if code == 28 { latched = .lower } else if code == 29 { latched = .upper }
                else if code == 30 { latched = .punct }
                else {
                    guard var length = read(5) else { return out }
                    if length == 0 { guard let long = read(11) else { return out }; length = long + 31 }
                    guard pos + 8 * length <= stream.count else { return out }
                    for _ in 0..<length { out.append(UInt8(read(8)!)) }
                }
            case .punct:
                switch code {
                case 0: Issue.record("FLG(n) not expected")
                case 1: out.append(13)
                case 2: out += [13, 10]
                case 3: out += [46, 32]
                case 4: out += [44, 32]
                case 5: out += [58, 32]
                case 31: latched = .upper
                default: out.append(punct[code - 6])
                }
            case .digit:
                if code == 0 { shifted = .punct } else if code == 1 { out.append(32) }
                else if code < 12 { out.append(UInt8(46 + code)) }
                else if code == 12 { out.append(44) } else if code == 13 { out.append(46) }
                else if code == 14 { latched = .upper } else { shifted = .upper }
            }
        }
        return out
    }

    @Test func handWorkedBitStrings() {
        func bits(_ s: String) -> String { AztecCode.highLevelBits(Array(s.utf8)).bits.map { $0 ? "1" : "0" }.joined() }
        #expect(bits("A") == "00010")                    // upper A = 2
        #expect(bits("a") == "11100" + "00010")          // L/L, a = 2
        #expect(bits("12") == "11110" + "0011" + "0100") // D/L, 1 = 3, 2 = 4
        #expect(bits(".") == "11110" + "1101")           // D/L and '.' = 13 beats P/S + '.' (10 bits)
        #expect(bits("A!") == "00010" + "00000" + "00110") // P/S, '!' = 6
        // One byte with no text code: B/S, length 1, the byte.
        #expect(bits("\u{0E}") == "11111" + "00001" + "00001110")
    }

    @Test func stuffing() {
        // 6-bit words: 000000 → 000001 with the last zero pushed on; 111111 → 111110.
        let ones = [Bool](repeating: true, count: 10), zeros = [Bool](repeating: false, count: 10)
        #expect(AztecCode.stuff(ones, wordSize: 6) == [0b111110, 0b111110])
        #expect(AztecCode.stuff(zeros, wordSize: 6) == [0b000001, 0b000001])
    }

    @Test(arguments: [
        ("Hello world", 23, false), ("Hello world", 23, true), ("", 23, false), ("", 5, true),
        ("Core Image: AZTEC 2D, 0123456789.\r\nmixed @\\^_`|~ and {brackets}!", 50, false),
        (String(repeating: "Zürich 2026 ", count: 40), 23, false), (String(repeating: "x", count: 20), 95, true),
    ])
    func symbolsReadBack(_ message: String, _ percent: Int, _ compactOnly: Bool) throws {
        let bytes = Array(message.utf8)
        let image = try Self.aztec(bytes, percent: percent, compact: compactOnly)
        #expect(image.extent.minX == 0 && image.extent.minY == 0)
        let decoded = try Self.decode(image)
        #expect(decoded.message == bytes)
        if compactOnly { #expect(decoded.compact) }
        // Automatic: compact while it fits, then full-range from 4 layers.
        #expect(decoded.compact ? decoded.layers <= 4 : decoded.layers >= 4)
    }

    @Test func sizesAndLayers() throws {
        // Compact one layer: 15×15 (plus the two-module margin), automatically or asked for; full-range one
        // layer: 19×19.
        #expect(try Self.aztec([65]).extent == Rect(x: 0, y: 0, width: 19, height: 19))
        #expect(try Self.aztec([65], compact: true).extent == Rect(x: 0, y: 0, width: 19, height: 19))
        #expect(try Self.aztec([65], layers: 1).extent == Rect(x: 0, y: 0, width: 23, height: 23))
        #expect(try Self.decode(try Self.aztec([65], layers: 1)).compact == false)
        // Beyond compact capacity the automatic choice is full-range.
        let long = try Self.decode(try Self.aztec([UInt8](repeating: 200, count: 100)))
        #expect(!long.compact && long.message == [UInt8](repeating: 200, count: 100))
        // Fixed layers: 4 full-range layers are 31×31; 16 layers are 78 modules plus 5 grid lines (and the margin).
        #expect(try Self.aztec([65], layers: 4).extent.width == 31 + 4)
        let big = try Self.aztec(Array("layers".utf8), layers: 16)
        #expect(big.extent.width == 78 + 1 + 2 * ((78 / 2 - 1) / 15) + 4)
        let decoded = try Self.decode(big)
        #expect(decoded.layers == 16 && decoded.message == Array("layers".utf8))
        let compact3 = try Self.decode(try Self.aztec(Array("abc".utf8), compact: true, layers: 3))
        #expect(compact3.compact && compact3.layers == 3 && compact3.message == Array("abc".utf8))
        // Too much for the format or the layers asked for: an error (Core Image gives no image).
        #expect(throws: FilterError.self) { try Self.aztec([UInt8](repeating: 7, count: 200), compact: true) }
        #expect(throws: FilterError.self) { try Self.aztec([UInt8](repeating: 7, count: 200), layers: 1) }
        #expect(throws: FilterError.self) { try Self.aztec([UInt8](repeating: 200, count: 2500)) }
        #expect(throws: FilterError.self) { try Self.aztec([UInt8](repeating: 7, count: 20), compact: true, layers: 5) }
        // Unset message: an empty symbol.
        let empty = try Filter(named: "CIAztecCodeGenerator").makeOutputImage()
        #expect(try Self.decode(empty).message.isEmpty)
    }

    @Test func moreCorrectionNeverShrinks() throws {
        let message = Array("The quick brown fox jumps over the lazy dog".utf8)
        var last = 0.0
        for percent in [5, 23, 50, 95] {
            let width = try Self.aztec(message, percent: percent).extent.width
            #expect(width >= last)
            last = width
        }
    }
}
