import FilterEngine
import Foundation

// The Core Image Kernel Language (CIKL) front end: tokens, syntax tree and a recursive-descent parser.
// CIKL is a dialect of the OpenGL Shading Language (GLSL 1.x) with `kernel` routines and a few types of its own
// (`sampler`, `__sample`, `__color`, `__table`).

/// A problem in kernel source or in the arguments given to a kernel: a value, never a crash.
public struct KernelLanguageError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable {
        case syntax, type, argument, unsupported
    }
    public let kind: Kind
    /// 1-based position in the source; 0 when the problem is not in the source (arguments).
    public let line: Int
    public let column: Int
    public let message: String

    public init(_ kind: Kind, line: Int = 0, column: Int = 0, _ message: String) {
        self.kind = kind; self.line = line; self.column = column; self.message = Self.printable(message)
    }

    /// Messages quote the source, which may be hostile: control and bidirectional-formatting characters are
    /// escaped (a message never moves a terminal's cursor or reorders text), a word (an excerpt: a name, a
    /// number) longer than `maximumExcerpt` characters is cut, and the whole message stays under
    /// `maximumMessage` characters.
    static let maximumExcerpt = 48
    static let maximumMessage = 320

    static func printable(_ message: String) -> String {
        var out = ""
        var word = 0
        var cut = false
        for scalar in message.unicodeScalars {
            if scalar == " " {
                word = 0
                cut = false
            } else {
                word += 1
                if word > maximumExcerpt {
                    if !cut { out += "…"; cut = true }
                    continue
                }
            }
            let v = scalar.value
            if v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v) ||
                (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C {
                out += v < 0x100 ? String(format: "\\x%02X", v) : String(format: "\\u{%04X}", v)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        if out.count > maximumMessage { out = String(out.prefix(maximumMessage - 1)) + "…" }
        return out
    }

    init(_ kind: Kind, at position: SourcePosition, _ message: String) {
        self.init(kind, line: position.line, column: position.column, message)
    }

    public var description: String {
        line > 0 ? "\(kind) error at line \(line), column \(column): \(message)" : "\(kind) error: \(message)"
    }
}

struct SourcePosition: Equatable, Sendable {
    var line: Int
    var column: Int
}

// MARK: Tokens

struct Token {
    enum Kind: Equatable {
        case identifier(String)
        case integer(Double)
        case real(Double)
        case symbol(String)
        /// A character the language has no use for (escaped for messages): an error unless the preprocessor
        /// skips it.
        case invalid(String)
        case end
    }
    let kind: Kind
    let position: SourcePosition
    /// The first token of its line (after a line break that no backslash continues): where a preprocessor
    /// directive may start.
    var atLineStart = false
}

enum Lexer {
    /// Longest symbols first, so that `<=` is not read as `<` then `=`.
    private static let symbols: [Set<String>] = [
        ["<<=", ">>="],
        ["++", "--", "+=", "-=", "*=", "/=", "<=", ">=", "==", "!=", "&&", "||", "^^", "<<", ">>", "%=", "&=", "|=", "^=", "##"],
        ["(", ")", "{", "}", "[", "]", ";", ",", ".", "?", ":", "=", "+", "-", "*", "/", "<", ">", "!", "%", "&", "|",
         "^", "~", "#"]]

    static func tokens(_ source: String) throws -> [Token] {
        let chars = Array(source.unicodeScalars)
        var tokens: [Token] = []
        var i = 0, line = 1, column = 1
        var lineStart = true
        func advance(_ n: Int = 1) {
            for _ in 0..<n where i < chars.count {
                if chars[i] == "\n" { line += 1; column = 1 } else { column += 1 }
                i += 1
            }
        }
        func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < chars.count ? chars[i + k] : nil }
        func isIdentifierStart(_ c: Unicode.Scalar) -> Bool { c == "_" || (c.isASCII && c.properties.isAlphabetic) }
        func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { $0.isASCII && ("0"..."9").contains($0) } ?? false }

        while i < chars.count {
            let c = chars[i]
            let start = SourcePosition(line: line, column: column)
            if c == "\n" {
                lineStart = true
                advance()
            } else if c == " " || c == "\t" || c == "\r" || c == "\u{0C}" || c == "\u{0B}" {
                advance()
            } else if c == "\\" && (peek(1) == "\n" || (peek(1) == "\r" && peek(2) == "\n")) {
                // A line continued (in a preprocessor directive).
                advance(peek(1) == "\n" ? 2 : 3)
            } else if c == "/" && peek(1) == "/" {
                while let p = peek(), p != "\n" { _ = p; advance() }
            } else if c == "/" && peek(1) == "*" {
                advance(2)
                while i < chars.count && !(chars[i] == "*" && peek(1) == "/") {
                    if chars[i] == "\n" { lineStart = true }
                    advance()
                }
                guard i < chars.count else { throw KernelLanguageError(.syntax, at: start, "unterminated comment") }
                advance(2)
            } else if isIdentifierStart(c) {
                var name = ""
                while let p = peek(), isIdentifierStart(p) || isDigit(p) { name.unicodeScalars.append(p); advance() }
                tokens.append(Token(kind: .identifier(name), position: start, atLineStart: lineStart))
                lineStart = false
            } else if isDigit(c) || (c == "." && isDigit(peek(1))) {
                var text = ""
                var isReal = false
                if c == "0", let x = peek(1), x == "x" || x == "X" {
                    advance(2)
                    while let p = peek(), p.properties.isASCIIHexDigit { text.unicodeScalars.append(p); advance() }
                    guard let value = UInt64(text, radix: 16) else {
                        throw KernelLanguageError(.syntax, at: start, "malformed hexadecimal number")
                    }
                    tokens.append(Token(kind: .integer(Double(value)), position: start, atLineStart: lineStart))
                    lineStart = false
                    continue
                }
                while let p = peek(), isDigit(p) { text.unicodeScalars.append(p); advance() }
                if peek() == "." { isReal = true; text += "."; advance()
                    while let p = peek(), isDigit(p) { text.unicodeScalars.append(p); advance() }
                }
                if let e = peek(), e == "e" || e == "E",
                   isDigit(peek(1)) || ((peek(1) == "+" || peek(1) == "-") && isDigit(peek(2))) {
                    isReal = true
                    text += "e"; advance()
                    if let s = peek(), s == "+" || s == "-" { text.unicodeScalars.append(s); advance() }
                    while let p = peek(), isDigit(p) { text.unicodeScalars.append(p); advance() }
                }
                if let f = peek(), f == "f" || f == "F" { isReal = true; advance() }
                if let p = peek(), isIdentifierStart(p) {
                    throw KernelLanguageError(.syntax, at: SourcePosition(line: line, column: column),
                                              "unexpected '\(p)' after a number")
                }
                guard let value = Double(text.hasPrefix(".") ? "0" + text : text) else {
                    throw KernelLanguageError(.syntax, at: start, "malformed number '\(text)'")
                }
                tokens.append(Token(kind: isReal ? .real(value) : .integer(value), position: start, atLineStart: lineStart))
                lineStart = false
            } else {
                var matched: String?
                for (k, set) in symbols.enumerated() where i + 3 - k <= chars.count {
                    var text = ""
                    text.unicodeScalars.append(contentsOf: chars[i..<(i + 3 - k)])
                    if set.contains(text) { matched = text; break }
                }
                guard let symbol = matched else {
                    tokens.append(Token(kind: .invalid(c.escaped(asASCII: true)), position: start, atLineStart: lineStart))
                    lineStart = false
                    advance()
                    continue
                }
                advance(symbol.unicodeScalars.count)
                tokens.append(Token(kind: .symbol(symbol), position: start, atLineStart: lineStart))
                lineStart = false
            }
        }
        tokens.append(Token(kind: .end, position: SourcePosition(line: line, column: column)))
        return tokens
    }
}

