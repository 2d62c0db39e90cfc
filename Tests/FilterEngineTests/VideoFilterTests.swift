import Foundation
import Testing
@testable import FilterEngine

/// Our video filters (Catalog/custom-filters.json) on images with known answers, read back as sRGB-encoded values.
@Suite struct VideoFilterTests {
    /// An 8-bit sRGB image from encoded levels (0…255) per pixel, y up.
    static func levels(width: Int, height: Int, _ level: (Int, Int) -> (Int, Int, Int)) -> Image {
        var bytes: [UInt8] = []
        for row in 0..<height {
            for x in 0..<width {
                let (r, g, b) = level(x, height - 1 - row)
                bytes += [UInt8(r), UInt8(g), UInt8(b), 255]
            }
        }
        return TestImages.rgba8(width: width, height: height, bytes: bytes)
    }

    /// The encoded (0…1) red, green and blue of every pixel, row by row from the bottom.
    static func encoded(_ image: Image) throws -> [SIMD3<Float>] {
        let buffer = try TestImages.render(image)
        return (0..<buffer.rect.area).map { i in
            let p = ColorMath.unpremultiplied(buffer.pixels[i])
            return SIMD3(ColorMath.sRGB(fromLinear: p.x), ColorMath.sRGB(fromLinear: p.y), ColorMath.sRGB(fromLinear: p.z))
        }
    }

    @Test func aTwoLevelImageEqualisesToBlackAndWhite() throws {
        let image = Self.levels(width: 16, height: 8) { x, _ in x < 6 ? (64, 64, 64) : (191, 191, 191) }
        let output = try Self.encoded(try TestImages.filter("HistogramEqualization", ["inputImage": .image(image)]))
        for (i, p) in output.enumerated() {
            let expected: Float = i % 16 < 6 ? 0 : 1
            #expect(abs(p.x - expected) < 1e-3 && abs(p.y - expected) < 1e-3 && abs(p.z - expected) < 1e-3, "pixel \(i): \(p)")
        }
    }

    /// Per channel, each channel's two levels go to 0 and 1 on their own; on the luma, the colour's chroma is kept
    /// (R' − G' is unchanged where nothing clips).
    @Test func perChannelAndLumaModes() throws {
        let image = Self.levels(width: 8, height: 4) { x, _ in x < 4 ? (50, 100, 150) : (90, 130, 170) }
        let each = try Self.encoded(try TestImages.filter("HistogramEqualization", ["inputImage": .image(image), "inputPerChannel": .number(1)]))
        #expect(each.allSatisfy { p in [p.x, p.y, p.z].allSatisfy { abs($0) < 1e-3 || abs($0 - 1) < 1e-3 } })
        #expect(abs(each[0].x) < 1e-3 && abs(each[7].z - 1) < 1e-3)
        let luma = try Self.encoded(try TestImages.filter("HistogramEqualization", ["inputImage": .image(image)]))
        // The dark colour's Y' (93.01/255) maps to 0: G' loses as much, 100 → 6.99 (R' clips at 0); the light
        // colour's goes to 1, which takes G' past 1 (clipped).
        #expect(abs(luma[0].y * 255 - 6.99) < 0.5 && luma[0].x == 0 && luma[7].y > 0.999, "\(luma[0] * 255) \(luma[7] * 255)")
        let half = try Self.encoded(try TestImages.filter("HistogramEqualization", ["inputImage": .image(image), "inputAmount": .number(0.5)]))
        // Half the change: R' − G' of the light colour is kept while Y' moves half way.
        #expect(abs((half[7].x - half[7].y) - (90 - 130) / 255) < 2e-3, "\(half[7])")
    }

    @Test func aUniformRampIsLeftNearlyUnchanged() throws {
        let image = Self.levels(width: 256, height: 2) { x, _ in (x, x, x) }
        let output = try Self.encoded(try TestImages.filter("HistogramEqualization", ["inputImage": .image(image)]))
        for (i, p) in output.enumerated() {
            #expect(abs(p.y - Float(i % 256) / 255) < 0.6 / 255, "level \(i % 256): \(p.y * 255)")
        }
    }

