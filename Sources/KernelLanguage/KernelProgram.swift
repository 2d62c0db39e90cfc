import FilterEngine
import Foundation

// The public face of the kernel language: compile a source once, then apply its kernels to images.
//
// Pipeline: `Lexer` → `Parser` (syntax tree) → `TypeChecker` (names, overloads, built-ins; all errors with line
// and column) once per source; then, per distinct set of argument values, `Lowering` folds the arguments in,
// unrolls loops and turns branches into masks, giving a `SpanProgram`: straight-line instructions, each one
// vectorised loop over a span of up to 1024 pixels held in planar float registers.
//
// The language covered: several `kernel` routines and helper functions (overloads, prototypes, inlined; no
// recursion) per source, top-level constants; the preprocessor (`#define` with and without arguments, `#undef`,
// `#if` `#ifdef` `#ifndef` `#elif` `#else` `#endif` with `defined`, `#error`); types float, int, bool, vec2–4,
// bvec2–4, mat2–4, sampler (`__table sampler`), `__sample`, `__color`, and arrays of them (`float w[9]`,
// `float[3](…)`, `{…}` initialisers, constant or computed indices, array parameters of helpers); swizzles
// (xyzw, rgba, stpq) read and written, indexing of vectors and matrix columns; + − × ÷ with GLSL's shapes
// (scalar broadcast, matrix × vector, vector × matrix, matrix × matrix), comparisons, == !=, && || ^^ !, ?:,
// = += −= *= /=, ++ −−; if/else, for, while, do-while, break, continue, return anywhere, loops whose end
// depends on pixels; the GLSL built-ins radians degrees sin cos tan asin acos atan (1 and 2 arguments) pow exp
// exp2 log log2 sqrt inversesqrt abs sign floor ceil fract trunc round mod min max clamp mix step smoothstep
// length distance dot cross normalize faceforward reflect refract lessThan lessThanEqual greaterThan
// greaterThanEqual equal notEqual any all not matrixCompMult, and Core Image's compare sin_ cos_ tan_ sincos
// sincos_ cossin cossin_ premultiply unpremultiply destCoord sample samplerCoord samplerTransform samplerExtent
// samplerOrigin samplerSize.
//
// Loops: a loop whose bounds are constants or arguments is unrolled (up to `Lowering`'s budget); the rest, and a
// loop whose end depends on pixels, runs when rendering within `SpanProgram.maximumLoopWork`. A computed index
// outside an array (or vector or matrix) is clamped to its first or last element, for reads and writes.
// Compile work is bounded: inlined size and call depth (`TypeChecker`), unrolling and lowering steps
// (`Lowering`), macro expansion (`Preprocessor`).
//
// Not supported, with a clear error: Metal kernels; structs, arrays of arrays, `out`/`inout` parameters,
// `discard`, `switch`, `#include`, the operators # and ## of macros, the bit operators, % and the comma operator;
// ivec types. Differences: && || and ?: evaluate both sides (only a side effect inside them would notice); a
// `for` loop's step also runs for lanes that left an unrolled loop by `break` (visible only in a counter
// declared outside the loop and read after it); sin and cos use the engine's polynomial (1e-7 for moderate
// arguments); sampler space is working space (`samplerTransform` is the identity, `samplerCoord` equals
// `destCoord`), sampling is bilinear.
//
// Premultiplication (Apple's Core Image Kernel Language Reference and the Core Image Programming Guide): kernels
// work in the context's working space, linear and premultiplied. A colour kernel's `__sample` arguments are
// premultiplied pixels and its result is taken as premultiplied; nothing is converted implicitly: a kernel that
// needs straight colour calls `unpremultiply` (which leaves a pixel with alpha 0 unchanged) and `premultiply`
// itself. A `__color` argument is matched to the working space and arrives as a premultiplied vec4.
// `sample` in a general kernel returns premultiplied pixels too, transparent outside the input's extent.

/// A value given to a kernel for one of its parameters.
public enum KernelArgument: Sendable {
    /// For `sampler` and `__sample` parameters.
    case image(Image)
    /// For `float` (and `int`, `bool`) parameters.
    case float(Double)
    /// For `vec2`, `vec3`, `vec4` (and `float`, `mat2/3/4` column-major) parameters: as many values as components.
    case vector([Double])
    /// For `__color` (and `vec4`) parameters: matched to the working space and premultiplied.
    case color(Color)
    case bool(Bool)
}

