// S05 — "CIAreaAverage" by name with CIFilter(name:parameters:), kCIInputImageKey and kCIInputExtentKey as a
// CIVector(x:y:z:w:), one pixel read back with render(_:toBitmap:rowBytes:bounds:format:colorSpace:) from an
// unmanaged context (`.workingColorSpace: kCFNull`), returned as CGColor(red:green:blue:alpha:); modelled on the
// usage pattern seen in public code (e.g. zhang-hongshen/Arthub).
import CoreImage

/// Reads the mean colour of images, e.g. to tint a placeholder behind a thumbnail.
final class MeanColourProbe {
    private let context = CIContext(options: [.workingColorSpace: kCFNull])

    func meanColour(of image: CIImage) -> CGColor? {
        let area = image.extent
        let region = CIVector(x: area.minX, y: area.minY, z: area.width, w: area.height)
        guard let average = CIFilter(name: "CIAreaAverage",
                                     parameters: [kCIInputImageKey: image, kCIInputExtentKey: region])?.outputImage
        else { return nil }
        var rgba = [UInt8](repeating: 0, count: 4)
        context.render(average, toBitmap: &rgba, rowBytes: 4, bounds: CGRect(x: 0, y: 0, width: 1, height: 1),
                       format: .RGBA8, colorSpace: nil)
        let unit = rgba.map { CGFloat($0) / 255 }
        return CGColor(red: unit[0], green: unit[1], blue: unit[2], alpha: unit[3])
    }
}
