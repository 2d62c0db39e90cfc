
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
    /// R'G'B' × 255 = luma[Y] + the chroma terms: per-sample tables and multipliers of (C − 128).
    public let luma: [Float]
    public let crToRed: Float, cbToGreen: Float, crToGreen: Float, cbToBlue: Float

    public init(format: Y4MFormat) {
        self.format = format
        let (cw, ch) = format.chromaSize
        columns = ChromaTaps(lumaCount: format.width, chromaCount: max(cw, 1), factor: format.chromaFactor.x, phase: format.chromaPhase.x)
        rows = ChromaTaps(lumaCount: format.height, chromaCount: max(ch, 1), factor: format.chromaFactor.y, phase: format.chromaPhase.y)
        let k = format.coefficients
        luma = (0..<256).map { 255 * (Float($0) - k.yOffset) / k.yScale }
        let c = 255 / k.cScale
        crToRed = c * (2 - 2 * k.kr)
        cbToBlue = c * (2 - 2 * k.kb)
        crToGreen = -c * 2 * k.kr * (1 - k.kr) / k.kg
        cbToGreen = -c * 2 * k.kb * (1 - k.kb) / k.kg
    }

    public func image(_ frame: Y4MFrame) -> Image {
        let decoder = self
        return ColorKernel(name: "y4mFrame") { span in
            decoder.decode(frame, span: span)
        }.apply(extent: Rect(x: 0, y: 0, width: Double(format.width), height: Double(format.height)), inputs: [])
    }

    /// In passes, so that the arithmetic vectorises and the table look-ups run as tight loops of their own:
    /// the chroma terms of the samples the span needs (rows blended), then R'G'B' × 255 per pixel into the
    /// output planes, then each plane through the 8-bit decoding table.
    private func decode(_ frame: Y4MFrame, span: ColorSpan) {
        let f = format
        let fileRow = f.height - 1 - span.y
        let lumaRow = frame.bytes + fileRow * f.width + span.x0
        let out = span.out, count = span.count
        let (cw, ch) = f.chromaSize
        luma.withUnsafeBufferPointer { luma in
            for i in 0..<count { out.r[i] = luma[Int(lumaRow[i])] }
        }
        if f.chroma == .mono {
            out.g.update(from: out.r, count: count)
            out.b.update(from: out.r, count: count)
        } else {
            let cbPlane = frame.bytes + f.width * f.height, crPlane = cbPlane + cw * ch
            let row0 = Int(rows.first[fileRow]) * cw, row1 = Int(rows.second[fileRow]) * cw, wy = rows.weight[fileRow]
            let (rr, gb, gr, bb) = (crToRed, cbToGreen, crToGreen, cbToBlue)
            columns.first.withUnsafeBufferPointer { first in
                columns.second.withUnsafeBufferPointer { second in
                    columns.weight.withUnsafeBufferPointer { weight in
                        let low = Int(first[span.x0]), high = Int(second[span.x0 + count - 1])
                        let n = high - low + 1
                        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * n) { terms in
                            let red = terms.baseAddress!, green = red + n, blue = green + n
                            for j in 0..<n {
                                let c = low + j
                                let cb = Float(cbPlane[row0 + c]) + (Float(cbPlane[row1 + c]) - Float(cbPlane[row0 + c])) * wy - 128
                                let cr = Float(crPlane[row0 + c]) + (Float(crPlane[row1 + c]) - Float(crPlane[row0 + c])) * wy - 128
                                red[j] = rr * cr; green[j] = gb * cb + gr * cr; blue[j] = bb * cb
                            }
                            let (r, g, b) = (out.r, out.g, out.b)
                            for i in 0..<count {
                                let x = span.x0 + i
                                let a = Int(first[x]) - low, c = Int(second[x]) - low, w = weight[x]
                                let y = r[i]
                                r[i] = y + red[a] + (red[c] - red[a]) * w
                                g[i] = y + green[a] + (green[c] - green[a]) * w
                                b[i] = y + blue[a] + (blue[c] - blue[a]) * w
                            }
                        }
                    }
                }
            }
        }
        ColorMath.decodeTable.withUnsafeBufferPointer { table in
            @inline(__always) func linearise(_ plane: UnsafeMutablePointer<Float>) {
                for i in 0..<count { plane[i] = table[Int(min(max(plane[i] + 0.5, 0), 255))] }
            }
            linearise(out.r); linearise(out.g); linearise(out.b)
        }
        out.a.update(repeating: 1, count: count)
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
        let full = format.chroma == .mono ? 0 : format.width * format.height
        cb = [Float](repeating: 0, count: full)
        cr = [Float](repeating: 0, count: full)
        across = [Float](repeating: 0, count: format.chroma == .mono ? 0 : cw * format.height)
    }

    /// Fills `planes` (format.frameBytes) from `rgba` (width × height × 4).
    public mutating func encode(_ rgba: UnsafePointer<UInt8>, into planes: UnsafeMutablePointer<UInt8>) {
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
