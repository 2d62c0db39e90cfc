import Foundation

// Blend modes, one table row each (W3C "Compositing and Blending Level 1" / PDF 1.7 formulas, plus the common
// definitions of the modes the W3C does not name: subtract, divide, linear burn/dodge/light, pin and vivid light).
//
// Colour space: the blend runs on the linear working-space values, as every Core Image kernel does; Core Image
// does not switch to sRGB for its blend modes, which is why its results differ from an editor that blends
// gamma-encoded values (Photoshop's default). Midpoint tests such as "cs <= 0.5" therefore compare linear values.
//
// Partial alpha: the blend result B(cs, cb) of the unpremultiplied colours is combined with source-over,
//     result.rgb = (1 - ab) * s + (1 - as) * b + as * ab * B(cs, cb)     (s, b premultiplied)
//     result.a   = as + ab - as * ab
// so a transparent background leaves the foreground, and a transparent foreground leaves the background.
// Output extent: the union of both inputs.

/// A separable blend function of one unpremultiplied component: foreground `s` over background `b`.
protocol SeparableBlend {
    static func blend(_ s: Float, _ b: Float) -> Float
}

/// A non-separable blend of whole colours (the HSL-style modes), foreground `s` over background `b`.
protocol NonSeparableBlend {
    static func blend(_ s: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float>
}

enum BlendModeFilters {
    static let all: [String: FilterImplementation] = [
        "CIMultiplyBlendMode": separable(Multiply.self),
        "CIScreenBlendMode": separable(Screen.self),
        "CIOverlayBlendMode": separable(Overlay.self),
        "CIDarkenBlendMode": separable(Darken.self),
        "CILightenBlendMode": separable(Lighten.self),
        "CIColorDodgeBlendMode": separable(ColorDodge.self),
        "CIColorBurnBlendMode": separable(ColorBurn.self),
        "CIHardLightBlendMode": separable(HardLight.self),
        "CISoftLightBlendMode": separable(SoftLight.self),
        "CIDifferenceBlendMode": separable(Difference.self),
        "CIExclusionBlendMode": separable(Exclusion.self),
        "CISubtractBlendMode": separable(Subtract.self),
        "CIDivideBlendMode": separable(Divide.self),
        "CILinearBurnBlendMode": separable(LinearBurn.self),
        "CILinearDodgeBlendMode": separable(LinearDodge.self),
        "CILinearLightBlendMode": separable(LinearLight.self),
        "CIPinLightBlendMode": separable(PinLight.self),
        "CIVividLightBlendMode": separable(VividLight.self),
        "CIHueBlendMode": nonSeparable(Hue.self),
        "CISaturationBlendMode": nonSeparable(Saturation.self),
        "CIColorBlendMode": nonSeparable(ColorMode.self),
        "CILuminosityBlendMode": nonSeparable(Luminosity.self),
    ]

    // MARK: Kernel builders (generic, so each mode gets its own specialised, vectorisable loop)

    static func separable<M: SeparableBlend>(_ mode: M.Type) -> FilterImplementation {
        { inputs in
            let (image, background) = try CompositeFilters.operands(inputs)
            return separableKernel(mode).apply(extent: image.extent.union(background.extent),
                                               inputs: [image, background])
        }
    }

    static func separableKernel<M: SeparableBlend>(_ mode: M.Type) -> ColorKernel {
        ColorKernel(name: "blend \(M.self)") { span in
            let s = span.out, d = span.input(1)
            for i in 0..<span.count {
                let sa = s.a[i], da = d.a[i]
                let sInv: Float = sa > 0 ? 1 / sa : 0, dInv: Float = da > 0 ? 1 / da : 0
                let both = sa * da, keepS = 1 - da, keepD = 1 - sa
                let sr = s.r[i], sg = s.g[i], sb = s.b[i]
                let dr = d.r[i], dg = d.g[i], db = d.b[i]
                s.r[i] = keepS * sr + keepD * dr + both * M.blend(sr * sInv, dr * dInv)
                s.g[i] = keepS * sg + keepD * dg + both * M.blend(sg * sInv, dg * dInv)
                s.b[i] = keepS * sb + keepD * db + both * M.blend(sb * sInv, db * dInv)
                s.a[i] = sa + da - both
            }
        }
    }

    static func nonSeparable<M: NonSeparableBlend>(_ mode: M.Type) -> FilterImplementation {
        { inputs in
            let (image, background) = try CompositeFilters.operands(inputs)
            return nonSeparableKernel(mode).apply(extent: image.extent.union(background.extent),
                                                  inputs: [image, background])
        }
    }

    static func nonSeparableKernel<M: NonSeparableBlend>(_ mode: M.Type) -> ColorKernel {
        ColorKernel(name: "blend \(M.self)") { span in
            let s = span.out, d = span.input(1)
            for i in 0..<span.count {
                let sa = s.a[i], da = d.a[i]
                let sInv: Float = sa > 0 ? 1 / sa : 0, dInv: Float = da > 0 ? 1 / da : 0
                let both = sa * da, keepS = 1 - da, keepD = 1 - sa
                let sc = SIMD3<Float>(s.r[i], s.g[i], s.b[i]), dc = SIMD3<Float>(d.r[i], d.g[i], d.b[i])
                let blended = M.blend(sc * sInv, dc * dInv)
                s.r[i] = keepS * sc.x + keepD * dc.x + both * blended.x
                s.g[i] = keepS * sc.y + keepD * dc.y + both * blended.y
                s.b[i] = keepS * sc.z + keepD * dc.z + both * blended.z
                s.a[i] = sa + da - both
            }
        }
    }

