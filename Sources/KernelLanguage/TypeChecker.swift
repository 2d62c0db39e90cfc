import FilterEngine
import Foundation

// Type checking: resolves names, overloads and built-ins once, when the source is compiled, and produces the
// typed tree that `Lowering` turns into a span program for each set of arguments.

/// A value type of the kernel language. Every value is a list of float components: ints hold whole numbers,
/// bools 0 or 1, matrices their columns one after the other (column-major, as GLSL).
indirect enum KType: Equatable, CustomStringConvertible, Sendable {
    case void, bool, int, float, sampler
    case vec(Int), bvec(Int), mat(Int)
    /// A fixed-size array of a non-array type: its elements' components one after the other.
    case array(KType, Int)

    var components: Int {
        switch self {
        case .void: 0
        case .bool, .int, .float, .sampler: 1
        case .vec(let n), .bvec(let n): n
        case .mat(let n): n * n
        case .array(let e, let n): e.components * n
        }
    }

    var isArray: Bool { if case .array = self { return true }; return false }

    /// The number of components of a float or vector type (ints count as floats): GLSL's `genType`.
    var genWidth: Int? {
        switch self {
        case .float, .int: 1
        case .vec(let n): n
        default: nil
        }
    }

    var isNumericScalar: Bool { self == .float || self == .int }
    var isBooleanLike: Bool { if case .bvec = self { return true }; return self == .bool }

    static func floats(_ n: Int) -> KType { n == 1 ? .float : .vec(n) }
    static func bools(_ n: Int) -> KType { n == 1 ? .bool : .bvec(n) }

    var description: String {
        switch self {
        case .void: "void"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .sampler: "sampler"
        case .vec(let n): "vec\(n)"
        case .bvec(let n): "bvec\(n)"
        case .mat(let n): "mat\(n)"
        case .array(let e, let n): "\(e)[\(n)]"
        }
    }

    init?(name: String) {
        switch name {
        case "void": self = .void
        case "bool": self = .bool
        case "int": self = .int
        case "float": self = .float
        case "sampler", "sampler2D": self = .sampler
        case "vec2", "vec3", "vec4": self = .vec(Int(String(name.last!))!)
        case "bvec2", "bvec3", "bvec4": self = .bvec(Int(String(name.last!))!)
        case "mat2", "mat3", "mat4": self = .mat(Int(String(name.last!))!)
        case "__sample", "__color": self = .vec(4)
        default: return nil
        }
    }
}

/// Whether a value of type `from` may be used where `to` is expected (ints promote to floats).
func kernelTypeAccepts(_ to: KType, _ from: KType) -> Bool {
    if to == from { return true }
    return to == .float && from == .int
}

final class TExpr {
    indirect enum Kind {
        case constant([Float])
        case local(Int)
        case global(Int)
        case swizzle(TExpr, [Int])
        /// A vector's component or a matrix's column.
        case index(TExpr, TExpr)
        case negate(TExpr)
        case not(TExpr)
        /// `+ - * /` with GLSL's shapes (scalar broadcast, matrix products).
        case arithmetic(String, TExpr, TExpr)
        /// `< <= > >=` on scalars.
        case compare(String, TExpr, TExpr)
        case equal(TExpr, TExpr, negated: Bool)
        case logical(String, TExpr, TExpr)
        case conditional(TExpr, TExpr, TExpr)
        case construct(KType, [TExpr])
        case call(Int, [TExpr])
        case builtin(String, [TExpr])
        case assign(LValue, String, TExpr)
        /// `++`/`--`: the new value (prefix) or the old one (postfix).
        case increment(LValue, delta: Float, postfix: Bool)
        /// An array's elements, in order.
        case array([TExpr])
    }
    let kind: Kind
    let type: KType
    let position: SourcePosition

    init(_ kind: Kind, _ type: KType, _ position: SourcePosition) {
        self.kind = kind; self.type = type; self.position = position
    }
}

indirect enum LValue {
    case local(Int)
    case swizzle(LValue, [Int])
    case index(LValue, TExpr, elementType: KType)
}

indirect enum TStmt {
    case block([TStmt])
    case declare(Int, TExpr?, KType)
    case expression(TExpr)
    case ifElse(TExpr, TStmt, TStmt?)
    case loop(initial: TStmt?, condition: TExpr?, step: [TExpr], body: TStmt, testFirst: Bool, SourcePosition)
    case returnValue(TExpr?, SourcePosition)
    case breakLoop
    case continueLoop
}

struct CheckedParameter {
    let name: String
    let type: KType
    /// The source spelling: `__sample`, `__color`, `sampler`, `float`…
    let spelling: String
}

struct CheckedFunction {
    let name: String
    let isKernel: Bool
    let returnType: KType
    let parameters: [CheckedParameter]
    let position: SourcePosition
    var body: TStmt = .block([])
    var slotCount = 0
    /// The functions this one calls, with the number of places it calls each.
    var calls: [Int: Int] = [:]
    /// The size of the body in syntax nodes: a measure of the work of inlining it.
    var nodes = 0
}

struct CheckedProgram {
    var functions: [CheckedFunction] = []
    var globals: [(slot: Int, value: TExpr?, type: KType)] = []
    var globalCount = 0
}

