import FilterEngine
import Foundation

// The compiled form of a kernel: a list of instructions over registers that each hold one float per pixel of a
// span (up to `RowEvaluator.spanWidth` pixels). Each instruction is one tight loop over the span, which the
// compiler vectorises; a vec4 lives in four registers. `Lowering` resolved branches into selects and unrolled
// short loops; a loop whose end depends on pixels (or that is too long to unroll) stays a `loop` instruction,
// whose body runs for the whole span until no pixel is still looping, within a work budget.

/// An instruction's input: a register or a constant known when the program was built.
enum Operand: Equatable, Hashable {
    case register(Int)
    case constant(Float)

    var constantValue: Float? { if case .constant(let v) = self { return v }; return nil }
    var register: Int? { if case .register(let r) = self { return r }; return nil }
}

enum UnaryOp: UInt8 {
    case negate, abs, sign, floor, ceil, fract, trunc, round, sqrt, rsqrt, reciprocal, exp, exp2, log, log2
    case sin, cos, tan, asin, acos, atan, not, copy
    /// 1 / a where a > 0, else 1: unpremultiply's factor in one loop.
    case alphaReciprocal
}

enum BinaryOp: UInt8 {
    case add, sub, mul, div, min, max, pow, atan2, mod
    case less, lessEqual, greater, greaterEqual, equal, notEqual, and, or
}

enum Instruction {
    case unary(UnaryOp, Int, Operand)
    case binary(BinaryOp, Int, Operand, Operand)
    /// d = c != 0 ? a : b
    case select(Int, Operand, Operand, Operand)
    /// d = a * b + c
    case multiplyAdd(Int, Operand, Operand, Operand)
    /// The pixel centres' x (x0 + i + 0.5) and y (y + 0.5).
    case destinationX(Int)
    case destinationY(Int)
    /// d = Σ rows[k] × weights[k] + bias, for up to four rows: a matrix row or a dot product with constants in
    /// one loop instead of a multiply and adds that each read and write a row.
    case linear(Int, LinearTerms)
    /// Bilinear sample of sampler `sampler` at (x, y), into four registers.
    case sample(sampler: Int, x: Operand, y: Operand, Int, Int, Int, Int)
    /// A loop run when rendering.
    case loop(RuntimeLoop)

    var destinations: [Int] {
        switch self {
        case .unary(_, let d, _), .binary(_, let d, _, _), .select(let d, _, _, _), .multiplyAdd(let d, _, _, _),
             .destinationX(let d), .destinationY(let d), .linear(let d, _): [d]
        case .sample(_, _, _, let r, let g, let b, let a): [r, g, b, a]
        case .loop(let l): l.writes
        }
    }

    var sources: [Operand] {
        switch self {
        case .unary(_, _, let a): [a]
        case .binary(_, _, let a, let b): [a, b]
        case .select(_, let c, let a, let b): [c, a, b]
        case .multiplyAdd(_, let a, let b, let c): [a, b, c]
        case .destinationX, .destinationY: []
        case .linear(_, let t): t.rows.map { .register($0) }
        case .sample(_, let x, let y, _, _, _, _): [x, y]
        case .loop(let l): l.reads.map { .register($0) }
        }
    }

    /// The same instruction with its registers renamed.
    func renamed(_ f: (Int) -> Int) -> Instruction {
        func o(_ x: Operand) -> Operand { if case .register(let r) = x { return .register(f(r)) }; return x }
        switch self {
        case .unary(let op, let d, let a): return .unary(op, f(d), o(a))
        case .binary(let op, let d, let a, let b): return .binary(op, f(d), o(a), o(b))
        case .select(let d, let c, let a, let b): return .select(f(d), o(c), o(a), o(b))
        case .multiplyAdd(let d, let a, let b, let c): return .multiplyAdd(f(d), o(a), o(b), o(c))
        case .destinationX(let d): return .destinationX(f(d))
        case .destinationY(let d): return .destinationY(f(d))
        case .linear(let d, var t):
            t.rows = t.rows.map(f)
            return .linear(f(d), t)
        case .sample(let s, let x, let y, let r, let g, let b, let a):
            return .sample(sampler: s, x: o(x), y: o(y), f(r), f(g), f(b), f(a))
        case .loop(let l):
            return .loop(RuntimeLoop(body: l.body.map { $0.renamed(f) }, carried: l.carried.map { (phi: f($0.phi), next: f($0.next)) },
                                     active: f(l.active)))
        }
    }
}

