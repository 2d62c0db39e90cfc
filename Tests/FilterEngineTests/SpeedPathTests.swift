import CPixelLoops
import Foundation
import Testing
@testable import FilterEngine

/// The fast paths of the speed work give the pixels of the straightforward formulas they replace.
@Suite struct SpeedPathTests {
    /// A pattern with varied colour, partial and zero alpha, and a few values above 1.
    static func pattern(width: Int, height: Int) -> Image {
        TestImages.make(width: width, height: height) { x, y in
            let a: Float = x % 11 == 0 ? 0 : (y % 5 == 0 ? 0.4 : 1)
            let r = Float((x * 13 + y * 7) % 31) / 24, g = Float((x * 5 + y * 11) % 29) / 28
            let b = Float((x * 3 + y * 17) % 23) / 22
            return Pixel(r * a, g * a, b * a, a)
        }
    }

    /// The vectorised powf (CIVignette, CIGammaAdjust) against libm's: within 2 + 1.1·|power| ulp over bases
    /// from 2^-126 to 2^100 at powers from −7.3 to 40 (and near the largest float, where only 0, 1 and infinity
    /// come out); zero, subnormals, negatives, infinities and NaN as powf gives them; under 1e-7 absolute where
    /// results are subnormal. Power 1 is the identity, power 2 the correctly rounded square.
    @Test(arguments: [2, 1.6, 0.37, 1, 0, -0.2, -7.3, 7.3, 40, 1e38, -3e38] as [Float])
    func vectorisedPowerIsPowf(power: Float) {
        var bases: [Float] = [0, -0, 1e-45, 1e-39, -1, -0.5, .infinity, -.infinity, .nan, 1, .leastNormalMagnitude]
        var x: Float = .leastNormalMagnitude
        while x < 0x1p100 {
            bases.append(x)
            x *= 1.0009765
        }
        var out = [Float](repeating: 0, count: bases.count)
        pixelloops_powf(bases, &out, Int32(bases.count), power)
        var worstUlp: Float = 0
        for (base, got) in zip(bases, out) {
            let expected = powf(base, power)
            if expected.isNaN || got.isNaN {
                #expect(expected.isNaN && got.isNaN, "powf(\(base), \(power))")
            } else if !expected.isNormal || expected.isInfinite {
                #expect(abs(got - expected) < 1e-7 || got == expected, "powf(\(base), \(power)) = \(expected), got \(got)")
            } else {
                worstUlp = max(worstUlp, abs(got - expected) / expected.ulp)
            }
        }
        // log2's error is multiplied by the power. The identity is exact; a square is correctly rounded, which
        // libm's powf is not always (1 ulp apart here).
        let bound: Float = power == 1 ? 0 : power == 2 ? 1 : 2 + 1.1 * abs(power)
        #expect(worstUlp <= bound, "\(worstUlp) ulp at power \(power)")
        if power == 2 { #expect(zip(bases, out).allSatisfy { $0 * $0 == $1 || $1.isNaN }) }
    }

    /// One zoom pass by definition: the mean of 8 bilinear samples at p + (c − p)·k·j/8 (every pixel here is
    /// far enough from the centre for all 8), each sample `PixelBuffer.sampleLinear`.
    @Test func zoomPassRowsMatchPerSampleBilinear() throws {
        let image = Self.pattern(width: 90, height: 40)
        let source = try TestImages.render(image)
        let centre = SIMD2<Double>(-60.5, 70.25), k = 0.15
        let out = try TestImages.render(BlurEffectFilters.zoomPass(image, centre: centre, k: k, extent: image.extent))
        var worst: Float = 0
        for y in 0..<40 {
            for x in 0..<90 {
                let px = Float(x) + 0.5, py = Float(y) + 0.5
                let sx = (Float(centre.x) - px) * Float(k), sy = (Float(centre.y) - py) * Float(k)
                #expect((sx * sx + sy * sy).squareRoot() >= 7)
                var sum = Pixel(0, 0, 0, 0)
                for j in 0..<8 {
                    let t = Float(j) * 0.125
                    sum += source.sampleLinear(px + sx * t, py + sy * t)
                }
                worst = max(worst, largestComponent(out.pixel(x: x, y: y) - sum * 0.125))
            }
        }
        #expect(worst < 1e-5)
    }

    /// Samples that leave the image read transparent, as the bilinear sampler's do.
    @Test func zoomPassReadsTransparentOutside() throws {
        let image = TestImages.make(width: 20, height: 20) { _, _ in Pixel(1, 1, 1, 1) }
        // Centre far to the left: every streak runs out of the image to the left by k·distance.
        let out = try TestImages.render(BlurEffectFilters.zoomPass(image, centre: SIMD2(-1000, 10), k: 0.5,
                                                                   extent: image.extent))
        let source = try TestImages.render(image)
        for x in [0, 5, 19] {
            let px = Float(x) + 0.5, py: Float = 10.5
            var sum = Pixel(0, 0, 0, 0)
            for j in 0..<8 { sum += source.sampleLinear(px + (-1000 - px) * 0.5 * Float(j) * 0.125, py) }
            #expect(close(out.pixel(x: x, y: 10), sum * 0.125, tolerance: 1e-6))
        }
    }

    /// The sepia kernel's two loops compute exactly the per-pixel formula with `SepiaCurves.Table.lookup`.
    @Test func sepiaMatchesThePerPixelFormula() throws {
        let image = Self.pattern(width: 70, height: 30)
        let source = try TestImages.render(image)
        let t: Float = 0.8
        let out = try TestImages.render(try TestImages.filter("CISepiaTone", ["inputImage": .image(image),
                                                                            "inputIntensity": .number(Double(t))]))
        let w = ColorMath.lumaWeights
        for y in 0..<30 {
            for x in 0..<70 {
                var p = source.pixel(x: x, y: y)
                if p.w > 0 {
                    let luma = max((p.x * w.x + p.y * w.y + p.z * w.z) / p.w, 0)
                    let tone = luma <= 1 ? SepiaCurves.table.lookup(luma) : SepiaCurves.exact(luma)
                    p.x += (tone.x * p.w - p.x) * t
                    p.y += (tone.y * p.w - p.y) * t
                    p.z += (tone.z * p.w - p.z) * t
                }
                #expect(out.pixel(x: x, y: y) == p, "pixel \(x), \(y)")
            }
        }
    }

    /// The vertical Lanczos pass, summed in blocks, equals the weighted sum of the source rows.
    @Test func lanczosVerticalPassIsTheWeightedSum() throws {
        let image = Self.pattern(width: 600, height: 50)  // wider than one 256-pixel block
        let source = try TestImages.render(image)
        let pass = Resampling.pass(image, scale: 0.5, vertical: true, filter: .lanczos3)
        let out = try TestImages.render(pass)
        let t = Resampling.taps(first: 0, count: 25, scale: 0.5, filter: .lanczos3, sourceLow: 0, sourceHigh: 49)
        for y in [0, 7, 24] {
            for x in [0, 255, 256, 599] {
                var sum = Pixel(0, 0, 0, 0)
                for j in 0..<t.count[y] { sum += source.pixel(x: x, y: t.start[y] + j) * t.weights[t.offset[y] + j] }
                #expect(close(out.pixel(x: x, y: y), sum, tolerance: 1e-6), "pixel \(x), \(y)")
            }
        }
    }

    /// The horizontal pass reading an 8-bit picture row by row gives the pass over the decoded floats, and a
    /// whole Lanczos shrink of such a picture stays within float rounding of the vertical-first order.
    @Test func horizontalPassFromTheSourceMatchesTheMaterialisedPass() throws {
        let (width, height) = (300, 20)
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<width * height {
            bytes[4 * i] = UInt8(i * 7 % 256); bytes[4 * i + 1] = UInt8(i * 13 % 256)
            bytes[4 * i + 2] = UInt8(i * 3 % 256); bytes[4 * i + 3] = i % 9 == 0 ? 90 : 255
        }
        let image = TestImages.rgba8(width: width, height: height, bytes: bytes)
        guard case .source(let pixels) = image.kind else {
            Issue.record("an 8-bit picture is a source image")
            return
        }
        for filter in [Resampling.Filter.lanczos3, .cubic(b: 0, c: 0.75), .maximum] {
            let streamed = try TestImages.render(Resampling.horizontalFromSource(image, pixels, scale: 0.45, filter: filter))
            let materialised = try TestImages.render(Resampling.pass(image, scale: 0.45, vertical: false, filter: filter))
            #expect(TestImages.maxDifference(streamed, materialised) == 0)
        }
        let shrunk = try TestImages.render(Resampling.scale(image, sx: 0.5, sy: 0.5, filter: .lanczos3, arithmetic: .float))
        let verticalFirst = try TestImages.render(
            Resampling.pass(Resampling.pass(image, scale: 0.5, vertical: true, filter: .lanczos3),
                            scale: 0.5, vertical: false, filter: .lanczos3))
        #expect(TestImages.maxDifference(shrunk, verticalFirst) < 1e-5)
    }

    /// The whole Lanczos scale from a decoded picture (four rows at a time in C, padded taps) against the formula
    /// evaluated directly in doubles: every output pixel the normalised sum over all source pixels of
    /// L((i + ½ − cx)·fx)·L((j + ½ − cy)·fy), with cx = (x + ½)/sx and f = min(scale, 1). Odd sizes (row counts no
    /// multiple of 4, odd output widths), edges, alpha (8-bit, and floats with zero alpha and values above 1),
    /// shrinking, enlarging and unequal axes.
    @Test func lanczosFromTheSourceMatchesTheFormula() throws {
        func lanczos(_ x: Double) -> Double {
            let t = abs(x)
            if t < 1e-9 { return 1 }
            if t >= 3 { return 0 }
            return 3 * sin(Double.pi * t) * sin(Double.pi * t / 3) / (Double.pi * t * Double.pi * t)
        }
        /// Normalised weights of every source index for output index `o` along one axis of `size` pixels.
        func weights(_ o: Int, scale s: Double, size: Int) -> [Double] {
            let centre = (Double(o) + 0.5) / s, f = min(s, 1)
            let w = (0..<size).map { lanczos((Double($0) + 0.5 - centre) * f) }
            let sum = w.reduce(0, +)
            return w.map { $0 / sum }
        }
        let (width, height) = (37, 23)
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<width * height {
            bytes[4 * i] = UInt8(i * 7 % 256); bytes[4 * i + 1] = UInt8(i * 13 % 256)
            bytes[4 * i + 2] = UInt8(i * 3 % 256); bytes[4 * i + 3] = i % 9 == 0 ? 90 : (i % 7 == 0 ? 0 : 255)
        }
        let opaque = bytes.enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }
        let images = [TestImages.rgba8(width: width, height: height, bytes: bytes),
                      TestImages.rgba8(width: width, height: height, bytes: opaque),
                      Self.pattern(width: width, height: height)]
        for image in images {
            guard case .source = image.kind else {
                Issue.record("a decoded picture is a source image")
                continue
            }
            let source = try TestImages.render(image)
            for (sx, sy) in [(0.5, 0.5), (0.37, 0.37), (0.25, 0.3), (0.75, 0.75), (1.5, 1.5), (2, 2), (0.6, 1.7), (1.3, 0.45)] {
                let out = try TestImages.render(Resampling.scale(image, sx: sx, sy: sy, filter: .lanczos3, arithmetic: .float))
                #expect(out.rect == PixelRect(x: 0, y: 0, width: Int((Double(width) * sx).rounded(.up)),
                                              height: Int((Double(height) * sy).rounded(.up))))
                var worst: Float = 0
                for y in 0..<out.rect.height {
                    let wy = weights(y, scale: sy, size: height)
                    for x in 0..<out.rect.width {
                        let wx = weights(x, scale: sx, size: width)
                        var sum = SIMD4<Double>(0, 0, 0, 0)
                        for j in 0..<height where wy[j] != 0 {
                            for i in 0..<width where wx[i] != 0 {
                                let p = source.pixel(x: i, y: j)
                                sum += SIMD4(Double(p.x), Double(p.y), Double(p.z), Double(p.w)) * (wx[i] * wy[j])
                            }
                        }
                        let expected = Pixel(Float(sum.x), Float(sum.y), Float(sum.z), Float(sum.w))
                        worst = max(worst, largestComponent(out.pixel(x: x, y: y) - expected))
                    }
                }
                // Float sums of up to 12 × 12 terms against doubles: a few ulps of values about 1 (a wrong tap or
                // weight would be off by a whole pixel's contribution).
                #expect(worst < 5e-5, "scale \(sx) × \(sy): off by \(worst)")
            }
        }
    }

    /// The gathered 8-bit decode gives the table's floats (and the premultiply's) for every byte value of every
    /// channel, opaque and not, over spans whose length is no multiple of 8 (the scalar tail too).
    @Test func gatheredDecodeMatchesTheTable() throws {
        let table = ColorMath.decodeTable
        for opaque in [true, false] {
            // Row y holds every byte in each colour channel (shifted per channel) and, unless opaque, every alpha.
            let (width, height) = (256, 3)
            var bytes = [UInt8](repeating: 255, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let o = (y * width + x) * 4
                    bytes[o] = UInt8(x); bytes[o + 1] = UInt8((x + 85 * y + 1) % 256)
                    bytes[o + 2] = UInt8((255 - x + y) % 256); bytes[o + 3] = opaque ? 255 : UInt8((x * 7 + y) % 256)
                }
            }
            let pixels = SourcePixels(rgba8TopDown: bytes, width: width, height: height)
            #expect(pixels.isOpaque == opaque)
            let memory = UnsafeMutablePointer<Float>.allocate(capacity: 4 * width)
            let scratch = UnsafeMutablePointer<Pixel>.allocate(capacity: width)
            defer { memory.deallocate(); scratch.deallocate() }
            let row = PlanarRow(base: memory, stride: width)
            for y in 0..<height {
                for (x0, count) in [(0, 256), (3, 253), (1, 13), (250, 6)] {
                    pixels.read(x0: x0, y: y, count: count, into: row, scratch: scratch)
                    for i in 0..<count {
                        // Rows are stored bottom to top.
                        let o = ((height - 1 - y) * width + x0 + i) * 4
                        let alpha = Float(bytes[o + 3]) * (1 / 255)
                        let expected = opaque
                            ? Pixel(table[Int(bytes[o])], table[Int(bytes[o + 1])], table[Int(bytes[o + 2])], 1)
                            : Pixel(table[Int(bytes[o])] * alpha, table[Int(bytes[o + 1])] * alpha,
                                    table[Int(bytes[o + 2])] * alpha, alpha)
                        #expect(row[i] == expected, "pixel \(x0 + i), row \(y), opaque \(opaque)")
                    }
                }
            }
        }
    }

    /// The gathered (or, with AVX-512, stepped) 8-bit encode gives the scalar table look-up for the first, middle
    /// and last float of every slice of the table, below and above its range, negative, zero, infinite and NaN;
    /// opaque spans and spans with alpha, of lengths that are no multiple of 8.
    @Test func gatheredEncodeMatchesTheTableEverywhere() {
        // The table's steps exist (the builder checked them against every entry), so AVX-512 encodes use them.
        #expect(ColorMath.encodeSteps != nil)
        let shift = ColorMath.encodeTableShift, base = ColorMath.encodeTableBase
        var values: [Float] = [0, -0, -1, -0.5, .leastNonzeroMagnitude, 1e-30, 1, 1.5, 2, 1e30, .infinity,
                               -.infinity, .nan]
        for i in 0..<UInt32(ColorMath.encodeTableCount) {
            let first = (i + base) << shift
            values += [first, first | 1 << (shift - 1), first | (1 << shift - 1)].map { Float(bitPattern: $0) }
        }
        func reference(_ v: Float) -> UInt8 {
            let index = min(max((Int32(bitPattern: v.bitPattern) >> Int32(shift)) - Int32(base), 0),
                            Int32(ColorMath.encodeTableCount - 1))
            return ColorMath.encodeTable[Int(index)]
        }
        let span = RowEvaluator.spanWidth - 3
        let (row, memory) = RowEvaluator.makeRow()
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * span)
        defer { memory.deallocate(); out.deallocate() }
        var mismatches = 0
        for opaque in [true, false] {
            for start in stride(from: 0, to: values.count, by: span) {
                let count = min(span, values.count - start)
                for i in 0..<count {
                    // Colour channels take the values in different orders, so each meets every tail position.
                    row.r[i] = values[start + i]
                    row.g[i] = values[start + (i + 5) % count]
                    row.b[i] = values[start + count - 1 - i]
                    row.a[i] = 1
                }
                // Alpha 1 keeps the colour unchanged; one pixel of alpha 0.5 makes the span take the general path.
                if !opaque { row.a[count - 1] = 0.5 }
                PixelEncoding.encodeSRGB8(row, count: count, into: out)
                for i in 0..<count {
                    let inv: Float = row.a[i] == 1 ? 1 : 2
                    let expected = [reference(row.r[i] * inv), reference(row.g[i] * inv), reference(row.b[i] * inv),
                                    row.a[i] == 1 ? 255 : 128]
                    if Array(UnsafeBufferPointer(start: out + 4 * i, count: 4)) != expected { mismatches += 1 }
                }
            }
        }
        #expect(values.count > 45_000)
        #expect(mismatches == 0)
    }

    /// `renderRGBA8` writes the bytes of the transparent outside of the root itself: over rectangles reaching
    /// outside the image (or wholly outside), for a fused source, a materialised root (a scale) and a blur, every
    /// byte is the encode of the float render, into memory filled with garbage first (so a byte left unwritten
    /// shows).
    @Test func bytesAroundTheImageAreTheEncodedRender() throws {
        let image = Self.pattern(width: 37, height: 23)
        let roots = [image, Resampling.scale(image, sx: 0.5, sy: 0.5, filter: .lanczos3),
                     try image.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(2)])]
        let rects = [Rect(x: -13, y: -7, width: 70, height: 40), Rect(x: 5, y: 3, width: 900, height: 9),
                     Rect(x: 100, y: 100, width: 20, height: 5)]
        let context = RenderContext()
        let (row, memory) = RowEvaluator.makeRow()
        defer { memory.deallocate() }
        for (k, root) in roots.enumerated() {
            for rect in rects {
                let floats = try context.render(root, rect: rect)
                let r = floats.rect
                var bytes = [UInt8](repeating: 0xAB, count: r.area * 4)
                try bytes.withUnsafeMutableBufferPointer { try context.renderRGBA8(root, rect: rect, into: $0.baseAddress!) }
                var expected = [UInt8](repeating: 0, count: r.area * 4)
                for y in r.y..<r.maxY {
                    row.load(floats.row(y), count: r.width)
                    // Rows top to bottom, as renderRGBA8 writes them.
                    expected.withUnsafeMutableBufferPointer {
                        PixelEncoding.encodeSRGB8Reference(row, count: r.width, into: $0.baseAddress! + (r.maxY - 1 - y) * r.width * 4)
                    }
                }
                let wrong = zip(bytes, expected).filter { $0 != $1 }.count
                #expect(wrong == 0, "root \(k), rect \(rect): \(wrong) bytes differ")
            }
        }
    }

    /// Spans with alpha: the C encode (unpremultiply and indices where they are gathered) gives the bytes of the
    /// Swift loop it replaced, for colours across the table (and infinite, NaN), alphas 0, negative, above 1,
    /// a few ulps either side of 1 (a resampled opaque photo) and in between, runs of transparent +0 pixels; span
    /// lengths no multiple of 8.
    @Test func encodeWithAlphaMatchesTheSwiftLoop() {
        let shift = ColorMath.encodeTableShift, base = ColorMath.encodeTableBase
        var colours: [Float] = [0, -0, -1, 1, 2, 1e30, .infinity, -.infinity, .nan, .leastNonzeroMagnitude]
        for i in stride(from: 0, to: UInt32(ColorMath.encodeTableCount), by: 7) {
            colours.append(Float(bitPattern: (i + base) << shift | 1 << (shift - 1)))
        }
        let alphas: [Float] = [0, -0, -0.3, 1e-30, 0.002, 0.25, 0.5, 0.999, 1, 1.5, 1e30, 0.99999994, 0.9999998,
                               1.0000001, 1.0000002]
        let span = RowEvaluator.spanWidth - 5
        let (row, memory) = RowEvaluator.makeRow()
        let fast = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * span)
        let slow = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * span)
        defer { memory.deallocate(); fast.deallocate(); slow.deallocate() }
        var mismatches = 0, spans = 0
        for start in stride(from: 0, to: colours.count, by: span) {
            let count = min(span, colours.count - start)
            for i in 0..<count {
                let alpha = alphas[(start + i) % alphas.count]
                row.r[i] = colours[start + i] * alpha
                row.g[i] = colours[start + (i + 3) % count]
                row.b[i] = colours[start + count - 1 - i] * 0.5
                row.a[i] = alpha
            }
            // Runs of +0 pixels (the C loop stores 8, or 64 with AVX-512, of them without the look-ups), one broken by
            // a -0 alpha, one by a colour under alpha 0, at offsets that are no multiple of 8.
            for i in 21..<230 where i < count { row.r[i] = 0; row.g[i] = 0; row.b[i] = 0; row.a[i] = 0 }
            if count > 60 { row.a[33] = -0; row.g[50] = 0.25 }
            PixelEncoding.encodeSRGB8(row, count: count, into: fast)
            PixelEncoding.encodeSRGB8Reference(row, count: count, into: slow)
            for i in 0..<4 * count where fast[i] != slow[i] { mismatches += 1 }
            spans += 1
        }
        #expect(spans >= 2)
        #expect(mismatches == 0)
    }

    /// CIColorControls' opaque spans (no division by alpha) give the general formula's floats exactly.
    @Test func colorControlsOpaqueSpansMatchTheGeneralFormula() throws {
        let image = TestImages.make(width: 70, height: 9) { x, y in
            Pixel(Float(x) / 50, Float((x * 7 + y) % 13) / 12, Float(y) / 8, 1)
        }
        let source = try TestImages.render(image)
        let (saturation, brightness, contrast): (Float, Float, Float) = (1.2, 0.05, 1.1)
        let out = try TestImages.render(try TestImages.filter("CIColorControls", [
            "inputImage": .image(image), "inputSaturation": .number(1.2), "inputBrightness": .number(0.05),
            "inputContrast": .number(1.1)]))
        let w = ColorMath.lumaWeights
        for y in 0..<9 {
            for x in 0..<70 {
                let p = source.pixel(x: x, y: y)
                let alpha = p.w, inv = 1 / alpha
                let s = SIMD3(p.x * inv, p.y * inv, p.z * inv)
                let luma = s.x * w.x + s.y * w.y + s.z * w.z
                let c = s.indices.map { ((luma + (s[$0] - luma) * saturation - 0.5) * contrast + 0.5 + brightness) * alpha }
                #expect(out.pixel(x: x, y: y) == Pixel(c[0], c[1], c[2], alpha), "pixel \(x), \(y)")
            }
        }
    }
}