// MARK: Syntax tree

struct Expr {
    indirect enum Kind {
        case number(Double, isInteger: Bool)
        case boolean(Bool)
        case name(String)
        /// A function call, a constructor (`vec3(…)`) or a built-in.
        case call(String, [Expr])
        case member(Expr, String)
        case index(Expr, Expr)
        case unary(String, Expr)
        /// `x++`, `x--`.
        case postfix(String, Expr)
        case binary(String, Expr, Expr)
        case conditional(Expr, Expr, Expr)
        case assign(String, Expr, Expr)
        /// `float[3](a, b, c)`, `float[](…)`.
        case arrayConstruct(String, ArraySize, [Expr])
        /// `{a, b, c}`: an array's initialiser.
        case list([Expr])
    }
    let kind: Kind
    let position: SourcePosition
}

/// The size of an array: `[]` (from its initialiser) or `[N]` (a constant integer expression).
enum ArraySize {
    case unsized
    case sized(Expr)
}

struct TypeName {
    let name: String
    let position: SourcePosition
    /// `float[3] x`: the array size written after the type.
    var array: ArraySize? = nil
}

struct Declarator {
    let name: String
    let position: SourcePosition
    /// `float x[3]`.
    var array: ArraySize? = nil
    let initialValue: Expr?
}

