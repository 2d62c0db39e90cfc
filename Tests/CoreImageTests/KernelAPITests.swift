import Foundation
import Testing
import CoreImage

/// CIColorKernel, CIWarpKernel, CIKernel and CIBlendKernel over the engine's kernel-language compiler, used as
/// Core Image code uses them (a CIFilter subclass holding a kernel, `apply` with CIVector and number arguments).
@Suite struct KernelAPITests {
    /// A threshold filter in the shape of many apps' custom filters: a subclass with its own inputs and a
    /// colour kernel that compares luminance with the threshold.
    final class ThresholdFilter: CIFilter {
        var inputImage: CIImage?
        var inputThreshold: Float = 0.5

        static let kernel = CIColorKernel(source: """
            kernel vec4 threshold(__sample pixel, float threshold) {
                vec4 c = unpremultiply(pixel);
                float luma = dot(c.rgb, vec3(0.2126, 0.7152, 0.0722));
                return premultiply(vec4(vec3(compare(luma - threshold, 0.0, 1.0)), c.a));
            }
            """)

        override var outputImage: CIImage? {
            guard let inputImage, let kernel = Self.kernel else { return nil }
            return kernel.apply(extent: inputImage.extent, arguments: [inputImage, inputThreshold])
        }
    }

    @Test func aColourKernelSubclassRenders() throws {
        let grey = CIImage(color: CIColor(red: 0.3, green: 0.3, blue: 0.3)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
        let filter = ThresholdFilter()
        filter.setValue(grey, forKey: kCIInputImageKey)
        filter.inputThreshold = 0.1   // linear luminance of sRGB 0.3 is 0.073: below 0.1 black, above 0.05 white
        #expect(Pixels.rgba8(try #require(filter.outputImage)) .prefix(4) == [0, 0, 0, 255])
        filter.inputThreshold = 0.05
        #expect(Pixels.rgba8(try #require(filter.outputImage)).prefix(4) == [255, 255, 255, 255])
    }

    @Test func aWarpKernelMirrorsTheImage() throws {
        let source = CIImage(contentsOf: Samples.astronaut)!
        let mirror = try #require(CIWarpKernel(source: """
            kernel vec2 mirror(float width) { return vec2(width - destCoord().x, destCoord().y); }
            """))
        let width = source.extent.width
        let mirrored = try #require(mirror.apply(extent: source.extent, roiCallback: { _, rect in
            CGRect(x: width - rect.maxX, y: rect.minY, width: rect.width, height: rect.height)
        }, image: source, arguments: [width]))
        let flipped = source.transformed(by: CGAffineTransform(scaleX: -1, y: 1).translatedBy(x: -width, y: 0))
        #expect(mirrored.extent == source.extent)
        let a = Pixels.rgba8(mirrored), b = Pixels.rgba8(flipped)
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 255
        #expect(worst <= 1, "warp kernel vs transform: up to \(worst) levels")
    }

    @Test func aGeneralKernelWithItsRegionOfInterest() throws {
        let kernels = try #require(CIKernel.makeKernels(source: """
            kernel vec4 shiftRight(sampler image, float by) {
                return sample(image, samplerTransform(image, destCoord() - vec2(by, 0.0)));
            }
            kernel vec4 invert(__sample s) { return vec4(s.a - s.rgb, s.a); }
            """))
        #expect(kernels.map(\.name) == ["shiftRight", "invert"])
        #expect(kernels[1] is CIColorKernel && !(kernels[0] is CIColorKernel))
        let source = CIImage(contentsOf: Samples.astronaut)!
        let shifted = try #require(kernels[0].apply(extent: source.extent.offsetBy(dx: 10, dy: 0), roiCallback: { _, rect in
            rect.offsetBy(dx: -10, dy: 0)
        }, arguments: [source, 10]))
        let moved = source.transformed(by: CGAffineTransform(translationX: 10, y: 0))
        #expect(Pixels.rgba8(shifted) == Pixels.rgba8(moved))
    }

    @Test func aBlendKernelCoversBothImages() throws {
        let kernel = try #require(CIBlendKernel(source: """
            kernel vec4 multiplyBlend(__sample fore, __sample back) { return fore * back; }
            """))
        let red = CIImage(color: CIColor(red: 1, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 2, height: 2))
        let white = CIImage(color: CIColor(red: 1, green: 1, blue: 1)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 2))
        let blended = try #require(kernel.apply(foreground: red, background: white))
        #expect(blended.extent == CGRect(x: 0, y: 0, width: 4, height: 2))
        #expect(Pixels.rgba8(blended).prefix(4) == [255, 0, 0, 255])
    }

    /// Colour kernels written with a `sampler` parameter, as many apps ship them (Apple's compiler takes them):
    /// `CIColorKernel(source:)` accepts them and `apply(extent:arguments:)` renders them.
    final class ChannelSwapFilter: CIFilter {
        var inputImage: CIImage?
        var inputAmount: Float = 1

        static let kernel = CIColorKernel(source: """
            kernel vec4 swapRedAndBlue(sampler image, float amount) {
                vec4 pixel = unpremultiply(sample(image, samplerCoord(image)));
                vec3 swapped = mix(pixel.rgb, pixel.bgr, amount);
                return premultiply(vec4(swapped, pixel.a));
            }
            """)!

        override var outputImage: CIImage? {
            guard let inputImage else { return nil }
            return Self.kernel.apply(extent: inputImage.extent, arguments: [inputImage, inputAmount])
        }
    }

    @Test func aColourKernelWithASamplerParameter() throws {
        let source = CIImage(color: CIColor(red: 1, green: 0.5, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 3))
        let filter = ChannelSwapFilter()
        filter.inputImage = source
        let swapped = try #require(filter.outputImage)
        #expect(swapped.extent == source.extent)
        let original = Pixels.rgba8(source)
        #expect(original[0] == 255 && original[2] == 0)
        #expect(Array(Pixels.rgba8(swapped).prefix(4)) == [original[2], original[1], original[0], 255])
        filter.inputAmount = 0
        #expect(Array(Pixels.rgba8(try #require(filter.outputImage)).prefix(4)) == Array(original.prefix(4)))
        // A photo: every pixel has its red and blue exchanged.
        let photo = CIImage(contentsOf: Samples.astronaut)!
        filter.inputImage = photo
        filter.inputAmount = 1
        let a = Pixels.rgba8(try #require(filter.outputImage)), b = Pixels.rgba8(photo)
        var worst = 0
        for i in stride(from: 0, to: a.count, by: 4) {
            worst = max(worst, abs(Int(a[i]) - Int(b[i + 2])), abs(Int(a[i + 1]) - Int(b[i + 1])), abs(Int(a[i + 2]) - Int(b[i])))
        }
        #expect(worst <= 1, "up to \(worst) levels")

        // Sampling beside its pixel: still a colour kernel to the caller, rendered with what it reads.
        let shift = try #require(CIColorKernel(source: """
            kernel vec4 shiftLeft(sampler image) { return sample(image, samplerCoord(image) + vec2(2.0, 0.0)); }
            """))
        let shifted = try #require(shift.apply(extent: photo.extent, arguments: [photo]))
        let moved = photo.transformed(by: CGAffineTransform(translationX: -2, y: 0)).cropped(to: photo.extent)
        let width = Int(photo.extent.width)
        let s = Pixels.rgba8(shifted), m = Pixels.rgba8(moved, photo.extent)
        #expect(s == m)
        #expect(Pixels.at(s, width: width, x: 10, yFromTop: 20) == Pixels.at(m, width: width, x: 10, yFromTop: 20))
        #expect(Pixels.at(s, width: width, x: width - 1, yFromTop: 5) == [0, 0, 0, 0])
        // The same sources through CIKernel(source:) stay general kernels with their own region of interest.
        let general = try #require(CIKernel(source: "kernel vec4 k(sampler image) { return sample(image, samplerCoord(image)); }"))
        #expect(!(general is CIColorKernel))
        let copy = try #require(general.apply(extent: photo.extent, roiCallback: { _, r in r }, arguments: [photo]))
        #expect(Pixels.rgba8(copy) == Pixels.rgba8(photo))
    }

    @Test func badSourcesAndMetalFailClearly() {
        #expect(CIColorKernel(source: "kernel vec4 f(__sample s) { return s.rgb; }") == nil)   // wrong return type
        #expect(CIWarpKernel(source: "kernel vec4 f(__sample s) { return s; }") == nil)        // not a warp kernel
        #expect(CIKernel.makeKernels(source: "kernel vec4 f( {") == nil)
        #expect(throws: CIKernelError.self) { try CIKernel(functionName: "f", fromMetalLibraryData: Data()) }
        let kernel = CIColorKernel(source: "kernel vec4 f(__sample s, float k) { return s * k; }")!
        #expect(kernel.apply(extent: CGRect(x: 0, y: 0, width: 1, height: 1), arguments: ["not a number", 1]) == nil)
    }
}
