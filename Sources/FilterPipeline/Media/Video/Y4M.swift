import CPixelLoops
import FilterEngine
import Foundation

/// A YUV4MPEG2 stream's header: frame size, rate, interlacing, pixel aspect, chroma layout, and the Y'CbCr colour
/// (matrix and range) its samples are in. 8-bit samples only.
///
/// Colour: Y4M has no matrix tag, so the matrix is BT.709 for HD frames (at least 1280 wide or 720 high) and
/// BT.601 otherwise, as players assume; the range is `XCOLORRANGE=FULL|LIMITED` (ffmpeg's tag), video range when
/// absent. `--matrix` and `--range` override both.
public struct Y4MFormat: Equatable, Sendable {
    public enum Chroma: String, CaseIterable, Sendable {
        case c420jpeg = "420jpeg", c420mpeg2 = "420mpeg2", c420paldv = "420paldv", c420 = "420"
        case c422 = "422", c444 = "444", mono = "mono"
    }
    public enum Matrix: String, Sendable { case bt601 = "601", bt709 = "709" }

    public var width: Int
    public var height: Int
    /// The F, I and A tags as written (rate n:d, interlacing p/t/b/m, pixel aspect n:d): carried through.
    public var frameRate = "25:1"
    public var interlacing = "p"
    public var aspect = "1:1"
    public var chroma = Chroma.c420jpeg
    public var matrix = Matrix.bt601
    public var fullRange = false

    /// Chroma samples per luma sample, across and down.
    public var chromaFactor: (x: Int, y: Int) {
        switch chroma {
        case .c444, .mono: (1, 1)
        case .c422: (2, 1)
        default: (2, 2)
        }
    }

    /// Where chroma sample j sits in luma samples: factor × j + phase (rows counted from the top). 4:2:0 JPEG
    /// (and plain 420) is centred both ways; MPEG-2 is co-sited horizontally and centred vertically; PAL DV is
    /// co-sited with the top-left luma sample (as ffmpeg reads it); 4:2:2 is co-sited (BT.601).
    public var chromaPhase: (x: Float, y: Float) {
        switch chroma {
        case .c420jpeg, .c420: (0.5, 0.5)
        case .c420mpeg2: (0, 0.5)
        default: (0, 0)
        }
    }

    public var chromaSize: (width: Int, height: Int) {
        chroma == .mono ? (0, 0) : ((width + chromaFactor.x - 1) / chromaFactor.x, (height + chromaFactor.y - 1) / chromaFactor.y)
    }

    public var frameBytes: Int { width * height + 2 * chromaSize.width * chromaSize.height }

    public var headerLine: String {
        "YUV4MPEG2 W\(width) H\(height) F\(frameRate) I\(interlacing) A\(aspect) C\(chroma.rawValue) XCOLORRANGE=\(fullRange ? "FULL" : "LIMITED")\n"
    }

    /// "1920×1080 C420jpeg BT.709 video range, 25:1 fps" for messages.
    public var summary: String {
        "\(width)×\(height) C\(chroma.rawValue) BT.\(matrix.rawValue) \(fullRange ? "full" : "video") range, F\(frameRate)"
    }

    /// The HD rule: BT.709 from 1280 wide or 720 high.
    public static func defaultMatrix(width: Int, height: Int) -> Matrix { width >= 1280 || height >= 720 ? .bt709 : .bt601 }

    public init(width: Int, height: Int, chroma: Chroma = .c420jpeg, matrix: Matrix? = nil, fullRange: Bool = false) {
        self.width = width
        self.height = height
        self.chroma = chroma
        self.matrix = matrix ?? Self.defaultMatrix(width: width, height: height)
        self.fullRange = fullRange
    }

    /// Bytes of frames a stream's queues may hold together (each queue's frames plus the few being read,
    /// rendered and written): 64 queued 4K frames would otherwise take 6 GB, larger frames tens of GB.
    public static let queueBytes = 1 << 30

    /// `requested` frames a queue, fewer when frames of this input and an 8-bit RGBA output of `outputPixels`
    /// would take more than `queueBytes` (at least one: a larger frame still streams, one at a time).
    public static func queueCapacity(_ requested: Int, input: Y4MFormat, outputPixels: Int) -> Int {
        // Two queues, and about two frames of each kind in the reader, the renderer and the writer.
        let frameBytes = max(1, input.frameBytes + outputPixels * 4)
        return max(1, min(requested, queueBytes / frameBytes / 2 - 2))
    }

    /// Bytes a frame's pixel takes while it is filtered (the frame, its RGBA copy, a float intermediate).
    static let bytesPerPixelInFlight = 24

