import Foundation
import Testing
@testable import FilterEngine

/// Core Image's own render of CIKaleidoscope (../shared/conformance): same output size, close pixels.
@Suite struct TileEffectConformanceTests {
    @Test func kaleidoscope() throws {
        guard let folder = ConformanceTests.example("CIKaleidoscope") else { return }
        let input = try ImageFile.read(folder.appendingPathComponent("inputImage.png").path)
        let output = try input.applyingFilter("CIKaleidoscope", parameters: [
            "inputCount": .number(3), "inputCenter": .vector([100, 100]), "inputAngle": .number(0)])
        let result = try ConformanceTests.psnr(output, against: folder.appendingPathComponent("outputImage.png"))
        print("conformance CIKaleidoscope count 3: size \(result.size) vs Apple \(result.apple), PSNR \(String(format: "%.1f", result.psnr)) dB")
        #expect(result.size == result.apple)
        #expect(result.psnr > 30)
    }
}
