import Foundation
import Testing
@testable import FilterEngine

/// Core Image's own renders for the blur family (../shared/conformance): output size exact, pixels close.
@Suite struct BlurConformanceTests {
    func check(_ filter: String, _ parameters: [String: FilterValue], minimum: Double) throws {
        guard let folder = ConformanceTests.example(filter) else { return }
        let input = try ImageFile.read(folder.appendingPathComponent("inputImage.png").path)
        let output = try input.applyingFilter(filter, parameters: parameters)
        let result = try ConformanceTests.psnr(output, against: folder.appendingPathComponent("outputImage.png"))
        print("conformance \(filter) \(parameters): size \(result.size) vs Apple \(result.apple), PSNR \(String(format: "%.1f", result.psnr)) dB")
        #expect(result.size == result.apple)
        #expect(result.psnr > minimum)
    }

    @Test func boxBlur() throws { try check("CIBoxBlur", ["inputRadius": .number(40)], minimum: 30) }
    @Test func medianFilter() throws { try check("CIMedianFilter", [:], minimum: 35) }
    @Test func morphologyMaximum() throws { try check("CIMorphologyMaximum", ["inputRadius": .number(2)], minimum: 30) }
}
