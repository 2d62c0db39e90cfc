import Foundation

/// A Data Matrix ECC 200 symbol (ISO/IEC 16022) from its data codewords: Reed-Solomon check words over GF(256)
/// (blocks interleaved in the larger sizes), the codewords placed by the standard's diagonal "utah" placement,
/// and each data region framed by its finder (solid left and bottom edges) and clock track (alternating top
/// and right edges).
struct DataMatrixCode {
    /// One symbol size of ECC 200: modules, data regions, and codewords.
    struct Size {
        let rows: Int, columns: Int
        let regionRows: Int, regionColumns: Int  // data regions vertically and horizontally
        let dataCodewords: Int, checkCodewords: Int
        let blocks: Int

        /// Modules inside one data region (without its finder and clock track).
        var regionHeight: Int { rows / regionRows - 2 }
        var regionWidth: Int { columns / regionColumns - 2 }
    }

    /// ISO/IEC 16022 Table 7: the 24 square and 6 rectangular ECC 200 sizes.
    static let sizes: [Size] = [
        Size(rows: 10, columns: 10, regionRows: 1, regionColumns: 1, dataCodewords: 3, checkCodewords: 5, blocks: 1),
        Size(rows: 12, columns: 12, regionRows: 1, regionColumns: 1, dataCodewords: 5, checkCodewords: 7, blocks: 1),
        Size(rows: 14, columns: 14, regionRows: 1, regionColumns: 1, dataCodewords: 8, checkCodewords: 10, blocks: 1),
        Size(rows: 16, columns: 16, regionRows: 1, regionColumns: 1, dataCodewords: 12, checkCodewords: 12, blocks: 1),
        Size(rows: 18, columns: 18, regionRows: 1, regionColumns: 1, dataCodewords: 18, checkCodewords: 14, blocks: 1),
        Size(rows: 20, columns: 20, regionRows: 1, regionColumns: 1, dataCodewords: 22, checkCodewords: 18, blocks: 1),
        Size(rows: 22, columns: 22, regionRows: 1, regionColumns: 1, dataCodewords: 30, checkCodewords: 20, blocks: 1),
        Size(rows: 24, columns: 24, regionRows: 1, regionColumns: 1, dataCodewords: 36, checkCodewords: 24, blocks: 1),
        Size(rows: 26, columns: 26, regionRows: 1, regionColumns: 1, dataCodewords: 44, checkCodewords: 28, blocks: 1),
        Size(rows: 32, columns: 32, regionRows: 2, regionColumns: 2, dataCodewords: 62, checkCodewords: 36, blocks: 1),
        Size(rows: 36, columns: 36, regionRows: 2, regionColumns: 2, dataCodewords: 86, checkCodewords: 42, blocks: 1),
        Size(rows: 40, columns: 40, regionRows: 2, regionColumns: 2, dataCodewords: 114, checkCodewords: 48, blocks: 1),
        Size(rows: 44, columns: 44, regionRows: 2, regionColumns: 2, dataCodewords: 144, checkCodewords: 56, blocks: 1),
        Size(rows: 48, columns: 48, regionRows: 2, regionColumns: 2, dataCodewords: 174, checkCodewords: 68, blocks: 1),
        Size(rows: 52, columns: 52, regionRows: 2, regionColumns: 2, dataCodewords: 204, checkCodewords: 84, blocks: 2),
        Size(rows: 64, columns: 64, regionRows: 4, regionColumns: 4, dataCodewords: 280, checkCodewords: 112, blocks: 2),
        Size(rows: 72, columns: 72, regionRows: 4, regionColumns: 4, dataCodewords: 368, checkCodewords: 144, blocks: 4),
        Size(rows: 80, columns: 80, regionRows: 4, regionColumns: 4, dataCodewords: 456, checkCodewords: 192, blocks: 4),
        Size(rows: 88, columns: 88, regionRows: 4, regionColumns: 4, dataCodewords: 576, checkCodewords: 224, blocks: 4),
        Size(rows: 96, columns: 96, regionRows: 4, regionColumns: 4, dataCodewords: 696, checkCodewords: 272, blocks: 4),
        Size(rows: 104, columns: 104, regionRows: 4, regionColumns: 4, dataCodewords: 816, checkCodewords: 336, blocks: 6),
        Size(rows: 120, columns: 120, regionRows: 6, regionColumns: 6, dataCodewords: 1050, checkCodewords: 408, blocks: 6),
        Size(rows: 132, columns: 132, regionRows: 6, regionColumns: 6, dataCodewords: 1304, checkCodewords: 496, blocks: 8),
        Size(rows: 144, columns: 144, regionRows: 6, regionColumns: 6, dataCodewords: 1558, checkCodewords: 620, blocks: 10),
        Size(rows: 8, columns: 18, regionRows: 1, regionColumns: 1, dataCodewords: 5, checkCodewords: 7, blocks: 1),
        Size(rows: 8, columns: 32, regionRows: 1, regionColumns: 2, dataCodewords: 10, checkCodewords: 11, blocks: 1),
        Size(rows: 12, columns: 26, regionRows: 1, regionColumns: 1, dataCodewords: 16, checkCodewords: 14, blocks: 1),
        Size(rows: 12, columns: 36, regionRows: 1, regionColumns: 2, dataCodewords: 22, checkCodewords: 18, blocks: 1),
        Size(rows: 16, columns: 36, regionRows: 1, regionColumns: 2, dataCodewords: 32, checkCodewords: 24, blocks: 1),
        Size(rows: 16, columns: 48, regionRows: 1, regionColumns: 2, dataCodewords: 49, checkCodewords: 28, blocks: 1),
    ]

