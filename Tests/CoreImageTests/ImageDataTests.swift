import Foundation
import Testing
import CoreImage

/// CIImage from Data with its metadata, EXIF orientation on request, and PNG/JPEG Data out, all in memory.
@Suite struct ImageDataTests {
    static let metadata = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FilterEngineTests/Fixtures/metadata")

    @Test func exifOrientationIsAppliedOnRequest() throws {
        let upright = try Data(contentsOf: Self.metadata.appendingPathComponent("orientation-1.jpg"))
        let sideways = try Data(contentsOf: Self.metadata.appendingPathComponent("orientation-6.jpg"))
        let stored = try #require(CIImage(data: sideways))
        #expect(stored.extent.size == CGSize(width: 32, height: 48))
        #expect(stored.properties[kCGImagePropertyOrientation] as? Int == 6)
        let turned = try #require(CIImage(data: sideways, options: [.applyOrientationProperty: true]))
        #expect(turned.extent.size == CGSize(width: 48, height: 32))
        let reference = try #require(CIImage(data: upright))
        let a = Pixels.rgba8(turned, turned.extent), b = Pixels.rgba8(reference, reference.extent)
        let mean = Double(zip(a, b).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(a.count)
        #expect(mean < 6, "the turned image differs from the upright one by \(mean) levels on average")
    }

    @Test func pngAndJPEGDataRoundTrip() throws {
        let context = CIContext()
        let image = try #require(CIImage(contentsOf: Samples.astronaut))
        let png = try #require(context.pngRepresentation(of: image, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let back = try #require(CIImage(data: png))
        #expect(back.extent == image.extent)
        #expect(Pixels.rgba8(back) == Pixels.rgba8(image))
        let jpeg = try #require(context.jpegRepresentation(of: image, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!))
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        #expect(CIImage(data: jpeg)?.extent == image.extent)
        #expect(CIImage(data: Data("not an image".utf8)) == nil)
    }
}