    /// Parses a header line (without its newline). `maximumPixels` bounds W × H (the decode budget).
    public init(header: String, matrix: Matrix?, fullRange: Bool?, maximumPixels: Int) throws {
        func bad(_ why: String) -> FilterError { FilterError("not a usable Y4M stream: \(why)") }
        let words = header.split(separator: " ", omittingEmptySubsequences: true)
        guard words.first == "YUV4MPEG2" else { throw bad("it does not start with \"YUV4MPEG2 \"") }
        var width: Int?, height: Int?, range: Bool?
        var format = Y4MFormat(width: 0, height: 0)
        format.aspect = "0:0"  // unknown unless the header says
        func ratio(_ text: Substring, _ tag: Character, allowZero: Bool) throws -> String {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]), allowZero ? n >= 0 && d >= 0 : n > 0 && d > 0 else {
                throw bad("the \(tag) tag \"\(tag)\(text)\" is not n:d")
            }
            return "\(n):\(d)"
        }
        for word in words.dropFirst() {
            let tag = word.first!, value = word.dropFirst()
            switch tag {
            case "W", "H":
                guard let n = Int(value), n > 0, n <= 1 << 20 else { throw bad("the size \(tag)\(value) is not a positive whole number") }
                if tag == "W" { width = n } else { height = n }
            case "F": format.frameRate = try ratio(value, "F", allowZero: false)
            case "A": format.aspect = try ratio(value, "A", allowZero: true)
            case "I":
                guard ["p", "t", "b", "m", "?"].contains(value) else { throw bad("the interlacing I\(value) is not p, t, b or m") }
                format.interlacing = value == "?" ? "p" : String(value)
            case "C":
                guard let chroma = Chroma(rawValue: String(value)) else {
                    if value.contains("p1") || value.contains("p9") || value.hasPrefix("mono1") || value.contains("p16") {
                        throw bad("C\(value) has more than 8 bits a sample; only 8-bit streams are read (ffmpeg -pix_fmt yuv420p)")
                    }
                    throw bad("the chroma layout C\(value) is not one of \(Chroma.allCases.map { "C" + $0.rawValue }.joined(separator: ", "))")
                }
                format.chroma = chroma
            case "X":
                if value.hasPrefix("COLORRANGE=") {
                    switch value.dropFirst("COLORRANGE=".count).uppercased() {
                    case "FULL": range = true
                    case "LIMITED": range = false
                    default: throw bad("X\(value) is not XCOLORRANGE=FULL or LIMITED")
                    }
                }
            default: continue  // Unknown tags are ignored, as the format asks.
            }
        }
        guard let width, let height else { throw bad("the header has no W (width) or H (height) tag") }
        guard width * height <= maximumPixels else {
            throw FilterError("the Y4M frames are \(width)×\(height) = \(width * height) pixels, over the limit of \(maximumPixels) (CIFILTERTEST_MAX_PIXELS or --max-pixels raises it)")
        }
        // A raised --max-pixels lets a header through that no machine could hold: a frame is read, converted to
        // RGBA and rendered through float intermediates, about 24 bytes a pixel at once.
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        guard width * height <= physical / Self.bytesPerPixelInFlight else {
            throw FilterError("the Y4M frames are \(width)×\(height): one frame takes about "
                + "\(RenderBudget.formatBytes(width * height * Self.bytesPerPixelInFlight)) to filter, more than this machine's "
                + "\(RenderBudget.formatBytes(physical)) of memory")
        }
        format.width = width
        format.height = height
        format.matrix = matrix ?? Self.defaultMatrix(width: width, height: height)
        format.fullRange = fullRange ?? range ?? false
        self = format
    }

    /// The Y'CbCr ↔ R'G'B' coefficients of this matrix and range.
    public var coefficients: YCbCrCoefficients { YCbCrCoefficients(matrix: matrix, fullRange: fullRange) }
}

/// Y'CbCr ↔ R'G'B' for 8-bit samples (ITU-R BT.601 / BT.709): Y' = Kr R' + Kg G' + Kb B',
/// Pb = (B' − Y') / (2 − 2 Kb), Pr = (R' − Y') / (2 − 2 Kr); video range Y = 16 + 219 Y', C = 128 + 224 P;
/// full range Y = 255 Y', C = 128 + 255 P.
public struct YCbCrCoefficients: Sendable {
    public let kr: Float, kb: Float
    public let yOffset: Float, yScale: Float, cScale: Float

    public init(matrix: Y4MFormat.Matrix, fullRange: Bool) {
        (kr, kb) = matrix == .bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        (yOffset, yScale, cScale) = fullRange ? (0, 255, 255) : (16, 219, 224)
    }

    public var kg: Float { 1 - kr - kb }
}

/// Bilinear taps from a chroma plane to every luma position along one axis: for luma sample p, the chroma
/// coordinate (p − phase) / factor, clamped to the plane, between samples `first` and `first + 1`.
public struct ChromaTaps: Sendable {
    public let first: [Int32]
    public let second: [Int32]
    public let weight: [Float]

