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

    /// Smooth angular noise in 0…1: `cells` values around the circle (hashed from the cell index and a seed),
    /// interpolated with smoothstep. `u` is the angle in cells.
    @inline(__always) static func angularNoise(_ u: Float, cells: Int, seed: UInt32) -> Float {
        let fl = u.rounded(.down)
        let f = u - fl
        // The cell index modulo `cells` taken in floats first: u may be huge or NaN (a centre at 1e30).
        let wrapped = fl - Float(cells) * (fl / Float(cells)).rounded(.down)
        var i0 = Int(saturating: wrapped) % cells
        if i0 < 0 { i0 += cells }
        let i1 = i0 + 1 == cells ? 0 : i0 + 1
        @inline(__always) func hash(_ i: Int) -> Float {
            var h = UInt32(truncatingIfNeeded: i) &* 0x9E37_79B1 ^ seed
            h ^= h >> 15
            h &*= 0x2C1B_3C6D
            h ^= h >> 13
            h &*= 0x297A_2D39
            h ^= h >> 16
            return Float(h >> 8) / 16_777_216
        }
        let s = f * f * (3 - 2 * f)
        return hash(i0) + (hash(i1) - hash(i0)) * s
    }

    /// Striation noise at an angle (radians) for a time in 0…1: two noise fields cross-faded by time.
    @inline(__always) static func striation(_ angle: Float, time: Float, cells: Int) -> Float {
        let u = (angle / (2 * Float.pi) + 0.5) * Float(cells)
        let a = angularNoise(u, cells: cells, seed: 0x68E3_1DA4)
        let b = angularNoise(u, cells: cells, seed: 0xB529_7A4D)
        return a + (b - a) * time
    }

    /// A bright star: a core that saturates to white, a soft halo, and a cross of two perpendicular rays at
    /// crossAngle. Apple publishes no formula; the look follows what evidence there is: Apple's documentation
    /// ("similar to a supernova", crossScale = the cross size relative to the central flare, epsilon = the length
    /// of the spikes, crossWidth/crossOpacity = their thickness and strength) and Apple's render in the Xamarin
    /// Core Image sample (TestImages/StarShineGenerator.png, radius 20, other inputs at their defaults): a white
    /// star with long, thick rays reaching across a 320-pixel frame. The light is additive and not clamped, so
    /// the core is brighter than the colour and turns white, as it does there.
    static func starShine(_ inputs: FilterInputs) throws -> Image {
        let center = try inputs.point("inputCenter")
        let color = try inputs.color("inputColor").workingPixel
        let radius = max(try inputs.float("inputRadius"), 0.5)
        let crossScale = max(try inputs.float("inputCrossScale"), 0)
        let crossAngle = try inputs.float("inputCrossAngle")
        // Ray strength: 2 at the default crossOpacity of -2, e-fold per unit.
        let rayStrength = 2 * expf(min(try inputs.float("inputCrossOpacity"), 20) + 2)
        // Ray half-thickness (a Gaussian's width) at the root, in pixels: crossWidth tenths of the radius.
        let rayWidth = max(try inputs.float("inputCrossWidth"), 0.05) * radius / 10
        // Epsilon sets how slowly a ray fades along its length: (1 - a/length)^k with k = 2·e^-(ε+2), 2 at the
        // default -2; a larger epsilon gives longer spikes.
        let rayFade = 2 * expf(-(min(max(try inputs.float("inputEpsilon"), -20), 20) + 2))
        let cx = Float(center.x), cy = Float(center.y)
        let ex = cosf(crossAngle), ey = sinf(crossAngle)
        let rayLength = max(radius * crossScale, 1e-3)
        let r2 = radius * radius
        /// One ray's light at distance a along it and b across it: thickest and brightest at the root, tapering
        /// to nothing at radius·crossScale.
        @Sendable @inline(__always) func ray(_ a: Float, _ b: Float) -> Float {
            let t = 1 - a / rayLength
            guard t > 0 else { return 0 }
            let w = rayWidth * (0.3 + 0.7 * t) + 0.5
            let e = (b * b) / (w * w)
            return e < 20 ? rayStrength * powf(t, rayFade) * expf(-e) : 0
        }
        return ColorKernel(name: "starShine") { span in
            let out = span.out
            let dy = Float(span.y) + 0.5 - cy
            let x0 = Float(span.x0) + 0.5 - cx
            for i in 0..<span.count {
                let dx = x0 + Float(i)
                let d2 = dx * dx + dy * dy
                // Core (R/d)², capped: above 1 inside the radius, white where every channel passes 1.
                var intensity = min(r2 / max(d2, 1e-6), 8)
                // The two rays: distance along (a) and across (b) each axis.
                let a1 = abs(dx * ex + dy * ey), b1 = abs(dx * ey - dy * ex)
                intensity += ray(a1, b1) + ray(b1, a1)
                let alpha = min(intensity, 1)
                // Premultiplied, extended range: the colour scaled by the light, opacity capped at 1.
                out.r[i] = color.x * intensity; out.g[i] = color.y * intensity; out.b[i] = color.z * intensity
                out.a[i] = color.w * alpha
            }
        }.apply(extent: .infinite, inputs: [])
    }

    /// A sun: a solid antialiased disc of sunRadius, a soft glow falling as (R/d)², and striated beams out to
    /// R·(1 + maxStriationRadius): angular noise (evolving with time) raised to the striation contrast and
    /// scaled by the striation strength.
    static func sunbeams(_ inputs: FilterInputs) throws -> Image {
        let center = try inputs.point("inputCenter")
        let color = try inputs.color("inputColor").workingPixel
        let sunRadius = max(try inputs.float("inputSunRadius"), 0)
        let maxStriation = try inputs.float("inputMaxStriationRadius")
        let strength = try inputs.float("inputStriationStrength")
        let contrast = try inputs.float("inputStriationContrast")
        let time = min(max(try inputs.float("inputTime"), 0), 1)
        let cx = Float(center.x), cy = Float(center.y)
        let r = max(sunRadius, 1)
        let beamLength = max(r * maxStriation, 1e-3)
        let cells = 160
        return ColorKernel(name: "sunbeams") { span in
            let out = span.out
            let dy = Float(span.y) + 0.5 - cy
            let x0 = Float(span.x0) + 0.5 - cx
            for i in 0..<span.count {
                let dx = x0 + Float(i)
                let d = (dx * dx + dy * dy).squareRoot()
                let disc = min(max(sunRadius - d + 0.5, 0), 1)
                let outside = max(d - sunRadius, 0)
                let q = r / max(d, r)
                var intensity = 0.5 * q * q
                let fall = max(1 - outside / beamLength, 0)
                if fall > 0 {
                    let n = striation(atan2f(dy, dx), time: time, cells: cells)
                    intensity += fall * fall * strength * powf(n, contrast) * 0.8
                }
                let v = min(max(disc, intensity), 1)
                out.r[i] = color.x * v; out.g[i] = color.y * v; out.b[i] = color.z * v; out.a[i] = color.w * v
            }
        }.apply(extent: .infinite, inputs: [])
    }

    /// A lens halo: a ring from haloRadius to haloRadius + haloWidth with a cos² profile across it, one ring per
    /// colour channel, spread apart as the overlap drops below 1 (red inside, blue outside) like a lens's
    /// chromatic dispersion, and striated by angular noise. The extent is the disc that holds the rings.
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
        let cells = 200
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
                let n = powf(striation(atan2f(dy, dx), time: time, cells: cells), contrast)
                let s = min(max(1 - 0.5 * strength + strength * (n - 0.5), 0), 1)
                out.r[i] = color.x * ir * s
                out.g[i] = color.y * ig * s
                out.b[i] = color.z * ib * s
                out.a[i] = color.w * peak * s
            }
        }.apply(extent: extent, inputs: [])
    }
}
