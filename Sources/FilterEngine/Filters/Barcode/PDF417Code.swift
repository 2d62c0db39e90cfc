import Foundation

/// A PDF417 symbol (ISO/IEC 15438): the message in text, numeric and byte compaction, Reed-Solomon check words
/// over GF(929), rows of start pattern, left row indicator, data columns, right row indicator and stop pattern
/// (compact PDF417 drops the right row indicator and ends each row with a one-module bar).
struct PDF417Code {
    let rows: Int
    let columns: Int
    let compact: Bool
    let correctionLevel: Int
    /// Every codeword in reading order, data (length first, padding included) then check words.
    let codewords: [Int]

    /// Modules across one row, without the quiet zone: start 17, left indicator 17, data, then right indicator
    /// and stop (17 + 18), or the one-module compact stop.
    var moduleWidth: Int { 17 + 17 + 17 * columns + (compact ? 1 : 35) }

    // MARK: Codeword values

    static let textLatch = 900, byteLatch = 901, numericLatch = 902, byteShift = 913, byteLatchSix = 924
    static let padding = 900

    enum Compaction: Int { case automatic = 0, numeric, text, byte }

    /// Check words at each correction level: 2^(level+1).
    static func checkWordCount(level: Int) -> Int { 2 << level }

    /// The lowest level ISO/IEC 15438 recommends for a number of data codewords (Annex E).
    static func recommendedLevel(dataCodewords: Int) -> Int {
        switch dataCodewords {
        case ...40: 2
        case ...160: 3
        case ...320: 4
        default: 5
        }
    }

    // MARK: High-level encoding

