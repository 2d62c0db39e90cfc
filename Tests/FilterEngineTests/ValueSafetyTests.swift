import Foundation
import Testing
@testable import FilterEngine

/// Extreme values as Core Image takes them, and the render budget that protects the machine instead of the
/// catalogue's ranges: every crash, hang and memory blow-up of the reliability sweep
/// (shared/reviews/reliability.md §1) as a case that must end in a clean result or a clean error.
@Suite struct ValueSafetyTests {
    static let photo = TestImages.pattern(width: 512, height: 512)

    /// Renders `rect` within `seconds`, and checks that no pixel is NaN.
    static func renderQuickly(_ image: Image, _ rect: Rect, seconds: Double = 5, _ label: String) throws -> PixelBuffer {
        let start = Date()
        let buffer = try TestImages.render(image, rect)
        #expect(Date().timeIntervalSince(start) < seconds, "\(label) took \(Date().timeIntervalSince(start)) s")
        var nan = 0
        for i in 0..<buffer.rect.area where buffer.pixels[i].x.isNaN || buffer.pixels[i].w.isNaN { nan += 1 }
        #expect(nan == 0, "\(label): \(nan) NaN pixels")
        return buffer
    }

    static func message(_ body: () throws -> Void) -> String {
        do { try body(); return "no error" } catch { return "\(error)" }
    }

    // MARK: The sweep's crashes, hangs and memory cases

    /// Was a heap-buffer-overflow write: an infinite streak length converted to an integer sample count.
    @Test func zoomBlurOfAHugeAmountOrCentre() throws {
        // The extent covers every pixel whose streak reaches the photo: infinite from k = 1 on; an outward zoom
        // (negative amount) and a centre far beyond the photo keep the photo's.
        for (values, infinite): ([String: FilterValue], Bool) in [
            (["inputAmount": .number(1e30)], true), (["inputCenter": .vector([1e30, 1e30])], false),
            (["inputAmount": .number(-1e30)], false), (["inputCenter": .vector([-1e9, 1e9])], false)] {
            let out = try Self.photo.applyingFilter("CIZoomBlur", parameters: values)
            #expect(out.extent == (infinite ? .infinite : Self.photo.extent), "\(values)")
            _ = try Self.renderQuickly(out, Rect(x: 0, y: 0, width: 96, height: 96), "zoom \(values)")
        }
    }

    /// Was a 16 GB table (one entry per sector). Past 2^16 sectors the picture no longer changes.
    @Test func kaleidoscopeOfABillionSectors() throws {
        let window = Rect(x: 200, y: 200, width: 96, height: 96)
        let huge = try Self.renderQuickly(try Self.photo.applyingFilter("CIKaleidoscope", parameters: [
            "inputCount": .number(1e9), "inputCenter": .vector([256, 256])]), window, "count 1e9")
        let capped = try TestImages.render(try Self.photo.applyingFilter("CIKaleidoscope", parameters: [
            "inputCount": .number(65536), "inputCenter": .vector([256, 256])]), window)
        #expect(TestImages.maxDifference(huge, capped) == 0)
    }

    /// Was 16 s and then a 3 GB allocation: the sector bounds looped over an angle with no fraction of a turn left.
    @Test func kaleidoscopeOfAHugeAngle() throws {
        for angle in [1e30, -1e30, 1e9] {
            let out = try Self.photo.applyingFilter("CIKaleidoscope", parameters: ["inputAngle": .number(angle)])
            _ = try Self.renderQuickly(out, Rect(x: 0, y: 0, width: 96, height: 96), "angle \(angle)")
        }
        // The fold is periodic in the angle: a whole turn more is the same picture.
        let window = Rect(x: 100, y: 100, width: 64, height: 64)
        let a = try TestImages.render(try Self.photo.applyingFilter("CIKaleidoscope", parameters: ["inputAngle": .number(0.5)]), window)
        let b = try TestImages.render(try Self.photo.applyingFilter("CIKaleidoscope", parameters: [
            "inputAngle": .number(0.5 + 2 * Double.pi * 1000)]), window)
        #expect(TestImages.maxDifference(a, b) < 1e-3)
    }