struct Stmt {
    indirect enum Kind {
        case block([Stmt])
        case declaration(isConst: Bool, TypeName, [Declarator])
        case expression(Expr)
        case ifElse(Expr, Stmt, Stmt?)
        case forLoop(initial: Stmt?, condition: Expr?, step: [Expr], body: Stmt)
        case whileLoop(Expr, Stmt)
        case doWhile(Stmt, Expr)
        case returnValue(Expr?)
        case breakLoop
        case continueLoop
        case empty
    }
    let kind: Kind
    let position: SourcePosition
}

struct ParameterDecl {
    let type: TypeName
    let name: String
    let position: SourcePosition
    /// `__table sampler`.
    let isTable: Bool
    var array: ArraySize? = nil
}

struct FunctionDecl {
    let isKernel: Bool
    let returnType: TypeName
    let name: String
    let position: SourcePosition
    let parameters: [ParameterDecl]
    /// Nil for a prototype.
    let body: [Stmt]?
}

struct SourceFile {
    var functions: [FunctionDecl] = []
    /// Top-level constants, in order.
    var globals: [Stmt] = []
}

// MARK: Parser

struct Parser {
    static let typeNames: Set<String> = ["void", "float", "int", "bool", "vec2", "vec3", "vec4", "bvec2", "bvec3",
                                         "bvec4", "ivec2", "ivec3", "ivec4", "mat2", "mat3", "mat4", "sampler",
                                         "__sample", "__color", "sampler2D"]
    private static let ignoredQualifiers: Set<String> = ["uniform", "varying", "in", "highp", "mediump", "lowp",
                                                         "precision", "static", "inline"]
    /// Nesting beyond this (parentheses, blocks, unary operators, operands chained by binary operators) is
    /// refused, so that hostile input cannot exhaust the stack of the parser, the checker or the lowering, which
    /// all recurse over the tree. Real kernels nest far less.
    private static let maximumDepth = 100

    private let tokens: [Token]
    private var index = 0
    private var depth = 0

    init(tokens: [Token]) { self.tokens = tokens }

    static func parse(_ source: String) throws -> SourceFile {
        // Metal Shading Language kernels (`#include <CoreImage/CoreImage.h>`, `namespace coreimage`,
        // `[[ stitchable ]]`, `float4 f(sample_t s)`) need Apple's Metal compiler and a GPU.
        let metal = source.contains("#include") || source.contains("namespace coreimage") ||
            source.contains("coreimage::") || source.contains("metal::") ||
            (source.contains("[[") && source.contains("stitchable")) ||
            (!source.contains("kernel ") && (source.contains("float4") || source.contains("sample_t")))
        if metal {
            throw KernelLanguageError(.unsupported, line: 1, column: 1,
                                      "this is a Metal kernel: Metal kernels cannot run here (no Metal on Linux); write it in the Core Image Kernel Language")
        }
        var tokens = try Lexer.tokens(source)
        if tokens.contains(where: { $0.kind == .symbol("#") || $0.kind == .symbol("##") }) {
            tokens = try Preprocessor.run(tokens)
        }
        if let bad = tokens.first(where: { if case .invalid = $0.kind { return true }; return false }),
           case .invalid(let character) = bad.kind {
            throw KernelLanguageError(.syntax, at: bad.position, "unexpected character '\(character)'")
        }
        var parser = Parser(tokens: tokens)
        return try parser.parseFile()
    }

    private var current: Token { tokens[index] }
    private var position: SourcePosition { current.position }

    private func isSymbol(_ s: String, ahead k: Int = 0) -> Bool {
        guard index + k < tokens.count else { return false }
        if case .symbol(s) = tokens[index + k].kind { return true }
        return false
    }

