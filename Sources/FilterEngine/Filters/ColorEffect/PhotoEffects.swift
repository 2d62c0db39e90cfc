import Foundation

/// Core Image's photo-effect looks (the camera app's filters), CIThermal, CIXRay and CIDocumentEnhancer.
///
/// Apple ships the photo effects as proprietary colour cubes; their exact numbers are not published. Each look
/// here is an APPROXIMATION of the published look, built from the same kind of operations such looks are made
/// of: on sRGB-encoded colour, a channel mix (greyscale weights or a saturation change), then one tone curve per
/// channel. Curves are baked into 1025-entry tables that also decode back to linear light, so a look costs one
/// encode, a 3×3 mix and three table look-ups per pixel, and fuses with its neighbours like any colour kernel.
enum PhotoEffects {
    /// Luma weights for mixing encoded values (Rec. 709).
    static let luma: [Double] = [0.2126, 0.7152, 0.0722]

    static func chrome(_ inputs: FilterInputs) throws -> Image { try apply(.chrome, inputs) }
    static func fade(_ inputs: FilterInputs) throws -> Image { try apply(.fade, inputs) }
    static func instant(_ inputs: FilterInputs) throws -> Image { try apply(.instant, inputs) }
    static func mono(_ inputs: FilterInputs) throws -> Image { try apply(.mono, inputs) }
    static func noir(_ inputs: FilterInputs) throws -> Image { try apply(.noir, inputs) }
    static func process(_ inputs: FilterInputs) throws -> Image { try apply(.process, inputs) }
    static func tonal(_ inputs: FilterInputs) throws -> Image { try apply(.tonal, inputs) }
    static func transfer(_ inputs: FilterInputs) throws -> Image { try apply(.transfer, inputs) }

    private static func apply(_ look: ToneLook, _ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        return look.kernel(extrapolate: try inputs.bool("inputExtrapolate")).apply(extent: image.extent, inputs: [image])
    }

    /// Luminance (of sRGB-encoded colour) through the thermal-camera ramp: cold black-blue, violet, red,
    /// orange, yellow, hot near-white. An approximation of Core Image's look, whose ramp is not published.
    static func thermal(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        return ToneLook.ramp(name: "CIThermal", StockImages.thermalStops).kernel(extrapolate: false)
            .apply(extent: image.extent, inputs: [image])
    }

    /// An X-ray film: luminance inverted (bright becomes dark) and tinted a cold blue-white. An approximation
    /// of Core Image's look.
    static func xRay(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        return ToneLook.ramp(name: "CIXRay", StockImages.xRayStops).kernel(extrapolate: false)
            .apply(extent: image.extent, inputs: [image])
    }

    // MARK: Document enhancer

    /// APPROXIMATION of Core Image's document clean-up (its algorithm is not published): the paper's
    /// brightness is estimated by a wide Gaussian blur (σ a tenth of the image's shorter side, at least 8 px)
    /// and each pixel divided by it, which takes uneven lighting and shadows off and turns the paper white
    /// (colour casts of the light go with it). Then, on sRGB-encoded values, dark strokes are pushed darker:
    /// 1 - (1 - e)(1 + amount / 2). The result is mixed with the original by min(amount, 1), so 0 changes
    /// nothing and amounts above 1 only strengthen the contrast.
    static func documentEnhancer(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let amount = try inputs.float("inputAmount")
        if amount == 0 { return image }
        let e = image.extent
        let sigma = e.isInfinite ? 32 : max(8, min(e.width, e.height) / 10)
        let background = BlurFilters.gaussian(image.clampedToExtent(), sigma: sigma).cropped(to: e)
        let gain = 1 + amount / 2, mix = min(amount, 1)
        let encode = EncodedCurves.encodeBySquareRoot, decode = EncodedCurves.decode
        return ColorKernel(name: "documentEnhancer") { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            let bg = span.input(1)
            let enc = encode.values, dec = decode.values
            for i in 0..<span.count {
                let alpha = a[i]
                let inv: Float = alpha > 0 ? 1 / alpha : 0
                let bgAlpha = bg.a[i]
                let bgInv: Float = bgAlpha > 0 ? 1 / bgAlpha : 0
                func clean(_ c: Float, _ paper: Float) -> Float {
                    let p = paper > 1e-3 ? paper : 1e-3
                    let ratio = EncodedCurves.clamp01(c / p)
                    let stretched = 1 - (1 - EncodedCurves.encode(ratio, enc)) * gain
                    let enhanced = EncodedCurves.lookup(dec, stretched > 0 ? stretched : 0)
                    return c + (enhanced - c) * mix
                }
                r[i] = clean(r[i] * inv, bg.r[i] * bgInv) * alpha
                g[i] = clean(g[i] * inv, bg.g[i] * bgInv) * alpha
                b[i] = clean(b[i] * inv, bg.b[i] * bgInv) * alpha
            }
        }.apply(extent: e, inputs: [image, background])
    }
}

