// S15 — a general CIKernel(source:) with a `sampler` parameter, sample/samplerTransform/destCoord in a loop, run
// with `apply(extent:roiCallback:arguments:)` whose ROI closure grows the rectangle by the kernel's reach;
// modelled on the usage pattern seen in public code (e.g. Apple's CIKernelROICallback documentation as mirrored
// in Averyy/apple-dev-docs).
import CoreImage

/// Averages five samples along a direction: a small motion-style blur. The output grows by the reach, as Core
/// Image's own blurs do.
final class StreakBlurFilter: CIFilter {
    var inputImage: CIImage?
    /// The step between two of the five samples, in pixels (e.g. (1, 0) for a horizontal streak).
    var inputStep = CIVector(x: 1, y: 0)

    static let streakKernel = CIKernel(source: """
        kernel vec4 streak(sampler source, vec2 step)
        {
            vec2 centre = destCoord();
            vec4 total = vec4(0.0);
            for (int k = -2; k <= 2; k++) {
                total += sample(source, samplerTransform(source, centre + float(k) * step));
            }
            return total / 5.0;
        }
        """)

    override var outputImage: CIImage? {
        guard let picture = inputImage, let kernel = Self.streakKernel else { return nil }
        let dx = 2 * abs(inputStep.x), dy = 2 * abs(inputStep.y)
        return kernel.apply(extent: picture.extent.insetBy(dx: -dx, dy: -dy),
                            roiCallback: { _, rect in rect.insetBy(dx: -dx - 1, dy: -dy - 1) },
                            arguments: [picture, inputStep])
    }
}