    private func isIdentifier(_ s: String, ahead k: Int = 0) -> Bool {
        guard index + k < tokens.count else { return false }
        if case .identifier(s) = tokens[index + k].kind { return true }
        return false
    }

    private func identifier(ahead k: Int = 0) -> String? {
        guard index + k < tokens.count else { return nil }
        if case .identifier(let name) = tokens[index + k].kind { return name }
        return nil
    }

    private var describeCurrent: String {
        switch current.kind {
        case .identifier(let s): "'\(s)'"
        case .integer(let v), .real(let v): "number \(formatNumber(v))"
        case .symbol(let s): "'\(s)'"
        case .invalid(let s): "'\(s)'"
        case .end: "the end of the source"
        }
    }

    private func error(_ message: String) -> KernelLanguageError {
        KernelLanguageError(.syntax, at: position, message)
    }

    private mutating func expect(_ s: String, _ context: String = "") throws {
        guard isSymbol(s) else {
            throw error("expected '\(s)'\(context.isEmpty ? "" : " " + context) but found \(describeCurrent)")
        }
        index += 1
    }

    private mutating func expectIdentifier(_ what: String) throws -> (String, SourcePosition) {
        guard let name = identifier() else { throw error("expected \(what) but found \(describeCurrent)") }
        let p = position
        index += 1
        return (name, p)
    }

    private mutating func enter() throws {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting too deep") }
    }

    private mutating func skipQualifiers() throws {
        while let name = identifier() {
            if Self.ignoredQualifiers.contains(name) { index += 1; continue }
            if name == "out" || name == "inout" {
                throw KernelLanguageError(.unsupported, at: position, "'\(name)' parameters are not supported")
            }
            break
        }
    }

    private mutating func parseFile() throws -> SourceFile {
        var file = SourceFile()
        while current.kind != .end {
            if isSymbol(";") { index += 1; continue }
            if isIdentifier("struct") {
                throw KernelLanguageError(.unsupported, at: position, "structures are not supported in Core Image kernels")
            }
            let isKernel = isIdentifier("kernel")
            if isKernel { index += 1 }
            var isConst = false
            while true {
                try skipQualifiers()
                if isIdentifier("const") { isConst = true; index += 1; continue }
                break
            }
            if isKernel && isIdentifier("kernel") { throw error("'kernel' given twice") }
            var type = try parseTypeName()
            if isSymbol("[") {
                if isKernel { throw KernelLanguageError(.type, at: position, "a kernel must return vec4 (vec2 for a warp kernel), not an array") }
                type.array = try parseArraySize()
            }
            let (name, namePosition) = try expectIdentifier("a name")
            if isSymbol("(") {
                if type.array != nil {
                    throw KernelLanguageError(.unsupported, at: type.position, "functions cannot return arrays")
                }
                file.functions.append(try parseFunction(isKernel: isKernel, type: type, name: name, at: namePosition))
            } else {
                if isKernel { throw error("expected '(' after the kernel's name") }
                let declarators = try parseDeclarators(first: name, at: namePosition)
                file.globals.append(Stmt(kind: .declaration(isConst: isConst, type, declarators), position: type.position))
            }
        }
        return file
    }

    private mutating func parseTypeName() throws -> TypeName {
        guard let name = identifier() else { throw error("expected a type but found \(describeCurrent)") }
        guard Self.typeNames.contains(name) else {
            throw KernelLanguageError(.type, at: position, "unknown type '\(name)'")
        }
        let p = position
        index += 1
        return TypeName(name: name, position: p)
    }

