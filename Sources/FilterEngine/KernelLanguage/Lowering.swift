import Foundation

// Lowering: turns a checked kernel, with its argument values, into a `SpanProgram`.
//
// Every value is a list of operands, one per component: a constant or a register. Arguments are constants, so
// everything that depends only on them is folded while lowering, and a loop whose bounds depend only on
// constants and arguments is unrolled. Pixel-dependent control flow becomes masks: `mask` holds the lanes
// (pixels) still running; an `if` runs both branches with the mask narrowed, assignments under a narrowed mask
// become selects, `return`, `break` and `continue` take their lanes out of the mask. The result is straight-line
// code, which `finish` prunes and packs into few registers.

enum KernelBinding {
    /// A uniform argument's components.
    case value([Float])
    /// A colour kernel's `__sample`: input image `index`.
    case image(Int)
    /// A general kernel's `sampler`: input image `index`, with its extent.
    case sampler(Int, Rect)
}

struct Lowering {
    private struct Frame {
        var slots: [[Operand]]
        /// The mask token under which each slot was declared: assignments under the same token need no select.
        var slotTokens: [Int]
        var result: [Operand]?
        let entryMask: Operand
    }

    private struct LoopState {
        var continued: Operand = .constant(0)
        var broken: Operand = .constant(0)
    }

    /// Limits that keep hostile or runaway kernels from exhausting memory or time.
    static let maximumInstructions = 1_000_000
    static let maximumIterations = 100_000
    static let maximumRegisters = 2048

    private let program: CheckedProgram
    private var code: [Instruction] = []
    private var nextRegister = 0
    private var externals: [Int] = []
    private var destination: (Operand, Operand)?
    private var mask: Operand = .constant(1)
    /// Names the set of live lanes that `mask` runs. Lanes that returned are dead: their variables are never
    /// read again, so a `return` keeps the token; a branch, a `break` or a loop condition that leaves live lanes
    /// waiting takes a new one. An assignment needs a select only when the token differs from its variable's.
    private var token = 0
    private var tokenCount = 0
    private var frames: [Frame] = []
    private var globals: [[Operand]] = []
    private var loops: [LoopState] = []
    private var iterations = 0
    private var samplerExtents: [Int: Rect] = [:]
    /// Instructions already emitted, by operation and operands: registers are written once and every operation
    /// is pure, so a repeated computation (two `unpremultiply(s)`, a length used twice) reuses the first result.
    private var emitted: [ValueKey: Int] = [:]

    private enum ValueKey: Hashable {
        case unary(UnaryOp, Operand)
        case binary(BinaryOp, Operand, Operand)
        case select(Operand, Operand, Operand)
        case multiplyAdd(Operand, Operand, Operand)
    }

    private static let commutative: Set<BinaryOp> = [.add, .mul, .min, .max, .equal, .notEqual, .and, .or]

    /// Σ registers × weights + bias. Sums, differences and products with constants are kept in this form and
    /// merged, not emitted: `(x − 960) × 0.001` or `c·0.85 + luma·0.15 + 0.02` become one `linear` instruction,
    /// emitted (materialised) just before an instruction first reads the register that names it.
    private struct Affine {
        var terms: [(register: Int, weight: Float)]
        var bias: Float

        func scaled(_ k: Float) -> Affine {
            Affine(terms: terms.map { ($0.register, $0.weight * k) }, bias: bias * k)
        }

        func plus(_ other: Affine) -> Affine {
            var merged = terms
            for t in other.terms {
                if let i = merged.firstIndex(where: { $0.register == t.register }) { merged[i].weight += t.weight }
                else { merged.append(t) }
            }
            return Affine(terms: merged.filter { $0.weight != 0 }, bias: bias + other.bias)
        }
    }
    private var pending: [Int: Affine] = [:]
    static let maximumLinearTerms = 4

    private init(program: CheckedProgram) { self.program = program }

    static func lower(_ program: CheckedProgram, kernel: Int, bindings: [KernelBinding], imageCount: Int) throws
        -> SpanProgram {
        var l = Lowering(program: program)
        return try l.run(kernel: kernel, bindings: bindings, imageCount: imageCount)
    }