    public init(lumaCount: Int, chromaCount: Int, factor: Int, phase: Float) {
        var first = [Int32](), second = [Int32](), weight = [Float]()
        for p in 0..<lumaCount {
            let c = min(max((Float(p) - phase) / Float(factor), 0), Float(chromaCount - 1))
            let j = min(Int(c), chromaCount - 1)
            first.append(Int32(j)); second.append(Int32(min(j + 1, chromaCount - 1))); weight.append(c - Float(j))
        }
        (self.first, self.second, self.weight) = (first, second, weight)
    }
}

/// One frame's planes (Y, then Cb and Cr) as read from the stream, in file order (top row first). The
/// pipeline reuses a frame's memory once it is rendered.
public final class Y4MFrame: @unchecked Sendable {
    public let format: Y4MFormat
    public let bytes: UnsafeMutablePointer<UInt8>
    /// The frame's number in the input, from 0.
    public var index = 0

    public init(format: Y4MFormat) {
        self.format = format
        bytes = .allocate(capacity: max(1, format.frameBytes))
    }

    deinit { bytes.deallocate() }
}

/// Decodes Y4M frames into the working space: a generator (a colour kernel without inputs) that, for each
/// span the renderer asks for, upsamples the chroma bilinearly at its siting, converts Y'CbCr to R'G'B' and
/// linearises it with the engine's 8-bit table (R'G'B' rounded to the nearest of 256 levels, as an 8-bit image
/// is read; the samples carry no more). It runs inside the render, fused with the chain's first colour
/// filters, on every render thread.
public struct Y4MDecoder: Sendable {
    public let format: Y4MFormat
    public let columns: ChromaTaps
    public let rows: ChromaTaps
    /// R'G'B' × 255 = lumaScale × Y + lumaBias + the chroma terms, multipliers of (C − 128).
    public let lumaScale: Float, lumaBias: Float
    public let crToRed: Float, cbToGreen: Float, crToGreen: Float, cbToBlue: Float
    /// How the chroma terms of a row reach its pixels: a copy (4:4:4), the centred 2:1 pattern (weights ¼ ¾ and
    /// ¾ ¼ between neighbours: 420jpeg, 420), or the taps per pixel (co-sited layouts).
    enum Across { case same, centredHalf, taps }
    let across: Across

    public init(format: Y4MFormat) {
        self.format = format
        let (cw, ch) = format.chromaSize
        columns = ChromaTaps(lumaCount: format.width, chromaCount: max(cw, 1), factor: format.chromaFactor.x, phase: format.chromaPhase.x)
        rows = ChromaTaps(lumaCount: format.height, chromaCount: max(ch, 1), factor: format.chromaFactor.y, phase: format.chromaPhase.y)
        let k = format.coefficients
        lumaScale = 255 / k.yScale
        lumaBias = -255 * k.yOffset / k.yScale
        let c = 255 / k.cScale
        crToRed = c * (2 - 2 * k.kr)
        cbToBlue = c * (2 - 2 * k.kb)
        crToGreen = -c * 2 * k.kr * (1 - k.kr) / k.kg
        cbToGreen = -c * 2 * k.kb * (1 - k.kb) / k.kg
        across = switch (format.chromaFactor.x, format.chromaPhase.x) {
        case (1, _): .same
        case (2, 0.5): .centredHalf
        default: .taps
        }
    }

    public func image(_ frame: Y4MFrame) -> Image {
        let decoder = self
        return ColorKernel(name: "y4mFrame", rgba8Rows: { x0, y, count, out in
            decoder.decodeBytes(frame, x0: x0, y: y, count: count, into: out)
        }) { span in
            decoder.decode(frame, span: span)
        }.apply(extent: Rect(x: 0, y: 0, width: Double(format.width), height: Double(format.height)), inputs: [])
    }