    /// Was 11 s and 3.2 GB for a 96×96 crop (10^8 taps on a level capped at 1/64). Now a deeper pyramid: the
    /// blur of a finite image by σ = 1e9 is (numerically) transparent, and whole it is a clear budget error.
    @Test func gaussianBlurOfAHugeRadius() throws {
        let out = try Self.photo.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(1e9)])
        let crop = try Self.renderQuickly(out, Rect(x: 0, y: 0, width: 96, height: 96), "radius 1e9")
        #expect(largestComponent(crop.pixel(x: 48, y: 48)) < 1e-6)
        let whole = Self.message { _ = try TestImages.render(out, out.extent) }
        #expect(whole.contains("CIGaussianBlur with inputRadius = 1000000000"), "\(whole)")
        #expect(whole.contains("--max-pixels") && whole.contains("CIFILTERTEST_MAX_PIXELS"), "\(whole)")
        // 1e30 too (the level's own sigma stays small).
        let further = try Self.photo.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(1e30)])
        _ = try Self.renderQuickly(further, Rect(x: 0, y: 0, width: 32, height: 32), "radius 1e30")
    }

    /// The deeper pyramid keeps the blur right: the centre of a wide blur of a small square of mass m is
    /// m / (2πσ²), and an infinite constant stays that constant.
    @Test func wideGaussianBlurKeepsItsMass() throws {
        let square = TestImages.make(width: 64, height: 64) { _, _ in Pixel(1, 1, 1, 1) }
        for sigma in [400.0, 3000, 20000] {
            let out = try square.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(sigma)])
            let centre = try TestImages.pixel(out, x: 32, y: 32).w
            let expected = Float(64 * 64 / (2 * Double.pi * sigma * sigma))
            #expect(abs(centre - expected) < expected * 0.1, "σ \(sigma): \(centre) vs \(expected)")
        }
        let flat = Image(color: Color([0.25, 0.5, 0.75, 1]))
        let blurred = try flat.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(300)])
        let p = try TestImages.pixel(blurred, x: 10, y: 10)
        #expect(close(p, flat.kindPixel, tolerance: 1e-3), "\(p)")
    }

    /// Radii beyond the old 2000-pixel caps are blurs of that radius, not silently the cap's: a disc of radius
    /// R spreads a small square's mass m to m / (πR²) at its centre; the unsharp mask's blur likewise.
    @Test func discAndUnsharpRadiiAreNotCapped() throws {
        let square = TestImages.make(width: 64, height: 64) { _, _ in Pixel(1, 1, 1, 1) }
        for radius in [3000.0, 12000] {
            let out = try square.applyingFilter("CIDiscBlur", parameters: ["inputRadius": .number(radius)])
            #expect(out.extent.width >= 2 * radius)
            let centre = try TestImages.pixel(out, x: 32, y: 32).w
            let expected = Float(64 * 64 / (Double.pi * radius * radius))
            #expect(abs(centre - expected) < expected * 0.2, "disc \(radius): \(centre) vs \(expected)")
        }
        // A box of half-width h beyond 4096 runs on a pyramid level: the mean over (2h+1)² is m / (2h+1)².
        for radius in [20001.0, 2e6] {
            let out = try square.applyingFilter("CIBoxBlur", parameters: ["inputRadius": .number(radius)])
            let h = ((radius - 1) / 2).rounded(.down)
            #expect(out.extent == square.extent.insetBy(dx: -h, dy: -h), "\(out.extent)")
            let centre = try TestImages.pixel(out, x: 32, y: 32).w
            let expected = Float(64 * 64 / ((2 * h + 1) * (2 * h + 1)))
            #expect(abs(centre - expected) < expected * 0.2, "box \(radius): \(centre) vs \(expected)")
        }
        // Unsharp mask at σ 5000: p + 1 · (p − blur) with the blur ≈ m / (2πσ²), nearly p itself.
        let sharp = try square.applyingFilter("CIUnsharpMask", parameters: ["inputRadius": .number(5000), "inputIntensity": .number(1)])
        let p = try TestImages.pixel(sharp, x: 32, y: 32).w
        #expect(abs(p - (2 - Float(64 * 64 / (2 * Double.pi * 25e6)))) < 1e-4, "\(p)")
    }

    /// Heavy in the sweep (7–12 s on a photo): bounded by their own caps, finishing on a small image.
    @Test func hugeRadiiOfBoxPointillizeCrystallize() throws {
        let small = TestImages.pattern()
        for name in ["CIBoxBlur", "CIPointillize", "CICrystallize", "CIDiscBlur", "CIMotionBlur", "CIMorphologyMaximum"] {
            let out = try small.applyingFilter(name, parameters: ["inputRadius": .number(1e9)])
            _ = try Self.renderQuickly(out, out.extent.intersection(Rect(x: -8, y: -8, width: 80, height: 64)), "\(name) 1e9")
        }
    }

    /// Were a hang and 3 GB (a table of dimension³ entries) or an abort: a cube has 2…128 entries a side.
    @Test func colourCubeDimensionOutOfReach() throws {
        for dimension in [-1e9, -1, 1, 129, 1e9, 1e30] {
            let text = Self.message { _ = try Self.photo.applyingFilter("CIColorCube", parameters: ["inputCubeDimension": .number(dimension)]) }
            #expect(text.contains("inputCubeDimension") && text.contains("2…128"), "\(dimension): \(text)")
        }
        _ = try Self.photo.applyingFilter("CIColorCube", parameters: ["inputCubeDimension": .number(64)])
    }

    /// Were aborts: the padding or quiet space made a buffer of 2e9 × 2e9 pixels when the filter was applied.
    @Test func hugePaddingsAreExtentNotMemory() throws {
        let text = try TestImages.filter("CITextImageGenerator", ["inputText": .string("Hi"), "inputPadding": .number(1e9)])
        #expect(text.extent.width > 2e9)
        _ = try Self.renderQuickly(text, Rect(x: 0, y: 0, width: 64, height: 64), "text padding 1e9")
        #expect(Self.message { _ = try TestImages.render(text, text.extent) }.contains("--max-pixels"))
        let bars = try TestImages.filter("CICode128BarcodeGenerator", ["inputMessage": .string("Hi"), "inputQuietSpace": .number(1e9),
                                                                       "inputBarcodeHeight": .number(1e30)])
        _ = try Self.renderQuickly(bars, Rect(x: 0, y: 0, width: 64, height: 64), "code 128 quiet space 1e9")
        // The usual layout is unchanged: 1 module a pixel, quiet space on all four sides, bars dark.
        let normal = try TestImages.filter("CICode128BarcodeGenerator", ["inputMessage": .string("Hello world"),
                                                                         "inputQuietSpace": .number(20), "inputBarcodeHeight": .number(100)])
        #expect(normal.extent == Rect(x: 0, y: 0, width: 196, height: 140))
        #expect(try TestImages.pixel(normal, x: 20, y: 70).x == 0 && TestImages.pixel(normal, x: 19, y: 70).x == 1)
        #expect(try TestImages.pixel(normal, x: 20, y: 19).x == 1)
    }

    // MARK: The budget

    @Test func budgetErrorsNameTheFilterAndTheWayOut() throws {
        let blur = try TestImages.pattern().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(40)])
        let tight = RenderContext(options: .init(maxPixels: 1000))
        let output = Self.message { _ = try tight.render(blur, rect: Rect(x: 0, y: 0, width: 40, height: 40)) }
        #expect(output == "the output (made by CIGaussianBlur with inputRadius = 40) needs 40×40 = 1600 pixels; "
            + "the limit is 1000 (raise it with --max-pixels or CIFILTERTEST_MAX_PIXELS)", "\(output)")
        // An intermediate: a 20×20 crop of a blurred generator reads a much larger region of the generator.
        let noise = try Filter(named: "CIRandomGenerator").makeOutputImage()
        let blurredNoise = try noise.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(40)])
        let intermediate = Self.message {
            _ = try RenderContext(options: .init(maxPixels: 1000)).render(blurredNoise, rect: Rect(x: 0, y: 0, width: 20, height: 20))
        }
        #expect(intermediate.hasPrefix("an intermediate read by CIGaussianBlur with inputRadius = 40 needs "), "\(intermediate)")
        let bytes = Self.message {
            _ = try RenderContext(options: .init(maxBytes: 100)).render(blur, rect: Rect(x: 0, y: 0, width: 20, height: 20))
        }
        #expect(bytes.contains("CIFILTERTEST_MAX_BYTES") && bytes.contains("CIGaussianBlur"), "\(bytes)")
        // Within the limits the same render works, and raising a limit is all it takes.
        _ = try RenderContext(options: .init(maxPixels: 1 << 20)).render(blur, rect: Rect(x: 0, y: 0, width: 40, height: 40))
    }

    @Test func defaultsAllowAHundredMegapixelPhoto() {
        let options = RenderContext.Options()
        #expect(options.maxPixels >= 100_000_000)
        #expect(options.maxBytes >= 100_000_000 * MemoryLayout<Pixel>.stride * 3)
        #expect(options.maxBytes <= 8 << 30)
    }

    @Test func environmentLimitsAreRead() {
        setenv("CIFILTERTEST_TEST_LIMIT", "1e9", 1)
        #expect(RenderContext.Options.environmentLimit("CIFILTERTEST_TEST_LIMIT") == 1_000_000_000)
        setenv("CIFILTERTEST_TEST_LIMIT", "lots", 1)
        #expect(RenderContext.Options.environmentLimit("CIFILTERTEST_TEST_LIMIT") == nil)
        unsetenv("CIFILTERTEST_TEST_LIMIT")
    }

    @Test func aTimeLimitStopsALongRender() throws {
        let noise = try Filter(named: "CIRandomGenerator").makeOutputImage()
        let slow = try noise.applyingFilter("CIBoxBlur", parameters: ["inputRadius": .number(30)])
        let context = RenderContext(options: .init(threads: 1, bandHeight: 1, timeLimit: 0.000_001))
        let text = Self.message { _ = try context.render(slow, rect: Rect(x: 0, y: 0, width: 512, height: 512)) }
        #expect(text.contains("time limit"), "\(text)")
    }

    // MARK: Conversions

    @Test func saturatingConversions() {
        #expect(Int(saturating: Double.nan) == 0)
        #expect(Int(saturating: Double.infinity) == saturationLimit)
        #expect(Int(saturating: -1e300) == -saturationLimit)
        #expect(Int(saturating: 1e30 as Float) == saturationLimit)
        #expect(Int(saturating: -2.7) == -2)
        #expect(Int32(saturating: Float.infinity) == 2_147_483_520)
        #expect(Int32(saturating: -Float.infinity) == Int32.min)
        #expect(Int32(saturating: Float.nan) == 0)
    }
}

private extension Image {
    /// The pixel of a constant image (working space).
    var kindPixel: Pixel {
        if case .constant(let p) = kind { return p }
        return Pixel(0, 0, 0, 0)
    }
}
