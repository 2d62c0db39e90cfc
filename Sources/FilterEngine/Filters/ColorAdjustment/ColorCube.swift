import Foundation

/// CIColorCube, CIColorCubeWithColorSpace and CIColorCubesMixedWithMask: colours remapped through 3-D lookup
/// tables with trilinear interpolation.
///
/// Table layout (Core Image's): dimension³ entries of four float32 (RGBA), red varying fastest, then green,
/// then blue; entry (r, g, b) is the colour for input (r, g, b) / (dimension − 1). Entries are premultiplied
/// (an entry with alpha 0.5 carries half its colour), and the looked-up entry is multiplied by the pixel's own
/// alpha. The input colour is the pixel's straight colour in the working space (CIColorCube) or in the given
/// colour space (the other two), held to [0, 1] unless `inputExtrapolate`, which continues the outermost cells
/// linearly.
extension ColorAdjustmentFilters {
    static func colorCube(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let cube = try ColorCubeTable(inputs, dataKey: "inputCubeData")
        return cube.kernel(space: nil, extrapolate: try inputs.bool("inputExtrapolate"))
            .apply(extent: image.extent, inputs: [image])
    }

    static func colorCubeWithColorSpace(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let cube = try ColorCubeTable(inputs, dataKey: "inputCubeData")
        return cube.kernel(space: try inputs.colorSpace("inputColorSpace"), extrapolate: try inputs.bool("inputExtrapolate"))
            .apply(extent: image.extent, inputs: [image])
    }

    /// Two tables, blended per pixel by the mask's luminance (Rec. 709 weights of its working-space value,
    /// held to [0, 1]): black takes cube 0, white cube 1. Outside the mask's extent, or with no mask, the mask is
    /// black.
    static func colorCubesMixedWithMask(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        // Without a mask, cube 0 applies everywhere (as with an all-black mask).
        let mask = try inputs.has("inputMaskImage") ? try inputs.image("inputMaskImage") : Image(color: .black)
        let cube0 = try ColorCubeTable(inputs, dataKey: "inputCube0Data")
        let cube1 = try ColorCubeTable(inputs, dataKey: "inputCube1Data")
        let space = try inputs.colorSpace("inputColorSpace")
        let extrapolate = try inputs.bool("inputExtrapolate")
        let w = ColorMath.lumaWeights
        return ColorKernel(name: "colorCubesMixedWithMask") { span in
            let p = span.out, n = span.count
            let m = span.input(1)
            // Scratch copies of the straight colour for the second lookup, on the stack for spans of up to 256.
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 5 * n) { scratch in
                let copy = PlanarRow(base: scratch.baseAddress!, stride: n)
                let alpha = scratch.baseAddress! + 4 * n
                alpha.update(from: p.a, count: n)
                SpanColor.unpremultiply(p, n)
                space?.fromWorking(p, n)
                copy.copy(from: p, count: n)
                cube0.lookup(p, n, extrapolate: extrapolate)
                cube1.lookup(copy, n, extrapolate: extrapolate)
                for i in 0..<n {
                    let luma = m.r[i] * w.x + m.g[i] * w.y + m.b[i] * w.z
                    let t: Float = luma > 0 ? (luma < 1 ? luma : 1) : 0
                    p.r[i] += (copy.r[i] - p.r[i]) * t
                    p.g[i] += (copy.g[i] - p.g[i]) * t
                    p.b[i] += (copy.b[i] - p.b[i]) * t
                    p.a[i] += (copy.a[i] - p.a[i]) * t
                }
                if let space {
                    SpanColor.unpremultiply(p, n)
                    space.toWorking(p, n)
                    SpanColor.premultiply(p, n)
                }
                for i in 0..<n {
                    let k = alpha[i]
                    p.r[i] *= k; p.g[i] *= k; p.b[i] *= k; p.a[i] *= k
                }
            }
        }.apply(extent: image.extent, inputs: [image, mask])
    }
}

/// A validated colour cube: dimension and entries as SIMD4 (RGBA), ready for per-pixel lookups.
struct ColorCubeTable: Sendable {
    let dimension: Int
    let entries: [SIMD4<Float>]