/// A loop kept for run time. Each pass runs `body` (the loop's condition, its statements and its step, all
/// under the mask of the pixels still looping), then copies each `next` register into its `phi` (the loop's
/// variables, `active` among them: the pixels still looping). It stops when no pixel of the span is active.
struct RuntimeLoop {
    let body: [Instruction]
    let carried: [(phi: Int, next: Int)]
    let active: Int
    /// Registers the loop reads (from before it or from itself) and writes: what the register allocator must
    /// keep apart, since the body runs many times.
    let reads: [Int]
    let writes: [Int]

    init(body: [Instruction], carried: [(phi: Int, next: Int)], active: Int) {
        self.body = body
        self.carried = carried
        self.active = active
        var reads = Set<Int>(), writes = Set<Int>()
        for i in body {
            for s in i.sources { if let r = s.register { reads.insert(r) } }
            writes.formUnion(i.destinations)
        }
        for (phi, next) in carried { writes.insert(phi); reads.insert(next); reads.insert(phi) }
        reads.insert(active)
        self.reads = reads.sorted()
        self.writes = writes.sorted()
    }
}

struct LinearTerms {
    var rows: [Int]
    var weights: [Float]
    var bias: Float
}

/// One thread's registers and scratch memory.
final class SpanWorkspace {
    let table: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let memory: UnsafeMutablePointer<Float>
    let points: UnsafeMutablePointer<SIMD2<Float>>
    let sampleScratch: UnsafeMutableRawPointer

    init(registers: Int, externals: Int) {
        let width = RowEvaluator.spanWidth
        memory = .allocate(capacity: max(1, registers) * width)
        table = .allocate(capacity: max(1, registers + externals))
        for r in 0..<registers { table[r] = memory + r * width }
        for e in 0..<externals { table[registers + e] = memory }
        points = .allocate(capacity: width)
        sampleScratch = .allocate(byteCount: 12 * width, alignment: 16)
    }

    deinit {
        memory.deallocate(); table.deallocate(); points.deallocate(); sampleScratch.deallocate()
    }
}

/// A program ready to run, with its registers allocated: registers `0..<registerCount` are the workspace's,
/// the next `externalCount` point at rows the caller binds (a colour kernel's input pixels).
final class SpanProgram: @unchecked Sendable {
    let instructions: [Instruction]
    let registerCount: Int
    let externalCount: Int
    /// The returned value's components.
    let results: [Operand]
    /// How far from the pixel being computed each sampler is read (infinity: anywhere), for regions of interest.
    var samplerReach: [Int: Float] = [:]
    private let lock = NSLock()
    private var pool: [SpanWorkspace] = []

    init(instructions: [Instruction], registerCount: Int, externalCount: Int, results: [Operand]) {
        self.instructions = instructions
        self.registerCount = registerCount
        self.externalCount = externalCount
        self.results = results
    }

    /// About how many bytes the program holds while cached: its instructions (those of run-time loops too) and
    /// a workspace of registers for each of the machine's threads, which rendering it fills the pool with.
    var approximateBytes: Int {
        var count = 0
        var pending = [instructions]
        while let list = pending.popLast() {
            count += list.count
            for case .loop(let loop) in list { pending.append(loop.body) }
        }
        let workspace = (max(1, registerCount) * 4 + 12 + 8) * RowEvaluator.spanWidth
        return count * MemoryLayout<Instruction>.stride + workspace * ProcessInfo.processInfo.activeProcessorCount
    }

