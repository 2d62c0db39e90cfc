import FilterEngine
import Foundation

// Lowering: turns a checked kernel, with its argument values, into a `SpanProgram`.
//
// Every value is a list of operands, one per component: a constant or a register. Arguments are constants, so
// everything that depends only on them is folded while lowering, and a loop whose bounds depend only on
// constants and arguments is unrolled (up to a budget). Pixel-dependent control flow becomes masks: `mask` holds
// the lanes (pixels) still running; an `if` runs both branches with the mask narrowed, assignments under a
// narrowed mask become selects, `return`, `break` and `continue` take their lanes out of the mask. A loop whose
// condition depends on pixels, or that goes past the unrolling budget, becomes a run-time `loop` instruction
// over the same masks (see `runtimeLoop`). `finish` prunes the code and packs it into few registers.

enum KernelBinding {
    /// A uniform argument's components.
    case value([Float])
    /// A colour kernel's `__sample`: input image `index`.
    case image(Int)
    /// A general kernel's `sampler`: input image `index`, with its extent.
    case sampler(Int, Rect)
    /// A `sampler` of a kernel run as a colour kernel: input image `index` (its pixels arrive as `image`'s do),
    /// which the kernel may sample only at the pixel being computed.
    case pixelSampler(Int, Rect)
}

/// Thrown by the lowering of a kernel run as a colour kernel that samples a sampler away from the pixel being
/// computed: it must run as a general kernel.
struct SamplesAwayFromItsPixel: Error {}

struct Lowering {
    private struct Frame {
        var slots: [[Operand]]
        /// The mask token under which each slot was declared: assignments under the same token need no select.
        var slotTokens: [Int]
        var result: [Operand]?
        let entryMask: Operand
        /// The components of the function's result.
        let resultWidth: Int
    }

    private struct LoopState {
        var continued: Operand = .constant(0)
        var broken: Operand = .constant(0)
    }