struct TypeChecker {
    /// Helper functions are inlined into each kernel: a kernel whose inlined size (its syntax nodes, each helper
    /// counted once per call, recursively) exceeds this, or whose helpers call each other deeper than
    /// `maximumCallDepth`, is refused at once, so that a call tree or a long chain of helpers cannot make
    /// compiling take forever.
    static let maximumInlinedNodes = 1_000_000
    static let maximumCallDepth = 32
    /// Arrays hold at most this many elements.
    static let maximumArrayLength = 1024

    private var program = CheckedProgram()
    private var functionsByName: [String: [Int]] = [:]
    private var nodes = 0
    /// The values of integer constants (`const int n = 3;`), for array sizes.
    private var constantInts: [String: Int] = [:]
    private var globalNames: [String: (Int, KType)] = [:]
    private var scopes: [[String: (slot: Int, type: KType, isConst: Bool)]] = []
    private var slotCount = 0
    private var currentReturn: KType = .void
    private var loopDepth = 0
    private var calls: [Int: Int] = [:]
    private var inGlobal = false

    static func check(_ file: SourceFile) throws -> CheckedProgram {
        var checker = TypeChecker()
        return try checker.run(file)
    }

    private func typeError(_ p: SourcePosition, _ message: String) -> KernelLanguageError {
        KernelLanguageError(.type, at: p, message)
    }

    private mutating func run(_ file: SourceFile) throws -> CheckedProgram {
        // Globals first: constants every function may read.
        inGlobal = true
        scopes = [[:]]
        for g in file.globals {
            guard case .declaration(let isConst, let typeName, let declarators) = g.kind else { continue }
            for d in declarators {
                if globalNames[d.name] != nil { throw typeError(d.position, "'\(d.name)' is declared twice") }
                let type = try declaredType(typeName, d)
                let value = try d.initialValue.map { try initialiser($0, type) }
                if isConst, type == .int, let v = d.initialValue, let k = constantInt(v) { constantInts[d.name] = k }
                let slot = program.globalCount
                program.globalCount += 1
                program.globals.append((slot, value, type))
                globalNames[d.name] = (slot, type)
            }
        }
        inGlobal = false
        // Signatures next, so that functions may call ones defined later (with a prototype, as GLSL wants, or not).
        var bodies: [(Int, FunctionDecl)] = []
        var defined: Set<Int> = []
        for f in file.functions {
            let returnType = try KType(name: f.returnType.name).orThrow(typeError(f.returnType.position, "unknown type"))
            var parameters: [CheckedParameter] = []
            for p in f.parameters {
                guard var t = KType(name: p.type.name), t != .void else {
                    throw typeError(p.type.position, "a parameter cannot have type '\(p.type.name)'")
                }
                if let array = p.array {
                    guard case .sized(let size) = array else { throw typeError(p.position, "an array parameter needs its size") }
                    if f.isKernel || t == .sampler || p.type.name.hasPrefix("__") {
                        throw KernelLanguageError(.unsupported, at: p.position, "a kernel's parameters cannot be arrays")
                    }
                    t = .array(t, try arrayLength(size))
                }
                if !f.isKernel && (p.type.name == "__sample" || p.type.name == "__color") {
                    throw typeError(p.type.position, "'\(p.type.name)' is only allowed for the parameters of a kernel")
                }
                if Set(parameters.map(\.name)).contains(p.name) {
                    throw typeError(p.position, "the parameter '\(p.name)' is declared twice")
                }
                parameters.append(CheckedParameter(name: p.name, type: t, spelling: p.isTable ? "__table sampler" : p.type.name))
            }
            if let existing = functionsByName[f.name]?.first(where: { program.functions[$0].parameters.map(\.type) == parameters.map(\.type) }) {
                if f.body != nil {
                    if defined.contains(existing) {
                        throw typeError(f.position, "the function '\(f.name)' is defined twice")
                    }
                    defined.insert(existing)
                    bodies.append((existing, f))
                }
                continue
            }
            if Builtins.isBuiltin(f.name) || KType(name: f.name) != nil {
                throw typeError(f.position, "'\(f.name)' is a built-in name and cannot be redefined")
            }
            program.functions.append(CheckedFunction(name: f.name, isKernel: f.isKernel, returnType: returnType,
                                                     parameters: parameters, position: f.position))
            functionsByName[f.name, default: []].append(program.functions.count - 1)
            if f.body != nil {
                defined.insert(program.functions.count - 1)
                bodies.append((program.functions.count - 1, f))
            }
        }
        for (i, f) in bodies {
            try checkBody(i, f)
        }
        for (i, f) in program.functions.enumerated() where !defined.contains(i) {
            throw typeError(f.position, "the function '\(f.name)' is declared but never defined")
        }
        try boundInlining()
        if !program.functions.contains(where: \.isKernel) {
            throw KernelLanguageError(.type, line: 1, column: 1, "the source has no 'kernel' routine")
        }
        return program
    }