public struct KernelParameter: Sendable, Equatable {
    public let name: String
    /// As written in the source: `__sample`, `sampler`, `__table sampler`, `__color`, `float`, `vec2`…
    public let type: String
    public var isImage: Bool { type == "__sample" || type.hasSuffix("sampler") }
}

/// A compiled Core Image Kernel Language source: parsed and type-checked once, with one entry per `kernel`.
public final class KernelProgram: @unchecked Sendable {
    public let kernels: [CompiledKernel]

    public init(source: String) throws {
        let checked = try TypeChecker.check(try Parser.parse(source))
        var kernels: [CompiledKernel] = []
        for (index, f) in checked.functions.enumerated() where f.isKernel {
            kernels.append(try CompiledKernel(program: checked, index: index))
        }
        self.kernels = kernels
    }

    public func kernel(named name: String) -> CompiledKernel? { kernels.first { $0.name == name } }
}

public final class CompiledKernel: @unchecked Sendable {
    public enum Kind: String, Sendable {
        /// Returns vec4 from `__sample` inputs (the same pixel of each), uniforms and `destCoord()`.
        case color
        /// Returns vec2: where to sample the input for each output pixel.
        case warp
        /// Returns vec4 from `sampler` inputs read anywhere with `sample`. Applied without a region of
        /// interest (as Core Image's colour kernels are), it runs as a colour kernel when it samples each
        /// sampler only at the pixel being computed, and otherwise works out what it reads.
        case general
    }

    public let name: String
    public let kind: Kind
    public let parameters: [KernelParameter]
    private let program: CheckedProgram
    private let index: Int
    private let loopHits: LockedCounter

    /// How many row segments had their loops stopped by the work limit (`SpanProgram.maximumLoopWork`): a
    /// loop that does not end stops there, with its pixels left as they were, and a message on standard error.
    public var loopLimitHits: Int { loopHits.value }

    init(program: CheckedProgram, index: Int) throws {
        let f = program.functions[index]
        self.program = program
        self.index = index
        name = f.name
        loopHits = LockedCounter(warning: "kernel '\(KernelLanguageError.printable(f.name))': a loop ran past the limit of \(SpanProgram.maximumLoopWork) operations for a row of pixels and was stopped; those pixels are unfinished")
        parameters = f.parameters.map { KernelParameter(name: $0.name, type: $0.spelling) }
        let samplers = f.parameters.contains { $0.type == .sampler }
        let samples = f.parameters.contains { $0.spelling == "__sample" }
        switch f.returnType {
        case .vec(2):
            if samplers || samples {
                throw KernelLanguageError(.type, at: f.position, "the warp kernel '\(f.name)' returns a vec2 and so cannot take images; the image is given when it is applied")
            }
            kind = .warp
        case .vec(4):
            if samplers && samples {
                throw KernelLanguageError(.type, at: f.position, "the kernel '\(f.name)' mixes 'sampler' and '__sample' parameters")
            }
            kind = samplers ? .general : .color
        default:
            throw KernelLanguageError(.type, at: f.position, "a kernel must return vec4 (vec2 for a warp kernel), not \(f.returnType)")
        }
    }

