import Foundation
import Testing
@testable import FilterEngine

/// The whole catalogue against the implementations.
@Suite struct RegistryTests {
    static var catalog: Catalog { .builtIn }

    @Test func everyEntryIsImplementedUnavailableOrListedAsNotYet() {
        for filter in Self.catalog.filters {
            let implemented = FilterRegistry.implementation(for: filter.name) != nil
            let unavailable = filter.unavailableReason != nil
            let pending = FilterRegistry.notYetImplemented.contains(filter.name)
            #expect([implemented, unavailable, pending].filter { $0 }.count == 1,
                    "\(filter.name): implemented \(implemented), unavailable \(unavailable), not yet \(pending)")
        }
    }

    /// `JSONValue.parse` reads documents itself and leaves the rest to JSONDecoder: both must give the same values
    /// (key order aside: JSONDecoder's is a dictionary's), and what it declines must still parse or fail as before.
    @Test func fastJSONReadsAsJSONDecoderDoes() throws {
        func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
            switch (a, b) {
            case (.object(let x, let xo), .object(let y, let yo)):
                return Set(xo) == Set(yo) && xo.count == yo.count && x.count == y.count
                    && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
            case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
            case (.number(let x), .number(let y)): return x.bitPattern == y.bitPattern
            default: return a == b
            }
        }
        let documents = [
            embeddedCatalogJSON,
            #"{"a": "x\u00e9\n\"\/\\", "b": [1, -2.5e3, 0, 0.0, 1E-2, true, false, null, {}], "c": [], "f": "\u0000\t"}"#,
            #"  [ 1 , 2 ]  "#, #"["é€😀"]"#, #"[123456789012345678901234567890, 0.1, 1.7976931348623157e308, 5e-324]"#,
            // Declined, then read or refused by JSONDecoder.
            #"{"d": "\ud83d\ude00", "e": -0}"#, #"{"a": 1, "a": 2}"#, #"[1,]"#, "42", #"[1e400]"#, #"[01]"#, #"[1.]"#,
            "[\"\u{1}\"]", "", "[", #"{"a" 1}"#,
        ]
        for text in documents {
            let data = Data(text.utf8)
            let fast = data.withUnsafeBytes { FastJSON.parseDocument($0) }
            let decoded = try? JSONValue.parseWithDecoder(data)
            let parsed = try? JSONValue.parse(data)
            if let fast { #expect(decoded.map { same(fast, $0) } == true, "\(text.prefix(60))") }
            #expect((parsed == nil) == (decoded == nil), "\(text.prefix(60))")
            if let parsed, let decoded { #expect(same(parsed, decoded), "\(text.prefix(60))") }
        }
        #expect(Data(embeddedCatalogJSON.utf8).withUnsafeBytes { FastJSON.parseDocument($0) } != nil)
    }

    @Test func everyImplementationHasAnEntry() {
        for name in FilterRegistry.implementedNames { #expect(Self.catalog.filter(named: name) != nil, "\(name)") }
        for name in FilterRegistry.notYetImplemented { #expect(Self.catalog.filter(named: name) != nil, "\(name)") }
    }

    /// Stock inputs for a filter: the test pattern for images, a line of text for the text generators (which draw
    /// nothing without one), a QR descriptor for CIBarcodeGenerator (none by default), catalogue defaults for the rest.
    static func stocked(_ name: String) throws -> Filter {
        let filter = try Filter(named: name)
        for input in filter.descriptor.inputs where input.isImage {
            try filter.setValue(.image(TestImages.pattern()), forKey: input.key)
        }
        if filter.descriptor.input("inputText") != nil { try filter.setValue(.string("Stock text"), forKey: "inputText") }
        for input in filter.descriptor.inputs where input.valueClass == .barcodeDescriptor {
            try filter.setValue(.barcode(try BarcodeDescriptor.parse("qr:message=Stock text")), forKey: input.key)
        }
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

    /// A context for the value sweeps: one that a runaway cost would trip (10 s, 1 GiB) instead of the machine.
    static let sweepContext = RenderContext(options: .init(maxPixels: 1 << 24, maxBytes: 1 << 30, timeLimit: 10))

    /// A value in the shape of an input: every component of a vector, colour or transform set to it.
    static func value(_ v: Double, for input: InputDescriptor, current: FilterValue?) -> FilterValue? {
        switch input.valueClass {
        case .number: return .number(v)
        case .color: return .color(Color([v, v, v, v]))
        case .transform: return .transform(AffineTransform([v, v, v, v, v, v]))
        case .vector:
            guard case .vector(let old)? = current, !old.isEmpty else { return nil }
            return .vector([Double](repeating: v, count: old.count))
        default: return nil
        }
    }

    /// ...and with every numeric input (numbers, vectors, colours, transforms) at values far beyond its slider
    /// and catalogue range, as Core Image takes them, and at the slider's ends: each renders a window around
    /// the input without a crash or NaN pixels, inside the sweep context's time and memory budget. A filter may
    /// refuse a value it cannot represent (a colour cube of 10^6 entries a side) with a one-line error.
    @Test(arguments: FilterRegistry.implementedNames)
    func rendersAtExtremes(_ name: String) throws {
        let descriptor = Self.catalog.filter(named: name)!
        let start = Date()
        for input in descriptor.inputs {
            let ends = input.valueClass == .number ? [input.sliderMinimum, input.sliderMaximum].compactMap { $0 } : []
            for v in [-1e6, -1, 0, 1e-6, 1e6] + ends {
                let filter = try Self.stocked(name)
                guard let value = Self.value(v, for: input, current: filter.value(forKey: input.key)) else { continue }
                try filter.setValue(value, forKey: input.key)
                let label = "\(name).\(input.key)=\(v)"
                let out: Image
                do { out = try filter.makeOutputImage() } catch let error as FilterError {
                    #expect(!error.message.contains("\n") && error.message.count < 300, "\(label): \(error.message)")
                    continue
                }
                // An output of no pixels (text at size 0) has nothing to check, and rendering nothing is an error.
                let window = out.extent.intersection(Rect(x: -8, y: -8, width: 80, height: 64))
                if window.isEmpty { continue }
                let buffer = try TestImages.render(out, window, context: Self.sweepContext)
                var nan = 0
                for i in 0..<buffer.rect.area where buffer.pixels[i].x.isNaN || buffer.pixels[i].y.isNaN
                    || buffer.pixels[i].z.isNaN || buffer.pixels[i].w.isNaN { nan += 1 }
                #expect(nan == 0, "\(label): \(nan) NaN pixels")
            }
        }
        #expect(Date().timeIntervalSince(start) < 20, "\(name): the sweep took \(Date().timeIntervalSince(start)) s")
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
        if let name = FilterRegistry.notYetImplemented.sorted().first {
            let pending = try Filter(named: name)
            #expect(message { _ = try pending.makeOutputImage() }.contains("not implemented yet"))
        }
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