    /// Refuses recursion (GLSL forbids it, and kernels are inlined), then measures each kernel's inlined size and
    /// call depth, callees first: all without recursion of its own, so that a chain of a hundred thousand
    /// helpers is measured in linear time and stack.
    private func boundInlining() throws {
        let functions = program.functions
        var state = [UInt8](repeating: 0, count: functions.count)   // 0 new, 1 on the path, 2 measured
        var size = [Int](repeating: 0, count: functions.count)
        var depth = [Int](repeating: 0, count: functions.count)
        for root in functions.indices where state[root] == 0 {
            var path: [(Int, [Int])] = [(root, Array(functions[root].calls.keys))]
            state[root] = 1
            while let last = path.last {
                let (f, pending) = last
                if let next = pending.last {
                    path[path.count - 1].1.removeLast()
                    if state[next] == 1 {
                        throw typeError(functions[next].position, "the function '\(functions[next].name)' is recursive; kernels cannot recurse")
                    }
                    if state[next] == 0 {
                        state[next] = 1
                        path.append((next, Array(functions[next].calls.keys)))
                    }
                    continue
                }
                path.removeLast()
                state[f] = 2
                var total = functions[f].nodes, deepest = 0
                for (callee, count) in functions[f].calls {
                    let (product, overflow) = size[callee].multipliedReportingOverflow(by: count)
                    total = overflow ? Int.max / 2 : min(Int.max / 2, total + product)
                    deepest = max(deepest, depth[callee])
                }
                size[f] = total
                depth[f] = deepest + 1
            }
        }
        for (i, f) in functions.enumerated() where f.isKernel {
            if depth[i] - 1 > Self.maximumCallDepth {
                throw KernelLanguageError(.unsupported, at: f.position, "the helper functions of '\(f.name)' call each other more than \(Self.maximumCallDepth) levels deep")
            }
            if size[i] > Self.maximumInlinedNodes {
                throw KernelLanguageError(.unsupported, at: f.position, "'\(f.name)' is too large once its helper functions are inlined (more than \(Self.maximumInlinedNodes) operations: helpers that call others several times, many levels deep); write the repeated work as a loop")
            }
        }
    }

    private mutating func checkBody(_ index: Int, _ f: FunctionDecl) throws {
        let function = program.functions[index]
        scopes = [[:]]
        slotCount = 0
        calls = [:]
        nodes = 0
        loopDepth = 0
        currentReturn = function.returnType
        for p in function.parameters {
            scopes[0][p.name] = (slotCount, p.type, false)
            slotCount += 1
        }
        var statements: [TStmt] = []
        for s in f.body ?? [] { statements.append(try statement(s)) }
        program.functions[index].body = .block(statements)
        program.functions[index].slotCount = slotCount
        program.functions[index].calls = calls
        program.functions[index].nodes = nodes
    }

    private func valueType(_ name: TypeName) throws -> KType {
        if name.name.hasPrefix("ivec") {
            throw KernelLanguageError(.unsupported, at: name.position, "'\(name.name)' is not supported in Core Image kernels (use vec\(name.name.dropFirst(4)) with floor())")
        }
        guard let t = KType(name: name.name) else { throw typeError(name.position, "unknown type '\(name.name)'") }
        if t == .void || t == .sampler || name.name.hasPrefix("__") {
            throw typeError(name.position, "a variable cannot have type '\(name.name)'")
        }
        return t
    }

    /// The type of a declared variable: its type name's, made an array by `float[3] x` or `float x[3]`.
    private func declaredType(_ typeName: TypeName, _ d: Declarator) throws -> KType {
        let base = try valueType(typeName)
        if typeName.array != nil && d.array != nil {
            throw KernelLanguageError(.unsupported, at: d.position, "arrays of arrays are not supported")
        }
        guard let array = typeName.array ?? d.array else { return base }
        switch array {
        case .sized(let size):
            return .array(base, try arrayLength(size))
        case .unsized:
            // The size comes from the initialiser: `float w[] = float[](…)` or `{…}`.
            guard let value = d.initialValue else { throw typeError(d.position, "the array '\(d.name)' needs a size or an initialiser") }
            switch value.kind {
            case .list(let items): return .array(base, try checkedLength(items.count, value.position))
            case .arrayConstruct(_, .sized(let size), _): return .array(base, try arrayLength(size))
            case .arrayConstruct(_, .unsized, let items): return .array(base, try checkedLength(items.count, value.position))
            default: throw typeError(value.position, "the array '\(d.name)' needs an array as its initial value")
            }
        }
    }

    private func checkedLength(_ n: Int, _ p: SourcePosition) throws -> Int {
        guard n >= 1 else { throw typeError(p, "an array needs at least one element") }
        guard n <= Self.maximumArrayLength else {
            throw KernelLanguageError(.unsupported, at: p, "arrays are limited to \(Self.maximumArrayLength) elements (this one has \(n))")
        }
        return n
    }

    /// An array's size: a constant integer expression (a number, an integer constant, arithmetic on them).
    private func arrayLength(_ e: Expr) throws -> Int {
        guard let n = constantInt(e) else { throw typeError(e.position, "an array's size must be a constant integer") }
        return try checkedLength(n, e.position)
    }

