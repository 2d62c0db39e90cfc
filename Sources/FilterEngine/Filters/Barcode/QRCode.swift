import Foundation

/// A QR code symbol (ISO/IEC 18004) encoded from bytes in byte mode: the smallest version (1-40) that holds the
/// message at the requested error-correction level, Reed-Solomon blocks interleaved, and the mask with the lowest
/// penalty score among the eight.
struct QRCode {
    enum Level: Int, CaseIterable {
        case low = 0, medium, quartile, high

        init?(letter: String) {
            switch letter.uppercased() {
            case "L": self = .low
            case "M": self = .medium
            case "Q": self = .quartile
            case "H": self = .high
            default: return nil
            }
        }

        /// The two bits the format information carries for the level.
        var formatBits: Int { [1, 0, 3, 2][rawValue] }
    }

    let version: Int
    let level: Level
    let mask: Int
    /// The data codewords before error correction (a descriptor's payload).
    let dataWords: [UInt8]
    /// size × size modules, row 0 at the top, true for dark.
    let modules: [Bool]
    var size: Int { version * 4 + 17 }

    func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }

    // MARK: Tables (per version 1...40, index 0 unused)

    /// Error-correction codewords in each block, by level.
    static let eccPerBlock: [[Int]] = [
        [0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30,
         30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28,
         28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
        [0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28,
         30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30,
         30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
    ]

    /// Number of error-correction blocks, by level.
    static let blockCount: [[Int]] = [
        [0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17,
         18, 19, 19, 20, 21, 22, 24, 25],
        [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28,
         29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
        [0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38,
         40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
        [0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45,
         48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
    ]

    /// Modules left for codewords (data and error correction, plus remainder bits) once the function patterns
    /// are placed.
    static func rawDataModules(_ version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let align = version / 7 + 2
            result -= (25 * align - 10) * align - 55
            if version >= 7 { result -= 36 }
        }
        return result
    }

    static func totalCodewords(_ version: Int) -> Int { rawDataModules(version) / 8 }

    static func dataCodewords(_ version: Int, _ level: Level) -> Int {
        totalCodewords(version) - eccPerBlock[level.rawValue][version] * blockCount[level.rawValue][version]
    }

    /// Centre coordinates of the alignment patterns along each axis.
    static func alignmentPositions(_ version: Int) -> [Int] {
        if version == 1 { return [] }
        let count = version / 7 + 2
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var result = [6]
        var position = version * 4 + 10
        while result.count < count {
            result.insert(position, at: 1)
            position -= step
        }
        return result
    }

    // MARK: Encoding

    /// The symbol for `bytes`, or nil when they do not fit in version 40 at that level.
    init?(bytes: [UInt8], level: Level) {
        var chosen = 0
        for v in 1...40 {
            let countBits = v <= 9 ? 8 : 16
            if bytes.count < (1 << countBits), 4 + countBits + bytes.count * 8 <= Self.dataCodewords(v, level) * 8 {
                chosen = v
                break
            }
        }
        guard chosen > 0 else { return nil }
        let version = chosen

        // Segment: byte mode, count, data, terminator, padding.
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: version <= 9 ? 8 : 16)
        for b in bytes { bits.append(Int(b), count: 8) }
        let capacity = Self.dataCodewords(version, level) * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        var pad: UInt8 = 0xEC
        while data.count * 8 < capacity {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        self.init(dataCodewords: data, version: version, level: level, mask: nil)!
    }

    /// The symbol of its data codewords (the message bit stream cut into bytes and padded, before the split
    /// into blocks: what a CIQRCodeDescriptor's payload holds), with the given mask or, for nil, the mask of
    /// lowest penalty. Nil when the count does not match the version and level.
    init?(dataCodewords data: [UInt8], version: Int, level: Level, mask requested: Int?) {
        guard (1...40).contains(version), data.count == Self.dataCodewords(version, level),
              requested.map({ (0..<8).contains($0) }) ?? true else { return nil }
        let codewords = Self.addErrorCorrection(data, version: version, level: level)
        var grid = Grid(version: version)
        grid.drawFunctionPatterns()
        grid.placeCodewords(codewords)

        // Try each mask on a copy and keep the lowest penalty (the first on ties).
        var best = requested ?? 0
        if requested == nil {
            var bestPenalty = Int.max
            for m in 0..<8 {
                var trial = grid
                trial.applyMask(m)
                trial.drawFormat(level: level, mask: m)
                let penalty = trial.penalty()
                if penalty < bestPenalty { best = m; bestPenalty = penalty }
            }
        }
        grid.applyMask(best)
        grid.drawFormat(level: level, mask: best)

        self.version = version
        self.level = level
        self.mask = best
        self.modules = grid.dark
        self.dataWords = data
    }

    /// Splits the data into blocks, appends each block's Reed-Solomon codewords and interleaves them.
    static func addErrorCorrection(_ data: [UInt8], version: Int, level: Level) -> [UInt8] {
        let blocks = blockCount[level.rawValue][version]
        let eccLength = eccPerBlock[level.rawValue][version]
        let total = totalCodewords(version)
        let shortBlocks = blocks - total % blocks
        let shortLength = total / blocks - eccLength
        var dataBlocks: [[UInt8]] = [], eccBlocks: [[UInt8]] = []
        var offset = 0
        for i in 0..<blocks {
            let length = shortLength + (i < shortBlocks ? 0 : 1)
            let block = Array(data[offset..<offset + length])
            offset += length
            dataBlocks.append(block)
            eccBlocks.append(GaloisField.qr.checkWords(block.map(Int.init), count: eccLength).map(UInt8.init))
        }
        var result: [UInt8] = []
        result.reserveCapacity(total)
        for i in 0...shortLength {
            for block in dataBlocks where i < block.count { result.append(block[i]) }
        }
        for i in 0..<eccLength {
            for block in eccBlocks { result.append(block[i]) }
        }
        return result
    }

    /// Format information: level and mask, BCH(15,5) protected and XOR-masked.
    static func formatBits(level: Level, mask: Int) -> Int {
        let data = level.formatBits << 3 | mask
        var rem = data
        for _ in 0..<10 { rem = (rem << 1) ^ ((rem >> 9) * 0x537) }
        return (data << 10 | rem) ^ 0x5412
    }

    /// Where format information bit i sits, in each of its two copies: around the top-left finder, and split
    /// between the other two finders.
    static func formatPositions(size: Int) -> [[(x: Int, y: Int)]] {
        var first: [(x: Int, y: Int)] = (0...5).map { (8, $0) }
        first += [(8, 7), (8, 8), (7, 8)]
        first += (9..<15).map { (14 - $0, 8) }
        let second: [(x: Int, y: Int)] = (0..<8).map { (size - 1 - $0, 8) } + (8..<15).map { (8, size - 15 + $0) }
        return [first, second]
    }

    /// Version information (versions 7 and up): BCH(18,6).
    static func versionBits(_ version: Int) -> Int {
        var rem = version
        for _ in 0..<12 { rem = (rem << 1) ^ ((rem >> 11) * 0x1F25) }
        return version << 12 | rem
    }

    // MARK: Module grid

    struct Grid {
        let size: Int
        let version: Int
        var dark: [Bool]
        var isFunction: [Bool]

        init(version: Int) {
            self.version = version
            size = version * 4 + 17
            dark = Array(repeating: false, count: size * size)
            isFunction = Array(repeating: false, count: size * size)
        }

        mutating func set(_ x: Int, _ y: Int, _ value: Bool) {
            dark[y * size + x] = value
            isFunction[y * size + x] = true
        }

        mutating func drawFunctionPatterns() {
            for i in 0..<size {
                set(6, i, i % 2 == 0)
                set(i, 6, i % 2 == 0)
            }
            drawFinder(3, 3)
            drawFinder(size - 4, 3)
            drawFinder(3, size - 4)
            let positions = QRCode.alignmentPositions(version)
            let n = positions.count
            for i in 0..<n {
                for j in 0..<n {
                    // Skip the three that would overlap the finders.
                    if (i == 0 && j == 0) || (i == 0 && j == n - 1) || (i == n - 1 && j == 0) { continue }
                    drawAlignment(positions[i], positions[j])
                }
            }
            // Reserve the format areas (drawn with real bits later) and the dark module.
            drawFormatBits(0)
            drawVersion()
        }

        mutating func drawFinder(_ cx: Int, _ cy: Int) {
            for dy in -4...4 {
                for dx in -4...4 {
                    let x = cx + dx, y = cy + dy
                    guard x >= 0, x < size, y >= 0, y < size else { continue }
                    let d = max(abs(dx), abs(dy))
                    set(x, y, d != 2 && d != 4)
                }
            }
        }

        mutating func drawAlignment(_ cx: Int, _ cy: Int) {
            for dy in -2...2 {
                for dx in -2...2 { set(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) }
            }
        }

        mutating func drawFormatBits(_ bits: Int) {
            for copy in QRCode.formatPositions(size: size) {
                for (i, module) in copy.enumerated() { set(module.x, module.y, (bits >> i) & 1 != 0) }
            }
            set(8, size - 8, true)
        }

        mutating func drawFormat(level: Level, mask: Int) {
            drawFormatBits(QRCode.formatBits(level: level, mask: mask))
        }

        mutating func drawVersion() {
            guard version >= 7 else { return }
            let bits = QRCode.versionBits(version)
            for i in 0..<18 {
                let on = (bits >> i) & 1 != 0
                let a = size - 11 + i % 3, b = i / 3
                set(a, b, on)
                set(b, a, on)
            }
        }

        /// Codeword bits in the zigzag order: two-module columns from the right, up and down alternately,
        /// skipping the vertical timing column.
        mutating func placeCodewords(_ codewords: [UInt8]) {
            var i = 0
            let totalBits = codewords.count * 8
            var right = size - 1
            while right >= 1 {
                if right == 6 { right = 5 }
                for vert in 0..<size {
                    for j in 0..<2 {
                        let x = right - j
                        let upward = (right + 1) & 2 == 0
                        let y = upward ? size - 1 - vert : vert
                        if !isFunction[y * size + x] && i < totalBits {
                            dark[y * size + x] = (codewords[i >> 3] >> (7 - (i & 7))) & 1 != 0
                            i += 1
                        }
                    }
                }
                right -= 2
            }
        }

        mutating func applyMask(_ mask: Int) {
            for y in 0..<size {
                for x in 0..<size where !isFunction[y * size + x] {
                    let flip: Bool
                    switch mask {
                    case 0: flip = (x + y) % 2 == 0
                    case 1: flip = y % 2 == 0
                    case 2: flip = x % 3 == 0
                    case 3: flip = (x + y) % 3 == 0
                    case 4: flip = (x / 3 + y / 2) % 2 == 0
                    case 5: flip = x * y % 2 + x * y % 3 == 0
                    case 6: flip = (x * y % 2 + x * y % 3) % 2 == 0
                    default: flip = ((x + y) % 2 + x * y % 3) % 2 == 0
                    }
                    if flip { dark[y * size + x].toggle() }
                }
            }
        }

        /// The standard penalty score: runs of five or more, 2×2 blocks, finder-like 1:1:3:1:1 patterns with four
        /// light modules on one side, and the imbalance of dark and light.
        func penalty() -> Int {
            var result = 0
            func module(_ a: Int, _ b: Int, _ horizontal: Bool) -> Bool {
                horizontal ? dark[b * size + a] : dark[a * size + b]
            }
            for horizontal in [true, false] {
                for line in 0..<size {
                    var run = 1
                    for i in 1...size {
                        if i < size && module(i, line, horizontal) == module(i - 1, line, horizontal) {
                            run += 1
                        } else {
                            if run >= 5 { result += 3 + run - 5 }
                            run = 1
                        }
                    }
                    // 1011101 with 0000 before or after.
                    if size >= 11 {
                        for i in 0...(size - 7) {
                            let core = module(i, line, horizontal) && !module(i + 1, line, horizontal)
                                && module(i + 2, line, horizontal) && module(i + 3, line, horizontal)
                                && module(i + 4, line, horizontal) && !module(i + 5, line, horizontal)
                                && module(i + 6, line, horizontal)
                            guard core else { continue }
                            func light(_ from: Int, _ to: Int) -> Bool {
                                guard from >= 0, to <= size else { return false }
                                for k in from..<to where module(k, line, horizontal) { return false }
                                return true
                            }
                            if light(i - 4, i) { result += 40 }
                            if light(i + 7, i + 11) { result += 40 }
                        }
                    }
                }
            }
            for y in 0..<(size - 1) {
                for x in 0..<(size - 1) {
                    let c = dark[y * size + x]
                    if c == dark[y * size + x + 1] && c == dark[(y + 1) * size + x] && c == dark[(y + 1) * size + x + 1] {
                        result += 3
                    }
                }
            }
            let darkCount = dark.reduce(0) { $0 + ($1 ? 1 : 0) }
            let total = size * size
            result += abs(darkCount * 2 - total) * 10 / total * 10
            return result
        }
    }
}

/// Bits appended most significant first.
struct BitBuffer {
    private(set) var bits: [Bool] = []
    var count: Int { bits.count }

    mutating func append(_ value: Int, count: Int) {
        guard count > 0 else { return }
        for i in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> i) & 1 != 0) }
    }

    var bytes: [UInt8] {
        var result = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
        for (i, bit) in bits.enumerated() where bit { result[i >> 3] |= 0x80 >> UInt8(i & 7) }
        return result
    }
}
