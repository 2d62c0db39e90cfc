import Foundation
import Testing
@testable import FilterEngine

/// The blur pyramid's two resampling nodes (their row loops are C) against their definitions, pixel for pixel:
/// block means and bilinear enlargement, on an image with partial alpha away from the origin, read through
/// crops that start spans at every phase of the factor and rows wider than one span.
@Suite struct PyramidResamplingTests {
    /// Pseudo-random premultiplied pixels (some transparent) on a rectangle that starts at negative x.
    static let rect = PixelRect(x: -37, y: 5, width: 181, height: 29)
    static let buffer: PixelBuffer = {
        let buffer = PixelBuffer(rect: rect)
        var state: UInt32 = 12345
        func next() -> Float {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 24)
        }
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                let a: Float = x % 5 == 0 ? 0 : (x % 3 == 0 ? next() : 1)
                buffer.row(y)[x - rect.x] = Pixel(next() * a, next() * a, next() * a, a)
            }
        }
        return buffer
    }()

    @Test(arguments: [2, 3, 4, 8])
    func blockMeansAreTheMeansOfTheirBlocks(factor f: Int) throws {
        let small = Image(buffer: Self.buffer).downsampled(by: f)
        let out = try TestImages.render(small)
        let r = out.rect
        var wrong = 0
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX {
                // The renderer's order: a row's block sum, rows added one by one, then the scale.
                var total = Pixel(0, 0, 0, 0)
                for dy in 0..<f {
                    var sum = Pixel(0, 0, 0, 0)
                    for dx in 0..<f { sum += Self.buffer.pixel(x: x * f + dx, y: y * f + dy) }
                    total += sum
                }
                if out.pixel(x: x, y: y) != total * (1 / Float(f * f)) { wrong += 1 }
            }
        }
        #expect(wrong == 0, "factor \(f): \(wrong) of \(r.area) pixels differ")
    }

    @Test(arguments: [2, 3, 4, 16])
    func enlargementIsBilinear(factor f: Int) throws {
        let source = Image(buffer: Self.buffer)
        let extent = PixelRect(x: Self.rect.x * f - 3, y: Self.rect.y * f - 2, width: Self.rect.width * f + 5,
                               height: Self.rect.height * f + 4)
        let large = source.upsampled(by: f, extent: extent.rect)
        let inv = 1 / Float(f)
        func expected(_ x: Int, _ y: Int) -> Pixel {
            let sy = (Float(y) + 0.5) * inv - 0.5, fy = sy.rounded(.down), ty = sy - fy
            let sx = (Float(x) + 0.5) * inv - 0.5, fx = sx.rounded(.down), tx = sx - fx
            func column(_ k: Int) -> Pixel {
                let below = Self.buffer.pixel(x: k, y: Int(fy)), above = Self.buffer.pixel(x: k, y: Int(fy) + 1)
                return below + (above - below) * ty
            }
            let left = column(Int(fx)), right = column(Int(fx) + 1)
            return left + (right - left) * tx
        }
        // The whole extent (rows of several spans), then crops starting at each phase of the factor.
        var crops = [extent]
        for phase in 0..<min(f, 5) {
            crops.append(PixelRect(x: extent.x + extent.width / 2 + phase, y: extent.y + 7, width: 37 + phase, height: 3))
        }
        for crop in crops {
            let out = try TestImages.render(large, crop.rect)
            var wrong = 0
            for y in crop.y..<crop.maxY {
                for x in crop.x..<crop.maxX where out.pixel(x: x, y: y) != expected(x, y) { wrong += 1 }
            }
            #expect(wrong == 0, "factor \(f), crop \(crop): \(wrong) of \(crop.area) pixels differ")
        }
    }
}