    private mutating func run(kernel: Int, bindings: [KernelBinding], imageCount: Int) throws -> SpanProgram {
        let f = program.functions[kernel]
        // Four external registers per colour-kernel input image: its planar channels.
        var imageRegisters: [[Operand]] = []
        for _ in 0..<imageCount {
            var channels: [Operand] = []
            for _ in 0..<4 {
                let r = fresh()
                externals.append(r)
                channels.append(.register(r))
            }
            imageRegisters.append(channels)
        }
        frames = [Frame(slots: [], slotTokens: [], result: nil, entryMask: mask)]
        globals = [[Operand]](repeating: [], count: program.globalCount)
        for g in program.globals {
            globals[g.slot] = try g.value.map { try expression($0) } ?? zeros(g.type.components)
        }
        var frame = Frame(slots: .init(repeating: [], count: f.slotCount),
                          slotTokens: .init(repeating: token, count: f.slotCount), result: nil, entryMask: mask)
        for (i, binding) in bindings.enumerated() {
            switch binding {
            case .value(let v): frame.slots[i] = v.map { .constant($0) }
            case .image(let k): frame.slots[i] = imageRegisters[k]
            case .sampler(let k, let extent):
                frame.slots[i] = [.constant(Float(k))]
                samplerExtents[k] = extent
            }
        }
        frames = [frame]
        try statement(f.body)
        var results = frames[0].result ?? zeros(f.returnType.components)
        // A colour kernel writes its result over input 0's rows: a component read from another of its channels
        // must be copied first, or the write of one channel would change the other before it is read.
        if imageCount > 0 {
            for c in results.indices {
                if let r = results[c].register, let j = imageRegisters[0].firstIndex(of: .register(r)), j != c {
                    results[c] = unary(.copy, results[c], force: true)
                }
            }
        }
        for r in results.compactMap(\.register) {
            if let form = pending.removeValue(forKey: r) { materialise(r, form) }
        }
        return try finish(results, output: imageCount > 0 ? imageRegisters[0].compactMap(\.register) : [])
    }

    private func error(_ p: SourcePosition, _ message: String) -> KernelLanguageError {
        KernelLanguageError(.unsupported, at: p, message)
    }

    // MARK: Emitting, with folding

    private mutating func fresh() -> Int {
        nextRegister += 1
        return nextRegister - 1
    }

    private mutating func emit(_ instruction: Instruction) {
        for source in instruction.sources {
            if let r = source.register, let form = pending.removeValue(forKey: r) { materialise(r, form) }
        }
        code.append(instruction)
    }

    private mutating func materialise(_ d: Int, _ form: Affine) {
        if form.terms.count == 1 {
            let (r, k) = form.terms[0]
            if form.bias == 0 { code.append(.binary(.mul, d, .register(r), .constant(k))) }
            else if k == 1 { code.append(.binary(.add, d, .register(r), .constant(form.bias))) }
            else { code.append(.multiplyAdd(d, .register(r), .constant(k), .constant(form.bias))) }
        } else {
            code.append(.linear(d, LinearTerms(rows: form.terms.map(\.register), weights: form.terms.map(\.weight),
                                               bias: form.bias)))
        }
    }

    private func affine(_ o: Operand) -> Affine {
        switch o {
        case .constant(let v): return Affine(terms: [], bias: v)
        case .register(let r): return pending[r] ?? Affine(terms: [(r, 1)], bias: 0)
        }
    }

    /// An operand for `form`: a constant, a plain register, or a new pending register; nil when it has too many
    /// terms for one instruction.
    private mutating func make(_ form: Affine) -> Operand? {
        if form.terms.isEmpty { return .constant(form.bias) }
        if form.terms.count > Self.maximumLinearTerms { return nil }
        if form.terms.count == 1 && form.terms[0].weight == 1 && form.bias == 0 { return .register(form.terms[0].register) }
        let d = fresh()
        pending[d] = form
        return .register(d)
    }

    private func zeros(_ n: Int) -> [Operand] { [Operand](repeating: .constant(0), count: n) }

    private mutating func unary(_ op: UnaryOp, _ a: Operand, force: Bool = false) -> Operand {
        if let v = a.constantValue { return .constant(SpanOps.fold(op, v)) }
        if op == .copy && !force { return a }
        if op == .negate, let o = make(affine(a).scaled(-1)) { return o }
        if !force, let r = emitted[.unary(op, a)] { return .register(r) }
        let d = fresh()
        emit(.unary(op, d, a))
        if !force { emitted[.unary(op, a)] = d }
        return .register(d)
    }