    private func constantInt(_ e: Expr, depth: Int = 0) -> Int? {
        guard depth < 64 else { return nil }
        switch e.kind {
        case .number(let v, isInteger: true):
            return v <= 1e9 ? Int(v) : nil
        case .name(let name):
            return constantInts[name]
        case .unary("-", let x):
            return constantInt(x, depth: depth + 1).map { -$0 }
        case .unary("+", let x):
            return constantInt(x, depth: depth + 1)
        case .binary(let op, let a, let b):
            guard let x = constantInt(a, depth: depth + 1), let y = constantInt(b, depth: depth + 1),
                  abs(x) < 1 << 30, abs(y) < 1 << 30 else { return nil }
            switch op {
            case "+": return x + y
            case "-": return x - y
            case "*": return x * y
            case "/": return y == 0 ? nil : x / y
            default: return nil
            }
        default:
            return nil
        }
    }

    /// A declaration's initial value, converted to the declared type (`{…}` lists only here).
    private mutating func initialiser(_ e: Expr, _ type: KType) throws -> TExpr {
        if case .list(let items) = e.kind {
            guard case .array(let element, let n) = type else {
                throw typeError(e.position, "a list in braces can only initialise an array, not a \(type)")
            }
            guard items.count == n else { throw typeError(e.position, "the array has \(n) elements but the list gives \(items.count)") }
            var values: [TExpr] = []
            for item in items { values.append(try converted(try expression(item), to: element, item.position)) }
            return TExpr(.array(values), type, e.position)
        }
        return try converted(try expression(e), to: type, e.position)
    }

    private func lookup(_ name: String) -> (slot: Int, type: KType, isConst: Bool)? {
        for scope in scopes.reversed() { if let v = scope[name] { return v } }
        return nil
    }

    // MARK: Statements

    private mutating func statement(_ s: Stmt) throws -> TStmt {
        nodes += 1
        switch s.kind {
        case .empty:
            return .block([])
        case .block(let list):
            scopes.append([:])
            defer { scopes.removeLast() }
            return .block(try list.map { try statement($0) })
        case .declaration(let isConst, let typeName, let declarators):
            var result: [TStmt] = []
            for d in declarators {
                if scopes[scopes.count - 1][d.name] != nil {
                    throw typeError(d.position, "'\(d.name)' is already declared in this scope")
                }
                if isConst && d.initialValue == nil { throw typeError(d.position, "the constant '\(d.name)' needs a value") }
                let type = try declaredType(typeName, d)
                let value = try d.initialValue.map { try initialiser($0, type) }
                if isConst, type == .int, let v = d.initialValue, let k = constantInt(v) { constantInts[d.name] = k }
                scopes[scopes.count - 1][d.name] = (slotCount, type, isConst)
                result.append(.declare(slotCount, value, type))
                slotCount += 1
            }
            return result.count == 1 ? result[0] : .block(result)
        case .expression(let e):
            return .expression(try expression(e))
        case .ifElse(let c, let a, let b):
            let condition = try boolCondition(c)
            scopes.append([:])
            let then = try statement(a)
            scopes.removeLast()
            scopes.append([:])
            defer { scopes.removeLast() }
            return .ifElse(condition, then, try b.map { try statement($0) })
        case .forLoop(let initial, let condition, let step, let body):
            scopes.append([:])
            defer { scopes.removeLast() }
            let i = try initial.map { try statement($0) }
            let c = try condition.map { try boolCondition($0) }
            let st = try step.map { try expression($0) }
            loopDepth += 1
            defer { loopDepth -= 1 }
            scopes.append([:])
            defer { scopes.removeLast() }
            return .loop(initial: i, condition: c, step: st, body: try statement(body), testFirst: true, s.position)
        case .whileLoop(let condition, let body):
            let c = try boolCondition(condition)
            loopDepth += 1
            defer { loopDepth -= 1 }
            scopes.append([:])
            defer { scopes.removeLast() }
            return .loop(initial: nil, condition: c, step: [], body: try statement(body), testFirst: true, s.position)
        case .doWhile(let body, let condition):
            loopDepth += 1
            scopes.append([:])
            let b = try statement(body)
            scopes.removeLast()
            loopDepth -= 1
            return .loop(initial: nil, condition: try boolCondition(condition), step: [], body: b, testFirst: false,
                         s.position)
        case .returnValue(let value):
            if let value {
                let v = try expression(value)
                guard currentReturn != .void else { throw typeError(value.position, "a void function cannot return a value") }
                guard kernelTypeAccepts(currentReturn, v.type) else {
                    throw typeError(value.position, "returns \(v.type) but the function returns \(currentReturn)")
                }
                return .returnValue(v, s.position)
            }
            if currentReturn != .void { throw typeError(s.position, "missing the returned \(currentReturn) value") }
            return .returnValue(nil, s.position)
        case .breakLoop, .continueLoop:
            if loopDepth == 0 { throw typeError(s.position, "'break' or 'continue' outside a loop") }
            if case .breakLoop = s.kind { return .breakLoop }
            return .continueLoop
        }
    }

    private mutating func boolCondition(_ e: Expr) throws -> TExpr {
        let c = try expression(e)
        guard c.type == .bool else { throw typeError(e.position, "the condition must be a bool, not \(c.type)") }
        return c
    }

    private func converted(_ e: TExpr, to type: KType, _ p: SourcePosition) throws -> TExpr {
        guard kernelTypeAccepts(type, e.type) else { throw typeError(p, "cannot use a value of type \(e.type) as \(type)") }
        return e
    }

    // MARK: Expressions

