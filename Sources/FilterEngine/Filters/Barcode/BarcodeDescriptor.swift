import Foundation

/// A barcode as Core Image's CIBarcodeDescriptor subclasses describe one: the symbology, its error-corrected
/// payload (the data codewords just before error correction is added) and the parameters that fix the symbol's
/// geometry. CIBarcodeGenerator draws it.
///
/// Written as text (command line, recipes, explorer): `SYMBOLOGY:key=value,...`, with the payload in hex.
///
///     qr:version=1,mask=2,level=M,payload=40c6…        CIQRCodeDescriptor (level L, M, Q or H; mask 0-7)
///     aztec:compact=1,layers=1,words=6,payload=…        CIAztecCodeDescriptor (words = dataCodewordCount;
///                                                       the payload holds the words as one bit string)
///     pdf417:compact=0,rows=6,columns=2,payload=…       CIPDF417CodeDescriptor (16-bit codewords,
///                                                       little-endian; the first is the data count)
///     datamatrix:rows=10,columns=10,payload=…           CIDataMatrixCodeDescriptor (ECC 200 sizes only)
///
/// or, to try the filter, made from a message by the encoders of the matching generators (`message=` comes
/// last and takes the rest of the text, commas included):
///
///     qr:level=Q,message=Hello                          as CIQRCodeGenerator encodes it
///     aztec:correction=23,compact=0,message=Hello       as CIAztecCodeGenerator encodes it
///     pdf417:level=2,columns=3,compact=0,message=Hello  as CIPDF417BarcodeGenerator encodes it
///     datamatrix:message=Hello                          ASCII encodation, the smallest square size
///                                                       (Core Image has no Data Matrix generator filter)
public enum BarcodeDescriptor: Sendable, Equatable, CustomStringConvertible {
    case qr(payload: [UInt8], version: Int, mask: Int, level: String)
    case aztec(payload: [UInt8], compact: Bool, layers: Int, dataCodewordCount: Int)
    case pdf417(payload: [UInt8], compact: Bool, rows: Int, columns: Int)
    case dataMatrix(payload: [UInt8], rows: Int, columns: Int)

