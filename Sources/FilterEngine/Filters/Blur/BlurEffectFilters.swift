import Foundation

/// The blur family beyond the Gaussian: box, disc, motion, zoom, median, noise reduction, masked variable
/// blur, bokeh, bloom and gloom. Neighbourhood stages live in BlurStages.
enum BlurEffectFilters {
    static let all: [String: FilterImplementation] = [
        "CIBoxBlur": boxBlur,
        "CIDiscBlur": discBlur,
        "CIMotionBlur": motionBlur,
        "CIZoomBlur": zoomBlur,
        "CIMedianFilter": medianFilter,
        "CINoiseReduction": noiseReduction,
        "CIMaskedVariableBlur": maskedVariableBlur,
        "CIBokehBlur": bokehBlur,
        "CIBloom": bloom,
        "CIGloom": gloom,
    ]

    /// The half-width of Core Image's box for a radius: its render at radius 40 (shared/conformance/CIBoxBlur,
    /// 660×483 in, 698×521 out) grows the extent by 19 pixels a side, a 39-pixel box.
    static func boxHalfWidth(_ radius: Double) -> Int {
        max(0, Int(saturating: ((radius - 1) / 2).rounded(.down)))
    }

    static func boxBlur(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        // Radii beyond 1e12 change nothing the renderer holds (±2^28 px).
        let h = boxHalfWidth(min(try inputs.number("inputRadius"), 1e12))
        guard h > 0, !image.extent.isEmpty else { return image }
        // The two running-sum passes cost O(1) a pixel, but their intermediates span the box: up to a half-width
        // of 4096 they run on the image itself (exact). Wider boxes run on a pyramid level where the half-width
        // is at most 1024 (block means then a box: within a block's width of the exact box, under 0.1% of it),
        // so a huge radius costs no more than a small one; its extent grows by the half-width, as Core Image's.
        if h <= 4096 { return BlurStages.box(image, halfWidth: h) }
        let extent = BlurStages.grow(image.extent, h, h)
        return BlurStages.onPyramid(image, radius: Double(h), limit: 1024, extent: extent) { small, r in
            BlurStages.box(small, halfWidth: Int(r.rounded()))
        }
    }

    /// A mean over a disc. Radii up to 12 pixels work on the image itself (2R+1 span sums a pixel from
    /// per-row prefix sums); larger ones on a pyramid level where the radius is at most 12, scaled back up.
    /// The extent grows by ⌈radius⌉ + 2 a side unless the caller gives one: Apple's iOS 12.1 render at radius 20
    /// (shared/conformance/CIDiscBlur: 660×483 → 704×527, the picture at (22, 22)) reaches 21 px and declares
    /// two more (transparent) pixels; the content matches a plain disc mean at 50.8 dB. Other radii: the same
    /// margin of 2 is assumed (one render only).
    static func disc(_ image: Image, radius: Double, extent: Rect? = nil) -> Image {
        guard radius >= 1, !image.extent.isEmpty else { return image }
        let reach = Int(saturating: radius.rounded(.up))
        let extent = extent ?? BlurStages.grow(image.extent, reach + 2, reach + 2)
        return BlurStages.onPyramid(image, radius: radius, limit: 12, extent: extent) { BlurStages.discMean($0, radius: $1) }
    }

    static func discBlur(_ inputs: FilterInputs) throws -> Image {
        // A radius below 1 leaves the image (as 0 would). Above 1e12 nothing the renderer holds (±2^28 px)
        // changes: clamped so the pyramid's depth stays bounded. No other limit: the cost does not grow.
        disc(try inputs.image("inputImage"), radius: min(try inputs.number("inputRadius"), 1e12))
    }