    private mutating func expression(_ e: Expr) throws -> TExpr {
        let p = e.position
        nodes += 1
        switch e.kind {
        case .list:
            throw typeError(p, "a list in braces can only be the initial value of an array")
        case .arrayConstruct(let elementName, let size, let args):
            guard let element = KType(name: elementName), element != .void, element != .sampler, !elementName.hasPrefix("__") else {
                throw typeError(p, "cannot make an array of '\(elementName)'")
            }
            let n: Int
            switch size {
            case .sized(let x):
                n = try arrayLength(x)
                guard args.count == n else { throw typeError(p, "\(element)[\(n)] needs \(n) values but was given \(args.count)") }
            case .unsized:
                n = try checkedLength(args.count, p)
            }
            var values: [TExpr] = []
            for a in args { values.append(try converted(try expression(a), to: element, a.position)) }
            return TExpr(.array(values), .array(element, n), p)
        case .number(let v, let isInteger):
            return TExpr(.constant([Float(v)]), isInteger ? .int : .float, p)
        case .boolean(let b):
            return TExpr(.constant([b ? 1 : 0]), .bool, p)
        case .name(let name):
            if let v = lookup(name) { return TExpr(.local(v.slot), v.type, p) }
            if let g = globalNames[name] { return TExpr(.global(g.0), g.1, p) }
            throw typeError(p, "unknown identifier '\(name)'")
        case .member(let base, let field):
            let b = try expression(base)
            return TExpr(.swizzle(b, try swizzle(field, of: b.type, p)), swizzleType(b.type, field.count), p)
        case .index(let base, let i):
            let b = try expression(base), index = try expression(i)
            guard index.type == .int else { throw typeError(i.position, "an index must be an int, not \(index.type)") }
            try checkConstantIndex(index, of: b.type, i.position)
            return TExpr(.index(b, index), try elementType(b.type, p), p)
        case .unary(let op, let operand):
            let x = try expression(operand)
            switch op {
            case "-", "+":
                guard x.type.genWidth != nil || { if case .mat = x.type { return true }; return false }() else {
                    throw typeError(p, "'\(op)' needs a number, vector or matrix, not \(x.type)")
                }
                return op == "+" ? x : TExpr(.negate(x), x.type, p)
            case "!":
                guard x.type == .bool else { throw typeError(p, "'!' needs a bool, not \(x.type)") }
                return TExpr(.not(x), .bool, p)
            default:
                let target = try lvalue(operand)
                guard x.type.genWidth != nil else { throw typeError(p, "'\(op)' needs a number or vector") }
                return TExpr(.increment(target, delta: op == "++" ? 1 : -1, postfix: false), x.type, p)
            }
        case .postfix(let op, let operand):
            let x = try expression(operand)
            let target = try lvalue(operand)
            guard x.type.genWidth != nil else { throw typeError(p, "'\(op)' needs a number or vector") }
            return TExpr(.increment(target, delta: op == "++" ? 1 : -1, postfix: true), x.type, p)
        case .binary(let op, let l, let r):
            let a = try expression(l), b = try expression(r)
            return try binary(op, a, b, p)
        case .conditional(let c, let x, let y):
            let condition = try boolCondition(c)
            let a = try expression(x), b = try expression(y)
            let type: KType
            if a.type == b.type { type = a.type }
            else if kernelTypeAccepts(a.type, b.type) { type = a.type }
            else if kernelTypeAccepts(b.type, a.type) { type = b.type }
            else { throw typeError(p, "the two sides of '?:' differ: \(a.type) and \(b.type)") }
            if type == .sampler || type == .void { throw typeError(p, "'?:' cannot choose between values of type \(type)") }
            return TExpr(.conditional(condition, a, b), type, p)
        case .assign(let op, let l, let r):
            let target = try lvalue(l)
            let a = try expression(l), value = try expression(r)
            if op == "=" {
                return TExpr(.assign(target, "=", try converted(value, to: a.type, r.position)), a.type, p)
            }
            let arithmetic = String(op.dropLast())
            let result = try binary(arithmetic, a, value, p)
            guard result.type == a.type || kernelTypeAccepts(a.type, result.type) else {
                throw typeError(p, "'\(op)' would change the type of the variable from \(a.type) to \(result.type)")
            }
            return TExpr(.assign(target, arithmetic, value), a.type, p)
        case .call(let name, let args):
            let arguments = try args.map { try expression($0) }
            return try call(name, arguments, p)
        }
    }

    private func swizzle(_ field: String, of type: KType, _ p: SourcePosition) throws -> [Int] {
        let width: Int
        switch type {
        case .vec(let n), .bvec(let n): width = n
        case .float, .int, .bool: width = 1
        default: throw typeError(p, "a value of type \(type) has no components to select")
        }
        let sets = ["xyzw", "rgba", "stpq"]
        guard field.count <= 4, let set = sets.first(where: { s in field.allSatisfy { s.contains($0) } }) else {
            throw typeError(p, "'\(field)' is not a component selection (use x y z w, r g b a or s t p q, up to four)")
        }
        return try field.map { ch in
            let i = set.distance(from: set.startIndex, to: set.firstIndex(of: ch)!)
            guard i < width else { throw typeError(p, "'\(ch)' is outside a value of type \(type)") }
            return i
        }
    }

