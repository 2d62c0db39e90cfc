import Foundation

/// Turns text into a filter value, typed by the catalogue: the command line's KEY=VALUE, recipes' strings and the
/// explorer's text fields all go through here. It never touches a file: text that names one (`file(named:for:)`)
/// is read by the caller (FilterPipeline's `ValueFiles`).
public enum ValueParser {
    /// A file a text value names: an image for an image input, an Adobe .cube table or raw float32 bytes (`.f32`)
    /// for a data input.
    public struct FileReference: Hashable, Sendable {
        public enum Kind: Sendable { case image, cubeTable, floatTable }
        public let path: String
        public let kind: Kind
    }

    /// The file `text` names for `input`, or nil when it is a value. An image input's text is always a path; a
    /// data input's is when it ends in `.cube` or `.f32` (a barcode's message may too: `ValueFiles` reads such a
    /// message as its bytes when no such file exists).
    public static func file(named text: String, for input: InputDescriptor) -> FileReference? {
        let path = text.trimmingCharacters(in: .whitespaces)
        switch input.valueClass {
        case .image: return FileReference(path: path, kind: .image)
        case .data:
            let lowered = path.lowercased()
            if lowered.hasSuffix(".cube") { return FileReference(path: path, kind: .cubeTable) }
            if lowered.hasSuffix(".f32") { return FileReference(path: path, kind: .floatTable) }
            return nil
        default: return nil
        }
    }

    /// Parses `text` for `input`. Text naming a file (`file(named:for:)`) is refused: it is read where files are.
    /// Only reading happens here: whether the value is acceptable (finite, the right length) is checked once, by
    /// `Filter.setValue`, for text and recipe numbers alike.
    public static func parse(_ text: String, for input: InputDescriptor, filter: String) throws -> FilterValue {
        if let file = file(named: text, for: input) {
            throw FilterError("\(filter).\(input.key): \"\(file.path)\" names a file, which is read by the pipeline, not parsed")
        }
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
            guard let color = ColorText.parse(trimmed) else { throw fail() }
            value = .color(color)
        case .transform:
            guard let numbers = numbers(in: trimmed), numbers.count == 6 else { throw fail() }
            value = .transform(AffineTransform(numbers))
        case .string, .object, .attributedString:
            value = .string(text)
        case .data:
            value = .data(Array(text.utf8))
        case .barcodeDescriptor:
            do { value = .barcode(try BarcodeDescriptor.parse(text)) } catch let error as FilterError {
                throw FilterError("\(filter).\(input.key): \(error.message)")
            }
        default:
            throw FilterError("\(filter).\(input.key) is a \(input.valueClass.rawValue), which cannot be given here")
        }
        return value
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
