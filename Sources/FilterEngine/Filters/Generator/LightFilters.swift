import Foundation

/// Lights: a spot light over an image, colour replacement, and the lens-flare generators (star shine,
/// sunbeams, lenticular halo). The flares are approximations of Core Image's look (its exact formulas are not
/// published): they follow the documented inputs, extents and overall shape.
enum LightFilters {
    static let all: [String: FilterImplementation] = [
        "CISpotLight": spotLight,
        "CISpotColor": spotColor,
        "CIStarShineGenerator": starShine,
        "CISunbeamsGenerator": sunbeams,
        "CILenticularHaloGenerator": lenticularHalo,
    ]

    static func point3(_ inputs: FilterInputs, _ key: String) throws -> SIMD3<Float> {
        let v = try inputs.vector(key)
        return SIMD3(Float(v.count > 0 ? v[0] : 0), Float(v.count > 1 ? v[1] : 0), Float(v.count > 2 ? v[2] : 0))
    }

    // MARK: Spot light

    /// The image lit by a spot light above it: the surface is the plane z = 0 facing up, the light sits at
    /// inputLightPosition and points at inputLightPointsAt. Each pixel is scaled by
    /// brightness · cos(angle off the spot axis)^concentration · cos(incidence) and by the light's colour.
    static func spotLight(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let position = try point3(inputs, "inputLightPosition")
        let target = try point3(inputs, "inputLightPointsAt")
        let brightness = try inputs.float("inputBrightness")
        let concentration = try inputs.float("inputConcentration")
        let color = try inputs.color("inputColor").workingPixel
        var axis = target - position
        let axisLength = (axis * axis).sum().squareRoot()
        axis = axisLength > 1e-6 ? axis / axisLength : SIMD3(0, 0, -1)
        let (lx, ly, lz) = (position.x, position.y, position.z)
        let (sx, sy, sz) = (axis.x, axis.y, axis.z)
        let (cr, cg, cb) = (color.x * brightness, color.y * brightness, color.z * brightness)
        return ColorKernel(name: "spotLight") { span in
            let out = span.out
            let dy = ly - (Float(span.y) + 0.5)
            let x0 = Float(span.x0) + 0.5
            for i in 0..<span.count {
                let dx = lx - (x0 + Float(i))
                let length = (dx * dx + dy * dy + lz * lz).squareRoot()
                let inv = length > 1e-6 ? 1 / length : 0
                // Cosine between the spot axis and the ray from the light to this point.
                let cosAxis = -(dx * sx + dy * sy + lz * sz) * inv
                let incidence = max(lz * inv, 0)
                // The power capped at the largest float: a negative concentration makes it infinite off the axis,
                // and infinity × an incidence of 0 would be NaN.
                let spot = cosAxis > 0 ? min(powf(cosAxis, concentration), .greatestFiniteMagnitude) * incidence : 0
                out.r[i] *= cr * spot
                out.g[i] *= cg * spot
                out.b[i] *= cb * spot
            }
        }.apply(inputs: [image])
    }

    // MARK: Spot colour

    struct SpotRule: Sendable { var center: SIMD3<Float>; var replacement: SIMD3<Float>; var inner: Float; var outer: Float }

    /// Replaces colours close to up to three centre colours by replacement colours. Closeness is the distance in
    /// sRGB-encoded, unpremultiplied RGB; the replacement is full within closeness·contrast of the centre and
    /// fades out (smoothstep) at closeness. The three replacements apply in turn; alpha is kept.
    static func spotColor(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        typealias Rule = SpotRule
        var rules: [Rule] = []
        for n in 1...3 {
            let c = try inputs.color("inputCenterColor\(n)"), r = try inputs.color("inputReplacementColor\(n)")
            let closeness = try inputs.float("inputCloseness\(n)")
            let contrast = min(max(try inputs.float("inputContrast\(n)"), 0), 1)
            guard closeness > 0 else { continue }
            rules.append(Rule(center: SIMD3(Float(c.red), Float(c.green), Float(c.blue)),
                              replacement: SIMD3(Float(r.red), Float(r.green), Float(r.blue)),
                              inner: closeness * contrast, outer: closeness))
        }
        let table = rules
        // The shared tables live as long as the kernel that captures them.
        let encodeTable = EncodedCurves.encodeBySquareRoot, decodeTable = EncodedCurves.decode
        return ColorKernel(name: "spotColor") { span in
            table.withUnsafeBufferPointer { rules in
                spotColorSpan(span, rules, encodeTable.values, decodeTable.values)
            }
        }.apply(inputs: [image])
    }