    /// The kernel as an image over `extent`. `image` is a warp kernel's input (nil for the other kinds); `roi`
    /// gives, for an output rectangle, the rectangle of input `index` that a warp or general kernel reads.
    /// Without `roi`, a warp kernel reads its input's whole extent (the output rectangle for an infinite input);
    /// a general kernel that samples its samplers only at the pixel being computed runs as a colour kernel, one
    /// that samples them at fixed offsets reads the output rectangle grown by the largest offset, and one that
    /// samples them anywhere else reads their whole extents (the output rectangle, for an infinite one).
    public func apply(extent: Rect, image: Image? = nil, arguments: [KernelArgument],
                      roi: (@Sendable (Int, Rect) -> Rect)? = nil) throws -> Image {
        guard arguments.count == parameters.count else {
            let list = parameters.map { "\($0.type) \($0.name)" }.joined(separator: ", ")
            throw KernelLanguageError(.argument, "the kernel '\(name)' takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s") (\(list)) but was given \(arguments.count)")
        }
        if kind == .warp && image == nil {
            throw KernelLanguageError(.argument, "the warp kernel '\(name)' needs the image to warp")
        }
        if kind != .warp && image != nil {
            throw KernelLanguageError(.argument, "the \(kind) kernel '\(name)' takes its images among its arguments, not as 'image'")
        }
        var bindings: [KernelBinding] = []
        var images: [Image] = []
        let f = program.functions[index]
        for (i, (parameter, argument)) in zip(f.parameters, arguments).enumerated() {
            func wrong() -> KernelLanguageError {
                KernelLanguageError(.argument, "argument \(i + 1) of '\(name)' ('\(parameter.spelling) \(parameter.name)') cannot take \(describe(argument))")
            }
            if parameter.type == .sampler || parameter.spelling == "__sample" {
                guard case .image(let img) = argument else { throw wrong() }
                bindings.append(parameter.type == .sampler ? .sampler(images.count, img.extent) : .image(images.count))
                images.append(img)
                continue
            }
            let n = parameter.type.components
            var values: [Double]
            switch argument {
            case .image: throw wrong()
            case .float(let v): values = [v]
            case .bool(let b): values = [b ? 1 : 0]
            case .vector(let v): values = v
            case .color(let c):
                let p = c.workingPixel
                values = [Double(p.x), Double(p.y), Double(p.z), Double(p.w)]
            }
            guard values.count == n else { throw wrong() }
            switch parameter.type {
            case .int: values = values.map { $0.rounded(.towardZero) }
            case .bool: values = values.map { $0 != 0 ? 1 : 0 }
            default: break
            }
            bindings.append(.value(values.map { Float($0) }))
        }
        if kind == .general && roi == nil {
            let pixelBindings = bindings.map { b -> KernelBinding in
                if case .sampler(let k, let e) = b { return .pixelSampler(k, e) }
                return b
            }
            do {
                return colorImage(try lowered(pixelBindings, imageCount: images.count), extent: extent, inputs: images)
            } catch is SamplesAwayFromItsPixel {
                let spanProgram = try lowered(bindings, imageCount: 0)
                let reach = spanProgram.samplerReach
                return generalImage(spanProgram, extent: extent, inputs: images) { index, rect in
                    guard let r = reach[index] else { return .zero }   // never sampled
                    // Bilinear sampling at a fractional offset touches the next pixel too.
                    return r.isFinite ? rect.insetBy(dx: -(Double(r.rounded(.up)) + 1), dy: -(Double(r.rounded(.up)) + 1)) : .infinite
                }
            }
        }
        let spanProgram = try lowered(bindings, imageCount: kind == .color ? images.count : 0)
        switch kind {
        case .color:
            return colorImage(spanProgram, extent: extent, inputs: images)
        case .warp:
            return warpImage(spanProgram, extent: extent, input: image!, roi: roi)
        case .general:
            return generalImage(spanProgram, extent: extent, inputs: images, roi: roi)
        }
    }

    private let cacheLock = NSLock()
    private var cache: [[UInt64]: SpanProgram] = [:]
    private var cacheBytes = 0
    /// The programs and bytes in the cache now.
    var cached: (programs: Int, bytes: Int) { cacheLock.withLock { (cache.count, cacheBytes) } }
    /// The most programs and bytes (`SpanProgram.approximateBytes`) the cache of one kernel keeps: when a new
    /// program would pass either, the cache is emptied first; a program larger than the bytes alone is not kept.
    static let cacheLimit = (programs: 32, bytes: 64 << 20)

    /// The span program for these argument values: lowered once per distinct set of values (a filter applied to
    /// every frame of a stream with the same settings lowers once), in a small cache.
    private func lowered(_ bindings: [KernelBinding], imageCount: Int) throws -> SpanProgram {
        var key: [UInt64] = [UInt64(imageCount)]
        for b in bindings {
            switch b {
            case .value(let v): key.append(UInt64(v.count)); key += v.map { UInt64($0.bitPattern) }
            case .image(let k): key += [100, UInt64(k)]
            case .sampler(let k, let e): key += [200, UInt64(k), e.x.bitPattern, e.y.bitPattern, e.width.bitPattern, e.height.bitPattern]
            case .pixelSampler(let k, let e): key += [300, UInt64(k), e.x.bitPattern, e.y.bitPattern, e.width.bitPattern, e.height.bitPattern]
            }
        }
        if let hit = cacheLock.withLock({ cache[key] }) { return hit }
        let made = try Lowering.lower(program, kernel: index, bindings: bindings, imageCount: imageCount)
        made.loopHits = loopHits
        let bytes = made.approximateBytes
        cacheLock.withLock {
            guard bytes <= Self.cacheLimit.bytes else { return }
            if cache.count >= Self.cacheLimit.programs || cacheBytes + bytes > Self.cacheLimit.bytes {
                cache.removeAll()
                cacheBytes = 0
            }
            if let replaced = cache.updateValue(made, forKey: key) { cacheBytes -= replaced.approximateBytes }
            cacheBytes += bytes
        }
        return made
    }