    /// The bokeh blur's extent: the input's rounded out to even coordinates, grown by 2·⌈r/2⌉ + 4 a side, as if
    /// worked on a half-resolution level with a margin of 2 level pixels beyond the radius. Fitted on Apple's
    /// iOS 12.1 render at radius 30 (shared/conformance/CIBokehBlur: 660×483 → 728×552, the picture at
    /// (34, 34): 34 px left, right and below, 35 above the odd height). Other radii are an extrapolation.
    static func bokehExtent(_ extent: Rect, radius: Double) -> Rect {
        guard !extent.isInfinite else { return extent }
        let margin = 2 * (radius / 2).rounded(.up) + 4
        let x0 = (extent.minX / 2).rounded(.down) * 2 - margin, y0 = (extent.minY / 2).rounded(.down) * 2 - margin
        let x1 = (extent.maxX / 2).rounded(.up) * 2 + margin, y1 = (extent.maxY / 2).rounded(.up) * 2 + margin
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// A Gaussian of σ = inputRadius along the line in the direction inputAngle (both ways), over ±3σ, sampled
    /// every pixel with bilinear weights: a fixed stencil, applied row by row. Long lines are blurred on a pyramid
    /// level where σ is at most 8 pixels, then scaled back up.
    /// The weights: Apple's iOS 12.1 render (shared/conformance/CIMotionBlur, radius 20, angle 3) measures 44.7 dB
    /// inside the picture with this Gaussian, 33.7 with σ = 15 and 28.8 with a uniform mean over ±radius.
    static func motionBlur(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        // Clamped at 1e12 as the disc blur's (beyond it every streak covers all representable pixels).
        let sigma = min(try inputs.number("inputRadius"), 1e12), angle = try inputs.number("inputAngle")
        guard sigma >= 0.5, !image.extent.isEmpty else { return image }
        let extent = motionBlurExtent(image.extent, sigma: sigma, angle: angle, version: inputs.coreImageVersion)
        return BlurStages.onPyramid(image, radius: sigma, limit: 8, extent: extent) { small, s in
            BlurStages.stencil(small, taps: BlurStages.lineTaps(sigma: s, cos: cos(angle), sin: sin(angle)))
        }
    }

    /// The motion blur's extent: the reach of the Gaussian, 3σ along the line, as the Gaussian blur's today
    /// (no render). iOS 9–12 declared more: the render above grows 120 px left and right and 16 below and
    /// above (660×483 → 900×515, the picture centred). 6σ·|cos| = 118.8 and 6σ·|sin| = 16.9, each rounded to
    /// the nearest multiple of 8, give both; 8 is the level a pyramid blur of σ 20 works on (halved while σ
    /// stays ≥ 2.5 there, as `BlurFilters.gaussian`), which is assumed for other radii (one render: the rounding
    /// is a fit). The haze Apple leaves in that margin (alpha 8–40/255, the edge colours) is not reproduced:
    /// the case measures 31.4 dB, 44.7 inside the picture.
    static func motionBlurExtent(_ extent: Rect, sigma: Double, angle: Double, version: CoreImageVersion) -> Rect {
        let ax = abs(cos(angle)) * sigma, ay = abs(sin(angle)) * sigma
        guard version >= CoreImageVersion(9), version < CoreImageVersion(13) else {
            // Less a hair, so that cos(π/2) = 6e-17 grows nothing.
            return BlurStages.grow(extent, Int(saturating: max(3 * ax - 1e-9, 0).rounded(.up)),
                                   Int(saturating: max(3 * ay - 1e-9, 0).rounded(.up)))
        }
        var level = 1.0
        while sigma / (level * 2) >= 2.5 && level < 0x1p40 { level *= 2 }
        return BlurStages.grow(extent, Int(saturating: (6 * ax / level).rounded() * level),
                               Int(saturating: (6 * ay / level).rounded() * level))
    }

    /// Each pixel the mean of the image along the segment from itself towards inputCenter, over inputAmount/66
    /// of the distance (negative amounts point away from the centre): far pixels streak more, the centre stays
    /// sharp. The segment is covered in passes of 8 samples each, every pass spanning an eighth of the one
    /// before (8 samples, then 64, 512, 4096 evenly spaced positions in effect), so the cost stays at most 32
    /// bilinear samples a pixel however long the streak (fewer near the centre).
    /// The scale: Apple's iOS 12.1 render (shared/conformance/CIZoomBlur, amount 30, centre (200, 200),
    /// 660×483 → 1211×886 at (−167, −167)) samples p ↦ c + (p − c)·σ for σ from 6/11 to 1, i.e. 30/66 of the
    /// distance (a least-squares fit of the weights over σ puts the end at 0.542–0.546), and its extent is every
    /// point whose segment reaches the input (`zoomExtent`). Apple weights the middle of the segment about twice
    /// its ends (a tent on a pedestal: 51 dB); a uniform mean, as here, measures 37.1 dB. Other amounts: the same
    /// linear scale is assumed (one render).
    static func zoomBlur(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let centre = try inputs.point("inputCenter")
        let k = try inputs.number("inputAmount") / 66
        let e = image.extent
        guard abs(k) > 1e-4, !e.isEmpty else { return image }
        let extent = zoomExtent(e, centre: centre, k: k)
        // What is computed is bounded: past k = 0.99 (amount 65.3) the streaks are taken to end at the centre
        // (Apple's rule past 66 is unknown: its segment would pass through the centre), so the passes work over
        // at most 100 times the input about the centre; a centre so far that the grown extent passes 128 times
        // the input's size works over the input's extent, as before (the streaks then run nearly parallel). An
        // infinite declared extent stays transparent beyond what is computed.
        let kc = min(k, 0.99)
        let grown = zoomExtent(e, centre: centre, k: kc)
        let near = !grown.isInfinite && grown.width <= 128 * max(e.width, 1) && grown.height <= 128 * max(e.height, 1)
        let working = near ? grown : e
        // One pass (streaks of at most 8 pixels) costs less than the rays and is the definition itself.
        let passes = zoomPassCount(e, centre: centre, k: kc)
        if passes >= 2, extent == working, ZoomRays.applies(extent: working, centre: centre, k: kc) {
            return ZoomRays.apply(image, centre: centre, k: kc, extent: working, passes: passes)
        }
        return zoomPasses(image, centre: centre, k: kc, extent: near ? extent : e, working: working)
    }

    /// The zoom's output extent: the points whose segment (scales σ between 1 − k and 1 about the centre) meets
    /// the input, i.e. the bounding box of the input and its copy scaled by 1/(1 − k), rounded out to whole
    /// pixels (Apple's render above: 200·11/6 = 366.7 → 367 left and below, 460·11/6 → 844 right, 283·11/6 → 519
    /// above). From k = 1 on (amount 66) a segment reaches through the centre, so every point sees the input
    /// when the centre is inside it: the extent is infinite, like a generator's, and is cropped as one; so is
    /// one beyond what the renderer holds (±2^28 px). Negative amounts look outwards and keep the input's extent.
    static func zoomExtent(_ e: Rect, centre: SIMD2<Double>, k: Double) -> Rect {
        guard !e.isInfinite, k > 0 else { return e }
        guard k < 1 else { return .infinite }
        let f = 1 / (1 - k)
        let x0 = centre.x + (e.minX - centre.x) * f, x1 = centre.x + (e.maxX - centre.x) * f
        let y0 = centre.y + (e.minY - centre.y) * f, y1 = centre.y + (e.maxY - centre.y) * f
        let limit = Double(1 << 28)
        guard [x0, x1, y0, y1].allSatisfy({ abs($0) < limit }) else { return .infinite }
        let minX = min(x0, e.minX).rounded(.down), maxX = max(x1, e.maxX).rounded(.up)
        let minY = min(y0, e.minY).rounded(.down), maxY = max(y1, e.maxY).rounded(.up)
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// How many passes of 8 samples cover the longest streak (at most 4).
    static func zoomPassCount(_ e: Rect, centre: SIMD2<Double>, k: Double) -> Int {
        // The longest streak: |k| × the farthest corner's distance (a large window for an infinite image).
        let box = e.isInfinite ? Rect(x: centre.x - 4096, y: centre.y - 4096, width: 8192, height: 8192) : e
        let far = [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)]
            .map { (($0.0 - centre.x) * ($0.0 - centre.x) + ($0.1 - centre.y) * ($0.1 - centre.y)).squareRoot() }.max()!
        var passes = 1, span = abs(k) * far
        while span > 8 && passes < 4 { span /= 8; passes += 1 }
        return passes
    }

    /// The zoom blur by passes of 8 bilinear samples (checked against the ray path, and the path for infinite
    /// extents, far centres, short streaks and amounts beyond the rays' cap).
    static func zoomPasses(_ image: Image, centre: SIMD2<Double>, k: Double, extent: Rect? = nil,
                           working: Rect? = nil) -> Image {
        let e = extent ?? image.extent, inner = working ?? e
        let passes = zoomPassCount(inner, centre: centre, k: k)
        var result = image
        var scale = k
        for pass in 0..<passes {
            result = zoomPass(result, centre: centre, k: scale, extent: pass == passes - 1 ? e : inner)
            scale /= 8
        }
        return result
    }

    /// One zoom pass: the mean of n bilinear samples at p + (c − p)·k·j/n, j = 0..<n, n = min(8, ⌈span⌉ + 1)
    /// for a span |c − p|·|k| (one sample, the pixel itself, under half a pixel).
    static func zoomPass(_ image: Image, centre: SIMD2<Double>, k: Double, extent: Rect) -> Image {
        let cx = Float(centre.x), cy = Float(centre.y), kf = Float(k)
        let kernel = GeneralKernel(name: "zoomBlur", roi: { _, r in
            // Samples lie between p and p + (c − p)·k: the rectangle and its image under that scaling about c.
            let s = 1 - k
            let ax = centre.x + (Double(r.x) - centre.x) * s, bx = centre.x + (Double(r.maxX) - centre.x) * s
            let ay = centre.y + (Double(r.y) - centre.y) * s, by = centre.y + (Double(r.maxY) - centre.y) * s
            let mapped = PixelRect(covering: Rect(x: min(ax, bx), y: min(ay, by), width: abs(bx - ax), height: abs(by - ay)))
            return r.union(mapped).insetBy(dx: -2, dy: -2)
        }) { context in
            let source = context.inputs[0], r = context.rect
            // A row's sample points are listed for a group of pixels, sampled together by the span sampler (its
            // weights vectorise), then summed per pixel. Same points and sums as one `sampleLinear` a sample.
            // Measured on the 2-core dev VM (bench case i, CPU time of 11 renders): 28% less.
            let capacity = RowEvaluator.spanWidth
            let points = UnsafeMutablePointer<SIMD2<Float>>.allocate(capacity: capacity)
            let counts = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
            let planes = UnsafeMutablePointer<Float>.allocate(capacity: 4 * capacity)
            let scratch = UnsafeMutableRawPointer.allocate(byteCount: 12 * capacity, alignment: 16)
            defer { points.deallocate(); counts.deallocate(); planes.deallocate(); scratch.deallocate() }
            let samples = PlanarRow(base: planes, stride: capacity)
            let rows = ZoomRows(source: source, width: r.width)
            defer { rows.release() }
            for y in r.y..<r.maxY {
                let out = context.output.row(y) + (r.x - context.output.rect.x)
                let py = Float(y) + 0.5
                // Pixels with the full 8 samples (all but a small disc about the centre) row by row; the rest below.
                rows.fullSamples(x0: r.x, py: py, cx: cx, cy: cy, k: kf, into: out)
                var first = 0, used = 0  // the group's first pixel and its points so far
                func finishGroup(before end: Int) {
                    source.sampleLinear(points, count: used, into: samples, scratch: scratch)
                    var k = 0
                    for i in first..<end {
                        let n = counts[i - first]
                        if n == 8 { continue }  // done by `fullSamples`
                        // No samples: a span under half a pixel keeps the pixel itself.
                        guard n > 0 else {
                            out[i] = source.pixel(x: r.x + i, y: y)
                            continue
                        }
                        var sum = Pixel(0, 0, 0, 0)
                        for _ in 0..<n {
                            sum += Pixel(samples.r[k], samples.g[k], samples.b[k], samples.a[k])
                            k += 1
                        }
                        out[i] = sum * (1 / Float(n))
                    }
                    first = end
                    used = 0
                }
                for i in 0..<r.width {
                    let px = Float(r.x + i) + 0.5
                    let sx = (cx - px) * kf, sy = (cy - py) * kf
                    let span = (sx * sx + sy * sy).squareRoot()
                    // Samples at most a pixel apart: fewer than 8 where the span is short.
                    // Compared before converting: a span of inf or NaN (an amount or centre of 1e30) takes 8
                    // samples, which land outside and read transparent, instead of an undefined conversion.
                    let n = span < 0.5 ? 0 : (span < 7 ? Int(span.rounded(.up)) + 1 : 8)
                    if used + n > capacity || i - first == capacity { finishGroup(before: i) }
                    counts[i - first] = n
                    if n == 8 { continue }
                    let step = 1 / Float(n)
                    for j in 0..<n {
                        let t = Float(j) * step
                        points[used + j] = SIMD2(px + sx * t, py + sy * t)
                    }
                    used += n
                }
                finishGroup(before: r.width)
            }
        }
        return kernel.apply(extent: extent, inputs: [image])
    }

    /// 3×3 median per channel; Core Image keeps the input's extent (shared/conformance/CIMedianFilter).
    static func medianFilter(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        guard !image.extent.isEmpty else { return image }
        return BlurStages.median3x3(image)
    }

    /// Detail is the image minus a light Gaussian blur (σ 1). Where its luminance is below inputNoiseLevel it
    /// is taken as noise and the pixel becomes the blurred one; above, the detail is kept less the threshold
    /// (soft thresholding on the luminance, the same factor for all four channels) and boosted by
    /// 1 + inputSharpness, which sharpens edges. Noise level 0 and sharpness 0 give the input back.
    static func noiseReduction(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let level = try inputs.float("inputNoiseLevel"), sharpness = try inputs.float("inputSharpness")
        guard !image.extent.isEmpty, level > 0 || sharpness > 0 else { return image }
        let blurred = BlurFilters.gaussian(image, sigma: 1)
        let gain = 1 + sharpness
        let w = ColorMath.lumaWeights
        return ColorKernel(name: "noiseReduction") { span in
            let o = span.out, b = span.input(1)
            for i in 0..<span.count {
                let dr = o.r[i] - b.r[i], dg = o.g[i] - b.g[i], db = o.b[i] - b.b[i], da = o.a[i] - b.a[i]
                let dy = abs(dr * w.x + dg * w.y + db * w.z)
                let keep: Float = level <= 0 ? gain : (dy > level ? (1 - level / dy) * gain : 0)
                o.r[i] = b.r[i] + dr * keep
                o.g[i] = b.g[i] + dg * keep
                o.b[i] = b.b[i] + db * keep
                o.a[i] = b.a[i] + da * keep
            }
        }.apply(extent: image.extent, inputs: [image, blurred])
    }

    /// The masked variable blur's extent, by Core Image version (the mask's own extent plays no part):
    /// - iOS 9–12: the input's rounded out to a grid of 64 px and grown by 192 (3 cells), fitted on Apple's
    ///   iOS 12.1 render (shared/conformance/CIMaskedVariableBlur, radius 20, 660×483 image, 1000×562 mask:
    ///   1088×896, the picture at (192, 192): [−192, 896] × [−192, 704], 224 px right of the image and 221
    ///   above, i.e. 192 from the grid). Whether the grid and margin follow the radius is not known (one render):
    ///   they are taken as fixed.
    /// - current: no render; the blur is Gaussian-based, and Core Image's Gaussian extents became tight at iOS 13
    ///   (see BlurFilters.outputExtent), so the reach of the largest level, ⌈3·radius⌉ a side.
    static func maskedVariableBlurExtent(_ extent: Rect, radius: Double, version: CoreImageVersion) -> Rect {
        guard !extent.isInfinite else { return extent }
        guard version < CoreImageVersion(13) else {
            let m = min((3 * radius).rounded(.up), 1e9)
            return extent.insetBy(dx: -m, dy: -m)
        }
        let x0 = (extent.minX / 64).rounded(.down) * 64 - 192, y0 = (extent.minY / 64).rounded(.down) * 64 - 192
        let x1 = (extent.maxX / 64).rounded(.up) * 64 + 192, y1 = (extent.maxY / 64).rounded(.up) * 64 + 192
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The blur radius at each pixel is inputRadius × the mask's luminance (black sharp, white blurriest):
    /// a blend between the image and four Gaussian levels at radius/4, /2, 3/4 and the full radius, over the
    /// extent above (outside the input the image term is transparent, the levels spill where the mask is bright:
    /// Apple's render shows that spill on its right and top edges). Content against Apple's iOS 12.1 render,
    /// aligned: 36.4 dB.
    static func maskedVariableBlur(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        // No cap: the Gaussian levels cost the same for any radius (they clamp at 1e12 themselves).
        let radius = try inputs.number("inputRadius")
        // Radius 0 is the identity, whatever the mask (set or not).
        guard radius > 0.05, !image.extent.isEmpty else { return image }
        let mask = try inputs.image("inputMask")
        let levels = (1...4).map { BlurFilters.gaussian(image, sigma: radius * Double($0) / 4) }
        let w = ColorMath.lumaWeights
        return ColorKernel(name: "maskedVariableBlur") { span in
            let o = span.out, m = span.input(1)
            let l1 = span.input(2), l2 = span.input(3), l3 = span.input(4), l4 = span.input(5)
            for i in 0..<span.count {
                let luma = m.r[i] * w.x + m.g[i] * w.y + m.b[i] * w.z
                let t = min(max(luma, 0), 1) * 4
                // Weights of the five levels (0 = the image): a tent around t.
                let w0 = max(0, 1 - t), w1 = max(0, 1 - abs(t - 1)), w2 = max(0, 1 - abs(t - 2))
                let w3 = max(0, 1 - abs(t - 3)), w4 = max(0, t - 3)
                o.r[i] = o.r[i] * w0 + l1.r[i] * w1 + l2.r[i] * w2 + l3.r[i] * w3 + l4.r[i] * w4
                o.g[i] = o.g[i] * w0 + l1.g[i] * w1 + l2.g[i] * w2 + l3.g[i] * w3 + l4.g[i] * w4
                o.b[i] = o.b[i] * w0 + l1.b[i] * w1 + l2.b[i] * w2 + l3.b[i] * w3 + l4.b[i] * w4
                o.a[i] = o.a[i] * w0 + l1.a[i] * w1 + l2.a[i] * w2 + l3.a[i] * w3 + l4.a[i] * w4
            }
        }.apply(extent: maskedVariableBlurExtent(image.extent, radius: radius, version: inputs.coreImageVersion),
                inputs: [image, mask] + levels)
    }

    /// An approximation of Core Image's lens blur: a disc blur of inputRadius, mixed by inputRingAmount with a
    /// ring (the disc minus an inner disc (1 - inputRingSize)·radius), then softened by a Gaussian of
    /// inputSoftness pixels. Core Image's highlight treatment is not modelled.
    static func bokehBlur(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        // Clamp at 500, the maximum Apple's metadata declares for this filter's radius (an assumption: whether
        // Core Image's kernel clamps there too is not verified); the disc stages would take any radius.
        let radius = min(try inputs.number("inputRadius"), 500)
        let ringAmount = try inputs.float("inputRingAmount"), ringSize = try inputs.number("inputRingSize")
        let softness = try inputs.number("inputSoftness")
        guard radius >= 1, !image.extent.isEmpty else { return BlurFilters.gaussian(image, sigma: softness) }
        let extent = bokehExtent(image.extent, radius: radius)
        var result = disc(image, radius: radius, extent: extent)
        let innerRadius = radius * (1 - ringSize)
        if ringAmount > 0, innerRadius >= 1, radius - innerRadius >= 0.5 {
            let outerCount = Float(BlurStages.discRows(radius).reduce(0) { $0 + 2 * $1 + 1 })
            let innerCount = Float(BlurStages.discRows(innerRadius).reduce(0) { $0 + 2 * $1 + 1 })
            if outerCount > innerCount {
                let inner = disc(image, radius: innerRadius, extent: extent)
                // ring mean = (N·outer − n·inner) / (N − n); mixed with the disc by ringAmount.
                let a = outerCount / (outerCount - innerCount), b = innerCount / (outerCount - innerCount)
                result = ColorKernel(name: "bokehRing") { span in
                    let o = span.out, q = span.input(1)
                    for i in 0..<span.count {
                        o.r[i] += ringAmount * (a * o.r[i] - b * q.r[i] - o.r[i])
                        o.g[i] += ringAmount * (a * o.g[i] - b * q.g[i] - o.g[i])
                        o.b[i] += ringAmount * (a * o.b[i] - b * q.b[i] - o.b[i])
                        o.a[i] += ringAmount * (a * o.a[i] - b * q.a[i] - o.a[i])
                        o.r[i] = max(o.r[i], 0); o.g[i] = max(o.g[i], 0); o.b[i] = max(o.b[i], 0); o.a[i] = max(o.a[i], 0)
                    }
                }.apply(extent: result.extent, inputs: [result, inner])
            }
        }
        return BlurFilters.gaussian(result, sigma: softness)
    }

    /// Glow: each pixel moves towards the lighter of itself and its Gaussian-blurred surroundings (radius
    /// inputRadius), by inputIntensity. Bright areas spill onto darker ones; the extent grows with the glow.
    static func bloom(_ inputs: FilterInputs) throws -> Image {
        try glow(inputs, lighter: true)
    }

    /// The dark counterpart: towards the darker of the pixel and its blurred surroundings. Keeps the extent.
    static func gloom(_ inputs: FilterInputs) throws -> Image {
        try glow(inputs, lighter: false)
    }

    private static func glow(_ inputs: FilterInputs, lighter: Bool) throws -> Image {
        let image = try inputs.image("inputImage")
        // No cap on the radius: the Gaussian's cost does not grow with it. A radius below 0 acts as 0.
        let radius = try inputs.number("inputRadius"), intensity = try inputs.float("inputIntensity")
        guard radius > 0.05, intensity > 0, !image.extent.isEmpty else { return image }
        let blurred = BlurFilters.gaussian(image, sigma: radius)
        let extent = lighter ? blurred.extent : image.extent
        return ColorKernel(name: lighter ? "bloom" : "gloom") { span in
            let o = span.out, b = span.input(1)
            if lighter {
                for i in 0..<span.count {
                    o.r[i] += intensity * max(b.r[i] - o.r[i], 0)
                    o.g[i] += intensity * max(b.g[i] - o.g[i], 0)
                    o.b[i] += intensity * max(b.b[i] - o.b[i], 0)
                    o.a[i] += intensity * max(b.a[i] - o.a[i], 0)
                }
            } else {
                for i in 0..<span.count {
                    o.r[i] += intensity * min(b.r[i] - o.r[i], 0)
                    o.g[i] += intensity * min(b.g[i] - o.g[i], 0)
                    o.b[i] += intensity * min(b.b[i] - o.b[i], 0)
                    // Alpha keeps the pixel's own coverage; colour never exceeds it after darkening.
                }
            }
        }.apply(extent: extent, inputs: [image, blurred])
    }
}

/// The zoom pass's 8 samples of a whole output row. Sample j of every pixel of a row lies on one source row
/// (y = py + (cy − py)·k·j/8 does not depend on x), so its two source rows are blended once (`blended`, with
/// transparent columns either side), and each pixel then blends two neighbours there: two linear steps instead
/// of a four-texel gather. Same points and weights as `PixelBuffer.sampleLinear` (the rows blended before the
/// columns, so the floats can differ in the last bit); samples outside the buffer read transparent.
/// Measured on the 2-core dev VM (bench case i, one thread, 1080p, A B A B): 2.02 → 1.80 s of CPU for 8 renders
/// (-11%); output within 1 level of the gather (a handful of pixels of 2M differ by one level).
private struct ZoomRows {
    let source: PixelBuffer
    /// Source columns rect.x − 2 ..< rect.maxX + 2, the outer two on each side transparent.
    let blended: UnsafeMutablePointer<Pixel>
    let sums: UnsafeMutablePointer<Pixel>
    let index: UnsafeMutablePointer<Int32>
    let fraction: UnsafeMutablePointer<Float>
    let width: Int

    init(source: PixelBuffer, width: Int) {
        self.source = source
        self.width = width
        blended = .allocate(capacity: source.rect.width + 4)
        blended.initialize(repeating: Pixel(0, 0, 0, 0), count: source.rect.width + 4)
        sums = .allocate(capacity: max(1, width))
        index = .allocate(capacity: max(1, width))
        fraction = .allocate(capacity: max(1, width))
    }

    func release() {
        blended.deallocate(); sums.deallocate(); index.deallocate(); fraction.deallocate()
    }

    /// Writes the mean of the 8 samples of each pixel of the row at `py`, pixels x0 ..< x0 + width.
    func fullSamples(x0: Int, py: Float, cx: Float, cy: Float, k: Float, into out: UnsafeMutablePointer<Pixel>) {
        let rect = source.rect, w = rect.width
        sums.update(repeating: Pixel(0, 0, 0, 0), count: width)
        let sy = (cy - py) * k
        for j in 0..<8 {
            let t = Float(j) * 0.125
            // The sample row and its weight; a row outside the buffer (or not finite) adds nothing.
            let fy = (py + sy * t) - 0.5
            let fly = fy.rounded(.down)
            guard fly >= Float(rect.y - 1), fly < Float(rect.maxY) else { continue }
            let iy = Int(fly), ty = fy - fly
            let bottom = iy >= rect.y ? source.row(iy) : nil
            let top = iy + 1 < rect.maxY ? source.row(iy + 1) : nil
            let row = blended + 2
            switch (bottom, top) {
            case let (b?, t?): for i in 0..<w { row[i] = b[i] + (t[i] - b[i]) * ty }
            case let (b?, nil): for i in 0..<w { row[i] = b[i] + (-b[i]) * ty }
            case let (nil, t?): for i in 0..<w { row[i] = t[i] * ty }
            case (nil, nil): continue
            }
            // Each pixel's column (clamped so that columns outside read the transparent margins) and weight.
            let low = Float(rect.x - 2), high = Float(rect.maxX)
            for i in 0..<width {
                let px = Float(x0 + i) + 0.5
                let fx = (px + (cx - px) * k * t) - 0.5
                let flx = fx.rounded(.down)
                // Selects, not `&&`, so that the loop vectorises; NaN clamps to the left margin.
                let inside = (flx >= low ? 1 : 0) & (flx <= high ? 1 : 0) as Int32
                let g = flx > low ? flx : low, c = g < high ? g : high
                index[i] = Int32(c - low)
                fraction[i] = inside != 0 ? fx - flx : 0
            }
            for i in 0..<width {
                let left = blended[Int(index[i])], right = blended[Int(index[i]) + 1]
                sums[i] += left + (right - left) * fraction[i]
            }
        }
        for i in 0..<width { out[i] = sums[i] * 0.125 }
    }
}
