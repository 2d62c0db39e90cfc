import Foundation

/// What a reader of printed symbols needs to turn what it decoded back into a descriptor: the checks
/// CIBarcodeDescriptor's failable initialisers make, and the QR code parameters a decoder does not report.
extension BarcodeDescriptor {
    /// Throws, naming what is wrong, unless the descriptor describes a symbol CIBarcodeGenerator can draw.
    public func validate() throws { _ = try render() }

    /// The QR version whose capacity at `level` (L, M, Q or H) is exactly `count` data codewords. Capacities
    /// grow with the version at each level, so at most one version fits.
    public static func qrVersion(dataCodewordCount count: Int, level: String) -> Int? {
        guard let level = QRCode.Level(letter: level) else { return nil }
        return (1...40).first { QRCode.dataCodewords($0, level) == count }
    }

    /// The mask an encoder that follows ISO/IEC 18004's penalty rule chooses for these codewords (as
    /// CIQRCodeGenerator does); nil when the codewords do not fit the version and level.
    public static func qrPenaltyMask(payload: [UInt8], version: Int, level: String) -> Int? {
        guard let level = QRCode.Level(letter: level) else { return nil }
        return QRCode(dataCodewords: payload, version: version, level: level, mask: nil)?.mask
    }

    /// Module positions (x right, y down, in modules from the symbol's top-left corner) of the two copies of
    /// a QR code's 15 format bits, bit i at index i.
    public static func qrFormatPositions(version: Int) -> [[(x: Int, y: Int)]] {
        QRCode.formatPositions(size: version * 4 + 17)
    }

    /// The level and mask whose format bits are nearest `bits` (as read from a symbol, dark = 1), and how
    /// many bits differ (up to 3 are correctable).
    public static func qrFormat(nearest bits: Int) -> (level: String, mask: Int, distance: Int) {
        var best = (level: "M", mask: 0, distance: Int.max)
        for level in QRCode.Level.allCases {
            for mask in 0..<8 {
                let distance = (QRCode.formatBits(level: level, mask: mask) ^ bits).nonzeroBitCount
                if distance < best.distance { best = (["L", "M", "Q", "H"][level.rawValue], mask, distance) }
            }
        }
        return best
    }
}
