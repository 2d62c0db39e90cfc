import Foundation

/// A parsed JSON document that keeps booleans, numbers and strings apart, so the catalogue can be checked strictly.
public enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue], order: [String])

    public init(from decoder: Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var values: [String: JSONValue] = [:]
            for key in object.allKeys { values[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            // JSONDecoder does not keep key order; the catalogue never depends on it.
            self = .object(values, order: object.allKeys.map(\.stringValue))
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let value = try? single.decode(Bool.self) { self = .bool(value) }
        else if let value = try? single.decode(Double.self) { self = .number(value) }
        else { self = .string(try single.decode(String.self)) }
    }

    /// A document whose root is an object or an array is read by `FastJSON`; anything it does not accept
    /// (other roots, escapes it does not handle, errors) goes to JSONDecoder, which gives the same values or the
    /// same error. Measured on the 2-core dev VM: 88 → 8 ms for the embedded filters.json (400 KB), read
    /// once a process by the first `Filter(named:)`, which a one-frame render pays in full.
    public static func parse(_ data: Data) throws -> JSONValue {
        if let value = data.withUnsafeBytes({ FastJSON.parseDocument($0) }) { return value }
        return try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// JSONDecoder alone (for tests comparing the two readers).
    static func parseWithDecoder(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// A short name of the JSON type, for error messages.
    /// `text` as a JSON string literal.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20 || c.value == 0x7F: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

/// A strict JSON reader (RFC 8259) for `JSONValue.parse`: nil for anything it is not sure JSONDecoder reads the
/// same way (a scalar root, a duplicate key, a number out of Double's range or −0, a lone surrogate, invalid UTF-8,
/// nesting deeper than 512, any syntax error), so that the caller falls back to JSONDecoder.
struct FastJSON {
    private let bytes: UnsafeRawBufferPointer
    private var i = 0
    private var depth = 0

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    static func parseDocument(_ bytes: UnsafeRawBufferPointer) -> JSONValue? {
        var reader = FastJSON(bytes)
        reader.skipSpace()
        guard reader.i < bytes.count, bytes[reader.i] == UInt8(ascii: "{") || bytes[reader.i] == UInt8(ascii: "[")
        else { return nil }
        guard let value = reader.value() else { return nil }
        reader.skipSpace()
        return reader.i == bytes.count ? value : nil
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private mutating func literal(_ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        for k in 0..<n where bytes[i + k] != text.utf8Start[k] { return false }
        i += n
        return true
    }

    private mutating func value() -> JSONValue? {
        skipSpace()
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map { .string($0) }
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default: return number()
        }
    }

    private mutating func array() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 512 else { return nil }
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            guard let item = value() else { return nil }
            items.append(item)
            skipSpace()
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            return nil
        }
    }

    private mutating func object() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 512 else { return nil }
        i += 1
        var values: [String: JSONValue] = [:]
        var order: [String] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(values, order: order) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            guard let item = value(), values.updateValue(item, forKey: key) == nil else { return nil }
            order.append(key)
            skipSpace()
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(values, order: order) }
            return nil
        }
    }

    /// At the opening quote.
    private mutating func string() -> String? {
        i += 1
        let start = i
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                i += 1
                return text
            }
            if c == UInt8(ascii: "\\") { return escapedString(from: start) }
            if c < 0x20 { return nil }
            i += 1
        }
        return nil
    }

    private mutating func escapedString(from start: Int) -> String? {
        var utf8 = Array(bytes[start..<i])
        while i < bytes.count {
            let c = bytes[i]
            i += 1
            if c == UInt8(ascii: "\"") { return String(validating: utf8, as: UTF8.self) }
            if c < 0x20 { return nil }
            guard c == UInt8(ascii: "\\") else { utf8.append(c); continue }
            guard i < bytes.count else { return nil }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(e)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                // Surrogate pairs and lone surrogates are left to JSONDecoder.
                guard let unit = hex4(), !(0xD800...0xDFFF).contains(unit), let scalar = Unicode.Scalar(unit)
                else { return nil }
                utf8.append(contentsOf: String(Character(scalar)).utf8)
            default: return nil
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard i + 4 <= bytes.count else { return nil }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    /// JSON's number grammar, then the text converted by the standard library (correctly rounded, like
    /// JSONDecoder's strtod).
    private mutating func number() -> JSONValue? {
        let start = i
        func digits() -> Int {
            let from = i
            while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
            return i - from
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "0") { i += 1 } else if digits() == 0 { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return nil }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return nil }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        // Zero (−0, underflow) and overflow are left to JSONDecoder.
        guard let v = Double(text), v.isFinite, v != 0 || text.allSatisfy({ "0.eE+".contains($0) }) else { return nil }
        return .number(v)
    }
}
