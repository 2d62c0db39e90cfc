import Foundation
import Testing
@testable import FilterEngine

/// Reductions on tiny hand-made images: known extremes, means, histograms, bounds and clusters; output extents.
@Suite struct ReductionFamilyTests {
    /// 2×2, bottom row first: (0,0) (1,0) / (0,1) (1,1).
    static let pixels: [Pixel] = [Pixel(0.1, 0.8, 0.3, 1), Pixel(0.6, 0.2, 0.0, 1),
                                  Pixel(0.2, 0.1, 0.15, 0.5), Pixel(0.9, 0.4, 0.5, 1)]
    static let image = TestImages.make(width: 2, height: 2) { x, y in pixels[y * 2 + x] }
    static let whole: FilterValue = .vector([0, 0, 2, 2])

    static func reduce(_ name: String, _ extra: [String: FilterValue] = [:], image: Image = image) throws -> Image {
        var values: [String: FilterValue] = ["inputImage": .image(image), "inputExtent": whole]
        for (k, v) in extra { values[k] = v }
        return try TestImages.filter(name, values)
    }

    @Test func extremesAreComponentwise() throws {
        let maximum = try Self.reduce("CIAreaMaximum"), minimum = try Self.reduce("CIAreaMinimum")
        #expect(maximum.extent == Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(close(try TestImages.pixel(maximum, x: 0, y: 0), Pixel(0.9, 0.8, 0.5, 1)))
        #expect(close(try TestImages.pixel(minimum, x: 0, y: 0), Pixel(0.1, 0.1, 0, 0.5)))
        let both = try Self.reduce("CIAreaMinMax")
        #expect(both.extent == Rect(x: 0, y: 0, width: 2, height: 1))
        #expect(close(try TestImages.pixel(both, x: 0, y: 0), Pixel(0.1, 0.1, 0, 0.5)))
        #expect(close(try TestImages.pixel(both, x: 1, y: 0), Pixel(0.9, 0.8, 0.5, 1)))
        let red = try Self.reduce("CIAreaMinMaxRed")
        #expect(close(try TestImages.pixel(red, x: 0, y: 0), Pixel(0.1, 0.9, 0, 1)))
    }

    @Test func alphaExtremesPickWholePixels() throws {
        #expect(close(try TestImages.pixel(try Self.reduce("CIAreaMinimumAlpha"), x: 0, y: 0), Self.pixels[2]))
        // Three pixels share alpha 1: the first in row order wins.
        #expect(close(try TestImages.pixel(try Self.reduce("CIAreaMaximumAlpha"), x: 0, y: 0), Self.pixels[0]))
    }

