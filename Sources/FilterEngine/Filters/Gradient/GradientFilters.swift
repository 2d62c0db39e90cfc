import Foundation

/// Gradients: colour ramps that are pure functions of the pixel position (generators, colour kernels with no
/// inputs, so they fuse with whatever follows). Colours are mixed in the working space (linear, premultiplied),
/// as Core Image mixes them.
enum GradientFilters {
    static let all: [String: FilterImplementation] = [
        "CILinearGradient": { try linear($0, smooth: false) },
        "CISmoothLinearGradient": { try linear($0, smooth: true) },
        "CIRadialGradient": radial,
        "CIGaussianGradient": gaussian,
        "CIHueSaturationValueGradient": hueSaturationValue,
        "CIDistanceGradientFromRedMask": DistanceGradient.make,
    ]

    /// Writes c0 + (c1 - c0)·t into pixel i of `out`.
    @inline(__always) static func mix(_ out: PlanarRow, _ i: Int, _ c0: Pixel, _ d: Pixel, _ t: Float) {
        out.r[i] = c0.x + d.x * t
        out.g[i] = c0.y + d.y * t
        out.b[i] = c0.z + d.z * t
        out.a[i] = c0.w + d.w * t
    }

    /// Colour 0 at point 0, colour 1 at point 1, constant beyond them along the line joining them. The smooth
    /// variant eases the ramp with the smoothstep curve 3t² − 2t³ (same ends and midpoint, zero slope at the ends).
    static func linear(_ inputs: FilterInputs, smooth: Bool) throws -> Image {
        let p0 = try inputs.point("inputPoint0"), p1 = try inputs.point("inputPoint1")
        let c0 = try inputs.color("inputColor0").workingPixel
        let delta = try inputs.color("inputColor1").workingPixel - c0
        let dx = p1.x - p0.x, dy = p1.y - p0.y
        let length2 = dx * dx + dy * dy
        // t(x, y) = ax·x + ay·y + b; coincident points give colour 0 everywhere.
        let usable = length2 > 1e-12
        let ax = usable ? Float(dx / length2) : 0, ay = usable ? Float(dy / length2) : 0
        let b = usable ? Float(-(p0.x * dx + p0.y * dy) / length2) : 0
        return ColorKernel(name: smooth ? "smoothLinearGradient" : "linearGradient") { span in
            let out = span.out
            let rowT = ay * (Float(span.y) + 0.5) + b
            let x0 = Float(span.x0) + 0.5
            for i in 0..<span.count {
                var t = ax * (x0 + Float(i)) + rowT
                t = min(max(t, 0), 1)
                if smooth { t = t * t * (3 - 2 * t) }
                mix(out, i, c0, delta, t)
            }
        }.apply(extent: .infinite, inputs: [])
    }

    /// Colour 0 at distance radius0 from the centre, colour 1 at radius1, a linear ramp between and constant
    /// beyond. Equal radii give a hard circle.
    static func radial(_ inputs: FilterInputs) throws -> Image {
        let center = try inputs.point("inputCenter")
        let r0 = try inputs.float("inputRadius0"), r1 = try inputs.float("inputRadius1")
        let c0 = try inputs.color("inputColor0").workingPixel
        let delta = try inputs.color("inputColor1").workingPixel - c0
        let cx = Float(center.x), cy = Float(center.y)
        let span1 = r1 - r0
        // With equal radii the ramp is a step at that radius (colour 0 inside, colour 1 outside); a tiny span
        // keeps one formula.
        let scale: Float = abs(span1) > 1e-6 ? 1 / span1 : 1e6
        return ColorKernel(name: "radialGradient") { span in
            let out = span.out
            let dy = Float(span.y) + 0.5 - cy
            let dy2 = dy * dy
            let x0 = Float(span.x0) + 0.5 - cx
            for i in 0..<span.count {
                let dx = x0 + Float(i)
                let d = (dx * dx + dy2).squareRoot()
                let t = min(max((d - r0) * scale, 0), 1)
                mix(out, i, c0, delta, t)
            }
        }.apply(extent: .infinite, inputs: [])
    }