/// A colour look on sRGB-encoded values: a 3×3 channel mix plus bias (and optional second-order terms), then
/// one tone curve per channel (encoded in, encoded out). Without extrapolation, values are clamped to 0...1 before the mix and before the curves;
/// with it, the tables' end segments continue as straight lines, so extended-range colour goes on changing.
struct ToneLook: Sendable {
    var name: String
    var matrix: [[Double]]
    var bias: [Double] = [0, 0, 0]
    /// Second-order terms of the mix, per output row: weights of r², g², b², rg, gb, br (encoded values).
    var quadratic: [[Double]] = Array(repeating: [0, 0, 0, 0, 0, 0], count: 3)
    var curves: [@Sendable (Double) -> Double]

    // MARK: Building blocks (all on encoded values)

    static func grey(_ w: [Double]) -> [[Double]] { [w, w, w] }

    /// Saturation around Rec. 709 luma: 0 grey, 1 unchanged, above 1 more colourful.
    static func saturation(_ s: Double) -> [[Double]] {
        let w = PhotoEffects.luma
        return (0..<3).map { i in (0..<3).map { j in (1 - s) * w[j] + (i == j ? s : 0) } }
    }

    /// S-curve of strength k about mid-grey (negative k flattens the midtones instead).
    static func contrast(_ k: Double) -> @Sendable (Double) -> Double {
        { x in x + k * (x * x * (3 - 2 * x) - x) }
    }

    /// Black mapped to `low` and white to `high` (lifted blacks, dimmed whites).
    static func levels(_ low: Double, _ high: Double) -> @Sendable (Double) -> Double {
        { x in low + (high - low) * x }
    }

    static func gamma(_ g: Double) -> @Sendable (Double) -> Double { { x in pow(max(x, 0), g) } }

    /// A curve through values at evenly spaced points of [0, 1] (linear between them and beyond the ends),
    /// its result kept in [0, 1].
    static func knots(_ values: [Double]) -> @Sendable (Double) -> Double {
        { x in
            let n = values.count - 1
            let i = min(max(Int((x * Double(n)).rounded(.down)), 0), n - 1)
            let t = x * Double(n) - Double(i)
            return min(max(values[i] + (values[i + 1] - values[i]) * t, 0), 1)
        }
    }

    /// `outer(inner(x))`.
    static func then(_ inner: @escaping @Sendable (Double) -> Double,
                     _ outer: @escaping @Sendable (Double) -> Double) -> @Sendable (Double) -> Double {
        { x in outer(inner(x)) }
    }

    /// A ramp of colours picked by encoded luma: stops (position, encoded r, g, b), linear between them.
    static func ramp(name: String, _ stops: [(Double, Double, Double, Double)]) -> ToneLook {
        func channel(_ c: Int) -> @Sendable (Double) -> Double {
            let points = stops.map { ($0.0, [$0.1, $0.2, $0.3][c]) }
            return { x in StockImages.interpolate(points, at: x) }
        }
        return ToneLook(name: name, matrix: grey(PhotoEffects.luma), curves: [channel(0), channel(1), channel(2)])
    }

    // MARK: The looks (approximations; see PhotoEffects)

    // The five looks with Apple renders are FITTED on them (iOS 7 flower renders, and for Chrome and Fade also
    // the 2022 `fcif-demo-*` exports): per output channel, a quadratic form of the sRGB-encoded colour
    // (r, g, b, r², g², b², rg, gb, br plus a constant), clamped to [0, 1], then a 13-point curve. The looks are
    // colour cubes in Core Image; a plain 3×3 mix with curves fits them at only 30-37 dB (Noir 37.3, Mono 31.9,
    // Instant 30.2, Chrome 30.4 / 27.3), the second-order terms bring them to 34-46 dB (see the fidelity evidence).
    // Colours far from those photos' (blues, neutral greys in Instant) are extrapolated and least certain.

    /// Black and white (fitted; see above).
    static let mono = ToneLook(name: "CIPhotoEffectMono",
        matrix: [[-0.0613, -0.1090, 0.2247], [-0.0613, -0.1090, 0.2247], [-0.0613, -0.1090, 0.2247]],
        bias: [0.1158, 0.1158, 0.1158],
        quadratic: [[0.3713, 0.4389, 0.3832, -0.0847, -0.2701, -0.0799], [0.3713, 0.4389, 0.3832, -0.0847, -0.2701, -0.0799], [0.3713, 0.4389, 0.3832, -0.0847, -0.2701, -0.0799]],
        curves: Array(repeating: knots([-0.2406, -0.0527, 0.1352, 0.2869, 0.4273, 0.5559, 0.6706, 0.7774, 0.8650, 0.9545, 0.9606, 0.9667, 0.9727]), count: 3))

