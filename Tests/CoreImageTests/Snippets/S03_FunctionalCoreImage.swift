// Snippet S03 — derpoliuk/FunctionalSwift, FunctionalCoreImage.playground/Contents.swift (functional wrappers:
// CIFilter(name:withInputParameters:), CIConstantColorGenerator, CISourceOverCompositing, the Swift 3
// `cropping(to:)`, a top-level `typealias Filter`). Changes are marked [changed]; the playground's top-level
// statements (image literal, usage) moved into CompatibilitySnippetTests.
import CoreImage // [changed] was: import UIKit

typealias Filter = (CIImage) -> CIImage

func blur(radius: Double) -> Filter {
    return { image in
        let parameters = [
            kCIInputRadiusKey: radius,
            kCIInputImageKey: image
        ] as [String : Any]
        guard let filter = CIFilter(name: "CIGaussianBlur", withInputParameters: parameters), let outputImage = filter.outputImage else {
            fatalError()
        }
        return outputImage
    }
}

func colorGenerator(color: CIColor) -> Filter { // [changed] UIColor → CIColor (UIKit)
    return { _ in
        let c = color // [changed] was: CIColor(color: color)
        let parameters = [kCIInputColorKey: c] as [String : Any]
        guard let filter = CIFilter(name: "CIConstantColorGenerator", withInputParameters: parameters), let outputImage = filter.outputImage else {
            fatalError()
        }
        return outputImage.cropping(to: CGRect(x: 0, y: 0, width: 1000, height: 1000)) // without cropping we'll get EXC_BAD_INSTRUCTION
    }
}

func compositeSourceOver(overlay: CIImage) -> Filter {
    return { image in
        let parameters = [
            kCIInputBackgroundImageKey: image,
            kCIInputImageKey: overlay
        ]
        guard let filter = CIFilter(name: "CISourceOverCompositing", withInputParameters: parameters), let outputImage = filter.outputImage else {
            fatalError()
        }
        let cropRect = image.extent
        return outputImage.cropping(to: cropRect)
    }
}

func colorOverlay(color: CIColor) -> Filter { // [changed] UIColor → CIColor (UIKit)
    return { image in
        let overlay = colorGenerator(color: color)(image)
        return compositeSourceOver(overlay: overlay)(image)
    }
}
