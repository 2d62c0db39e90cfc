import Foundation
import Testing
import CoreImage

/// CIBlendKernel's built-in kernels, written from Apple's list: each gives the pixels of its compositing or
/// blend-mode filter, the destination variants swap the operands, and the three modes without a filter give
/// their known values.
@Suite struct BlendKernelTests {
    let chelsea = CIImage(contentsOf: Samples.chelsea)!
    /// A half-transparent ramp over part of the photo, so that alpha matters.
    var foreground: CIImage {
        CIFilter(name: "CILinearGradient", parameters: [
            "inputPoint0": CIVector(x: 0, y: 0), "inputPoint1": CIVector(x: 200, y: 100),
            "inputColor0": CIColor(red: 1, green: 0.5, blue: 0, alpha: 0.4), "inputColor1": CIColor(red: 0, green: 0.2, blue: 1, alpha: 0.9),
        ])!.outputImage!.cropped(to: CGRect(x: 40, y: 30, width: 200, height: 150))
    }

    func close(_ a: [Float], _ b: [Float]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) < 1e-5 } }

    func same(_ a: CIImage?, _ b: CIImage?, within levels: Int = 0, _ what: String) {
        guard let a, let b else { Issue.record("\(what): no image"); return }
        let rect = chelsea.extent
        #expect(Pixels.maxDifference(Pixels.rgba8(a, rect), Pixels.rgba8(b, rect)) <= levels, "\(what)")
    }

    @Test func eachFilterBackedKernelIsItsFilter() {
        let pairs: [(CIBlendKernel, String)] = [
            (.componentAdd, "CIAdditionCompositing"), (.componentMultiply, "CIMultiplyCompositing"),
            (.componentMin, "CIMinimumCompositing"), (.componentMax, "CIMaximumCompositing"),
            (.sourceOver, "CISourceOverCompositing"), (.sourceIn, "CISourceInCompositing"),
            (.sourceOut, "CISourceOutCompositing"), (.sourceAtop, "CISourceAtopCompositing"),
            (.multiply, "CIMultiplyBlendMode"), (.screen, "CIScreenBlendMode"), (.overlay, "CIOverlayBlendMode"),
            (.darken, "CIDarkenBlendMode"), (.lighten, "CILightenBlendMode"), (.colorDodge, "CIColorDodgeBlendMode"),
            (.colorBurn, "CIColorBurnBlendMode"), (.hardLight, "CIHardLightBlendMode"), (.softLight, "CISoftLightBlendMode"),
            (.difference, "CIDifferenceBlendMode"), (.exclusion, "CIExclusionBlendMode"), (.hue, "CIHueBlendMode"),
            (.saturation, "CISaturationBlendMode"), (.color, "CIColorBlendMode"), (.luminosity, "CILuminosityBlendMode"),
            (.subtract, "CISubtractBlendMode"), (.divide, "CIDivideBlendMode"), (.linearBurn, "CILinearBurnBlendMode"),
            (.linearDodge, "CILinearDodgeBlendMode"), (.vividLight, "CIVividLightBlendMode"),
            (.linearLight, "CILinearLightBlendMode"), (.pinLight, "CIPinLightBlendMode"),
        ]
        for (kernel, filter) in pairs {
            let expected = foreground.applyingFilter(filter, parameters: [kCIInputBackgroundImageKey: chelsea])
            same(kernel.apply(foreground: foreground, background: chelsea), expected, filter)
            // The general form with the two images as arguments gives the same inside its extent.
            same(kernel.apply(extent: chelsea.extent, arguments: [foreground, chelsea]), expected.cropped(to: chelsea.extent), "\(filter) (arguments)")
        }
    }

    @Test func destinationKernelsSwapTheImagesAndTheTrivialOnesPickOne() {
        let swaps: [(CIBlendKernel, String)] = [(.destinationOver, "CISourceOverCompositing"), (.destinationIn, "CISourceInCompositing"),
                                               (.destinationOut, "CISourceOutCompositing"), (.destinationAtop, "CISourceAtopCompositing")]
        for (kernel, filter) in swaps {
            same(kernel.apply(foreground: foreground, background: chelsea),
                 chelsea.applyingFilter(filter, parameters: [kCIInputBackgroundImageKey: foreground]), "\(kernel.name)")
        }
        same(CIBlendKernel.source.apply(foreground: foreground, background: chelsea), foreground, "source")
        same(CIBlendKernel.destination.apply(foreground: foreground, background: chelsea), chelsea, "destination")
        let cleared = CIBlendKernel.clear.apply(foreground: foreground, background: chelsea)
        #expect(Pixels.rgba8(cleared!, chelsea.extent).allSatisfy { $0 == 0 })
        #expect(CIBlendKernel.sourceOver.name == "sourceOver" && CIBlendKernel.hardMix.name == "hardMix")
    }

    @Test func exclusiveOrKeepsEachImageWhereTheOtherIsNot() {
        let left = CIImage(color: .red).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 2))
        let right = CIImage(color: .blue).cropped(to: CGRect(x: 2, y: 0, width: 4, height: 2))
        let xor = CIBlendKernel.exclusiveOr.apply(foreground: left, background: right)!
        #expect(close(Pixels.linear(xor, x: 0, y: 0), [1, 0, 0, 1]))
        #expect(close(Pixels.linear(xor, x: 3, y: 0), [0, 0, 0, 0]))
        #expect(close(Pixels.linear(xor, x: 5, y: 0), [0, 0, 1, 1]))
    }

    @Test func theModesWithoutAFilterHaveTheirKnownValues() {
        func one(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat) -> CIImage {
            CIImage(color: CIColor(red: r, green: g, blue: b, colorSpace: CGColorSpace(name: CGColorSpace.linearSRGB)!)!)
                .cropped(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        }
        let s = one(0.7, 0.2, 0.5), d = one(0.4, 0.3, 0.1)
        // Hard mix: 1 where the two straight components reach 1 together, else 0.
        #expect(close(Pixels.linear(CIBlendKernel.hardMix.apply(foreground: s, background: d)!, x: 0, y: 0), [1, 0, 0, 1]))
        // Darker / lighter colour: the whole colour of lower / higher luminance (s: 0.379, d: 0.308).
        #expect(close(Pixels.linear(CIBlendKernel.darkerColor.apply(foreground: s, background: d)!, x: 0, y: 0), [0.4, 0.3, 0.1, 1]))
        #expect(close(Pixels.linear(CIBlendKernel.lighterColor.apply(foreground: s, background: d)!, x: 0, y: 0), [0.7, 0.2, 0.5, 1]))
        // Where the background is clear, the foreground shows as it is.
        let clear = CIImage(color: .clear).cropped(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(close(Pixels.linear(CIBlendKernel.hardMix.apply(foreground: s, background: clear)!, x: 0, y: 0), [0.7, 0.2, 0.5, 1]))
    }

    @Test func blendingInAColourSpace() throws {
        // Multiply in sRGB multiplies the encoded values: 0.5 × 0.5 encoded is 0.25 encoded.
        let grey = CIImage(color: CIColor(red: 0.5, green: 0.5, blue: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        let encoded = try #require(CIBlendKernel.multiply.apply(foreground: grey, background: grey,
                                                               colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!))
        #expect(Pixels.rgba8(encoded) == [64, 64, 64, 255])
        let linear = try #require(CIBlendKernel.multiply.apply(foreground: grey, background: grey,
                                                              colorSpace: CGColorSpace(name: CGColorSpace.linearSRGB)!))
        #expect(Pixels.rgba8(linear) == Pixels.rgba8(CIBlendKernel.multiply.apply(foreground: grey, background: grey)!))
    }
}
