// S06 — "CIQRCodeGenerator" by name with ASCII `Data` for "inputMessage", the output enlarged with
// CGAffineTransform(scaleX:y:) through `outputImage?.transformed(by:)`; modelled on the usage pattern seen in
// public code (e.g. Team865/iOS-Scouting-App).
import Foundation
import CoreImage

/// A QR code for a short text, each module `moduleSize` pixels wide.
struct PassCode {
    var text: String
    var moduleSize: CGFloat = 3

    var image: CIImage? {
        guard let bytes = text.data(using: .ascii), let generator = CIFilter(name: "CIQRCodeGenerator") else {
            return nil
        }
        generator.setValue(bytes, forKey: "inputMessage")
        return generator.outputImage?.transformed(by: CGAffineTransform(scaleX: moduleSize, y: moduleSize))
    }
}