    private mutating func binary(_ op: BinaryOp, _ a: Operand, _ b: Operand) -> Operand {
        let x = a.constantValue, y = b.constantValue
        if let x, let y { return .constant(SpanOps.fold(op, x, y)) }
        switch op {
        case .add:
            if x == 0 { return b }
            if y == 0 { return a }
        case .sub:
            if y == 0 { return a }
            if x == 0 { return unary(.negate, b) }
        case .mul:
            if x == 1 { return b }
            if y == 1 { return a }
            // As GPUs do (fast arithmetic): zero times anything is zero. Sparse matrices cost nothing then.
            if x == 0 || y == 0 { return .constant(0) }
            if x == -1 { return unary(.negate, b) }
            if y == -1 { return unary(.negate, a) }
        case .div:
            if y == 1 { return a }
            // Division by a power of two is an exact multiplication.
            if let y, y != 0, y.significandBitPattern == 0, y.isNormal, (1 / y).isNormal { return binary(.mul, a, .constant(1 / y)) }
        case .and:
            if x == 0 || y == 0 { return .constant(0) }
            if x == 1 { return b }
            if y == 1 { return a }
            if a == b { return a }
        case .or:
            if x == 1 || y == 1 { return .constant(1) }
            if x == 0 { return b }
            if y == 0 { return a }
            if a == b { return a }
        case .min, .max:
            if a == b { return a }
        default:
            break
        }
        switch op {
        case .add: if let o = make(affine(a).plus(affine(b))) { return o }
        case .sub: if let o = make(affine(a).plus(affine(b).scaled(-1))) { return o }
        case .mul:
            if let y, let o = make(affine(a).scaled(y)) { return o }
            if let x, let o = make(affine(b).scaled(x)) { return o }
        default: break
        }
        let key = ValueKey.binary(op, a, b)
        if let r = emitted[key] { return .register(r) }
        if Self.commutative.contains(op), let r = emitted[.binary(op, b, a)] { return .register(r) }
        let d = fresh()
        emit(.binary(op, d, a, b))
        emitted[key] = d
        return .register(d)
    }

    private mutating func select(_ c: Operand, _ a: Operand, _ b: Operand) -> Operand {
        if let k = c.constantValue { return k != 0 ? a : b }
        if a == b { return a }
        if let r = emitted[.select(c, a, b)] { return .register(r) }
        let d = fresh()
        emit(.select(d, c, a, b))
        emitted[.select(c, a, b)] = d
        return .register(d)
    }

    /// a × b + c.
    private mutating func multiplyAdd(_ a: Operand, _ b: Operand, _ c: Operand) -> Operand {
        var (a, b) = (a, b)
        if a.constantValue != nil && b.constantValue == nil { swap(&a, &b) }
        if let x = a.constantValue, let y = b.constantValue, let z = c.constantValue {
            return .constant(SpanOps.fold(.add, SpanOps.fold(.mul, x, y), z))
        }
        if a.constantValue == 0 || b.constantValue == 0 { return c }
        // With a constant factor the sum stays affine (and may merge with its neighbours).
        if c.constantValue == 0 || b.constantValue != nil {
            return binary(.add, binary(.mul, a, b), c)
        }
        if let r = emitted[.multiplyAdd(a, b, c)] { return .register(r) }
        let d = fresh()
        emit(.multiplyAdd(d, a, b, c))
        emitted[.multiplyAdd(a, b, c)] = d
        return .register(d)
    }

    private mutating func dot(_ a: [Operand], _ b: [Operand]) -> Operand {
        // Rows times constants (a matrix or vector known before rendering) become one linear combination.
        var rows: [Int] = [], weights: [Float] = [], bias: Float = 0, mixed = false
        for i in a.indices {
            switch (a[i], b[i]) {
            case let (.constant(x), .constant(y)): bias += x * y
            case let (.register(r), .constant(k)), let (.constant(k), .register(r)):
                if k != 0 { rows.append(r); weights.append(k) }
            default: mixed = true
            }
        }
        if !mixed, let o = make(zip(rows, weights).reduce(Affine(terms: [], bias: bias)) {
            $0.plus(affine(.register($1.0)).scaled($1.1)) }) {
            return o
        }
        var sum = binary(.mul, a[0], b[0])
        for i in 1..<a.count { sum = multiplyAdd(a[i], b[i], sum) }
        return sum
    }

    private mutating func destinationCoordinate() -> [Operand] {
        if let d = destination { return [d.0, d.1] }
        let x = fresh(), y = fresh()
        emit(.destinationX(x))
        emit(.destinationY(y))
        destination = (.register(x), .register(y))
        return [.register(x), .register(y)]
    }

    // MARK: Statements

    private mutating func newToken() -> Int {
        tokenCount += 1
        return tokenCount
    }

    /// Whether `s` may return, or (with `loops`) break or continue the loop around it.
    private static func jumps(_ s: TStmt?, loops: Bool = true) -> Bool {
        guard let s else { return false }
        switch s {
        case .block(let list): return list.contains { jumps($0, loops: loops) }
        case .declare, .expression: return false
        case .ifElse(_, let a, let b): return jumps(a, loops: loops) || jumps(b, loops: loops)
        case .loop(_, _, _, let body, _, _): return jumps(body, loops: false)
        case .returnValue: return true
        case .breakLoop, .continueLoop: return loops
        }
    }

