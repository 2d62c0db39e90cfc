import Foundation

/// Barcode generators: finite, opaque images with one pixel per module (black 0, white 1), extent at the origin.
enum BarcodeFilters {
    static let all: [String: FilterImplementation] = [
        "CIQRCodeGenerator": qrCode,
        "CICode128BarcodeGenerator": code128,
        "CIAztecCodeGenerator": aztec,
    ]

    /// An opaque image of `width`×`height` pixels from `dark(x, row)`, where row 0 is the top row.
    static func moduleImage(width: Int, height: Int, dark: (Int, Int) -> Bool) -> Image {
        guard width > 0, height > 0 else { return .empty }
        let buffer = PixelBuffer(rect: PixelRect(x: 0, y: 0, width: width, height: height), uninitialized: true)
        let black = Pixel(0, 0, 0, 1), white = Pixel(1, 1, 1, 1)
        for y in 0..<height {
            let row = buffer.row(y)
            let top = height - 1 - y
            for x in 0..<width { row[x] = dark(x, top) ? black : white }
        }
        return Image(buffer: buffer)
    }

    /// The QR symbol of the message bytes with a one-module light margin, as Core Image draws it (a version 1
    /// symbol is 23×23 pixels). Unset messages encode as empty; a message too long for version 40 is an error.
    static func qrCode(_ inputs: FilterInputs) throws -> Image {
        let bytes = try inputs.data("inputMessage") ?? []
        let letter = try inputs.string("inputCorrectionLevel")
        guard let level = QRCode.Level(letter: letter) else {
            throw FilterError("CIQRCodeGenerator.inputCorrectionLevel must be L, M, Q or H (not \(letter))")
        }
        guard let code = QRCode(bytes: bytes, level: level) else {
            throw FilterError("CIQRCodeGenerator: \(bytes.count) bytes do not fit in a QR code at level \(letter)")
        }
        let quiet = 1, size = code.size
        return moduleImage(width: size + 2 * quiet, height: size + 2 * quiet) { x, y in
            let mx = x - quiet, my = y - quiet
            return mx >= 0 && mx < size && my >= 0 && my < size && code.isDark(x: mx, y: my)
        }
    }

    /// Bars one pixel per module, `inputBarcodeHeight` tall, with `inputQuietSpace` light pixels on all four
    /// sides (Core Image's layout: "Hello world" with quiet space 20 and height 100 is 196×140).
    static func code128(_ inputs: FilterInputs) throws -> Image {
        let bytes = try inputs.data("inputMessage") ?? []
        let quiet = max(0, try inputs.integer("inputQuietSpace"))
        let height = max(1, try inputs.integer("inputBarcodeHeight"))
        guard let values = Code128.encode(bytes) else {
            throw FilterError("CICode128BarcodeGenerator: the message must be ASCII (bytes below 128)")
        }
        let bars = Code128.modules(values)
        // Drawn per pixel rather than into a buffer: the quiet space and the height are any numbers (1e9 makes
        // a huge extent, which the render budget refuses if rendered whole, instead of an allocation here).
        let width = bars.count + 2 * quiet, fullHeight = height + 2 * quiet
        let black = Pixel(0, 0, 0, 1), white = Pixel(1, 1, 1, 1)
        return ColorKernel(name: "code128") { span in
            let barRow = span.y >= quiet && span.y < quiet + height
            for i in 0..<span.count {
                let mx = span.x0 + i - quiet
                span.out[i] = barRow && mx >= 0 && mx < bars.count && bars[mx] ? black : white
            }
        }.apply(extent: Rect(x: 0, y: 0, width: Double(width), height: Double(fullHeight)), inputs: [])
    }

    /// The Aztec symbol of the message bytes with a one-module light margin (as the QR generator draws it).
    /// As Core Image documents it: compact style off means automatic (the smallest symbol, compact or full-range),
    /// on means compact only; a layer count asks for that many layers (full-range unless compact style is on).
    static func aztec(_ inputs: FilterInputs) throws -> Image {
        let bytes = try inputs.data("inputMessage") ?? []
        let percent = try inputs.integer("inputCorrectionLevel")
        let compact = try inputs.bool("inputCompactStyle")
        let layers = try inputs.has("inputLayers") ? try inputs.integer("inputLayers") : nil
        guard let code = AztecCode(bytes: bytes, correctionPercent: percent, compactOnly: compact, layers: layers) else {
            let format = compact ? "a compact" : layers == nil ? "an" : "a full-range"
            let where_ = layers.map { " with \($0) layers" } ?? ""
            throw FilterError("CIAztecCodeGenerator: \(bytes.count) bytes do not fit in \(format) Aztec code\(where_) at \(percent)% correction")
        }
        let quiet = 1, size = code.size
        return moduleImage(width: size + 2 * quiet, height: size + 2 * quiet) { x, y in
            let mx = x - quiet, my = y - quiet
            return mx >= 0 && mx < size && my >= 0 && my < size && code.isDark(x: mx, y: my)
        }
    }
}