    static func size(rows: Int, columns: Int) -> Size? { sizes.first { $0.rows == rows && $0.columns == columns } }

    let size: Size
    /// rows × columns modules, row 0 at the top, true for dark.
    let modules: [Bool]
    let dataWords: [UInt8]

    func isDark(x: Int, y: Int) -> Bool { modules[y * size.columns + x] }

    // MARK: Message to codewords

    /// ASCII encodation: two digits in one codeword (130-229), ASCII as value + 1, bytes above 127 behind the upper
    /// shift (235); then the first pad 129 and further pads scrambled by their position (the 253-state
    /// randomising of ISO/IEC 16022 Annex H). The smallest square symbol that holds them, or nil.
    init?(message: [UInt8]) {
        var words: [UInt8] = []
        var i = 0
        while i < message.count {
            let b = message[i]
            if i + 1 < message.count, (48...57).contains(b), (48...57).contains(message[i + 1]) {
                words.append(UInt8(130 + Int(b - 48) * 10 + Int(message[i + 1] - 48)))
                i += 2
            } else if b < 128 {
                words.append(b + 1)
                i += 1
            } else {
                words += [235, b - 127]
                i += 1
            }
        }
        guard let size = Self.sizes.first(where: { $0.rows == $0.columns && $0.dataCodewords >= words.count }) else { return nil }
        if words.count < size.dataCodewords { words.append(129) }
        while words.count < size.dataCodewords {
            let position = words.count + 1
            var pad = 129 + (149 * position) % 253 + 1
            if pad > 254 { pad -= 254 }
            words.append(UInt8(pad))
        }
        self.init(dataWords: words, rows: size.rows, columns: size.columns)
    }

    // MARK: Symbol

    /// The symbol of its data codewords (what a CIDataMatrixCodeDescriptor's payload holds), or nil when the
    /// size is not an ECC 200 size or the count does not match it.
    init?(dataWords data: [UInt8], rows: Int, columns: Int) {
        guard let size = Self.size(rows: rows, columns: columns), data.count == size.dataCodewords else { return nil }
        self.size = size
        self.dataWords = data

        // Blocks take every blocks-th data codeword; their check words interleave the same way.
        let checksPerBlock = size.checkCodewords / size.blocks
        var codewords = data + [UInt8](repeating: 0, count: size.checkCodewords)
        for block in 0..<size.blocks {
            let blockData = stride(from: block, to: data.count, by: size.blocks).map { Int(data[$0]) }
            let checks = GaloisField.aztec8.checkWords(blockData, count: checksPerBlock)
            for (k, word) in checks.enumerated() { codewords[data.count + block + k * size.blocks] = UInt8(word) }
        }

        // Place the codeword bits in the mapping matrix (the data regions side by side, without their frames).
        let mappingRows = size.regionRows * size.regionHeight, mappingColumns = size.regionColumns * size.regionWidth
        var placement = Placement(rows: mappingRows, columns: mappingColumns, codewords: codewords)
        placement.run()

        // Frame each region: finder on the left and bottom, clock track on the top and right.
        var grid = [Bool](repeating: false, count: rows * columns)
        let regionH = size.regionHeight + 2, regionW = size.regionWidth + 2
        for y in 0..<rows {
            for x in 0..<columns {
                let ry = y % regionH, rx = x % regionW
                let dark: Bool
                if rx == 0 || ry == regionH - 1 {
                    dark = true
                } else if ry == 0 {
                    dark = rx % 2 == 0
                } else if rx == regionW - 1 {
                    dark = ry % 2 == 1
                } else {
                    let my = (y / regionH) * size.regionHeight + ry - 1
                    let mx = (x / regionW) * size.regionWidth + rx - 1
                    dark = placement.bits[my * mappingColumns + mx]
                }
                grid[y * columns + x] = dark
            }
        }
        self.modules = grid
    }