    /// Whether `s` may break or continue the loop it is in (not a loop nested inside it).
    private static func leavesLoop(_ s: TStmt?) -> Bool {
        guard let s else { return false }
        switch s {
        case .block(let list): return list.contains { leavesLoop($0) }
        case .declare, .expression, .returnValue, .loop: return false
        case .ifElse(_, let a, let b): return leavesLoop(a) || leavesLoop(b)
        case .breakLoop, .continueLoop: return true
        }
    }

    private var top: Int { frames.count - 1 }

    private mutating func statement(_ s: TStmt) throws {
        if mask == .constant(0) { return }   // every lane has left: the rest is dead code
        if code.count > Self.maximumInstructions {
            throw KernelLanguageError(.unsupported, "the kernel unrolls to more than \(Self.maximumInstructions) operations")
        }
        switch s {
        case .block(let list):
            for x in list { try statement(x) }
        case .declare(let slot, let value, let type):
            let v = try value.map { try expression($0) } ?? zeros(type.components)
            frames[top].slots[slot] = v
            frames[top].slotTokens[slot] = token
        case .expression(let e):
            _ = try expression(e)
        case .ifElse(let c, let a, let b):
            let condition = try expression(c)[0]
            if let k = condition.constantValue {
                if k != 0 { try statement(a) } else if let b { try statement(b) }
                return
            }
            let saved = mask, savedToken = token
            mask = binary(.and, saved, condition)
            token = newToken()
            try statement(a)
            let afterThen = mask
            mask = binary(.and, saved, unary(.not, condition))
            token = newToken()
            if let b { try statement(b) }
            let afterElse = mask
            let (returns, leaves) = (Self.jumps(a, loops: false) || Self.jumps(b, loops: false),
                                     Self.leavesLoop(a) || Self.leavesLoop(b))
            mask = returns || leaves ? binary(.or, afterThen, afterElse) : saved
            // Lanes that returned are dead; lanes that left the loop body wait for the next iteration or the loop's end.
            token = leaves ? newToken() : savedToken
        case .loop(let initial, let condition, let step, let body, let testFirst, let position):
            if let initial { try statement(initial) }
            let entryMask = mask, entryToken = token
            var exited: Operand = .constant(0), broken: Operand = .constant(0)
            var first = true
            // Whether some live lanes have left the loop (by `break` or the condition) and wait for its end.
            var narrowed = false
            while mask != .constant(0) {
                if let condition, testFirst || !first {
                    let c = try expression(condition)[0]
                    if let k = c.constantValue {
                        if k == 0 { break }
                    } else {
                        exited = binary(.or, exited, binary(.and, mask, unary(.not, c)))
                        mask = binary(.and, mask, c)
                        narrowed = true
                        if mask == .constant(0) { break }
                    }
                }
                first = false
                iterations += 1
                if iterations > Self.maximumIterations {
                    throw error(position, "this loop runs more than \(Self.maximumIterations) times, or its end depends on pixel values; Core Image needs loop bounds known before rendering (constants or kernel arguments)")
                }
                token = narrowed ? newToken() : entryToken
                loops.append(LoopState())
                try statement(body)
                let state = loops.removeLast()
                mask = binary(.or, mask, state.continued)
                broken = binary(.or, broken, state.broken)
                if state.broken != .constant(0) { narrowed = true }
                token = narrowed ? newToken() : entryToken
                // The step runs under the loop's entry mask, so that a counter stays a constant when some lanes
                // left the loop early (their copy of the counter is not read again inside the loop).
                let (running, runningToken) = (mask, token)
                (mask, token) = (entryMask, entryToken)
                for e in step { _ = try expression(e) }
                (mask, token) = (running, runningToken)
            }
            mask = binary(.or, binary(.or, mask, exited), broken)
            token = entryToken
        case .returnValue(let value, _):
            let v = try value.map { try expression($0) } ?? []
            if frames[top].result == nil || mask == frames[top].entryMask {
                frames[top].result = v
            } else {
                let old = frames[top].result!
                var merged: [Operand] = []
                for i in v.indices { merged.append(select(mask, v[i], old[i])) }
                frames[top].result = merged
            }
            mask = .constant(0)
        case .breakLoop:
            loops[loops.count - 1].broken = binary(.or, loops[loops.count - 1].broken, mask)
            mask = .constant(0)
        case .continueLoop:
            loops[loops.count - 1].continued = binary(.or, loops[loops.count - 1].continued, mask)
            mask = .constant(0)
        }
    }

    // MARK: Expressions