    /// Linear value → sRGB-encoded by the shared table (indexed by the square root); values outside 0…1 take
    /// the exact curve.
    @inline(__always) static func encode(_ v: Float, _ table: UnsafeMutablePointer<Float>) -> Float {
        guard v >= 0, v <= 1 else { return ColorMath.sRGB(fromLinear: v) }
        return EncodedCurves.lookup(table, v.squareRoot())
    }

    @inline(__always)
    static func spotColorSpan(_ span: ColorSpan, _ table: UnsafeBufferPointer<SpotRule>,
                              _ encodeTable: UnsafeMutablePointer<Float>, _ decodeTable: UnsafeMutablePointer<Float>) {
        let out = span.out
        for i in 0..<span.count {
            let a = out.a[i]
            guard a > 0 else { continue }
            let inv = 1 / a
            var r = encode(out.r[i] * inv, encodeTable)
            var g = encode(out.g[i] * inv, encodeTable)
            var b = encode(out.b[i] * inv, encodeTable)
            var changed = false
            for rule in table {
                let dr = r - rule.center.x, dg = g - rule.center.y, db = b - rule.center.z
                let d = (dr * dr + dg * dg + db * db).squareRoot()
                guard d < rule.outer else { continue }
                var w: Float = 1
                if d > rule.inner {
                    let t = (d - rule.inner) / (rule.outer - rule.inner)
                    w = 1 - t * t * (3 - 2 * t)
                }
                r += (rule.replacement.x - r) * w
                g += (rule.replacement.y - g) * w
                b += (rule.replacement.z - b) * w
                changed = true
            }
            guard changed else { continue }
            out.r[i] = decode(r, decodeTable) * a
            out.g[i] = decode(g, decodeTable) * a
            out.b[i] = decode(b, decodeTable) * a
        }
    }

    @inline(__always) static func decode(_ v: Float, _ table: UnsafeMutablePointer<Float>) -> Float {
        v >= 0 && v <= 1 ? EncodedCurves.lookup(table, v) : ColorMath.linear(fromSRGB: v)
    }

    // MARK: Flares

    /// Striation noise for the direction (dx, dy) from a flare's centre: the red channel of Apple's noise
    /// texture (CIRandomGenerator's, see RandomTexture) read with bilinear filtering on a circle of radius 50
    /// texels, whose centre turns around the texture's middle with time, on a circle of radius 30:
    /// n = red(128 + 30 cos 2πt + 50 cos θ, 128 + 30 sin 2πt + 50 sin θ), texel centres at whole + ½.
    /// Read off Apple's iOS 13.3 renders (shared/conformance): the sunbeams' rays (time ½, sun radius 50) follow
    /// it at correlation 0.9997, the lenticular halo's striations (time 1, halo radius 50) at 0.997; both
    /// put the circle's centre at (98, 128) and (158, 128). That the 50 is a constant (not either radius, both
    /// 50 there) and that time turns the centre (rather than sliding it along x) are guesses: the turn keeps
    /// the circle inside the texture for every time, and time's sense in y is not seen (sin 2πt = 0 in both).
    struct Striation {
        let ox: Float, oy: Float
        init(time: Float) {
            let turn = 2 * Float.pi * time
            ox = 128 + 30 * cosf(turn) - 0.5
            oy = 128 + 30 * sinf(turn) - 0.5
        }

        @inline(__always) func callAsFunction(_ dx: Float, _ dy: Float) -> Float {
            let d = (dx * dx + dy * dy).squareRoot()
            // The centre itself (and non-finite offsets) read angle 0, as atan2(0, 0) does.
            let ok = d > 0 && d.isFinite
            let u = ox + 50 * (ok ? dx / d : 1), v = oy + 50 * (ok ? dy / d : 0)
            let fu = u.rounded(.down), fv = v.rounded(.down)
            let tu = u - fu, tv = v - fv
            let mask = RandomTexture.size - 1, red = RandomTexture.planes
            // u and v lie within 128 ± 80: the conversions are safe; the mask wraps like the tiled texture.
            let x0 = Int(fu) & mask, y0 = Int(fv) & mask
            let x1 = (x0 + 1) & mask, y1 = (y0 + 1) & mask
            let row0 = red + y0 * RandomTexture.size, row1 = red + y1 * RandomTexture.size
            let bottom = row0[x0] + (row0[x1] - row0[x0]) * tu
            let top = row1[x0] + (row1[x1] - row1[x0]) * tu
            return bottom + (top - bottom) * tv
        }
    }

