import Foundation
import Testing
@testable import FilterEngine
@testable import FilterPipeline

/// The Y4M decoder and encoder (fixed-point and reordered for speed) against straightforward double-precision
/// references written here from the BT.601/BT.709 definitions, for both matrices and both ranges.
@Suite struct Y4MConversionTests {
    static let colours: [(Y4MFormat.Matrix, Bool)] = [(.bt601, false), (.bt601, true), (.bt709, false), (.bt709, true)]

    struct Reference {
        let kr: Double, kb: Double, full: Bool
        init(_ matrix: Y4MFormat.Matrix, full: Bool) {
            (kr, kb) = matrix == .bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
            self.full = full
        }
        var kg: Double { 1 - kr - kb }

        /// Y'CbCr samples (possibly fractional chroma) → R'G'B' in 0…1, clamped.
        func rgb(_ y: Double, _ cb: Double, _ cr: Double) -> (Double, Double, Double) {
            let l = full ? y / 255 : (y - 16) / 219
            let pb = (cb - 128) / (full ? 255 : 224), pr = (cr - 128) / (full ? 255 : 224)
            let r = l + (2 - 2 * kr) * pr, b = l + (2 - 2 * kb) * pb
            let g = (l - kr * r - kb * b) / kg
            return (min(max(r, 0), 1), min(max(g, 0), 1), min(max(b, 0), 1))
        }

        /// R'G'B' bytes → unrounded Y, Cb, Cr.
        func ycbcr(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
            let (r, g, b) = (r / 255, g / 255, b / 255)
            let y = kr * r + kg * g + kb * b
            let pb = (b - y) / (2 - 2 * kb), pr = (r - y) / (2 - 2 * kr)
            return full ? (255 * y, 128 + 255 * pb, 128 + 255 * pr) : (16 + 219 * y, 128 + 224 * pb, 128 + 224 * pr)
        }
    }

    /// Decodes a whole frame in spans of `spanWidth` (so spans start at odd columns too): the encoded R'G'B'
    /// (0…1) of every pixel, file order.
    static func decoded(_ frame: Y4MFrame, spanWidth: Int) -> [(Float, Float, Float)] {
        let f = frame.format, decoder = Y4MDecoder(format: f)
        var result = [(Float, Float, Float)](repeating: (0, 0, 0), count: f.width * f.height)
        let r = UnsafeMutablePointer<Float>.allocate(capacity: 4 * spanWidth)
        defer { r.deallocate() }
        let (g, b, a) = (r + spanWidth, r + 2 * spanWidth, r + 3 * spanWidth)
        for y in 0..<f.height {
            for x0 in stride(from: 0, to: f.width, by: spanWidth) {
                let count = min(spanWidth, f.width - x0)
                decoder.decode(frame, x0: x0, y: y, count: count, into: (r, g, b, a))
                for i in 0..<count {
                    #expect(a[i] == 1)
                    result[(f.height - 1 - y) * f.width + x0 + i] =
                        (ColorMath.sRGB(fromLinear: r[i]), ColorMath.sRGB(fromLinear: g[i]), ColorMath.sRGB(fromLinear: b[i]))
                }
            }
        }
        return result
    }

    /// Every Y on a grid of 3 levels and every Cb and Cr on a grid of 5 (with 255), as a 4:4:4 frame: the decoded
    /// R'G'B' is the reference rounded to 8 bits (within half a level, plus float slack).
    @Test(arguments: colours) func decodingAGridOfSamplesMatchesTheReference(matrix: Y4MFormat.Matrix, full: Bool) {
        let levels = Array(stride(from: 0, through: 255, by: 3)), chroma = Array(stride(from: 0, to: 255, by: 5)) + [255]
        let width = chroma.count * chroma.count, height = levels.count
        let format = Y4MFormat(width: width, height: height, chroma: .c444, matrix: matrix, fullRange: full)
        let frame = Y4MFrame(format: format)
        let n = width * height
        for (row, y) in levels.enumerated() {
            for (i, cb) in chroma.enumerated() {
                for (j, cr) in chroma.enumerated() {
                    let p = row * width + i * chroma.count + j
                    frame.bytes[p] = UInt8(y); frame.bytes[n + p] = UInt8(cb); frame.bytes[2 * n + p] = UInt8(cr)
                }
            }
        }
        let reference = Reference(matrix, full: full)
        var worst = 0.0
        for (p, got) in Self.decoded(frame, spanWidth: 1024).enumerated() {
            let (r, g, b) = reference.rgb(Double(frame.bytes[p]), Double(frame.bytes[n + p]), Double(frame.bytes[2 * n + p]))
            worst = max(worst, abs(Double(got.0) - r), abs(Double(got.1) - g), abs(Double(got.2) - b))
        }
        #expect(worst * 255 <= 0.502, "off by \(worst * 255)/255")
    }

