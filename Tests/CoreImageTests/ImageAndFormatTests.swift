import Foundation
import Testing
import CoreImage

/// The rest of CIImage's documented API (isOpaque, definition, regionOfInterest, Lab conversions, auto-adjust),
/// every CIFormat constant, and the kCI… keys that code names.
@Suite struct ImageAndFormatTests {
    let chelsea = CIImage(contentsOf: Samples.chelsea)!

    @Test func opacityIsKnownForOpaqueSourcesAndTheirCropsOnly() {
        #expect(chelsea.isOpaque)
        #expect(chelsea.cropped(to: CGRect(x: 10, y: 10, width: 20, height: 20)).isOpaque)
        #expect(chelsea.transformed(by: CGAffineTransform(translationX: 3, y: 4)).isOpaque)
        #expect(CIImage(color: .red).isOpaque)
        #expect(!CIImage(color: CIColor(red: 1, green: 0, blue: 0, alpha: 0.5)).isOpaque)
        #expect(!CIImage.empty().isOpaque)
        #expect(!chelsea.applyingFilter("CISepiaTone").isOpaque)   // unknown without rendering
    }

    @Test func definitionAndRegionOfInterest() {
        #expect(chelsea.definition.extent == chelsea.extent)
        let shape = CIFilterShape(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(shape.insetBy(x: 2, y: 3).extent == CGRect(x: 2, y: 3, width: 6, height: 4))
        #expect(shape.transformed(by: CGAffineTransform(scaleX: 2, y: 2), interior: false).extent == CGRect(x: 0, y: 0, width: 20, height: 20))
        #expect(shape.union(with: CGRect(x: 20, y: 0, width: 5, height: 5)).extent == CGRect(x: 0, y: 0, width: 25, height: 10))
        #expect(shape.intersect(with: CGRect(x: 5, y: 5, width: 10, height: 10)).extent == CGRect(x: 5, y: 5, width: 5, height: 5))
        // A colour filter reads the same rectangle; a blur reads around it; an unrelated image is not read.
        let rect = CGRect(x: 100, y: 100, width: 10, height: 10)
        #expect(chelsea.applyingFilter("CISepiaTone").regionOfInterest(for: chelsea, in: rect) == rect)
        let blurred = chelsea.applyingFilter("CIGaussianBlur", parameters: [kCIInputRadiusKey: 4])
        let read = blurred.regionOfInterest(for: chelsea, in: rect)
        #expect(read.contains(rect) && read.width > rect.width + 10 && read.width < rect.width + 60, "\(read)")
        #expect(blurred.regionOfInterest(for: CIImage(color: .red), in: rect).isEmpty)
        // Clipped to what the input has.
        #expect(chelsea.applyingFilter("CISepiaTone").regionOfInterest(for: chelsea, in: CGRect(x: -50, y: -50, width: 60, height: 60))
                == CGRect(x: 0, y: 0, width: 10, height: 10))
    }

    @Test func labConversionsRoundTripAndAutoAdjustProposesNothing() {
        let lab = chelsea.convertingWorkingSpaceToLab()
        let back = lab.convertingLabToWorkingSpace()
        #expect(Pixels.maxDifference(Pixels.rgba8(back, chelsea.extent), Pixels.rgba8(chelsea)) <= 1)
        // White is L = 100, a = b = 0.
        let white = Pixels.linear(CIImage(color: .white).convertingWorkingSpaceToLab(), x: 0, y: 0)
        #expect(abs(white[0] - 100) < 0.01 && abs(white[1]) < 0.01 && abs(white[2]) < 0.01, "\(white)")
        #expect(chelsea.autoAdjustmentFilters().isEmpty)
        #expect(chelsea.autoAdjustmentFilters(options: [.enhance: true, .redEye: false]).isEmpty)
        #expect(chelsea.insertingTiledIntermediate() === chelsea)
    }

