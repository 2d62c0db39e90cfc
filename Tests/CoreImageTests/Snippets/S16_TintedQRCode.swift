// S16 — a QR code tinted by multiplying a `CIConstantColorGenerator` colour over the code made white on
// transparent (`CIColorInvert` then `CIMaskToAlpha`) with "CIMultiplyCompositing", set through kCIInput… keys;
// modelled on the usage pattern seen in public code (QR-code helper extensions of CIImage in several apps).
import CoreImage

extension CIImage {
    /// Dark modules become light, then the light parts opaque and the rest clear.
    var modulesOnClear: CIImage? {
        guard let invert = CIFilter(name: "CIColorInvert"), let mask = CIFilter(name: "CIMaskToAlpha") else { return nil }
        invert.setValue(self, forKey: kCIInputImageKey)
        mask.setValue(invert.outputImage, forKey: kCIInputImageKey)
        return mask.outputImage
    }

    /// The code's modules in `color`, its background clear.
    func tintedCode(_ color: CIColor) -> CIImage? {
        guard let modules = modulesOnClear,
              let multiply = CIFilter(name: "CIMultiplyCompositing"),
              let paint = CIFilter(name: "CIConstantColorGenerator") else { return nil }
        paint.setValue(color, forKey: kCIInputColorKey)
        multiply.setValue(paint.outputImage, forKey: kCIInputImageKey)
        multiply.setValue(modules, forKey: kCIInputBackgroundImageKey)
        return multiply.outputImage
    }
}
