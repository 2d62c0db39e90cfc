import Foundation
import Testing
import FilterEngine
import FilterExplorer
@testable import CommandLineTool

/// A program adds its own filter at run time through the public API alone: a catalogue entry in the schema of
/// filters.json, not Apple's (no Apple version, a category of its own), and a kernel. Registration changes the
/// process's catalogue, so it runs in a child process (an exit test) and leaves the other tests' catalogue alone.
@Suite struct RegisterFilterTests {
    static let entry = """
        {"name": "TestWarmFade", "displayName": "Warm Fade", "description": "Mixes the image towards a warm tone.",
         "categories": ["CICategoryTestOnly"],
         "fidelity": {"status": "approximate", "evidence": "a test filter"},
         "inputs": [
          {"key": "inputImage", "class": "CIImage", "type": "CIAttributeTypeImage", "displayName": "Image",
           "description": "The image to warm."},
          {"key": "inputIntensity", "class": "NSNumber", "type": "CIAttributeTypeScalar", "displayName": "Intensity",
           "description": "0 leaves the image unchanged.", "default": 0.5, "identity": 0, "sliderMin": 0, "sliderMax": 1}
         ]}
        """

    /// Red up and blue down by 0.2 × intensity, scaled by coverage (premultiplied).
    static func warmFade(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage"), k = try inputs.float("inputIntensity")
        return ColorKernel(name: "warmFade") { span in
            let o = span.out
            for i in 0..<span.count {
                o.r[i] = min(o.a[i], o.r[i] + 0.2 * k * o.a[i])
                o.b[i] = max(0, o.b[i] - 0.2 * k * o.a[i])
            }
        }.apply(extent: image.extent, inputs: [image])
    }

    @Test func aRegisteredFilterIsFoundListedAndRendered() async {
        await #expect(processExitsWith: .success) {
            let name = "TestWarmFade"
            #expect(Catalog.builtIn.filter(named: name) == nil)
            try FilterRegistry.register(descriptor: try FilterDescriptor(json: Data(RegisterFilterTests.entry.utf8)),
                                        implementation: RegisterFilterTests.warmFade)
            // The catalogue, the registry and Filter(named:).
            #expect(Catalog.builtIn.filter(named: name)?.displayName == "Warm Fade")
            #expect(Catalog.builtIn.filterNames(inCategory: "CICategoryTestOnly") == [name])
            #expect(Catalog.builtIn.categories.contains { $0.name == "CICategoryTestOnly" })
            #expect(Catalog.embedded.filter(named: name) == nil)
            #expect(FilterRegistry.implementedNames.contains(name))
            let filter = try Filter(named: name)
            #expect(filter.isImplemented)
            #expect(filter.value(forKey: "inputIntensity").map { "\($0)" } == "0.5")
            let rect = Rect(x: 0, y: 0, width: 4, height: 4)
            let grey = Image(color: Color([0.5, 0.5, 0.5, 1])).cropped(to: rect)
            try filter.setValue(.image(grey), forKey: "inputImage")
            try filter.setValue(.number(1), forKey: "inputIntensity")
            let before = try RenderContext().render(grey, rect: rect).pixels[5]
            let after = try RenderContext().render(try filter.makeOutputImage(), rect: rect).pixels[5]
            #expect(abs(after.x - before.x - 0.2) < 1e-5 && abs(after.z - before.z + 0.2) < 1e-5 && after.y == before.y)
            // `list`, `info` and the explorer's tree.
            let list = FiltersList.shared
            #expect(list.uniqueFilterNames.contains(name))
            #expect(try Listing.text(list, options: ListingOptions(allCategories: true)).contains("Warm Fade"))
            #expect(try Listing.info(name, in: list).contains("inputIntensity"))
            // A name is registered once, and never over a catalogue filter.
            let again = try FilterDescriptor(json: Data(RegisterFilterTests.entry.utf8))
            #expect(throws: FilterError.self) { try FilterRegistry.register(descriptor: again, implementation: RegisterFilterTests.warmFade) }
            let sepia = try FilterDescriptor(json: Data(RegisterFilterTests.entry.replacingOccurrences(of: name, with: "CISepiaTone").utf8))
            #expect(throws: FilterError.self) { try FilterRegistry.register(descriptor: sepia, implementation: RegisterFilterTests.warmFade) }
        }
    }

    @Test func anEntryIsCheckedAsStrictlyAsTheCatalogue() {
        let bad = Self.entry.replacingOccurrences(of: "\"sliderMax\": 1", with: "\"sliderMax\": -1")
        #expect(throws: CatalogError.self) { try FilterDescriptor(json: Data(bad.utf8)) }
        #expect(throws: CatalogError.self) { try FilterDescriptor(json: Data("{\"name\": 3}".utf8)) }
        #expect(throws: CatalogError.self) { try FilterDescriptor(json: Data("{\"name\": \"X\", \"unknown\": 1}".utf8)) }
    }
}
