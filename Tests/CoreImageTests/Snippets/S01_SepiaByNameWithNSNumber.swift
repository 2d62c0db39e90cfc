// S01 — a filter looked up by name ("CISepiaTone"), NSNumber intensity through setValue(_:forKey:), both as a small
// value type that builds the CIFilter and as a CIImage extension; modelled on the usage pattern seen in public code
// (e.g. pixelrevision/CoreImageExtensions).
import CoreImage

/// An aged-photo look kept as data until a filter is needed.
struct AgedPrintLook {
    var amount: NSNumber
    var picture: CIImage

    init(picture: CIImage, amount: NSNumber = 1) {
        self.picture = picture
        self.amount = amount
    }

    /// A configured CISepiaTone, or nil if the name were unknown.
    func makeFilter() -> CIFilter? {
        let sepia = CIFilter(name: "CISepiaTone")
        sepia?.setValue(picture, forKey: "inputImage")
        sepia?.setValue(amount, forKey: "inputIntensity")
        return sepia
    }
}

extension CIImage {
    /// This image toned brown; `amount` 0 leaves it unchanged.
    func agedPrint(amount: NSNumber = 1) -> CIImage? {
        AgedPrintLook(picture: self, amount: amount).makeFilter()?.outputImage
    }
}
