// S11 — "CIVignette" by name, `setDefaults()`, then kCIInputImageKey and kCIInputIntensityKey with a Double, and
// the input itself as the fallback (`outputImage ?? self`); modelled on the usage pattern seen in public code
// (e.g. luckystardev/LCImageEditor).
import CoreImage

extension CIImage {
    /// This image darkened towards its corners; unchanged if the filter were missing.
    func darkCorners(_ strength: Double) -> CIImage {
        guard let corners = CIFilter(name: "CIVignette") else { return self }
        corners.setDefaults()
        corners.setValue(strength, forKey: kCIInputIntensityKey)
        corners.setValue(self, forKey: kCIInputImageKey)
        return corners.outputImage ?? self
    }
}
