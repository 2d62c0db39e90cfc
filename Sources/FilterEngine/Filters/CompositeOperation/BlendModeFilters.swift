import Foundation

// Blend modes, one table row each (W3C "Compositing and Blending Level 1" / PDF 1.7 formulas for the separable
// modes, plus the common definitions of the modes the W3C does not name: subtract, divide, linear burn/dodge/light,
// pin and vivid light; the hue, saturation, colour and luminosity modes are HSL, see below).
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
protocol SeparableBlend: Sendable {
    static func blend(_ s: Float, _ b: Float) -> Float
}

/// A non-separable blend of whole colours (the HSL-style modes), foreground `s` over background `b`.
protocol NonSeparableBlend: Sendable {
    static func blend(_ s: BlendModeFilters.RGB, _ b: BlendModeFilters.RGB) -> BlendModeFilters.RGB
}

enum BlendModeFilters {
    /// An unpremultiplied colour, three plain scalars (no SIMD3, which keeps the loops vectorisable).
    struct RGB { var r: Float, g: Float, b: Float }

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

    /// A separable mode is the non-separable kernel with the mode applied to each component; the adaptor is
    /// generic and inlined, so each mode still gets its own specialised loop.
    static func separable<M: SeparableBlend>(_ mode: M.Type) -> FilterImplementation {
        nonSeparable(PerComponent<M>.self)
    }

    enum PerComponent<M: SeparableBlend>: NonSeparableBlend {
        @inline(__always) static func blend(_ s: RGB, _ b: RGB) -> RGB {
            RGB(r: M.blend(s.r, b.r), g: M.blend(s.g, b.g), b: M.blend(s.b, b.b))
        }
    }

    static func nonSeparable<M: NonSeparableBlend>(_ mode: M.Type) -> FilterImplementation {
        { inputs in
            let (image, background) = try CompositeFilters.operands(inputs)
            return nonSeparableKernel(M.self).apply(extent: image.extent.union(background.extent),
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
                let sr = s.r[i], sg = s.g[i], sb = s.b[i]
                let dr = d.r[i], dg = d.g[i], db = d.b[i]
                let blended = M.blend(RGB(r: sr * sInv, g: sg * sInv, b: sb * sInv),
                                      RGB(r: dr * dInv, g: dg * dInv, b: db * dInv))
                s.r[i] = keepS * sr + keepD * dr + both * blended.r
                s.g[i] = keepS * sg + keepD * dg + both * blended.g
                s.b[i] = keepS * sb + keepD * db + both * blended.b
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
            let multiplied = b * (2 * s), screened = Screen.blend(2 * s - 1, b)
            return s <= 0.5 ? multiplied : screened
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
    // The modes with cases compute every case first and select at the end: LLVM does not speculate a
    // division or square root behind a branch, and a branch stops the loop vectorising (soft light measured
    // about 2x slower written with early returns).
    enum ColorDodge: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float {
            let q = min(1, b / max(1 - s, .leastNormalMagnitude))
            return b <= 0 ? 0 : (s >= 1 ? 1 : q)
        }
    }
    enum ColorBurn: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float {
            let q = 1 - min(1, (1 - b) / max(s, .leastNormalMagnitude))
            return b >= 1 ? 1 : (s <= 0 ? 0 : q)
        }
    }
    enum SoftLight: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float {
            let root = max(b, 0).squareRoot(), cubic = ((16 * b - 12) * b + 4) * b
            let d = b <= 0.25 ? cubic : root
            let darker = b - (1 - 2 * s) * b * (1 - b), lighter = b + (2 * s - 1) * (d - b)
            return s <= 0.5 ? darker : lighter
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
            let q = ColorMath.clamp01(b / max(s, .leastNormalMagnitude))
            return s <= 0 ? (b > 0 ? 1 : 0) : q
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
            let low = min(b, 2 * s), high = max(b, 2 * s - 1)
            return s <= 0.5 ? low : high
        }
    }
    /// Colour burn with twice the foreground below a mid foreground, colour dodge above.
    enum VividLight: SeparableBlend {
        @inline(__always) static func blend(_ s: Float, _ b: Float) -> Float {
            let burned = ColorBurn.blend(2 * s, b), dodged = ColorDodge.blend(2 * s - 1, b)
            return s <= 0.5 ? burned : dodged
        }
    }

