import FilterEngine
import Foundation

// The preprocessor of GLSL (C's, without `#include`, `#` and `##`), over the lexer's tokens so that every token
// keeps its line and column in the original source. Apple's reference says Core Image has none, yet its
// compiler accepts `#define` and conditionals and real kernels use them.
//
// Directives: `#define` (object-like and function-like macros), `#undef`, `#if`, `#ifdef`, `#ifndef`, `#elif`,
// `#else`, `#endif` (integer expressions with `defined`), `#error`; `#pragma`, `#version`, `#extension` and
// `#line` are accepted and ignored. A token produced by a macro takes the position of the macro's name where it
// was used, so an error inside an expansion points at the use.

struct Preprocessor {
    /// Bounds on the work of hostile macros (one that expands to itself twice, nested thirty times).
    static let maximumOutputTokens = 500_000
    static let maximumExpansionDepth = 64

    private struct Macro {
        /// Nil for an object-like macro.
        let parameters: [String]?
        let body: [Token]
    }

    private struct Conditional {
        /// Whether the enclosing text is kept.
        let parentActive: Bool
        /// Whether this branch's text is kept.
        var active: Bool
        /// Whether some branch of this `#if` was taken.
        var taken: Bool
        var sawElse = false
        let position: SourcePosition
    }

    private var macros: [String: Macro] = [:]
    private var produced = 0

    static func run(_ tokens: [Token]) throws -> [Token] {
        var p = Preprocessor()
        return try p.process(tokens)
    }

    private static func error(_ p: SourcePosition, _ message: String) -> KernelLanguageError {
        KernelLanguageError(.syntax, at: p, message)
    }

