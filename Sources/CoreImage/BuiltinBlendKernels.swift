import Foundation

/// Core Image's built-in blend kernels. Each is the engine's own compositing or blend-mode filter with the
/// foreground as `inputImage` and the background as `inputBackgroundImage` (so a kernel and its filter give the
/// same pixels), or, for the three modes that have no filter, a kernel in the Core Image Kernel Language.
extension CIBlendKernel {
    public static var componentAdd: CIBlendKernel { .filter("componentAdd", "CIAdditionCompositing") }
    public static var componentMultiply: CIBlendKernel { .filter("componentMultiply", "CIMultiplyCompositing") }
    public static var componentMin: CIBlendKernel { .filter("componentMin", "CIMinimumCompositing") }
    public static var componentMax: CIBlendKernel { .filter("componentMax", "CIMaximumCompositing") }

    public static var clear: CIBlendKernel {
        BuiltinBlendKernel("clear") { s, d in CIImage.clear.cropped(to: s.extent.union(d.extent)) }
    }
    public static var source: CIBlendKernel { BuiltinBlendKernel("source") { s, _ in s } }
    public static var destination: CIBlendKernel { BuiltinBlendKernel("destination") { _, d in d } }
    public static var sourceOver: CIBlendKernel { .filter("sourceOver", "CISourceOverCompositing") }
    public static var destinationOver: CIBlendKernel { .filter("destinationOver", "CISourceOverCompositing", swapped: true) }
    public static var sourceIn: CIBlendKernel { .filter("sourceIn", "CISourceInCompositing") }
    public static var destinationIn: CIBlendKernel { .filter("destinationIn", "CISourceInCompositing", swapped: true) }
    public static var sourceOut: CIBlendKernel { .filter("sourceOut", "CISourceOutCompositing") }
    public static var destinationOut: CIBlendKernel { .filter("destinationOut", "CISourceOutCompositing", swapped: true) }
    public static var sourceAtop: CIBlendKernel { .filter("sourceAtop", "CISourceAtopCompositing") }
    public static var destinationAtop: CIBlendKernel { .filter("destinationAtop", "CISourceAtopCompositing", swapped: true) }
    /// Each image where the other is not: the sum of the two source-outs.
    public static var exclusiveOr: CIBlendKernel {
        BuiltinBlendKernel("exclusiveOr") { s, d in
            BuiltinBlendKernel.composite("CIAdditionCompositing", BuiltinBlendKernel.composite("CISourceOutCompositing", s, d),
                                         BuiltinBlendKernel.composite("CISourceOutCompositing", d, s))
        }
    }

    public static var multiply: CIBlendKernel { .filter("multiply", "CIMultiplyBlendMode") }
    public static var screen: CIBlendKernel { .filter("screen", "CIScreenBlendMode") }
    public static var overlay: CIBlendKernel { .filter("overlay", "CIOverlayBlendMode") }
    public static var darken: CIBlendKernel { .filter("darken", "CIDarkenBlendMode") }
    public static var lighten: CIBlendKernel { .filter("lighten", "CILightenBlendMode") }
    public static var colorDodge: CIBlendKernel { .filter("colorDodge", "CIColorDodgeBlendMode") }
    public static var colorBurn: CIBlendKernel { .filter("colorBurn", "CIColorBurnBlendMode") }
    public static var hardLight: CIBlendKernel { .filter("hardLight", "CIHardLightBlendMode") }
    public static var softLight: CIBlendKernel { .filter("softLight", "CISoftLightBlendMode") }
    public static var difference: CIBlendKernel { .filter("difference", "CIDifferenceBlendMode") }
    public static var exclusion: CIBlendKernel { .filter("exclusion", "CIExclusionBlendMode") }
    public static var hue: CIBlendKernel { .filter("hue", "CIHueBlendMode") }
    public static var saturation: CIBlendKernel { .filter("saturation", "CISaturationBlendMode") }
    public static var color: CIBlendKernel { .filter("color", "CIColorBlendMode") }
    public static var luminosity: CIBlendKernel { .filter("luminosity", "CILuminosityBlendMode") }
    public static var subtract: CIBlendKernel { .filter("subtract", "CISubtractBlendMode") }
    public static var divide: CIBlendKernel { .filter("divide", "CIDivideBlendMode") }
    public static var linearBurn: CIBlendKernel { .filter("linearBurn", "CILinearBurnBlendMode") }
    public static var linearDodge: CIBlendKernel { .filter("linearDodge", "CILinearDodgeBlendMode") }
    public static var vividLight: CIBlendKernel { .filter("vividLight", "CIVividLightBlendMode") }
    public static var linearLight: CIBlendKernel { .filter("linearLight", "CILinearLightBlendMode") }
    public static var pinLight: CIBlendKernel { .filter("pinLight", "CIPinLightBlendMode") }

