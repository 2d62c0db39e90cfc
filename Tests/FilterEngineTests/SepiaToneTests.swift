import Foundation
import Testing
@testable import FilterEngine

/// CISepiaTone's shape (its curves are fitted to Apple's three renders, which ConformanceTests compares with).
@Suite struct SepiaToneTests {
    @Test func greyRampIsBrownAndMonotonic() throws {
        // Apple's renders: a neutral input turns brown (red > green > blue), black stays black, white stays
        // nearly white, and each channel rises with the luminance.
        let ramp = TestImages.make(width: 11, height: 1) { x, _ in let v = Float(x) / 10; return Pixel(v, v, v, 1) }
        let out = try TestImages.render(try TestImages.filter("CISepiaTone", ["inputImage": .image(ramp)]))
        var previous = Pixel(-1, -1, -1, 1)
        for x in 0..<11 {
            let p = out.pixel(x: x, y: 0)
            if x > 0 && x < 10 { #expect(p.x > p.y && p.y > p.z) }
            #expect(p.x > previous.x && p.y > previous.y && p.z > previous.z)
            previous = p
        }
        #expect(close(out.pixel(x: 0, y: 0), Pixel(0, 0, 0, 1)))
        #expect(close(out.pixel(x: 10, y: 0), Pixel(1.005, 0.993, 0.923, 1)))
    }
}