    /// A workspace for this thread: taken from the pool (one lock per span of up to 1024 pixels) or made.
    func checkout() -> SpanWorkspace {
        lock.withLock { pool.popLast() } ?? SpanWorkspace(registers: registerCount, externals: externalCount)
    }

    func checkin(_ workspace: SpanWorkspace) {
        lock.withLock { pool.append(workspace) }
    }

    /// How many instructions the loops of one run (one span) may execute: past it, the loops stop where they
    /// are and `loopLimitHits` counts the run. A run-time loop with no end thus costs a bounded time (well under
    /// a second a span in a release build); real loops (a 101×101 neighbourhood: some 250,000) stay far below.
    static let maximumLoopWork = 10_000_000

    /// Counts the runs whose loops reached `maximumLoopWork` and were stopped (the kernel's counter).
    var loopHits = LockedCounter(warning: nil)

    /// Runs every instruction over `count` pixels of row `y` from `x0`.
    func run(_ ws: SpanWorkspace, count n: Int, x0: Int, y: Int, samplers: [PixelBuffer]) {
        var budget = Self.maximumLoopWork
        execute(instructions, ws, count: n, x0: x0, y: y, samplers: samplers, budget: &budget)
        if budget < 0 { loopHits.increment() }
    }

    private func execute(_ instructions: [Instruction], _ ws: SpanWorkspace, count n: Int, x0: Int, y: Int,
                         samplers: [PixelBuffer], budget: inout Int) {
        let table = ws.table
        @inline(__always) func arg(_ o: Operand) -> SpanArg {
            switch o {
            case .register(let r): .row(UnsafePointer(table[r]))
            case .constant(let v): .value(v)
            }
        }
        for instruction in instructions {
            switch instruction {
            case .unary(let op, let d, let a):
                SpanOps.unary(op, n, table[d], arg(a))
            case .binary(let op, let d, let a, let b):
                SpanOps.binary(op, n, table[d], arg(a), arg(b))
            case .select(let d, let c, let a, let b):
                SpanOps.select(n, table[d], arg(c), arg(a), arg(b))
            case .multiplyAdd(let d, let a, let b, let c):
                SpanOps.multiplyAdd(n, table[d], arg(a), arg(b), arg(c))
            case .linear(let d, let t):
                SpanOps.linear(n, table[d], table, t)
            case .destinationX(let d):
                let out = table[d], base = Float(x0) + 0.5
                for i in 0..<n { out[i] = base + Float(i) }
            case .destinationY(let d):
                table[d].update(repeating: Float(y) + 0.5, count: n)
            case .sample(let s, let x, let y, let r, let g, let b, let a):
                let out = PlanarRow(r: table[r], g: table[g], b: table[b], a: table[a])
                guard s < samplers.count else { out.fill(Pixel(0, 0, 0, 0), count: n); continue }
                let xy = UnsafeMutableRawPointer(ws.points).assumingMemoryBound(to: Float.self)
                switch arg(x) {
                case .row(let p): for i in 0..<n { xy[2 * i] = p[i] }
                case .value(let v): for i in 0..<n { xy[2 * i] = v }
                }
                switch arg(y) {
                case .row(let p): for i in 0..<n { xy[2 * i + 1] = p[i] }
                case .value(let v): for i in 0..<n { xy[2 * i + 1] = v }
                }
                samplers[s].sampleLinear(ws.points, count: n, into: out, scratch: ws.sampleScratch)
            case .loop(let l):
                while budget >= 0 {
                    let active = UnsafePointer(table[l.active])
                    var any = false
                    for i in 0..<n where active[i] != 0 { any = true; break }
                    if !any { break }
                    budget -= l.body.count + l.carried.count
                    if budget < 0 { break }
                    execute(l.body, ws, count: n, x0: x0, y: y, samplers: samplers, budget: &budget)
                    for (phi, next) in l.carried { table[phi].update(from: table[next], count: n) }
                }
            }
        }
    }

