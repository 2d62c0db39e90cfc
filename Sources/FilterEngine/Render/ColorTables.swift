import CPixelLoops
import Foundation

/// A chain of colour filters over an opaque 8-bit picture (a decoded file, or a video frame's bytes), rendered by
/// tables from its bytes to the output's bytes, never leaving 8 bits: the float path decodes every byte to linear
/// light and encodes it back, which alone costs more than a peer's whole 8-bit colour operation. Three shapes of
/// chain have exact tables:
/// - every kernel per channel (exposure, gamma, a diagonal matrix, tone curves): three tables of 256 bytes, made
///   by running the kernels on the 256 greys; the bytes are the float path's own.
/// - per-channel kernels, then affine ones (colour matrices, CIColorControls), then per-channel ones: each output
///   channel's linear value is a sum of three values, one from each input byte (the per-channel kernels on the
///   greys, times the affine map's column), summed in 16-bit fixed point three channels at once, and the sum
///   indexes the channel's output bytes, made by running the last kernels on greys. With AVX-512 and no kernels
///   after the affine ones, the map is worked out per pixel instead (`Matrix`: each byte's value as a word, the
///   map in integer multiply-adds, each output's byte by steps of its square root, in registers).
/// - as before the last, but then a kernel whose colour is a function of the luminance (CISepiaTone at
///   intensity 1) and any colour kernels: the luminance is summed in the same way and indexes output pixels; with
///   AVX-512 the `Matrix` loop works out the luminance and each channel's byte by steps of its square root where
///   the outputs are opaque and rise a few bytes at most in each of its slices (CISepiaTone).
/// - with AVX-512, per-channel then affine kernels under kernels that scale colour (CIVignette, a multiply by a
///   film grain): the `Matrix` loop times factors kept by the render context (`gain`, `GainFactors`).
/// A table is used only where it gives the float path's bytes within one level on every channel of a sample
/// of 8,192 colours (a 16³ lattice and 4,096 scattered), checked when it is made (well under a millisecond);
/// otherwise the float path renders. A general 3D table was measured no faster than the float path (see
/// docs/performance.md), so other chains keep it.
struct ColorTables {
    enum Lookup: Equatable {
        case channels([UInt8])
        /// The luminance's integer sum indexes a pixel of `entries`; `sums` is followed by its values' bytes.
        case luminance(sums: [UInt64], entries: [UInt32])
        /// Lane c of the integer sum indexes channel c's bytes (`stride` apart; 0 where all channels share them).
        case affine(sums: [UInt64], outputs: [UInt8], stride: Int)
        /// An affine map, or the luminance of one, worked out per pixel (AVX-512 byte permutes): each input byte's
        /// linear value as a 16-bit word, a row's sum of them in 32-bit integers, each output channel's byte by
        /// steps from its row's square root (`Matrix`; `Matrix.value` is that arithmetic in Swift).
        case matrix(Matrix)
    }

    /// Where the picture's bytes come from: a decoded file's memory (kept alive here), or a generator's rows.
    enum Bytes {
        case memory(SourcePixels, UnsafeMutablePointer<UInt8>)
        case rows(ColorKernel.RGBA8Rows)
    }

    let bytes: Bytes
    let lookup: Lookup
    /// The largest difference from the float path on the sample, in levels (0 or 1).
    let sampleError: Int
    /// Where kernels that scale colour (`ColorDependence.gain`: CIVignette, CIMultiplyCompositing) lie between
    /// the chain and the output: the chain's linear colour from `.matrix` times factors before its encode.
    let gain: Gain?

    struct Gain {
        /// The image above the chain with the chain made white: its pixels are the factors (`GainFactors`).
        let factors: Image
        /// What fixes the factors, by which the render context keeps them.
        let key: GainFactors.Key
        /// The chain's kernels, for the check of the largest factor (`largestGain`) and the pixels over it.
        let kernels: [ColorKernel]
    }

    /// The tables for rendering `area` of `image`, or nil where the float path must render it.
    static func make(for image: Image, area: PixelRect, made: Made = ColorTables.made) -> ColorTables? {
        if let (kernels, bytes, _) = chain(under: image, area: area) {
            guard let (lookup, error) = tables(for: kernels, gained: false, made: made) else { return nil }
            return ColorTables(bytes: bytes, lookup: lookup, sampleError: error, gain: nil)
        }
        // The matrix loop's scaling needs AVX-512 (unmeasured elsewhere: the float path renders).
        // Factors that read the picture itself change with it (a video's every frame): not worth keeping.
        guard Matrix.available, let (top, factors) = gainPath(image, area: area), let key = GainFactors.Key(factors),
              let (kernels, bytes, picture) = chain(under: top, area: area), !factors.reads(picture),
              let (lookup, error) = tables(for: kernels, gained: true, made: made) else { return nil }
        return ColorTables(bytes: bytes, lookup: lookup, sampleError: error, gain: Gain(factors: factors, key: key, kernels: kernels))
    }

