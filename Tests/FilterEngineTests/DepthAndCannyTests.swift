import Foundation
import Testing
@testable import FilterEngine

/// Depth of field and the Canny edge detector.
@Suite struct DepthAndCannyTests {
    @Test func depthOfFieldKeepsTheLineSharp() throws {
        let image = TestImages.pattern(width: 20, height: 20)
        let values: [String: FilterValue] = ["inputImage": .image(image), "inputPoint0": .vector([0, 5.5]),
                                             "inputPoint1": .vector([20, 5.5]), "inputSaturation": .number(1),
                                             "inputUnsharpMaskIntensity": .number(0), "inputRadius": .number(3)]
        let out = try TestImages.filter("CIDepthOfField", values)
        #expect(out.extent == image.extent)
        let rendered = try TestImages.render(out), original = try TestImages.render(image)
        // Row 5 has its centres on the line: untouched. Row 19 (13.5 px away, beyond the 10 px falloff) is blurred.
        for x in 0..<20 {
            #expect(close(rendered.pixel(x: x, y: 5), original.pixel(x: x, y: 5), tolerance: 1e-5))
        }
        var moved: Float = 0
        for x in 0..<20 { moved = max(moved, largestComponent(rendered.pixel(x: x, y: 19) - original.pixel(x: x, y: 19))) }
        #expect(moved > 0.01)
        let flat = TestImages.make(width: 12, height: 12) { _, _ in Pixel(0.2, 0.3, 0.4, 1) }
        var flatValues = values
        flatValues["inputImage"] = .image(flat)
        let constant = try TestImages.render(try TestImages.filter("CIDepthOfField", flatValues))
        for i in 0..<constant.rect.area { #expect(close(constant.pixels[i], Pixel(0.2, 0.3, 0.4, 1), tolerance: 1e-4)) }
    }

    @Test func cannyFindsAStepAndNothingOnAFlatImage() throws {
        let flat = TestImages.make(width: 12, height: 12) { _, _ in Pixel(0.5, 0.5, 0.5, 1) }
        let none = try TestImages.render(try TestImages.filter("CICannyEdgeDetector", ["inputImage": .image(flat)]))
        for i in 0..<none.rect.area { #expect(close(none.pixels[i], Pixel(0, 0, 0, 1))) }
        // A 0 → 1 step between columns 7 and 8, no smoothing: the raw Sobel magnitude is 4 on both columns.
        let step = TestImages.make(width: 16, height: 16) { x, _ in x >= 8 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
        let out = try TestImages.filter("CICannyEdgeDetector", ["inputImage": .image(step), "inputGaussianSigma": .number(0)])
        #expect(out.extent == step.extent)
        #expect(close(try TestImages.pixel(out, x: 7, y: 8), Pixel(1, 1, 1, 1)))
        #expect(close(try TestImages.pixel(out, x: 8, y: 8), Pixel(1, 1, 1, 1)))
        #expect(close(try TestImages.pixel(out, x: 5, y: 8), Pixel(0, 0, 0, 1)))
    }

    @Test func cannyHysteresisGrowsEdgesAlongCandidates() throws {
        // Rows 0–7: a strong step (Sobel 4). Rows 8–15: a weak one (Sobel 0.032, between the thresholds).
        let image = TestImages.make(width: 16, height: 16) { x, y in
            let v: Float = x >= 8 ? (y < 8 ? 1 : 0.008) : 0
            return Pixel(v, v, v, 1)
        }
        func edgeAt(row: Int, passes: Int) throws -> Bool {
            let out = try TestImages.filter("CICannyEdgeDetector", ["inputImage": .image(image), "inputGaussianSigma": .number(0),
                                                                   "inputHysteresisPasses": .number(Double(passes))])
            return try TestImages.pixel(out, x: 7, y: row).x == 1 || TestImages.pixel(out, x: 8, y: row).x == 1
        }
        #expect(try edgeAt(row: 3, passes: 0))
        #expect(try !edgeAt(row: 12, passes: 0))
        #expect(try edgeAt(row: 12, passes: 20))
    }
}