    /// Copies the result's four components into `row` (a constant fills its channel).
    func writeResults(_ ws: SpanWorkspace, count n: Int, into row: PlanarRow) {
        for c in 0..<4 {
            let destination = c == 0 ? row.r : c == 1 ? row.g : c == 2 ? row.b : row.a
            switch results[c] {
            case .register(let r):
                let source = ws.table[r]
                if source != destination { destination.update(from: source, count: n) }
            case .constant(let v):
                destination.update(repeating: v, count: n)
            }
        }
    }

    /// The value of a result component for pixel `i` (after `run`).
    @inline(__always) func result(_ ws: SpanWorkspace, _ c: Int) -> SpanArg {
        switch results[c] {
        case .register(let r): .row(UnsafePointer(ws.table[r]))
        case .constant(let v): .value(v)
        }
    }
}

/// A count shared by the render threads, with a warning written to standard error the first time.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private let warning: String?

    init(warning: String?) { self.warning = warning }

    var value: Int { lock.withLock { count } }

    func increment() {
        let first = lock.withLock { count += 1; return count == 1 }
        if first, let warning { FileHandle.standardError.write(Data((warning + "\n").utf8)) }
    }
}

enum SpanArg {
    case row(UnsafePointer<Float>)
    case value(Float)
}

/// The loops behind each instruction. Also used with one pixel to fold constants, so that a value computed while
/// compiling equals the one computed while rendering.
enum SpanOps {
    @inline(__always)
    private static func map1(_ n: Int, _ d: UnsafeMutablePointer<Float>, _ a: SpanArg, _ f: (Float) -> Float) {
        switch a {
        case .row(let x): for i in 0..<n { d[i] = f(x[i]) }
        case .value(let v): d.update(repeating: f(v), count: n)
        }
    }

    @inline(__always)
    private static func map2(_ n: Int, _ d: UnsafeMutablePointer<Float>, _ a: SpanArg, _ b: SpanArg,
                             _ f: (Float, Float) -> Float) {
        switch (a, b) {
        case let (.row(x), .row(y)): for i in 0..<n { d[i] = f(x[i], y[i]) }
        case let (.row(x), .value(v)): for i in 0..<n { d[i] = f(x[i], v) }
        case let (.value(u), .row(y)): for i in 0..<n { d[i] = f(u, y[i]) }
        case let (.value(u), .value(v)): d.update(repeating: f(u, v), count: n)
        }
    }

    static func unary(_ op: UnaryOp, _ n: Int, _ d: UnsafeMutablePointer<Float>, _ a: SpanArg) {
        switch op {
        case .negate: map1(n, d, a) { -$0 }
        case .abs: map1(n, d, a) { Swift.abs($0) }
        case .sign: map1(n, d, a) { $0 > 0 ? 1 : ($0 < 0 ? -1 : 0) }
        case .floor: map1(n, d, a) { $0.rounded(.down) }
        case .ceil: map1(n, d, a) { $0.rounded(.up) }
        case .fract: map1(n, d, a) { $0 - $0.rounded(.down) }
        case .trunc: map1(n, d, a) { $0.rounded(.towardZero) }
        case .round: map1(n, d, a) { $0.rounded(.toNearestOrAwayFromZero) }
        case .sqrt: map1(n, d, a) { $0.squareRoot() }
        case .rsqrt: map1(n, d, a) { 1 / $0.squareRoot() }
        case .reciprocal: map1(n, d, a) { 1 / $0 }
        case .exp: map1(n, d, a) { Foundation.exp($0) }
        case .exp2: map1(n, d, a) { Foundation.exp2($0) }
        case .log: map1(n, d, a) { Foundation.log($0) }
        case .log2: map1(n, d, a) { Foundation.log2($0) }
        // Sine and cosine in plain arithmetic that vectorises (within 1e-7 for moderate arguments).
        case .sin: map1(n, d, a) { FastTrig.sinCos($0).sin }
        case .cos: map1(n, d, a) { FastTrig.sinCos($0).cos }
        case .tan: map1(n, d, a) { Foundation.tan($0) }
        case .asin: map1(n, d, a) { Foundation.asin($0) }
        case .acos: map1(n, d, a) { Foundation.acos($0) }
        case .atan: map1(n, d, a) { Foundation.atan($0) }
        case .not: map1(n, d, a) { $0 == 0 ? 1 : 0 }
        case .copy: map1(n, d, a) { $0 }
        case .alphaReciprocal: map1(n, d, a) { $0 > 0 ? 1 / $0 : 1 }
        }
    }

