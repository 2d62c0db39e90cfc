// S07 — the typed builtin `CIFilter.sepiaTone()` with its `inputImage` and Float `intensity`, behind an app's own
// adjustment protocol that rewrites an `inout CIImage`; modelled on the usage pattern seen in public code (e.g.
// KPIProject/SignalPhotoEditor).
import CoreImage.CIFilterBuiltins

/// One step of an editing pipeline, applied in place.
protocol PhotoAdjustment {
    var title: String { get }
    func adjust(_ image: inout CIImage)
}

struct BrownTintAdjustment: PhotoAdjustment {
    let title = "Brown tint"
    /// nil means full strength.
    var strength: Float?

    func adjust(_ image: inout CIImage) {
        let tint = CIFilter.sepiaTone()
        tint.inputImage = image
        tint.intensity = strength ?? 1
        if let toned = tint.outputImage { image = toned }
    }
}
