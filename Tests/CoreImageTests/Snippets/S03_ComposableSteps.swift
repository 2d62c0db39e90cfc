// S03 — image operations as composable closures over CIFilter(name:withInputParameters:) with the kCIInput… key
// constants ("CIGaussianBlur", "CIConstantColorGenerator", "CISourceOverCompositing") and the Swift 3
// `cropping(to:)`; modelled on the usage pattern seen in public code (e.g. derpoliuk/FunctionalSwift).
import CoreImage

/// One image-to-image step; steps chain with `then`.
typealias PictureStep = (CIImage) -> CIImage

/// The output of a built-in filter that cannot fail for these names and inputs.
private func runFilter(_ name: String, _ inputs: [String: Any]) -> CIImage {
    guard let output = CIFilter(name: name, withInputParameters: inputs)?.outputImage else {
        preconditionFailure("\(name) gave no image")
    }
    return output
}

func soften(by radius: Double) -> PictureStep {
    { picture in runFilter("CIGaussianBlur", [kCIInputImageKey: picture, kCIInputRadiusKey: radius]) }
}

/// A flat colour the size of the picture it is given (the generator alone is infinite).
func flatFill(_ color: CIColor) -> PictureStep {
    { picture in runFilter("CIConstantColorGenerator", [kCIInputColorKey: color]).cropping(to: picture.extent) }
}

func placed(under top: CIImage) -> PictureStep {
    { picture in
        runFilter("CISourceOverCompositing", [kCIInputImageKey: top, kCIInputBackgroundImageKey: picture])
            .cropping(to: picture.extent)
    }
}

/// A translucent colour wash over the picture.
func wash(_ color: CIColor) -> PictureStep {
    { picture in placed(under: flatFill(color)(picture))(picture) }
}

func then(_ first: @escaping PictureStep, _ second: @escaping PictureStep) -> PictureStep {
    { second(first($0)) }
}
