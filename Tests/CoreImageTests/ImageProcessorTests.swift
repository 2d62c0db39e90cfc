import Foundation
import Testing
import CoreImage

/// CIImageProcessorKernel, written from Apple's documentation: subclasses that process memory on the CPU,
/// with their own formats and regions of interest, inside a filter graph.
@Suite struct ImageProcessorTests {
    /// Inverts the premultiplied colour against alpha, in the default (float) format.
    final class InvertProcessor: CIImageProcessorKernel {
        override class func process(with inputs: [any CIImageProcessorInput]?, arguments: [String: Any]?,
                                    output: any CIImageProcessorOutput) throws {
            guard let input = inputs?.first else { return }
            let width = Int(output.region.width), height = Int(output.region.height)
            // The input region is the output's (the default ROI), so rows line up.
            for row in 0..<height {
                let source = (input.baseAddress + row * input.bytesPerRow).assumingMemoryBound(to: Float.self)
                let target = (output.baseAddress + row * output.bytesPerRow).assumingMemoryBound(to: Float.self)
                for x in 0..<width {
                    let a = source[x * 4 + 3]
                    for c in 0..<3 { target[x * 4 + c] = a - source[x * 4 + c] }
                    target[x * 4 + 3] = a
                }
            }
        }
    }

    /// The mean of each pixel and its right neighbour, in 8 bits: reads one pixel beyond the output.
    final class PairMeanProcessor: CIImageProcessorKernel {
        override class var outputFormat: CIFormat { .RGBA8 }
        override class func formatForInput(at input: Int32) -> CIFormat { .RGBA8 }
        override class func roi(forInput input: Int32, arguments: [String: Any]?, outputRect: CGRect) -> CGRect {
            CGRect(x: outputRect.minX, y: outputRect.minY, width: outputRect.width + 1, height: outputRect.height)
        }
        override class func process(with inputs: [any CIImageProcessorInput]?, arguments: [String: Any]?,
                                    output: any CIImageProcessorOutput) throws {
            guard let input = inputs?.first, input.region.width == output.region.width + 1, input.format == .RGBA8 else {
                throw Refusal()
            }
            let width = Int(output.region.width), height = Int(output.region.height)
            // Rows run top to bottom in both; the input's top row is the output's (same maxY).
            for row in 0..<height {
                let source = (input.baseAddress + row * input.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                let target = (output.baseAddress + row * output.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for i in 0..<width * 4 { target[i] = UInt8((Int(source[i]) + Int(source[i + 4]) + 1) / 2) }
            }
        }
    }

    struct Refusal: Error {}
    final class FailingProcessor: CIImageProcessorKernel {
        override class func process(with inputs: [any CIImageProcessorInput]?, arguments: [String: Any]?,
                                    output: any CIImageProcessorOutput) throws { throw Refusal() }
    }

    /// A 4×2 image with known linear values: columns 0.0, 0.25, 0.5, 1.0 of red, alpha 1.
    var steps: CIImage {
        let linear = CGColorSpace(name: CGColorSpace.linearSRGB)!
        var image = CIImage.empty()
        for (x, v) in [0.0, 0.25, 0.5, 1.0].enumerated() {
            image = CIImage(color: CIColor(red: v, green: 0, blue: 0, alpha: 1, colorSpace: linear)!)
                .cropped(to: CGRect(x: x, y: 0, width: 1, height: 2)).composited(over: image)
        }
        return image
    }

    @Test func aFloatProcessorSeesAndWritesWorkingValues() throws {
        let inverted = try InvertProcessor.apply(withExtent: steps.extent, inputs: [steps], arguments: nil)
        #expect(inverted.extent == steps.extent)
        for (x, v) in [1.0, 0.75, 0.5, 0.0].enumerated() {
            let p = Pixels.linear(inverted, x: x, y: 1)
            #expect(abs(Double(p[0]) - v) < 1e-5 && abs(p[1] - 1) < 1e-5 && p[3] == 1, "\(x): \(p)")
        }
        // It composes with filters on both sides, and a crop renders only part of it.
        let graph = try InvertProcessor.apply(withExtent: steps.extent, inputs: [steps.applyingFilter("CIColorInvert")], arguments: nil)
        #expect(Pixels.linear(graph.cropped(to: CGRect(x: 2, y: 0, width: 1, height: 1)), x: 2, y: 0).count == 4)
    }

    @Test func anEightBitProcessorWithARegionOfInterest() throws {
        let image = CIImage(contentsOf: Samples.chelsea)!.cropped(to: CGRect(x: 0, y: 0, width: 64, height: 48))
        let meaned = try PairMeanProcessor.apply(withExtent: image.extent, inputs: [image], arguments: ["unused": 1])
        // The 8-bit values are linear levels: compare with the same mean taken on linear floats.
        let a = Pixels.linear(image, x: 10, y: 20), b = Pixels.linear(image, x: 11, y: 20)
        let got = Pixels.linear(meaned, x: 10, y: 20)
        for c in 0..<3 { #expect(abs(got[c] - (a[c] + b[c]) / 2) <= 1.5 / 255, "channel \(c)") }
        // The last column reads beyond the image: half its value.
        let edge = Pixels.linear(image, x: 63, y: 5), edgeMean = Pixels.linear(meaned, x: 63, y: 5)
        #expect(abs(edgeMean[3] - edge[3] / 2) <= 1 / 255)
    }

    @Test func badExtentsThrowAndAFailingProcessIsTransparent() throws {
        #expect(throws: (any Error).self) { try InvertProcessor.apply(withExtent: .infinite, inputs: [steps], arguments: nil) }
        #expect(throws: (any Error).self) {
            try InvertProcessor.apply(withExtent: CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1), inputs: nil, arguments: nil)
        }
        let failed = try FailingProcessor.apply(withExtent: steps.extent, inputs: [steps], arguments: nil)
        #expect(Pixels.rgba8(failed).allSatisfy { $0 == 0 })
    }
}
