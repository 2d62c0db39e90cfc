import CPixelLoops
import Foundation
import Testing
@testable import FilterEngine
@testable import FilterPipeline

/// The scale transforms' fixed-point path for 8-bit pictures (`Resampling.fixedPointFromSource8`) against the
/// float passes: what a user sees (the 8-bit output) within one level on every channel.
extension SpeedPathTests {
    /// The largest difference of two 8-bit renders of the same rectangle, in levels (any channel).
    static func levels(_ a: Image, _ b: Image, rect: Rect) throws -> Int {
        let x = try TestImages.context.renderRGBA8(a, rect: rect).bytes
        let y = try TestImages.context.renderRGBA8(b, rect: rect).bytes
        return zip(x, y).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    static func isFixedPoint(_ image: Image) -> Bool {
        if case .general(let kernel, _) = image.kind { return kernel.name == "resample8" }
        return false
    }

    /// `image` scaled by each filter at each scale takes the fixed path and stays within one level of the floats.
    static func expectFixedPointWithinOneLevel(_ image: Image, _ name: String, filters: [Resampling.Filter],
                                               scales: [(Double, Double)]) throws {
        for filter in filters {
            for (sx, sy) in scales {
                let fixed = Resampling.scale(image, sx: sx, sy: sy, filter: filter)
                let float = Resampling.scale(image, sx: sx, sy: sy, filter: filter, arithmetic: .float)
                #expect(isFixedPoint(fixed))
                let worst = try levels(fixed, float, rect: fixed.extent)
                #expect(worst <= 1, "\(name) \(filter) \(sx) × \(sy): \(worst) levels")
                // Rendered to 8 bits the fixed path writes its bytes itself; through a float intermediate (a crop
                // as the root) they are the same.
                let intermediate = Image(extent: fixed.extent, kind: .crop(fixed, PixelRect(covering: fixed.extent)))
                #expect(try levels(fixed, intermediate, rect: fixed.extent) == 0, "\(name) \(filter) \(sx) × \(sy)")
            }
        }
    }

    /// Every sample photo at the scales of common use, shrinking and enlarging, equal and unequal axes, with
    /// both weighted filters: within one level of the float passes, and the fixed path really taken.
    @Test(arguments: ["astronaut.png", "chelsea.png", "coffee.png"])
    func fixedPointScaleStaysWithinOneLevelOnPhotos(_ name: String) throws {
        let path = Self.samples.appendingPathComponent(name).path
        try #require(FileManager.default.fileExists(atPath: path), "sample photo \(name) missing")
        let photo = try ImageFile.read(path)
        try Self.expectFixedPointWithinOneLevel(photo, name, filters: [.lanczos3, .cubic(b: 0, c: 0.75)],
                                                scales: [(0.5, 0.5), (0.33, 0.33), (0.75, 0.75), (1.7, 1.7), (0.6, 1.3), (0.21, 0.5)])
    }

    /// Edge cases: 1-pixel pictures and lines, alpha (partial and zero, premultiplied), tiny and large scales,
    /// render rectangles reaching outside the extent and tiles inside it, a hard black–white edge (the most
    /// ringing); the fixed path taken exactly where `fixedPointHolds` says; opaque pictures stay exactly opaque.
    @Test func fixedPointScaleEdgeCases() throws {
        func picture(_ width: Int, _ height: Int, alpha: Bool) -> Image {
            var bytes = [UInt8](repeating: 255, count: width * height * 4)
            for i in 0..<width * height {
                bytes[4 * i] = UInt8(i * 7 % 256); bytes[4 * i + 1] = UInt8(i * 13 % 256)
                bytes[4 * i + 2] = (i / 3) % 2 == 0 ? 0 : 255
                if alpha { bytes[4 * i + 3] = i % 9 == 0 ? 90 : (i % 7 == 0 ? 0 : 255) }
            }
            return TestImages.rgba8(width: width, height: height, bytes: bytes)
        }
        let pictures = [picture(1, 1, alpha: false), picture(1, 1, alpha: true), picture(1, 9, alpha: false),
                        picture(13, 1, alpha: true), picture(37, 23, alpha: true), picture(37, 23, alpha: false),
                        picture(64, 48, alpha: false)]
        let scales = [(0.5, 0.5), (0.33, 0.33), (0.75, 0.75), (1.7, 1.7), (0.01, 0.02), (9.5, 3), (0.5, 2), (0.1, 0.5)]
        for (p, image) in pictures.enumerated() {
            guard case .source(let pixels) = image.kind else { Issue.record("picture \(p) is not a source"); continue }
            for (sx, sy) in scales {
                let fixed = Resampling.scale(image, sx: sx, sy: sy, filter: .lanczos3)
                let float = Resampling.scale(image, sx: sx, sy: sy, filter: .lanczos3, arithmetic: .float)
                // Translucent pictures and scales below the smallest take the float passes.
                let expected = pixels.isOpaque && min(sx, sy) >= Resampling.fixedPointSmallestScale
                #expect(Self.isFixedPoint(fixed) == expected, "picture \(p) \(sx) × \(sy)")
                #expect(fixed.extent == float.extent)
                let e = fixed.extent
                for rect in [e, e.insetBy(dx: -5, dy: -3), Rect(x: e.minX + 1, y: e.minY, width: e.width / 2, height: e.height),
                             Rect(x: e.maxX + 2, y: e.minY, width: 4, height: 4)] where !rect.isEmpty && rect.width >= 1 {
                    let worst = try Self.levels(fixed, float, rect: rect)
                    #expect(worst <= 1, "picture \(p) \(sx) × \(sy) rect \(rect): \(worst) levels")
                }
            }
        }
        // An opaque picture gives alpha exactly 1 (the integer weights sum to exactly one).
        let opaque = try TestImages.render(Resampling.scale(pictures[6], sx: 0.45, sy: 0.8, filter: .lanczos3))
        #expect((0..<opaque.rect.area).allSatisfy { opaque.pixels[$0].w == 1 })
        // Zero and non-finite scales, an axis left alone and the maximum filter take the float passes (or give empty).
        #expect(Resampling.scale(pictures[4], sx: .nan, sy: 1, filter: .lanczos3).extent.isEmpty)
        #expect(!Self.isFixedPoint(Resampling.scale(pictures[5], sx: 0.5, sy: 0.5, filter: .maximum)))
        #expect(!Self.isFixedPoint(Resampling.scale(pictures[5], sx: 0, sy: 0, filter: .lanczos3)))
        #expect(!Self.isFixedPoint(Resampling.scale(pictures[5], sx: 1, sy: 0.5, filter: .lanczos3)))
    }

    /// The worst opaque pictures for the fixed point, at the smallest scale it takes and above: black–white noise
    /// (every tap's rounding error at full weight, the most ringing) and dark noise (where a level is narrowest
    /// in linear light); within one level of the float passes with both weighted filters.
    @Test func fixedPointHoldsOnNoiseDownToTheSmallestScale() throws {
        var state: UInt64 = 0x9e3779b97f4a7c15
        func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        func noise(dark: Bool) -> Image {
            var bytes = [UInt8](repeating: 255, count: 160 * 120 * 4)
            for i in 0..<160 * 120 {
                for c in 0..<3 { bytes[4 * i + c] = dark ? next() % 24 : (next() & 1) * 255 }
            }
            return TestImages.rgba8(width: 160, height: 120, bytes: bytes)
        }
        let smallest = Resampling.fixedPointSmallestScale
        for (name, image) in [("black–white", noise(dark: false)), ("dark", noise(dark: true))] {
            try Self.expectFixedPointWithinOneLevel(image, name, filters: [.lanczos3, .cubic(b: 0, c: 0.75), .cubic(b: 1.0 / 3, c: 1.0 / 3)],
                                                    scales: [(smallest, smallest), (smallest, 1.9), (0.29, 0.41), (0.5, 0.5), (0.8, 0.7), (2.5, 3)])
        }
    }

    /// An output's integers do not depend on the band it is rendered in: whole, in bands of 5 rows on 3 threads
    /// and of 1 row, the same floats (the weights' scale is chosen once an axis, not once a band).
    @Test func fixedPointIsTheSameInEveryBand() throws {
        let photo = try ImageFile.read(Self.samples.appendingPathComponent("chelsea.png").path)
        guard case .source(let pixels) = photo.kind, case .rgba8(let memory) = pixels.storage else {
            Issue.record("chelsea.png is not an 8-bit source"); return
        }
        for (sx, sy) in [(0.5, 0.5), (0.062, 0.062), (0.3, 1.7), (4, 0.25)] {
            let image = Resampling.fixedPointFromSource8(photo, pixels, memory, sx: sx, sy: sy, filter: .lanczos3)
            let whole = try TestImages.render(image, context: RenderContext(options: .init(threads: 1, bandHeight: 10_000)))
            for (threads, band) in [(3, 5), (1, 1)] {
                let banded = try TestImages.render(image, context: RenderContext(options: .init(threads: threads, bandHeight: band)))
                #expect(TestImages.maxDifference(whole, banded) == 0, "\(sx) × \(sy), \(threads) threads, bands of \(band)")
            }
        }
    }

    /// The decode table gives the working space's values in fixed point: every byte survives the round trip
    /// through the float encode, and a constant picture stays exactly that constant through the fixed path.
    @Test func fixedPointConstantsStayConstant() throws {
        for value: UInt8 in [0, 1, 2, 17, 128, 254, 255] {
            let pixel: [UInt8] = [value, 255 - value, value / 2, 255]
            let bytes = [[UInt8]](repeating: pixel, count: 40 * 30).flatMap { $0 }
            let image = TestImages.rgba8(width: 40, height: 30, bytes: bytes)
            let out = try TestImages.context.renderRGBA8(Resampling.scale(image, sx: 0.37, sy: 1.4, filter: .lanczos3),
                                                         rect: Rect(x: 0, y: 0, width: 14, height: 42)).bytes
            let expected = [[UInt8]](repeating: pixel, count: 14 * 42).flatMap { $0 }
            #expect(out == expected, "value \(value)")
        }
    }

    /// The row decode (byte permutes with AVX-512, word sums otherwise) gives each pixel the sum of its three
    /// words: every byte in every channel, rows of lengths that are no multiple of 16.
    @Test func fixedDecodeGivesTheWordsSums() {
        let words = Resampling.fixedDecodeWords
        for count in [1, 15, 16, 17, 256, 300] {
            var bytes: [UInt8] = []
            for i in 0..<count {
                let r = i % 256, g = (i * 7 + 3) % 256, b = 255 - i % 256, a = (i * 13) % 256
                bytes += [UInt8(r), UInt8(g), UInt8(b), UInt8(a)]
            }
            var out = [Int16](repeating: 0, count: 4 * count)
            words.withUnsafeBufferPointer { w in
                pixelloops_fixed_decode_opaque_rgba(bytes, Int32(count), w.baseAddress!, &out)
            }
            for i in 0..<count {
                let red = words[Int(bytes[4 * i])], green = words[256 + Int(bytes[4 * i + 1])]
                let sum = red &+ green &+ words[512 + Int(bytes[4 * i + 2])]
                let expected = (0..<4).map { Int16(truncatingIfNeeded: sum >> (16 * $0)) }
                #expect(Array(out[(4 * i)..<(4 * i + 4)]) == expected, "pixel \(i) of \(count)")
            }
        }
    }
}
