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

/// A colour look on sRGB-encoded values: a 3×3 channel mix plus bias, then one tone curve per channel (encoded
/// in, encoded out). Without extrapolation, values are clamped to 0...1 before the mix and before the curves;
/// with it, the tables' end segments continue as straight lines, so extended-range colour goes on changing.
struct ToneLook: Sendable {
    var name: String
    var matrix: [[Double]]
    var bias: [Double] = [0, 0, 0]
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

    /// Black and white at ordinary contrast.
    static let mono = ToneLook(name: "CIPhotoEffectMono", matrix: grey(PhotoEffects.luma), curves: Array(repeating: contrast(0.15), count: 3))

    /// Black and white at low contrast: lifted blacks, softened whites, flattened midtones.
    static let tonal = ToneLook(name: "CIPhotoEffectTonal", matrix: grey(PhotoEffects.luma),
                                curves: Array(repeating: then(contrast(-0.2), levels(0.05, 0.95)), count: 3))

    /// Dramatic black and white: reds weigh more (like a red filter on film), darker midtones, strong S-curve.
    static let noir = ToneLook(name: "CIPhotoEffectNoir", matrix: grey([0.35, 0.55, 0.10]),
                               curves: Array(repeating: then(gamma(1.25), contrast(0.8)), count: 3))

    /// Vivid colour: more saturation and contrast, a touch of blue kept in the shadows.
    static let chrome = ToneLook(name: "CIPhotoEffectChrome", matrix: saturation(1.3),
                                 curves: [contrast(0.25), contrast(0.25), then(contrast(0.25), levels(0.02, 1))])

    /// Faded print: less saturation, lifted blacks, dimmed and slightly warm highlights.
    static let fade = ToneLook(name: "CIPhotoEffectFade", matrix: saturation(0.65),
                               curves: [then(contrast(-0.1), levels(0.10, 0.92)), then(contrast(-0.1), levels(0.09, 0.90)),
                                        then(contrast(-0.1), levels(0.10, 0.86))])

    /// Instant-film print: warm yellow cast, lifted blacks, softer saturation.
    static let instant = ToneLook(name: "CIPhotoEffectInstant", matrix: saturation(0.8),
                                  curves: [then(gamma(0.9), levels(0.08, 1.0)), then(gamma(0.95), levels(0.06, 0.96)),
                                           levels(0.10, 0.82)])

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
        // Clamping is a multiply-free select; with extrapolation the bounds are simply infinite.
        let low: Float = extrapolate ? -.infinity : 0, high: Float = extrapolate ? .infinity : 1
        return ColorKernel(name: name) { span in
            let (r, g, b) = (span.out.r, span.out.g, span.out.b)
            let count = span.count
            let cr = tr.values, cg = tg.values, cb = tb.values
            @inline(__always) func clamp(_ v: Float) -> Float { v > low ? (v < high ? v : high) : low }
            // Passes over the row (see EncodedCurves): encode, mix, curves back to linear.
            EncodedCurves.withEncodedColour(span.out, count: count) {
                for i in 0..<count {
                    let er = clamp(r[i]), eg = clamp(g[i]), eb = clamp(b[i])
                    r[i] = clamp(m00 * er + m01 * eg + m02 * eb + o0)
                    g[i] = clamp(m10 * er + m11 * eg + m12 * eb + o1)
                    b[i] = clamp(m20 * er + m21 * eg + m22 * eb + o2)
                }
                EncodedCurves.lookup(cr, row: r, count: count)
                EncodedCurves.lookup(cg, row: g, count: count)
                EncodedCurves.lookup(cb, row: b, count: count)
            }
        }
    }
}
