import Foundation
import Testing
@testable import FilterEngine

/// The guided filter and edge-preserving upsampling: sizes, constants, the local linear model's limits.
@Suite struct GuidedUpsamplingTests {
    static func step(_ size: Int, at edge: Int) -> Image {
        TestImages.make(width: size, height: size) { x, _ in x >= edge ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
    }

    @Test func guidedFilterOfAConstantIsTheConstantAtTheGuidesSize() throws {
        let small = TestImages.make(width: 4, height: 4) { _, _ in Pixel(0.3, 0.2, 0.1, 1) }
        let out = try TestImages.filter("CIGuidedFilter", ["inputImage": .image(small), "inputGuideImage": .image(TestImages.pattern(width: 16, height: 12)),
                                                           "inputRadius": .number(2)])
        #expect(out.extent == Rect(x: 0, y: 0, width: 16, height: 12))
        let buffer = try TestImages.render(out)
        for i in 0..<buffer.rect.area { #expect(close(buffer.pixels[i], Pixel(0.3, 0.2, 0.1, 1), tolerance: 1e-4)) }
    }

    @Test func guidedFilterLimits() throws {
        // Huge ε: a = 0 and b = the box mean, so the output is the box mean of box means. A one-column spike
        // of 1 at x = 4, radius 1: 1/3 at the spike, 2/9 next to it, 1/9 two columns away.
        let spike = TestImages.make(width: 9, height: 9) { x, _ in x == 4 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
        let smooth = try TestImages.filter("CIGuidedFilter", ["inputImage": .image(spike), "inputGuideImage": .image(spike),
                                                              "inputRadius": .number(1), "inputEpsilon": .number(1e6)])
        for (x, v) in [(4, Float(1) / 3), (5, Float(2) / 9), (3, Float(2) / 9), (6, Float(1) / 9), (7, 0)] {
            #expect(close(try TestImages.pixel(smooth, x: x, y: 4), Pixel(v, v, v, 1), tolerance: 1e-4))
        }
        // Tiny ε with the image as its own guide: a = 1, b = 0 wherever the box has contrast; edges survive.
        let step = Self.step(12, at: 6)
        let sharp = try TestImages.filter("CIGuidedFilter", ["inputImage": .image(step), "inputGuideImage": .image(step),
                                                             "inputRadius": .number(2), "inputEpsilon": .number(1e-9)])
        for x in 3...8 {
            let v: Float = x >= 6 ? 1 : 0
            #expect(close(try TestImages.pixel(sharp, x: x, y: 5), Pixel(v, v, v, 1), tolerance: 1e-3))
        }
    }

    @Test func edgePreserveUpsample() throws {
        let small = TestImages.make(width: 4, height: 4) { _, _ in Pixel(0.3, 0.2, 0.1, 1) }
        let guide = Self.step(16, at: 8)
        let flat = try TestImages.filter("CIEdgePreserveUpsampleFilter", ["inputImage": .image(guide), "inputSmallImage": .image(small)])
        #expect(flat.extent == guide.extent)
        let buffer = try TestImages.render(flat)
        for i in 0..<buffer.rect.area { #expect(close(buffer.pixels[i], Pixel(0.3, 0.2, 0.1, 1), tolerance: 1e-4)) }
        // The small image is the guide's step at quarter size; next to the edge, a plain bilinear stretch would
        // mix both sides, the guide keeps them apart.
        let smallStep = Self.step(4, at: 2)
        let out = try TestImages.filter("CIEdgePreserveUpsampleFilter", ["inputImage": .image(guide), "inputSmallImage": .image(smallStep),
                                                                         "inputLumaSigma": .number(0.05)])
        #expect(try TestImages.pixel(out, x: 7, y: 8).x < 0.02)
        #expect(try TestImages.pixel(out, x: 8, y: 8).x > 0.98)
    }
}