    // No filter has these modes. The separable-blend compositing of the others, with the blend function B:
    // the foreground alone where the background is clear, the background alone where the foreground is, and
    // B of the straight colours where both are. darkerColor/lighterColor keep the whole colour of lower/higher
    // luminance (Rec. 601 weights, as the PDF blend modes' Lum).
    public static var hardMix: CIBlendKernel {
        .kernel("hardMix", "step(vec3(1.0), cs + cd)")
    }
    public static var darkerColor: CIBlendKernel {
        .kernel("darkerColor", "mix(cd, cs, step(dot(cs, vec3(0.3, 0.59, 0.11)), dot(cd, vec3(0.3, 0.59, 0.11))))")
    }
    public static var lighterColor: CIBlendKernel {
        .kernel("lighterColor", "mix(cs, cd, step(dot(cs, vec3(0.3, 0.59, 0.11)), dot(cd, vec3(0.3, 0.59, 0.11))))")
    }

    /// Blends in `colorSpace`: a space with the sRGB curve blends the curve's encoded values (as design tools
    /// do), a linear space the working values.
    public func apply(foreground: CIImage, background: CIImage, colorSpace: CGColorSpace) -> CIImage? {
        guard !colorSpace.isLinear else { return apply(foreground: foreground, background: background) }
        let encode = { (image: CIImage) in image.applyingFilter("CILinearToSRGBToneCurve") }
        return apply(foreground: encode(foreground), background: encode(background))?
            .applyingFilter("CISRGBToneCurveToLinear")
    }

    private static func filter(_ name: String, _ filterName: String, swapped: Bool = false) -> CIBlendKernel {
        BuiltinBlendKernel(name) { s, d in
            swapped ? BuiltinBlendKernel.composite(filterName, d, s) : BuiltinBlendKernel.composite(filterName, s, d)
        }
    }

    private static func kernel(_ name: String, _ blend: String) -> CIBlendKernel {
        let source = """
        kernel vec4 \(name)(__sample s, __sample d) {
            vec3 cs = unpremultiply(s).rgb;
            vec3 cd = unpremultiply(d).rgb;
            vec3 b = \(blend);
            return vec4(s.rgb * (1.0 - d.a) + d.rgb * (1.0 - s.a) + s.a * d.a * b, s.a + d.a - s.a * d.a);
        }
        """
        return CIBlendKernel(source: source)!
    }
}

/// A built-in blend kernel made of an operation on the two images rather than a kernel routine.
final class BuiltinBlendKernel: CIBlendKernel, @unchecked Sendable {
    let builtinName: String
    let operation: (CIImage, CIImage) -> CIImage

    /// Gives every built-in kernel the shape of a blend routine (two samples); rendering uses the operation.
    private static let twoSampleShape = CIKernel.compile("kernel vec4 blend(__sample s, __sample d) { return s; }")!.first!

    init(_ name: String, _ operation: @escaping (CIImage, CIImage) -> CIImage) {
        builtinName = name
        self.operation = operation
        super.init(compiled: Self.twoSampleShape)
    }

    override var name: String { builtinName }

    override func apply(foreground: CIImage, background: CIImage) -> CIImage? { operation(foreground, background) }

    override func make(extent: CGRect, image: CIImage?, arguments args: [Any], roi: CIKernelROICallback?) -> CIImage? {
        guard args.count == 2, let s = args[0] as? CIImage, let d = args[1] as? CIImage else {
            return super.make(extent: extent, image: image, arguments: args, roi: roi)
        }
        return operation(s, d).cropped(to: extent)
    }

    static func composite(_ filterName: String, _ foreground: CIImage, _ background: CIImage) -> CIImage {
        foreground.applyingFilter(filterName, parameters: [kCIInputBackgroundImageKey: background])
    }
}