    private mutating func process(_ tokens: [Token]) throws -> [Token] {
        var output: [Token] = []
        var stack: [Conditional] = []
        var text: [Token] = []
        var i = 0
        func active() -> Bool { stack.last?.active ?? true }
        while i < tokens.count {
            let t = tokens[i]
            if t.kind == .end { break }
            guard t.atLineStart, t.kind == .symbol("#") else {
                if t.kind == .symbol("#") || t.kind == .symbol("##") {
                    if active() {
                        throw Self.error(t.position, "'\(t.kind == .symbol("#") ? "#" : "##")' must start a line (a preprocessor directive); the operators # and ## are not supported")
                    }
                }
                if active() { text.append(t) }
                i += 1
                continue
            }
            // A directive: its tokens run to the end of the line.
            var j = i + 1
            while j < tokens.count, !tokens[j].atLineStart, tokens[j].kind != .end { j += 1 }
            let line = Array(tokens[(i + 1)..<j])
            i = j
            guard let first = line.first else { continue }   // `#` alone does nothing
            guard case .identifier(let directive) = first.kind else {
                if active() { throw Self.error(first.position, "expected a preprocessor directive after '#'") }
                continue
            }
            let rest = Array(line.dropFirst())
            switch directive {
            case "if", "ifdef", "ifndef":
                var taking = false
                if active() {
                    if directive == "if" {
                        taking = try evaluate(rest, at: first.position) != 0
                    } else {
                        guard rest.count == 1, case .identifier(let name) = rest[0].kind else {
                            throw Self.error(first.position, "#\(directive) takes one macro name")
                        }
                        taking = (macros[name] != nil) == (directive == "ifdef")
                    }
                }
                stack.append(Conditional(parentActive: active(), active: taking, taken: taking, position: first.position))
            case "elif", "else":
                guard var top = stack.popLast() else { throw Self.error(first.position, "#\(directive) without #if") }
                if top.sawElse { throw Self.error(first.position, "#\(directive) after #else") }
                if directive == "else" {
                    top.sawElse = true
                    top.active = top.parentActive && !top.taken
                } else {
                    // Evaluated only when it may be taken: a skipped branch's expression may be anything.
                    top.active = false
                    if top.parentActive && !top.taken { top.active = try evaluate(rest, at: first.position) != 0 }
                }
                top.taken = top.taken || top.active
                stack.append(top)
            case "endif":
                guard stack.popLast() != nil else { throw Self.error(first.position, "#endif without #if") }
            default:
                guard active() else { continue }
                // Text before the directive is expanded with the macros defined so far.
                output += try expand(text, disabled: [], depth: 0)
                text = []
                try directiveLine(directive, rest, at: first.position)
            }
        }
        if let open = stack.last { throw Self.error(open.position, "#if without #endif") }
        output += try expand(text, disabled: [], depth: 0)
        output.append(tokens.last ?? Token(kind: .end, position: SourcePosition(line: 1, column: 1)))
        return output
    }

    private mutating func directiveLine(_ directive: String, _ rest: [Token], at p: SourcePosition) throws {
        switch directive {
        case "define":
            guard let nameToken = rest.first, case .identifier(let name) = nameToken.kind else {
                throw Self.error(p, "#define needs a macro name")
            }
            if name == "defined" { throw Self.error(nameToken.position, "'defined' cannot be a macro name") }
            var body = Array(rest.dropFirst())
            var parameters: [String]?
            // A function-like macro's '(' follows its name with no space between.
            if let open = body.first, open.kind == .symbol("("), open.position.line == nameToken.position.line,
               open.position.column == nameToken.position.column + name.unicodeScalars.count {
                var names: [String] = []
                var k = 1
                while true {
                    guard k < body.count else { throw Self.error(open.position, "missing ')' in the parameters of macro '\(name)'") }
                    if body[k].kind == .symbol(")") && names.isEmpty { k += 1; break }
                    guard case .identifier(let parameter) = body[k].kind else {
                        throw Self.error(body[k].position, "expected a parameter name in macro '\(name)'")
                    }
                    if names.contains(parameter) { throw Self.error(body[k].position, "the parameter '\(parameter)' is repeated") }
                    names.append(parameter)
                    k += 1
                    guard k < body.count else { throw Self.error(open.position, "missing ')' in the parameters of macro '\(name)'") }
                    if body[k].kind == .symbol(")") { k += 1; break }
                    guard body[k].kind == .symbol(",") else { throw Self.error(body[k].position, "expected ',' or ')' in the parameters of macro '\(name)'") }
                    k += 1
                }
                parameters = names
                body = Array(body[k...])
            }
            if body.contains(where: { $0.kind == .symbol("#") || $0.kind == .symbol("##") }) {
                throw Self.error(p, "the operators # and ## are not supported")
            }
            macros[name] = Macro(parameters: parameters, body: body)
        case "undef":
            guard rest.count == 1, case .identifier(let name) = rest[0].kind else { throw Self.error(p, "#undef takes one macro name") }
            macros[name] = nil
        case "error":
            let words = rest.map(Self.spelling).joined(separator: " ")
            throw Self.error(p, "#error \(words)")
        case "pragma", "version", "extension", "line":
            break
        case "include":
            throw KernelLanguageError(.unsupported, at: p, "#include is not supported (a Core Image kernel is one source)")
        default:
            throw Self.error(p, "unknown preprocessor directive '#\(directive)'")
        }
    }

    private static func spelling(_ t: Token) -> String {
        switch t.kind {
        case .identifier(let s), .symbol(let s), .invalid(let s): s
        case .integer(let v), .real(let v): formatNumber(v)
        case .end: ""
        }
    }

    // MARK: Expansion

    private mutating func count(_ n: Int, at p: SourcePosition) throws {
        produced += n
        if produced > Self.maximumOutputTokens {
            throw Self.error(p, "macro expansion is too large (more than \(Self.maximumOutputTokens) tokens)")
        }
    }

    /// `input` with its macros replaced. A macro is not expanded again inside its own expansion (`disabled`).
    private mutating func expand(_ input: [Token], disabled: Set<String>, depth: Int) throws -> [Token] {
        var out: [Token] = []
        out.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            let t = input[i]
            guard case .identifier(let name) = t.kind, !disabled.contains(name), let macro = macros[name] else {
                out.append(t)
                i += 1
                continue
            }
            if depth >= Self.maximumExpansionDepth {
                throw Self.error(t.position, "macros nested more than \(Self.maximumExpansionDepth) deep")
            }
            var replaced: [Token]
            if let parameters = macro.parameters {
                // A function-like macro's name without '(' is left as it is.
                guard i + 1 < input.count, input[i + 1].kind == .symbol("(") else {
                    out.append(t)
                    i += 1
                    continue
                }
                var arguments: [[Token]] = [[]]
                var level = 0
                var k = i + 2
                while true {
                    guard k < input.count else { throw Self.error(t.position, "missing ')' after the arguments of macro '\(name)'") }
                    let a = input[k]
                    if a.kind == .symbol("(") { level += 1 }
                    if a.kind == .symbol(")") {
                        if level == 0 { break }
                        level -= 1
                    }
                    if a.kind == .symbol(","), level == 0 { arguments.append([]) } else { arguments[arguments.count - 1].append(a) }
                    k += 1
                }
                i = k + 1
                if parameters.isEmpty && arguments.count == 1 && arguments[0].isEmpty { arguments = [] }
                guard arguments.count == parameters.count else {
                    throw Self.error(t.position, "macro '\(name)' takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s") but was given \(arguments.count)")
                }
                var expanded: [String: [Token]] = [:]
                for (parameter, argument) in zip(parameters, arguments) {
                    expanded[parameter] = try expand(argument, disabled: disabled, depth: depth + 1)
                }
                replaced = []
                for b in macro.body {
                    if case .identifier(let id) = b.kind, let value = expanded[id] {
                        try count(value.count, at: t.position)
                        replaced += value
                    } else {
                        try count(1, at: t.position)
                        replaced.append(b)
                    }
                }
            } else {
                i += 1
                try count(macro.body.count, at: t.position)
                replaced = macro.body
            }
            for r in try expand(replaced, disabled: disabled.union([name]), depth: depth + 1) {
                out.append(Token(kind: r.kind, position: t.position))
            }
        }
        return out
    }

    // MARK: #if expressions

