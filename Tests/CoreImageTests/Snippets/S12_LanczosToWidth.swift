// S12 — "CILanczosScaleTransform" by name with kCIInputScaleKey as an NSNumber(value:), kCIInputAspectRatioKey,
// and the result read through `value(forKey: kCIOutputImageKey) as? CIImage`; modelled on the usage pattern seen
// in public code (e.g. ThePowerOfSwift/MNISTer).
import Foundation
import CoreImage

extension CIImage {
    /// This image scaled, keeping its proportions, so that it is `width` pixels wide (rounded as Core Image does).
    func lanczosScaled(toWidth width: CGFloat) -> CIImage? {
        guard extent.width > 0, let resampler = CIFilter(name: "CILanczosScaleTransform") else { return nil }
        resampler.setValue(self, forKey: kCIInputImageKey)
        resampler.setValue(NSNumber(value: Double(width / extent.width)), forKey: kCIInputScaleKey)
        resampler.setValue(1, forKey: kCIInputAspectRatioKey)
        return resampler.value(forKey: kCIOutputImageKey) as? CIImage
    }
}