    /// Bytes text compaction can carry: tab, line feed, carriage return and printable ASCII.
    static func isText(_ byte: UInt8) -> Bool { byte == 9 || byte == 10 || byte == 13 || (32...126).contains(byte) }
    static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }

    /// The data codewords (without the length codeword) for `bytes`. Automatic compaction splits the message as
    /// ISO/IEC 15438 Annex P suggests: 13 or more digits in numeric, 5 or more text characters in text, the rest
    /// in bytes (a single byte inside text as a byte shift). A forced mode encodes everything in that mode and
    /// is an error for bytes it cannot carry. The symbol starts in text compaction, so a leading text segment
    /// needs no latch unless `alwaysSpecify` asks for one.
    static func dataCodewords(_ bytes: [UInt8], compaction: Compaction, alwaysSpecify: Bool) throws -> [Int] {
        var out: [Int] = []
        switch compaction {
        case .numeric:
            guard bytes.allSatisfy(isDigit) else { throw FilterError("numeric compaction needs a message of digits only") }
            if !bytes.isEmpty { out.append(numericLatch) }
            out += numeric(bytes[...])
        case .text:
            guard bytes.allSatisfy(isText) else {
                throw FilterError("text compaction needs tab, line feed, carriage return or printable ASCII only")
            }
            if alwaysSpecify { out.append(textLatch) }
            var submode = TextSubmode.alpha
            out += text(bytes[...], submode: &submode)
        case .byte:
            out += self.bytes(bytes[...])
        case .automatic:
            var inText = true, submode = TextSubmode.alpha
            var p = 0
            while p < bytes.count {
                let digits = bytes[p...].prefix(while: isDigit).count
                if digits >= 13 {
                    out.append(numericLatch)
                    out += numeric(bytes[p..<p + digits])
                    inText = false
                    submode = .alpha
                    p += digits
                    continue
                }
                let textCount = textRun(bytes, from: p)
                if textCount >= 5 || (textCount > 0 && p + textCount == bytes.count && inText) {
                    // Text is the mode a symbol starts in: a latch is needed after other modes, or when asked for.
                    if !inText || (alwaysSpecify && out.isEmpty) {
                        out.append(textLatch)
                        inText = true
                        submode = .alpha
                    }
                    out += text(bytes[p..<p + textCount], submode: &submode)
                    p += textCount
                    continue
                }
                let byteCount = max(1, byteRun(bytes, from: p))
                if byteCount == 1 && inText {
                    out += [byteShift, Int(bytes[p])]
                } else {
                    out += self.bytes(bytes[p..<p + byteCount])
                    inText = false
                    submode = .alpha
                }
                p += byteCount
            }
        }
        return out
    }

    /// Text characters from `start`, stopping before a run of 13 digits.
    static func textRun(_ bytes: [UInt8], from start: Int) -> Int {
        var p = start
        while p < bytes.count, isText(bytes[p]) {
            let digits = bytes[p...].prefix(while: isDigit).count
            if digits >= 13 { break }
            p += max(1, digits)
        }
        return p - start
    }

    /// Bytes from `start` up to a run of 13 digits or of 5 text characters.
    static func byteRun(_ bytes: [UInt8], from start: Int) -> Int {
        var p = start
        while p < bytes.count {
            if bytes[p...].prefix(while: isDigit).count >= 13 { break }
            if textRun(bytes, from: p) >= 5 { break }
            p += 1
        }
        return p - start
    }

    /// Numeric compaction: groups of up to 44 digits, each a "1" followed by the digits, written in base 900.
    static func numeric(_ digits: ArraySlice<UInt8>) -> [Int] {
        var out: [Int] = []
        var start = digits.startIndex
        while start < digits.endIndex {
            let end = min(start + 44, digits.endIndex)
            var decimal = [1] + digits[start..<end].map { Int($0) - 48 }
            var group: [Int] = []
            // Repeated long division of the decimal digits by 900.
            while !(decimal.count == 1 && decimal[0] == 0) {
                var quotient: [Int] = [], remainder = 0
                for d in decimal {
                    let value = remainder * 10 + d
                    let q = value / 900
                    remainder = value % 900
                    if !quotient.isEmpty || q != 0 { quotient.append(q) }
                }
                group.insert(remainder, at: 0)
                decimal = quotient.isEmpty ? [0] : quotient
            }
            out += group
            start = end
        }
        return out
    }

    /// Byte compaction: latch 924 when the count is a multiple of 6, else 901; each 6 bytes as 5 base-900
    /// codewords, a shorter tail one codeword per byte.
    static func bytes(_ data: ArraySlice<UInt8>) -> [Int] {
        var out = [data.count % 6 == 0 ? byteLatchSix : byteLatch]
        var i = data.startIndex
        while data.endIndex - i >= 6 {
            var value: UInt64 = 0
            for b in data[i..<i + 6] { value = value << 8 | UInt64(b) }
            var group = [Int](repeating: 0, count: 5)
            for k in stride(from: 4, through: 0, by: -1) {
                group[k] = Int(value % 900)
                value /= 900
            }
            out += group
            i += 6
        }
        out += data[i...].map(Int.init)
        return out
    }

    enum TextSubmode { case alpha, lower, mixed, punctuation }

    static let mixedCharacters = Array("0123456789&\r\t,:#-.$/+%*=^".utf8)
    static let punctuationCharacters = Array(";<>@[\\]_`~!\r\t,:\n-.$/\"|*()?{}'".utf8)

    static func alphaValue(_ b: UInt8) -> Int? { b == 32 ? 26 : (65...90).contains(b) ? Int(b) - 65 : nil }
    static func lowerValue(_ b: UInt8) -> Int? { b == 32 ? 26 : (97...122).contains(b) ? Int(b) - 97 : nil }
    static func mixedValue(_ b: UInt8) -> Int? { b == 32 ? 26 : mixedCharacters.firstIndex(of: b) }
    static func punctuationValue(_ b: UInt8) -> Int? { punctuationCharacters.firstIndex(of: b) }

    /// Text compaction: values 0-29 in four submodes (latches and one-character shifts between them), two
    /// values per codeword, an odd count padded with 29. `submode` carries over between segments separated only
    /// by byte shifts.
    static func text(_ chars: ArraySlice<UInt8>, submode: inout TextSubmode) -> [Int] {
        var values: [Int] = []
        var i = chars.startIndex
        while i < chars.endIndex {
            let c = chars[i]
            switch submode {
            case .alpha:
                if let v = alphaValue(c) { values.append(v); i += 1 }
                else if lowerValue(c) != nil { values.append(27); submode = .lower }
                else if mixedValue(c) != nil { values.append(28); submode = .mixed }
                else { values += [29, punctuationValue(c)!]; i += 1 }
            case .lower:
                if let v = lowerValue(c) { values.append(v); i += 1 }
                else if let v = alphaValue(c) { values += [27, v]; i += 1 }
                else if mixedValue(c) != nil { values.append(28); submode = .mixed }
                else { values += [29, punctuationValue(c)!]; i += 1 }
            case .mixed:
                if let v = mixedValue(c) { values.append(v); i += 1 }
                else if alphaValue(c) != nil { values.append(28); submode = .alpha }
                else if lowerValue(c) != nil { values.append(27); submode = .lower }
                else if i + 1 < chars.endIndex, punctuationValue(chars[i + 1]) != nil {
                    values.append(25)
                    submode = .punctuation
                } else { values += [29, punctuationValue(c)!]; i += 1 }
            case .punctuation:
                if let v = punctuationValue(c) { values.append(v); i += 1 }
                else { values.append(29); submode = .alpha }
            }
        }
        if values.count % 2 == 1 { values.append(29) }
        return stride(from: 0, to: values.count, by: 2).map { values[$0] * 30 + values[$0 + 1] }
    }

    // MARK: Error correction

    /// The check words for `data` (length codeword first): the negated remainder of data·x^k divided by
    /// ∏(x - 3^i), i = 1...k, in GF(929).
    static func checkWords(_ data: [Int], count k: Int) -> [Int] {
        // Generator coefficients, constant term first, without the leading 1.
        var generator = [1]
        var power = 1
        for _ in 0..<k {
            power = power * 3 % 929
            var next = [Int](repeating: 0, count: generator.count + 1)
            for (j, c) in generator.enumerated() {
                next[j + 1] = (next[j + 1] + c) % 929
                next[j] = (next[j] + (929 - power) * c) % 929
            }
            generator = next
        }
        var remainder = [Int](repeating: 0, count: k)
        for word in data {
            let factor = (word + remainder[k - 1]) % 929
            for j in stride(from: k - 1, to: 0, by: -1) {
                remainder[j] = (remainder[j - 1] + 929 - factor * generator[j] % 929) % 929
            }
            remainder[0] = (929 - factor * generator[0] % 929) % 929
        }
        return remainder.reversed().map { $0 == 0 ? 0 : 929 - $0 }
    }

    // MARK: Symbol

    /// A symbol of exactly `rows` × `columns` holding `data` (data codewords without the length codeword),
    /// padded, with check words of `level`. Nil when it does not fit.
    init?(data: [Int], rows: Int, columns: Int, level: Int, compact: Bool) {
        let checks = Self.checkWordCount(level: level)
        let slots = rows * columns
        guard (3...90).contains(rows), (1...30).contains(columns), (0...8).contains(level),
              slots <= 928, data.count + 1 + checks <= slots else { return nil }
        var body = [slots - checks] + data
        body += [Int](repeating: Self.padding, count: slots - checks - body.count)
        self.init(dataWithLength: body, rows: rows, columns: columns, level: level, compact: compact)
    }

    /// A symbol from its data codewords as a descriptor carries them: the length codeword first, padding
    /// included, check words not; the check words fill the rest of rows × columns.
    init?(dataWithLength body: [Int], rows: Int, columns: Int, level: Int, compact: Bool) {
        guard (3...90).contains(rows), (1...30).contains(columns), rows * columns <= 928,
              body.first == body.count, body.count + Self.checkWordCount(level: level) == rows * columns,
              body.allSatisfy({ (0...928).contains($0) }) else { return nil }
        self.rows = rows
        self.columns = columns
        self.compact = compact
        self.correctionLevel = level
        self.codewords = body + Self.checkWords(body, count: Self.checkWordCount(level: level))
    }

    /// The correction level a descriptor's payload implies: its check words are rows × columns minus the data.
    static func level(dataCount: Int, rows: Int, columns: Int) -> Int? {
        let checks = rows * columns - dataCount
        return (0...8).first { checkWordCount(level: $0) == checks }
    }

    static let startPattern = 0b1111_1111_0101_0100_0   // 17 modules: 8 1 1 1 1 1 1 3
    static let stopPattern = 0b1111_1110_1000_1010_01   // 18 modules: 7 1 1 3 1 1 1 2 1

    /// The row indicators of row `row`, which carry the row count, the column count and the correction level
    /// between them (each cluster puts a different one on each side).
    func rowIndicators(_ row: Int) -> (left: Int, right: Int) {
        let base = 30 * (row / 3)
        let rowInfo = (rows - 1) / 3, columnInfo = columns - 1, levelInfo = correctionLevel * 3 + (rows - 1) % 3
        switch row % 3 {
        case 0: return (base + rowInfo, base + columnInfo)
        case 1: return (base + levelInfo, base + rowInfo)
        default: return (base + columnInfo, base + levelInfo)
        }
    }

    /// Each row's modules, true for a bar.
    func moduleRows() -> [[Bool]] {
        func append(_ pattern: Int, width: Int, to row: inout [Bool]) {
            for i in stride(from: width - 1, through: 0, by: -1) { row.append((pattern >> i) & 1 != 0) }
        }
        var result: [[Bool]] = []
        for r in 0..<rows {
            let table = PDF417Patterns.clusters[r % 3]
            func character(_ value: Int, to row: inout [Bool]) {
                append(Int(table[value]), width: 16, to: &row)
                row.append(false)
            }
            var row: [Bool] = []
            row.reserveCapacity(moduleWidth)
            append(Self.startPattern, width: 17, to: &row)
            let indicators = rowIndicators(r)
            character(indicators.left, to: &row)
            for c in 0..<columns { character(codewords[r * columns + c], to: &row) }
            if compact {
                row.append(true)
            } else {
                character(indicators.right, to: &row)
                append(Self.stopPattern, width: 18, to: &row)
            }
            result.append(row)
        }
        return result
    }
}