    /// A star: a coloured glow plus a white cross. Fitted on Apple's two renders (shared/conformance
    /// CIStarShineGenerator: iOS 13.3 radius 50, crossScale 3, crossWidth 20, crossOpacity 1, epsilon 2, a soft
    /// round glow; iOS 7 radius 20 at the iOS 7 defaults, a white four-pointed star with long thick rays):
    /// - glow: the colour × (R/d)², exact in both (the ratio of its channels gives it away);
    /// - cross: white light J = b · [R²/(w² + u²) · R²/(w² + v²)]^1.5 · (1 − d/L)², u and v the distances along
    ///   the two cross axes (at crossAngle and 90° from it), L = R · crossScale where the rays end;
    /// - the two add, alpha is the colour's alpha × glow + J capped at 1 (the core turns white).
    /// The cross's width and strength are a two-case fit: w = crossWidth · 10^(ε/2), b = 2.42 ·
    /// e^(1.86 (crossOpacity + 2)); in Python both renders come within 57 dB of it. How epsilon, width and
    /// opacity share these two numbers beyond those cases is a guess. A large epsilon widens the cross until
    /// it is a round glow fading to nothing at L (the 13.3 render); a small one gives thin rays (iOS 7).
    static func starShine(_ inputs: FilterInputs) throws -> Image {
        let center = try inputs.point("inputCenter")
        let color = try inputs.color("inputColor").workingPixel
        let radius = max(try inputs.float("inputRadius"), 0)
        let crossScale = max(try inputs.float("inputCrossScale"), 0)
        let crossAngle = try inputs.float("inputCrossAngle")
        let opacity = min(max(try inputs.float("inputCrossOpacity"), -20), 20)
        let crossWidth = max(try inputs.float("inputCrossWidth"), 0)
        let epsilon = min(max(try inputs.float("inputEpsilon"), -20), 20)
        let cx = Float(center.x), cy = Float(center.y)
        let ex = cosf(crossAngle), ey = sinf(crossAngle)
        let r2 = radius * radius
        let w = crossWidth * powf(10, epsilon / 2)
        let w2 = max(w * w, 1e-6)
        let strength = 2.42 * expf(1.86 * (opacity + 2))
        let inverseLength = 1 / max(radius * crossScale, 1e-6)
        return ColorKernel(name: "starShine") { span in
            let out = span.out
            let dy = Float(span.y) + 0.5 - cy
            let x0 = Float(span.x0) + 0.5 - cx
            for i in 0..<span.count {
                let dx = x0 + Float(i)
                let d2 = dx * dx + dy * dy
                // The glow, capped at the centre (any value above 1 is white once the cross adds to it).
                let glow = min(r2 / max(d2, 1e-6), 1e4)
                var cross: Float = 0
                let fade = 1 - d2.squareRoot() * inverseLength
                if fade > 0 {
                    let u = dx * ex + dy * ey, v = dx * ey - dy * ex
                    let p = r2 / (w2 + u * u) * (r2 / (w2 + v * v))
                    // Capped: a huge strength must not give infinity (nor NaN further on).
                    cross = min(strength * p * p.squareRoot() * (fade * fade), 1e6)
                }
                out.r[i] = color.x * glow + cross
                out.g[i] = color.y * glow + cross
                out.b[i] = color.z * glow + cross
                out.a[i] = min(color.w * glow + cross, 1)
            }
        }.apply(extent: .infinite, inputs: [])
    }

