// S19 — a file importing `CoreGraphics`, `ImageIO` and `CoreImage.CIImage` as on Apple's systems, using CGVector
// for an offset, the EXIF orientation from `properties` under `kCGImagePropertyOrientation`, and
// `CGImagePropertyOrientation`; modelled on the usage pattern seen in public code (photo pipelines that upright
// images before filtering).
import CoreGraphics
import ImageIO
import CoreImage.CIImage

/// Turns an image upright from its EXIF orientation, then shifts it by `offset`.
func uprightShifted(_ image: CIImage, by offset: CGVector) -> CIImage {
    let exif = (image.properties[kCGImagePropertyOrientation as String] as? NSNumber)?.uint32Value ?? 1
    let orientation = CGImagePropertyOrientation(rawValue: exif) ?? .up
    return image.oriented(orientation).transformed(by: CGAffineTransform(translationX: offset.dx, y: offset.dy))
}
