import Foundation
import Testing
@testable import FilterEngine

/// The whole catalogue against the implementations.
@Suite struct RegistryTests {
    static let catalog = Catalog.builtIn

    @Test func everyEntryIsImplementedUnavailableOrListedAsNotYet() {
        for filter in Self.catalog.filters {
            let implemented = FilterRegistry.implementation(for: filter.name) != nil
            let unavailable = filter.unavailableReason != nil
            let pending = FilterRegistry.notYetImplemented.contains(filter.name)
            #expect([implemented, unavailable, pending].filter { $0 }.count == 1,
                    "\(filter.name): implemented \(implemented), unavailable \(unavailable), not yet \(pending)")
        }
    }

    @Test func everyImplementationHasAnEntry() {
        for name in FilterRegistry.implementedNames { #expect(Self.catalog.filter(named: name) != nil, "\(name)") }
        for name in FilterRegistry.notYetImplemented { #expect(Self.catalog.filter(named: name) != nil, "\(name)") }
    }

    /// Stock inputs for a filter: the test pattern for images, a line of text for the text generators (which draw
    /// nothing without one), catalogue defaults for the rest.
    static func stocked(_ name: String) throws -> Filter {
        let filter = try Filter(named: name)
        for input in filter.descriptor.inputs where input.isImage {
            try filter.setValue(.image(TestImages.pattern()), forKey: input.key)
        }
        if filter.descriptor.input("inputText") != nil { try filter.setValue(.string("Stock text"), forKey: "inputText") }
        return filter
    }

    /// A finite window of the output to render: its extent, or a 64×64 square of an infinite one.
    static func window(_ image: Image) -> Rect {
        image.extent.isInfinite ? Rect(x: 0, y: 0, width: 64, height: 64) : image.extent
    }

    static func checkFinite(_ buffer: PixelBuffer, _ label: String) {
        var bad = 0
        for i in 0..<buffer.rect.area where !(buffer.pixels[i].x.isFinite && buffer.pixels[i].y.isFinite
            && buffer.pixels[i].z.isFinite && buffer.pixels[i].w.isFinite) { bad += 1 }
        #expect(bad == 0, "\(label): \(bad) non-finite pixels")
    }

    /// Every implemented filter renders with its defaults, reading only keys its entry declares.
    @Test(arguments: FilterRegistry.implementedNames)
    func rendersWithDefaults(_ name: String) throws {
        let out = try Self.stocked(name).makeOutputImage()
        Self.checkFinite(try TestImages.render(out, Self.window(out)), name)
    }

    /// ...and at both ends of every slider, and at the legal extremes where they are finite and modest.
    @Test(arguments: FilterRegistry.implementedNames)
    func rendersAtExtremes(_ name: String) throws {
        let descriptor = Self.catalog.filter(named: name)!
        for input in descriptor.inputs where input.valueClass == .number {
            let candidates = [input.sliderMinimum, input.sliderMaximum, input.minimum, input.maximum]
                .compactMap { $0 }.filter { abs($0) <= 10_000 }
            for value in candidates {
                let filter = try Self.stocked(name)
                try filter.setValue(.number(value), forKey: input.key)
                let out = try filter.makeOutputImage()
                // An output of no pixels (text at size 0) has nothing to check, and rendering nothing is an error.
                if out.extent.isEmpty { continue }
                Self.checkFinite(try TestImages.render(out, Self.window(out)), "\(name).\(input.key)=\(value)")
            }
        }
    }

    @Test func invalidValuesAreClearErrors() throws {
        let filter = try Filter(named: "CIGaussianBlur")
        func message(_ body: () throws -> Void) -> String {
            do { try body(); return "no error" } catch { return "\(error)" }
        }
        #expect(message { try filter.setValue(.number(.nan), forKey: "inputRadius") }.contains("finite"))
        #expect(message { try filter.setValue(.number(.infinity), forKey: "inputRadius") }.contains("finite"))
        #expect(message { try filter.setValue(.number(-.infinity), forKey: "inputRadius") }
            == "CIGaussianBlur.inputRadius = -inf is not finite: expected a number (usually ≥ 0)")
        #expect(message { try filter.setValue(.string("big"), forKey: "inputRadius") }.contains("expects a number"))
        #expect(message { try filter.setValue(.number(1), forKey: "inputRadiuss") }.contains("has no input inputRadiuss"))
        #expect(filter.value(forKey: "inputRadius").map { "\($0)" } == "10")  // unchanged by the failures
        #expect(message { _ = try filter.makeOutputImage() }.contains("inputImage is not set"))
        #expect(message { _ = try Filter(named: "CISepiaTon") }.contains("did you mean CISepiaTone"))
        let twirl = try Filter(named: "CITwirlDistortion")
        #expect(message { try twirl.setValue(.vector([1, 2, 3]), forKey: "inputCenter") }.contains("2 numbers"))
        #expect(message { try twirl.setValue(.vector([1, .nan]), forKey: "inputCenter") }.contains("finite"))
        #expect(message { try twirl.setValue(.color(Color([1, .infinity, 0])), forKey: "inputCenter") }.contains("expects a vector"))
        let unavailable = try Filter(named: "CICoreMLModelFilter")
        #expect(message { _ = try unavailable.makeOutputImage() }.contains("not available here"))
        let pending = try Filter(named: FilterRegistry.notYetImplemented.sorted().first!)
        #expect(message { _ = try pending.makeOutputImage() }.contains("not implemented yet"))
    }

    /// Core Image's minimum and maximum are hints for a user interface: every finite number is taken (the
    /// vignette of an intensity of 1.2 that Apple's metadata caps at 1 must not be lost to a `try?`).
    @Test func finiteValuesOutsideTheCatalogueRangeAreTaken() throws {
        let vignette = try Filter(named: "CIVignette")
        try vignette.setValue(.number(1.2), forKey: "inputIntensity")
        #expect(vignette.value(forKey: "inputIntensity").map { "\($0)" } == "1.2")
        let blur = try Filter(named: "CIGaussianBlur")
        try blur.setValue(.number(-5), forKey: "inputRadius")
        try blur.setValue(.number(1e30), forKey: "inputRadius")
        // A boolean is any number: zero is false, anything else true (NSNumber's documented boolValue).
        let canny = try Filter(named: "CICannyEdgeDetector")
        try canny.setValue(.number(0.5), forKey: "inputPerceptual")
        #expect(try FilterInputs(descriptor: canny.descriptor, values: ["inputPerceptual": .number(0.5)]).bool("inputPerceptual"))
        #expect(try FilterInputs(descriptor: canny.descriptor, values: ["inputPerceptual": .number(-3)]).bool("inputPerceptual"))
        let crop = try Filter(named: "CICrop")
        crop.setDefaults()
        try crop.setValue(.image(TestImages.pattern()), forKey: "inputImage")
        // A negative size is standardised as CGRectStandardize does: [40 30 -20 -10] is [20 20 20 10].
        try crop.setValue(.vector([40, 30, -20, -10]), forKey: "inputRectangle")
        #expect(try crop.makeOutputImage().extent == Rect(x: 20, y: 20, width: 20, height: 10))
    }

    @Test func hugeRadiusStaysBounded() throws {
        // The largest slider radius on a small image must not loop over its radius per pixel or allocate wildly.
        let out = try TestImages.pattern().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(2000)])
        let start = Date()
        Self.checkFinite(try TestImages.render(out, Rect(x: 0, y: 0, width: 64, height: 48)), "radius 2000")
        #expect(Date().timeIntervalSince(start) < 5)
    }
}