    /// Every layout, odd and even sizes, spans starting at odd columns: the chroma upsampled bilinearly at its
    /// siting (clamped at the edges) as the reference computes it, in doubles.
    @Test(arguments: Y4MFormat.Chroma.allCases) func decodingUpsamplesTheChromaAtItsSiting(chroma: Y4MFormat.Chroma) {
        var random = SystemRandomNumberGenerator()
        for (width, height, span) in [(38, 22, 1024), (37, 23, 7), (64, 16, 13)] {
            for (matrix, full) in Self.colours {
                let format = Y4MFormat(width: width, height: height, chroma: chroma, matrix: matrix, fullRange: full)
                let frame = Y4MFrame(format: format)
                for i in 0..<format.frameBytes { frame.bytes[i] = UInt8.random(in: 0...255, using: &random) }
                let reference = Reference(matrix, full: full)
                let (cw, ch) = format.chromaSize, (fx, fy) = format.chromaFactor, (px, py) = format.chromaPhase
                let n = width * height
                func sample(_ plane: Int, _ x: Int, _ y: Int) -> Double {
                    guard chroma != .mono else { return 128 }
                    func axis(_ p: Int, _ factor: Int, _ phase: Float, _ count: Int) -> (Int, Int, Double) {
                        let c = min(max((Double(p) - Double(phase)) / Double(factor), 0), Double(count - 1))
                        let j = Int(c)
                        return (j, min(j + 1, count - 1), c - Double(j))
                    }
                    let (x0, x1, wx) = axis(x, fx, px, cw), (y0, y1, wy) = axis(y, fy, py, ch)
                    let base = n + plane * cw * ch
                    func at(_ i: Int, _ j: Int) -> Double { Double(frame.bytes[base + j * cw + i]) }
                    let top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * wx, bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * wx
                    return top + (bottom - top) * wy
                }
                var worst = 0.0
                for (p, got) in Self.decoded(frame, spanWidth: span).enumerated() {
                    let (x, y) = (p % width, p / width)
                    let (r, g, b) = reference.rgb(Double(frame.bytes[p]), sample(0, x, y), sample(1, x, y))
                    worst = max(worst, abs(Double(got.0) - r), abs(Double(got.1) - g), abs(Double(got.2) - b))
                }
                #expect(worst * 255 <= 0.502, "\(chroma) \(width)×\(height) span \(span) \(matrix) full \(full): off by \(worst * 255)/255")
            }
        }
    }