    @Test func everyFormatConstantIsDistinctAndTheRGBXFormatsRender() throws {
        let formats: [CIFormat] = [kCIFormatARGB8, kCIFormatBGRA8, kCIFormatRGBA8, kCIFormatABGR8, kCIFormatRGBAh,
                                   kCIFormatRGBA16, kCIFormatRGBAf, kCIFormatRGBX16, kCIFormatRGBX8, kCIFormatRGBXh,
                                   kCIFormatRGBXf, kCIFormatRGB10, kCIFormatA8, kCIFormatA16, kCIFormatAh, kCIFormatAf,
                                   kCIFormatR8, kCIFormatR16, kCIFormatRh, kCIFormatRf, kCIFormatRG8, kCIFormatRG16,
                                   kCIFormatRGh, kCIFormatRGf, kCIFormatL8, kCIFormatL16, kCIFormatLh, kCIFormatLf,
                                   kCIFormatLA8, kCIFormatLA16, kCIFormatLAh, kCIFormatLAf]
        #expect(Set(formats).count == formats.count)
        #expect(CIFormat.rgbXh == kCIFormatRGBXh && CIFormat.rgbXf == kCIFormatRGBXf)
        // RGBX: the fourth channel is written as 1 whatever the alpha, and read back as opaque.
        let half = CIImage(color: CIColor(red: 1, green: 0, blue: 0, alpha: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        var pixel = [UInt8](repeating: 0, count: 4)
        CIContext().render(half, toBitmap: &pixel, rowBytes: 4, bounds: half.extent, format: .RGBX8,
                           colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        #expect(pixel[3] == 255)
        var floats = [Float](repeating: 0, count: 4)
        CIContext().render(half, toBitmap: &floats, rowBytes: 16, bounds: half.extent, format: .rgbXf,
                           colorSpace: CGColorSpace(name: CGColorSpace.linearSRGB))
        #expect(floats == [0.5, 0, 0, 1])
        let read = CIImage(bitmapData: Data([255, 0, 0, 17]), bytesPerRow: 4, size: CGSize(width: 1, height: 1),
                           format: .RGBX8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        #expect(Pixels.rgba8(read) == [255, 0, 0, 255])
    }

    @Test func keysThatCodeNamesHaveApplesValues() {
        #expect(kCIInputBacksideImageKey == "inputBacksideImage")
        #expect(kCISamplerWrapMode == "CIWrapMode" && kCISamplerWrapClamp == "CIWrapClamp" && kCISamplerFilterNearest == "CIFilterNearest")
        #expect(kCIImageAutoAdjustEnhance == "CIImageAutoAdjustEnhance")
        #expect(kCIImageCacheImmediately.rawValue == "kCIImageCacheImmediately")
        #expect(kCGImagePropertyOrientation == "Orientation" && kCGImagePropertyTIFFDictionary == "{TIFF}")
        // Backside image of the page curl, by its key constant.
        let curl = CIFilter(name: "CIPageCurlTransition")
        #expect(curl?.inputKeys.contains(kCIInputBacksideImageKey) == true)
    }

    @Test func coreGraphicsValueTypesACoreImageFileMeets() throws {
        let context = CIContext()
        let cgImage = try #require(context.createCGImage(chelsea, from: chelsea.extent))
        // Cropping counts rows from the top, as Core Graphics does.
        let corner = try #require(cgImage.cropping(to: CGRect(x: 10, y: 0, width: 4, height: 3)))
        #expect(corner.width == 4 && corner.height == 3)
        let top = Pixels.rgba8(chelsea, CGRect(x: 10, y: chelsea.extent.height - 3, width: 4, height: 3))
        #expect([UInt8](corner.dataProvider!.data!) == top)
        #expect(cgImage.cropping(to: CGRect(x: -10, y: -10, width: 5, height: 5)) == nil)
        #expect(CIColor(cgColor: CGColor.white).red == 1 && CIColor(cgColor: CGColor(gray: 0.5, alpha: 0.25)).alpha == 0.25)
        #expect(CIColor(cgColor: CGColor(srgbRed: 0.2, green: 0.4, blue: 0.6, alpha: 1)).blue == 0.6)
        #expect(CGVector(dx: 1, dy: 2) != CGVector.zero && CGVector().dx == 0)
    }
}