    private mutating func parseFunction(isKernel: Bool, type: TypeName, name: String,
                                        at namePosition: SourcePosition) throws -> FunctionDecl {
        try expect("(")
        var parameters: [ParameterDecl] = []
        if isIdentifier("void") && isSymbol(")", ahead: 1) { index += 1 }
        while !isSymbol(")") {
            if !parameters.isEmpty { try expect(",", "between parameters") }
            try skipQualifiers()
            if isIdentifier("const") { index += 1; try skipQualifiers() }
            var isTable = false
            if isIdentifier("__table") { isTable = true; index += 1 }
            let pType = try parseTypeName()
            if isTable && pType.name != "sampler" {
                throw KernelLanguageError(.type, at: pType.position, "'__table' must precede 'sampler'")
            }
            var pType2 = pType
            if isSymbol("[") { pType2.array = try parseArraySize() }
            let (pName, pPosition) = try expectIdentifier("a parameter name")
            var array = pType2.array
            if isSymbol("[") {
                if array != nil { throw KernelLanguageError(.unsupported, at: position, "arrays of arrays are not supported") }
                array = try parseArraySize()
            }
            parameters.append(ParameterDecl(type: TypeName(name: pType.name, position: pType.position), name: pName,
                                            position: pPosition, isTable: isTable, array: array))
        }
        index += 1
        if isSymbol(";") {
            index += 1
            return FunctionDecl(isKernel: isKernel, returnType: type, name: name, position: namePosition,
                                parameters: parameters, body: nil)
        }
        guard isSymbol("{") else { throw error("expected '{' to start the body of '\(name)' but found \(describeCurrent)") }
        let body = try parseBlock()
        guard case .block(let statements) = body.kind else { return FunctionDecl(isKernel: isKernel, returnType: type, name: name, position: namePosition, parameters: parameters, body: []) }
        return FunctionDecl(isKernel: isKernel, returnType: type, name: name, position: namePosition,
                            parameters: parameters, body: statements)
    }

    private mutating func parseDeclarators(first: String, at firstPosition: SourcePosition) throws -> [Declarator] {
        var result: [Declarator] = []
        var name = first, p = firstPosition
        while true {
            var array: ArraySize?
            if isSymbol("[") { array = try parseArraySize() }
            if isSymbol("[") { throw KernelLanguageError(.unsupported, at: position, "arrays of arrays are not supported") }
            var value: Expr?
            if isSymbol("=") {
                index += 1
                value = isSymbol("{") ? try parseList() : try parseAssignment()
            }
            result.append(Declarator(name: name, position: p, array: array, initialValue: value))
            if isSymbol(",") {
                index += 1
                (name, p) = try expectIdentifier("a variable name")
                continue
            }
            try expect(";", "after the declaration")
            return result
        }
    }

    /// `[]` or `[size]`, at the '['.
    private mutating func parseArraySize() throws -> ArraySize {
        try expect("[")
        if isSymbol("]") { index += 1; return .unsized }
        let size = try parseExpression()
        try expect("]", "after the array's size")
        if isSymbol("[") { throw KernelLanguageError(.unsupported, at: position, "arrays of arrays are not supported") }
        return .sized(size)
    }

    /// `{a, b, c}`: an initialiser list.
    private mutating func parseList() throws -> Expr {
        let p = position
        try expect("{")
        try enter()
        defer { depth -= 1 }
        var items: [Expr] = []
        while !isSymbol("}") {
            if !items.isEmpty {
                try expect(",", "between the initialiser's values")
                if isSymbol("}") { break }
            }
            items.append(isSymbol("{") ? try parseList() : try parseAssignment())
        }
        index += 1
        return Expr(kind: .list(items), position: p)
    }

    private mutating func parseBlock() throws -> Stmt {
        let p = position
        try expect("{")
        try enter()
        defer { depth -= 1 }
        var statements: [Stmt] = []
        while !isSymbol("}") {
            if current.kind == .end { throw error("missing '}' (the block opened at line \(p.line), column \(p.column))") }
            statements.append(try parseStatement())
        }
        index += 1
        return Stmt(kind: .block(statements), position: p)
    }

    private func startsDeclaration() -> Bool {
        guard let name = identifier() else { return false }
        if name == "const" || Self.ignoredQualifiers.contains(name) && name != "in" { return true }
        // `vec2 p = …` and `float[3] w` are declarations, `vec2(…)` and `float[3](…)` expressions.
        guard Self.typeNames.contains(name) else { return false }
        if identifier(ahead: 1) != nil { return true }
        guard isSymbol("[", ahead: 1) else { return false }
        var k = 2
        while index + k < tokens.count, !isSymbol("]", ahead: k), tokens[index + k].kind != .end { k += 1 }
        return identifier(ahead: k + 1) != nil
    }