    static func binary(_ op: BinaryOp, _ n: Int, _ d: UnsafeMutablePointer<Float>, _ a: SpanArg, _ b: SpanArg) {
        switch op {
        case .add: map2(n, d, a, b) { $0 + $1 }
        case .sub: map2(n, d, a, b) { $0 - $1 }
        case .mul: map2(n, d, a, b) { $0 * $1 }
        case .div: map2(n, d, a, b) { $0 / $1 }
        case .min: map2(n, d, a, b) { $1 < $0 ? $1 : $0 }
        case .max: map2(n, d, a, b) { $1 > $0 ? $1 : $0 }
        case .pow: map2(n, d, a, b) { Foundation.pow($0, $1) }
        case .atan2: map2(n, d, a, b) { Foundation.atan2($0, $1) }
        case .mod: map2(n, d, a, b) { $0 - $1 * ($0 / $1).rounded(.down) }
        case .less: map2(n, d, a, b) { $0 < $1 ? 1 : 0 }
        case .lessEqual: map2(n, d, a, b) { $0 <= $1 ? 1 : 0 }
        case .greater: map2(n, d, a, b) { $0 > $1 ? 1 : 0 }
        case .greaterEqual: map2(n, d, a, b) { $0 >= $1 ? 1 : 0 }
        case .equal: map2(n, d, a, b) { $0 == $1 ? 1 : 0 }
        case .notEqual: map2(n, d, a, b) { $0 != $1 ? 1 : 0 }
        // Booleans are exactly 0 or 1.
        case .and: map2(n, d, a, b) { $1 < $0 ? $1 : $0 }
        case .or: map2(n, d, a, b) { $1 > $0 ? $1 : $0 }
        }
    }

    static func select(_ n: Int, _ d: UnsafeMutablePointer<Float>, _ c: SpanArg, _ a: SpanArg, _ b: SpanArg) {
        switch c {
        case .value(let v):
            map1(n, d, v != 0 ? a : b) { $0 }
        case .row(let m):
            switch (a, b) {
            case let (.row(x), .row(y)): for i in 0..<n { d[i] = m[i] != 0 ? x[i] : y[i] }
            case let (.row(x), .value(v)): for i in 0..<n { d[i] = m[i] != 0 ? x[i] : v }
            case let (.value(u), .row(y)): for i in 0..<n { d[i] = m[i] != 0 ? u : y[i] }
            case let (.value(u), .value(v)): for i in 0..<n { d[i] = m[i] != 0 ? u : v }
            }
        }
    }

    static func multiplyAdd(_ n: Int, _ d: UnsafeMutablePointer<Float>, _ a: SpanArg, _ b: SpanArg, _ c: SpanArg) {
        // The common shapes (a matrix row times a vector: row × constant + row) get their own loops.
        switch (a, b, c) {
        case let (.row(x), .value(k), .row(z)): for i in 0..<n { d[i] = x[i] * k + z[i] }
        case let (.row(x), .row(y), .row(z)): for i in 0..<n { d[i] = x[i] * y[i] + z[i] }
        case let (.row(x), .value(k), .value(z)): for i in 0..<n { d[i] = x[i] * k + z }
        default:
            binary(.mul, n, d, a, b)
            binary(.add, n, d, .row(UnsafePointer(d)), c)
        }
    }

