// Snippet S04 — dengV/Instruments_go, Concurrency/Project/TiltShift/TiltShift/PostProcess.swift (a chain by name
// with withInputParameters, CIContext(options: nil), createCGImage). Changes are marked [changed] (UIImage in and
// out is UIKit).
import CoreImage


// This is an implementation of a Core Image filter chain that returns a CGImage
// backed UIImage. This is not usually the best approach - CIImage-backed
// UIImages are more optimised to display straight on screen.
func postProcessImage(_ image: CIImage) -> CGImage? { // [changed] was: (_ image: UIImage) -> UIImage
  
  let inputImage = image // [changed] was: guard let inputImage = CIImage(image: image) else { return image }
  
  // Create filter chain
  guard let photoFilter = CIFilter(name: "CIPhotoEffectInstant",
      withInputParameters: ["inputImage" : inputImage]),
    let photoOutput = photoFilter.outputImage,
    let vignetteFilter = CIFilter(name: "CIVignette",
      withInputParameters: ["inputRadius" : 1.75, "inputIntensity" : 1.0, "inputImage": photoOutput]),
    let filterOutput = vignetteFilter.outputImage else { return nil } // [changed] was: return image
  
  let ciContext = CIContext(options: nil)
  
  let cgImage = ciContext.createCGImage(filterOutput, from: inputImage.extent)
  return cgImage // [changed] was: return UIImage(cgImage: cgImage!)
}
