import Foundation
import Testing
@testable import FilterEngine

/// The filters the visual review found wrong (../shared/reviews/visual-review.md), checked on what was wrong.
@Suite struct LookFixesTests {
    static func render(_ image: Image, _ rect: Rect) throws -> PixelBuffer { try TestImages.render(image, rect) }

    @Test func starShineIsABrightStarWithLongVisibleRays() throws {
        // The Xamarin sample's Apple render: radius 20, other inputs at their defaults; a white star whose rays
        // cross most of a 320-pixel frame.
        let star = try TestImages.filter("CIStarShineGenerator", ["inputRadius": .number(20)])
        let core = try TestImages.pixel(star, x: 150, y: 150)
        #expect(core.x >= 1 && core.y >= 1 && core.z >= 1 && core.w == 1)
        // Along the ray at 0.6 rad, 100 px (5 radii) out: clearly visible; the same distance off the rays: dark.
        let (c, s) = (cos(0.6), sin(0.6))
        let onRay = try TestImages.pixel(star, x: Int(150 + 100 * c), y: Int(150 + 100 * s))
        let offRay = try TestImages.pixel(star, x: Int(150 + 100 * cos(0.6 + .pi / 4)), y: Int(150 + 100 * sin(0.6 + .pi / 4)))
        #expect(onRay.w > 0.5, "on the ray: \(onRay)")
        #expect(offRay.w < 0.1, "between the rays: \(offRay)")
        // The perpendicular ray too, and still visible 200 px out.
        let far = try TestImages.pixel(star, x: Int(150 - 200 * s), y: Int(150 + 200 * c))
        #expect(far.w > 0.15, "far along the second ray: \(far)")
    }
}