    /// Encodes `rgba` and compares with the reference: over black, Y per pixel, chroma the mean over each
    /// sample's taps (computed here for the layouts' sitings), rounded. At most one code off, and that only where
    /// the exact value is within a hair of a rounding tie.
    static func checkEncoding(_ format: Y4MFormat, _ rgba: [UInt8]) {
        var encoder = Y4MEncoder(format: format)
        var planes = [UInt8](repeating: 0, count: format.frameBytes)
        rgba.withUnsafeBufferPointer { source in
            planes.withUnsafeMutableBufferPointer { encoder.encode(source.baseAddress!, into: $0.baseAddress!) }
        }
        let reference = Reference(format.matrix, full: format.fullRange)
        let (w, h) = (format.width, format.height), n = w * h
        var exact = [(Double, Double, Double)]()
        for p in 0..<n {
            let a = Double(rgba[4 * p + 3]) / 255
            func over(_ c: UInt8) -> Double { (Double(c) * a).rounded() }
            exact.append(reference.ycbcr(over(rgba[4 * p]), over(rgba[4 * p + 1]), over(rgba[4 * p + 2])))
        }
        var wrong = 0, near = 0
        func check(_ got: UInt8, _ value: Double) {
            let expected = min(max((value).rounded(.toNearestOrAwayFromZero), 0), 255)
            if Double(got) != expected {
                let tie = abs(value - value.rounded(.down) - 0.5) < 0.01
                if tie && abs(Double(got) - expected) <= 1 { near += 1 } else { wrong += 1 }
            }
        }
        for p in 0..<n { check(planes[p], exact[p].0) }
        let (cw, ch) = format.chromaSize
        if format.chroma == .c444 {
            for p in 0..<n { check(planes[n + p], exact[p].1); check(planes[2 * n + p], exact[p].2) }
        } else if format.chroma == .c420jpeg || format.chroma == .c420 {
            for j in 0..<ch {
                for i in 0..<cw {
                    var cb = 0.0, cr = 0.0
                    for (x, y) in [(2 * i, 2 * j), (2 * i + 1, 2 * j), (2 * i, 2 * j + 1), (2 * i + 1, 2 * j + 1)] {
                        let e = exact[min(y, h - 1) * w + min(x, w - 1)]
                        cb += e.1 / 4; cr += e.2 / 4
                    }
                    check(planes[n + j * cw + i], cb); check(planes[n + cw * ch + j * cw + i], cr)
                }
            }
        }
        #expect(wrong == 0, "\(format.summary): \(wrong) samples off")
        #expect(near * 100 <= n, "\(format.summary): \(near) samples a code off at ties")
    }

    /// Every R', G' and B' on a grid of 5 levels (with 255), opaque, through each fast layout and colour.
    @Test(arguments: colours) func encodingAGridOfColoursMatchesTheReference(matrix: Y4MFormat.Matrix, full: Bool) {
        let levels = Array(stride(from: 0, to: 255, by: 5)) + [255]
        var rgba: [UInt8] = []
        for r in levels { for g in levels { for b in levels { rgba += [UInt8(r), UInt8(g), UInt8(b), 255] } } }
        let count = rgba.count / 4  // 52³: 2 × 70304 pixels
        for chroma in [Y4MFormat.Chroma.c444, .mono] {
            Self.checkEncoding(Y4MFormat(width: 52, height: count / 52, chroma: chroma, matrix: matrix, fullRange: full), rgba)
        }
        // 4:2:0: each 2×2 block one colour, so the mean is that colour's chroma.
        var blocks = [UInt8](repeating: 0, count: 4 * count * 4)
        let width = 2 * 52 * 2
        for p in 0..<count {
            let (bx, by) = (p % (width / 2), p / (width / 2))
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let q = (2 * by + dy) * width + 2 * bx + dx
                for c in 0..<4 { blocks[4 * q + c] = rgba[4 * p + c] }
            }
        }
        Self.checkEncoding(Y4MFormat(width: width, height: blocks.count / 4 / width, chroma: .c420jpeg, matrix: matrix, fullRange: full), blocks)
    }

    /// Random frames with transparent rows and pixels (put over black), 4:2:0 blocks of mixed colours.
    @Test(arguments: colours) func encodingRandomFramesMatchesTheReference(matrix: Y4MFormat.Matrix, full: Bool) {
        var random = SystemRandomNumberGenerator()
        let (w, h) = (96, 64)
        var rgba = (0..<(4 * w * h)).map { _ in UInt8.random(in: 0...255, using: &random) }
        for p in 0..<(w * h) where p % 7 != 0 { rgba[4 * p + 3] = 255 }
        for chroma in [Y4MFormat.Chroma.c420jpeg, .c420, .c444, .mono] {
            Self.checkEncoding(Y4MFormat(width: w, height: h, chroma: chroma, matrix: matrix, fullRange: full), rgba)
        }
    }
}