    private mutating func expression(_ e: TExpr) throws -> [Operand] {
        switch e.kind {
        case .constant(let v):
            return v.map { .constant($0) }
        case .local(let slot):
            return frames[top].slots[slot]
        case .global(let g):
            return globals[g]
        case .swizzle(let base, let indices):
            let v = try expression(base)
            return indices.map { v[$0] }
        case .index(let base, let index):
            let v = try expression(base)
            let i = try expression(index)[0]
            let width = e.type.components, count = v.count / width
            if let k = i.constantValue {
                guard k >= 0, k < Float(count) else { throw error(e.position, "index \(formatNumber(Double(k))) is out of range (0 to \(count - 1))") }
                let j = Int(k)
                return Array(v[(j * width)..<((j + 1) * width)])
            }
            var result = Array(v[0..<width])
            for j in 1..<count {
                let hit = binary(.equal, i, .constant(Float(j)))
                for c in 0..<width { result[c] = select(hit, v[j * width + c], result[c]) }
            }
            return result
        case .negate(let x):
            var out: [Operand] = []
            for o in try expression(x) { out.append(unary(.negate, o)) }
            return out
        case .not(let x):
            return [unary(.not, try expression(x)[0])]
        case .arithmetic(let op, let a, let b):
            return try arithmetic(op, try expression(a), a.type, try expression(b), b.type, e.type)
        case .compare(let op, let a, let b):
            let x = try expression(a)[0], y = try expression(b)[0]
            let code: BinaryOp = switch op { case "<": .less; case "<=": .lessEqual; case ">": .greater; default: .greaterEqual }
            return [binary(code, x, y)]
        case .equal(let a, let b, let negated):
            let x = try expression(a), y = try expression(b)
            var all: Operand = .constant(1)
            for i in x.indices { all = binary(.and, all, binary(.equal, x[i], y[i])) }
            return [negated ? unary(.not, all) : all]
        case .logical(let op, let a, let b):
            let x = try expression(a)[0], y = try expression(b)[0]
            switch op {
            case "&&": return [binary(.and, x, y)]
            case "||": return [binary(.or, x, y)]
            default: return [binary(.notEqual, x, y)]
            }
        case .conditional(let c, let a, let b):
            let condition = try expression(c)[0]
            if let k = condition.constantValue { return try expression(k != 0 ? a : b) }
            let x = try expression(a), y = try expression(b)
            var out: [Operand] = []
            for i in x.indices { out.append(select(condition, x[i], y[i])) }
            return out
        case .construct(let type, let args):
            return try construct(type, args)
        case .call(let index, let args):
            let values = try args.map { try expression($0) }
            return try call(index, values, e.position)
        case .builtin(let name, let args):
            return try builtin(name, args, e)
        case .assign(let target, let op, let value):
            let v = try expression(value)
            let newValue: [Operand]
            if op == "=" {
                newValue = v
            } else {
                let old = try load(target)
                newValue = try arithmetic(op, old, e.type, v, value.type, e.type)
            }
            try store(target, newValue, e.position)
            return newValue
        case .increment(let target, let delta, let postfix):
            let old = try load(target)
            var newValue: [Operand] = []
            for o in old { newValue.append(binary(.add, o, .constant(delta))) }
            try store(target, newValue, e.position)
            return postfix ? old : newValue
        }
    }

    private mutating func resolve(_ target: LValue, _ p: SourcePosition) throws -> (slot: Int, positions: [Int]) {
        switch target {
        case .local(let slot):
            return (slot, Array(frames[top].slots[slot].indices))
        case .swizzle(let base, let indices):
            let (slot, positions) = try resolve(base, p)
            return (slot, indices.map { positions[$0] })
        case .index(let base, let index, let elementType):
            let (slot, positions) = try resolve(base, p)
            let width = elementType.components
            guard let k = try expression(index)[0].constantValue else {
                throw error(p, "assigning through an index needs an index known before rendering (a constant or a loop counter)")
            }
            guard k >= 0, Int(k) * width + width <= positions.count else { throw error(p, "index \(formatNumber(Double(k))) is out of range") }
            let j = Int(k)
            return (slot, Array(positions[(j * width)..<((j + 1) * width)]))
        }
    }

    private mutating func load(_ target: LValue) throws -> [Operand] {
        let (slot, positions) = try resolve(target, SourcePosition(line: 0, column: 0))
        return positions.map { frames[top].slots[slot][$0] }
    }

    private mutating func store(_ target: LValue, _ value: [Operand], _ p: SourcePosition) throws {
        let (slot, positions) = try resolve(target, p)
        let masked = mask != .constant(1) && frames[top].slotTokens[slot] != token
        for (k, position) in positions.enumerated() {
            let v = value.count == 1 ? value[0] : value[k]
            let old = frames[top].slots[slot][position]
            frames[top].slots[slot][position] = masked ? select(mask, v, old) : v
        }
    }