    /// The colour kernels of a chain from `image` down to opaque 8-bit pixels that cover `area`, in the order they
    /// run, those pixels, and the image that holds them.
    private static func chain(under image: Image, area: PixelRect) -> (kernels: [ColorKernel], bytes: Bytes, picture: Image)? {
        var kernels: [ColorKernel] = []
        var node = image
        while case .color(let kernel, let inputs) = node.kind, inputs.count == 1, kernel.dependence != .general,
              kernel.dependence != .gain {
            guard node.extent == inputs[0].extent else { return nil }
            kernels.append(kernel)
            node = inputs[0]
        }
        guard PixelRect(covering: node.extent).contains(area), node.extent.minX == 0, node.extent.minY == 0 else { return nil }
        let bytes: Bytes
        switch node.kind {
        case .source(let source):
            guard case .rgba8(let memory) = source.storage, source.isOpaque else { return nil }
            bytes = .memory(source, memory)
        case .color(let generator, let inputs) where inputs.isEmpty:
            guard let rows = generator.rgba8Rows else { return nil }
            bytes = .rows(rows)
        default:
            return nil
        }
        return (kernels.reversed(), bytes, node)
    }

    /// The chain's tables (made, or remembered), if they pass the sample check.
    private static func tables(for kernels: [ColorKernel], gained: Bool, made: Made) -> (Lookup, Int)? {
        // Without gains a chain needs a kernel (else the float path's own bytes are the picture's).
        guard gained || !kernels.isEmpty else { return nil }
        return made.tables(for: kernels, gained: gained) {
            guard let lookup = gained ? linearLookup(for: kernels) : lookup(for: kernels) else { return nil }
            let error = sampleError(of: lookup, kernels: kernels)
            let allowed = if case .channels = lookup { 0 } else { 1 }
            return error <= allowed ? (lookup, error) : nil
        }
    }

    /// Under gain kernels, the top of a colour chain over 8-bit pixels that reaches the result through one input
    /// of each, and the image above it with that chain made white (the factors). Up to `depth` gain kernels deep
    /// (a recipe of thousands of vignettes keeps the float path rather than this recursion's stack).
    private static func gainPath(_ image: Image, area: PixelRect, depth: Int = 32) -> (chain: Image, factors: Image)? {
        guard depth > 0, case .color(let kernel, let inputs) = image.kind, kernel.dependence == .gain else { return nil }
        for (k, input) in inputs.enumerated() {
            let found: (chain: Image, factors: Image)?
            if chain(under: input, area: area) != nil {
                found = (input, Image(extent: input.extent, kind: .constant(Pixel(1, 1, 1, 1))))
            } else {
                found = gainPath(input, area: area, depth: depth - 1)
            }
            guard let found else { continue }
            // The result is linear in the chain only if no other input reads it.
            guard !inputs.indices.contains(where: { $0 != k && inputs[$0].reads(found.chain) }) else { return nil }
            var replaced = inputs
            replaced[k] = found.factors
            return (found.chain, Image(extent: image.extent, kind: .color(kernel, replaced)))
        }
        return nil
    }

    /// Tables made for the last few chains, by the chains' kernels (names and parameters, bit for bit): a video's
    /// frames and a benchmark's repeats reuse them; a changed value makes new ones. A chain the check refused is
    /// remembered too.
    static let made = Made()

    final class Made: @unchecked Sendable {
        struct Key: Hashable {
            let names: [String]
            let parameters: [[UInt32]]
            let gained: Bool

            init(_ kernels: [ColorKernel], gained: Bool) {
                names = kernels.map(\.name)
                parameters = kernels.map { $0.parameters.map(\.bitPattern) }
                self.gained = gained
            }
        }

        private let lock = NSLock()
        private var entries: [(key: Key, tables: (Lookup, Int)?)] = []
        /// How many chains were looked for and not found (tests).
        private(set) var misses = 0
        /// Enough for the chains a session alternates between; each holds 260 KB at most (a luminance table's
        /// 65,536 pixels), most under 80 KB.
        static let capacity = 8

        func tables(for kernels: [ColorKernel], gained: Bool = false, make: () -> (Lookup, Int)?) -> (Lookup, Int)? {
            let key = Key(kernels, gained: gained)
            lock.lock()
            if let index = entries.firstIndex(where: { $0.key == key }) {
                let entry = entries.remove(at: index)
                entries.append(entry)
                lock.unlock()
                return entry.tables
            }
            misses += 1
            lock.unlock()
            let tables = make()
            lock.lock()
            defer { lock.unlock() }
            // Another thread may have made the same chain's tables meanwhile: one entry a chain.
            if !entries.contains(where: { $0.key == key }) {
                entries.append((key, tables))
                if entries.count > Self.capacity { entries.removeFirst() }
            }
            return tables
        }
    }

