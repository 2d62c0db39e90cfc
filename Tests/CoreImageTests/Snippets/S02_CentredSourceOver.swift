// S02 — "CISourceOverCompositing" by name with inputImage/inputBackgroundImage keys, an image moved by
// CGAffineTransform(translationX:y:) to the background's centre, under `import CoreImage.CIFilterBuiltins`;
// modelled on the usage pattern seen in public code (e.g. woocommerce/woocommerce-ios).
import CoreImage.CIFilterBuiltins

extension CIImage {
    /// `stamp` laid over the middle of this image (the result keeps this image's extent when the stamp fits).
    func withStampInMiddle(_ stamp: CIImage) -> CIImage? {
        let target = CGPoint(x: extent.midX, y: extent.midY)
        let shift = CGAffineTransform(translationX: target.x - stamp.extent.width / 2,
                                      y: target.y - stamp.extent.height / 2)
        guard let over = CIFilter(name: "CISourceOverCompositing") else { return nil }
        over.setValue(self, forKey: "inputBackgroundImage")
        over.setValue(stamp.transformed(by: shift), forKey: "inputImage")
        return over.outputImage
    }
}