    // MARK: Non-separable modes (HSL on linear values)
    //
    // Apple's iOS 7 renders (monotouch-ios7-colorblendmode- and -luminosityblendmode-heron-over-clouds) are the
    // HSL model on the linear working values, not the W3C/PDF luminance SetLum/ClipColor: hue (the colour's
    // order and the middle component's place between the extremes), HSL saturation S = (max - min) / (1 - |2L - 1|)
    // and lightness L = (max + min) / 2 are taken from one input or the other, and the colour rebuilt from them.
    // Fitted on those two renders: colour 47.2 dB, luminosity 38.1 dB on the overlap (W3C with 0.3/0.59/0.11
    // weights: 24.3 / 17.5 dB; the same HSL on sRGB-encoded values: 29.4 / 22.7 dB). Black backdrops show it
    // plainly: the luminosity of a heron over black is the grey (max + min) / 2, and a dark yellow backdrop
    // (1, 1, 0)/255 keeps its full saturation (50, 50, 0). A grey colour has no hue; as in the usual RGB to HSL
    // conversion it reads as hue 0 (red), which only matters when its hue is taken (hue mode, grey foreground).
    // Written on scalar triples with selects instead of branches so the loop vectorises across pixels.

    /// A colour split into HSL parts: `pos` the components placed between the smallest (0) and the largest (1)
    /// one (the hue), `s` the HSL saturation, `l` the lightness.
    struct HSL { var pos: RGB, s: Float, l: Float }

    @inline(__always) static func smallest(_ c: RGB) -> Float { min(c.r, min(c.g, c.b)) }
    @inline(__always) static func largest(_ c: RGB) -> Float { max(c.r, max(c.g, c.b)) }

    @inline(__always) static func hsl(_ c: RGB) -> HSL {
        let n = smallest(c), x = largest(c), range = x - n, l = (x + n) / 2
        let room = 1 - abs(2 * l - 1)
        let s: Float = (room > 0 && range > 0) ? range / max(room, .leastNormalMagnitude) : 0
        let q = 1 / max(range, .leastNormalMagnitude)
        let coloured = range > 0
        let pos = RGB(r: coloured ? (c.r - n) * q : 1, g: coloured ? (c.g - n) * q : 0, b: coloured ? (c.b - n) * q : 0)
        return HSL(pos: pos, s: s, l: l)
    }

    /// The colour of hue `pos`, saturation `s` and lightness `l`.
    @inline(__always) static func rgb(_ pos: RGB, _ s: Float, _ l: Float) -> RGB {
        let chroma = s * (1 - abs(2 * l - 1)), low = l - chroma / 2
        return RGB(r: low + chroma * pos.r, g: low + chroma * pos.g, b: low + chroma * pos.b)
    }

    /// The foreground's hue with the background's saturation and lightness.
    enum Hue: NonSeparableBlend {
        @inline(__always) static func blend(_ s: RGB, _ b: RGB) -> RGB {
            let f = hsl(s), g = hsl(b)
            return rgb(f.pos, g.s, g.l)
        }
    }
    /// The foreground's saturation with the background's hue and lightness.
    enum Saturation: NonSeparableBlend {
        @inline(__always) static func blend(_ s: RGB, _ b: RGB) -> RGB {
            let f = hsl(s), g = hsl(b)
            return rgb(g.pos, f.s, g.l)
        }
    }
    /// The foreground's hue and saturation with the background's lightness.
    enum ColorMode: NonSeparableBlend {
        @inline(__always) static func blend(_ s: RGB, _ b: RGB) -> RGB {
            let f = hsl(s), g = hsl(b)
            return rgb(f.pos, f.s, g.l)
        }
    }
    /// The background's hue and saturation with the foreground's lightness.
    enum Luminosity: NonSeparableBlend {
        @inline(__always) static func blend(_ s: RGB, _ b: RGB) -> RGB {
            let f = hsl(s), g = hsl(b)
            return rgb(g.pos, g.s, f.l)
        }
    }
}