    @inline(__always) private static func load(_ p: UnsafeMutablePointer<Float>, _ i: Int) -> SIMD8<Float> {
        UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Float>.self)
    }

    /// Written with explicit 8-wide vectors (loaded before stored), so that it stays vectorised when `d` is one
    /// of its rows (a colour kernel computing a component in place); a plain loop would fall back to scalar code.
    static func linear(_ n: Int, _ d: UnsafeMutablePointer<Float>,
                       _ table: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, _ t: LinearTerms) {
        let bias = t.bias, vbias = SIMD8<Float>(repeating: t.bias)
        let out = UnsafeMutableRawPointer(d)
        var i = 0
        switch t.rows.count {
        case 2:
            let (x, y, a, b) = (table[t.rows[0]], table[t.rows[1]], t.weights[0], t.weights[1])
            let (va, vb) = (SIMD8(repeating: a), SIMD8(repeating: b))
            while i + 8 <= n {
                out.storeBytes(of: load(x, i) * va + load(y, i) * vb + vbias, toByteOffset: 4 * i, as: SIMD8<Float>.self)
                i += 8
            }
            while i < n { d[i] = x[i] * a + y[i] * b + bias; i += 1 }
        case 3:
            let (x, y, z) = (table[t.rows[0]], table[t.rows[1]], table[t.rows[2]])
            let (a, b, c) = (t.weights[0], t.weights[1], t.weights[2])
            let (va, vb, vc) = (SIMD8(repeating: a), SIMD8(repeating: b), SIMD8(repeating: c))
            while i + 8 <= n {
                let v = load(x, i) * va + load(y, i) * vb + load(z, i) * vc + vbias
                out.storeBytes(of: v, toByteOffset: 4 * i, as: SIMD8<Float>.self)
                i += 8
            }
            while i < n { d[i] = x[i] * a + y[i] * b + z[i] * c + bias; i += 1 }
        case 4:
            let (x, y, z, u) = (table[t.rows[0]], table[t.rows[1]], table[t.rows[2]], table[t.rows[3]])
            let (a, b, c, e) = (t.weights[0], t.weights[1], t.weights[2], t.weights[3])
            let (va, vb, vc, ve) = (SIMD8(repeating: a), SIMD8(repeating: b), SIMD8(repeating: c), SIMD8(repeating: e))
            while i + 8 <= n {
                let v = load(x, i) * va + load(y, i) * vb + load(z, i) * vc + load(u, i) * ve + vbias
                out.storeBytes(of: v, toByteOffset: 4 * i, as: SIMD8<Float>.self)
                i += 8
            }
            while i < n { d[i] = x[i] * a + y[i] * b + z[i] * c + u[i] * e + bias; i += 1 }
        default:
            // Many rows (never emitted: `Lowering` keeps at most four): accumulate, reading each row once.
            var sum = [Float](repeating: bias, count: n)
            for (r, a) in zip(t.rows, t.weights) {
                let x = table[r]
                for k in 0..<n { sum[k] += x[k] * a }
            }
            d.update(from: sum, count: n)
        }
    }

    // MARK: Folding

    static func fold(_ op: UnaryOp, _ a: Float) -> Float {
        var out: Float = 0
        withUnsafeMutablePointer(to: &out) { unary(op, 1, $0, .value(a)) }
        return out
    }

    static func fold(_ op: BinaryOp, _ a: Float, _ b: Float) -> Float {
        var out: Float = 0
        withUnsafeMutablePointer(to: &out) { binary(op, 1, $0, .value(a), .value(b)) }
        return out
    }
}
