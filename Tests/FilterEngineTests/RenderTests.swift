import Foundation
import Testing
@testable import FilterEngine

@Suite struct RenderTests {
    /// A chain with every node kind: colour kernels (fused), a warp, a general kernel, a clamp and a crop.
    func chain(_ source: Image) throws -> Image {
        let warmed = try source.applyingFilter("CISepiaTone", parameters: ["inputIntensity": .number(0.6)])
        let controlled = try warmed.applyingFilter("CIColorControls", parameters: ["inputSaturation": .number(1.3)])
        let twirled = try controlled.applyingFilter("CITwirlDistortion", parameters: [
            "inputCenter": .vector([40, 20]), "inputRadius": .number(25), "inputAngle": .number(2)])
        let blurred = try twirled.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(3)])
        return try blurred.cropped(to: source.extent).applyingFilter("CIVignette", parameters: ["inputIntensity": .number(0.5)])
    }

    @Test func tiledEqualsUntiledAndOneThreadEqualsMany() throws {
        let image = try chain(TestImages.pattern(width: 90, height: 70))
        let whole = try TestImages.render(image, context: RenderContext(options: .init(threads: 1, bandHeight: 10_000)))
        let rows = try TestImages.render(image, context: RenderContext(options: .init(threads: 1, bandHeight: 1)))
        let many = try TestImages.render(image, context: RenderContext(options: .init(threads: 4, bandHeight: 7)))
        #expect(TestImages.maxDifference(whole, rows) == 0)
        #expect(TestImages.maxDifference(whole, many) == 0)
    }

    /// The warp path's span sampler against the per-point sampler, and a known value: inside, on and past each
    /// edge, far outside and NaN.
    @Test func spanSamplerMatchesPointSampler() {
        let buffer = PixelBuffer(rect: PixelRect(x: -2, y: 3, width: 5, height: 4))
        for y in 3..<7 {
            for x in -2..<3 { buffer.row(y)[x + 2] = Pixel(Float(x), Float(y), Float(x * y), 1) }
        }
        let points: [SIMD2<Float>] = [
            SIMD2(0, 5), SIMD2(0.3, 4.7), SIMD2(-1.5, 3.5), SIMD2(2.5, 6.5), SIMD2(2.9, 6.9), SIMD2(-2.2, 3.1),
            SIMD2(3.2, 5), SIMD2(0, 7.4), SIMD2(-3.4, 2.6), SIMD2(1e9, 5), SIMD2(-1e30, 1e30), SIMD2(.nan, 5),
            SIMD2(0, .infinity),
        ]
        let planes = UnsafeMutablePointer<Float>.allocate(capacity: 4 * points.count)
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: 12 * points.count, alignment: 16)
        defer { planes.deallocate(); scratch.deallocate() }
        let out = PlanarRow(base: planes, stride: points.count)
        points.withUnsafeBufferPointer { buffer.sampleLinear($0.baseAddress!, count: points.count, into: out, scratch: scratch) }
        for (i, point) in points.enumerated() {
            let expected = buffer.sampleLinear(point.x, point.y)
            #expect(Pixel(out.r[i], out.g[i], out.b[i], out.a[i]) == expected, "\(point)")
        }
        // Halfway between pixel centres (-1, 4), (0, 4), (-1, 5), (0, 5): their mean, x·y = (-4 + 0 - 5 + 0) / 4.
        #expect(Pixel(out.r[0], out.g[0], out.b[0], out.a[0]) == Pixel(-0.5, 4.5, -2.25, 1))
    }

    @Test func fusedEqualsUnfused() throws {
        let source = TestImages.pattern()
        let steps: [(String, [String: FilterValue])] = [
            ("CISepiaTone", ["inputIntensity": .number(0.7)]),
            ("CIExposureAdjust", ["inputEV": .number(0.5)]),
            ("CIHueAdjust", ["inputAngle": .number(1)]),
            ("CIGammaAdjust", ["inputPower": .number(1.4)]),
            ("CIColorInvert", [:]),
        ]
        var fused = source
        var unfused = source
        for (name, parameters) in steps {
            fused = try fused.applyingFilter(name, parameters: parameters)
            // Materialise between steps: the next filter reads a finished buffer.
            unfused = Image(buffer: try TestImages.render(try unfused.applyingFilter(name, parameters: parameters)))
        }
        #expect(TestImages.maxDifference(try TestImages.render(fused), try TestImages.render(unfused)) < 1e-6)
    }

    @Test func cropOfBlurEqualsBlurThenCrop() throws {
        for radius in [2.0, 10.0, 30.0] {
            let blurred = try TestImages.pattern(width: 120, height: 90).applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(radius)])
            let whole = try TestImages.render(blurred)
            let window = Rect(x: 37, y: 21, width: 23, height: 17)
            let part = try TestImages.render(blurred.cropped(to: window))
            let cut = PixelBuffer(rect: part.rect)
            for y in part.rect.y..<part.rect.maxY {
                for x in part.rect.x..<part.rect.maxX { cut.row(y)[x - cut.rect.x] = whole.pixel(x: x, y: y) }
            }
            #expect(TestImages.maxDifference(part, cut) < 1e-5, "radius \(radius)")
        }
    }

    @Test func extents() throws {
        let image = TestImages.pattern(width: 60, height: 40)
        // Core Image's extent model by version (see BlurFilters.outputExtent): today 3σ a side; iOS 9–12 a grid
        // of 2^⌊log2 σ⌋ px grown by the margin fitted on Apple's renders (160 px at σ 20, 44 px at σ 8).
        let blurred = try image.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(20)])
        #expect(blurred.extent == Rect(x: -60, y: -60, width: 180, height: 160))
        let odd = image.cropped(to: Rect(x: 3, y: 5, width: 50, height: 33))
        let current = try odd.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(2.5)])
        #expect(current.extent == Rect(x: -5, y: -3, width: 66, height: 49))  // ⌈7.5⌉ = 8 a side
        let ios12 = try image.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(20)],
                                             coreImageVersion: CoreImageVersion(12, 1))
        #expect(ios12.extent == Rect(x: -160, y: -160, width: 384, height: 368))
        let ios9 = try odd.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(8)],
                                          coreImageVersion: CoreImageVersion(9))
        #expect(ios9.extent == Rect(x: 0 - 44, y: 0 - 44, width: 56 + 88, height: 40 + 88))  // grid 8: 0…56 × 0…40
        let ios8 = try odd.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(8)],
                                          coreImageVersion: CoreImageVersion(8, 1))
        #expect(ios8.extent == Rect(x: 3 - 24, y: 5 - 24, width: 50 + 48, height: 33 + 48))
        #expect(image.clampedToExtent().extent.isInfinite)
        let crop = try image.applyingFilter("CICrop", parameters: ["inputRectangle": .vector([10, 5, 20, 12])])
        #expect(crop.extent == Rect(x: 10, y: 5, width: 20, height: 12))
        #expect(try TestImages.render(crop).rect == PixelRect(x: 10, y: 5, width: 20, height: 12))
        let clamp = try image.applyingFilter("CIAffineClamp")
        #expect(clamp.extent.isInfinite)
        #expect(close(try TestImages.pixel(clamp, x: -50, y: 100), try TestImages.pixel(image, x: 0, y: 39)))
    }

    @Test func gaussianBlurKeepsFlatAreasAndMatchesAGaussian() throws {
        for radius in [1.5, 10.0, 40.0] {
            let grey = Color(red: 0.5, green: 0.5, blue: 0.5)
            let flat = Image(color: grey).cropped(to: Rect(x: 0, y: 0, width: 400, height: 400))
            let blurred = try flat.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(radius)])
            #expect(close(try TestImages.pixel(blurred, x: 200, y: 200), grey.workingPixel, tolerance: 1e-3))
            // A step edge blurred by a Gaussian: at the edge half, at one sigma out about 16%.
            let step = TestImages.make(width: 400, height: 4) { x, _ in x < 200 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
            let edge = try step.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(radius)])
            let atEdge = try TestImages.pixel(edge, x: 200, y: 2).x, sigmaOut = try TestImages.pixel(edge, x: 200 + Int(radius.rounded()), y: 2).x
            // Pixel 200's centre sits half a pixel past the edge.
            let expectedEdge = 0.5 * erfc(0.5 / (radius * 2.0.squareRoot()))
            let expectedSigma = 0.5 * erfc((radius.rounded() + 0.5) / (radius * 2.0.squareRoot()))
            #expect(abs(Double(atEdge) - expectedEdge) < 0.02, "radius \(radius): \(atEdge) vs \(expectedEdge)")
            #expect(abs(Double(sigmaOut) - expectedSigma) < 0.02, "radius \(radius): \(sigmaOut) vs \(expectedSigma)")
        }
    }

    @Test func identityValuesLeaveTheImageUnchanged() throws {
        let source = TestImages.pattern()
        let original = try TestImages.render(source)
        for name in FilterRegistry.implementedNames {
            let filter = try Filter(named: name)
            guard filter.descriptor.input("inputImage") != nil else { continue }
            var hasIdentity = false
            for input in filter.descriptor.inputs {
                guard let identity = input.identity, let value = FilterValue(identity, for: input) else { continue }
                try filter.setValue(value, forKey: input.key)
                hasIdentity = true
            }
            guard hasIdentity else { continue }
            try filter.setValue(.image(source), forKey: "inputImage")
            // Other images (targets, backgrounds, masks) are set as a user would; the identity must ignore them.
            for input in filter.descriptor.inputs where input.isImage && input.key != "inputImage" {
                try filter.setValue(.image(TestImages.pattern(width: 40, height: 30)), forKey: input.key)
            }
            let out = try filter.makeOutputImage()
            let rendered = try TestImages.render(out, source.extent)
            #expect(TestImages.maxDifference(rendered, original) < 1e-5, "\(name)")
        }
    }

    @Test func eightBitRoundTripIsLosslessForOpaquePixels() throws {
        var bytes: [UInt8] = []
        for v in 0..<256 { bytes += [UInt8(v), UInt8(255 - v), UInt8((v * 7) & 255), 255] }
        let image = TestImages.rgba8(width: 256, height: 1, bytes: bytes)
        let (out, width, height) = try TestImages.context.renderRGBA8(image, rect: image.extent)
        #expect(width == 256 && height == 1)
        #expect(out == bytes)
    }

    @Test func intermediatesAreReusedWhileADownstreamInputChanges() throws {
        let context = RenderContext(options: .init(cacheBytes: 64 << 20))
        let source = TestImages.pattern(width: 80, height: 60)
        let blurred = try source.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(4)])
        var renders: [PixelBuffer] = []
        for intensity in [0.2, 0.9] {
            let toned = try blurred.applyingFilter("CISepiaTone", parameters: ["inputIntensity": .number(intensity)])
            renders.append(try TestImages.render(toned, source.extent, context: context))
            // The same pixels as an uncached render.
            #expect(TestImages.maxDifference(renders.last!, try TestImages.render(toned, source.extent)) == 0)
        }
        #expect(context.cacheHits >= 1)
        #expect(TestImages.maxDifference(renders[0], renders[1]) > 0)
        // Off by default: nothing kept.
        let plain = RenderContext()
        _ = try TestImages.render(blurred, source.extent, context: plain)
        _ = try TestImages.render(blurred, source.extent, context: plain)
        #expect(plain.cacheHits == 0)
    }

    @Test func aCancelledRenderStopsWithAnError() throws {
        let cancellation = RenderCancellation()
        cancellation.cancel()
        let image = try TestImages.pattern().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(3)])
        #expect(throws: RenderError.cancelled) {
            try TestImages.context.renderRGBA8(image, rect: image.extent, cancellation: cancellation)
        }
        // Not cancelled: renders as usual.
        #expect(try TestImages.context.renderRGBA8(image, rect: image.extent, cancellation: RenderCancellation()).width > 0)
    }

    @Test func renderErrors() throws {
        let generator = try Filter(named: "CIRandomGenerator").makeOutputImage()
        #expect(throws: RenderError.infiniteRect) { try TestImages.context.render(generator, rect: generator.extent) }
        #expect(throws: RenderError.self) { try TestImages.context.render(generator, rect: Rect(x: 0, y: 0, width: 1e6, height: 1e6)) }
        #expect(throws: RenderError.emptyRect) { try TestImages.context.render(generator, rect: .zero) }
    }
}
