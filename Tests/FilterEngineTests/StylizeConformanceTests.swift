import Foundation
import Testing
@testable import FilterEngine

/// Core Image's renders of the stylize family (shared/conformance).
@Suite struct StylizeConformanceTests {
    @Test func heightFieldFromMask() throws {
        guard let folder = ConformanceTests.example("CIHeightFieldFromMask") else { return }
        let input = try ImageFile.read(folder.appendingPathComponent("inputImage.png").path)
        let output = try input.applyingFilter("CIHeightFieldFromMask", parameters: ["inputRadius": .number(25)])
        let result = try ConformanceTests.psnr(output, against: folder.appendingPathComponent("outputImage.png"))
        print("conformance CIHeightFieldFromMask radius 25: size \(result.size) vs Apple \(result.apple), PSNR \(String(format: "%.1f", result.psnr)) dB")
        #expect(result.size == result.apple)
        #expect(result.psnr > 33)
    }
}
