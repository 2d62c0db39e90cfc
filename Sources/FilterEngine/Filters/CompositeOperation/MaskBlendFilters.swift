import Foundation

/// Mixing an image with a background by a per-pixel weight (one channel of a mask image) or a fixed amount:
///     result = background + (image − background) · weight,  on premultiplied working-space pixels.
/// CIBlendWithMask takes the mask's green channel (Core Image's documented behaviour for its "greyscale" mask;
/// red and blue have their own filters), CIBlendWithAlphaMask its alpha. The mask is read as stored in the
/// working space (linear, premultiplied), as Core Image samples it, and the weight is clamped to [0, 1].
/// Outside the mask's extent the weight is 0 (the background); outside the image's extent the image is
/// transparent. So the output extent is the background's extent plus the part of the image the mask covers.
enum MaskBlendFilters {
    static let all: [String: FilterImplementation] = [
        "CIBlendWithMask": masked(.green),
        "CIBlendWithAlphaMask": masked(.alpha),
        "CIBlendWithRedMask": masked(.red),
        "CIBlendWithBlueMask": masked(.blue),
        "CIMix": mix,
    ]

    enum MaskChannel: Sendable { case red, green, blue, alpha }

    static func masked(_ channel: MaskChannel) -> FilterImplementation {
        { inputs in
            let (image, background) = try CompositeFilters.operands(inputs)
            let mask = try inputs.image("inputMaskImage")
            let extent = background.extent.union(image.extent.intersection(mask.extent))
            return maskKernel(channel).apply(extent: extent, inputs: [image, background, mask])
        }
    }

    static func maskKernel(_ channel: MaskChannel) -> ColorKernel {
        ColorKernel(name: "blendWithMask \(channel)") { span in
            let s = span.out, d = span.input(1), m = span.input(2)
            let weights: UnsafeMutablePointer<Float>
            switch channel {
            case .red: weights = m.r
            case .green: weights = m.g
            case .blue: weights = m.b
            case .alpha: weights = m.a
            }
            for i in 0..<span.count {
                let w = ColorMath.clamp01(weights[i])
                s.r[i] = d.r[i] + (s.r[i] - d.r[i]) * w
                s.g[i] = d.g[i] + (s.g[i] - d.g[i]) * w
                s.b[i] = d.b[i] + (s.b[i] - d.b[i]) * w
                s.a[i] = d.a[i] + (s.a[i] - d.a[i]) * w
            }
        }
    }

    /// A cross-fade by a fixed amount (0: the background, 1: the image; values outside extrapolate).
    static func mix(_ inputs: FilterInputs) throws -> Image {
        let amount = try inputs.float("inputAmount")
        let image = try inputs.image("inputImage")
        // At the identity amount the background plays no part, so it is not even read (it may be unset).
        if amount == 1 { return image }
        let background = try inputs.image("inputBackgroundImage")
        if amount == 0 { return background }
        return crossFade(from: background, to: image, amount: amount,
                         extent: image.extent.union(background.extent))
    }

    /// `from + (to − from) · amount` per premultiplied component (shared by CIMix and the dissolve transition).
    static func crossFade(from: Image, to: Image, amount: Float, extent: Rect) -> Image {
        ColorKernel(name: "crossFade") { span in
            let s = span.out, d = span.input(1)
            for i in 0..<span.count {
                s.r[i] = d.r[i] + (s.r[i] - d.r[i]) * amount
                s.g[i] = d.g[i] + (s.g[i] - d.g[i]) * amount
                s.b[i] = d.b[i] + (s.b[i] - d.b[i]) * amount
                s.a[i] = d.a[i] + (s.a[i] - d.a[i]) * amount
            }
        }.apply(extent: extent, inputs: [to, from])
    }
}