    /// Renders `area` (inside the source) into rows of RGBA8, top row first, as `RenderContext.renderRGBA8` does;
    /// with `factors` (those of `gain` over the area), the matrix's colour times them, and the exceptions' pixels
    /// by the float path's steps.
    func render(area: PixelRect, into base: UnsafeMutablePointer<UInt8>, threads: Int,
                factors: (GainFactors, GainFactors.Exceptions)? = nil) {
        nonisolated(unsafe) let base = base, bytes = bytes
        let lookup = lookup, kernels = gain?.kernels ?? []
        RenderContext.eachBand(area, threads: threads) { band in
            var held: [UInt8] = []
            // A planar row for the exceptions, made at the first.
            var scratch: (row: PlanarRow, memory: UnsafeMutablePointer<Float>)?
            defer { scratch?.memory.deallocate() }
            for y in band.y..<band.maxY {
                let dst = base + (area.maxY - 1 - y) * area.width * 4
                let src: UnsafePointer<UInt8>
                switch bytes {
                case .memory(let source, let memory):
                    src = UnsafePointer(memory + (y * source.width + area.x) * 4)
                case .rows(let rows):
                    // The generator's bytes go to the output row, and the tables work there in place.
                    rows(area.x, y, area.width, dst)
                    src = UnsafePointer(dst)
                }
                guard let (factors, exceptions) = factors, case .matrix(let m) = lookup else {
                    Self.apply(lookup, src, Int32(area.width), dst)
                    continue
                }
                let xs = exceptions.xs[exceptions.rows[y - area.y]..<exceptions.rows[y - area.y + 1]]
                // Their bytes, before the loop overwrites a generator's.
                held.removeAll(keepingCapacity: true)
                for x in xs { held += UnsafeBufferPointer(start: src + 4 * Int(x), count: 4) }
                factors.withRow(y, x0: area.x) { r, g, b in
                    m.apply(src, Int32(area.width), gains: (r, g, b), dst)
                    guard !xs.isEmpty else { return }
                    if scratch == nil { scratch = RowEvaluator.makeRow() }
                    Self.renderExceptions(xs, bytes: &held, kernels: kernels, y: y, gains: (r, g, b), row: scratch!.row, into: dst)
                }
            }
        }
    }