    /// Row `y` (0 = bottom), pixels `x0..<x0 + count`, as the R'G'B' bytes the decoding makes (RGBA, alpha 255).
    func decodeBytes(_ frame: Y4MFrame, x0: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * count) { scratch in
            let terms = scratch.baseAddress!
            words(frame, x0: x0, y: y, count: count, terms: (terms, terms + count, terms + 2 * count)) { words in
                UnsafeMutableRawPointer(out).copyMemory(from: words, byteCount: 4 * count)
            }
        }
    }

    /// Decodes one span of a frame into `out` (planar linear R, G, B and alpha 1). Exposed for tests.
    public func decode(_ frame: Y4MFrame, x0: Int, y: Int, count: Int, into out: (r: UnsafeMutablePointer<Float>,
                       g: UnsafeMutablePointer<Float>, b: UnsafeMutablePointer<Float>, a: UnsafeMutablePointer<Float>)) {
        decode(frame, x0: x0, y: y, count: count, r: out.r, g: out.g, b: out.b, a: out.a)
    }

    private func decode(_ frame: Y4MFrame, span: ColorSpan) {
        let out = span.out
        decode(frame, x0: span.x0, y: span.y, count: span.count, r: out.r, g: out.g, b: out.b, a: out.a)
    }

    /// In passes of plain loops that vectorise (no per-pixel index tables): the chroma terms of the chroma
    /// samples the span needs (the two chroma rows blended once for the row's samples), spread across to the
    /// pixels (centred 2:1 with fixed ¼ ¾ weights), added to the luma, rounded and clamped to R'G'B' bytes packed
    /// as RGBA words, which the engine's 8-bit decoding (AVX2 gathers or AVX-512 permutes) turns into linear floats, as it reads an
    /// 8-bit image.
    private func decode(_ frame: Y4MFrame, x0: Int, y: Int, count: Int, r: UnsafeMutablePointer<Float>,
                        g: UnsafeMutablePointer<Float>, b: UnsafeMutablePointer<Float>, a: UnsafeMutablePointer<Float>) {
        words(frame, x0: x0, y: y, count: count, terms: (r, g, b)) { words in
            ColorMath.decodeTable.withUnsafeBufferPointer { table in
                words.withMemoryRebound(to: UInt8.self, capacity: 4 * count) { bytes in
                    pixelloops_decode_srgb8(bytes, Int32(count), table.baseAddress!, r, g, b, nil)
                }
            }
        }
        a.update(repeating: 1, count: count)
    }

    /// The span's R'G'B' bytes packed as RGBA words (alpha 255), handed to `body`; `terms` are three planes of
    /// `count` floats of scratch (the decoding's own output planes, overwritten after).
    private func words(_ frame: Y4MFrame, x0: Int, y: Int, count: Int,
                       terms: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
                       _ body: (UnsafeMutablePointer<UInt32>) -> Void) {
        let (r, g, b) = terms
        let f = format
        let fileRow = f.height - 1 - y
        let lumaRow = frame.bytes + fileRow * f.width + x0
        let (cw, ch) = f.chromaSize
        // Luma with the rounding (+ 0.5): luma + chroma term, truncated, is the byte.
        let scale = lumaScale, bias = lumaBias + 0.5
        let low: Int, high: Int
        switch across {
        case .same: (low, high) = (x0, x0 + count - 1)
        case .centredHalf: (low, high) = (x0 / 2 - 1, (x0 + count - 1) / 2 + 1)
        case .taps: (low, high) = (Int(columns.first[x0]), Int(columns.second[x0 + count - 1]))
        }
        let n = f.chroma == .mono ? 0 : high - low + 1
        // Scratch, one allocation (nested temporary allocations came out as null pointers in -Ounchecked
        // builds): the luma, three planes of chroma terms per sample, the packed words; for centred 2:1 also six
        // half planes, the luma in pairs and the packed pairs.
        let pairs = count / 2 + 2, floats = count + 3 * n + 6 * pairs
        let bytes = 4 * floats + 4 * count + 2 * pairs + 8 * pairs + 64
        withUnsafeTemporaryAllocation(byteCount: bytes, alignment: 64) { raw in
            let base = raw.baseAddress!
            let luma = base.bindMemory(to: Float.self, capacity: floats)
            let red = luma + count, green = red + n, blue = green + n, halves = blue + n
            let words = (base + 4 * floats).bindMemory(to: UInt32.self, capacity: count)
            let packed = (base + ((4 * floats + 4 * count + 7) & ~7)).bindMemory(to: UInt64.self, capacity: pairs)
            let lumaPairs = (base + 4 * floats + 4 * count + 8 * pairs + 8).bindMemory(to: UInt16.self, capacity: pairs)
            if f.chroma == .mono || across != .centredHalf {
                for i in 0..<count { luma[i] = Float(lumaRow[i]) * scale + bias }
            }
            @inline(__always) func byte(_ v: Float) -> UInt32 { UInt32(Int32(min(max(v, 0), 255))) }
            if f.chroma == .mono {
                for i in 0..<count {
                    let v = byte(luma[i])
                    words[i] = v | v << 8 | v << 16 | 0xFF00_0000
                }
            } else {
                let cbPlane = frame.bytes + f.width * f.height, crPlane = cbPlane + cw * ch
                let row0 = cbPlane + Int(rows.first[fileRow]) * cw, row1 = cbPlane + Int(rows.second[fileRow]) * cw
                let cr0 = crPlane + Int(rows.first[fileRow]) * cw, cr1 = crPlane + Int(rows.second[fileRow]) * cw
                let wy = rows.weight[fileRow]
                let (rr, gb, gr, bb) = (crToRed, cbToGreen, crToGreen, cbToBlue)
                // The chroma rows blended once for the span's samples inside the plane; past its ends the edge
                // sample repeats.
                let inside = max(low, 0), insideEnd = min(high, cw - 1)
                if wy == 0 {
                    for c in inside...insideEnd {
                        let cb = Float(row0[c]) - 128, cr = Float(cr0[c]) - 128
                        red[c - low] = rr * cr; green[c - low] = gb * cb + gr * cr; blue[c - low] = bb * cb
                    }
                } else {
                    for c in inside...insideEnd {
                        let cb = Float(row0[c]) + (Float(row1[c]) - Float(row0[c])) * wy - 128
                        let cr = Float(cr0[c]) + (Float(cr1[c]) - Float(cr0[c])) * wy - 128
                        red[c - low] = rr * cr; green[c - low] = gb * cb + gr * cr; blue[c - low] = bb * cb
                    }
                }
                for j in low..<inside { red[j - low] = red[inside - low]; green[j - low] = green[inside - low]; blue[j - low] = blue[inside - low] }
                if insideEnd < high {
                    for j in (insideEnd + 1)...high { red[j - low] = red[insideEnd - low]; green[j - low] = green[insideEnd - low]; blue[j - low] = blue[insideEnd - low] }
                }
                // The terms per pixel, in r, g and b (overwritten by the decoding at the end).
                switch across {
                case .same:
                    r.update(from: red, count: count); g.update(from: green, count: count); b.update(from: blue, count: count)
                case .centredHalf:
                    // Packed below, a pair of pixels at a time.
                    break
                case .taps:
                    columns.first.withUnsafeBufferPointer { first in
                        columns.second.withUnsafeBufferPointer { second in
                            columns.weight.withUnsafeBufferPointer { weight in
                                for i in 0..<count {
                                    let x = x0 + i
                                    let p = Int(first[x]) - low, q = Int(second[x]) - low, w = weight[x]
                                    r[i] = red[p] + (red[q] - red[p]) * w
                                    g[i] = green[p] + (green[q] - green[p]) * w
                                    b[i] = blue[p] + (blue[q] - blue[p]) * w
                                }
                            }
                        }
                    }
                }
                if across == .centredHalf {
                    // Pixel 2m is ¾ of sample m and ¼ of m − 1; pixel 2m + 1 ¾ of m and ¼ of m + 1. Each plane's
                    // terms for the even and the odd pixels in halves of their own, then the two pixels of each
                    // pair packed into one 64-bit word: every loop reads and writes contiguously (they vectorise).
                    // Pairs start at the even pixel at or before x0 (`skip` is 0 or 1).
                    let skip = x0 & 1, first = x0 / 2, pairs = (count + skip + 1) / 2  // ≤ the scratch's
                    @inline(__always) func halve(_ terms: UnsafeMutablePointer<Float>, _ k: Int) {
                        let t = terms + (first - low), even = halves + 2 * k * pairs, odd = even + pairs
                        for m in 0..<pairs {
                            even[m] = 0.75 * t[m] + 0.25 * t[m - 1]
                            odd[m] = 0.75 * t[m] + 0.25 * t[m + 1]
                        }
                    }
                    halve(red, 0); halve(green, 1); halve(blue, 2)
                    // The luma bytes of the pairs (the last pixel repeated when the pairs run past the span).
                    UnsafeMutableRawPointer(lumaPairs).copyMemory(from: lumaRow - skip, byteCount: count + skip)
                    if (count + skip) & 1 == 1 {
                        UnsafeMutableRawPointer(lumaPairs).storeBytes(of: lumaRow[count - 1], toByteOffset: count + skip, as: UInt8.self)
                    }
                    let (er, or) = (halves, halves + pairs), (eg, og) = (halves + 2 * pairs, halves + 3 * pairs)
                    let (eb, ob) = (halves + 4 * pairs, halves + 5 * pairs)
                    for m in 0..<pairs {
                        let p = UInt32(lumaPairs[m])
                        let le = Float(p & 0xFF) * scale + bias, lo = Float(p >> 8) * scale + bias
                        let we = byte(le + er[m]) | byte(le + eg[m]) << 8 | byte(le + eb[m]) << 16 | 0xFF00_0000
                        let wo = byte(lo + or[m]) | byte(lo + og[m]) << 8 | byte(lo + ob[m]) << 16 | 0xFF00_0000
                        packed[m] = UInt64(we) | UInt64(wo) << 32
                    }
                    UnsafeMutableRawPointer(words).copyMemory(from: UnsafeRawPointer(packed) + 4 * skip, byteCount: 4 * count)
                } else {
                    for i in 0..<count {
                        let v = luma[i]
                        words[i] = byte(v + r[i]) | byte(v + g[i]) << 8 | byte(v + b[i]) << 16 | 0xFF00_0000
                    }
                }
            }
            body(words)
        }
    }
}