    /// ISO/IEC 16022 Annex F: codewords as 8-module "utah" shapes along diagonals, with four corner cases.
    struct Placement {
        let rows: Int, columns: Int
        let codewords: [UInt8]
        var bits: [Bool]
        var placed: [Bool]

        init(rows: Int, columns: Int, codewords: [UInt8]) {
            self.rows = rows
            self.columns = columns
            self.codewords = codewords
            bits = [Bool](repeating: false, count: rows * columns)
            placed = [Bool](repeating: false, count: rows * columns)
        }

        /// Bit `bit` (1 = most significant) of codeword `index` at (row, column), wrapping off-matrix positions.
        mutating func module(_ row: Int, _ column: Int, _ index: Int, _ bit: Int) {
            var r = row, c = column
            if r < 0 {
                r += rows
                c += 4 - (rows + 4) % 8
            }
            if c < 0 {
                c += columns
                r += 4 - (columns + 4) % 8
            }
            placed[r * columns + c] = true
            bits[r * columns + c] = index < codewords.count && (codewords[index] >> UInt8(8 - bit)) & 1 != 0
        }

        mutating func utah(_ row: Int, _ column: Int, _ index: Int) {
            module(row - 2, column - 2, index, 1)
            module(row - 2, column - 1, index, 2)
            module(row - 1, column - 2, index, 3)
            module(row - 1, column - 1, index, 4)
            module(row - 1, column, index, 5)
            module(row, column - 2, index, 6)
            module(row, column - 1, index, 7)
            module(row, column, index, 8)
        }

        mutating func corner(_ index: Int, _ cells: [(Int, Int)]) {
            for (k, cell) in cells.enumerated() {
                let r = cell.0 < 0 ? rows + cell.0 : cell.0
                let c = cell.1 < 0 ? columns + cell.1 : cell.1
                module(r, c, index, k + 1)
            }
        }

        mutating func run() {
            var index = 0, row = 4, column = 0
            repeat {
                if row == rows && column == 0 {
                    corner(index, [(-1, 0), (-1, 1), (-1, 2), (0, -2), (0, -1), (1, -1), (2, -1), (3, -1)])
                    index += 1
                }
                if row == rows - 2 && column == 0 && columns % 4 != 0 {
                    corner(index, [(-3, 0), (-2, 0), (-1, 0), (0, -4), (0, -3), (0, -2), (0, -1), (1, -1)])
                    index += 1
                }
                if row == rows - 2 && column == 0 && columns % 8 == 4 {
                    corner(index, [(-3, 0), (-2, 0), (-1, 0), (0, -2), (0, -1), (1, -1), (2, -1), (3, -1)])
                    index += 1
                }
                if row == rows + 4 && column == 2 && columns % 8 == 0 {
                    corner(index, [(-1, 0), (-1, -1), (0, -3), (0, -2), (0, -1), (1, -3), (1, -2), (1, -1)])
                    index += 1
                }
                // Up and to the right.
                repeat {
                    if row < rows && column >= 0 && !placed[row * columns + column] {
                        utah(row, column, index)
                        index += 1
                    }
                    row -= 2
                    column += 2
                } while row >= 0 && column < columns
                row += 1
                column += 3
                // Down and to the left.
                repeat {
                    if row >= 0 && column < columns && !placed[row * columns + column] {
                        utah(row, column, index)
                        index += 1
                    }
                    row += 2
                    column -= 2
                } while row < rows && column >= 0
                row += 3
                column += 1
            } while row < rows || column < columns
            // The unused bottom-right corner of some sizes: a fixed checkerboard.
            if !placed[rows * columns - 1] {
                bits[rows * columns - 1] = true
                bits[rows * columns - columns - 2] = true
                placed[rows * columns - 1] = true
                placed[rows * columns - columns - 2] = true
            }
        }
    }
}
