import Foundation
internal import FilterEngine
internal import CZXing

/// CIDetectorTypeQRCode's reader: zxing-cpp decodes the symbols; the descriptor's version comes from the
/// number of corrected data codewords, and its mask from the symbol's format information, read here from the
/// pixels because zxing-cpp 1.4 does not report it.
enum QRCodeReader {
    static func read(_ image: Luminance, thorough: Bool) -> [CIQRCodeFeature] {
        var codes: UnsafeMutablePointer<CZXingQRCode>?
        let count = image.pixels.withUnsafeBufferPointer {
            czxing_read_qr_codes($0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width),
                                 thorough ? 1 : 0, &codes)
        }
        guard let codes, count > 0 else { return [] }
        defer { czxing_free(codes, count) }
        return (0..<Int(count)).map { feature(codes[$0], in: image) }
    }

    static func feature(_ code: CZXingQRCode, in image: Luminance) -> CIQRCodeFeature {
        let xs = withUnsafeBytes(of: code.cornerX) { Array($0.bindMemory(to: Double.self)) }
        let ys = withUnsafeBytes(of: code.cornerY) { Array($0.bindMemory(to: Double.self)) }
        // zxing-cpp's corners: top left, top right, bottom right, bottom left, in pixels from the top-left corner.
        let pixelCorners = (0..<4).map { (x: xs[$0], y: ys[$0]) }
        let point = { (i: Int) in image.imagePoint(x: pixelCorners[i].x, y: pixelCorners[i].y) }
        let corners = Corners(topLeft: point(0), topRight: point(1), bottomLeft: point(3), bottomRight: point(2))
        let message = code.text.map { String(cString: $0) }
        let codewords = code.codewords.map { Array(UnsafeBufferPointer(start: $0, count: code.codewordCount)) } ?? []
        let descriptor = Self.descriptor(codewords: codewords, level: code.level, corners: pixelCorners, image: image)
        return CIQRCodeFeature(corners: corners, messageString: message, symbolDescriptor: descriptor)
    }

    /// The descriptor of a decoded symbol; nil when the codewords do not fit any version at the level.
    static func descriptor(codewords: [UInt8], level: CChar, corners: [(x: Double, y: Double)], image: Luminance) -> CIQRCodeDescriptor? {
        let letter = String(UnicodeScalar(UInt8(bitPattern: level)))
        guard level != 0, let version = BarcodeDescriptor.qrVersion(dataCodewordCount: codewords.count, level: letter) else { return nil }
        let mask = readMask(version: version, level: letter, corners: corners, image: image)
            ?? BarcodeDescriptor.qrPenaltyMask(payload: codewords, version: version, level: letter)
        guard let mask else { return nil }
        return CIQRCodeDescriptor(engineDescriptor: .qr(payload: codewords, version: version, mask: mask, level: letter))
    }

    /// The mask the symbol's format information names: each copy's 15 modules sampled at their centres
    /// (through the perspective the four corners give) and matched to the nearest valid format word. Nil
    /// when neither copy is within 3 bits of one, or the level disagrees with the decoder's.
    static func readMask(version: Int, level: String, corners: [(x: Double, y: Double)], image: Luminance) -> Int? {
        let size = Double(version * 4 + 17)
        let toPixels = Perspective(unitSquareTo: corners)
        func luminance(module x: Int, _ y: Int) -> Double {
            let p = toPixels.apply((Double(x) + 0.5) / size, (Double(y) + 0.5) / size)
            let px = min(max(Int(p.x.rounded(.down)), 0), image.width - 1)
            let py = min(max(Int(p.y.rounded(.down)), 0), image.height - 1)
            return Double(image[px, py])
        }
        // The finder's centre is dark and its inner ring light: halfway between is this symbol's threshold.
        let threshold = (luminance(module: 3, 3) + luminance(module: 1, 1)) / 2
        var best: (level: String, mask: Int, distance: Int)?
        for copy in BarcodeDescriptor.qrFormatPositions(version: version) {
            var bits = 0
            for (i, module) in copy.enumerated() where luminance(module: module.x, module.y) < threshold { bits |= 1 << i }
            let nearest = BarcodeDescriptor.qrFormat(nearest: bits)
            if nearest.distance < (best?.distance ?? Int.max) { best = nearest }
        }
        guard let best, best.distance <= 3, best.level == level else { return nil }
        return best.mask
    }
}

/// The projective map taking the unit square's corners (0,0), (1,0), (1,1), (0,1) to four points.
struct Perspective {
    let a, b, c, d, e, f, g, h: Double

    init(unitSquareTo q: [(x: Double, y: Double)]) {
        let dx1 = q[1].x - q[2].x, dx2 = q[3].x - q[2].x, dx3 = q[0].x - q[1].x + q[2].x - q[3].x
        let dy1 = q[1].y - q[2].y, dy2 = q[3].y - q[2].y, dy3 = q[0].y - q[1].y + q[2].y - q[3].y
        let det = dx1 * dy2 - dx2 * dy1
        if (dx3 == 0 && dy3 == 0) || det == 0 {
            // A parallelogram: the map is affine.
            g = 0; h = 0
        } else {
            g = (dx3 * dy2 - dx2 * dy3) / det
            h = (dx1 * dy3 - dx3 * dy1) / det
        }
        a = q[1].x - q[0].x + g * q[1].x; b = q[3].x - q[0].x + h * q[3].x; c = q[0].x
        d = q[1].y - q[0].y + g * q[1].y; e = q[3].y - q[0].y + h * q[3].y; f = q[0].y
    }

    func apply(_ u: Double, _ v: Double) -> (x: Double, y: Double) {
        let w = g * u + h * v + 1
        return ((a * u + b * v + c) / w, (d * u + e * v + f) / w)
    }
}