/// Encodes rendered 8-bit sRGB frames (RGBA, top row first) as Y4M planes in a format. Transparent pixels are
/// composited over black (colour times alpha). Each chroma sample is the mean of the luma positions within half
/// a chroma spacing of its siting, on both axes (positions exactly on the edge count half): for centred
/// 4:2:0 the 2×2 block, for co-sited chroma the 1 2 1 tent; rows and columns past the frame repeat its edge.
public struct Y4MEncoder {
    public let format: Y4MFormat
    private let yOffset: Float
    /// Per chroma index, `tapCount` luma positions and weights (weight 0 pads), across and down.
    private let tapCount = 3
    private let columnTaps: [Int32], columnWeights: [Float]
    private let rowTaps: [Int32], rowWeights: [Float]
    private var cb: [Float], cr: [Float], across: [Float]
    private let integer: IntegerCoefficients

    public init(format: Y4MFormat) {
        self.format = format
        let k = format.coefficients
        yOffset = k.yOffset
        func taps(_ chromaCount: Int, _ lumaCount: Int, _ factor: Int, _ phase: Float) -> ([Int32], [Float]) {
            var indices: [Int32] = [], weights: [Float] = []
            for j in 0..<chromaCount {
                let centre = Float(factor * j) + phase, half = Float(factor) / 2
                var list: [(Int, Float)] = []
                for p in Int((centre - half).rounded(.down))...Int((centre + half).rounded(.up)) {
                    let d = abs(Float(p) - centre)
                    let w: Float = d < half - 1e-4 ? 1 : (d <= half + 1e-4 ? 0.5 : 0)
                    if w > 0 { list.append((min(max(p, 0), lumaCount - 1), w)) }
                }
                let total = list.reduce(0) { $0 + $1.1 }
                for t in 0..<3 {
                    indices.append(Int32(t < list.count ? list[t].0 : 0))
                    weights.append(t < list.count ? list[t].1 / total : 0)
                }
            }
            return (indices, weights)
        }
        let (cw, ch) = format.chromaSize
        (columnTaps, columnWeights) = taps(cw, format.width, format.chromaFactor.x, format.chromaPhase.x)
        (rowTaps, rowWeights) = taps(ch, format.height, format.chromaFactor.y, format.chromaPhase.y)
        integer = IntegerCoefficients(format.coefficients)
        // The float path's frame-sized planes, only for the layouts that take it.
        let slow = Y4MEncoder.takesFloatPath(format)
        let full = format.chroma == .mono || !slow ? 0 : format.width * format.height
        cb = [Float](repeating: 0, count: full)
        cr = [Float](repeating: 0, count: full)
        across = [Float](repeating: 0, count: format.chroma == .mono || !slow ? 0 : cw * format.height)
    }