    private mutating func parseStatement() throws -> Stmt {
        try enter()
        defer { depth -= 1 }
        let p = position
        if isSymbol("{") { return try parseBlock() }
        if isSymbol(";") { index += 1; return Stmt(kind: .empty, position: p) }
        if let word = identifier() {
            switch word {
            case "if":
                index += 1
                try expect("(", "after 'if'")
                let condition = try parseExpression()
                try expect(")", "after the condition")
                let then = try parseStatement()
                var otherwise: Stmt?
                if isIdentifier("else") { index += 1; otherwise = try parseStatement() }
                return Stmt(kind: .ifElse(condition, then, otherwise), position: p)
            case "for":
                index += 1
                try expect("(", "after 'for'")
                var initial: Stmt?
                if isSymbol(";") { index += 1 } else if startsDeclaration() {
                    initial = try parseDeclarationStatement()
                } else {
                    let e = try parseExpression()
                    try expect(";", "after the loop's initialisation")
                    initial = Stmt(kind: .expression(e), position: e.position)
                }
                var condition: Expr?
                if !isSymbol(";") { condition = try parseExpression() }
                try expect(";", "after the loop's condition")
                var step: [Expr] = []
                while !isSymbol(")") {
                    if !step.isEmpty { try expect(",") }
                    step.append(try parseExpression())
                }
                index += 1
                return Stmt(kind: .forLoop(initial: initial, condition: condition, step: step, body: try parseStatement()),
                            position: p)
            case "while":
                index += 1
                try expect("(", "after 'while'")
                let condition = try parseExpression()
                try expect(")", "after the condition")
                return Stmt(kind: .whileLoop(condition, try parseStatement()), position: p)
            case "do":
                index += 1
                let body = try parseStatement()
                guard isIdentifier("while") else { throw error("expected 'while' after the body of 'do'") }
                index += 1
                try expect("(", "after 'while'")
                let condition = try parseExpression()
                try expect(")", "after the condition")
                try expect(";", "after 'do … while (…)'")
                return Stmt(kind: .doWhile(body, condition), position: p)
            case "return":
                index += 1
                if isSymbol(";") { index += 1; return Stmt(kind: .returnValue(nil), position: p) }
                let value = try parseExpression()
                try expect(";", "after the returned value")
                return Stmt(kind: .returnValue(value), position: p)
            case "break":
                index += 1
                try expect(";", "after 'break'")
                return Stmt(kind: .breakLoop, position: p)
            case "continue":
                index += 1
                try expect(";", "after 'continue'")
                return Stmt(kind: .continueLoop, position: p)
            case "discard":
                throw KernelLanguageError(.unsupported, at: p, "'discard' is not supported in Core Image kernels")
            case "switch":
                throw KernelLanguageError(.unsupported, at: p, "'switch' is not supported in Core Image kernels")
            default:
                if startsDeclaration() { return try parseDeclarationStatement() }
            }
        }
        let e = try parseExpression()
        try expect(";", "after the expression")
        return Stmt(kind: .expression(e), position: p)
    }

    private mutating func parseDeclarationStatement() throws -> Stmt {
        var isConst = false
        while true {
            try skipQualifiers()
            if isIdentifier("const") { isConst = true; index += 1; continue }
            break
        }
        var type = try parseTypeName()
        if isSymbol("[") { type.array = try parseArraySize() }
        let (name, p) = try expectIdentifier("a variable name")
        return Stmt(kind: .declaration(isConst: isConst, type, try parseDeclarators(first: name, at: p)),
                    position: type.position)
    }

    // MARK: Expressions, lowest precedence first

    mutating func parseExpression() throws -> Expr {
        let e = try parseAssignment()
        if isSymbol(",") {
            throw KernelLanguageError(.unsupported, at: position, "the comma operator is not supported here")
        }
        return e
    }

    private mutating func parseAssignment() throws -> Expr {
        try enter()
        defer { depth -= 1 }
        let left = try parseConditional()
        for op in ["=", "+=", "-=", "*=", "/="] where isSymbol(op) {
            let p = position
            index += 1
            let right = try parseAssignment()
            return Expr(kind: .assign(op, left, right), position: p)
        }
        for op in ["%=", "<<=", ">>="] where isSymbol(op) {
            throw KernelLanguageError(.unsupported, at: position, "the operator '\(op)' is not supported")
        }
        return left
    }