    /// The table of `dataKey` at `inputCubeDimension`; the identity table of that dimension when no data is set
    /// (Core Image's default data is the 2×2×2 identity).
    init(_ inputs: FilterInputs, dataKey: String) throws {
        let dimension = try inputs.integer("inputCubeDimension")
        // A table needs 2 entries a side at least; above 128 (macOS's documented maximum; iOS's is 64) the
        // identity default alone would be gigabytes. Core Image has no output for such a cube (not checked on
        // a Mac); here it is a clear error rather than an allocation.
        guard (2...128).contains(dimension) else {
            throw FilterError("\(inputs.descriptor.name).inputCubeDimension = \(dimension): a colour cube has 2…128 entries a side")
        }
        guard let bytes = try inputs.data(dataKey) else {
            self.init(dimension: dimension, floats: try ColorCubeData.floats(ColorCubeData.identity(dimension: dimension), key: dataKey))
            return
        }
        let expected = dimension * dimension * dimension * 16
        guard bytes.count == expected else {
            throw FilterError("\(inputs.descriptor.name).\(dataKey) has \(bytes.count) bytes, but inputCubeDimension \(dimension) needs \(expected) (\(dimension)³ RGBA float32 entries)")
        }
        self.init(dimension: dimension, floats: try ColorCubeData.floats(bytes, key: "\(inputs.descriptor.name).\(dataKey)"))
    }

    init(dimension: Int, floats: [Float]) {
        self.dimension = dimension
        entries = (0..<(floats.count / 4)).map { SIMD4(floats[$0 * 4], floats[$0 * 4 + 1], floats[$0 * 4 + 2], floats[$0 * 4 + 3]) }
    }

    /// Straight colour of a span (in the table's space) → the table's premultiplied entry, trilinearly
    /// interpolated, in place (alpha channel too). The caller multiplies by the pixel's alpha afterwards.
    /// Two passes: cell indices and fractions for the whole span (a plain loop that vectorises), then the
    /// eight corner loads and blends per pixel. Measured on the 2-core dev machine while it was shared
    /// (1080p, 32³ table, `cifiltertest bench --only ColorCube --threads 1`): one loop 61 ms, two passes 57 ms,
    /// against 13 ms for CIColorControls in the same runs; the corner loads dominate.
    @inline(__always) func lookup(_ p: PlanarRow, _ count: Int, extrapolate: Bool) {
        let n = dimension, n2 = dimension * dimension
        let top = Float(n - 1), lastCell = Float(n - 2)
        let (r, g, b, a) = (p.r, p.g, p.b, p.a)
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { cells in
            let cell = cells.baseAddress!
            let (n32, n232) = (Int32(n), Int32(n2))
            // Pass 1: r, g, b become the fractions within the cell; `cell` its first entry.
            for i in 0..<count {
                var x = r[i] * top, y = g[i] * top, z = b[i] * top
                if !extrapolate {
                    // Held to [0, n − 1], written so that NaN goes to 0 (an integer conversion of NaN would trap).
                    x = x > 0 ? (x < top ? x : top) : 0
                    y = y > 0 ? (y < top ? y : top) : 0
                    z = z > 0 ? (z < top ? z : top) : 0
                }
                // The cell's corner: the floor, kept to 0…n − 2 (the top face uses the last cell with t = 1;
                // with extrapolation, beyond the table the outermost cells continue linearly, t outside 0…1).
                let fx = x.rounded(.down), fy = y.rounded(.down), fz = z.rounded(.down)
                let cx: Float = fx > 0 ? (fx < lastCell ? fx : lastCell) : 0
                let cy: Float = fy > 0 ? (fy < lastCell ? fy : lastCell) : 0
                let cz: Float = fz > 0 ? (fz < lastCell ? fz : lastCell) : 0
                r[i] = x - cx; g[i] = y - cy; b[i] = z - cz
                cell[i] = Int32(cx) &+ Int32(cy) &* n32 &+ Int32(cz) &* n232
            }
            // Pass 2: the eight corners, blended along x, then y, then z.
            entries.withUnsafeBufferPointer { table in
                let t = table.baseAddress!
                for i in 0..<count {
                    let tx = r[i], ty = g[i], tz = b[i]
                    let base = t + Int(cell[i])
                    let c000 = base[0], c100 = base[1], c010 = base[n], c110 = base[n &+ 1]
                    let c001 = base[n2], c101 = base[n2 &+ 1], c011 = base[n2 &+ n], c111 = base[n2 &+ n &+ 1]
                    let x00 = c000 + (c100 - c000) * tx, x10 = c010 + (c110 - c010) * tx
                    let x01 = c001 + (c101 - c001) * tx, x11 = c011 + (c111 - c011) * tx
                    let y0 = x00 + (x10 - x00) * ty, y1 = x01 + (x11 - x01) * ty
                    let v = y0 + (y1 - y0) * tz
                    r[i] = v.x; g[i] = v.y; b[i] = v.z; a[i] = v.w
                }
            }
        }
    }

