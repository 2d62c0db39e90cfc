import Foundation

enum BlurFilters {
    static let all: [String: FilterImplementation] = [
        "CIGaussianBlur": gaussianBlur,
    ]

    /// CIGaussianBlur, by Core Image version (the evidence: ../shared/conformance/CIGaussianBlur):
    /// - current (iOS 13 / macOS 10.15 and later) and iOS 8.3–8.4: a Gaussian with sigma = inputRadius, the
    ///   extent grown by 3σ a side (`alamofireimage-blur8-ios13` and `-ios8-3`: 200×205 → 248×253, 57.6 / 53.3 dB
    ///   against a plain Gaussian; kean/Nuke issue 308 reports r 50 → 150 px and r 100 → 300 px on iOS 13).
    /// - iOS 9–12: the same pixels (57.2 dB against a plain Gaussian at r 8) in a larger extent, see
    ///   `outputExtent(of:sigma:version:)`.
    /// - iOS 8.1–8.2: the same extent as 8.3, but the blur averaged gamma-encoded (sRGB) premultiplied values
    ///   instead of linear ones (`-ios8-1`: 53.4 dB that way, 30.3 dB in linear light).
    static func gaussianBlur(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let sigma = try inputs.number("inputRadius")
        let version = inputs.coreImageVersion
        guard version < CoreImageVersion(8, 3) else { return gaussian(image, sigma: sigma, version: version) }
        let encoded = ColorKernel(name: "linearToSRGB") { span in
            SpanColor.unpremultiply(span.out, span.count)
            SpanColor.encodeSRGB(span.out, span.count)
            SpanColor.premultiply(span.out, span.count)
        }.apply(extent: image.extent, inputs: [image])
        let blurred = gaussian(encoded, sigma: sigma, version: version)
        return ColorKernel(name: "sRGBToLinear") { span in
            SpanColor.unpremultiply(span.out, span.count)
            SpanColor.decodeSRGB(span.out, span.count)
            SpanColor.premultiply(span.out, span.count)
        }.apply(extent: blurred.extent, inputs: [blurred])
    }

    /// The extent Core Image gives a Gaussian blur of `sigma`.
    /// - Current and iOS 8: grown by ⌈3σ⌉ a side (the renders above grow 24 px at σ 8).
    /// - iOS 9–12: rounded out to a grid of 2^⌊log2 σ⌋ px, then grown by a margin FITTED on the only two renders
    ///   known: 44 px at σ 8 (`alamofireimage-blur8-ios9`: 200×205 → 288×296, the picture at (44, 44)) and
    ///   160 px at σ 20 (`1C4FF473…`, iOS 12.1: 660×483 → 992×816, the picture at (160, 160), so 172 px on the
    ///   right and 173 on top, from the grid of 16). The margin is 3σ up to σ 5 and 3σ + (20/3)(σ − 5) above:
    ///   the straight line through both renders, which meets 3σ at σ 5; rounded up to a whole pixel. Other
    ///   radii are an interpolation, not evidence.
    static func outputExtent(of extent: Rect, sigma: Double, version: CoreImageVersion = .current) -> Rect {
        guard !extent.isInfinite, sigma > 0 else { return extent }
        guard version >= CoreImageVersion(9), version < CoreImageVersion(13) else {
            return extent.insetBy(dx: -(3 * sigma).rounded(.up), dy: -(3 * sigma).rounded(.up))
        }
        let grid = sigma >= 1 ? pow(2, log2(sigma).rounded(.down)) : 1
        let margin = (3 * sigma + max(sigma - 5, 0) * 20 / 3).rounded(.up)
        let x0 = (extent.minX / grid).rounded(.down) * grid - margin, y0 = (extent.minY / grid).rounded(.down) * grid - margin
        let x1 = (extent.maxX / grid).rounded(.up) * grid + margin, y1 = (extent.maxY / grid).rounded(.up) * grid + margin
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// A Gaussian blur whose cost per pixel does not grow with sigma: below sigma 3 a direct separable
    /// convolution; above, a box downsample by a power of two, a small convolution, and a bilinear upsample,
    /// with the variance the resampling adds taken off the small blur (the design notes measured 7–11 ms
    /// for sigma 10 at 1080p this way, against 43 ms for direct taps).
    static func gaussian(_ image: Image, sigma: Double, version: CoreImageVersion = .current) -> Image {
        // A radius below 0 acts as 0 (no blur), as in Core Image. Above 1e12 nothing the renderer can hold
        // (coordinates within ±2^28) changes: the coarsest level is one block; clamped so the level's own
        // sigma, and its taps, stay small.
        let sigma = min(sigma, 1e12)
        guard sigma > 0.05, !image.extent.isEmpty else { return image }
        let extent = outputExtent(of: image.extent, sigma: sigma, version: version)
        var factor = 1
        // No cap on the factor: a huge sigma works on a level of a few pixels (a 1e9 blur of a photo is a 1×1
        // level; before, a level capped at 1/64 asked for 10^8 taps). 2^40 keeps factor × coordinates in range.
        while sigma / Double(factor * 2) >= 2.5 && factor < 1 << 40 { factor *= 2 }
        if factor == 1 {
            let radius = Int((3 * sigma).rounded(.up))
            let weights = Convolution.gaussianWeights(sigma: sigma, radius: radius)
            let blurred = Convolution.pass(Convolution.pass(image, weights: weights, vertical: false),
                                           weights: weights, vertical: true)
            return blurred.withExtent(extent)
        }
        let f = Double(factor)
        let resamplingVariance = (3 * f * f - 1) / 12
        let smallSigma = (max(sigma * sigma - resamplingVariance, 0.25)).squareRoot() / f
        let radius = Int((3 * smallSigma).rounded(.up))
        let weights = Convolution.gaussianWeights(sigma: smallSigma, radius: radius)
        let small = image.downsampled(by: factor)
        let blurred = Convolution.pass(Convolution.pass(small, weights: weights, vertical: false),
                                       weights: weights, vertical: true)
        return blurred.upsampled(by: factor, extent: extent)
    }
}
