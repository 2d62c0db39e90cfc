import Foundation
import Testing
@testable import FilterEngine

/// Halftone screens: paper and ink at known points of the pattern, white and black kept.
@Suite struct HalftoneTests {
    static let screens = ["CIDotScreen", "CILineScreen", "CIHatchedScreen", "CICircularScreen", "CICMYKHalftone"]
    static func flat(_ v: Float, _ size: Int = 40) -> Image { TestImages.make(width: size, height: size) { _, _ in Pixel(v, v, v, 1) } }

    @Test func whiteStaysWhiteAndBlackStaysBlack() throws {
        for name in Self.screens {
            for sharpness in [0.0, 0.7, 1.0] {
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

    /// Mid grey, width 20, sharpness 1, centre on pixel (0, 0)'s centre: a dot (or line, or ring) is inked at
    /// offset 0 and paper shows half a period away.
    @Test func inkAtThePatternsHeartPaperHalfAPeriodAway() throws {
        let grey = Self.flat(0.5)
        func render(_ name: String, _ extra: [String: FilterValue] = [:]) throws -> Image {
            var values: [String: FilterValue] = ["inputImage": .image(grey), "inputWidth": .number(20),
                                                 "inputSharpness": .number(1), "inputCenter": .vector([0.5, 0.5])]
            values.merge(extra) { $1 }
            return try TestImages.filter(name, values)
        }
        let black = Pixel(0, 0, 0, 1), white = Pixel(1, 1, 1, 1)
        let dots = try render("CIDotScreen")
        #expect(close(try TestImages.pixel(dots, x: 0, y: 0), black))
        #expect(close(try TestImages.pixel(dots, x: 20, y: 20), black))
        #expect(close(try TestImages.pixel(dots, x: 10, y: 10), white))
        let lines = try render("CILineScreen")
        #expect(close(try TestImages.pixel(lines, x: 7, y: 0), black))
        #expect(close(try TestImages.pixel(lines, x: 7, y: 10), white))
        // Rotated by 90°, the lines run vertically.
        let turned = try render("CILineScreen", ["inputAngle": .number(Double.pi / 2)])
        #expect(close(try TestImages.pixel(turned, x: 10, y: 7), white))
        #expect(close(try TestImages.pixel(turned, x: 0, y: 7), black))
        let rings = try render("CICircularScreen")
        #expect(close(try TestImages.pixel(rings, x: 0, y: 0), black))
        #expect(close(try TestImages.pixel(rings, x: 6, y: 8), white)) // distance 10: half a period
        #expect(close(try TestImages.pixel(rings, x: 12, y: 16), black)) // distance 20
        let hatched = try render("CIHatchedScreen")
        #expect(close(try TestImages.pixel(hatched, x: 10, y: 10), white))
        #expect(close(try TestImages.pixel(hatched, x: 10, y: 0), black))
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