    public var description: String {
        switch self {
        case let .qr(payload, version, mask, level):
            "qr:version=\(version),mask=\(mask),level=\(level),payload=\(Self.hex(payload))"
        case let .aztec(payload, compact, layers, count):
            "aztec:compact=\(compact ? 1 : 0),layers=\(layers),words=\(count),payload=\(Self.hex(payload))"
        case let .pdf417(payload, compact, rows, columns):
            "pdf417:compact=\(compact ? 1 : 0),rows=\(rows),columns=\(columns),payload=\(Self.hex(payload))"
        case let .dataMatrix(payload, rows, columns):
            "datamatrix:rows=\(rows),columns=\(columns),payload=\(Self.hex(payload))"
        }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    // MARK: Reading the text form

    /// Parses the text form; a `message=` form runs the encoder to make the descriptor.
    public static func parse(_ text: String) throws -> BarcodeDescriptor {
        // Only leading blanks go: a message runs to the end of the text, trailing spaces included.
        let trimmed = Substring(text).drop { $0 == " " || $0 == "\t" }
        guard let colon = trimmed.firstIndex(of: ":") else {
            throw FilterError("a barcode descriptor starts with its symbology (qr:, aztec:, pdf417: or datamatrix:)")
        }
        let symbology = trimmed[..<colon].lowercased()
        var rest = trimmed[trimmed.index(after: colon)...]
        var fields: [String: String] = [:]
        var message: [UInt8]?
        while !rest.isEmpty {
            if rest.hasPrefix("message=") {
                message = Array(rest.dropFirst("message=".count).utf8)
                break
            }
            let end = rest.firstIndex(of: ",") ?? rest.endIndex
            let field = rest[..<end]
            guard let equals = field.firstIndex(of: "=") else { throw FilterError("barcode descriptor: \"\(field)\" is not key=value") }
            fields[field[..<equals].trimmingCharacters(in: .whitespaces).lowercased()] =
                field[field.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
        }
        var used: Set<String> = []
        func string(_ key: String) -> String? { used.insert(key); return fields[key] }
        func integer(_ key: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let text = string(key) else { return nil }
            guard let n = Int(text), range.contains(n) else {
                throw FilterError("barcode descriptor: \(key) must be a whole number in \(range.lowerBound)…\(range.upperBound), not \(text)")
            }
            return n
        }
        func required(_ key: String, _ range: ClosedRange<Int>) throws -> Int {
            guard let n = try integer(key, range) else { throw FilterError("barcode descriptor: \(symbology) needs \(key)=") }
            return n
        }
        func flag(_ key: String) throws -> Bool? { try integer(key, 0...1).map { $0 == 1 } }
        func payload() throws -> [UInt8] {
            guard let text = string("payload") else { throw FilterError("barcode descriptor: \(symbology) needs payload=<hex> or message=") }
            guard let bytes = bytes(hex: text) else { throw FilterError("barcode descriptor: payload must be hexadecimal bytes, not \(text)") }
            return bytes
        }

        let descriptor: BarcodeDescriptor
        switch symbology {
        case "qr":
            let level = (string("level") ?? "M").uppercased()
            guard let qrLevel = QRCode.Level(letter: level) else { throw FilterError("barcode descriptor: QR level must be L, M, Q or H, not \(level)") }
            if let message {
                guard let code = QRCode(bytes: message, level: qrLevel) else {
                    throw FilterError("barcode descriptor: \(message.count) bytes do not fit in a QR code at level \(level)")
                }
                descriptor = .qr(payload: code.dataWords, version: code.version, mask: code.mask, level: level)
            } else {
                descriptor = .qr(payload: try payload(), version: try required("version", 1...40),
                                 mask: try required("mask", 0...7), level: level)
            }
        case "aztec":
            if let message {
                let percent = try integer("correction", 5...95) ?? 23
                let compact = try flag("compact") ?? false
                let layers = try integer("layers", 1...32)
                guard let code = AztecCode(bytes: message, correctionPercent: percent, compactOnly: compact, layers: layers) else {
                    throw FilterError("barcode descriptor: \(message.count) bytes do not fit in that Aztec code")
                }
                descriptor = .aztec(payload: AztecCode.packWords(code.messageWords, wordSize: AztecCode.wordSize(code.layers)),
                                    compact: code.compact, layers: code.layers, dataCodewordCount: code.messageWords.count)
            } else {
                descriptor = .aztec(payload: try payload(), compact: try flag("compact") ?? false,
                                    layers: try required("layers", 1...32), dataCodewordCount: try required("words", 1...2048))
            }
        case "pdf417":
            if let message {
                let code = try BarcodeFilters.pdf417Code(
                    message, compaction: .automatic, alwaysSpecify: false, compact: try flag("compact") ?? false,
                    level: try integer("level", 0...8), columns: try integer("columns", 1...30), rows: try integer("rows", 3...90),
                    bounds: BarcodeFilters.PDF417Bounds(), aspectRatio: nil)
                let data = code.codewords.prefix(code.codewords[0])
                descriptor = .pdf417(payload: data.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, compact: code.compact,
                                     rows: code.rows, columns: code.columns)
            } else {
                descriptor = .pdf417(payload: try payload(), compact: try flag("compact") ?? false,
                                     rows: try required("rows", 3...90), columns: try required("columns", 1...30))
            }
        case "datamatrix":
            if let ecc = string("ecc"), ecc != "200" {
                throw FilterError("barcode descriptor: only Data Matrix ECC 200 is drawn (ecc=200), not ecc=\(ecc)")
            }
            if let message {
                guard let code = DataMatrixCode(message: message) else {
                    throw FilterError("barcode descriptor: \(message.count) bytes do not fit in a Data Matrix symbol")
                }
                descriptor = .dataMatrix(payload: code.dataWords, rows: code.size.rows, columns: code.size.columns)
            } else {
                descriptor = .dataMatrix(payload: try payload(), rows: try required("rows", 8...144), columns: try required("columns", 10...144))
            }
        default:
            throw FilterError("barcode descriptor: unknown symbology \"\(symbology)\" (qr, aztec, pdf417 or datamatrix)")
        }
        if let unknown = fields.keys.sorted().first(where: { !used.contains($0) }) {
            throw FilterError("barcode descriptor: \(symbology) has no \(unknown)=")
        }
        return descriptor
    }

    static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(digits.count / 2)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i...i + 1], as: UTF8.self), radix: 16) else { return nil }
            result.append(byte)
        }
        return result
    }

    // MARK: Symbols

    /// The PDF417 codewords of the payload (16-bit little-endian values).
    static func pdf417Codewords(_ payload: [UInt8]) -> [Int]? {
        guard payload.count % 2 == 0 else { return nil }
        return stride(from: 0, to: payload.count, by: 2).map { Int(payload[$0]) | Int(payload[$0 + 1]) << 8 }
    }

    /// The symbol's modules with its light margin, as CIBarcodeGenerator draws it: QR with the one-module margin
    /// of CIQRCodeGenerator, Aztec with the two-module margin of CIAztecCodeGenerator, PDF417 as
    /// CIPDF417BarcodeGenerator draws it, Data Matrix with a one-module margin (ISO/IEC 16022's minimum quiet zone; no Apple render to check).
    /// Throws, naming what is wrong, when the parameters do not describe a valid symbol.
    func render() throws -> Image {
        switch self {
        case let .qr(payload, version, mask, level):
            guard let qrLevel = QRCode.Level(letter: level) else { throw FilterError("QR level must be L, M, Q or H, not \(level)") }
            guard (1...40).contains(version), (0...7).contains(mask) else {
                throw FilterError("a QR descriptor needs version 1…40 and mask 0…7 (not \(version), \(mask))")
            }
            let expected = QRCode.dataCodewords(version, qrLevel)
            guard let code = QRCode(dataCodewords: payload, version: version, level: qrLevel, mask: mask) else {
                throw FilterError("a version \(version)-\(level) QR code holds \(expected) data codewords, the payload has \(payload.count)")
            }
            return BarcodeFilters.squareSymbol(size: code.size, quiet: 1, dark: code.isDark)
        case let .aztec(payload, compact, layers, count):
            guard layers >= 1, layers <= (compact ? 4 : 32) else {
                throw FilterError("a \(compact ? "compact" : "full-range") Aztec code has 1…\(compact ? 4 : 32) layers, not \(layers)")
            }
            let wordSize = AztecCode.wordSize(layers)
            guard count >= 1, payload.count * 8 >= count * wordSize else {
                throw FilterError("an Aztec payload of \(payload.count) bytes does not hold \(count) words of \(wordSize) bits")
            }
            let words = AztecCode.unpackWords(payload, count: count, wordSize: wordSize)
            guard let code = AztecCode(messageWords: words, compact: compact, layers: layers) else {
                throw FilterError("\(count) data words do not fit in a \(compact ? "compact" : "full-range") Aztec code of \(layers) layers (with room for check words)")
            }
            return BarcodeFilters.squareSymbol(size: code.size, quiet: 2, dark: code.isDark)
        case let .pdf417(payload, compact, rows, columns):
            guard let words = Self.pdf417Codewords(payload), let first = words.first else {
                throw FilterError("a PDF417 payload is 16-bit codewords: an even number of bytes, at least 2")
            }
            guard first == words.count else {
                throw FilterError("a PDF417 payload's first codeword counts its codewords (\(words.count)), not \(first)")
            }
            guard let level = PDF417Code.level(dataCount: words.count, rows: rows, columns: columns),
                  let code = PDF417Code(dataWithLength: words, rows: rows, columns: columns, level: level, compact: compact) else {
                throw FilterError("\(words.count) PDF417 data codewords in \(rows) rows × \(columns) columns leave \(rows * columns - words.count) for check words, which must be 2, 4, 8 … 512 (and codewords 0…928)")
            }
            return BarcodeFilters.pdf417Image(code)
        case let .dataMatrix(payload, rows, columns):
            guard let size = DataMatrixCode.size(rows: rows, columns: columns) else {
                throw FilterError("\(rows) × \(columns) is not a Data Matrix ECC 200 size")
            }
            guard let code = DataMatrixCode(dataWords: payload, rows: rows, columns: columns) else {
                throw FilterError("a \(rows) × \(columns) Data Matrix symbol holds \(size.dataCodewords) data codewords, the payload has \(payload.count)")
            }
            return BarcodeFilters.moduleImage(width: columns + 2, height: rows + 2) { x, y in
                x >= 1 && x <= columns && y >= 1 && y <= rows && code.isDark(x: x - 1, y: y - 1)
            }
        }
    }
}

extension AztecCode {
    /// Words of `wordSize` bits as one bit string, most significant bit first, the last byte padded with zeros.
    static func packWords(_ words: [Int], wordSize: Int) -> [UInt8] {
        var bits = BitBuffer()
        for word in words { bits.append(word, count: wordSize) }
        return bits.bytes
    }

    static func unpackWords(_ bytes: [UInt8], count: Int, wordSize: Int) -> [Int] {
        (0..<count).map { w in
            var value = 0
            for i in 0..<wordSize {
                let bit = w * wordSize + i
                value = value << 1 | Int(bytes[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
            }
            return value
        }
    }
}