    /// The layouts encoded with integer arithmetic, rows split across the cores: luma only, 4:4:4, and centred
    /// 4:2:0 (each chroma sample the mean of its 2×2 block) on even sizes. Others take the float path below.
    private enum FastLayout { case mono, full, centredQuarter }
    private var fastLayout: FastLayout? { Self.fastLayout(format) }
    private static func takesFloatPath(_ f: Y4MFormat) -> Bool { fastLayout(f) == nil }
    private static func fastLayout(_ f: Y4MFormat) -> FastLayout? {
        switch f.chroma {
        case .mono: return .mono
        case .c444: return .full
        case .c420jpeg, .c420: return f.width % 2 == 0 && f.height % 2 == 0 ? .centredQuarter : nil
        default: return nil
        }
    }

    /// Fixed-point (16 fractional bits) Y'CbCr from 8-bit R'G'B': Y = (yr R + yg G + yb B + yBias) >> 16 and the
    /// same for Cb and Cr. The weights of each row sum exactly to the scale (Y) or to 0 (Cb, Cr), so greys stay grey.
    struct IntegerCoefficients {
        let yr, yg, yb, yBias: Int32
        let ur, ug, ub: Int32
        let vr, vg, vb: Int32

        init(_ k: YCbCrCoefficients) {
            let one: Float = 65536
            let s = k.yScale / 255, c = k.cScale / 255
            yr = Int32((s * k.kr * one).rounded()); yb = Int32((s * k.kb * one).rounded())
            yg = Int32((s * one).rounded()) - yr - yb
            yBias = Int32((k.yOffset * one).rounded()) + 32768
            let u = c / (2 - 2 * k.kb), v = c / (2 - 2 * k.kr)
            ur = Int32((-u * k.kr * one).rounded()); ub = Int32((u * (1 - k.kb) * one).rounded()); ug = -ur - ub
            vr = Int32((v * (1 - k.kr) * one).rounded()); vb = Int32((-v * k.kb * one).rounded()); vg = -vr - vb
        }
    }