    @Test func subAreaAndOutputOrigin() throws {
        // Only the right column, and the output at the extent's origin.
        let out = try Self.reduce("CIAreaMaximum", ["inputExtent": .vector([1, 0, 1, 2])])
        #expect(out.extent == Rect(x: 1, y: 0, width: 1, height: 1))
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), Pixel(0.9, 0.4, 0.5, 1)))
    }

    @Test func rowAndColumnAverages() throws {
        let rows = try Self.reduce("CIRowAverage")
        #expect(rows.extent == Rect(x: 0, y: 0, width: 1, height: 2))
        #expect(close(try TestImages.pixel(rows, x: 0, y: 0), (Self.pixels[0] + Self.pixels[1]) / 2))
        #expect(close(try TestImages.pixel(rows, x: 0, y: 1), (Self.pixels[2] + Self.pixels[3]) / 2))
        let columns = try Self.reduce("CIColumnAverage")
        #expect(columns.extent == Rect(x: 0, y: 0, width: 2, height: 1))
        #expect(close(try TestImages.pixel(columns, x: 0, y: 0), (Self.pixels[0] + Self.pixels[2]) / 2))
        #expect(close(try TestImages.pixel(columns, x: 1, y: 0), (Self.pixels[1] + Self.pixels[3]) / 2))
    }

    @Test func histogramCountsEachChannel() throws {
        let out = try Self.reduce("CIAreaHistogram", ["inputCount": .number(4), "inputScale": .number(2)])
        #expect(out.extent == Rect(x: 0, y: 0, width: 4, height: 1))
        let bins = try TestImages.render(out)
        // Red 0.1, 0.6, 0.2, 0.9 → bins 0, 2, 0, 3: shares 2/4, 0, 1/4, 1/4, times the scale 2.
        // Green 0.8, 0.2, 0.1, 0.4 → 3, 0, 0, 1; blue 0.3, 0, 0.15, 0.5 → 1, 0, 0, 2; alpha 1, 1, 0.5, 1 → 3, 3, 2, 3.
        #expect(close(bins.pixel(x: 0, y: 0), Pixel(1.0, 1.0, 1.0, 0)))
        #expect(close(bins.pixel(x: 1, y: 0), Pixel(0, 0.5, 0.5, 0)))
        #expect(close(bins.pixel(x: 2, y: 0), Pixel(0.5, 0, 0.5, 0.5)))
        #expect(close(bins.pixel(x: 3, y: 0), Pixel(0.5, 0.5, 0, 1.5)))
    }

    @Test func logarithmicHistogramUsesStops() throws {
        // Stops −4…0 in 4 bins: one stop each. 0.1 → log2 −3.32 → bin 0; 0.6 → −0.74 → bin 3; 0.2 → −2.32 → bin 1;
        // 0.9 → −0.15 → bin 3.
        let out = try Self.reduce("CIAreaLogarithmicHistogram", ["inputCount": .number(4), "inputMinimumStop": .number(-4),
                                                                 "inputMaximumStop": .number(0)])
        let bins = try TestImages.render(out)
        #expect(abs(bins.pixel(x: 0, y: 0).x - 0.25) < 1e-5)
        #expect(abs(bins.pixel(x: 1, y: 0).x - 0.25) < 1e-5)
        #expect(abs(bins.pixel(x: 2, y: 0).x) < 1e-5)
        #expect(abs(bins.pixel(x: 3, y: 0).x - 0.5) < 1e-5)
    }

    @Test func alphaWeightedHistogramUnpremultipliesAndWeighs() throws {
        // The half-transparent pixel's red is 0.2/0.5 = 0.4 → bin 1 of 4, weighing 0.5 (share 0.5/4).
        let out = try Self.reduce("CIAreaAlphaWeightedHistogram", ["inputCount": .number(4)])
        let bins = try TestImages.render(out)
        #expect(abs(bins.pixel(x: 0, y: 0).x - 0.25) < 1e-5)
        #expect(abs(bins.pixel(x: 1, y: 0).x - 0.125) < 1e-5)
        #expect(abs(bins.pixel(x: 2, y: 0).x - 0.25) < 1e-5)
    }

    @Test func boundsOfRedPixels() throws {
        let spots = TestImages.make(width: 10, height: 8) { x, y in
            (x == 2 && y == 3) || (x == 6 && y == 5) ? Pixel(1, 0, 0, 1) : Pixel(0, 1, 1, 1)
        }
        let out = try Self.reduce("CIAreaBoundsRed", ["inputExtent": .vector([0, 0, 10, 8])], image: spots)
        #expect(out.extent == Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(0.2, 3.0 / 8, 0.5, 3.0 / 8)))
        let none = try Self.reduce("CIAreaBoundsRed", ["inputExtent": .vector([0, 0, 2, 2])], image: spots)
        #expect(close(try TestImages.pixel(none, x: 0, y: 0), Pixel(0, 0, 0, 0)))
    }

    @Test func histogramDisplayDrawsBars() throws {
        let histogram = TestImages.make(width: 3, height: 1) { x, _ in [Pixel(1, 0, 0.5, 1), Pixel(0.5, 0.25, 0, 1), Pixel(0, 1, 0, 1)][x] }
        let out = try TestImages.filter("CIHistogramDisplayFilter", ["inputImage": .image(histogram), "inputHeight": .number(4)])
        #expect(out.extent == Rect(x: 0, y: 0, width: 3, height: 4))
        let drawn = try TestImages.render(out)
        // The largest bin (1) fills the height; 0.5 fills the lower half; 0.25 the lowest quarter.
        #expect(close(drawn.pixel(x: 0, y: 3), Pixel(1, 0, 0, 1)))
        #expect(close(drawn.pixel(x: 0, y: 1), Pixel(1, 0, 1, 1)))
        #expect(close(drawn.pixel(x: 1, y: 0), Pixel(1, 1, 0, 1)))
        #expect(close(drawn.pixel(x: 1, y: 1), Pixel(1, 0, 0, 1)))
        #expect(close(drawn.pixel(x: 1, y: 2), Pixel(0, 0, 0, 1)))
        #expect(close(drawn.pixel(x: 2, y: 3), Pixel(0, 1, 0, 1)))
    }

    @Test func kMeansFindsTwoClusters() throws {
        let red = Pixel(0.9, 0.1, 0.1, 1), blue = Pixel(0.1, 0.2, 0.8, 1)
        let picture = TestImages.make(width: 8, height: 4) { x, _ in x < 6 ? red : blue }
        let seeds = TestImages.make(width: 2, height: 1) { x, _ in x == 0 ? Pixel(0.5, 0.5, 0.5, 1) : Pixel(0, 0, 1, 1) }
        let out = try Self.reduce("CIKMeans", ["inputExtent": .vector([0, 0, 8, 4]), "inputMeans": .image(seeds),
                                               "inputCount": .number(2), "inputPasses": .number(3)], image: picture)
        #expect(out.extent == Rect(x: 0, y: 0, width: 2, height: 1))
        let means = try TestImages.render(out)
        // Each mean premultiplied by its share: 24/32 red, 8/32 blue.
        #expect(close(means.pixel(x: 0, y: 0), red * 0.75))
        #expect(close(means.pixel(x: 1, y: 0), blue * 0.25))
    }

    @Test func emptyAreaGivesTransparent() throws {
        let out = try Self.reduce("CIAreaMaximum", ["inputExtent": .vector([50, 50, 4, 4])])
        #expect(out.extent == Rect(x: 50, y: 50, width: 1, height: 1))
        #expect(close(try TestImages.pixel(out, x: 50, y: 50), Pixel(0, 0, 0, 0)))
    }
}
