// S14 — a CIFilter subclass holding a CIWarpKernel(source:) (a `vec2` routine over destCoord() and sin), run with
// `apply(extent:roiCallback:image:arguments:)` and an ROI closure that widens the asked rectangle by the largest
// displacement; modelled on the usage pattern seen in public code (e.g. lennet/FilterPlayground,
// noppefoxwolf/Halffox).
import CoreImage

/// Shifts every row sideways along a sine wave of the height, like a reflection on moving water.
final class RippleFilter: CIFilter {
    var inputImage: CIImage?
    /// The largest sideways shift, in pixels.
    var inputAmplitude: Double = 6
    /// The height of one full wave, in pixels.
    var inputWavelength: Double = 40

    static let rippleKernel = CIWarpKernel(source: """
        kernel vec2 rowRipple(float amplitude, float wavelength)
        {
            vec2 here = destCoord();
            float shift = amplitude * sin(6.28318530718 * here.y / wavelength);
            return vec2(here.x + shift, here.y);
        }
        """)

    override var outputImage: CIImage? {
        guard let picture = inputImage, let kernel = Self.rippleKernel, inputWavelength != 0 else { return nil }
        // An output rectangle reads the same rows, up to `amplitude` pixels (+1 for interpolation) to either side.
        let reach = CGFloat(abs(inputAmplitude)) + 1
        return kernel.apply(extent: picture.extent,
                            roiCallback: { _, rect in rect.insetBy(dx: -reach, dy: 0) },
                            image: picture,
                            arguments: [inputAmplitude, inputWavelength])
    }
}