    /// Limits that keep hostile or runaway kernels from exhausting memory or time. Loops are unrolled while a
    /// loop has run fewer than `maximumUnrolledPasses` passes, has emitted fewer than `maximumUnrolledCode`
    /// instructions, and the whole kernel fewer than `maximumUnrolledTotal` passes; past that (or as soon as its
    /// condition depends on pixels) the rest of the loop runs as a loop when rendering.
    static let maximumInstructions = 1_000_000
    static let maximumUnrolledPasses = 128
    static let maximumUnrolledCode = 20_000
    static let maximumUnrolledTotal = 4096
    static let maximumRegisters = 2048
    /// The steps of lowering (statements and expressions visited, helpers inlined included).
    static let maximumWork = 4_000_000

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
    private var unrolledPasses = 0
    private var work = 0
    private var samplerExtents: [Int: Rect] = [:]
    /// For each sampler, how far from the pixel being computed it is read (in x or y, at most): infinity when
    /// the kernel reads it where no offset is known before rendering.
    private var samplerReach: [Int: Float] = [:]
    /// The pixels of samplers bound as `pixelSampler`.
    private var pixelSamplers: [Int: [Operand]] = [:]
    /// The affine forms of materialised registers: what a sample coordinate was made of.
    private var forms: [Int: Affine] = [:]
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
        frames = [Frame(slots: [], slotTokens: [], result: nil, entryMask: mask, resultWidth: 0)]
        globals = [[Operand]](repeating: [], count: program.globalCount)
        for g in program.globals {
            globals[g.slot] = try g.value.map { try expression($0) } ?? zeros(g.type.components)
        }
        var frame = Frame(slots: .init(repeating: [], count: f.slotCount),
                          slotTokens: .init(repeating: token, count: f.slotCount), result: nil, entryMask: mask,
                          resultWidth: f.returnType.components)
        for (i, binding) in bindings.enumerated() {
            switch binding {
            case .value(let v): frame.slots[i] = v.map { .constant($0) }
            case .image(let k): frame.slots[i] = imageRegisters[k]
            case .sampler(let k, let extent):
                frame.slots[i] = [.constant(Float(k))]
                samplerExtents[k] = extent
            case .pixelSampler(let k, let extent):
                frame.slots[i] = [.constant(Float(k))]
                samplerExtents[k] = extent
                pixelSamplers[k] = imageRegisters[k]
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
        let made = try finish(results, output: imageCount > 0 ? imageRegisters[0].compactMap(\.register) : [])
        made.samplerReach = samplerReach
        return made
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
        forms[d] = form
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

    /// `o` − `origin` when `o` is `origin` plus a constant (a sample at a fixed offset from the pixel).
    private func offset(_ o: Operand, from origin: Operand) -> Float? {
        guard let base = origin.register else { return nil }
        guard let r = o.register else { return nil }
        if r == base { return 0 }
        guard let form = pending[r] ?? forms[r], form.terms.count == 1, form.terms[0].register == base,
              form.terms[0].weight == 1 else { return nil }
        return form.bias
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

    private mutating func countWork(_ p: SourcePosition?) throws {
        work += 1
        if work > Self.maximumWork {
            throw KernelLanguageError(.unsupported, line: p?.line ?? 0, column: p?.column ?? 0,
                                      "compiling this kernel takes more than \(Self.maximumWork) steps (loops inside loops, or helper functions inlined many times); simplify it")
        }
    }

    private mutating func statement(_ s: TStmt) throws {
        if mask == .constant(0) { return }   // every lane has left: the rest is dead code
        try countWork(nil)
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
            var broken: Operand = .constant(0)
            var first = true
            // Whether some live lanes have left the loop (by `break`) and wait for its end.
            var narrowed = false
            let codeAtStart = code.count
            var passes = 0
            while mask != .constant(0) {
                if !first || testFirst {
                    if passes >= Self.maximumUnrolledPasses || code.count - codeAtStart > Self.maximumUnrolledCode ||
                        unrolledPasses >= Self.maximumUnrolledTotal {
                        try runtimeLoop(condition, step, body, position, waiting: broken, entryToken: entryToken)
                        return
                    }
                    if let condition {
                        let c = try expression(condition)[0]
                        guard let k = c.constantValue else {
                            // The end depends on pixels: the rest runs as a loop when rendering.
                            try runtimeLoop(condition, step, body, position, waiting: broken, entryToken: entryToken)
                            return
                        }
                        if k == 0 { break }
                    }
                }
                first = false
                passes += 1
                unrolledPasses += 1
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
            mask = binary(.or, mask, broken)
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

    // MARK: Loops at run time

    /// The rest of a loop as a `loop` instruction. The variables the loop assigns become registers (phis) that
    /// hold their values from pass to pass; so do the lanes still looping (`active`), the lanes waiting at the
    /// loop's end (left by the condition or by `break`: `waiting`) and, when the body may return, the function's
    /// result. A pass runs the condition, the body and the step under the mask of the active lanes, so that the
    /// lanes that finished keep their values; lanes that return leave both masks (they are dead).
    private mutating func runtimeLoop(_ condition: TExpr?, _ step: [TExpr], _ body: TStmt, _ position: SourcePosition,
                                      waiting: Operand, entryToken: Int) throws {
        // What the body reads from before the loop must exist before it, not be made inside it on first use.
        _ = destinationCoordinate()
        for (r, form) in pending.sorted(by: { $0.key < $1.key }) { materialise(r, form) }
        pending = [:]

        var assigned = Set<Int>(), declared = Set<Int>()
        Self.collect(body, &assigned, &declared)
        if let condition { Self.collect(condition, &assigned, &declared) }
        for e in step { Self.collect(e, &assigned, &declared) }
        func phi(_ value: Operand) -> Int {
            let r = fresh()
            code.append(.unary(.copy, r, value))
            return r
        }
        var carriedSlots: [(slot: Int, phis: [Int])] = []
        for slot in assigned.subtracting(declared).sorted() where !frames[top].slots[slot].isEmpty {
            var phis: [Int] = []
            for value in frames[top].slots[slot] { phis.append(phi(value)) }
            carriedSlots.append((slot, phis))
            frames[top].slots[slot] = phis.map { .register($0) }
            frames[top].slotTokens[slot] = entryToken
        }
        let returns = Self.jumps(body, loops: false)
        var resultPhis: [Int] = []
        if returns {
            for value in frames[top].result ?? zeros(frames[top].resultWidth) { resultPhis.append(phi(value)) }
            frames[top].result = resultPhis.map { .register($0) }
        }
        let activePhi = phi(mask), waitingPhi = phi(waiting)

        let (outerCode, outerEmitted) = (code, emitted)
        code = []
        let bodyStart = nextRegister
        mask = .register(activePhi)
        token = newToken()
        var waitingNext: Operand = .register(waitingPhi)
        if let condition {
            let c = try expression(condition)[0]
            waitingNext = binary(.or, waitingNext, binary(.and, mask, unary(.not, c)))
            mask = binary(.and, mask, c)
            token = newToken()
        }
        loops.append(LoopState())
        try statement(body)
        let state = loops.removeLast()
        mask = binary(.or, mask, state.continued)
        waitingNext = binary(.or, waitingNext, state.broken)
        token = newToken()
        if mask != .constant(0) { for e in step { _ = try expression(e) } }

        // Each next value in a register of the body, so that the copies into the phis may run in any order.
        func next(_ o: Operand) -> Int {
            if let r = o.register, r >= bodyStart {
                if let form = pending.removeValue(forKey: r) { materialise(r, form) }
                return r
            }
            let d = fresh()
            emit(.unary(.copy, d, o))
            return d
        }
        var carried: [(phi: Int, next: Int)] = []
        for (slot, phis) in carriedSlots {
            for (k, p) in phis.enumerated() { carried.append((p, next(frames[top].slots[slot][k]))) }
        }
        if returns, let result = frames[top].result {
            for (k, p) in resultPhis.enumerated() { carried.append((p, next(result[k]))) }
        }
        carried.append((activePhi, next(mask)))
        carried.append((waitingPhi, next(waitingNext)))
        pending = [:]
        let loopBody = code
        (code, emitted) = (outerCode, outerEmitted)
        code.append(.loop(RuntimeLoop(body: loopBody, carried: carried, active: activePhi)))
        if code.count > Self.maximumInstructions {
            throw KernelLanguageError(.unsupported, at: position, "the kernel unrolls to more than \(Self.maximumInstructions) operations")
        }

        for (slot, phis) in carriedSlots { frames[top].slots[slot] = phis.map { .register($0) } }
        if returns { frames[top].result = resultPhis.map { .register($0) } }
        mask = .register(waitingPhi)
        token = entryToken
    }

    /// The slots a statement assigns and the ones it declares (not looking into called functions, whose
    /// variables live in their own frames).
    private static func collect(_ s: TStmt?, _ assigned: inout Set<Int>, _ declared: inout Set<Int>) {
        guard let s else { return }
        switch s {
        case .block(let list): for x in list { collect(x, &assigned, &declared) }
        case .declare(let slot, let value, _):
            declared.insert(slot)
            if let value { collect(value, &assigned, &declared) }
        case .expression(let e): collect(e, &assigned, &declared)
        case .ifElse(let c, let a, let b):
            collect(c, &assigned, &declared)
            collect(a, &assigned, &declared)
            collect(b, &assigned, &declared)
        case .loop(let initial, let condition, let step, let body, _, _):
            collect(initial, &assigned, &declared)
            if let condition { collect(condition, &assigned, &declared) }
            for e in step { collect(e, &assigned, &declared) }
            collect(body, &assigned, &declared)
        case .returnValue(let e, _): if let e { collect(e, &assigned, &declared) }
        case .breakLoop, .continueLoop: break
        }
    }

    private static func collect(_ e: TExpr, _ assigned: inout Set<Int>, _ declared: inout Set<Int>) {
        func target(_ l: LValue) {
            switch l {
            case .local(let slot): assigned.insert(slot)
            case .swizzle(let base, _): target(base)
            case .index(let base, let i, _):
                target(base)
                collect(i, &assigned, &declared)
            }
        }
        switch e.kind {
        case .constant, .local, .global: break
        case .swizzle(let a, _), .negate(let a), .not(let a): collect(a, &assigned, &declared)
        case .index(let a, let b), .arithmetic(_, let a, let b), .compare(_, let a, let b), .equal(let a, let b, _),
             .logical(_, let a, let b):
            collect(a, &assigned, &declared)
            collect(b, &assigned, &declared)
        case .conditional(let a, let b, let c):
            collect(a, &assigned, &declared)
            collect(b, &assigned, &declared)
            collect(c, &assigned, &declared)
        case .construct(_, let list), .call(_, let list), .builtin(_, let list), .array(let list):
            for x in list { collect(x, &assigned, &declared) }
        case .assign(let l, _, let value):
            target(l)
            collect(value, &assigned, &declared)
        case .increment(let l, _, _):
            target(l)
        }
    }

    // MARK: Expressions

    private mutating func expression(_ e: TExpr) throws -> [Operand] {
        try countWork(e.position)
        switch e.kind {
        case .array(let items):
            var out: [Operand] = []
            for item in items { out += try expression(item) }
            return out
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
            // An index outside the value is clamped to its first or last element: never a read outside it.
            if let k = i.constantValue {
                let j = k.isNaN ? 0 : Int(min(max(k, 0), Float(count - 1)))
                return Array(v[(j * width)..<((j + 1) * width)])
            }
            var result = Array(v[0..<width])
            for j in 1..<count {
                let hit = binary(.greaterEqual, i, .constant(Float(j)))
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
            let place = try resolve(target)
            let newValue: [Operand]
            if op == "=" {
                newValue = v
            } else {
                let old = load(place)
                newValue = try arithmetic(op, old, e.type, v, value.type, e.type)
            }
            store(place, newValue)
            return newValue
        case .increment(let target, let delta, let postfix):
            let place = try resolve(target)
            let old = load(place)
            var newValue: [Operand] = []
            for o in old { newValue.append(binary(.add, o, .constant(delta))) }
            store(place, newValue)
            return postfix ? old : newValue
        }
    }

    /// Where an assignment lands: a slot and, for each element a computed index may pick, the condition under
    /// which it is picked and the slot's components it covers.
    private struct Place {
        let slot: Int
        var choices: [(when: Operand, positions: [Int])]
    }

    private mutating func resolve(_ target: LValue) throws -> Place {
        switch target {
        case .local(let slot):
            return Place(slot: slot, choices: [(.constant(1), Array(frames[top].slots[slot].indices))])
        case .swizzle(let base, let indices):
            var place = try resolve(base)
            place.choices = place.choices.map { c in (when: c.when, positions: indices.map { c.positions[$0] }) }
            return place
        case .index(let base, let index, let elementType):
            var place = try resolve(base)
            let width = elementType.components
            let i = try expression(index)[0]
            var choices: [(when: Operand, positions: [Int])] = []
            for c in place.choices {
                let count = c.positions.count / width
                func element(_ j: Int) -> [Int] { Array(c.positions[(j * width)..<((j + 1) * width)]) }
                // Clamped to the first or last element, as when reading.
                if let k = i.constantValue {
                    choices.append((c.when, element(k.isNaN ? 0 : Int(min(max(k, 0), Float(count - 1))))))
                    continue
                }
                for j in 0..<count {
                    var hit: Operand = .constant(1)
                    if j > 0 { hit = binary(.greaterEqual, i, .constant(Float(j))) }
                    if j < count - 1 { hit = binary(.and, hit, binary(.less, i, .constant(Float(j + 1)))) }
                    choices.append((binary(.and, c.when, hit), element(j)))
                }
            }
            place.choices = choices
            return place
        }
    }

    private mutating func load(_ place: Place) -> [Operand] {
        let slots = frames[top].slots[place.slot]
        var value = place.choices[0].positions.map { slots[$0] }
        for c in place.choices.dropFirst() {
            for k in value.indices { value[k] = select(c.when, slots[c.positions[k]], value[k]) }
        }
        return value
    }

    private mutating func store(_ place: Place, _ value: [Operand]) {
        let masked = mask != .constant(1) && frames[top].slotTokens[place.slot] != token
        for c in place.choices {
            let guardMask = masked ? binary(.and, mask, c.when) : c.when
            for (k, position) in c.positions.enumerated() {
                let v = value.count == 1 ? value[0] : value[k]
                let old = frames[top].slots[place.slot][position]
                frames[top].slots[place.slot][position] = select(guardMask, v, old)
            }
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
                          slotTokens: .init(repeating: token, count: f.slotCount), result: nil, entryMask: mask,
                          resultWidth: f.returnType.components)
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
            // How far from the pixel being computed: what a region of interest must cover.
            let here = destinationCoordinate()
            var reach = Float.infinity
            if let dx = offset(v[1][0], from: here[0]), let dy = offset(v[1][1], from: here[1]) { reach = max(abs(dx), abs(dy)) }
            samplerReach[k] = max(samplerReach[k] ?? 0, reach)
            if let pixel = pixelSamplers[k] {
                guard reach == 0 else { throw SamplesAwayFromItsPixel() }
                return pixel
            }
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
        let kept = Self.prune(code, &live)
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
                case .sample, .loop: continue
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
            // A loop's variables already have their slots (from their first values, before it).
            for d in instruction.destinations where direct[d] == nil && slot[d] == nil {
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

    /// `code` without the instructions whose results nothing in `live` needs (a loop's body pruned the same
    /// way, from what its passes carry).
    private static func prune(_ code: [Instruction], _ live: inout Set<Int>) -> [Instruction] {
        var kept: [Instruction] = []
        for instruction in code.reversed() where instruction.destinations.contains(where: live.contains) {
            if case .loop(let l) = instruction {
                var inner = Set(l.carried.map(\.next))
                let loop = RuntimeLoop(body: prune(l.body, &inner), carried: l.carried, active: l.active)
                kept.append(.loop(loop))
                live.formUnion(loop.reads)
                continue
            }
            kept.append(instruction)
            for s in instruction.sources { if let r = s.register { live.insert(r) } }
        }
        return kept.reversed()
    }
}