    /// The region an input must provide: the caller's answer, or by default the input's extent. An infinite
    /// region (of an infinite input) becomes the output rectangle, so that a render never tries to fill an
    /// endless buffer; a region with NaN or infinite coordinates (CGRect.null) asks for nothing.
    static func bounded(_ wanted: Rect?, input: Rect, output: Rect) -> Rect {
        guard let wanted else { return input.isInfinite ? output : input }
        guard wanted.x.isFinite, wanted.y.isFinite, wanted.width.isFinite, wanted.height.isFinite else { return .zero }
        if wanted.isInfinite { return input.isInfinite ? output : input }
        return wanted
    }

    private func describe(_ a: KernelArgument) -> String {
        switch a {
        case .image: "an image"
        case .float: "a number"
        case .bool: "a bool"
        case .vector(let v): "a vector of \(v.count) value\(v.count == 1 ? "" : "s")"
        case .color: "a colour"
        }
    }

    private func colorImage(_ program: SpanProgram, extent: Rect, inputs: [Image]) -> Image {
        let imageCount = inputs.count
        return ColorKernel(name: name) { span in
            let ws = program.checkout()
            defer { program.checkin(ws) }
            let base = program.registerCount
            // Registers hold `spanWidth` pixels; the renderer's spans are never longer, but stay safe if they were.
            for start in stride(from: 0, to: span.count, by: RowEvaluator.spanWidth) {
                let n = min(RowEvaluator.spanWidth, span.count - start)
                for k in 0..<imageCount {
                    let row = span.input(k)
                    ws.table[base + 4 * k] = row.r + start
                    ws.table[base + 4 * k + 1] = row.g + start
                    ws.table[base + 4 * k + 2] = row.b + start
                    ws.table[base + 4 * k + 3] = row.a + start
                }
                program.run(ws, count: n, x0: span.x0 + start, y: span.y, samplers: [])
                program.writeResults(ws, count: n, into: span.out.advanced(by: start))
            }
        }.apply(extent: extent, inputs: inputs)
    }

    private func warpImage(_ program: SpanProgram, extent: Rect, input: Image,
                           roi: (@Sendable (Int, Rect) -> Rect)?) -> Image {
        let inputExtent = input.extent
        let kernel = WarpKernel(name: name) { coordinates, x0, y, count in
            let ws = program.checkout()
            defer { program.checkin(ws) }
            for start in stride(from: 0, to: count, by: RowEvaluator.spanWidth) {
                let n = min(RowEvaluator.spanWidth, count - start)
                program.run(ws, count: n, x0: x0 + start, y: y, samplers: [])
                let xy = UnsafeMutableRawPointer(coordinates + start).assumingMemoryBound(to: Float.self)
                for c in 0..<2 {
                    switch program.result(ws, c) {
                    case .row(let p): for i in 0..<n { xy[2 * i + c] = p[i] }
                    case .value(let v): for i in 0..<n { xy[2 * i + c] = v }
                    }
                }
            }
        }
        return kernel.apply(extent: extent, input: input) { rect in
            Self.bounded(roi?(0, rect), input: inputExtent, output: rect)
        }
    }

    private func generalImage(_ program: SpanProgram, extent: Rect, inputs: [Image],
                              roi: (@Sendable (Int, Rect) -> Rect)?) -> Image {
        let extents = inputs.map(\.extent)
        let kernel = GeneralKernel(name: name, roi: { index, rect in
            PixelRect(covering: Self.bounded(roi?(index, rect.rect), input: extents[index], output: rect.rect))
        }) { context in
            let ws = program.checkout()
            defer { program.checkin(ws) }
            let rect = context.rect, output = context.output
            for y in rect.y..<rect.maxY {
                var x = rect.x
                while x < rect.maxX {
                    let n = min(RowEvaluator.spanWidth, rect.maxX - x)
                    program.run(ws, count: n, x0: x, y: y, samplers: context.inputs)
                    let out = UnsafeMutableRawPointer(output.row(y) + (x - output.rect.x)).assumingMemoryBound(to: Float.self)
                    for c in 0..<4 {
                        switch program.result(ws, c) {
                        case .row(let p): for i in 0..<n { out[4 * i + c] = p[i] }
                        case .value(let v): for i in 0..<n { out[4 * i + c] = v }
                        }
                    }
                    x += n
                }
            }
        }
        return kernel.apply(extent: extent, inputs: inputs)
    }
}