    private func swizzleType(_ base: KType, _ count: Int) -> KType {
        switch base {
        case .bvec, .bool: .bools(count)
        case .int where count == 1: .int
        default: .floats(count)
        }
    }

    /// A constant index outside the value is an error, as in GLSL (a computed one is clamped when rendering).
    private func checkConstantIndex(_ index: TExpr, of type: KType, _ p: SourcePosition) throws {
        guard case .constant(let k) = index.kind, let count = Self.elementCount(type) else { return }
        if k[0] < 0 || k[0] >= Float(count) {
            throw typeError(p, "index \(formatNumber(Double(k[0]))) is out of range (0 to \(count - 1))")
        }
    }

    static func elementCount(_ type: KType) -> Int? {
        switch type {
        case .vec(let n), .bvec(let n), .mat(let n), .array(_, let n): n
        default: nil
        }
    }

    private func elementType(_ type: KType, _ p: SourcePosition) throws -> KType {
        switch type {
        case .array(let e, _): return e
        case .vec: return .float
        case .bvec: return .bool
        case .mat(let n): return .vec(n)
        default: throw typeError(p, "a value of type \(type) cannot be indexed")
        }
    }

    private func lvalue(_ e: Expr) throws -> LValue {
        switch e.kind {
        case .name(let name):
            guard let v = lookup(name) else {
                if globalNames[name] != nil { throw typeError(e.position, "the global constant '\(name)' cannot be changed") }
                throw typeError(e.position, "unknown identifier '\(name)'")
            }
            if v.isConst { throw typeError(e.position, "the constant '\(name)' cannot be changed") }
            if v.type == .sampler { throw typeError(e.position, "a sampler cannot be assigned") }
            return .local(v.slot)
        case .member(let base, let field):
            let target = try lvalue(base)
            let baseType = try typeOf(base)
            let indices = try swizzle(field, of: baseType, e.position)
            if Set(indices).count != indices.count {
                throw typeError(e.position, "cannot assign to '\(field)': a component is repeated")
            }
            return .swizzle(target, indices)
        case .index(let base, let i):
            let target = try lvalue(base)
            let baseType = try typeOf(base)
            var checker = self
            let index = try checker.expression(i)
            guard index.type == .int else { throw typeError(i.position, "an index must be an int") }
            try checkConstantIndex(index, of: baseType, i.position)
            return .index(target, index, elementType: try elementType(baseType, e.position))
        default:
            throw typeError(e.position, "this expression cannot be assigned to")
        }
    }

    private func typeOf(_ e: Expr) throws -> KType {
        var checker = self
        return try checker.expression(e).type
    }

    private func binary(_ op: String, _ a: TExpr, _ b: TExpr, _ p: SourcePosition) throws -> TExpr {
        switch op {
        case "+", "-", "*", "/":
            let mismatch = typeError(p, "'\(op)' cannot combine \(a.type) and \(b.type)")
            switch (a.type, b.type) {
            case (.int, .int):
                return TExpr(.arithmetic(op, a, b), .int, p)
            case let (x, y) where x.genWidth != nil && y.genWidth != nil:
                let (n, m) = (x.genWidth!, y.genWidth!)
                guard n == m || n == 1 || m == 1 else { throw mismatch }
                return TExpr(.arithmetic(op, a, b), .floats(max(n, m)), p)
            case let (.mat(n), .mat(m)):
                guard n == m else { throw mismatch }
                return TExpr(.arithmetic(op, a, b), .mat(n), p)
            case let (.mat(n), y) where y.isNumericScalar:
                return TExpr(.arithmetic(op, a, b), .mat(n), p)
            case let (x, .mat(n)) where x.isNumericScalar:
                return TExpr(.arithmetic(op, a, b), .mat(n), p)
            case let (.mat(n), .vec(m)) where op == "*" && n == m:
                return TExpr(.arithmetic(op, a, b), .vec(n), p)
            case let (.vec(m), .mat(n)) where op == "*" && n == m:
                return TExpr(.arithmetic(op, a, b), .vec(n), p)
            default:
                throw mismatch
            }
        case "<", ">", "<=", ">=":
            guard a.type.isNumericScalar, b.type.isNumericScalar else {
                throw typeError(p, "'\(op)' compares two numbers, not \(a.type) and \(b.type) (use lessThan… for vectors)")
            }
            return TExpr(.compare(op, a, b), .bool, p)
        case "==", "!=":
            guard a.type == b.type || kernelTypeAccepts(a.type, b.type) || kernelTypeAccepts(b.type, a.type),
                  a.type != .sampler else {
                throw typeError(p, "'\(op)' cannot compare \(a.type) and \(b.type)")
            }
            return TExpr(.equal(a, b, negated: op == "!="), .bool, p)
        case "&&", "||", "^^":
            guard a.type == .bool, b.type == .bool else {
                throw typeError(p, "'\(op)' needs two bools, not \(a.type) and \(b.type)")
            }
            return TExpr(.logical(op, a, b), .bool, p)
        default:
            throw KernelLanguageError(.unsupported, at: p, "the operator '\(op)' is not supported")
        }
    }

