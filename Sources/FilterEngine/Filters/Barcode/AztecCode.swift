import Foundation

/// An Aztec code symbol (ISO/IEC 24778): the message in the five text modes (upper, lower, mixed, punctuation,
/// digit) with binary shift for anything else, the cheapest mode sequence found by dynamic programming;
/// words of 6-12 bits with bit stuffing; Reed-Solomon check words over GF(2^6...2^12); mode message, bullseye
/// and (full-range symbols) the reference grid.
struct AztecCode {
    let compact: Bool
    let layers: Int
    /// The data words before error correction (a descriptor's payload).
    let messageWords: [Int]
    /// size × size modules, row 0 at the top, true for dark.
    let modules: [Bool]
    let size: Int

    func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }

    // MARK: Text modes

    enum Mode: Int, CaseIterable { case upper = 0, lower, mixed, digit, punct }

    static func bitWidth(_ mode: Mode) -> Int { mode == .digit ? 4 : 5 }

    /// The code of a single byte in each mode (nil where the mode has no code for it).
    static let codes: [[Int?]] = {
        var table = [[Int?]](repeating: [Int?](repeating: nil, count: 256), count: 5)
        table[Mode.upper.rawValue][32] = 1
        table[Mode.lower.rawValue][32] = 1
        table[Mode.digit.rawValue][32] = 1
        table[Mode.mixed.rawValue][32] = 1
        for c in 0..<26 {
            table[Mode.upper.rawValue][65 + c] = 2 + c
            table[Mode.lower.rawValue][97 + c] = 2 + c
        }
        for d in 0..<10 { table[Mode.digit.rawValue][48 + d] = 2 + d }
        table[Mode.digit.rawValue][44] = 12  // ,
        table[Mode.digit.rawValue][46] = 13  // .
        // Mixed code 0 is the punctuation shift, so NUL has no code there (it goes in binary).
        let mixed: [UInt8] = [0, 32, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 27, 28, 29, 30, 31, 64, 92, 94, 95, 96,
                              124, 126, 127]
        for (code, byte) in mixed.enumerated() where code > 0 { table[Mode.mixed.rawValue][Int(byte)] = code }
        let punct = Array("!\"#$%&'()*+,-./:;<=>?[]{}".utf8)
        table[Mode.punct.rawValue][13] = 1
        for (k, byte) in punct.enumerated() { table[Mode.punct.rawValue][Int(byte)] = 6 + k }
        return table
    }()

    /// Two-byte punctuation codes: CR LF, ". ", ", ", ": ".
    static func pairCode(_ a: UInt8, _ b: UInt8) -> Int? {
        switch (a, b) {
        case (13, 10): 2
        case (46, 32): 3
        case (44, 32): 4
        case (58, 32): 5
        default: nil
        }
    }

    /// Codes (value, bits) that latch from one mode to another.
    static let latches: [[[(Int, Int)]]] = [
        // from upper: to upper, lower, mixed, digit, punct
        [[], [(28, 5)], [(29, 5)], [(30, 5)], [(29, 5), (30, 5)]],
        // from lower
        [[(30, 5), (14, 4)], [], [(29, 5)], [(30, 5)], [(29, 5), (30, 5)]],
        // from mixed
        [[(29, 5)], [(28, 5)], [], [(29, 5), (30, 5)], [(30, 5)]],
        // from digit
        [[(14, 4)], [(14, 4), (28, 5)], [(14, 4), (29, 5)], [], [(14, 4), (29, 5), (30, 5)]],
        // from punct
        [[(31, 5)], [(31, 5), (28, 5)], [(31, 5), (29, 5)], [(31, 5), (30, 5)], []],
    ]

    static func latchBits(_ from: Mode, _ to: Mode) -> Int { latches[from.rawValue][to.rawValue].reduce(0) { $0 + $1.1 } }

    /// One step of the encoding, as emitted: codes of given widths, or a binary-shift run of bytes.
    enum Step {
        case codes([(Int, Int)])
        case binary(Range<Int>)
    }

    /// The cheapest bit string for `bytes`: a shortest path over (position, current mode).
    static func highLevelBits(_ bytes: [UInt8]) -> BitBuffer {
        let n = bytes.count
        let infinite = Int.max / 4
        var cost = [[Int]](repeating: [Int](repeating: infinite, count: 5), count: n + 1)
        var back = [[(from: Int, mode: Mode, step: Step)?]](repeating: [(from: Int, mode: Mode, step: Step)?](repeating: nil, count: 5), count: n + 1)
        cost[0][Mode.upper.rawValue] = 0
        func relax(_ i: Int, _ j: Int, _ from: Mode, _ to: Mode, _ step: Step, _ bits: Int) {
            let c = cost[i][from.rawValue] + bits
            if c < cost[j][to.rawValue] {
                cost[j][to.rawValue] = c
                back[j][to.rawValue] = (i, from, step)
            }
        }
        for i in 0..<n {
            for m in Mode.allCases where cost[i][m.rawValue] < infinite {
                let byte = bytes[i]
                // Latch (or stay), then the character or punctuation pair.
                for t in Mode.allCases {
                    let latch = latches[m.rawValue][t.rawValue]
                    if let code = codes[t.rawValue][Int(byte)] {
                        relax(i, i + 1, m, t, .codes(latch + [(code, bitWidth(t))]), latchBits(m, t) + bitWidth(t))
                    }
                    if t == .punct, i + 1 < n, let code = pairCode(byte, bytes[i + 1]) {
                        relax(i, i + 2, m, t, .codes(latch + [(code, 5)]), latchBits(m, t) + 5)
                    }
                }
                // Shift to punctuation for one character or pair.
                if m != .punct {
                    if let code = codes[Mode.punct.rawValue][Int(byte)] {
                        relax(i, i + 1, m, m, .codes([(0, bitWidth(m)), (code, 5)]), bitWidth(m) + 5)
                    }
                    if i + 1 < n, let code = pairCode(byte, bytes[i + 1]) {
                        relax(i, i + 2, m, m, .codes([(0, bitWidth(m)), (code, 5)]), bitWidth(m) + 5)
                    }
                }
                // Shift to upper for one character from lower or digit.
                if let code = codes[Mode.upper.rawValue][Int(byte)], m == .lower || m == .digit {
                    let shift = m == .lower ? (28, 5) : (15, 4)
                    relax(i, i + 1, m, m, .codes([shift, (code, 5)]), shift.1 + 5)
                }
                // Binary shift from upper, lower or mixed (digit and punct latch to upper first); the mode
                // returns to where it was after the run.
                let base: Mode = (m == .digit || m == .punct) ? .upper : m
                let prefix = latchBits(m, base)
                // Runs of up to 62 bytes, or everything left (up to the 2078 one run can hold): longer runs
                // only save their header, so this keeps the search linear.
                let longest = min(n - i, 2078)
                for k in Array(1...min(longest, 62)) + (longest > 62 ? [longest] : []) {
                    let header = k <= 31 ? 10 : 21
                    relax(i, i + k, m, base, .binary(i..<(i + k)), prefix + header + 8 * k)
                }
            }
        }
        // Walk back from the cheapest final state.
        var mode = Mode.upper
        for m in Mode.allCases where cost[n][m.rawValue] < cost[n][mode.rawValue] { mode = m }
        var steps: [(Mode, Mode, Step)] = []
        var j = n
        while j > 0, let b = back[j][mode.rawValue] {
            steps.append((b.mode, mode, b.step))
            j = b.from
            mode = b.mode
        }
        var bits = BitBuffer()
        for (from, to, step) in steps.reversed() {
            switch step {
            case .codes(let list):
                for (value, width) in list { bits.append(value, count: width) }
            case .binary(let range):
                for (value, width) in latches[from.rawValue][to.rawValue] { bits.append(value, count: width) }
                bits.append(31, count: 5)
                let k = range.count
                if k <= 31 {
                    bits.append(k, count: 5)
                } else {
                    bits.append(0, count: 5)
                    bits.append(k - 31, count: 11)
                }
                for i in range { bits.append(Int(bytes[i]), count: 8) }
            }
        }
        return bits
    }

    // MARK: Symbol

    static func wordSize(_ layers: Int) -> Int { layers <= 2 ? 6 : layers <= 8 ? 8 : layers <= 22 ? 10 : 12 }

    static func totalBits(_ layers: Int, compact: Bool) -> Int { ((compact ? 88 : 112) + 16 * layers) * layers }

    /// Groups bits into words, inserting a complementary bit after every word whose first wordSize-1 bits are
    /// all equal (so no word is all zeros or all ones); the last word is padded with ones.
    static func stuff(_ bits: [Bool], wordSize: Int) -> [Int] {
        let mask = (1 << wordSize) - 2
        // An empty message still needs one data word: padding ones, stuffed.
        if bits.isEmpty { return [mask] }
        var words: [Int] = []
        var i = 0
        while i < bits.count {
            var word = 0
            for j in 0..<wordSize where i + j >= bits.count || bits[i + j] { word |= 1 << (wordSize - 1 - j) }
            if word & mask == mask {
                words.append(word & mask)
                i -= 1
            } else if word & mask == 0 {
                words.append(word | 1)
                i -= 1
            } else {
                words.append(word)
            }
            i += wordSize
        }
        return words
    }

    /// The symbol, or nil when the message does not fit (in the requested layers, if any). With `compactOnly`
    /// false and no layer count, the smallest symbol that holds the message: compact with 1-4 layers, then
    /// full-range from 4 layers up (a full-range symbol of 1-3 layers is never smaller than a compact one that
    /// holds as much). A layer count alone asks for a full-range symbol; with `compactOnly`, a compact one.
    init?(bytes: [UInt8], correctionPercent: Int, compactOnly: Bool, layers requested: Int?) {
        let data = Self.highLevelBits(bytes).bits
        let eccBits = data.count * correctionPercent / 100 + 11
        var candidates: [(compact: Bool, layers: Int)]
        if let requested {
            candidates = [(compactOnly, requested)]
        } else {
            candidates = (1...4).map { (true, $0) }
            if !compactOnly { candidates += (4...32).map { (false, $0) } }
        }
        var found: (compact: Bool, layers: Int, words: [Int], wordSize: Int)?
        for (compact, layers) in candidates where layers >= 1 && layers <= (compact ? 4 : 32) {
            let total = Self.totalBits(layers, compact: compact)
            let size = Self.wordSize(layers)
            let usable = total - total % size
            guard data.count + eccBits <= usable else { continue }
            let words = Self.stuff(data, wordSize: size)
            guard words.count * size + eccBits <= usable, words.count <= (compact ? 64 : 2048) else { continue }
            found = (compact, layers, words, size)
            break
        }
        guard let (compact, layers, messageWords, _) = found else { return nil }
        self.init(messageWords: messageWords, compact: compact, layers: layers)
    }

    /// The symbol of its message words (stuffed data words before error correction: what a
    /// CIAztecCodeDescriptor's payload holds), check words filling the rest of the layers. Nil when the words
    /// do not fit or a word is out of range for the layers' word size.
    init?(messageWords: [Int], compact: Bool, layers: Int) {
        guard layers >= 1, layers <= (compact ? 4 : 32), !messageWords.isEmpty,
              messageWords.count <= (compact ? 64 : 2048) else { return nil }
        let wordSize = Self.wordSize(layers)
        guard messageWords.count < Self.totalBits(layers, compact: compact) / wordSize,
              messageWords.allSatisfy({ $0 >= 0 && $0 < 1 << wordSize }) else { return nil }

        // Check words fill the layers; a few leading pad bits when the layer bits are not a whole number of words.
        let total = Self.totalBits(layers, compact: compact)
        let field = GaloisField.aztec(wordSize: wordSize)
        let check = field.checkWords(messageWords, count: total / wordSize - messageWords.count)
        var layerBits = [Bool](repeating: false, count: total % wordSize)
        for word in messageWords + check {
            for j in stride(from: wordSize - 1, through: 0, by: -1) { layerBits.append((word >> j) & 1 != 0) }
        }

        // Mode message: layers and data word count, with its own check words over GF(16).
        let modeWords: [Int]
        if compact {
            let value = (layers - 1) << 6 | (messageWords.count - 1)
            modeWords = [value >> 4, value & 15]
        } else {
            let value = (layers - 1) << 11 | (messageWords.count - 1)
            modeWords = [value >> 12, (value >> 8) & 15, (value >> 4) & 15, value & 15]
        }
        var modeBits: [Bool] = []
        for word in modeWords + GaloisField.aztecMode.checkWords(modeWords, count: compact ? 5 : 6) {
            for j in stride(from: 3, through: 0, by: -1) { modeBits.append((word >> j) & 1 != 0) }
        }

        // Geometry: full-range symbols put a reference grid line every 16 modules from the centre.
        let baseSize = (compact ? 11 : 14) + layers * 4
        var map = Array(0..<baseSize)
        var size = baseSize
        if !compact {
            size = baseSize + 1 + 2 * ((baseSize / 2 - 1) / 15)
            let origCenter = baseSize / 2, center = size / 2
            for i in 0..<origCenter {
                let offset = i + i / 15
                map[origCenter - i - 1] = center - offset - 1
                map[origCenter + i] = center + offset + 1
            }
        }
        var grid = [Bool](repeating: false, count: size * size)
        func set(_ x: Int, _ y: Int) { grid[y * size + x] = true }

        // Data: each layer is four two-module-wide bands, going round the symbol from the outside in.
        var rowOffset = 0
        for i in 0..<layers {
            let rowSize = (layers - i) * 4 + (compact ? 9 : 12)
            for j in 0..<rowSize {
                let column = j * 2
                for k in 0..<2 {
                    if layerBits[rowOffset + column + k] { set(map[i * 2 + k], map[i * 2 + j]) }
                    if layerBits[rowOffset + rowSize * 2 + column + k] { set(map[i * 2 + j], map[baseSize - 1 - i * 2 - k]) }
                    if layerBits[rowOffset + rowSize * 4 + column + k] {
                        set(map[baseSize - 1 - i * 2 - k], map[baseSize - 1 - i * 2 - j])
                    }
                    if layerBits[rowOffset + rowSize * 6 + column + k] { set(map[baseSize - 1 - i * 2 - j], map[i * 2 + k]) }
                }
            }
            rowOffset += rowSize * 8
        }

        // Mode message round the bullseye, clockwise from the top left.
        let center = size / 2
        if compact {
            for i in 0..<7 {
                let offset = center - 3 + i
                if modeBits[i] { set(offset, center - 5) }
                if modeBits[i + 7] { set(center + 5, offset) }
                if modeBits[20 - i] { set(offset, center + 5) }
                if modeBits[27 - i] { set(center - 5, offset) }
            }
        } else {
            for i in 0..<10 {
                let offset = center - 5 + i + i / 5
                if modeBits[i] { set(offset, center - 7) }
                if modeBits[i + 10] { set(center + 7, offset) }
                if modeBits[29 - i] { set(offset, center + 7) }
                if modeBits[39 - i] { set(center - 7, offset) }
            }
            // Reference grid: alternating modules along every 16th row and column through the centre.
            var j = 0, i = 0
            while i < baseSize / 2 - 1 {
                var k = center & 1
                while k < size {
                    set(center - j, k)
                    set(center + j, k)
                    set(k, center - j)
                    set(k, center + j)
                    k += 2
                }
                i += 15
                j += 16
            }
        }

        // Bullseye rings and the orientation marks at its corners.
        let eye = compact ? 5 : 7
        for i in stride(from: 0, to: eye, by: 2) {
            for j in (center - i)...(center + i) {
                set(j, center - i)
                set(j, center + i)
                set(center - i, j)
                set(center + i, j)
            }
        }
        set(center - eye, center - eye)
        set(center - eye + 1, center - eye)
        set(center - eye, center - eye + 1)
        set(center + eye, center - eye)
        set(center + eye, center - eye + 1)
        set(center + eye, center + eye - 1)

        self.compact = compact
        self.layers = layers
        self.size = size
        self.modules = grid
        self.messageWords = messageWords
    }
}