    private mutating func parseConditional() throws -> Expr {
        let condition = try parseBinary(0)
        guard isSymbol("?") else { return condition }
        let p = position
        index += 1
        let a = try parseAssignment()
        try expect(":", "in the conditional expression")
        let b = try parseAssignment()
        return Expr(kind: .conditional(condition, a, b), position: p)
    }

    private static let levels: [[String]] = [["||"], ["^^"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="],
                                             ["+", "-"], ["*", "/"]]
    private static let unsupportedBinary: Set<String> = ["%", "<<", ">>", "&", "|", "^"]

    private mutating func parseBinary(_ level: Int) throws -> Expr {
        if level == Self.levels.count { return try parseUnary() }
        var left = try parseBinary(level + 1)
        var chained = 0
        defer { depth -= chained }
        while true {
            guard case .symbol(let s) = current.kind else { return left }
            if Self.unsupportedBinary.contains(s) {
                throw KernelLanguageError(.unsupported, at: position, "the operator '\(s)' is not supported in Core Image kernels\(s == "%" ? " (use mod(x, y))" : "")")
            }
            guard Self.levels[level].contains(s) else { return left }
            let p = position
            index += 1
            // A chain `a + b + c …` builds a left-deep tree: each link counts as a level of nesting.
            try enter()
            chained += 1
            let right = try parseBinary(level + 1)
            left = Expr(kind: .binary(s, left, right), position: p)
        }
    }

    private mutating func parseUnary() throws -> Expr {
        try enter()
        defer { depth -= 1 }
        let p = position
        for op in ["-", "+", "!", "++", "--"] where isSymbol(op) {
            index += 1
            return Expr(kind: .unary(op, try parseUnary()), position: p)
        }
        if isSymbol("~") {
            throw KernelLanguageError(.unsupported, at: p, "the operator '~' is not supported in Core Image kernels")
        }
        return try parsePostfix()
    }

    private mutating func parsePostfix() throws -> Expr {
        var e = try parsePrimary()
        var chained = 0
        defer { depth -= chained }
        while true {
            let p = position
            if isSymbol(".") || isSymbol("[") || isSymbol("++") || isSymbol("--") {
                try enter()
                chained += 1
            }
            if isSymbol(".") {
                index += 1
                let (field, _) = try expectIdentifier("a component name after '.'")
                e = Expr(kind: .member(e, field), position: p)
            } else if isSymbol("[") {
                index += 1
                let i = try parseExpression()
                try expect("]", "after the index")
                e = Expr(kind: .index(e, i), position: p)
            } else if isSymbol("++") || isSymbol("--") {
                let op = isSymbol("++") ? "++" : "--"
                index += 1
                e = Expr(kind: .postfix(op, e), position: p)
            } else {
                return e
            }
        }
    }

    private mutating func parsePrimary() throws -> Expr {
        let p = position
        switch current.kind {
        case .integer(let v):
            index += 1
            return Expr(kind: .number(v, isInteger: true), position: p)
        case .real(let v):
            index += 1
            return Expr(kind: .number(v, isInteger: false), position: p)
        case .symbol("("):
            index += 1
            try enter()
            defer { depth -= 1 }
            let e = try parseExpression()
            try expect(")", "to close the parenthesis")
            return e
        case .identifier(let name):
            index += 1
            if name == "true" || name == "false" { return Expr(kind: .boolean(name == "true"), position: p) }
            if Self.typeNames.contains(name) && isSymbol("[") {
                let size = try parseArraySize()
                try expect("(", "after the array type")
                var arguments: [Expr] = []
                while !isSymbol(")") {
                    if !arguments.isEmpty { try expect(",", "between arguments") }
                    arguments.append(try parseAssignment())
                }
                index += 1
                return Expr(kind: .arrayConstruct(name, size, arguments), position: p)
            }
            if isSymbol("(") {
                index += 1
                var arguments: [Expr] = []
                if isIdentifier("void") && isSymbol(")", ahead: 1) { index += 1 }
                while !isSymbol(")") {
                    if !arguments.isEmpty { try expect(",", "between arguments") }
                    arguments.append(try parseAssignment())
                }
                index += 1
                return Expr(kind: .call(name, arguments), position: p)
            }
            return Expr(kind: .name(name), position: p)
        default:
            throw error("expected an expression but found \(describeCurrent)")
        }
    }
}