    private mutating func call(_ name: String, _ args: [TExpr], _ p: SourcePosition) throws -> TExpr {
        if let type = KType(name: name), !name.hasPrefix("__") {
            return try construct(type, args, p)
        }
        let candidates = functionsByName[name] ?? []
        if !candidates.isEmpty {
            if inGlobal { throw typeError(p, "a global constant cannot call a function") }
            let exact = candidates.first { program.functions[$0].parameters.map(\.type) == args.map(\.type) }
            let loose = candidates.first { i in
                let ps = program.functions[i].parameters
                return ps.count == args.count && zip(ps, args).allSatisfy { kernelTypeAccepts($0.type, $1.type) }
            }
            guard let index = exact ?? loose else {
                let wanted = candidates.map { "(" + program.functions[$0].parameters.map(\.type.description).joined(separator: ", ") + ")" }
                throw typeError(p, "no '\(name)' takes (\(args.map(\.type.description).joined(separator: ", "))); it takes \(wanted.joined(separator: " or "))")
            }
            if program.functions[index].isKernel { throw typeError(p, "a kernel routine cannot be called") }
            calls[index, default: 0] += 1
            return TExpr(.call(index, args), program.functions[index].returnType, p)
        }
        guard let type = try Builtins.resultType(name, args.map(\.type), p) else {
            if name.hasPrefix("__") || ["texture2D", "dFdx", "dFdy", "fwidth", "noise1", "noise2", "noise3", "noise4", "ftransform"].contains(name) {
                throw KernelLanguageError(.unsupported, at: p, "'\(name)' is not supported in Core Image kernels")
            }
            throw typeError(p, "unknown function '\(name)'")
        }
        if inGlobal && ["sample", "samplerCoord", "destCoord", "samplerTransform", "samplerExtent", "samplerOrigin", "samplerSize"].contains(name) {
            throw typeError(p, "a global constant cannot use '\(name)'")
        }
        return TExpr(.builtin(name, args), type, p)
    }

    private func construct(_ type: KType, _ args: [TExpr], _ p: SourcePosition) throws -> TExpr {
        guard type != .void, type != .sampler else { throw typeError(p, "cannot construct a \(type)") }
        guard !args.isEmpty else { throw typeError(p, "\(type)() needs at least one argument") }
        for a in args where a.type == .sampler || a.type == .void {
            throw typeError(a.position, "cannot build a \(type) from a \(a.type)")
        }
        let total = args.reduce(0) { $0 + $1.type.components }
        if args.count == 1 {
            let only = args[0].type
            if case .mat = type, case .mat = only { return TExpr(.construct(type, args), type, p) }
            if case .mat = only, type.components != only.components {
                throw typeError(p, "cannot build a \(type) from a \(only)")
            }
            // One scalar fills the vector (or the matrix's diagonal); a larger value is cut.
            if only.components == 1 || only.components >= type.components {
                return TExpr(.construct(type, args), type, p)
            }
            throw typeError(p, "\(type) needs \(type.components) components but was given \(total)")
        }
        if case .mat = type {
            for a in args { if case .mat = a.type { throw typeError(a.position, "cannot build a matrix from matrices and other values") } }
        }
        guard total >= type.components else {
            throw typeError(p, "\(type) needs \(type.components) components but was given \(total)")
        }
        if total - args.last!.type.components >= type.components {
            throw typeError(p, "too many arguments for \(type): \(total) components for \(type.components)")
        }
        return TExpr(.construct(type, args), type, p)
    }
}

extension Optional {
    func orThrow(_ error: @autoclosure () -> Error) throws -> Wrapped {
        guard let value = self else { throw error() }
        return value
    }
}

/// The built-in functions: the GLSL ones Core Image supports plus Core Image's own. Their types are checked here;
/// `Lowering.builtin` computes them.
enum Builtins {
    static let sameUnary: Set<String> = ["radians", "degrees", "sin", "cos", "tan", "asin", "acos", "exp", "log",
                                         "exp2", "log2", "sqrt", "inversesqrt", "abs", "sign", "floor", "ceil",
                                         "fract", "sin_", "cos_", "tan_", "normalize", "trunc", "round"]
    static let names: Set<String> = sameUnary.union([
        "atan", "pow", "mod", "min", "max", "step", "clamp", "mix", "smoothstep", "compare", "length", "distance",
        "dot", "cross", "reflect", "refract", "faceforward", "sincos", "cossin", "sincos_", "cossin_",
        "premultiply", "unpremultiply", "destCoord", "sample", "samplerCoord", "samplerExtent", "samplerOrigin",
        "samplerSize", "samplerTransform", "lessThan", "lessThanEqual", "greaterThan", "greaterThanEqual", "equal",
        "notEqual", "any", "all", "not", "matrixCompMult"])

    static func isBuiltin(_ name: String) -> Bool { names.contains(name) }

