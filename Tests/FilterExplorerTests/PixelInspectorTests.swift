import FilterEngine
@testable import FilterExplorer
import Testing

/// The pixel reading the inspector and the details pane show, and the cursor's bounds.
struct PixelInspectorTests {
    @Test func readingsAreTheEnginesFloatsAndTheEncodersBytes() throws {
        let board = try Filter(named: "CICheckerboardGenerator")
        try board.setValue(.vector([0, 0]), forKey: "inputCenter")
        try board.setValue(.number(2), forKey: "inputWidth")
        let image = try board.makeOutputImage()
        let context = RenderContext()
        // A 4×2 block: bottom row first, left to right, with bottom-left coordinates.
        let readings = try PixelReading.read(image, rect: Rect(x: 0, y: 0, width: 4, height: 2), context: context)
        #expect(readings.map(\.x) == [0, 1, 2, 3, 0, 1, 2, 3])
        #expect(readings.map(\.y) == [0, 0, 0, 0, 1, 1, 1, 1])
        // Squares 2 pixels wide from (0,0): x 0–1 one colour, 2–3 the other; the rows agree at this height.
        #expect(readings[0].srgb8 == readings[1].srgb8 && readings[2].srgb8 == readings[3].srgb8)
        #expect(readings[0].srgb8 != readings[2].srgb8)
        #expect(Set([readings[0].srgb8, readings[2].srgb8]) == [[255, 255, 255, 255], [0, 0, 0, 255]])
        // The bytes are the 8-bit encoder's for the same pixel; the floats the engine's.
        let (bytes, _, _) = try context.renderRGBA8(image, rect: Rect(x: 2, y: 1, width: 1, height: 1))
        #expect(readings[6].srgb8 == bytes)
        let p = try context.render(image, rect: Rect(x: 2, y: 1, width: 1, height: 1)).pixel(x: 2, y: 1)
        #expect(readings[6].linear == [p.x, p.y, p.z, p.w])
        #expect(readings[0].description.hasPrefix("(0,0) linear RGBA ") && readings[0].description.contains(" · sRGB 8-bit "))
    }

    @Test func theCursorStaysInsideTheOutput() {
        let rect = Rect(x: -10, y: 5, width: 20, height: 10)
        #expect(PixelInspector.clamped(x: 0, y: 8, to: rect) == (0, 8))
        #expect(PixelInspector.clamped(x: -50, y: 100, to: rect) == (-10, 14))
        #expect(PixelInspector.clamped(x: 10, y: 5, to: rect) == (9, 5))
    }
}