    /// The whole per-pixel operation: straight colour into the table's space, lookup, back, times alpha.
    func kernel(space: NamedColorSpace?, extrapolate: Bool) -> ColorKernel {
        let cube = self
        return ColorKernel(name: "colorCube") { span in
            let p = span.out, n = span.count
            withUnsafeTemporaryAllocation(of: Float.self, capacity: n) { alpha in
                let alpha = alpha.baseAddress!
                alpha.update(from: p.a, count: n)
                SpanColor.unpremultiply(p, n)
                space?.fromWorking(p, n)
                cube.lookup(p, n, extrapolate: extrapolate)
                // Entries are premultiplied: colour is converted back straight, then scaled by the pixel's alpha.
                if let space {
                    SpanColor.unpremultiply(p, n)
                    space.toWorking(p, n)
                    SpanColor.premultiply(p, n)
                }
                let (r, g, b, a) = (p.r, p.g, p.b, p.a)
                for i in 0..<n {
                    let k = alpha[i]
                    r[i] *= k; g[i] *= k; b[i] *= k; a[i] *= k
                }
            }
        }
    }
}

/// Colour cube data for CIColorCube and its relatives: the identity table, ready-made looks, and Adobe .cube
/// LUT files, all as Core Image's bytes (dimension³ RGBA float32 entries, red fastest).
public enum ColorCubeData {
    /// Looks offered as ready-made tables.
    public enum Look: String, CaseIterable, Sendable {
        case identity = "Identity"
        case warm = "Warm"
        case cool = "Cool"
        case highContrast = "High contrast"
        case blackAndWhite = "Black & white"
        case faded = "Faded film"
        case invert = "Invert"
    }

    /// The table mapping every colour to itself.
    public static func identity(dimension: Int) -> [UInt8] {
        make(dimension: dimension) { $0 }
    }

    /// A table from a function on colours in [0, 1]³ (alpha 1).
    public static func make(dimension: Int, _ map: (SIMD3<Float>) -> SIMD3<Float>) -> [UInt8] {
        precondition(dimension >= 2, "a colour cube needs at least 2 entries a side")
        var floats: [Float] = []
        floats.reserveCapacity(dimension * dimension * dimension * 4)
        let top = Float(dimension - 1)
        for b in 0..<dimension {
            for g in 0..<dimension {
                for r in 0..<dimension {
                    let c = map(SIMD3(Float(r) / top, Float(g) / top, Float(b) / top))
                    floats += [c.x, c.y, c.z, 1]
                }
            }
        }
        return bytes(floats)
    }

    /// A look as a table. The look is designed on sRGB-encoded colour (as photo editors show it); `space` is the
    /// space the table will be applied in: the working space (linear, CIColorCube's) by default, or a named one
    /// for CIColorCubeWithColorSpace.
    public static func look(_ look: Look, dimension: Int = 32, space: NamedColorSpace = .linear) -> [UInt8] {
        make(dimension: dimension) { c in
            // Table coordinates are in `space`; the look sees sRGB-encoded values.
            let encoded = NamedColorSpace.sRGB.fromWorking(space.toWorking(c))
            let out = apply(look, encoded)
            return space.fromWorking(NamedColorSpace.sRGB.toWorking(out))
        }
    }

    /// A look on one sRGB-encoded colour.
    static func apply(_ look: Look, _ c: SIMD3<Float>) -> SIMD3<Float> {
        func clamp(_ v: SIMD3<Float>) -> SIMD3<Float> {
            SIMD3(ColorMath.clamp01(v.x), ColorMath.clamp01(v.y), ColorMath.clamp01(v.z))
        }
        let luma = (c * SIMD3(0.2126, 0.7152, 0.0722)).sum()
        switch look {
        case .identity:
            return c
        case .warm:
            return clamp(SIMD3(c.x * 1.08 + 0.02, c.y * 1.02, c.z * 0.88))
        case .cool:
            return clamp(SIMD3(c.x * 0.9, c.y * 1.0 + 0.01, c.z * 1.1 + 0.03))
        case .highContrast:
            // A smoothstep S-curve on each channel, then 20% more saturation.
            let s = c * c * (3 - 2 * c)
            let l = (s * SIMD3(0.2126, 0.7152, 0.0722)).sum()
            return clamp(l + (s - l) * 1.2)
        case .blackAndWhite:
            return SIMD3(repeating: ColorMath.clamp01(luma))
        case .faded:
            // Lifted blacks, softened whites, 30% less saturation, a slight warm cast.
            let muted = luma + (c - luma) * 0.7
            let lifted = 0.08 + muted * 0.84
            return clamp(lifted * SIMD3(1.02, 1.0, 0.96))
        case .invert:
            return 1 - c
        }
    }

