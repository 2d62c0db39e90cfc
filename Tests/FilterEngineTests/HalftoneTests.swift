import Foundation
import Testing
@testable import FilterEngine

/// Halftone screens: paper and ink at known points of the pattern, white and black kept, and the threshold rule
/// fitted on Apple's iOS 7 renders (paper = clamp(v·(luma − 0.5 + p) + 0.5), v = 1 / (1 − sharpness)).
@Suite struct HalftoneTests {
    static let screens = ["CIDotScreen", "CILineScreen", "CIHatchedScreen", "CICircularScreen", "CICMYKHalftone"]
    static func flat(_ v: Float, _ size: Int = 40) -> Image { TestImages.make(width: size, height: size) { _, _ in Pixel(v, v, v, 1) } }

    @Test func whiteStaysWhiteAndBlackStaysBlack() throws {
        for name in Self.screens {
            // Only at the steep limit: with the threshold rule fitted on Apple's renders the pattern itself
            // shows in white and black until v · (0.5 − amplitude) ≥ 0.5 (about sharpness 0.77 for the line and
            // ring profile, amplitude 0.3849, whose full swing a continuous radius reaches).
            for sharpness in [1.0] {
                for (v, expected) in [(Float(1), Pixel(1, 1, 1, 1)), (0, Pixel(0, 0, 0, 1))] {
                    let out = try TestImages.filter(name, ["inputImage": .image(Self.flat(v)), "inputSharpness": .number(sharpness)])
                    #expect(out.extent == Self.flat(v).extent)
                    let buffer = try TestImages.render(out)
                    for i in 0..<buffer.rect.area where !close(buffer.pixels[i], expected) {
                        Issue.record("\(name) sharpness \(sharpness) of \(v): \(buffer.pixels[i]) at \(i)")
                        break
                    }
                }
            }
        }
    }

    /// Mid grey, width 20, sharpness 1, centre on pixel (0, 0)'s centre. Lines: a paper line through the
    /// centre, ink half a period away, vertical at angle 0. Dots: neither at the centre (the sines vanish), ink a
    /// quarter period up and right, paper three quarters. Rings: paper at the centre.
    @Test func inkAndPaperWhereCoreImagePutsThem() throws {
        let grey = Self.flat(0.5)
        func render(_ name: String, _ extra: [String: FilterValue] = [:]) throws -> Image {
            var values: [String: FilterValue] = ["inputImage": .image(grey), "inputWidth": .number(20),
                                                 "inputSharpness": .number(1), "inputCenter": .vector([0.5, 0.5])]
            values.merge(extra) { $1 }
            return try TestImages.filter(name, values)
        }
        let black = Pixel(0, 0, 0, 1), white = Pixel(1, 1, 1, 1), mid = Pixel(0.5, 0.5, 0.5, 1)
        let dots = try render("CIDotScreen")
        #expect(close(try TestImages.pixel(dots, x: 0, y: 0), mid, tolerance: 1e-3))
        #expect(close(try TestImages.pixel(dots, x: 5, y: 5), black))
        #expect(close(try TestImages.pixel(dots, x: 15, y: 15), white))
        #expect(close(try TestImages.pixel(dots, x: 25, y: 5), black))
        let lines = try render("CILineScreen")
        #expect(close(try TestImages.pixel(lines, x: 0, y: 7), white))
        #expect(close(try TestImages.pixel(lines, x: 10, y: 7), black))
        #expect(close(try TestImages.pixel(lines, x: 20, y: 13), white))
        // Turned by 90°, the lines run horizontally.
        let turned = try render("CILineScreen", ["inputAngle": .number(Double.pi / 2)])
        #expect(close(try TestImages.pixel(turned, x: 7, y: 0), white))
        #expect(close(try TestImages.pixel(turned, x: 7, y: 10), black))
        let rings = try render("CICircularScreen")
        #expect(close(try TestImages.pixel(rings, x: 0, y: 0), white))
        #expect(close(try TestImages.pixel(rings, x: 6, y: 8), black)) // distance 10: half a period
        #expect(close(try TestImages.pixel(rings, x: 12, y: 16), white)) // distance 20
        let hatched = try render("CIHatchedScreen")
        #expect(close(try TestImages.pixel(hatched, x: 0, y: 0), white))
        #expect(close(try TestImages.pixel(hatched, x: 10, y: 0), black))
    }

    /// The threshold's values: at sharpness 0.7 (v = 10/3) a flat luma 0.2 shows paper
    /// clamp(v · (0.2 − 0.5 + p) + 0.5) with p = 0.3849 on the line screen's paper line, and the dot screen gives
    /// p = −0.17375 · (sin ku + sin kv): at a quarter period along x only, p = −0.17375.
    @Test func thresholdMatchesTheFittedRule() throws {
        let flat = Self.flat(0.2)
        let v: Float = 1 / (1 - 0.7)
        func paper(_ name: String, x: Int, y: Int) throws -> Float {
            let out = try TestImages.filter(name, ["inputImage": .image(flat), "inputWidth": .number(20),
                                                   "inputSharpness": .number(0.7), "inputCenter": .vector([0.5, 0.5])])
            return try TestImages.pixel(out, x: x, y: y).x
        }
        let line = min(max(v * (0.2 - 0.5 + 0.3849) + 0.5, 0), 1)
        #expect(abs(try paper("CILineScreen", x: 0, y: 3) - line) < 2e-3)
        let dot = min(max(v * (0.2 - 0.5 + 0.17375) + 0.5, 0), 1)
        #expect(abs(try paper("CIDotScreen", x: 15, y: 0) - dot) < 2e-3)
        #expect(abs(try paper("CIDotScreen", x: 0, y: 0) - min(max(v * (0.2 - 0.5) + 0.5, 0), 1)) < 2e-3)
    }

    @Test func cmykInksPrimaries() throws {
        // Pure red: cyan 0, magenta and yellow 1, black = GCR × min(c, m, y) = 0. Full magenta and yellow ink
        // cover every point of their screens and no cyan or black is printed, so every pixel is red.
        let red = TestImages.make(width: 30, height: 30) { _, _ in Pixel(1, 0, 0, 1) }
        let out = try TestImages.filter("CICMYKHalftone", ["inputImage": .image(red), "inputSharpness": .number(1)])
        let buffer = try TestImages.render(out)
        for i in 0..<buffer.rect.area {
            #expect(close(buffer.pixels[i], Pixel(1, 0, 0, 1)), "\(buffer.pixels[i])")
        }
    }
}