    /// Pixels `xs` of a row (their bytes `bytes`) by the float path's steps in `row`: the chain's kernels on the
    /// decoded bytes, times the factors, encoded, into `dst`.
    private static func renderExceptions(_ xs: ArraySlice<Int32>, bytes: inout [UInt8], kernels: [ColorKernel], y: Int,
                                         gains: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>),
                                         row: PlanarRow, into dst: UnsafeMutablePointer<UInt8>) {
        bytes.withUnsafeMutableBufferPointer { held in
            for start in stride(from: 0, to: xs.count, by: RowEvaluator.spanWidth) {
                let n = min(RowEvaluator.spanWidth, xs.count - start), part = xs.dropFirst(start).prefix(n)
                let pixels = held.baseAddress! + 4 * start
                ColorMath.decodeTable.withUnsafeBufferPointer {
                    pixelloops_decode_srgb8(pixels, Int32(n), $0.baseAddress!, row.r, row.g, row.b, nil)
                }
                row.a.update(repeating: 1, count: n)
                withUnsafeTemporaryAllocation(of: PlanarRow.self, capacity: 1) { others in
                    for kernel in kernels { kernel.body(ColorSpan(out: row, others: others.baseAddress!, x0: 0, y: y, count: n)) }
                }
                for (k, x) in part.enumerated() {
                    row.r[k] *= gains.0[Int(x)]; row.g[k] *= gains.1[Int(x)]; row.b[k] *= gains.2[Int(x)]
                }
                PixelEncoding.encodeSRGB8(row, count: n, into: pixels)
                for (k, x) in part.enumerated() { (dst + 4 * Int(x)).update(from: pixels + 4 * k, count: 4) }
            }
        }
    }

    static func apply(_ lookup: Lookup, _ src: UnsafePointer<UInt8>, _ count: Int32, _ dst: UnsafeMutablePointer<UInt8>) {
        switch lookup {
        case .channels(let tables):
            tables.withUnsafeBufferPointer { pixelloops_table8_channels(src, count, $0.baseAddress!, dst) }
        case .luminance(let sums, let entries):
            sums.withUnsafeBufferPointer { s in
                entries.withUnsafeBufferPointer { pixelloops_table8_luminance(src, count, s.baseAddress!, $0.baseAddress!, dst) }
            }
        case .affine(let sums, let outputs, let stride):
            sums.withUnsafeBufferPointer { s in
                outputs.withUnsafeBufferPointer { pixelloops_table8_affine(src, count, s.baseAddress!, $0.baseAddress!, Int32(stride), dst) }
            }
        case .matrix(let m):
            m.apply(src, count, gains: nil, dst)
        }
    }

    /// The tables of a chain of kernels in the order they run, if it has one of the shapes above: per-channel
    /// kernels, then affine ones, then either per-channel ones or a kernel of the luminance and any colour kernels.
    private static func lookup(for kernels: [ColorKernel]) -> Lookup? {
        let split = kernels.firstIndex { $0.dependence != .perChannel } ?? kernels.count
        if split == kernels.count { return channelTables(kernels).map { .channels($0) } }
        let end = kernels[split...].firstIndex { $0.dependence != .affine } ?? kernels.count
        guard let linear = Linear(prefix: kernels[..<split], affine: kernels[split..<end]) else { return nil }
        if end < kernels.count, case .luminance(let weights) = kernels[end].dependence {
            if let matrix = Matrix(linear, luminance: weights, rest: kernels[end...]) { return .matrix(matrix) }
            return luminanceTables(linear.tables, rest: kernels[end...], weights: weights)
        }
        guard split < end, kernels[end...].allSatisfy({ $0.dependence == .perChannel }) else { return nil }
        if kernels[end...].isEmpty, let matrix = Matrix(linear) { return .matrix(matrix) }
        return affineTables(linear.tables, suffix: kernels[end...])
    }

    /// The largest factor up to `largest` that the matrix's colour can be multiplied by and stay within one level
    /// of the float path's on the sample: 1 (the sample check's), or the largest of 1.5, 2, 3, 4, 6, 8 … that
    /// passes, each checked in turn (the matrix's rounding grows with the factor, in levels, all along the sRGB
    /// curve, so that a factor passes where a larger one does).
    func largestGain(upTo largest: Float) -> Float {
        guard case .matrix(let m) = lookup, let gain, largest > 1 else { return largest }
        let chain = Self.run(gain.kernels[...], on: Self.samplePixels).linear, sample = Self.sampleColours
        let n = sample.count / 4
        var passed: Float = 1
        for factor in [Float(1.5), 2, 3, 4, 6, 8, 12, 16, 24, 32] {
            let g = min(factor, largest)
            let exact = Self.run([], on: chain.map { Pixel($0.x * g, $0.y * g, $0.z * g, 1) }).bytes
            let factors = [Float](repeating: g, count: n)
            var tabled = [UInt8](repeating: 0, count: sample.count)
            factors.withUnsafeBufferPointer { f in
                tabled.withUnsafeMutableBufferPointer {
                    m.apply(sample, Int32(n), gains: (f.baseAddress!, f.baseAddress!, f.baseAddress!), $0.baseAddress!)
                }
            }
            guard zip(exact, tabled).allSatisfy({ abs(Int($0) - Int($1)) <= 1 }) else { break }
            passed = g
            if g == largest { break }
        }
        return passed
    }

    /// A chain of per-channel kernels, then affine ones, as the matrix loop's linear colour (scaled by gains
    /// before its encode).
    private static func linearLookup(for kernels: [ColorKernel]) -> Lookup? {
        let split = kernels.firstIndex { $0.dependence != .perChannel } ?? kernels.count
        guard kernels[split...].allSatisfy({ $0.dependence == .affine }),
              let linear = Linear(prefix: kernels[..<split], affine: kernels[split...]), let matrix = Matrix(linear) else { return nil }
        return .matrix(matrix)
    }

    /// The linear colour after `prefix` (per channel kernels, on each byte's grey) and `affine` (a map of those
    /// values, from its outputs at black and the three primaries).
    struct Linear {
        /// The per-channel kernels' output for each byte (channel j of entry k: input channel j's value at byte k).
        let channels: [Pixel]
        /// Output channel c is Σ columns[j][c] · value j + offset[c].
        let columns: [SIMD3<Float>]
        let offset: SIMD3<Float>

        init?(prefix: ArraySlice<ColorKernel>, affine: ArraySlice<ColorKernel>) {
            (channels, _) = run(prefix, on: greys)
            guard channels.allSatisfy({ $0.w == 1 }) else { return nil }
            // Without affine kernels the identity (columns of 1 and 0, offset 0): the sums are the per-channel
            // values bit for bit. The probes must stay opaque.
            let probes = run(affine, on: [Pixel(0, 0, 0, 1), Pixel(1, 0, 0, 1), Pixel(0, 1, 0, 1), Pixel(0, 0, 1, 1)]).linear
            guard probes.allSatisfy({ $0.w == 1 }) else { return nil }
            let black = SIMD3(probes[0].x, probes[0].y, probes[0].z)
            offset = black
            columns = (1...3).map { SIMD3(probes[$0].x, probes[$0].y, probes[$0].z) - black }
        }

        /// Output channel c as a sum over the input's three bytes: `tables[768c + 256j + byte j]` summed over j,
        /// the offset in red's part.
        var tables: [Float] {
            var tables = [Float](repeating: 0, count: 9 * 256)
            for c in 0..<3 {
                for j in 0..<3 {
                    for k in 0..<256 { tables[768 * c + 256 * j + k] = columns[j][c] * channels[k][j] + (j == 0 ? offset[c] : 0) }
                }
            }
            return tables
        }
    }

    /// An affine map in 32-bit integers for the AVX-512 matrix loop: the per-channel values in 16-bit words at
    /// 2^a a unit (a up to 14: 16384 steps a unit, 0.2 of a level at the sRGB curve's toe), the coefficients
    /// and offsets in 16-bit words at 2^b a unit with b up to 14 and |coefficient| ≤ 16383, so that four
    /// products sum within 32 bits; the sum is the value at 2^(a + b) a unit, whose float conversion scales by
    /// its exponent alone. Each output channel's byte comes from its sum's square root by steps: the sRGB encode
    /// for an affine chain (three sums), or the outputs of a luminance kernel and the kernels after it for one
    /// sum, the luminance (CISepiaTone). Nil where the values span more than 32767 steps at 2^0, where the steps
    /// cannot stand for the outputs, or without the loop.
    struct Matrix: Equatable {
        let words: [UInt64]
        /// Four a row (the three inputs' and the offset's): three rows, or the luminance's one.
        let coefficients: [Int16]
        /// The word that stands for 1 (2^a), multiplied by the offsets.
        let one: Int
        let exponent: Int
        /// What the loop multiplies a sum's square root by for its index (PIXELLOOPS_STEP_TOP + 1 at the largest
        /// value the steps stand for).
        let rootScale: Float
        /// Each output channel's steps (`ColorMath.steps`), one after the other, and the most thresholds a slice of
        /// them has.
        let steps: [UInt8]
        let stepCount: Int

        /// Whether the loop runs here: AVX-512 byte permutes (where it beats the tables' sums) and the encode's steps.
        static var available: Bool { pixelloops_has_byte_permutes() != 0 && rootSteps != nil }

        /// The steps of a channel of the loop.
        static func steps(of byte: (Int) -> Int) -> (steps: [UInt8], count: Int)? {
            ColorMath.steps(thresholds: Int(PIXELLOOPS_ROOT_STEPS), of: byte)
        }

        /// The sRGB encode by square roots: a linear value's root in 2^15 steps (PIXELLOOPS_STEP_TOP + 1 at 1) as
        /// the index, each index's byte the encode of its root squared, so that the steps stand within 2^−15 of
        /// the root (under a hundredth of a level) for the float path's encode; three rises or fewer a slice,
        /// where the float's bits (a slice an eighth of an octave) need ten.
        static let rootSteps = steps { index in
            let root = Float(index) / Float(PIXELLOOPS_STEP_TOP + 1)
            return Int((ColorMath.sRGB(fromLinear: min(root * root, 1)) * 255).rounded())
        }

        /// An affine chain: its three output channels.
        init?(_ linear: Linear) {
            guard Self.available, let (steps, count) = Self.rootSteps else { return nil }
            let rows = (0..<3).map { c in (0..<3).map { linear.columns[$0][c] } + [linear.offset[c]] }
            guard let parts = Self.parts(linear.channels, rows) else { return nil }
            (words, coefficients, one, exponent) = parts
            rootScale = Float(Double(PIXELLOOPS_STEP_TOP + 1) * pow(2, -Double(exponent) / 2))
            self.steps = steps + steps + steps
            stepCount = count
        }

        /// An affine chain, then a kernel of its luminance (`weights`) and any colour kernels (`rest`): one sum,
        /// whose root from 0 to the largest luminance indexes each output channel's steps. Nil where the luminance
        /// can be negative, where the outputs are not opaque, or where they fall or rise more than the steps hold
        /// within a slice.
        init?(_ linear: Linear, luminance weights: SIMD3<Float>, rest: ArraySlice<ColorKernel>) {
            guard Self.available else { return nil }
            let row = (0..<3).map { j in (0..<3).reduce(Float(0)) { $0 + weights[$1] * linear.columns[j][$1] } }
            let offset = (0..<3).reduce(Float(0)) { $0 + weights[$1] * linear.offset[$1] }
            let ends = (0..<3).map { j in linear.channels.map { row[j] * $0[j] } }
            let lowest = ends.reduce(offset) { $0 + $1.min()! }, largest = ends.reduce(offset) { $0 + $1.max()! }
            // A largest sum of a unit at least keeps the root's scale within the three rows' (no root of a sum under
            // 2^31 passes 2^31 as an integer).
            guard lowest >= 0, largest.isFinite, let parts = Self.parts(linear.channels, [row + [offset]]),
                  Double(largest) * pow(2, Double(parts.3)) >= 1 else { return nil }
            let top = Int(PIXELLOOPS_STEP_TOP) + 1
            let outputs = greyOutputs(rest, count: top) { Float(Double(largest) * pow(Double($0) / Double(top), 2)) }
            guard outputs.allSatisfy({ $0 >> 24 == 255 }) else { return nil }
            var steps: [UInt8] = [], count = 0
            for c in 0..<3 {
                guard let channel = Self.steps(of: { Int(outputs[$0] >> (8 * c) & 255) }) else { return nil }
                steps += channel.steps
                count = max(count, channel.count)
            }
            (words, coefficients, one, exponent) = parts
            rootScale = Float(Double(top) * (pow(2, -Double(exponent)) / Double(largest)).squareRoot())
            self.steps = steps
            stepCount = count
        }

        /// The input words, coefficient rows, the word for 1 and the sum's exponent (`a + b`).
        private static func parts(_ channels: [Pixel], _ rows: [[Float]]) -> ([UInt64], [Int16], Int, Int)? {
            let values = channels.flatMap { [$0.x, $0.y, $0.z] }
            guard let a = bits(for: values, limit: 32767), let b = bits(for: rows.flatMap { $0 }, limit: 16383) else { return nil }
            let scaleA = Float(1 << a), scaleB = Float(1 << b)
            let words = (0..<3).flatMap { j in
                ColorTables.byteTables(channels.map { UInt16(bitPattern: Int16(($0[j] * scaleA).rounded())) })
            }
            return (words, rows.flatMap { $0.map { Int16(($0 * scaleB).rounded()) } }, 1 << a, a + b)
        }

        /// The loop over `count` pixels; with `gains` (three rows only), each output channel times that plane's
        /// factor first.
        func apply(_ src: UnsafePointer<UInt8>, _ count: Int32,
                   gains: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>)?, _ dst: UnsafeMutablePointer<UInt8>) {
            words.withUnsafeBufferPointer { w in
                coefficients.withUnsafeBufferPointer { c in
                    steps.withUnsafeBufferPointer { steps in
                        pixelloops_table8_matrix(src, count, w.baseAddress!, c.baseAddress!, Int32(c.count / 4), Int32(one), rootScale,
                                                 gains?.0, gains?.1, gains?.2, steps.baseAddress!, Int32(stepCount), dst)
                    }
                }
            }
        }

        /// The most fraction bits (up to 14) that keep every value's magnitude within `limit`.
        private static func bits(for values: [Float], limit: Float) -> Int? {
            guard values.allSatisfy(\.isFinite) else { return nil }
            let largest = values.map(abs).max() ?? 0
            return (0...14).last { largest * Float(1 << $0) <= limit }
        }

        /// Row r's value for input bytes, times `gain` (the loop's arithmetic: exact integers, one rounding to
        /// float, the product, an exact scaling by a power of two).
        func value(_ r: Int, _ bytes: (Int, Int, Int), gain: Float = 1) -> Float {
            let part = { (j: Int, k: Int) -> Int32 in
                let low = UInt8(truncatingIfNeeded: words[64 * j + k / 8] >> (8 * (k % 8)))
                let high = UInt8(truncatingIfNeeded: words[64 * j + 32 + k / 8] >> (8 * (k % 8)))
                return Int32(Int16(bitPattern: UInt16(high) << 8 | UInt16(low)))
            }
            let m = coefficients[(4 * r)..<(4 * r + 4)].map { Int32($0) }
            let sum = m[0] * part(0, bytes.0) + m[1] * part(1, bytes.1) + m[2] * part(2, bytes.2) + m[3] * Int32(one)
            return Float(sum) * gain * Float(sign: .plus, exponent: -exponent, significand: 1)
        }

        /// Output channel c's byte for its row's `value` by an exact square root (the loop's estimate of it may
        /// give the byte of a root 2^−14 away, relative).
        func byte(_ c: Int, _ value: Float) -> UInt8 {
            let sum = value * Float(sign: .plus, exponent: exponent, significand: 1)
            let top = Float(PIXELLOOPS_STEP_TOP), root = sum > 0 ? sum.squareRoot() * rootScale : 0
            return Self.byte(steps[(steps.count / 3 * c)...], index: root >= top ? Int(top) : Int(root.rounded(.toNearestOrEven)))
        }

        /// The byte of `index` (0…PIXELLOOPS_STEP_TOP) by `steps`.
        static func byte(_ steps: ArraySlice<UInt8>, index: Int) -> UInt8 {
            let at = steps.startIndex, slice = index >> 8
            return steps[at + slice] + UInt8((1...Int(PIXELLOOPS_ROOT_STEPS)).count { index & 255 > steps[at + 128 * $0 + slice] })
        }
    }

    /// Red's, green's and blue's 256 output bytes: the kernels run on the 256 greys, whose alpha must stay 255.
    private static func channelTables(_ kernels: [ColorKernel]) -> [UInt8]? {
        let (_, bytes) = run(kernels[...], on: greys)
        guard (0..<256).allSatisfy({ bytes[4 * $0 + 3] == 255 }) else { return nil }
        return (0..<3).flatMap { c in (0..<256).map { bytes[4 * $0 + c] } }
    }

    /// The tables of an affine chain: each output channel's sum, and the outputs of the per-channel `suffix`.
    private static func affineTables(_ linear: [Float], suffix: ArraySlice<ColorKernel>) -> Lookup? {
        let lanes = (0..<3).map { Array(linear[(768 * $0)..<(768 * $0 + 768)]) }
        guard let (sums, entries) = integerSums(of: lanes, outputs: suffix) else { return nil }
        // Planes of bytes; without a suffix a grey's three channels are one encoding, and one plane keeps it in
        // the L1 cache.
        let planes = (0..<(suffix.isEmpty ? 1 : 3)).flatMap { c in entries.map { UInt8(truncatingIfNeeded: $0 >> (8 * c)) } }
        return .affine(sums: sums, outputs: planes, stride: suffix.isEmpty ? 0 : entries.count)
    }

    /// The luminance as a sum over the three input bytes, and the outputs of `rest` on greys.
    private static func luminanceTables(_ linear: [Float], rest: ArraySlice<ColorKernel>, weights: SIMD3<Float>) -> Lookup? {
        let weighted = (0..<768).map { i in
            // The kernel's sum, (r·wr + g·wg) + b·wb, of the linear colour's parts from this input byte.
            linear[i] * weights.x + linear[768 + i] * weights.y + linear[1536 + i] * weights.z
        }
        guard let (sums, entries) = integerSums(of: [weighted], outputs: rest) else { return nil }
        return .luminance(sums: sums + splitBytes(sums, lanes: 1), entries: entries)
    }

    /// The first `lanes` lanes of `sums` for AVX-512 byte permutes: for each lane, each input channel's 256 values
    /// as `byteTables`.
    private static func splitBytes(_ sums: [UInt64], lanes: Int) -> [UInt64] {
        (0..<lanes).flatMap { lane in
            (0..<3).flatMap { j in
                byteTables((0..<256).map { UInt16(truncatingIfNeeded: sums[256 * j + $0] >> (16 * lane)) })
            }
        }
    }

    /// 16-bit values as the two byte tables AVX-512 byte permutes look up (the values' low bytes, then their
    /// high bytes), packed in words (`CPixelLoops/simd512.h`, `lookup_bytes`).
    static func byteTables(_ values: [UInt16]) -> [UInt64] {
        let bytes = values.map { UInt8(truncatingIfNeeded: $0) } + values.map { UInt8(truncatingIfNeeded: $0 >> 8) }
        return stride(from: 0, to: bytes.count, by: 8).map { i in
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[i + $1]) << (8 * $1) }
        }
    }

    /// Values that are sums over the three input bytes (`lanes[l][256j + k]` for input channel j's byte k), in
    /// 16-bit fixed point: lane l of `sums[256j + k]` (bits 16l…16l + 15) is the value times a scale, rounded,
    /// plus an offset for channel j that keeps every lane at or over 0, so three adds make every lane's sum at
    /// once. `entries[i]` is the RGBA8 output of `kernels` on the grey whose value has the sum i. The scale is
    /// 16384 steps a unit of linear light (0.2 of a level at the sRGB curve's toe) where the sums' range allows,
    /// fewer where it spans over 4 units, as the sample check then decides.
    private static func integerSums(of lanes: [[Float]], outputs kernels: ArraySlice<ColorKernel>)
        -> (sums: [UInt64], entries: [UInt32])? {
        guard lanes.allSatisfy({ $0.allSatisfy(\.isFinite) }) else { return nil }
        func part(_ lane: [Float], _ j: Int) -> ArraySlice<Float> { lane[(256 * j)..<(256 * j + 256)] }
        let lows = (0..<3).map { j in min(0, lanes.map { part($0, j).min()! }.min()!) }
        let reach = lanes.map { lane in (0..<3).reduce(Float(0)) { $0 + part(lane, $1).max()! - lows[$1] } }.max()!
        guard reach.isFinite else { return nil }
        let scale = min(16384, 65000 / max(reach, 1e-30))
        let offsets = lows.map { Int((-$0 * scale).rounded(.up)) }
        var sums = [UInt64](repeating: 0, count: 768), top = 0
        for (l, lane) in lanes.enumerated() {
            var laneTop = 0
            for j in 0..<3 {
                let steps = part(lane, j).map { Int(($0 * scale).rounded()) + offsets[j] }
                for (k, step) in steps.enumerated() { sums[256 * j + k] |= UInt64(step) << (16 * l) }
                laneTop += steps.max()!
            }
            top = max(top, laneTop)
        }
        guard top <= 65535 else { return nil }
        let offset = Float(offsets.reduce(0, +)), inverse = 1 / scale
        return (sums, greyOutputs(kernels, count: top + 1) { (Float($0) - offset) * inverse })
    }

    /// The largest difference, in levels, between the tables and the float path over the sample colours.
    private static func sampleError(of lookup: Lookup, kernels: [ColorKernel]) -> Int {
        let sample = sampleColours
        let exact = run(kernels[...], on: samplePixels).bytes
        var tabled = [UInt8](repeating: 0, count: sample.count)
        sample.withUnsafeBufferPointer { src in
            tabled.withUnsafeMutableBufferPointer { apply(lookup, src.baseAddress!, Int32(sample.count / 4), $0.baseAddress!) }
        }
        var worst = 0
        for i in 0..<sample.count { worst = max(worst, abs(Int(exact[i]) - Int(tabled[i]))) }
        return worst
    }

    /// The 256 bytes as greys decoded to the working space.
    static let greys = ColorMath.decodeTable.map { Pixel($0, $0, $0, 1) }

    /// The sample colours decoded to the working space.
    static let samplePixels: [Pixel] = {
        let decode = ColorMath.decodeTable, sample = sampleColours
        return (0..<sample.count / 4).map {
            Pixel(decode[Int(sample[4 * $0])], decode[Int(sample[4 * $0 + 1])], decode[Int(sample[4 * $0 + 2])], 1)
        }
    }()

    /// A 16³ lattice of the byte cube (0, 17 … 255) and 4,096 colours scattered by a fixed generator, as RGBA8.
    static let sampleColours: [UInt8] = {
        var bytes: [UInt8] = []
        for r in stride(from: 0, through: 255, by: 17) {
            for g in stride(from: 0, through: 255, by: 17) {
                for b in stride(from: 0, through: 255, by: 17) { bytes += [UInt8(r), UInt8(g), UInt8(b), 255] }
            }
        }
        var state: UInt32 = 0x9E37_79B9
        for _ in 0..<4096 {
            state = state &* 1_664_525 &+ 1_013_904_223
            bytes += [UInt8(state >> 24), UInt8(state >> 16 & 0xff), UInt8(state >> 8 & 0xff), 255]
        }
        return bytes
    }()

    /// The RGBA8 outputs of the kernels in order on `count` opaque greys, grey i of value `value(i)`.
    static func greyOutputs(_ kernels: ArraySlice<ColorKernel>, count n: Int, value: (Int) -> Float) -> [UInt32] {
        var words = [UInt32](repeating: 0, count: n)
        let planes = UnsafeMutablePointer<Float>.allocate(capacity: 4 * RowEvaluator.spanWidth)
        let others = UnsafeMutablePointer<PlanarRow>.allocate(capacity: 1)
        defer { planes.deallocate(); others.deallocate() }
        words.withUnsafeMutableBytes { out in
            for start in stride(from: 0, to: n, by: RowEvaluator.spanWidth) {
                let count = min(RowEvaluator.spanWidth, n - start)
                let row = PlanarRow(base: planes, stride: count)
                for i in 0..<count {
                    let v = value(start + i)
                    row.r[i] = v; row.g[i] = v; row.b[i] = v; row.a[i] = 1
                }
                for kernel in kernels { kernel.body(ColorSpan(out: row, others: others, x0: 0, y: 0, count: count)) }
                PixelEncoding.encodeSRGB8(row, count: count, into: out.baseAddress!.assumingMemoryBound(to: UInt8.self) + 4 * start)
            }
        }
        return words
    }

    /// The kernels in order on `pixels` (opaque, linear, none of them place-dependent): the resulting pixels and
    /// their RGBA8 bytes as a render writes them.
    static func run(_ kernels: ArraySlice<ColorKernel>, on pixels: [Pixel]) -> (linear: [Pixel], bytes: [UInt8]) {
        let n = pixels.count
        var linear = pixels
        var bytes = [UInt8](repeating: 0, count: 4 * n)
        let planes = UnsafeMutablePointer<Float>.allocate(capacity: 4 * RowEvaluator.spanWidth)
        let others = UnsafeMutablePointer<PlanarRow>.allocate(capacity: 1)
        defer { planes.deallocate(); others.deallocate() }
        for start in stride(from: 0, to: n, by: RowEvaluator.spanWidth) {
            let count = min(RowEvaluator.spanWidth, n - start)
            let row = PlanarRow(base: planes, stride: count)
            for i in 0..<count { row[i] = linear[start + i] }
            for kernel in kernels { kernel.body(ColorSpan(out: row, others: others, x0: 0, y: 0, count: count)) }
            for i in 0..<count { linear[start + i] = row[i] }
            bytes.withUnsafeMutableBufferPointer { PixelEncoding.encodeSRGB8(row, count: count, into: $0.baseAddress! + 4 * start) }
        }
        return (linear, bytes)
    }
}