    /// Float32 values as little-endian bytes (Core Image's layout on every platform it runs on).
    public static func bytes(_ floats: [Float]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: floats.count * 4)
        for (i, f) in floats.enumerated() {
            let bits = f.bitPattern.littleEndian
            out[i * 4] = UInt8(truncatingIfNeeded: bits)
            out[i * 4 + 1] = UInt8(truncatingIfNeeded: bits >> 8)
            out[i * 4 + 2] = UInt8(truncatingIfNeeded: bits >> 16)
            out[i * 4 + 3] = UInt8(truncatingIfNeeded: bits >> 24)
        }
        return out
    }

    /// Little-endian float32 bytes as floats; every value must be finite.
    static func floats(_ bytes: [UInt8], key: String) throws -> [Float] {
        var out = [Float](repeating: 0, count: bytes.count / 4)
        for i in 0..<out.count {
            let bits = UInt32(bytes[i * 4]) | UInt32(bytes[i * 4 + 1]) << 8 | UInt32(bytes[i * 4 + 2]) << 16
                | UInt32(bytes[i * 4 + 3]) << 24
            let f = Float(bitPattern: bits)
            guard f.isFinite else { throw FilterError("\(key): float \(i) is \(f); table values must be finite") }
            out[i] = f
        }
        return out
    }

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let line: Int
        public let message: String
        public var description: String { line > 0 ? ".cube line \(line): \(message)" : ".cube file: \(message)" }
    }

    /// Reads an Adobe .cube 3-D LUT: `LUT_3D_SIZE n`, optional `TITLE "…"`, `DOMAIN_MIN`/`DOMAIN_MAX` (only
    /// 0 0 0 and 1 1 1, the range Core Image's tables cover), comments from `#`, then n³ lines of three numbers,
    /// red fastest. Gives the dimension and Core Image's table bytes (alpha 1). n must be 2 to 64 (CIColorCube's
    /// range).
    public static func parseCubeFile(_ text: String) throws -> (dimension: Int, data: [UInt8]) {
        var size: Int?
        var values: [Float] = []
        var lineNumber = 0
        func fail(_ message: String) -> ParseError { ParseError(line: lineNumber, message: message) }
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = words.first else { continue }
            switch first.uppercased() {
            case "TITLE":
                guard line.contains("\"") else { throw fail("TITLE needs a quoted title") }
            case "LUT_3D_SIZE":
                guard size == nil else { throw fail("LUT_3D_SIZE is given twice") }
                guard values.isEmpty else { throw fail("LUT_3D_SIZE must come before the table") }
                guard words.count == 2, let n = Int(words[1]) else { throw fail("LUT_3D_SIZE needs one whole number") }
                guard (2...64).contains(n) else { throw fail("LUT_3D_SIZE \(n) is outside 2…64, the sizes CIColorCube takes") }
                size = n
            case "LUT_1D_SIZE":
                throw fail("this is a 1-D LUT; a colour cube needs a 3-D one (LUT_3D_SIZE)")
            case "DOMAIN_MIN", "DOMAIN_MAX":
                let expected: Float = first.uppercased() == "DOMAIN_MIN" ? 0 : 1
                let numbers = words.dropFirst().compactMap { Float($0) }
                guard words.count == 4, numbers.count == 3 else { throw fail("\(first) needs three numbers") }
                guard numbers.allSatisfy({ $0 == expected }) else {
                    throw fail("\(first) \(numbers.map { formatNumber(Double($0)) }.joined(separator: " ")) is not supported: Core Image tables cover 0…1")
                }
            default:
                guard let c = first.first, c.isNumber || c == "-" || c == "+" || c == "." else {
                    throw fail("unknown keyword \(first)")
                }
                guard let n = size else { throw fail("table data before LUT_3D_SIZE") }
                guard words.count == 3 else { throw fail("a table line needs three numbers, found \(words.count)") }
                let numbers = words.compactMap { Float($0) }
                guard numbers.count == 3, numbers.allSatisfy(\.isFinite) else { throw fail("cannot read \"\(line.trimmingCharacters(in: .whitespaces))\" as three numbers") }
                guard values.count < n * n * n * 4 else { throw fail("more than \(n)³ = \(n * n * n) table lines") }
                values += [numbers[0], numbers[1], numbers[2], 1]
            }
        }
        guard let n = size else { throw ParseError(line: 0, message: "no LUT_3D_SIZE line") }
        guard values.count == n * n * n * 4 else {
            throw ParseError(line: 0, message: "LUT_3D_SIZE \(n) needs \(n * n * n) table lines, found \(values.count / 4)")
        }
        return (n, bytes(values))
    }
}
