import Foundation
import Testing
@testable import FilterEngine

/// CISepiaTone against Apple's own renders in ../shared/conformance/CISepiaTone (Nuke at intensity 1 and 0.5,
/// AlamofireImage at 1): same size, PSNR ≥ 30 dB (the curves reach 43–54 dB; the classic sepia matrix gave 17–20).
@Suite struct SepiaConformanceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/conformance/CISepiaTone")

    /// PSNR in dB on premultiplied RGBA bytes (what a viewer sees), or nil when the sizes differ.
    static func psnr(_ image: Image, against path: String) throws -> Double? {
        let context = RenderContext()
        let ours = try context.renderRGBA8(image, rect: image.extent)
        let appleImage = try ImageFile.read(path)
        let apple = try context.renderRGBA8(appleImage, rect: appleImage.extent)
        guard ours.width == apple.width, ours.height == apple.height else { return nil }
        var squared = 0.0
        for i in stride(from: 0, to: ours.bytes.count, by: 4) {
            let oa = Double(ours.bytes[i + 3]) / 255, aa = Double(apple.bytes[i + 3]) / 255
            for c in 0..<3 {
                let d = Double(ours.bytes[i + c]) * oa - Double(apple.bytes[i + c]) * aa
                squared += d * d
            }
            let d = Double(ours.bytes[i + 3]) - Double(apple.bytes[i + 3])
            squared += d * d
        }
        let mse = squared / Double(ours.bytes.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// Skipped visibly (not passed) when ../shared/conformance is absent.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: root.path),
                   "../shared/conformance/CISepiaTone is missing: no comparison with Apple's renders"),
          arguments: [("nuke-sepia", "fixture-tiny.png", 1.0), ("nuke-sepia-less-intense", "fixture-tiny.png", 0.5),
                      ("alamofireimage-sepia", "unicorn.png", 1.0)])
    func matchesApple(case folder: String, input: String, intensity: Double) throws {
        let dir = Self.root.appendingPathComponent(folder)
        let image = try ImageFile.read(dir.appendingPathComponent(input).path)
        let output = try image.applyingFilter("CISepiaTone", parameters: ["inputIntensity": .number(intensity)])
        let psnr = try Self.psnr(output, against: dir.appendingPathComponent("outputImage.png").path)
        print("conformance CISepiaTone \(folder): PSNR \(psnr.map { String(format: "%.1f", $0) } ?? "size differs") dB")
        #expect((psnr ?? 0) >= 30)
    }

    @Test func greyRampIsBrownAndMonotonic() throws {
        // Apple's renders: a neutral input turns brown (red > green > blue), black stays black, white stays
        // nearly white, and each channel rises with the luminance.
        let ramp = TestImages.make(width: 11, height: 1) { x, _ in let v = Float(x) / 10; return Pixel(v, v, v, 1) }
        let out = try TestImages.render(try TestImages.filter("CISepiaTone", ["inputImage": .image(ramp)]))
        var previous = Pixel(-1, -1, -1, 1)
        for x in 0..<11 {
            let p = out.pixel(x: x, y: 0)
            if x > 0 && x < 10 { #expect(p.x > p.y && p.y > p.z) }
            #expect(p.x > previous.x && p.y > previous.y && p.z > previous.z)
            previous = p
        }
        #expect(close(out.pixel(x: 0, y: 0), Pixel(0, 0, 0, 1)))
        #expect(close(out.pixel(x: 10, y: 0), Pixel(1.005, 0.993, 0.923, 1)))
    }
}
