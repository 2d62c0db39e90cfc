import Foundation

/// Barcode generators: finite, opaque images with one pixel per module (black 0, white 1; PDF417 rows are 3
/// pixels tall), extent at the origin.
enum BarcodeFilters {
    static let all: [String: FilterImplementation] = [
        "CIQRCodeGenerator": qrCode,
        "CICode128BarcodeGenerator": code128,
        "CIAztecCodeGenerator": aztec,
        "CIPDF417BarcodeGenerator": pdf417,
        "CIBarcodeGenerator": barcode,
    ]

    /// A square symbol of `size` modules with a light margin of `quiet` modules on every side.
    static func squareSymbol(size: Int, quiet: Int, dark: (Int, Int) -> Bool) -> Image {
        moduleImage(width: size + 2 * quiet, height: size + 2 * quiet) { x, y in
            let mx = x - quiet, my = y - quiet
            return mx >= 0 && mx < size && my >= 0 && my < size && dark(mx, my)
        }
    }

    /// A number input as a whole number in `range` (Core Image's barcode generators clamp these), or nil when
    /// unset; non-finite values are rejected before they get here.
    static func wholeNumber(_ inputs: FilterInputs, _ key: String, _ range: ClosedRange<Int>) throws -> Int? {
        guard try inputs.has(key) else { return nil }
        let n = try inputs.number(key).rounded()
        return Int(min(max(n, Double(range.lowerBound)), Double(range.upperBound)))
    }

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
        return squareSymbol(size: code.size, quiet: 1, dark: code.isDark)
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

