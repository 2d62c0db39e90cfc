import Foundation
import Testing
import CoreImage
import CoreImage.CIFilterBuiltins

/// The README's porting example, as written there except for the file paths.
@Suite struct ReadmeExampleTests {
    @Test func portingExampleRuns() throws {
        let outURL = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: outURL) }

        let context = CIContext()
        let input = CIImage(contentsOf: Samples.chelsea)!

        let sepia = CIFilter.sepiaTone()
        sepia.inputImage = input
        sepia.intensity = 0.8

        let vignette = CIFilter(name: "CIVignette", parameters: [kCIInputImageKey: sepia.outputImage!,
                                                                  kCIInputIntensityKey: 1.2, kCIInputRadiusKey: 2])!
        let badge = CIImage(color: CIColor(red: 1, green: 1, blue: 1, alpha: 0.5))
            .cropped(to: CGRect(x: 0, y: 0, width: 80, height: 40))
            .transformed(by: CGAffineTransform(translationX: 16, y: 16))
        let result = badge.composited(over: vignette.outputImage!).cropped(to: input.extent)

        try context.writeJPEGRepresentation(of: result, to: outURL,
                                            colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!,
                                            options: [CIImageRepresentationOption(rawValue: kCGImageDestinationLossyCompressionQuality): 0.9])
        let png: Data? = context.pngRepresentation(of: result, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!)

        #expect(result.extent == input.extent)
        #expect(CIImage(contentsOf: outURL)?.extent == input.extent)
        #expect(CIImage(data: try #require(png))?.extent == input.extent)
        // The badge is half-transparent white over the image: lighter than the image there.
        let inside = Pixels.rgba8(result, CGRect(x: 20, y: 20, width: 1, height: 1))
        let under = Pixels.rgba8(vignette.outputImage!, CGRect(x: 20, y: 20, width: 1, height: 1))
        #expect(inside[0] > under[0] && inside[2] > under[2])
    }
}
