import CPixelLoops
import Foundation

/// A chain of colour filters over an opaque 8-bit picture (a decoded file, or a video frame's bytes), rendered by
/// tables from its bytes to the output's bytes, never leaving 8 bits: the float path decodes every byte to linear
/// light and encodes it back, which alone costs more than a peer's whole 8-bit colour operation. Two shapes of
/// chain have exact tables:
/// - every kernel per channel (exposure, gamma, a diagonal matrix, tone curves): three tables of 256 bytes, made
///   by running the kernels on the 256 greys; the bytes are the float path's own.
/// - per-channel kernels, then one whose colour is a function of the luminance (CISepiaTone at intensity 1),
///   then any colour kernels: the luminance is summed from three tables of 256 weighted floats, and indexes 4096
///   output pixels spaced by its square root (fine near black, where the sRGB curve is steep), made by running
///   the kernels on greys.
/// A table is used only where it gives the float path's bytes within one level on every channel of a sample
/// of 8,192 colours (a 16³ lattice and 4,096 scattered), checked each time it is made (well under a millisecond);
/// otherwise the float path renders. A general 3D table was measured no faster than the float path (see
/// docs/performance.md), so other chains keep it.
struct ColorTables {
    enum Lookup {
        case channels([UInt8])
        case luminance(weighted: [Float], scale: Float, entries: [UInt32])
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

    /// Output entries of a luminance table, less one.
    static let luminanceTop = 4095

    /// The tables for rendering `area` of `image`, or nil where the float path must render it.
    static func make(for image: Image, area: PixelRect) -> ColorTables? {
        var kernels: [ColorKernel] = []
        var node = image
        while case .color(let kernel, let inputs) = node.kind, inputs.count == 1, kernel.dependence != .general {
            guard node.extent == inputs[0].extent else { return nil }
            kernels.append(kernel)
            node = inputs[0]
        }
        guard !kernels.isEmpty, PixelRect(covering: node.extent).contains(area), node.extent.minX == 0,
              node.extent.minY == 0 else { return nil }
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
        kernels.reverse()
        let split = kernels.firstIndex { $0.dependence != .perChannel } ?? kernels.count
        let lookup: Lookup
        if split == kernels.count {
            guard let tables = channelTables(kernels) else { return nil }
            lookup = .channels(tables)
        } else if case .luminance(let weights) = kernels[split].dependence {
            guard let tables = luminanceTables(prefix: kernels[..<split], rest: kernels[split...], weights: weights)
            else { return nil }
            lookup = tables
        } else {
            return nil
        }
        let error = sampleError(of: lookup, kernels: kernels)
        let allowed = if case .channels = lookup { 0 } else { 1 }
        guard error <= allowed else { return nil }
        return ColorTables(bytes: bytes, lookup: lookup, sampleError: error)
    }

    /// Renders `area` (inside the source) into rows of RGBA8, top row first, as `RenderContext.renderRGBA8` does.
    func render(area: PixelRect, into base: UnsafeMutablePointer<UInt8>, threads: Int) {
        nonisolated(unsafe) let base = base, bytes = bytes
        let lookup = lookup
        RenderContext.eachBand(area, threads: threads) { band in
            for y in band.y..<band.maxY {
                let dst = base + (area.maxY - 1 - y) * area.width * 4
                switch bytes {
                case .memory(let source, let memory):
                    Self.apply(lookup, memory + (y * source.width + area.x) * 4, Int32(area.width), dst)
                case .rows(let rows):
                    // The generator's bytes go to the output row, and the tables work there in place.
                    rows(area.x, y, area.width, dst)
                    Self.apply(lookup, dst, Int32(area.width), dst)
                }
            }
        }
    }

    private static func apply(_ lookup: Lookup, _ src: UnsafePointer<UInt8>, _ count: Int32, _ dst: UnsafeMutablePointer<UInt8>) {
        switch lookup {
        case .channels(let tables):
            tables.withUnsafeBufferPointer { pixelloops_table8_channels(src, count, $0.baseAddress!, dst) }
        case .luminance(let weighted, let scale, let entries):
            weighted.withUnsafeBufferPointer { w in
                entries.withUnsafeBufferPointer { e in
                    pixelloops_table8_luminance(src, count, w.baseAddress!, scale, Int32(e.count - 1), e.baseAddress!, dst)
                }
            }
        }
    }

    /// Red's, green's and blue's 256 output bytes: the kernels run on the 256 greys, whose alpha must stay 255.
    private static func channelTables(_ kernels: [ColorKernel]) -> [UInt8]? {
        let greys = ColorMath.decodeTable.map { Pixel($0, $0, $0, 1) }
        let (_, bytes) = run(kernels[...], on: greys)
        guard (0..<256).allSatisfy({ bytes[4 * $0 + 3] == 255 }) else { return nil }
        return (0..<3).flatMap { c in (0..<256).map { bytes[4 * $0 + c] } }
    }

    /// The weighted tables of the per-channel `prefix`'s output, and the output pixels of `rest` on greys of
    /// luminance (k / top)² · Ymax for k = 0…top.
    private static func luminanceTables(prefix: ArraySlice<ColorKernel>, rest: ArraySlice<ColorKernel>,
                                        weights: SIMD3<Float>) -> Lookup? {
        let greys = ColorMath.decodeTable.map { Pixel($0, $0, $0, 1) }
        let (linear, _) = run(prefix, on: greys)
        guard linear.allSatisfy({ $0.w == 1 }) else { return nil }
        let weighted = linear.map { $0.x * weights.x } + linear.map { $0.y * weights.y } + linear.map { $0.z * weights.z }
        guard weighted.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        let top = luminanceTop
        let largest = weighted[0..<256].max()! + weighted[256..<512].max()! + weighted[512..<768].max()!
        guard largest.isFinite else { return nil }
        let samples = (0...top).map { k -> Pixel in
            let y = Float(k * k) / Float(top * top) * largest
            return Pixel(y, y, y, 1)
        }
        let (_, bytes) = run(rest, on: samples)
        let entries = bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        let scale = largest > 0 ? Float(top) / largest.squareRoot() : 0
        return .luminance(weighted: weighted, scale: scale, entries: entries)
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