    /// The result type of a built-in call, nil when `name` is no built-in, a type error when the arguments do not fit.
    static func resultType(_ name: String, _ a: [KType], _ p: SourcePosition) throws -> KType? {
        guard names.contains(name) else { return nil }
        let shown = "(" + a.map(\.description).joined(separator: ", ") + ")"
        func bad(_ expected: String) -> KernelLanguageError {
            KernelLanguageError(.type, at: p, "\(name)\(shown): wrong arguments; expected \(expected)")
        }
        func count(_ n: Int, _ expected: String) throws {
            guard a.count == n else {
                throw KernelLanguageError(.type, at: p, "\(name) takes \(n) argument\(n == 1 ? "" : "s") but was given \(a.count); expected \(expected)")
            }
        }
        let gen = "float or vecN"
        if sameUnary.contains(name) || (name == "atan" && a.count == 1) {
            try count(1, "(\(gen))")
            guard let n = a[0].genWidth else { throw bad("(\(gen))") }
            return .floats(n)
        }
        switch name {
        case "atan", "pow", "reflect":
            try count(2, "(\(gen), same)")
            guard let n = a[0].genWidth, a[1].genWidth == n else { throw bad("two values of the same float or vecN type") }
            return .floats(n)
        case "mod", "min", "max":
            try count(2, "(\(gen), same or float)")
            guard let n = a[0].genWidth, let m = a[1].genWidth, m == n || m == 1 else { throw bad("(genType, genType) or (genType, float)") }
            return .floats(n)
        case "step":
            try count(2, "(edge, x)")
            guard let n = a[0].genWidth, let m = a[1].genWidth, m == n || n == 1 else { throw bad("(genType, genType) or (float, genType)") }
            return .floats(m)
        case "clamp":
            try count(3, "(x, min, max)")
            guard let n = a[0].genWidth, let m = a[1].genWidth, a[2].genWidth == m, m == n || m == 1 else {
                throw bad("(genType, genType, genType) or (genType, float, float)")
            }
            return .floats(n)
        case "mix":
            try count(3, "(x, y, a)")
            guard let n = a[0].genWidth, a[1].genWidth == n, let m = a[2].genWidth, m == n || m == 1 else {
                throw bad("(genType, genType, genType) or (genType, genType, float)")
            }
            return .floats(n)
        case "smoothstep":
            try count(3, "(edge0, edge1, x)")
            guard let n = a[2].genWidth, let m = a[0].genWidth, a[1].genWidth == m, m == n || m == 1 else {
                throw bad("(genType, genType, genType) or (float, float, genType)")
            }
            return .floats(n)
        case "compare", "faceforward":
            try count(3, "three values of the same float or vecN type")
            guard let n = a[0].genWidth, a[1].genWidth == n, a[2].genWidth == n else { throw bad("three values of the same float or vecN type") }
            return .floats(n)
        case "refract":
            try count(3, "(I, N, eta)")
            guard let n = a[0].genWidth, a[1].genWidth == n, a[2].genWidth == 1 else { throw bad("(genType, genType, float)") }
            return .floats(n)
        case "length":
            try count(1, "(\(gen))")
            guard a[0].genWidth != nil else { throw bad("(\(gen))") }
            return .float
        case "distance", "dot":
            try count(2, "two values of the same float or vecN type")
            guard let n = a[0].genWidth, a[1].genWidth == n else { throw bad("two values of the same float or vecN type") }
            return .float
        case "cross":
            try count(2, "(vec3, vec3)")
            guard a[0] == .vec(3), a[1] == .vec(3) else { throw bad("(vec3, vec3)") }
            return .vec(3)
        case "sincos", "cossin", "sincos_", "cossin_":
            try count(1, "(float)")
            guard a[0].isNumericScalar else { throw bad("(float)") }
            return .vec(2)
        case "premultiply", "unpremultiply":
            try count(1, "(vec4)")
            guard a[0] == .vec(4) else { throw bad("(vec4)") }
            return .vec(4)
        case "destCoord":
            try count(0, "()")
            return .vec(2)
        case "sample", "samplerTransform":
            try count(2, "(sampler, vec2)")
            guard a[0] == .sampler, a[1] == .vec(2) else { throw bad("(sampler, vec2)") }
            return name == "sample" ? .vec(4) : .vec(2)
        case "samplerCoord", "samplerOrigin", "samplerSize", "samplerExtent":
            try count(1, "(sampler)")
            guard a[0] == .sampler else { throw bad("(sampler)") }
            return name == "samplerExtent" ? .vec(4) : .vec(2)
        case "lessThan", "lessThanEqual", "greaterThan", "greaterThanEqual":
            try count(2, "(vecN, vecN)")
            guard case .vec(let n) = a[0], a[1] == a[0] else { throw bad("(vecN, vecN)") }
            return .bvec(n)
        case "equal", "notEqual":
            try count(2, "(vecN, vecN) or (bvecN, bvecN)")
            switch (a[0], a[1]) {
            case let (.vec(n), .vec(m)) where n == m: return .bvec(n)
            case let (.bvec(n), .bvec(m)) where n == m: return .bvec(n)
            default: throw bad("(vecN, vecN) or (bvecN, bvecN)")
            }
        case "any", "all":
            try count(1, "(bvecN)")
            guard case .bvec = a[0] else { throw bad("(bvecN)") }
            return .bool
        case "not":
            try count(1, "(bvecN)")
            guard case .bvec = a[0] else { throw bad("(bvecN)") }
            return a[0]
        case "matrixCompMult":
            try count(2, "(matN, matN)")
            guard case .mat = a[0], a[1] == a[0] else { throw bad("(matN, matN)") }
            return a[0]
        default:
            return nil
        }
    }
}