    /// The Aztec symbol of the message bytes with a two-module light margin: Apple's iOS 13.3 render (case
    /// 51F21ACB) is the same 23×23 symbol, module for module, in a 27×27 image (QR keeps its one-module margin).
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
        return squareSymbol(size: code.size, quiet: 2, dark: code.isDark)
    }

    // MARK: PDF417

    /// Pixel bounds a PDF417 symbol must fit (CIPDF417BarcodeGenerator's min/max width and height).
    struct PDF417Bounds {
        var minWidth: Int?, maxWidth: Int?, minHeight: Int?, maxHeight: Int?

        /// Pixels by which a size misses the bounds (0 inside them).
        func miss(width: Int, height: Int) -> Int {
            max(0, (minWidth ?? 0) - width) + max(0, width - (maxWidth ?? .max)) + max(0, (minHeight ?? 0) - height)
                + max(0, height - (maxHeight ?? .max))
        }
    }

    /// Core Image's PDF417 geometry, read from its attribute ranges: a module is 1 pixel wide and a row 3 pixels
    /// tall (ISO/IEC 15438's minimum row height), with a 2-pixel light margin on every side. inputMinWidth's
    /// minimum 56 is the narrowest symbol (compact, one column: 52 modules) plus 4, its maximum 583 the widest
    /// (30 columns: 579 modules) plus 4; inputMinHeight's minimum 13 is 3 rows of 3 pixels plus 4 (its maximum
    /// 283 does not follow the rule: 90 rows make 274).
    static let pdf417Quiet = 2, pdf417RowHeight = 3

    static func pdf417Size(_ code: PDF417Code) -> (width: Int, height: Int) {
        (code.moduleWidth + 2 * pdf417Quiet, code.rows * pdf417RowHeight + 2 * pdf417Quiet)
    }

    static func pdf417Image(_ code: PDF417Code) -> Image {
        let rows = code.moduleRows()
        let size = pdf417Size(code)
        return moduleImage(width: size.width, height: size.height) { x, y in
            let mx = x - pdf417Quiet, row = (y - pdf417Quiet) / pdf417RowHeight
            return mx >= 0 && mx < code.moduleWidth && y >= pdf417Quiet && row < code.rows && rows[row][mx]
        }
    }

    /// The symbol for a message. Rows and columns given are kept; otherwise, for each column count, the fewest
    /// rows that hold the message and reach the minimum height. Among those layouts: the one that fits the pixel
    /// bounds (or misses them by the fewest pixels: the bounds are limits to aim for, a message that cannot meet
    /// them still draws), then the one whose width / height is nearest the preferred aspect ratio (3 when none is
    /// given), then the one with fewest codeword slots. The correction level defaults to
    /// ISO/IEC 15438's recommendation for the message's length (Core Image's documentation: "If left
    /// unspecified, the generator chooses a correction level based on the size of the message data").
    static func pdf417Code(_ message: [UInt8], compaction: PDF417Code.Compaction, alwaysSpecify: Bool, compact: Bool,
                           level requestedLevel: Int?, columns fixedColumns: Int?, rows fixedRows: Int?,
                           bounds: PDF417Bounds, aspectRatio: Double?) throws -> PDF417Code {
        let data = try PDF417Code.dataCodewords(message, compaction: compaction, alwaysSpecify: alwaysSpecify)
        let level = requestedLevel ?? PDF417Code.recommendedLevel(dataCodewords: data.count + 1)
        let needed = data.count + 1 + PDF417Code.checkWordCount(level: level)
        guard needed <= 928 else {
            throw FilterError("\(message.count) bytes need \(needed) codewords at correction level \(level), more than a PDF417 symbol's 928")
        }
        let ratio = aspectRatio ?? 3
        // Rows the minimum height asks for.
        let tallEnough = bounds.minHeight.map { ($0 - 2 * pdf417Quiet + pdf417RowHeight - 1) / pdf417RowHeight } ?? 0
        var best: (code: PDF417Code, miss: Int, score: Double, slots: Int)?
        for columns in fixedColumns.map({ [$0] }) ?? Array(1...30) {
            let rows = fixedRows ?? max(3, (needed + columns - 1) / columns, min(90, tallEnough))
            guard rows <= 90, let code = PDF417Code(data: data, rows: rows, columns: columns, level: level, compact: compact) else { continue }
            let size = pdf417Size(code)
            let miss = bounds.miss(width: size.width, height: size.height)
            let score = abs(Double(size.width) / Double(size.height) - ratio)
            if let b = best, (b.miss, b.score, b.slots) <= (miss, score, rows * columns) { continue }
            best = (code, miss, score, rows * columns)
        }
        guard let best else {
            let layout = [fixedColumns.map { "\($0) columns" }, fixedRows.map { "\($0) rows" }].compactMap { $0 }.joined(separator: " × ")
            throw FilterError("\(needed) codewords fit in no PDF417 layout\(layout.isEmpty ? "" : " of " + layout) (at most 928 codewords, 3…90 rows, 1…30 columns)")
        }
        return best.code
    }

    /// CIPDF417BarcodeGenerator. Compaction mode 0 automatic, 1 numeric, 2 text, 3 byte; compact style drops the
    /// right row indicators and the stop pattern; always-specify-compaction writes the text latch even where
    /// text, the mode a symbol starts in, needs none. Out-of-range numbers are clamped to the attribute ranges.
    static func pdf417(_ inputs: FilterInputs) throws -> Image {
        let message = try inputs.data("inputMessage") ?? []
        let mode = try wholeNumber(inputs, "inputCompactionMode", 0...3) ?? 0
        let bounds = PDF417Bounds(
            minWidth: try wholeNumber(inputs, "inputMinWidth", 0...100_000), maxWidth: try wholeNumber(inputs, "inputMaxWidth", 0...100_000),
            minHeight: try wholeNumber(inputs, "inputMinHeight", 0...100_000), maxHeight: try wholeNumber(inputs, "inputMaxHeight", 0...100_000))
        let ratio = try inputs.has("inputPreferredAspectRatio") ? try inputs.number("inputPreferredAspectRatio") : nil
        do {
            let code = try pdf417Code(
                message, compaction: PDF417Code.Compaction(rawValue: mode)!,
                alwaysSpecify: try inputs.has("inputAlwaysSpecifyCompaction") && inputs.bool("inputAlwaysSpecifyCompaction"),
                compact: try inputs.has("inputCompactStyle") && inputs.bool("inputCompactStyle"),
                level: try wholeNumber(inputs, "inputCorrectionLevel", 0...8),
                columns: try wholeNumber(inputs, "inputDataColumns", 1...30), rows: try wholeNumber(inputs, "inputRows", 3...90),
                bounds: bounds, aspectRatio: ratio.flatMap { $0 > 0 ? $0 : nil })
            return pdf417Image(code)
        } catch let error as FilterError {
            throw FilterError("CIPDF417BarcodeGenerator: \(error.message)")
        }
    }

    // MARK: Descriptors

    /// CIBarcodeGenerator: the symbol a barcode descriptor describes (`BarcodeDescriptor.render`).
    static func barcode(_ inputs: FilterInputs) throws -> Image {
        let descriptor = try inputs.barcodeDescriptor("inputBarcodeDescriptor")
        do {
            return try descriptor.render()
        } catch let error as FilterError where !error.message.hasPrefix("CIBarcodeGenerator") {
            throw FilterError("CIBarcodeGenerator: \(error.message)")
        }
    }
}