    private mutating func arithmetic(_ op: String, _ a: [Operand], _ ta: KType, _ b: [Operand], _ tb: KType,
                                     _ result: KType) throws -> [Operand] {
        if op == "*" {
            switch (ta, tb) {
            case (.mat(let n), .vec):
                var out: [Operand] = []
                for r in 0..<n { out.append(dot((0..<n).map { a[$0 * n + r] }, b)) }
                return out
            case (.vec, .mat(let n)):
                var out: [Operand] = []
                for c in 0..<n { out.append(dot(a, Array(b[(c * n)..<(c * n + n)]))) }
                return out
            case (.mat(let n), .mat):
                var out: [Operand] = []
                for c in 0..<n {
                    for r in 0..<n { out.append(dot((0..<n).map { a[$0 * n + r] }, (0..<n).map { b[c * n + $0] })) }
                }
                return out
            default: break
            }
        }
        let code: BinaryOp = switch op { case "+": .add; case "-": .sub; case "*": .mul; default: .div }
        let n = max(a.count, b.count)
        var out: [Operand] = []
        for i in 0..<n {
            let x = a.count == 1 ? a[0] : a[i], y = b.count == 1 ? b[0] : b[i]
            var v = binary(code, x, y)
            // Integer division truncates.
            if code == .div && ta == .int && tb == .int { v = unary(.trunc, v) }
            out.append(v)
        }
        return out
    }

    private mutating func construct(_ type: KType, _ args: [TExpr]) throws -> [Operand] {
        var values: [[Operand]] = []
        for a in args { values.append(try expression(a)) }
        let n = type.components
        var flat: [Operand]
        if case .mat(let size) = type, args.count == 1 {
            let v = values[0]
            if case .mat(let m) = args[0].type {
                flat = []
                for c in 0..<size {
                    for r in 0..<size { flat.append(c < m && r < m ? v[c * m + r] : .constant(c == r ? 1 : 0)) }
                }
                return flat
            }
            if v.count == 1 {
                flat = []
                for c in 0..<size { for r in 0..<size { flat.append(c == r ? v[0] : .constant(0)) } }
                return flat
            }
        }
        if args.count == 1 && values[0].count == 1 {
            flat = [Operand](repeating: values[0][0], count: n)
        } else {
            flat = Array(values.joined().prefix(n))
        }
        // Conversions: to int truncates, to bool compares with zero (bools are already 0 or 1).
        let sourceIsBool = args.allSatisfy { $0.type.isBooleanLike }
        switch type {
        case .int:
            return flat.map { unary(.trunc, $0) }
        case .bool, .bvec:
            return sourceIsBool ? flat : flat.map { binary(.notEqual, $0, .constant(0)) }
        default:
            return flat
        }
    }

    private mutating func call(_ index: Int, _ args: [[Operand]], _ p: SourcePosition) throws -> [Operand] {
        guard frames.count < 64 else { throw error(p, "functions nested too deeply") }
        let f = program.functions[index]
        var frame = Frame(slots: .init(repeating: [], count: f.slotCount),
                          slotTokens: .init(repeating: token, count: f.slotCount), result: nil, entryMask: mask)
        for (i, a) in args.enumerated() { frame.slots[i] = a }
        let (saved, savedToken) = (mask, token)
        frames.append(frame)
        try statement(f.body)
        let result = frames.removeLast().result ?? zeros(f.returnType.components)
        (mask, token) = (saved, savedToken)
        return result
    }

    // MARK: Built-in functions