    /// Rows `rows` (pairs of rows for 4:2:0: chroma rows) of the frame, on one thread. `spare` holds two rows
    /// of RGBA for rows with transparent pixels, put over black there.
    private static func encodeFast(_ layout: FastLayout, _ k: IntegerCoefficients, width: Int, height: Int,
                                   rows: Range<Int>, rgba: UnsafePointer<UInt8>, planes: UnsafeMutablePointer<UInt8>,
                                   spare: UnsafeMutablePointer<UInt32>) {
        let pixels = UnsafeRawPointer(rgba).assumingMemoryBound(to: UInt32.self)
        let n = width * height
        let lines = layout == .centredQuarter ? 2 : 1
        let cw = layout == .centredQuarter ? width / 2 : width
        let cbPlane = planes + n, crPlane = cbPlane + (layout == .centredQuarter ? n / 4 : n)
        for row in rows {
            var source = pixels + row * lines * width
            // Transparent pixels over black: colour × alpha / 255, rounded (exactly as the float path rounds).
            var alphas: UInt32 = 0xFF00_0000
            for i in 0..<lines * width { alphas &= source[i] }
            if alphas != 0xFF00_0000 {
                for i in 0..<lines * width {
                    let p = source[i], a = p >> 24
                    @inline(__always) func over(_ c: UInt32) -> UInt32 { (2 * c * a + 255) / 510 }
                    spare[i] = over(p & 0xFF) | over((p >> 8) & 0xFF) << 8 | over((p >> 16) & 0xFF) << 16 | 0xFF00_0000
                }
                source = UnsafePointer(spare)
            }
            for line in 0..<lines {
                let s = source + line * width, out = planes + (row * lines + line) * width
                for x in 0..<width {
                    let p = s[x]
                    let r = Int32(p & 0xFF), g = Int32((p >> 8) & 0xFF), b = Int32((p >> 16) & 0xFF)
                    out[x] = UInt8(truncatingIfNeeded: min(max((k.yr * r + k.yg * g + k.yb * b + k.yBias) &>> 16, 0), 255))
                }
            }
            switch layout {
            case .mono: break
            case .full:
                let cb = cbPlane + row * width, cr = crPlane + row * width
                let cBias: Int32 = 128 << 16 + 32768
                for x in 0..<width {
                    let p = source[x]
                    let r = Int32(p & 0xFF), g = Int32((p >> 8) & 0xFF), b = Int32((p >> 16) & 0xFF)
                    cb[x] = UInt8(truncatingIfNeeded: min(max((k.ur * r + k.ug * g + k.ub * b + cBias) &>> 16, 0), 255))
                    cr[x] = UInt8(truncatingIfNeeded: min(max((k.vr * r + k.vg * g + k.vb * b + cBias) &>> 16, 0), 255))
                }
            case .centredQuarter:
                // Two pixels of each of the two rows as one 64-bit word each: red and blue (then green and alpha)
                // summed in 16-bit lanes, the pair's halves folded, then one fixed-point product per sample
                // (the mean of four: shifted two bits more).
                let top = UnsafeRawPointer(source).assumingMemoryBound(to: UInt64.self)
                let bottom = UnsafeRawPointer(source + width).assumingMemoryBound(to: UInt64.self)
                let cb = cbPlane + row * cw, cr = crPlane + row * cw
                let mask: UInt64 = 0x00FF_00FF_00FF_00FF
                let cBias: Int32 = 512 << 16 + 131072
                for j in 0..<cw {
                    let p = top[j], q = bottom[j]
                    let rb = (p & mask) &+ (q & mask), ga = ((p >> 8) & mask) &+ ((q >> 8) & mask)
                    let rb2 = (rb & 0xFFFF_FFFF) &+ (rb >> 32), ga2 = (ga & 0xFFFF_FFFF) &+ (ga >> 32)
                    let r = Int32(truncatingIfNeeded: rb2 & 0xFFFF), b = Int32(truncatingIfNeeded: rb2 >> 16)
                    let g = Int32(truncatingIfNeeded: ga2 & 0xFFFF)
                    cb[j] = UInt8(truncatingIfNeeded: min(max((k.ur * r + k.ug * g + k.ub * b + cBias) &>> 18, 0), 255))
                    cr[j] = UInt8(truncatingIfNeeded: min(max((k.vr * r + k.vg * g + k.vb * b + cBias) &>> 18, 0), 255))
                }
            }
        }
    }

