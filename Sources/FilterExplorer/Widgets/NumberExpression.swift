import Foundation

/// The arithmetic a person may type for a number: `+ - * /`, parentheses, unary minus, the names `pi`, `e`
/// and `default` (the input's default), and angle units after a number or a parenthesis: `45°`, `45deg`
/// (degrees, turned into radians) and `1rad`. Pure: text in, a finite number or a reason out.
///
///     sum     = product (("+" | "-") product)*
///     product = unary (("*" | "/") unary)*
///     unary   = ("-" | "+") unary | unit
///     unit    = primary ("°" | "deg" | "rad")?
///     primary = number | name | "(" sum ")"
public struct NumberExpression {
    public struct Result: Equatable, Sendable {
        public let value: Double
        /// Whether a degree unit was written (an angle input then shows its value in degrees).
        public let usedDegrees: Bool
    }

    public struct Failure: Error, Equatable, CustomStringConvertible, Sendable {
        public let reason: String
        public var description: String { reason }
    }

    /// `text` as a finite number; `defaultValue` is what `default` stands for (nil: the name is refused).
    public static func evaluate(_ text: String, default defaultValue: Double?) throws -> Result {
        var parser = NumberExpression(text: text, defaultValue: defaultValue)
        parser.skipSpaces()
        guard parser.index < parser.characters.count else { throw Failure(reason: "no number given") }
        let value = try parser.sum()
        parser.skipSpaces()
        if parser.index < parser.characters.count {
            throw parser.failure("unexpected '\(parser.characters[parser.index])'")
        }
        guard value.isFinite else { throw Failure(reason: "\(text.trimmingCharacters(in: .whitespaces)) is not finite") }
        return Result(value: value, usedDegrees: parser.usedDegrees)
    }

    /// A list of numbers, separated by spaces or commas, optionally in brackets (`[1 2 3]`); each one an
    /// expression without spaces, `default` standing for the same component of `defaults`.
    public static func evaluateList(_ text: String, defaults: [Double]) throws -> [Double] {
        var body = text.trimmingCharacters(in: .whitespaces)
        if body.hasPrefix("[") && body.hasSuffix("]") { body = String(body.dropFirst().dropLast()) }
        let parts = body.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
        guard !parts.isEmpty else { throw Failure(reason: "no numbers given") }
        return try parts.enumerated().map { i, part in
            do { return try evaluate(String(part), default: i < defaults.count ? defaults[i] : nil).value } catch let failure as Failure {
                throw Failure(reason: "number \(i + 1) (\(part)): \(failure.reason)")
            }
        }
    }

    private let characters: [Character]
    private let defaultValue: Double?
    private var index = 0
    private var usedDegrees = false
    /// Open parentheses and signs being parsed: each is a level of recursion, so pasted text such as a
    /// million "(" must be refused before it exhausts the stack.
    private var depth = 0
    private static let maximumDepth = 256

    private init(text: String, defaultValue: Double?) {
        characters = Array(text)
        self.defaultValue = defaultValue
    }

    private func failure(_ what: String, at position: Int? = nil) -> Failure {
        Failure(reason: "\(what) at column \((position ?? index) + 1)")
    }

    private mutating func enter() throws {
        depth += 1
        if depth > Self.maximumDepth { throw failure("more than \(Self.maximumDepth) nested signs or parentheses") }
    }

    private mutating func skipSpaces() {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
    }

    private mutating func peek() -> Character? {
        skipSpaces()
        return index < characters.count ? characters[index] : nil
    }

    private mutating func sum() throws -> Double {
        var value = try product()
        while let c = peek(), c == "+" || c == "-" {
            index += 1
            let right = try product()
            value = c == "+" ? value + right : value - right
        }
        return value
    }

    private mutating func product() throws -> Double {
        var value = try unary()
        while let c = peek(), c == "*" || c == "/" || c == "×" || c == "÷" {
            index += 1
            let right = try unary()
            value = c == "*" || c == "×" ? value * right : value / right
        }
        return value
    }

    private mutating func unary() throws -> Double {
        if let c = peek(), c == "-" || c == "+" || c == "−" {
            index += 1
            try enter()
            defer { depth -= 1 }
            let value = try unary()
            return c == "+" ? value : -value
        }
        return try unit()
    }

    private mutating func unit() throws -> Double {
        let value = try primary()
        // A unit follows its number directly or after spaces: 45°, 45 deg.
        let save = index
        skipSpaces()
        if index < characters.count, characters[index] == "°" {
            index += 1
            usedDegrees = true
            return value * .pi / 180
        }
        let word = letters()
        switch word {
        case "deg": usedDegrees = true; return value * .pi / 180
        case "rad": return value
        default: index = save; return value
        }
    }

    /// The letters from here on (consumed), for names and units.
    private mutating func letters() -> String {
        var word = ""
        while index < characters.count, characters[index].isLetter || characters[index] == "_" {
            word.append(characters[index])
            index += 1
        }
        return word
    }

    private mutating func primary() throws -> Double {
        guard let c = peek() else { throw failure("a number is missing") }
        let start = index
        if c == "(" {
            index += 1
            try enter()
            defer { depth -= 1 }
            let value = try sum()
            guard peek() == ")" else { throw failure("')' is missing (the '(' at column \(start + 1))") }
            index += 1
            return value
        }
        if c.isNumber || c == "." {
            var text = ""
            while index < characters.count, characters[index].isASCII, characters[index].isNumber || characters[index] == "." {
                text.append(characters[index])
                index += 1
            }
            // An exponent: 1e-3, 2.5E4 (a lone "e" after a number would be the name e, which needs an operator).
            if index < characters.count, characters[index] == "e" || characters[index] == "E" {
                var j = index + 1
                if j < characters.count, characters[j] == "+" || characters[j] == "-" { j += 1 }
                if j < characters.count, characters[j].isASCII, characters[j].isNumber {
                    text += String(characters[index..<j])
                    index = j
                    while index < characters.count, characters[index].isASCII, characters[index].isNumber {
                        text.append(characters[index])
                        index += 1
                    }
                }
            }
            guard let value = Double(text) else { throw failure("'\(text)' is not a number", at: start) }
            return value
        }
        if c.isLetter || c == "π" {
            if c == "π" { index += 1; return .pi }
            let name = letters()
            switch name.lowercased() {
            case "pi": return .pi
            case "e": return M_E
            case "default":
                guard let defaultValue else { throw failure("this input has no default", at: start) }
                return defaultValue
            case "nan", "inf", "infinity": throw failure("'\(name)' is not finite", at: start)
            default: throw failure("unknown name '\(name)'", at: start)
            }
        }
        throw failure("unexpected '\(c)'")
    }
}
