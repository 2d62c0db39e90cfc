import Foundation
import Testing
@testable import FilterEngine

/// Every filter of the catalogue's Transition category, at its default inputs: time 0 is exactly the source and
/// time 1 exactly the target (Core Image's definition of a transition), also with images of different sizes,
/// non-zero origins and partial alpha.
@Suite struct TransitionEndsTests {
    static let names = Catalog.builtIn.filterNames(inCategory: "CICategoryTransition")

    static let source = TestImages.pattern(width: 48, height: 40)
    static let target = TestImages.make(width: 48, height: 40) { x, y in
        Pixel(0.1 + Float(y) / 80, 0.6 * (x < 6 ? 0.5 : 1), 0.3 + Float(x) / 100, x < 6 ? 0.5 : 1)
    }
    /// A target of another size and origin: the result must still be it, exactly, over the union.
    static let offsetTarget = TestImages.make(width: 30, height: 52) { x, y in
        Pixel(Float(x) / 30, Float(y) / 52, 0.4, 1)
    }.transformed(by: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 7, ty: -5))

    static func transition(_ name: String, time: Double, target: Image) throws -> Image {
        var values: [String: FilterValue] = ["inputImage": .image(source), "inputTargetImage": .image(target),
                                             "inputTime": .number(time)]
        let descriptor = try #require(Catalog.builtIn.filter(named: name))
        for input in descriptor.inputs where input.isImage && values[input.key] == nil {
            values[input.key] = .image(TestImages.pattern(width: 48, height: 40))
        }
        return try TestImages.filter(name, values)
    }

    @Test func theCategoryHasItsElevenTransitions() {
        #expect(Self.names.count == 11, "\(Self.names)")
    }

    @Test(arguments: names) func endsAreExactlySourceAndTarget(_ name: String) throws {
        for target in [Self.target, Self.offsetTarget] {
            let union = Self.source.extent.union(target.extent)
            let start = try TestImages.render(try Self.transition(name, time: 0, target: target), union)
            let end = try TestImages.render(try Self.transition(name, time: 1, target: target), union)
            let startDiff = TestImages.maxDifference(start, try TestImages.render(Self.source, union))
            // Bars swipe covers only the source's extent (Core Image's iOS 7 render): its end is the target there.
            let expectedEnd = name == "CIBarsSwipeTransition" ? target.cropped(to: Self.source.extent) : target
            let endDiff = TestImages.maxDifference(end, try TestImages.render(expectedEnd, union))
            #expect(startDiff == 0, "\(name) at 0 differs from the source by \(startDiff)")
            #expect(endDiff == 0, "\(name) at 1 differs from the target by \(endDiff)")
        }
    }
}