    private mutating func builtin(_ name: String, _ args: [TExpr], _ e: TExpr) throws -> [Operand] {
        var v: [[Operand]] = []
        for a in args { v.append(try expression(a)) }
        let n = e.type.components
        func at(_ x: [Operand], _ i: Int) -> Operand { x.count == 1 ? x[0] : x[i] }
        func each(_ f: (inout Lowering, Int) -> Operand) -> [Operand] {
            var out: [Operand] = []
            for i in 0..<n { out.append(f(&self, i)) }
            return out
        }
        func map1(_ op: UnaryOp) -> [Operand] { each { l, i in l.unary(op, v[0][i]) } }
        func map2(_ op: BinaryOp) -> [Operand] { each { l, i in l.binary(op, at(v[0], i), at(v[1], i)) } }
        switch name {
        case "radians": return each { l, i in l.binary(.mul, v[0][i], .constant(Float.pi / 180)) }
        case "degrees": return each { l, i in l.binary(.mul, v[0][i], .constant(180 / Float.pi)) }
        case "sin", "sin_": return map1(.sin)
        case "cos", "cos_": return map1(.cos)
        case "tan", "tan_": return map1(.tan)
        case "asin": return map1(.asin)
        case "acos": return map1(.acos)
        case "atan": return args.count == 1 ? map1(.atan) : map2(.atan2)
        case "exp": return map1(.exp)
        case "exp2": return map1(.exp2)
        case "log": return map1(.log)
        case "log2": return map1(.log2)
        case "sqrt": return map1(.sqrt)
        case "inversesqrt": return map1(.rsqrt)
        case "abs": return map1(.abs)
        case "sign": return map1(.sign)
        case "floor": return map1(.floor)
        case "ceil": return map1(.ceil)
        case "fract": return map1(.fract)
        case "trunc": return map1(.trunc)
        case "round": return map1(.round)
        case "pow": return map2(.pow)
        case "mod": return map2(.mod)
        case "min": return map2(.min)
        case "max": return map2(.max)
        case "step": return each { l, i in l.binary(.greaterEqual, at(v[1], i), at(v[0], i)) }
        case "clamp":
            return each { l, i in l.binary(.min, l.binary(.max, v[0][i], at(v[1], i)), at(v[2], i)) }
        case "mix":
            // x + (y − x)·a: exactly x at a = 0 and within an ulp of y at a = 1.
            return each { l, i in l.multiplyAdd(l.binary(.sub, v[1][i], v[0][i]), at(v[2], i), v[0][i]) }
        case "smoothstep":
            return each { l, i in
                let e0 = at(v[0], i), e1 = at(v[1], i)
                let t0 = l.binary(.div, l.binary(.sub, v[2][i], e0), l.binary(.sub, e1, e0))
                let t = l.binary(.min, l.binary(.max, t0, .constant(0)), .constant(1))
                return l.binary(.mul, l.binary(.mul, t, t), l.multiplyAdd(t, .constant(-2), .constant(3)))
            }
        case "compare":
            return each { l, i in l.select(l.binary(.less, v[0][i], .constant(0)), v[1][i], v[2][i]) }
        case "length":
            return [unary(.sqrt, dot(v[0], v[0]))]
        case "distance":
            var d: [Operand] = []
            for i in v[0].indices { d.append(binary(.sub, v[0][i], v[1][i])) }
            return [unary(.sqrt, dot(d, d))]
        case "dot":
            return [dot(v[0], v[1])]
        case "cross":
            let (a, b) = (v[0], v[1])
            return [binary(.sub, binary(.mul, a[1], b[2]), binary(.mul, a[2], b[1])),
                    binary(.sub, binary(.mul, a[2], b[0]), binary(.mul, a[0], b[2])),
                    binary(.sub, binary(.mul, a[0], b[1]), binary(.mul, a[1], b[0]))]
        case "normalize":
            let scale = unary(.rsqrt, dot(v[0], v[0]))
            return each { l, i in l.binary(.mul, v[0][i], scale) }
        case "reflect":
            let twice = binary(.mul, dot(v[1], v[0]), .constant(2))
            return each { l, i in l.binary(.sub, v[0][i], l.binary(.mul, twice, v[1][i])) }
        case "refract":
            let (incident, normal, eta) = (v[0], v[1], v[2][0])
            let d = dot(normal, incident)
            let k = binary(.sub, .constant(1),
                           binary(.mul, binary(.mul, eta, eta), binary(.sub, .constant(1), binary(.mul, d, d))))
            let factor = binary(.add, binary(.mul, eta, d), unary(.sqrt, binary(.max, k, .constant(0))))
            let total = binary(.less, k, .constant(0))
            return each { l, i in
                l.select(total, .constant(0), l.binary(.sub, l.binary(.mul, eta, incident[i]), l.binary(.mul, factor, normal[i])))
            }
        case "faceforward":
            let facing = binary(.less, dot(v[2], v[1]), .constant(0))
            return each { l, i in l.select(facing, v[0][i], l.unary(.negate, v[0][i])) }
        case "sincos", "sincos_":
            return [unary(.sin, v[0][0]), unary(.cos, v[0][0])]
        case "cossin", "cossin_":
            return [unary(.cos, v[0][0]), unary(.sin, v[0][0])]
        case "premultiply":
            let c = v[0]
            return [binary(.mul, c[0], c[3]), binary(.mul, c[1], c[3]), binary(.mul, c[2], c[3]), c[3]]
        case "unpremultiply":
            // Apple: divides by alpha when alpha > 0, else returns the colour unchanged.
            let c = v[0]
            let scale = unary(.alphaReciprocal, c[3])
            return [binary(.mul, c[0], scale), binary(.mul, c[1], scale), binary(.mul, c[2], scale), c[3]]
        case "destCoord", "samplerCoord":
            // Sampler space is working space here: no sampler carries a transform of its own.
            return destinationCoordinate()
        case "samplerTransform":
            return v[1]
        case "samplerExtent", "samplerOrigin", "samplerSize":
            let extent = samplerExtents[Int(v[0][0].constantValue ?? 0)] ?? .zero
            let values = [extent.x, extent.y, extent.width, extent.height].map { Operand.constant(Float($0)) }
            return name == "samplerExtent" ? values : name == "samplerOrigin" ? Array(values[0..<2]) : Array(values[2..<4])
        case "sample":
            let k = Int(v[0][0].constantValue ?? 0)
            let r = fresh(), g = fresh(), b = fresh(), a = fresh()
            emit(.sample(sampler: k, x: v[1][0], y: v[1][1], r, g, b, a))
            return [.register(r), .register(g), .register(b), .register(a)]
        case "lessThan": return map2(.less)
        case "lessThanEqual": return map2(.lessEqual)
        case "greaterThan": return map2(.greater)
        case "greaterThanEqual": return map2(.greaterEqual)
        case "equal": return map2(.equal)
        case "notEqual": return map2(.notEqual)
        case "any":
            var r: Operand = .constant(0)
            for c in v[0] { r = binary(.or, r, c) }
            return [r]
        case "all":
            var r: Operand = .constant(1)
            for c in v[0] { r = binary(.and, r, c) }
            return [r]
        case "not": return map1(.not)
        case "matrixCompMult": return map2(.mul)
        default:
            throw error(e.position, "the built-in '\(name)' is not available")
        }
    }