    /// Fills `planes` (format.frameBytes) from `rgba` (width × height × 4). Luma-only, 4:4:4 and even-sized
    /// centred 4:2:0 frames are encoded in integers, in bands of rows on every core; other layouts in floats.
    public mutating func encode(_ rgba: UnsafePointer<UInt8>, into planes: UnsafeMutablePointer<UInt8>) {
        if let layout = fastLayout {
            let f = format, k = integer
            let rowCount = layout == .centredQuarter ? f.height / 2 : f.height
            let bands = min(rowCount, f.width * f.height >= 1 << 16 ? 4 * ProcessInfo.processInfo.activeProcessorCount : 1)
            let spareLength = 2 * f.width
            nonisolated(unsafe) let (rgba, planes) = (rgba, planes)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let spare = UnsafeMutablePointer<UInt32>.allocate(capacity: spareLength)
                defer { spare.deallocate() }
                Self.encodeFast(layout, k, width: f.width, height: f.height, rows: (rowCount * band / bands)..<(rowCount * (band + 1) / bands),
                                rgba: rgba, planes: planes, spare: spare)
            }
            return
        }
        let f = format, n = f.width * f.height
        let mono = f.chroma == .mono
        @inline(__always) func byte(_ v: Float) -> UInt8 { UInt8(min(max(v + 0.5, 0), 255)) }
        // Plain arithmetic per pixel (it vectorises); a frame with any transparent pixel is first put over black.
        var alphaAll: UInt8 = 255
        for p in 0..<n { alphaAll &= rgba[4 * p + 3] }
        var overBlack: [UInt8] = []
        var source = rgba
        if alphaAll != 255 {
            overBlack = [UInt8](repeating: 255, count: 4 * n)
            for p in 0..<n {
                let a = Float(rgba[4 * p + 3]) / 255
                for c in 0..<3 { overBlack[4 * p + c] = UInt8(Float(rgba[4 * p + c]) * a + 0.5) }
            }
        }
        let k = format.coefficients
        let s = k.yScale / 255, c = k.cScale / 255
        let (yr, yg, yb) = (s * k.kr, s * k.kg, s * k.kb)
        // Cb = 128 + c (B − Y') / (2 − 2 Kb), Cr = 128 + c (R − Y') / (2 − 2 Kr), with Y' = Kr R + Kg G + Kb B.
        let u = c / (2 - 2 * k.kb), v = c / (2 - 2 * k.kr)
        let (ur, ug, ub) = (-u * k.kr, -u * k.kg, u * (1 - k.kb))
        let (vr, vg, vb) = (v * (1 - k.kr), -v * k.kg, -v * k.kb)
        let yOffset = yOffset
        overBlack.withUnsafeBufferPointer { converted in
            if alphaAll != 255 { source = converted.baseAddress! }
            for p in 0..<n {
                let r = Float(source[4 * p]), g = Float(source[4 * p + 1]), b = Float(source[4 * p + 2])
                planes[p] = byte(yOffset + yr * r + yg * g + yb * b)
            }
            guard !mono else { return }
            cb.withUnsafeMutableBufferPointer { cb in
                cr.withUnsafeMutableBufferPointer { cr in
                    for p in 0..<n {
                        let r = Float(source[4 * p]), g = Float(source[4 * p + 1]), b = Float(source[4 * p + 2])
                        cb[p] = 128 + ur * r + ug * g + ub * b
                        cr[p] = 128 + vr * r + vg * g + vb * b
                    }
                }
            }
        }
        guard !mono else { return }
        let (cw, ch) = f.chromaSize, width = f.width, taps = tapCount
        columnTaps.withUnsafeBufferPointer { columnTaps in
        columnWeights.withUnsafeBufferPointer { columnWeights in
        rowTaps.withUnsafeBufferPointer { rowTaps in
        rowWeights.withUnsafeBufferPointer { rowWeights in
        across.withUnsafeMutableBufferPointer { across in
            // Centred 2:1 across (4:2:0 JPEG): the mean of each pair, a loop that vectorises.
            let pairs = f.chromaFactor.x == 2 && f.chromaPhase.x == 0.5 && width % 2 == 0
            withUnsafeTemporaryAllocation(of: Float.self, capacity: cw) { sums in
                let sums = sums.baseAddress!
                for (plane, values) in [(planes + n, cb), (planes + n + cw * ch, cr)] {
                    values.withUnsafeBufferPointer { values in
                        // Across each row, then down the narrowed rows, a whole row at a time.
                        for y in 0..<f.height {
                            let row = values.baseAddress! + y * width, narrowed = across.baseAddress! + y * cw
                            if pairs {
                                for j in 0..<cw { narrowed[j] = 0.5 * (row[2 * j] + row[2 * j + 1]) }
                            } else {
                                for j in 0..<cw {
                                    var sum: Float = 0
                                    for t in 0..<taps { sum += row[Int(columnTaps[j * taps + t])] * columnWeights[j * taps + t] }
                                    narrowed[j] = sum
                                }
                            }
                        }
                        for i in 0..<ch {
                            sums.update(repeating: 0, count: cw)
                            for t in 0..<taps {
                                let w = rowWeights[i * taps + t]
                                guard w > 0 else { continue }
                                let source = across.baseAddress! + Int(rowTaps[i * taps + t]) * cw
                                for j in 0..<cw { sums[j] += source[j] * w }
                            }
                            let out = plane + i * cw
                            for j in 0..<cw { out[j] = byte(sums[j]) }
                        }
                    }
                }
            }
        }
        }
        }
        }
        }
    }
}
