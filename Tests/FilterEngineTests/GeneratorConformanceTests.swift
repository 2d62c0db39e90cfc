import Foundation
import Testing
@testable import FilterEngine

/// Core Image's own renders of the generator family (../shared/conformance): same size, close pixels.
@Suite struct GeneratorConformanceTests {
    @Test func roundedRectangleGenerator() throws {
        guard let folder = ConformanceTests.example("CIRoundedRectangleGenerator") else { return }
        let output = try TestImages.filter("CIRoundedRectangleGenerator", [
            "inputExtent": .vector([0, 0, 200, 100]), "inputRadius": .number(20),
            "inputColor": .color(ValueParser.color("#ff716cff")!),
        ])
        let result = try ConformanceTests.psnr(output, against: folder.appendingPathComponent("outputImage.png"))
        print("conformance CIRoundedRectangleGenerator: size \(result.size) vs Apple \(result.apple), PSNR \(String(format: "%.1f", result.psnr)) dB")
        #expect(result.size == result.apple)
        #expect(result.psnr > 40)
    }

    /// The halo's striations are Apple's own noise, which cannot be reproduced: the ring's position, width,
    /// profile, colour and extent match, the streak pattern does not (so the PSNR stays modest).
    @Test func lenticularHaloGenerator() throws {
        guard let folder = ConformanceTests.example("CILenticularHaloGenerator") else { return }
        let output = try TestImages.filter("CILenticularHaloGenerator", [
            "inputCenter": .vector([100, 100]), "inputStriationStrength": .number(1), "inputHaloOverlap": .number(1),
            "inputHaloRadius": .number(50), "inputColor": .color(ValueParser.color("#7effe8ff")!),
            "inputHaloWidth": .number(50), "inputTime": .number(1), "inputStriationContrast": .number(1),
        ])
        let result = try ConformanceTests.psnr(output, against: folder.appendingPathComponent("outputImage.png"))
        print("conformance CILenticularHaloGenerator: size \(result.size) vs Apple \(result.apple), PSNR \(String(format: "%.1f", result.psnr)) dB")
        #expect(result.size == result.apple)
        #expect(result.psnr > 15)
    }
}
