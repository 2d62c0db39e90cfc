// S13 — a CIFilter subclass holding a CIColorKernel(source:) written in the Core Image Kernel Language
// (`__sample`, `__color`, unpremultiply, dot, mix, premultiply), run with `apply(extent:arguments:)` with the
// image and CIColor arguments; modelled on the usage pattern seen in public code (e.g. lennet/FilterPlayground).
import CoreImage

/// Maps the picture's luminance onto a ramp between two colours: dark areas take the shadow colour, bright areas
/// the highlight colour. Transparency is kept.
final class DuotoneFilter: CIFilter {
    var inputImage: CIImage?
    var inputShadowColor = CIColor(red: 0.12, green: 0.05, blue: 0.35)
    var inputHighlightColor = CIColor(red: 1, green: 0.8, blue: 0.45)

    /// Compiled once for every instance.
    static let rampKernel = CIColorKernel(source: """
        kernel vec4 duotoneRamp(__sample pixel, __color dark, __color light)
        {
            vec4 colour = unpremultiply(pixel);
            // Rec. 709 luminance of the (linear) working colour.
            float brightness = dot(colour.rgb, vec3(0.2126, 0.7152, 0.0722));
            vec3 toned = mix(dark.rgb, light.rgb, brightness);
            return premultiply(vec4(toned, colour.a));
        }
        """)

    override var outputImage: CIImage? {
        guard let picture = inputImage, let kernel = Self.rampKernel else { return nil }
        return kernel.apply(extent: picture.extent, arguments: [picture, inputShadowColor, inputHighlightColor])
    }
}