    /// A low-contrast image (levels 100…155 in smooth waves): CLAHE just above clip limit 1 is near the identity,
    /// a limit of 4 spreads the levels (more contrast), and the whole image equalised spreads them most.
    @Test func claheClipLimitControlsTheContrast() throws {
        let image = Self.levels(width: 96, height: 64) { x, y in
            let v = 128 + Int(27 * sin(Double(x) / 7) * cos(Double(y) / 11))
            return (v, v, v)
        }
        let input = try Self.encoded(image)
        func spread(_ pixels: [SIMD3<Float>]) -> Float {
            let mean = pixels.reduce(0) { $0 + $1.y } / Float(pixels.count)
            return (pixels.reduce(0) { $0 + ($1.y - mean) * ($1.y - mean) } / Float(pixels.count)).squareRoot()
        }
        func clahe(_ clip: Double) throws -> [SIMD3<Float>] {
            try Self.encoded(try TestImages.filter("AdaptiveHistogramEqualization", [
                "inputImage": .image(image), "inputClipLimit": .number(clip), "inputTileCount": .number(4)]))
        }
        let near = try clahe(1.0001)
        let worst = zip(input, near).map { abs($0.y - $1.y) }.max()!
        #expect(worst < 1.5 / 255, "clip 1.0001 changed a pixel by \(worst * 255)/255")
        let strong = try clahe(4)
        let global = try Self.encoded(try TestImages.filter("HistogramEqualization", ["inputImage": .image(image)]))
        #expect(spread(strong) > 1.5 * spread(input), "\(spread(input)) → \(spread(strong))")
        #expect(spread(global) > spread(input))
        // Identity at the catalogue's identity value.
        let identity = try TestImages.filter("AdaptiveHistogramEqualization", ["inputImage": .image(image), "inputClipLimit": .number(1)])
        #expect(identity === image)
    }

    /// Whole-image operation: a crop of the output is the same region of the whole output (the region of interest
    /// is the whole input), and the extent is the input's.
    @Test func equalisationReadsTheWholeImage() throws {
        let image = TestImages.pattern(width: 40, height: 30)
        for name in ["HistogramEqualization", "AdaptiveHistogramEqualization"] {
            let output = try TestImages.filter(name, ["inputImage": .image(image)])
            #expect(output.extent == image.extent)
            let whole = try TestImages.render(output)
            let corner = Rect(x: 30, y: 20, width: 10, height: 10)
            let part = try TestImages.render(output, corner)
            for y in 20..<30 { for x in 30..<40 { #expect(close(part.pixel(x: x, y: y), whole.pixel(x: x, y: y), tolerance: 1e-6), "\(name) \(x),\(y)") } }
        }
    }

    /// BT.709 Y'CbCr of known colours, side by side: grey 128 shows its level as Y' and 0.5 as Cb and Cr; pure red Y' 0.2126,
    /// Cb 0.5 − 0.2126 / 1.8556, Cr 1.
    @Test func splitViewShowsLumaAndChromaSideBySide() throws {
        let image = Self.levels(width: 4, height: 2) { x, _ in x < 2 ? (255, 0, 0) : (128, 128, 128) }
        let output = try TestImages.filter("YCbCrSplitView", ["inputImage": .image(image)])
        #expect(output.extent == Rect(x: 0, y: 0, width: 12, height: 2))
        let pixels = try Self.encoded(output)
        let grey = Float(128) / 255
        let expected: [(Int, Float)] = [(0, 0.2126), (2, grey), (4, 0.5 - 0.2126 / 1.8556), (6, 0.5), (8, 1), (10, 0.5)]
        for (x, value) in expected {
            let p = pixels[x]
            #expect(abs(p.x - value) < 2e-3 && p.x == p.y && p.y == p.z, "x \(x): \(p), expected \(value)")
        }
    }
}