/// GF(2^m) arithmetic and Reed-Solomon check words with generator roots α^b ... α^(b+n-1): b = 1 for Aztec
/// codes, b = 0 for QR codes.
struct GaloisField {
    let size: Int
    let exp: [Int]
    let log: [Int]
    let firstRoot: Int

    init(size: Int, polynomial: Int, firstRoot: Int = 1) {
        self.size = size
        self.firstRoot = firstRoot
        var exp = [Int](repeating: 0, count: 2 * size), log = [Int](repeating: 0, count: size)
        var x = 1
        for i in 0..<(size - 1) {
            exp[i] = x
            log[x] = i
            x <<= 1
            if x >= size { x ^= polynomial }
        }
        for i in (size - 1)..<(2 * size) { exp[i] = exp[i - (size - 1)] }
        self.exp = exp
        self.log = log
    }

    static let aztecMode = GaloisField(size: 16, polynomial: 0x13)
    static let aztec6 = GaloisField(size: 64, polynomial: 0x43)
    static let aztec8 = GaloisField(size: 256, polynomial: 0x12D)
    static let aztec10 = GaloisField(size: 1024, polynomial: 0x409)
    static let aztec12 = GaloisField(size: 4096, polynomial: 0x1069)
    /// QR codes: x^8 + x^4 + x^3 + x^2 + 1, roots from α^0.
    static let qr = GaloisField(size: 256, polynomial: 0x11D, firstRoot: 0)

    static func aztec(wordSize: Int) -> GaloisField {
        switch wordSize {
        case 6: aztec6
        case 8: aztec8
        case 10: aztec10
        default: aztec12
        }
    }

    func multiply(_ a: Int, _ b: Int) -> Int { a == 0 || b == 0 ? 0 : exp[log[a] + log[b]] }

    /// The `count` check words for `message` (highest-degree coefficient first).
    func checkWords(_ message: [Int], count: Int) -> [Int] {
        guard count > 0 else { return [] }
        // Generator ∏(x - α^i), i = b...b+count-1, highest degree first without its leading 1.
        var generator = [1]
        for i in firstRoot..<(firstRoot + count) {
            let root = exp[i % (size - 1)]
            var next = [Int](repeating: 0, count: generator.count + 1)
            for (k, c) in generator.enumerated() {
                next[k] ^= c
                next[k + 1] ^= multiply(c, root)
            }
            generator = next
        }
        var remainder = [Int](repeating: 0, count: count)
        for word in message {
            let factor = word ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for k in 0..<count { remainder[k] ^= multiply(generator[k + 1], factor) }
        }
        return remainder
    }
}