    /// Black and white at low contrast: lifted blacks, softened whites, flattened midtones.
    static let tonal = ToneLook(name: "CIPhotoEffectTonal", matrix: grey(PhotoEffects.luma),
                                curves: Array(repeating: then(contrast(-0.2), levels(0.05, 0.95)), count: 3))

    /// Dramatic black and white: reds light, blues dark (fitted; see above).
    static let noir = ToneLook(name: "CIPhotoEffectNoir",
        matrix: [[0.4628, 0.3045, -0.4850], [0.4628, 0.3045, -0.4850], [0.4628, 0.3045, -0.4850]],
        bias: [0.0903, 0.0903, 0.0903],
        quadratic: [[0.3061, 0.1872, -0.2108, -0.1404, 0.5661, 0.2820], [0.3061, 0.1872, -0.2108, -0.1404, 0.5661, 0.2820], [0.3061, 0.1872, -0.2108, -0.1404, 0.5661, 0.2820]],
        curves: Array(repeating: knots([0.1188, -0.0139, 0.0664, 0.2746, 0.3949, 0.4947, 0.5929, 0.6828, 0.7624, 0.8347, 0.9031, 0.9560, 1.0000]), count: 3))

    /// Vivid colour (fitted; see above).
    static let chrome = ToneLook(name: "CIPhotoEffectChrome",
        matrix: [[1.0447, -0.2255, 0.2721], [0.1069, 1.0894, 0.1479], [-0.0199, -0.0648, 0.1204]],
        bias: [0.0658, -0.0897, 0.2531],
        quadratic: [[0.2011, -0.1428, -0.2824, -0.1561, 0.8637, -0.8071], [0.0388, -0.3908, -0.0045, -0.0704, -0.0532, -0.0919], [-0.0385, 0.1318, 0.7860, 0.0122, -0.2413, 0.1263]],
        curves: [knots([-0.0112, 0.0081, 0.0221, 0.0596, 0.2472, 0.4102, 0.5603, 0.6828, 0.7905, 0.8789, 0.9717, 1.0013, 0.9999]),
                 knots([0.0078, 0.0638, 0.1544, 0.3052, 0.4444, 0.5839, 0.7075, 0.8203, 0.9540, 1.1520, 1.3526, 1.5541, 1.7550]),
                 knots([-0.0388, -0.0233, -0.0077, 0.0079, 0.3363, 0.5411, 0.6767, 0.7560, 0.8172, 0.8634, 0.9065, 0.9386, 0.9828])])

    /// Faded colour with lifted blacks (fitted; see above).
    static let fade = ToneLook(name: "CIPhotoEffectFade",
        matrix: [[0.6658, 0.7183, -0.0757], [0.0105, 0.6642, 0.0589], [0.0248, 0.3804, 0.4236]],
        bias: [0.0255, 0.2021, -0.0323],
        quadratic: [[0.2317, 0.0877, -0.0750, -0.7657, 0.0932, 0.0538], [-0.0109, -0.0088, 0.0533, 0.0148, -0.0278, 0.0039], [0.0238, 0.1485, 0.3020, 0.0076, -0.2629, -0.0141]],
        curves: [knots([-0.0065, 0.0192, 0.0726, 0.1385, 0.2065, 0.3051, 0.4118, 0.5357, 0.6510, 0.7488, 0.8354, 0.9155, 1.0414]),
                 knots([-0.1811, -0.1074, -0.0338, 0.0398, 0.1401, 0.2532, 0.3982, 0.5563, 0.6813, 0.7809, 0.8606, 0.9316, 1.0452]),
                 knots([0.0025, 0.0868, 0.1877, 0.2883, 0.4010, 0.5158, 0.6226, 0.7075, 0.7681, 0.8279, 0.8773, 0.9208, 0.9923])])

