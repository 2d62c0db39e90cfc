import Foundation
import Testing
import FilterEngine
import FilterPipeline

/// Runs the built `cifiltertest` binary: exit status, stdout and stderr as a user sees them (piped, so plain).
@Suite struct CommandLineTests {
    /// The `cifiltertest` built next to this test product (`<scratch>/<triple>/debug/`), found by walking up from
    /// the test runner's own path.
    static let binary: URL? = {
        let starts = [
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        for start in starts {
            var directory = start
            for _ in 0..<5 {
                for candidate in ["cifiltertest", "debug/cifiltertest"] {
                    let url = directory.appendingPathComponent(candidate)
                    var isDirectory: ObjCBool = false
                    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                       FileManager.default.isExecutableFile(atPath: url.path) {
                        return url
                    }
                }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }()

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    func run(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
        try run(arguments, sourceLocation: sourceLocation)
    }

    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
        let binary = try #require(Self.binary, """
            cifiltertest was not found next to the test product (searched up from \(CommandLine.arguments[0])); \
            build it first: swift build --scratch-path <the same scratch path>
            """, sourceLocation: sourceLocation)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout"), errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        // Files, not pipes: a full pipe would block the child while we wait for it.
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus,
                      stdout: try String(contentsOf: outURL, encoding: .utf8),
                      stderr: try String(contentsOf: errURL, encoding: .utf8))
    }

    @Test func listOfAFixtureCatalogue() throws {
        let result = try run("list", "--catalog", Fixtures.catalogURL.path)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try Fixtures.text("list.txt")
        #expect(result.stdout == expected)
        #expect(result.stderr.isEmpty)
    }

    @Test func listOptionsCombine() throws {
        let result = try run("list", "--keys", "--category", "blur", "--json", "--catalog", Fixtures.catalogURL.path)
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let categories = try #require(root["categories"] as? [[String: Any]])
        #expect(categories.map { $0["name"] as? String } == ["CICategoryBlur"])
        let filters = try #require(categories.first?["filters"] as? [[String: Any]])
        #expect(filters.count == 3)
        #expect(filters.allSatisfy { $0["inputs"] is [[String: Any]] })
    }

    @Test func pipedOutputIsPlain() throws {
        let result = try run("list", "--all-categories")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(result.stdout.hasPrefix("Distortion Effect (CICategoryDistortionEffect): "))
    }

    @Test func infoOfAFilterTypedLoosely() throws {
        let result = try run("info", "sepiatone")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Sepia Tone (CISepiaTone)\n"))
        #expect(result.stdout.contains("\n  inputIntensity\n"))
        #expect(!result.stdout.contains("\u{1B}"))
        let json = try run("info", "CISepiaTone", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["name"] as? String == "CISepiaTone")
    }

    @Test func unknownFilterFailsWithSuggestions() throws {
        let result = try run("info", "CISepiaTon")
        #expect(result.status != 0)
        #expect(result.stderr.contains("did you mean CISepiaTone"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// An infinite output without --crop is a usage error: exit status 64 (EX_USAGE), one line naming the option,
    /// for `render` and `animate` alike; with --crop the same command succeeds.
    @Test func infiniteOutputWithoutACropIsAUsageError() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("infinite-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        for command in [["render", "CICheckerboardGenerator", "-o", out],
                        ["animate", "CICheckerboardGenerator", "--animate", "inputWidth=10:20", "--frames", "2", "-o", out + ".gif"]] {
            let result = try run(command)
            #expect(result.status == 64, "\(command[0]): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("the output is infinite") && result.stderr.contains("--crop"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: command.last!))
        }
        #expect(try run("render", "CICheckerboardGenerator", "--crop", "0,0,8,8", "-o", out).status == 0)
    }

    @Test func unknownCategoryFailsWithTheValidNames() throws {
        let result = try run("list", "--category", "Blurr", "--catalog", Fixtures.catalogURL.path)
        #expect(result.status != 0)
        #expect(result.stderr.contains("no category named \"Blurr\"; did you mean Blur?"), "\(result.stderr)")
        #expect(result.stderr.contains("Categories: ColorEffect, Generator, Blur, StillImage, BuiltIn, Aardvark, Zoo"))
        #expect(result.stdout.isEmpty)
    }

    @Test func badCatalogueFilesFailWithTheLoadersMessage() throws {
        let missing = try run("list", "--catalog", "/nonexistent/filters.json")
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("/nonexistent/filters.json: no such file"), "\(missing.stderr)")

        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-catalog-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: bad) }
        let original = try Fixtures.text("mini-catalog.json")
        try original.replacingOccurrences(of: "\"sliderMax\": 22}", with: "\"sliderMax\": 30}")
            .write(to: bad, atomically: true, encoding: .utf8)
        let result = try run("info", "CIBoxBlur", "--catalog", bad.path)
        #expect(result.status != 0)
        #expect(result.stderr.contains("CIDepthBlurEffect.inputAperture: sliderMax 30 is above max 22"),
                "\(result.stderr)")
    }

    @Test func helpDocumentsTheJSONFields() throws {
        let result = try run("list", "--help")
        #expect(result.status == 0)
        for field in ["\"firstCategory\"", "\"unavailableReason\"", "\"sliderMin\"", "\"byteCount\""] {
            #expect(result.stdout.contains(field), "\(field)")
        }
        #expect(result.stdout.contains("--catalog <file>"))
    }

    @Test func listFidelityCountsAndListsOneStatus() throws {
        let counts = try run("list", "--fidelity")
        #expect(counts.status == 0, "\(counts.stderr)")
        // The binary carries the same filters.json as this test.
        let total = Catalog.embedded.filters.count
        #expect(counts.stdout.hasPrefix("Fidelity of the \(total) filters"))
        for status in ["verified", "formula", "approximate", "unavailable"] {
            #expect(counts.stdout.contains("\n  \(status) "), "\(status)")
        }
        let json = try run("list", "--fidelity", "--status", "Verified", "--json")
        #expect(json.status == 0, "\(json.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let numbers = try #require(root["counts"] as? [String: Int])
        #expect(numbers.values.reduce(0, +) == total && root["total"] as? Int == total)
        let filters = try #require(root["filters"] as? [[String: Any]])
        #expect(filters.count == numbers["verified"])
        #expect(filters.contains { $0["name"] as? String == "CIGaussianBlur" })
        let bad = try run("list", "--status", "sure")
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("no fidelity status \"sure\""), "\(bad.stderr)")
        let info = try run("info", "CIBoxBlur")
        #expect(info.stdout.contains("\n  Fidelity      verified: conformance CIBoxBlur/"), "\(info.stdout)")
    }

    /// The width and height in a PNG's header.
    func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    @Test func renderUnderAnOlderCoreImage() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-version-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let chain = ["CIConstantColorGenerator", "CICrop", "inputRectangle=[0 0 10 10]", "CIGaussianBlur", "inputRadius=8"]
        let today = directory.appendingPathComponent("today.png").path, old = directory.appendingPathComponent("ios12.png").path
        let current = try run(["render"] + chain + ["-o", today])
        #expect(current.status == 0, "\(current.stderr)")
        #expect(try pngSize(today) == (58, 58))  // 3σ = 24 px a side
        let ios12 = try run(["render"] + chain + ["-o", old, "--core-image-version", "12"])
        #expect(ios12.status == 0, "\(ios12.stderr)")
        #expect(try pngSize(old) == (104, 104))  // a grid of 8 px, then 44 px a side
        let bad = try run(["render"] + chain + ["-o", old, "--core-image-version", "twelve"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--core-image-version"), "\(bad.stderr)")
    }

    /// Colours are typed the same way everywhere: a CSS name, hex and hsl() on the command line give the same pixel.
    @Test func colourNamesAndHSLOnTheCommandLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-colours-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, colour) in ["green", "008000", "hsl(120,100%,25.1%)"].enumerated() {
            let path = directory.appendingPathComponent("\(index).png").path
            let result = try run(["render", "CIConstantColorGenerator", "inputColor=\(colour)", "--crop", "0,0,2,2", "-o", path])
            #expect(result.status == 0, "\(result.stderr)")
            let image = try ImageFile.read(path)
            let pixel = try RenderContext().renderRGBA8(image, rect: image.extent).bytes.prefix(4)
            #expect(Array(pixel) == [0, 128, 0, 255], "\(colour)")
        }
        let bad = try run(["render", "CIConstantColorGenerator", "inputColor=greenish", "--crop", "0,0,2,2", "-o",
                           directory.appendingPathComponent("bad.png").path])
        #expect(bad.status != 0 && bad.stderr.contains("hsv(0,1,1)"), "\(bad.stderr)")
    }

    /// Core Image's ranges are hints: `render` and recipe files take every finite value, refuse NaN/inf with one
    /// line naming filter, key, value and what is expected, and protect the machine with --max-pixels instead.
    @Test func renderTakesFiniteValuesAndHasACostLimit() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("render-values-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.png").path
        let vignette = try run("render", "CIConstantColorGenerator", "CIVignette", "inputIntensity=1.2", "inputRadius=2",
                               "--crop", "0,0,8,8", "-o", out)
        #expect(vignette.status == 0, "\(vignette.stderr)")
        let recipe = directory.appendingPathComponent("recipe.json")
        try #"[{"filter": "CIConstantColorGenerator"}, {"filter": "CIGaussianBlur", "inputs": {"inputRadius": -5}}]"#
            .write(to: recipe, atomically: true, encoding: .utf8)
        let negative = try run("render", "--recipe", recipe.path, "--crop", "0,0,8,8", "-o", out)
        #expect(negative.status == 0, "\(negative.stderr)")
        let nan = try run("render", "CIConstantColorGenerator", "CIGaussianBlur", "inputRadius=nan", "--crop", "0,0,8,8", "-o", out)
        #expect(nan.status != 0)
        #expect(nan.stderr == "Error: CIGaussianBlur.inputRadius = nan is not finite: expected a number (usually ≥ 0)\n",
                "\(nan.stderr)")
        let big = try run("render", "CICheckerboardGenerator", "--crop", "0,0,100,100", "--max-pixels", "1000", "-o", out)
        #expect(big.status != 0)
        #expect(big.stderr.contains("needs 100×100 = 10000 pixels; the limit is 1000 (raise it with --max-pixels"), "\(big.stderr)")
        let raised = try run("render", "CICheckerboardGenerator", "--crop", "0,0,100,100", "--max-pixels", "1e4", "-o", out)
        #expect(raised.status == 0, "\(raised.stderr)")
    }
}
