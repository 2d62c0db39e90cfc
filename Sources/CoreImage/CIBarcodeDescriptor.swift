import Foundation
internal import FilterEngine

/// A barcode as its symbology's standard describes it: the error-corrected codewords and the parameters that
/// fix the symbol, enough to draw it again (CIBarcodeGenerator) or to read its payload with your own parser.
/// Abstract: the descriptors are CIQRCodeDescriptor, CIAztecCodeDescriptor, CIPDF417CodeDescriptor and
/// CIDataMatrixCodeDescriptor. Immutable, so a copy is the descriptor itself.
open class CIBarcodeDescriptor: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    /// The engine's form of the descriptor, which CIBarcodeGenerator draws.
    let engineDescriptor: BarcodeDescriptor

    init(engineDescriptor: BarcodeDescriptor) {
        self.engineDescriptor = engineDescriptor
        super.init()
    }

    /// Whether `descriptor` is of this class's symbology; each concrete class takes only its own, so an
    /// archive of another kind decodes to nil.
    class func describes(_ descriptor: BarcodeDescriptor) -> Bool { true }

    /// A descriptor that passes the engine's checks (the symbol can be drawn), or nil with the reason on
    /// standard error, as Core Image's failable initialisers return nil for invalid parameters.
    static func validated(_ descriptor: BarcodeDescriptor) -> BarcodeDescriptor? {
        do {
            try descriptor.validate()
            return descriptor
        } catch {
            LibraryWarnings.report("\(Self.self): \(error)")
            return nil
        }
    }

    public class var supportsSecureCoding: Bool { true }

    /// Archives the descriptor in its text form (`qr:version=1,mask=2,level=M,payload=…`).
    open func encode(with coder: NSCoder) {
        coder.encode(engineDescriptor.description, forKey: "CIBarcodeDescriptor")
    }

    public required init?(coder: NSCoder) {
        guard let text = coder.decodeObject(forKey: "CIBarcodeDescriptor") as? String,
              let descriptor = try? BarcodeDescriptor.parse(text), (try? descriptor.validate()) != nil,
              Self.describes(descriptor) else { return nil }
        engineDescriptor = descriptor
        super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CIBarcodeDescriptor else { return false }
        return type(of: other) == type(of: self) && other.engineDescriptor == engineDescriptor
    }

    open override var hash: Int { engineDescriptor.description.hashValue }

    open override var description: String { "<\(type(of: self)) \(engineDescriptor)>" }

    /// The class a decoded archive or an engine descriptor stands for.
    static func make(_ descriptor: BarcodeDescriptor) -> CIBarcodeDescriptor {
        switch descriptor {
        case .qr: CIQRCodeDescriptor(engineDescriptor: descriptor)
        case .aztec: CIAztecCodeDescriptor(engineDescriptor: descriptor)
        case .pdf417: CIPDF417CodeDescriptor(engineDescriptor: descriptor)
        case .dataMatrix: CIDataMatrixCodeDescriptor(engineDescriptor: descriptor)
        }
    }
}

/// A QR code (ISO/IEC 18004): its data codewords after error correction, version, mask and level.
open class CIQRCodeDescriptor: CIBarcodeDescriptor, @unchecked Sendable {
    /// The share of the symbol given to error correction. The raw values are the levels' letters, as in
    /// Core Image (`'L'` is 76).
    public enum ErrorCorrectionLevel: Int, Sendable {
        /// About 20% of the symbol's codewords correct errors.
        case levelL = 76
        /// About 37%.
        case levelM = 77
        /// About 55%.
        case levelQ = 81
        /// About 65%.
        case levelH = 72

        var letter: String { String(UnicodeScalar(UInt8(rawValue))) }

        init?(letter: String) {
            guard let scalar = letter.unicodeScalars.first, letter.unicodeScalars.count == 1 else { return nil }
            self.init(rawValue: Int(scalar.value))
        }
    }

