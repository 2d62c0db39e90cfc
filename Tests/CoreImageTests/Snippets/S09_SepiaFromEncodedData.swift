// S09 — CIImage(data:) from encoded bytes, "CISepiaTone" by name with kCIInputImageKey and a Double intensity,
// a shared static CIContext() and createCGImage(_:from:) over the output's extent; modelled on the usage pattern
// seen in public code (e.g. pro648/BasicDemos-iOS).
import Foundation
import CoreImage

/// Turns downloaded image files into toned bitmaps, e.g. on a background queue.
enum DownloadToner {
    /// Contexts are expensive to create: one serves every call.
    private static let sharedContext = CIContext()

    static func tonedBitmap(fromFile bytes: Data, amount: Double = 0.8) -> CGImage? {
        guard let decoded = CIImage(data: bytes), let toner = CIFilter(name: "CISepiaTone") else { return nil }
        toner.setValue(decoded, forKey: kCIInputImageKey)
        toner.setValue(amount, forKey: "inputIntensity")
        guard let toned = toner.outputImage else { return nil }
        return sharedContext.createCGImage(toned, from: toned.extent)
    }
}
