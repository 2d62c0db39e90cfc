// S04 — a two-filter chain by name with CIFilter(name:withInputParameters:) in one guard ("CIPhotoEffectInstant",
// then "CIVignette" with string keys), rendered by a CIContext(options: nil) with createCGImage(_:from:);
// modelled on the usage pattern seen in public code (e.g. dengV/Instruments_go).
import CoreImage

/// Renders an instant-camera look with a dark rim, the size of the input.
func instantCameraPrint(of photo: CIImage, rimRadius: Double = 1.75, rimStrength: Double = 1) -> CGImage? {
    guard let instant = CIFilter(name: "CIPhotoEffectInstant", withInputParameters: ["inputImage": photo]),
          let toned = instant.outputImage,
          let rim = CIFilter(name: "CIVignette", withInputParameters: ["inputImage": toned,
                                                                     "inputRadius": rimRadius,
                                                                     "inputIntensity": rimStrength]),
          let finished = rim.outputImage
    else { return nil }
    // A context per call is wasteful in an app, but it is what short scripts often do.
    let renderer = CIContext(options: nil)
    return renderer.createCGImage(finished, from: photo.extent)
}