    /// The data codewords (ISO/IEC 18004 §6.4.10: the bit stream cut into 8-bit codewords, padded, before
    /// the split into blocks and error correction). Their count is fixed by the version and level.
    public var errorCorrectedPayload: Data { Data(parts.payload) }
    /// 1 to 40; the symbol is 17 + 4 × version modules wide.
    public var symbolVersion: Int { parts.version }
    /// The data mask, 0 to 7.
    public var maskPattern: UInt8 { UInt8(parts.mask) }
    public var errorCorrectionLevel: ErrorCorrectionLevel { ErrorCorrectionLevel(letter: parts.level) ?? .levelM }

    private var parts: (payload: [UInt8], version: Int, mask: Int, level: String) {
        guard case let .qr(payload, version, mask, level) = engineDescriptor else { preconditionFailure("not a QR descriptor") }
        return (payload, version, mask, level)
    }

    /// Nil unless the version is 1 to 40, the mask 0 to 7 and the payload holds exactly the version's data
    /// codewords at that level.
    public convenience init?(payload errorCorrectedPayload: Data, symbolVersion: Int, maskPattern: UInt8,
                 errorCorrectionLevel: ErrorCorrectionLevel) {
        guard let descriptor = Self.validated(
            .qr(payload: [UInt8](errorCorrectedPayload), version: symbolVersion, mask: Int(maskPattern),
                level: errorCorrectionLevel.letter)) else { return nil }
        self.init(engineDescriptor: descriptor)
    }

    override class func describes(_ descriptor: BarcodeDescriptor) -> Bool {
        if case .qr = descriptor { true } else { false }
    }
}

/// An Aztec code (ISO/IEC 24778): its data codewords, layer count and whether it is compact.
open class CIAztecCodeDescriptor: CIBarcodeDescriptor, @unchecked Sendable {
    /// The data codewords before check words are added (6, 8, 10 or 12 bits each, by the layer count), as
    /// one bit string, most significant bit first, the last byte padded with zeros.
    public var errorCorrectedPayload: Data { Data(parts.payload) }
    /// Compact symbols have one ring fewer in their bullseye, and 1 to 4 layers.
    public var isCompact: Bool { parts.compact }
    /// 1 to 32 (1 to 4 when compact).
    public var layerCount: Int { parts.layers }
    /// The number of data codewords, 1 to 2048.
    public var dataCodewordCount: Int { parts.count }

    private var parts: (payload: [UInt8], compact: Bool, layers: Int, count: Int) {
        guard case let .aztec(payload, compact, layers, count) = engineDescriptor else { preconditionFailure("not an Aztec descriptor") }
        return (payload, compact, layers, count)
    }

    /// Nil unless the layer count is 1 to 32 (4 when compact), the codeword count 1 to 2048, the payload holds
    /// that many codewords and they leave room for check words in the symbol.
    public convenience init?(payload errorCorrectedPayload: Data, isCompact: Bool, layerCount: Int, dataCodewordCount: Int) {
        guard (1...2048).contains(dataCodewordCount),
              let descriptor = Self.validated(
                .aztec(payload: [UInt8](errorCorrectedPayload), compact: isCompact, layers: layerCount,
                       dataCodewordCount: dataCodewordCount)) else { return nil }
        self.init(engineDescriptor: descriptor)
    }

    override class func describes(_ descriptor: BarcodeDescriptor) -> Bool {
        if case .aztec = descriptor { true } else { false }
    }
}

/// A PDF417 symbol (ISO/IEC 15438): its data codewords, rows, columns and whether it is compact.
open class CIPDF417CodeDescriptor: CIBarcodeDescriptor, @unchecked Sendable {
    /// The data codewords (16-bit values 0…928, little-endian), the first counting them all (itself and
    /// any padding included, check words excluded).
    public var errorCorrectedPayload: Data { Data(parts.payload) }
    /// Compact symbols have a shortened stop pattern and no right row indicator.
    public var isCompact: Bool { parts.compact }
    /// 3 to 90.
    public var rowCount: Int { parts.rows }
    /// Data columns, 1 to 30 (the start, stop and row indicator columns not counted).
    public var columnCount: Int { parts.columns }