    // MARK: Registers

    /// Drops instructions whose results are never read, then gives each register a slot of the workspace, reusing
    /// a slot once its last reader has run. A destination is given its slot before the sources' slots are freed,
    /// so that no instruction writes a row it reads (which would also stop the loops' vectorisation).
    /// A colour kernel's result component is computed straight into its output row (`output`, input 0's rows)
    /// when nothing reads that row afterwards: this saves a copy per component, as much time as a matrix row.
    private func finish(_ results: [Operand], output: [Int]) throws -> SpanProgram {
        var live = Set(results.compactMap(\.register))
        var kept: [Instruction] = []
        for instruction in code.reversed() where instruction.destinations.contains(where: live.contains) {
            kept.append(instruction)
            for s in instruction.sources { if let r = s.register { live.insert(r) } }
        }
        kept.reverse()
        var lastUse: [Int: Int] = [:]
        for (i, instruction) in kept.enumerated() {
            for s in instruction.sources { if let r = s.register { lastUse[r] = i } }
        }
        for r in results.compactMap(\.register) { lastUse[r] = Int.max }
        let externalIndex = Dictionary(uniqueKeysWithValues: externals.enumerated().map { ($1, $0) })
        var direct: [Int: Int] = [:]
        if output.count == 4 {
            var definer: [Int: Int] = [:]
            for (i, instruction) in kept.enumerated() { for d in instruction.destinations { definer[d] = i } }
            let resultRegisters = results.compactMap(\.register)
            for c in 0..<4 {
                guard let r = results[c].register, externalIndex[r] == nil,
                      resultRegisters.filter({ $0 == r }).count == 1, let i = definer[r] else { continue }
                let target = Operand.register(output[c])
                // Every loop is element by element, so an instruction may write the row it reads, except a
                // multiply-add's two-pass fallback (its addend) and a sample.
                switch kept[i] {
                case .sample: continue
                case .multiplyAdd: if kept[i].sources.contains(target) { continue }
                default: break
                }
                if kept[(i + 1)...].contains(where: { $0.sources.contains(target) }) { continue }
                direct[r] = output[c]
            }
        }
        var slot: [Int: Int] = [:]
        var free: [Int] = []
        var count = 0
        for (i, instruction) in kept.enumerated() {
            for d in instruction.destinations where direct[d] == nil {
                if let reused = free.popLast() { slot[d] = reused } else { slot[d] = count; count += 1 }
            }
            for r in Set(instruction.sources.compactMap(\.register)) where lastUse[r] == i {
                if let s = slot[r] { free.append(s) }
            }
            for d in instruction.destinations where lastUse[d] == nil { if let s = slot[d] { free.append(s) } }
        }
        if count > Self.maximumRegisters {
            throw KernelLanguageError(.unsupported, "the kernel needs \(count) registers (more than \(Self.maximumRegisters))")
        }
        func physical(_ r: Int) -> Int {
            if let target = direct[r] { return count + externalIndex[target]! }
            return externalIndex[r].map { count + $0 } ?? slot[r]!
        }
        let renamed = kept.map { $0.renamed(physical) }
        let finalResults = results.map { o -> Operand in
            if case .register(let r) = o { return .register(physical(r)) }
            return o
        }
        return SpanProgram(instructions: renamed, registerCount: count, externalCount: externals.count,
                           results: finalResults)
    }
}
