// S17 — a general CIKernel whose `sampler` argument is a `CISampler` made with wrap and filter options
// (`kCISamplerWrapMode: kCISamplerWrapClamp`), applied with `apply(extent:roiCallback:arguments:)`; modelled on
// the usage pattern seen in public code (edge and emboss filters written for Core Image's kernel language).
import CoreImage

/// The difference between each pixel and its left neighbour, plus mid grey: a horizontal emboss. The sampler
/// clamps at the edges, so the border repeats the edge pixels instead of reading transparent black.
final class EmbossFilter: CIFilter {
    var inputImage: CIImage?

    static let embossKernel = CIKernel(source: """
        kernel vec4 emboss(sampler image)
        {
            vec2 here = destCoord();
            vec4 centre = sample(image, samplerTransform(image, here));
            vec4 left = sample(image, samplerTransform(image, here - vec2(1.0, 0.0)));
            return vec4(centre.rgb - left.rgb + vec3(0.5), centre.a);
        }
        """)

    override var outputImage: CIImage? {
        guard let inputImage, let kernel = Self.embossKernel else { return nil }
        let sampler = CISampler(image: inputImage, options: [kCISamplerWrapMode: kCISamplerWrapClamp,
                                                             kCISamplerFilterMode: kCISamplerFilterLinear])
        return kernel.apply(extent: inputImage.extent, roiCallback: { _, rect in rect.insetBy(dx: -1, dy: 0) },
                            arguments: [sampler])
    }
}