    /// The value of an `#if` or `#elif` line: `defined X` and `defined(X)` first, then macros, then names
    /// still left count as 0 (as in C).
    private mutating func evaluate(_ line: [Token], at p: SourcePosition) throws -> Int64 {
        var resolved: [Token] = []
        var i = 0
        while i < line.count {
            if case .identifier("defined") = line[i].kind {
                var k = i + 1
                let parenthesised = k < line.count && line[k].kind == .symbol("(")
                if parenthesised { k += 1 }
                guard k < line.count, case .identifier(let name) = line[k].kind else {
                    throw Self.error(line[i].position, "'defined' needs a macro name")
                }
                if parenthesised {
                    guard k + 1 < line.count, line[k + 1].kind == .symbol(")") else {
                        throw Self.error(line[i].position, "missing ')' after 'defined(\(name)'")
                    }
                    k += 1
                }
                resolved.append(Token(kind: .integer(macros[name] != nil ? 1 : 0), position: line[i].position))
                i = k + 1
            } else {
                resolved.append(line[i])
                i += 1
            }
        }
        let tokens = try expand(resolved, disabled: [], depth: 0)
        if tokens.isEmpty { throw Self.error(p, "#if needs an expression") }
        var parser = ConstantExpression(tokens: tokens, end: p)
        let value = try parser.parse()
        guard parser.index == tokens.count else {
            throw Self.error(tokens[parser.index].position, "unexpected \(Self.spelling(tokens[parser.index])) in the #if expression")
        }
        return value
    }
}

/// An integer expression of an `#if` line, evaluated as C does (64-bit, wrapping).
private struct ConstantExpression {
    let tokens: [Token]
    let end: SourcePosition
    var index = 0
    var depth = 0

    init(tokens: [Token], end: SourcePosition) {
        self.tokens = tokens
        self.end = end
    }

    private var position: SourcePosition { index < tokens.count ? tokens[index].position : end }

    private func error(_ message: String) -> KernelLanguageError { KernelLanguageError(.syntax, at: position, message) }

    private func symbol(_ s: String) -> Bool { index < tokens.count && tokens[index].kind == .symbol(s) }

    mutating func parse() throws -> Int64 {
        depth += 1
        defer { depth -= 1 }
        if depth > 100 { throw error("the #if expression is nested too deeply") }
        let condition = try binary(0)
        guard symbol("?") else { return condition }
        index += 1
        let a = try parse()
        guard symbol(":") else { throw error("expected ':' in the #if expression") }
        index += 1
        let b = try parse()
        return condition != 0 ? a : b
    }

    private static let levels: [[String]] = [["||"], ["&&"], ["|"], ["^"], ["&"], ["==", "!="], ["<", ">", "<=", ">="],
                                             ["<<", ">>"], ["+", "-"], ["*", "/", "%"]]

    private mutating func binary(_ level: Int) throws -> Int64 {
        if level == Self.levels.count { return try unary() }
        var left = try binary(level + 1)
        while index < tokens.count, case .symbol(let s) = tokens[index].kind, Self.levels[level].contains(s) {
            let at = position
            index += 1
            let right = try binary(level + 1)
            switch s {
            case "||": left = (left != 0 || right != 0) ? 1 : 0
            case "&&": left = (left != 0 && right != 0) ? 1 : 0
            case "|": left |= right
            case "^": left ^= right
            case "&": left &= right
            case "==": left = left == right ? 1 : 0
            case "!=": left = left != right ? 1 : 0
            case "<": left = left < right ? 1 : 0
            case ">": left = left > right ? 1 : 0
            case "<=": left = left <= right ? 1 : 0
            case ">=": left = left >= right ? 1 : 0
            case "<<": left = left << min(max(right, 0), 63)
            case ">>": left = left >> min(max(right, 0), 63)
            case "+": left = left &+ right
            case "-": left = left &- right
            case "*": left = left &* right
            default:
                guard right != 0 else { throw KernelLanguageError(.syntax, at: at, "division by zero in the #if expression") }
                if left == .min && right == -1 { left = s == "/" ? .min : 0 } else { left = s == "/" ? left / right : left % right }
            }
        }
        return left
    }

    private mutating func unary() throws -> Int64 {
        guard index < tokens.count else { throw error("the #if expression ends too early") }
        let t = tokens[index]
        switch t.kind {
        case .symbol("("):
            index += 1
            let v = try parse()
            guard symbol(")") else { throw error("expected ')' in the #if expression") }
            index += 1
            return v
        case .symbol("-"): index += 1; return 0 &- (try unary())
        case .symbol("+"): index += 1; return try unary()
        case .symbol("!"): index += 1; return try unary() == 0 ? 1 : 0
        case .symbol("~"): index += 1; return ~(try unary())
        case .integer(let v):
            index += 1
            return v < 9.2e18 ? Int64(v) : .max
        case .identifier:
            index += 1
            return 0
        case .real:
            throw error("the #if expression must be made of integers")
        default:
            throw error("unexpected '\(Preprocessor.spellingForMessages(t))' in the #if expression")
        }
    }
}

extension Preprocessor {
    static func spellingForMessages(_ t: Token) -> String { spelling(t) }
}