    /// Instant-film print: warm highlights, cyan-blue shadows (fitted; see above).
    static let instant = ToneLook(name: "CIPhotoEffectInstant",
        matrix: [[-0.2155, -0.2305, 0.0561], [0.1460, 0.4544, 0.1823], [0.1265, -0.2446, 0.0308]],
        bias: [0.2534, 0.1048, 0.0926],
        quadratic: [[0.9406, 0.3024, -0.4551, 0.2457, 0.2144, 0.1637], [0.2645, 0.4999, 0.3420, -0.5097, -0.1852, -0.1817], [-0.1867, 0.7661, 0.9451, -0.2079, -0.8384, 0.6815]],
        curves: [knots([-0.0140, -0.0083, -0.0026, 0.0031, 0.2629, 0.4489, 0.5828, 0.6877, 0.7795, 0.8554, 0.9018, 0.9464, 0.9814]),
                 knots([0.0554, 0.0887, 0.1219, 0.1715, 0.2578, 0.4015, 0.5448, 0.6607, 0.7678, 0.8329, 0.8765, 0.9301, 0.9719]),
                 knots([0.1065, 0.1704, 0.2450, 0.3138, 0.4314, 0.4792, 0.5482, 0.5254, 0.6388, 0.6289, 0.6099, 0.5910, 0.5721])])

    /// Cross-processed film: contrasty reds, blue-cyan shadows, yellowish highlights.
    static let process = ToneLook(name: "CIPhotoEffectProcess", matrix: saturation(0.9),
                                  curves: [contrast(0.35), then(contrast(0.2), levels(0.03, 0.97)), levels(0.14, 0.78)])

    /// Warm film transfer: orange cast, deeper contrast, blue held back in the highlights.
    static let transfer = ToneLook(name: "CIPhotoEffectTransfer", matrix: saturation(1.1),
                                   curves: [then(then(contrast(0.2), gamma(0.85)), levels(0.04, 1)), contrast(0.2),
                                            then(gamma(1.1), levels(0, 0.85))])

    // MARK: Kernel

    /// The look as a colour kernel; each curve is baked with the sRGB decode into one table.
    func kernel(extrapolate: Bool) -> ColorKernel {
        let tables = curves.map { curve in
            EncodedCurves.Table { x in Double(ColorMath.linear(fromSRGB: Float(curve(x)))) }
        }
        let (tr, tg, tb) = (tables[0], tables[1], tables[2])
        let m = matrix.map { $0.map(Float.init) }, o = bias.map(Float.init)
        let (m00, m01, m02, m10, m11, m12, m20, m21, m22) = (m[0][0], m[0][1], m[0][2], m[1][0], m[1][1], m[1][2],
                                                             m[2][0], m[2][1], m[2][2])
        let (o0, o1, o2) = (o[0], o[1], o[2])
        let q = quadratic.map { $0.map(Float.init) }
        let squared = q.contains { $0.contains { $0 != 0 } }
        // Clamping is a multiply-free select; with extrapolation the bounds are simply infinite.
        let low: Float = extrapolate ? -.infinity : 0, high: Float = extrapolate ? .infinity : 1
        return ColorKernel(name: name) { span in
            let (r, g, b) = (span.out.r, span.out.g, span.out.b)
            let count = span.count
            let cr = tr.values, cg = tg.values, cb = tb.values
            @inline(__always) func clamp(_ v: Float) -> Float { v > low ? (v < high ? v : high) : low }
            // Passes over the row (see EncodedCurves): encode, mix, curves back to linear.
            EncodedCurves.withEncodedColour(span.out, count: count) {
                if squared {
                    let (q0, q1, q2) = (q[0], q[1], q[2])
                    for i in 0..<count {
                        let er = clamp(r[i]), eg = clamp(g[i]), eb = clamp(b[i])
                        let rr = er * er, gg = eg * eg, bb = eb * eb, rg = er * eg, gb = eg * eb, br = eb * er
                        r[i] = clamp(m00 * er + m01 * eg + m02 * eb + o0 + q0[0] * rr + q0[1] * gg + q0[2] * bb
                            + q0[3] * rg + q0[4] * gb + q0[5] * br)
                        g[i] = clamp(m10 * er + m11 * eg + m12 * eb + o1 + q1[0] * rr + q1[1] * gg + q1[2] * bb
                            + q1[3] * rg + q1[4] * gb + q1[5] * br)
                        b[i] = clamp(m20 * er + m21 * eg + m22 * eb + o2 + q2[0] * rr + q2[1] * gg + q2[2] * bb
                            + q2[3] * rg + q2[4] * gb + q2[5] * br)
                    }
                } else {
                    for i in 0..<count {
                        let er = clamp(r[i]), eg = clamp(g[i]), eb = clamp(b[i])
                        r[i] = clamp(m00 * er + m01 * eg + m02 * eb + o0)
                        g[i] = clamp(m10 * er + m11 * eg + m12 * eb + o1)
                        b[i] = clamp(m20 * er + m21 * eg + m22 * eb + o2)
                    }
                }
                EncodedCurves.lookup(cr, row: r, count: count)
                EncodedCurves.lookup(cg, row: g, count: count)
                EncodedCurves.lookup(cb, row: b, count: count)
            }
        }
    }
}
