// S10 — typed builtins created once and kept as stored properties (`CIFilter.sepiaTone()`, `.vignette()`,
// `.photoEffectNoir()`, `.noiseReduction()`), a default read from `CIFilter.colorControls().brightness`, and the
// typed `inputImage`/`intensity`/`radius` set before `outputImage`; modelled on the usage pattern seen in public
// code (e.g. matt-martindale/ImageFilterEditor).
import CoreImage
import CoreImage.CIFilterBuiltins

/// The filters behind an editor's sliders, made once and reused for every slider move.
final class SliderFilterBank {
    let tone = CIFilter.sepiaTone()
    let rim = CIFilter.vignette()
    let mono = CIFilter.photoEffectNoir()
    let denoise = CIFilter.noiseReduction()
    /// Where the brightness slider starts: the filter's own default.
    let initialBrightness = CIFilter.colorControls().brightness

    var all: [CIFilter] { [tone, rim, mono, denoise] }

    func rimmed(_ image: CIImage, strength: Float, reach: Float) -> CIImage? {
        rim.inputImage = image
        rim.intensity = strength
        rim.radius = reach
        return rim.outputImage
    }
}
