// S18 — a `CIImageAccumulator` kept between passes: each pass filters the accumulator's image and stores the
// result with `setImage(_:)`; modelled on the usage pattern seen in public code (feedback and painting effects).
import CoreImage

/// Blurs an image again and again, keeping each result: `passes` Gaussian blurs of `radius` in a row.
struct RepeatedBlur {
    var radius: Double
    var passes: Int

    func run(on image: CIImage) -> CIImage? {
        guard let accumulator = CIImageAccumulator(extent: image.extent, format: .RGBAf) else { return nil }
        accumulator.setImage(image)
        for _ in 0..<passes {
            let blurred = accumulator.image().clampedToExtent()
                .applyingFilter("CIGaussianBlur", parameters: [kCIInputRadiusKey: radius])
            accumulator.setImage(blurred.cropped(to: image.extent))
        }
        return accumulator.image()
    }
}