    // MARK: Separable modes

    enum Multiply: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float { s * b }
    }
    enum Screen: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float { s + b - s * b }
    }
    enum HardLight: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float {
            s <= 0.5 ? b * (2 * s) : Screen.blend(2 * s - 1, b)
        }
    }
    /// Hard light with the roles swapped: the background decides between multiply and screen.
    enum Overlay: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float { HardLight.blend(b, s) }
    }
    enum Darken: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float { min(s, b) }
    }
    enum Lighten: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float { max(s, b) }
    }
    enum ColorDodge: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float {
            if b <= 0 { return 0 }
            if s >= 1 { return 1 }
            return min(1, b / (1 - s))
        }
    }
    enum ColorBurn: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float {
            if b >= 1 { return 1 }
            if s <= 0 { return 0 }
            return 1 - min(1, (1 - b) / s)
        }
    }
    enum SoftLight: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float {
            if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
            let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : (max(b, 0)).squareRoot()
            return b + (2 * s - 1) * (d - b)
        }
    }
    enum Difference: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float { abs(b - s) }
    }
    enum Exclusion: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float { s + b - 2 * s * b }
    }
    // The modes below are not in the W3C list; they follow their usual definitions, with the result clamped to
    // [0, 1] as those definitions do (a difference or quotient of colours has no meaning outside it).
    enum Subtract: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float { ColorMath.clamp01(b - s) }
    }
    /// Background divided by foreground; a black foreground gives white (or black over black).
    enum Divide: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float {
            if s <= 0 { return b > 0 ? 1 : 0 }
            return ColorMath.clamp01(b / s)
        }
    }
    enum LinearBurn: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float { ColorMath.clamp01(s + b - 1) }
    }
    enum LinearDodge: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float { ColorMath.clamp01(s + b) }
    }
    /// Linear burn below a mid foreground, linear dodge above: b + 2s - 1.
    enum LinearLight: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float { ColorMath.clamp01(b + 2 * s - 1) }
    }
    enum PinLight: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float {
            s <= 0.5 ? min(b, 2 * s) : max(b, 2 * s - 1)
        }
    }
    /// Colour burn with twice the foreground below a mid foreground, colour dodge above.
    enum VividLight: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float {
            s <= 0.5 ? ColorBurn.blend(2 * s, b) : ColorDodge.blend(2 * s - 1, b)
        }
    }

    // MARK: Non-separable modes (W3C Lum / ClipColor / SetLum / Sat / SetSat)

    /// The W3C/PDF luminance weights of these modes.
    static let lumWeights = SIMD3<Float>(0.3, 0.59, 0.11)

    @inline(__always) static func lum(_ c: SIMD3<Float>) -> Float {
        c.x * lumWeights.x + c.y * lumWeights.y + c.z * lumWeights.z
    }

    @inline(__always) static func smallest(_ c: SIMD3<Float>) -> Float { min(c.x, min(c.y, c.z)) }
    @inline(__always) static func largest(_ c: SIMD3<Float>) -> Float { max(c.x, max(c.y, c.z)) }

    /// Brings a colour back into [0, 1] by moving it towards its own luminance, keeping the luminance.
    @inline(__always) static func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = lum(c), n = smallest(c), x = largest(c)
        var out = c
        if n < 0, l - n > 0 { out = l + (out - l) * (l / (l - n)) }
        if x > 1, x - l > 0 { out = l + (out - l) * ((1 - l) / (x - l)) }
        return out
    }

    @inline(__always) static func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> {
        clipColor(c + (l - lum(c)))
    }

    @inline(__always) static func sat(_ c: SIMD3<Float>) -> Float { largest(c) - smallest(c) }

    /// The colour with its saturation (max − min) set to `s`: the smallest component goes to 0, the largest to
    /// `s`, the middle one keeps its relative place; a grey colour becomes black.
    @inline(__always) static func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
        let n = smallest(c), range = largest(c) - n
        guard range > 0 else { return .zero }
        return (c - n) * (s / range)
    }

    enum Hue: NonSeparableBlend {
        @inline(__always) static func blend(_ s: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
            setLum(setSat(s, sat(b)), lum(b))
        }
    }
    enum Saturation: NonSeparableBlend {
        @inline(__always) static func blend(_ s: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
            setLum(setSat(b, sat(s)), lum(b))
        }
    }
    enum ColorMode: NonSeparableBlend {
        @inline(__always) static func blend(_ s: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
            setLum(s, lum(b))
        }
    }
    enum Luminosity: NonSeparableBlend {
        @inline(__always) static func blend(_ s: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
            setLum(b, lum(s))
        }
    }
}
