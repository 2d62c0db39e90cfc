import Foundation
import Testing
@testable import FilterEngine

/// Core Image's own renders (../shared/conformance): same output size, and close pixels (PSNR reported).
@Suite struct ConformanceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/conformance")

    /// The example folder of a filter, or nil (with a clear message) when ../shared/conformance is absent.
    static func example(_ filter: String) -> URL? {
        let folder = root.appendingPathComponent(filter)
        guard let first = try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().first else {
            print("conformance: \(folder.path) is missing; skipping \(filter)")
            return nil
        }
        return folder.appendingPathComponent(first)
    }

    /// PSNR in dB between our render of `image` over its extent and Apple's output PNG, on premultiplied RGBA
    /// (colour weighted by alpha): what a viewer sees. Straight colour of nearly transparent pixels is rounding
    /// noise in both renders (Apple's PNGs hold white at alpha 1/255 where ours hold black at 0).
    static func psnr(_ image: Image, against path: URL) throws -> (psnr: Double, size: (Int, Int), apple: (Int, Int)) {
        let context = RenderContext()
        let ours = try context.renderRGBA8(image, rect: image.extent)
        let appleImage = try ImageFile.read(path.path)
        let apple = try context.renderRGBA8(appleImage, rect: appleImage.extent)
        guard ours.width == apple.width, ours.height == apple.height else {
            return (0, (ours.width, ours.height), (apple.width, apple.height))
        }
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
        return (mse == 0 ? 99 : 10 * log10(255 * 255 / mse), (ours.width, ours.height), (apple.width, apple.height))
    }

    @Test func gaussianBlur() throws {
        guard let folder = Self.example("CIGaussianBlur") else { return }
        let input = try ImageFile.read(folder.appendingPathComponent("inputImage.png").path)
        let output = try input.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(20)])
        let result = try Self.psnr(output, against: folder.appendingPathComponent("outputImage.png"))
        print("conformance CIGaussianBlur radius 20: size \(result.size) vs Apple \(result.apple), PSNR \(String(format: "%.1f", result.psnr)) dB")
        #expect(result.size == result.apple)
        #expect(result.psnr > 35)
    }

    @Test func sourceOverCompositing() throws {
        guard let folder = Self.example("CISourceOverCompositing") else { return }
        let image = try ImageFile.read(folder.appendingPathComponent("inputImage.png").path)
        let background = try ImageFile.read(folder.appendingPathComponent("inputBackgroundImage.png").path)
        let output = try image.applyingFilter("CISourceOverCompositing", parameters: ["inputBackgroundImage": .image(background)])
        let result = try Self.psnr(output, against: folder.appendingPathComponent("outputImage.png"))
        print("conformance CISourceOverCompositing: size \(result.size) vs Apple \(result.apple), PSNR \(String(format: "%.1f", result.psnr)) dB")
        #expect(result.size == result.apple)
        #expect(result.psnr > 40)
    }

    @Test func constantColorGenerator() throws {
        guard let folder = Self.example("CIConstantColorGenerator") else { return }
        // #ffa24dff, cropped by the app to 500×500 at the origin.
        let color = ValueParser.color("#ffa24dff")!
        let output = try Filter(named: "CIConstantColorGenerator")
        try output.setValue(.color(color), forKey: "inputColor")
        let cropped = try output.makeOutputImage().cropped(to: Rect(x: 0, y: 0, width: 500, height: 500))
        let result = try Self.psnr(cropped, against: folder.appendingPathComponent("outputImage.png"))
        print("conformance CIConstantColorGenerator: PSNR \(String(format: "%.1f", result.psnr)) dB")
        #expect(result.size == result.apple)
        #expect(result.psnr > 45)
    }

    @Test func checkerboardGenerator() throws {
        guard let folder = Self.example("CICheckerboardGenerator") else { return }
        let filter = try Filter(named: "CICheckerboardGenerator")
        try filter.setValue(.vector([0, 0]), forKey: "inputCenter")
        try filter.setValue(.color(ValueParser.color("#60ff6fff")!), forKey: "inputColor0")
        try filter.setValue(.color(ValueParser.color("#ff6767ff")!), forKey: "inputColor1")
        try filter.setValue(.number(50), forKey: "inputWidth")
        let board = try filter.makeOutputImage().cropped(to: Rect(x: 0, y: 0, width: 500, height: 500))
        let result = try Self.psnr(board, against: folder.appendingPathComponent("outputImage.png"))
        print("conformance CICheckerboardGenerator: PSNR \(String(format: "%.1f", result.psnr)) dB")
        #expect(result.size == result.apple)
        #expect(result.psnr > 30)
    }
}