    private var parts: (payload: [UInt8], compact: Bool, rows: Int, columns: Int) {
        guard case let .pdf417(payload, compact, rows, columns) = engineDescriptor else { preconditionFailure("not a PDF417 descriptor") }
        return (payload, compact, rows, columns)
    }

    /// Nil unless there are 3 to 90 rows and 1 to 30 columns, the first codeword counts the payload's
    /// codewords and what is left of the rows × columns is a valid number of check words.
    public convenience init?(payload errorCorrectedPayload: Data, isCompact: Bool, rowCount: Int, columnCount: Int) {
        guard (3...90).contains(rowCount), (1...30).contains(columnCount),
              let descriptor = Self.validated(
                .pdf417(payload: [UInt8](errorCorrectedPayload), compact: isCompact, rows: rowCount, columns: columnCount)) else { return nil }
        self.init(engineDescriptor: descriptor)
    }

    override class func describes(_ descriptor: BarcodeDescriptor) -> Bool {
        if case .pdf417 = descriptor { true } else { false }
    }
}

/// A Data Matrix symbol (ISO/IEC 16022): its data codewords, size and error-correction version.
open class CIDataMatrixCodeDescriptor: CIBarcodeDescriptor, @unchecked Sendable {
    /// The error correction of a Data Matrix symbol. ECC 000 to 140 use convolutional codes; ECC 200 uses
    /// Reed-Solomon codes, its capacity fixed by the symbol's size.
    public enum ECCVersion: Int, Sendable {
        case v000 = 0
        case v050 = 50
        case v080 = 80
        case v100 = 100
        case v140 = 140
        case v200 = 200
    }

    /// The data codewords before error correction (ISO/IEC 16022 §5.1, step 1, data encodation).
    public var errorCorrectedPayload: Data { Data(parts.payload) }
    public var rowCount: Int { parts.rows }
    public var columnCount: Int { parts.columns }
    /// Always `.v200` here: only ECC 200 symbols can be made.
    public var eccVersion: ECCVersion { .v200 }

    private var parts: (payload: [UInt8], rows: Int, columns: Int) {
        guard case let .dataMatrix(payload, rows, columns) = engineDescriptor else { preconditionFailure("not a Data Matrix descriptor") }
        return (payload, rows, columns)
    }

    /// Nil unless the rows × columns are an ECC 200 symbol size (10 × 10 to 144 × 144, or one of the six
    /// rectangles) and the payload holds exactly its data codewords. ECC 000 to 140 symbols (obsolete) are
    /// refused: they cannot be drawn here.
    public convenience init?(payload errorCorrectedPayload: Data, rowCount: Int, columnCount: Int, eccVersion: ECCVersion) {
        guard eccVersion == .v200 else {
            LibraryWarnings.report("CIDataMatrixCodeDescriptor: only ECC 200 symbols are supported, not ECC \(eccVersion.rawValue)")
            return nil
        }
        guard let descriptor = Self.validated(
            .dataMatrix(payload: [UInt8](errorCorrectedPayload), rows: rowCount, columns: columnCount)) else { return nil }
        self.init(engineDescriptor: descriptor)
    }

    override class func describes(_ descriptor: BarcodeDescriptor) -> Bool {
        if case .dataMatrix = descriptor { true } else { false }
    }
}

extension CIFilter {
    /// CIBarcodeGenerator's descriptor for the typed filter. Core Image declares it non-optional; before one
    /// is set this is an empty QR descriptor that draws nothing (the filter's output stays nil).
    func _barcodeDescriptorValue(_ key: String) -> CIBarcodeDescriptor {
        value(forKey: key) as? CIBarcodeDescriptor ?? CIBarcodeDescriptor.unset
    }
}

extension CIBarcodeDescriptor {
    /// Stands for "no descriptor" where Swift needs a value; the generator draws nothing from it.
    static let unset = CIBarcodeDescriptor(engineDescriptor: .qr(payload: [], version: 0, mask: 0, level: "M"))
}
