// S08 — a CIFilter subclass with its own `inputImage` (and a second input) and `override var outputImage`, built
// from chains of the Swift 3 `applyingFilter(_:withInputParameters:)` and `cropping(to:)` plus
// `CIFilter(name:withInputParameters:)?.outputImage?` ("CIEdges", "CIColorControls", "CIBloom",
// "CIPhotoEffectNoir", "CIExposureAdjust", "CIAdditionCompositing"); modelled on the usage pattern seen in public
// code (e.g. Maxnelson997/Color-Me-App).
import CoreImage

/// Bright, glowing outlines added over a dimmed black-and-white copy of the picture.
final class NeonOutlineFilter: CIFilter {
    var inputImage: CIImage?
    /// How far the outlines glow, in pixels.
    var inputGlowRadius: Double = 3

    override var outputImage: CIImage? {
        guard let picture = inputImage else { return nil }
        let outlines = picture.applyingFilter("CIEdges", withInputParameters: [kCIInputIntensityKey: 8])
        let saturated = CIFilter(name: "CIColorControls",
                                 withInputParameters: [kCIInputImageKey: outlines, kCIInputSaturationKey: 2])?.outputImage
        // The bloom spreads past the picture's edges: keep only the picture's area.
        guard let glow = saturated?
            .applyingFilter("CIBloom", withInputParameters: [kCIInputRadiusKey: inputGlowRadius, kCIInputIntensityKey: 1])
            .cropping(to: picture.extent)
        else { return nil }
        let dimmed = picture
            .applyingFilter("CIPhotoEffectNoir", withInputParameters: nil)
            .applyingFilter("CIExposureAdjust", withInputParameters: [kCIInputEVKey: -1])
        return glow.applyingFilter("CIAdditionCompositing", withInputParameters: [kCIInputBackgroundImageKey: dimmed])
    }
}