    /// A sun with striated beams inside a disc of radius Rmax = sunRadius · maxStriationRadius, which is the
    /// extent's square (Apple's iOS 13.3 render, shared/conformance CISunbeamsGenerator FA92378A: sun radius 50,
    /// max striation radius 5, a 500×500 output around the centre). Fitted on that render, with f = 1 − d/Rmax:
    /// - a glow of the colour, (R/d)² · f (exact: constant around each circle);
    /// - white rays n(θ) · f, n Apple's noise texture read around a circle (`Striation`: the render's rays
    ///   follow it at correlation 0.9997), its contrast a power and its strength a factor;
    /// - a white core, 1 − smoothstep(0.6 R, R, d).
    /// They add in premultiplied light, capped at 1.
    static func sunbeams(_ inputs: FilterInputs) throws -> Image {
        let center = try inputs.point("inputCenter")
        let color = try inputs.color("inputColor").workingPixel
        let sunRadius = max(try inputs.float("inputSunRadius"), 0)
        let strength = try inputs.float("inputStriationStrength")
        let contrast = try inputs.float("inputStriationContrast")
        let time = min(max(try inputs.float("inputTime"), 0), 1)
        // The extent in doubles (the inputs' own precision), the kernel in floats.
        let outerD = max(try inputs.number("inputSunRadius"), 0) * (try inputs.number("inputMaxStriationRadius"))
        guard outerD > 0, outerD.isFinite, Float(outerD).isFinite, center.x.isFinite, center.y.isFinite else {
            return Image(color: .clear)
        }
        let outer = Float(outerD)
        let cx = Float(center.x), cy = Float(center.y)
        let extent = Rect(x: center.x - outerD, y: center.y - outerD, width: 2 * outerD, height: 2 * outerD)
        let r2 = sunRadius * sunRadius
        let inverseOuter = 1 / outer
        let coreInner = 0.6 * sunRadius, coreBand = max(0.4 * sunRadius, 1e-6)
        let striation = Striation(time: time)
        return ColorKernel(name: "sunbeams") { span in
            let out = span.out
            let dy = Float(span.y) + 0.5 - cy
            let x0 = Float(span.x0) + 0.5 - cx
            for i in 0..<span.count {
                let dx = x0 + Float(i)
                let d2 = dx * dx + dy * dy
                let d = d2.squareRoot()
                let f = 1 - d * inverseOuter
                guard f > 0 else {
                    out.r[i] = 0; out.g[i] = 0; out.b[i] = 0; out.a[i] = 0
                    continue
                }
                let glow = min(r2 / max(d2, 1e-6), 1e4) * f
                let n = striation(dx, dy)
                var rays = strength * powf(n, contrast) * f
                if !(rays > 0) { rays = 0 }  // also NaN (0 × ∞ at a strength of 0 and a negative contrast)
                let t = min(max((d - coreInner) / coreBand, 0), 1)
                let white = rays + 1 - t * t * (3 - 2 * t)
                out.r[i] = min(color.x * glow + white, 1)
                out.g[i] = min(color.y * glow + white, 1)
                out.b[i] = min(color.z * glow + white, 1)
                out.a[i] = min(color.w * glow + white, 1)
            }
        }.apply(extent: extent, inputs: [])
    }

    /// A lens halo: a ring from haloRadius to haloRadius + haloWidth with a cos² profile across it, one ring per
    /// colour channel, spread apart as the overlap drops below 1 (red inside, blue outside) like a lens's
    /// chromatic dispersion, and striated by Apple's noise read around a circle (`Striation`). The extent is the
    /// disc that holds the rings.
    static func lenticularHalo(_ inputs: FilterInputs) throws -> Image {
        let center = try inputs.point("inputCenter")
        let color = try inputs.color("inputColor").workingPixel
        let radius = try inputs.float("inputHaloRadius")
        let width = try inputs.float("inputHaloWidth")
        let overlap = min(max(try inputs.float("inputHaloOverlap"), 0), 1)
        let strength = try inputs.float("inputStriationStrength")
        let contrast = try inputs.float("inputStriationContrast")
        let time = min(max(try inputs.float("inputTime"), 0), 1)
        guard width > 1e-3 else { return Image(color: .clear) }
        let half = width / 2
        let spread = (1 - overlap) * half
        let outer = radius + width + spread
        let cx = Float(center.x), cy = Float(center.y)
        let extent = Rect(x: Double(cx - outer), y: Double(cy - outer), width: Double(2 * outer),
                          height: Double(2 * outer))
        let middle = radius + half
        let invHalf = 1 / half
        let striation = Striation(time: time)
        return ColorKernel(name: "lenticularHalo") { span in
            let out = span.out
            let dy = Float(span.y) + 0.5 - cy
            let x0 = Float(span.x0) + 0.5 - cx
            for i in 0..<span.count {
                let dx = x0 + Float(i)
                let d = (dx * dx + dy * dy).squareRoot()
                @inline(__always) func ring(_ offset: Float) -> Float {
                    let u = (d - middle - offset) * invHalf
                    guard abs(u) < 1 else { return 0 }
                    let c = cosf(u * (Float.pi / 2))
                    return c * c
                }
                let ir = ring(-spread), ig = ring(0), ib = ring(spread)
                let peak = max(ir, ig, ib)
                guard peak > 0 else {
                    out.r[i] = 0; out.g[i] = 0; out.b[i] = 0; out.a[i] = 0
                    continue
                }
                let n = powf(striation(dx, dy), contrast)
                let s = min(max(1 - 0.5 * strength + strength * (n - 0.5), 0), 1)
                out.r[i] = color.x * ir * s
                out.g[i] = color.y * ig * s
                out.b[i] = color.z * ib * s
                out.a[i] = color.w * peak * s
            }
        }.apply(extent: extent, inputs: [])
    }
}
