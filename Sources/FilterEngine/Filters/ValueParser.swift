import Foundation

/// Turns text into a filter value, typed by the catalogue: the command line's KEY=VALUE, recipes' strings and the
/// explorer's text fields all go through here.
public enum ValueParser {
    /// Parses `text` for `input`. Image inputs read the file at that path. Only reading happens here: whether
    /// the value is acceptable (finite, the right length) is checked once, by `Filter.setValue`, for text and
    /// recipe numbers alike.
    public static func parse(_ text: String, for input: InputDescriptor, filter: String) throws -> FilterValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        func fail() -> FilterError {
            FilterError("\(filter).\(input.key): cannot read \"\(text)\" as \(input.expectation)")
        }
        let value: FilterValue
        switch input.valueClass {
        case .number:
            switch trimmed.lowercased() {
            case "true", "yes", "on": value = .number(1)
            case "false", "no", "off": value = .number(0)
            default:
                guard let n = Double(trimmed) else { throw fail() }
                value = .number(n)
            }
        case .vector, .array:
            guard let numbers = numbers(in: trimmed) else { throw fail() }
            value = .vector(numbers)
        case .color:
            guard let color = color(trimmed) else { throw fail() }
            value = .color(color)
        case .transform:
            guard let numbers = numbers(in: trimmed), numbers.count == 6 else { throw fail() }
            value = .transform(AffineTransform(numbers))
        case .string, .object, .attributedString:
            value = .string(text)
        case .data:
            value = .data(try data(text, for: input, filter: filter))
        case .image:
            value = .image(try ImageFile.read(trimmed))
        case .barcodeDescriptor:
            do { value = .barcode(try BarcodeDescriptor.parse(text)) } catch let error as FilterError {
                throw FilterError("\(filter).\(input.key): \(error.message)")
            }
        default:
            throw FilterError("\(filter).\(input.key) is a \(input.valueClass.rawValue), which cannot be given here")
        }
        return value
    }

    /// A data input's bytes. A value ending in `.cube` that names an existing file is an Adobe .cube 3-D LUT,
    /// read as a colour cube table (`ColorCubeData.parseCubeFile`; CIColorCube needs its size as
    /// inputCubeDimension too). A value ending in `.f32` that names an existing file is that file's bytes: a
    /// table of little-endian float32 values, as Core Image's data inputs hold them (CIColorCurves' RGB
    /// triples); such a path that does not exist is an error, except for a barcode's message. Any other text is
    /// its UTF-8 bytes (barcode messages).
    static func data(_ text: String, for input: InputDescriptor, filter: String) throws -> [UInt8] {
        let path = text.trimmingCharacters(in: .whitespaces)
        let lowered = path.lowercased()
        guard lowered.hasSuffix(".cube") || lowered.hasSuffix(".f32") else { return Array(text.utf8) }
        guard FileManager.default.fileExists(atPath: path) else {
            // A message may end in ".cube"; a table input given a path that is not there is a typo, not bytes.
            if input.key == "inputMessage" { return Array(text.utf8) }
            throw FilterError("\(filter).\(input.key): \(path): no such file")
        }
        let contents: Data
        do { contents = try RegularFile.read(path) } catch {
            throw FilterError("\(filter).\(input.key): \(error)")
        }
        guard lowered.hasSuffix(".cube") else { return Array(contents) }
        do {
            return try ColorCubeData.parseCubeFile(String(decoding: contents, as: UTF8.self)).data
        } catch {
            throw FilterError("\(filter).\(input.key): \(path): \(error)")
        }
    }

    /// Numbers separated by spaces or commas, optionally in brackets: "[1 2]", "1,2", "1 2".
    public static func numbers(in text: String) -> [Double]? {
        var body = text.trimmingCharacters(in: .whitespaces)
        if body.hasPrefix("[") && body.hasSuffix("]") || body.hasPrefix("(") && body.hasSuffix(")") {
            body = String(body.dropFirst().dropLast())
        }
        let parts = body.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
        guard !parts.isEmpty else { return nil }
        var result: [Double] = []
        for part in parts {
            guard let n = Double(part) else { return nil }
            result.append(n)
        }
        return result
    }

    /// "r g b [a]" in 0…1, or "#rrggbb" / "#rrggbbaa" (sRGB).
    public static func color(_ text: String) -> Color? {
        if text.hasPrefix("#") {
            let hex = text.dropFirst()
            guard hex.count == 6 || hex.count == 8, let value = UInt64(hex, radix: 16) else { return nil }
            let n = hex.count == 6 ? (value << 8) | 0xFF : value
            return Color(red: Double((n >> 24) & 0xFF) / 255, green: Double((n >> 16) & 0xFF) / 255,
                         blue: Double((n >> 8) & 0xFF) / 255, alpha: Double(n & 0xFF) / 255)
        }
        guard let numbers = numbers(in: text), (3...4).contains(numbers.count) else { return nil }
        return Color(numbers)
    }

    /// A value written so that `parse` reads it back (for command lines the explorer shows).
    public static func format(_ value: FilterValue) -> String {
        switch value {
        case .number(let n): formatNumber(n)
        case .vector(let v): "[" + v.map(formatNumber).joined(separator: " ") + "]"
        case .color(let c): c.components.map(formatNumber).joined(separator: " ")
        case .transform(let t): "[" + t.values.map(formatNumber).joined(separator: " ") + "]"
        case .string(let s): s
        case .data(let d): String(decoding: d, as: UTF8.self)
        case .image: "<image>"
        case .barcode(let b): b.description
        }
    }
}