    /// Colour 0 at the centre fading to colour 1 at the radius, mixed in linear light with the weight of colour 0
    /// 1 − smoothstep(0, radius, d), colour 1 beyond. Despite the name the falloff is not a Gaussian: Apple's
    /// iOS 7 render (shared/conformance monotouch-ios7-gaussiangradient, radius 280) is this curve to the 8-bit
    /// level (99 dB), where a Gaussian of σ = r/3 gives 25.7 dB and the best truncated Gaussian 38.7 dB.
    static func gaussian(_ inputs: FilterInputs) throws -> Image {
        let center = try inputs.point("inputCenter")
        let radius = try inputs.float("inputRadius")
        let c0 = try inputs.color("inputColor0").workingPixel
        let c1 = try inputs.color("inputColor1").workingPixel
        guard radius > 1e-3 else { return Image(color: try inputs.color("inputColor1")) }
        let delta = c0 - c1
        let cx = Float(center.x), cy = Float(center.y)
        let inverse = 1 / radius
        return ColorKernel(name: "gaussianGradient") { span in
            let out = span.out
            let dy = Float(span.y) + 0.5 - cy
            let dy2 = dy * dy
            let x0 = Float(span.x0) + 0.5 - cx
            for i in 0..<span.count {
                let dx = x0 + Float(i)
                let t = min((dx * dx + dy2).squareRoot() * inverse, 1)
                mix(out, i, c1, delta, 1 - t * t * (3 - 2 * t))
            }
        }.apply(extent: .infinite, inputs: [])
    }

    /// A colour wheel of the given radius centred at (radius, radius), in a square extent [0, 0, 2r, 2r]:
    /// hue by angle (red along +x, counter-clockwise through green and blue), saturation by distance from the
    /// centre, value from inputValue. HSV is taken in the encoded values of inputColorSpace (sRGB when unset; a wider
    /// space such as Display P3 gives colours outside the working gamut). Softness widens the antialiased rim;
    /// dither adds up to ±dither/255 of noise against banding.
    static func hueSaturationValue(_ inputs: FilterInputs) throws -> Image {
        let value = min(try inputs.float("inputValue"), 1)
        let radius = try inputs.float("inputRadius")
        let softness = try inputs.float("inputSoftness")
        let dither = try inputs.float("inputDither")
        let space = try inputs.colorSpace("inputColorSpace") ?? .sRGB
        guard radius > 0 else { return Image(color: .clear) }
        let extent = Rect(x: 0, y: 0, width: Double(2 * radius), height: Double(2 * radius))
        // Rim band in pixels: one pixel (antialiasing) at softness 0, up to a few percent of the radius.
        let band = max(1, softness * max(1, radius * 0.02))
        let ditherAmount = dither / 255
        let twoPi = Float.pi * 2
        // sRGB decoding by the shared table (three powf per pixel made the colour wheel 3x slower).
        let decodeTable = EncodedCurves.decode
        return ColorKernel(name: "hueSaturationValueGradient") { span in
            hsvSpan(span, decodeTable.values)
        }.apply(extent: extent, inputs: [])

        @Sendable func hsvSpan(_ span: ColorSpan, _ table: UnsafeMutablePointer<Float>) {
            let out = span.out
            let dy = Float(span.y) + 0.5 - radius
            let x0 = Float(span.x0) + 0.5 - radius
            let rowSeed = UInt32(truncatingIfNeeded: span.y) &* 0x9E37_79B1
            for i in 0..<span.count {
                let dx = x0 + Float(i)
                let d = (dx * dx + dy * dy).squareRoot()
                let coverage = min(max((radius - d) / band + 0.5, 0), 1)
                var angle = atan2f(dy, dx)
                if angle < 0 { angle += twoPi }
                let h = angle / twoPi * 6
                let s = min(d / radius, 1)
                // HSV → RGB: each channel is v·(1 − s·clamp(…)) of a triangle wave in hue.
                func channel(_ n: Float) -> Float {
                    var k = n + h
                    if k >= 6 { k -= 6 }
                    let w = min(max(min(k, 4 - k), 0), 1)
                    return value * (1 - s * w)
                }
                var r = channel(5), g = channel(3), b = channel(1)
                if ditherAmount > 0 {
                    var hsh = (UInt32(truncatingIfNeeded: span.x0 + i) ^ rowSeed) &* 0x2C1B_3C6D
                    hsh ^= hsh >> 15
                    hsh &*= 0x297A_2D39
                    hsh ^= hsh >> 16
                    let n = Float(Int32(bitPattern: hsh & 0xFFFF)) / 65536 - 0.5
                    r += n * ditherAmount; g += n * ditherAmount; b += n * ditherAmount
                }
                if space == .sRGB {
                    out.r[i] = EncodedCurves.lookup(table, EncodedCurves.clamp01(r)) * coverage
                    out.g[i] = EncodedCurves.lookup(table, EncodedCurves.clamp01(g)) * coverage
                    out.b[i] = EncodedCurves.lookup(table, EncodedCurves.clamp01(b)) * coverage
                } else {
                    out.r[i] = r; out.g[i] = g; out.b[i] = b
                }
                out.a[i] = coverage
            }
            // Other spaces: the whole span's encoded colours go to the working space, then take the coverage.
            guard space != .sRGB else { return }
            space.toWorking(out, span.count)
            for i in 0..<span.count {
                let a = out.a[i]
                out.r[i] *= a; out.g[i] *= a; out.b[i] *= a
            }
        }
    }
}
