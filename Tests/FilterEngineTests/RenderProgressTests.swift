import Foundation
import Testing
@testable import FilterEngine

/// A render followed through its `RenderCancellation`: nothing done before, all done after, the same pixels as
/// a render without it; a cancelled one stops.
@Suite struct RenderProgressTests {
    static func blurred() throws -> Image {
        let source = Image(color: Color(red: 0.2, green: 0.5, blue: 0.8, alpha: 1)).cropped(to: Rect(x: 0, y: 0, width: 300, height: 200))
        let blur = try Filter(named: "CIGaussianBlur")
        try blur.setValue(.image(source), forKey: "inputImage")
        try blur.setValue(.number(8), forKey: "inputRadius")
        return try blur.makeOutputImage()
    }

    @Test func progressGoesFromNothingToAllAndLeavesThePixelsAlone() throws {
        let image = try Self.blurred()
        let rect = Rect(x: 0, y: 0, width: 300, height: 200)
        let progress = RenderCancellation()
        #expect(progress.fractionDone == 0)
        let context = RenderContext(options: .init(threads: 2, bandHeight: 10))
        let followed = try context.renderRGBA8(image, rect: rect, cancellation: progress)
        #expect(progress.fractionDone == 1)
        #expect(followed.bytes == (try context.renderRGBA8(image, rect: rect)).bytes)
    }

    @Test func aCancelledRenderStops() throws {
        let progress = RenderCancellation()
        progress.cancel()
        #expect(throws: RenderError.self) {
            try RenderContext().renderRGBA8(try Self.blurred(), rect: Rect(x: 0, y: 0, width: 300, height: 200), cancellation: progress)
        }
    }
}
