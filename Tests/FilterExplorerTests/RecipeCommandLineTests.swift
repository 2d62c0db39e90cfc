import Foundation
import Testing
import FilterEngine
import FilterPipeline
import FilterExplorer

/// Recipes on the command line: JSON numbers straight into typed values, an input image and a crop in the recipe,
/// the shipped looks read as before, bad recipes refused with one line; `--crop` with a negative origin and
/// `render --help` at the terminal's width.
@Suite struct RecipeCommandLineTests {
    let cli = CommandLineTests()
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let photo = repository.appendingPathComponent("SampleImages/astronaut.png").path

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-recipe-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func cropTakesANegativeOriginWithoutEquals() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spaced = directory.appendingPathComponent("spaced.png").path, joined = directory.appendingPathComponent("joined.png").path
        let a = try cli.run("render", "CICheckerboardGenerator", "inputWidth=40", "--crop", "-600,-400,1200,800", "-o", spaced)
        #expect(a.status == 0, "\(a.stderr)")
        let b = try cli.run("render", "CICheckerboardGenerator", "inputWidth=40", "--crop=-600,-400,1200,800", "-o", joined)
        #expect(b.status == 0, "\(b.stderr)")
        let image = try ImageFile.read(spaced)
        #expect(image.extent == Rect(x: 0, y: 0, width: 1200, height: 800))
        #expect(try Self.bytes(spaced) == Self.bytes(joined))
        // The origin is honoured: the board's centre (the origin) is 600 pixels in from the left.
        let moved = directory.appendingPathComponent("moved.png").path
        _ = try cli.run("render", "CICheckerboardGenerator", "inputWidth=40", "--crop", "-580,-400,1200,800", "-o", moved)
        #expect(try Self.bytes(moved) != Self.bytes(spaced))
        let bad = try cli.run("render", "CICheckerboardGenerator", "--crop", "-600,-400", "-o", spaced)
        #expect(bad.status != 0 && bad.stderr.contains("--crop needs x,y,width,height"), "\(bad.stderr)")
    }

    @Test func renderHelpWrapsToTheTerminalWidthWithNothingCut() throws {
        let binary = try #require(CommandLineTests.binary).path
        for width in [80, 132] {
            // Not a terminal (a pipe): 80 columns, or COLUMNS when set.
            let arguments = width == 80 ? ["-u", "COLUMNS", binary, "render", "--help"] : ["COLUMNS=\(width)", binary, "render", "--help"]
            let (status, help) = try Tmux.spawn("/usr/bin/env", arguments, capture: true)
            #expect(status == 0)
            let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
            let widest = lines.map(\.count).max() ?? 0
            #expect(widest <= width, "a line of \(widest) columns: \(lines.first { $0.count == widest } ?? "")")
            #expect(widest > width - 12, "the text does not use the width (\(widest) of \(width))")
            // Every word of the description is there, in order, whatever the line breaks.
            let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for phrase in ["each filter's output becoming the next one's inputImage.",
                           "(CIColorCurves' RGB triples).",
                           "that names its input image and the rectangle to write",
                           "(exit status 1 if any failed).",
                           "cifiltertest render --recipe Looks/warm-fade.json -i 'photos/*.jpg' -o out/",
                           "--crop <x,y,width,height>"] {
                #expect(words.contains(phrase), "\(width) columns: \"\(phrase)\" is missing or cut")
            }
            // animate's help too, and its examples keep their lines.
            let (_, animate) = try Tmux.spawn("/usr/bin/env", ["COLUMNS=\(width)", binary, "animate", "--help"], capture: true)
            #expect(animate.split(separator: "\n").allSatisfy { $0.count <= width }, "\(animate)")
            #expect(animate.contains("\n      --frames 30 -i photo.jpg -o frames/\n"))
        }
    }

    @Test func jsonNumbersGoStraightIntoTypedValues() throws {
        let text = """
            {"input": "in.png", "crop": [-10, 0, 20.5, 30], "steps": [
              {"filter": "CIColorMatrix", "id": "m", "inputs": {"inputBiasVector": [0.30000000000000004, 0, 0, 0]}},
              {"filter": "CIConstantColorGenerator", "inputs": {"inputColor": [1, 0.5, 0.25]}},
              {"filter": "CISourceOverCompositing", "inputs": {"inputBackgroundImage": {"image": "m"}}},
              {"filter": "CIGaussianBlur", "inputs": {"inputRadius": 0.1234567890123}},
              {"filter": "CIAffineTransform", "inputs": {"inputTransform": [1, 0, 0, 1, 0.1, -0.2]}}]}
            """
        let recipe = try Recipe.parse(Data(text.utf8), source: "r.json")
        #expect(recipe.input == "in.png")
        #expect(recipe.crop == Rect(x: -10, y: 0, width: 20.5, height: 30))
        #expect(recipe.steps[0].inputs == [.init("inputBiasVector", .numbers([0.30000000000000004, 0, 0, 0]))])
        #expect(recipe.steps[3].inputs == [.init("inputRadius", .number(0.1234567890123))])
        // Typed by the input: a colour, a transform, a vector, a number; not through text.
        let colour = try #require(Catalog.builtIn.filter(named: "CIConstantColorGenerator")?.input("inputColor"))
        guard case .color(let c) = try recipe.steps[1].inputs[0].value.filterValue(for: colour, filter: "CIConstantColorGenerator") else {
            Issue.record("a colour input takes a list as a colour")
            return
        }
        #expect(c.components == [1, 0.5, 0.25, 1])
        let bias = try #require(Catalog.builtIn.filter(named: "CIColorMatrix")?.input("inputBiasVector"))
        guard case .vector(let v) = try recipe.steps[0].inputs[0].value.filterValue(for: bias, filter: "CIColorMatrix") else {
            Issue.record("a vector input takes a list as a vector")
            return
        }
        #expect(v[0] == 0.30000000000000004)
        // Written and read back, unchanged (the shortest form that reads back as the same number).
        #expect(try Recipe.parse(Data(recipe.json.utf8), source: "again") == recipe)
        #expect(recipe.json.contains("0.30000000000000004") && recipe.json.contains("\"crop\": [-10, 0, 20.5, 30]"))
    }

    @Test func aRecipeWithItsInputAndCropRendersLikeTheCommandLine() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recipe = try Self.write("""
            {"input": "\(Self.photo)", "crop": [-20, 100, 300, 200], "steps": [
              {"filter": "CIColorControls", "inputs": {"inputSaturation": 0.25, "inputBrightness": -0.05, "inputContrast": true}},
              {"filter": "CIVignette", "inputs": {"inputIntensity": 1.5, "inputRadius": 1.25}}]}
            """, "look.json", in: directory)
        let byRecipe = directory.appendingPathComponent("recipe.png").path
        let a = try cli.run("render", "--recipe", recipe, "-o", byRecipe)
        #expect(a.status == 0, "\(a.stderr)")
        let byWords = directory.appendingPathComponent("words.png").path
        let b = try cli.run("render", "CIColorControls", "inputSaturation=0.25", "inputBrightness=-0.05", "inputContrast=1",
                            "CIVignette", "inputIntensity=1.5", "inputRadius=1.25", "-i", Self.photo,
                            "--crop", "-20,100,300,200", "-o", byWords)
        #expect(b.status == 0, "\(b.stderr)")
        #expect(try ImageFile.read(byRecipe).extent.width == 300)
        #expect(try Self.bytes(byRecipe) == Self.bytes(byWords))
        // -i and --crop replace the recipe's.
        let replaced = directory.appendingPathComponent("replaced.png").path
        let c = try cli.run("render", "--recipe", recipe, "-i", Self.repository.appendingPathComponent("SampleImages/coffee.png").path,
                            "--crop", "0,0,64,32", "-o", replaced)
        #expect(c.status == 0, "\(c.stderr)")
        #expect(try ImageFile.read(replaced).extent == Rect(x: 0, y: 0, width: 64, height: 32))
        // animate reads the same recipe: its input and crop make the frames.
        let frames = directory.appendingPathComponent("frames").path
        let d = try cli.run("animate", "--recipe", recipe, "--animate", "inputIntensity=0:1.5", "--frames", "2", "-o", frames)
        #expect(d.status == 0, "\(d.stderr)")
        let last = try ImageFile.read(frames + "/frame-0002.png")
        #expect(last.extent == Rect(x: 0, y: 0, width: 300, height: 200))
        #expect(try Self.bytes(frames + "/frame-0002.png") == Self.bytes(byRecipe))
    }

    /// The shipped looks (lists of steps, unchanged) read as before: each renders what the same chain typed on
    /// the command line renders, and the graph looks (ids, references) render.
    @Test func theShippedLooksStillWork() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let looks = Self.repository.appendingPathComponent("Looks")
        let words: [String: [String]] = [
            "warm-fade.json": ["CITemperatureAndTint", "inputNeutral=[6500 0]", "inputTargetNeutral=[5200 0]",
                               "CIColorControls", "inputSaturation=0.8", "inputContrast=0.9", "inputBrightness=0.02",
                               "CIColorMatrix", "inputRVector=[0.92 0 0 0]", "inputGVector=[0 0.92 0 0]",
                               "inputBVector=[0 0 0.9 0]", "inputBiasVector=[0.06 0.05 0.05 0]"],
            "duotone.json": ["CIColorControls", "inputContrast=1.1", "CIFalseColor", "inputColor0=0.08 0.1 0.35 1",
                             "inputColor1=1 0.82 0.55 1"],
        ]
        for (name, chain) in words.sorted(by: { $0.key < $1.key }) {
            let byLook = directory.appendingPathComponent("\(name).png").path, byWords = directory.appendingPathComponent("\(name)-words.png").path
            let a = try cli.run(["render", "--recipe", looks.appendingPathComponent(name).path, "-i", Self.photo, "-o", byLook])
            #expect(a.status == 0, "\(name): \(a.stderr)")
            let b = try cli.run(["render"] + chain + ["-i", Self.photo, "-o", byWords])
            #expect(b.status == 0, "\(name): \(b.stderr)")
            #expect(try Self.bytes(byLook) == Self.bytes(byWords), "\(name) renders differently from its command line")
        }
        for name in ["vintage-film.json", "sketch.json"] {
            let output = directory.appendingPathComponent("\(name).png").path
            let result = try cli.run(["render", "--recipe", looks.appendingPathComponent(name).path, "-i", Self.photo, "-o", output])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(try ImageFile.read(output).extent == Rect(x: 0, y: 0, width: 512, height: 512))
        }
        let animation = directory.appendingPathComponent("destination.png").path
        let result = try cli.run(["render", "--recipe", looks.appendingPathComponent("render-destination.json").path,
                                  "--crop", "0,0,64,48", "-o", animation])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test(arguments: [
        (#"[{"filter": "CIGaussianBlur", "inputs": {"inputRadius": [1, 2]}}]"#,
         "CIGaussianBlur.inputRadius expects a number"),
        (#"[{"filter": "CIGaussianBlur", "inputs": {"inputRadius": "NaN"}}]"#,
         "CIGaussianBlur.inputRadius = nan is not finite"),
        (#"[{"filter": "CIGaussianBlur", "inputs": {"inputRadius": "wide"}}]"#,
         "CIGaussianBlur.inputRadius: cannot read \"wide\" as a number"),
        (#"[{"filter": "CIFalseColor", "inputs": {"inputColor0": [1, 0]}}]"#,
         "CIFalseColor.inputColor0 expects a colour"),
        (#"[{"filter": "CIGaussianBlur", "inputs": {"inputRadius": null}}]"#,
         "CIGaussianBlur.inputRadius: null is not a value"),
        (#"[{"inputs": {"inputRadius": 2}}]"#, "step 1 has no \"filter\" name"),
        (#"[{"filter": "CISepiaTone", "input": {"inputIntensity": 2}}]"#,
         "step 1: unknown field \"input\" (a step has \"filter\", \"id\", \"bypass\" and \"inputs\")"),
        (#"[{"filter": "CISepiaTone", "bypass": "no"}]"#, "step 1 (CISepiaTone): \"bypass\" is true or false, not a string"),
        (#"[{"filter": "CISepiaTone", "inputs": {"inputIntensty": 2}}]"#,
         "CISepiaTone has no input inputIntensty; its inputs are inputImage, inputIntensity"),
        (#"{"steps": [{"filter": "CISepiaTone"}], "crops": [0, 0, 1, 1]}"#, "unknown field \"crops\""),
        (#"{"steps": [{"filter": "CISepiaTone"}], "crop": [0, 0, -1, 1]}"#, "\"crop\" is [x, y, width, height]"),
        (#"[{"filter": "CISepiaTone"},"#, "not valid JSON"),
        (#"[{"filter": "CINoSuchFilter"}]"#, "CINoSuchFilter"),
        (#"[{"filter": "CIColorCube", "inputs": {"inputCubeData": "/nowhere/look.cube"}}]"#,
         "CIColorCube.inputCubeData: /nowhere/look.cube: no such file"),
    ])
    func badRecipesAreRefusedWithOneLine(recipe text: String, message: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recipe = try Self.write(text, "bad.json", in: directory)
        let output = directory.appendingPathComponent("out.png").path
        let result = try cli.run("render", "--recipe", recipe, "-i", Self.photo, "-o", output)
        #expect(result.status == 1, "\(text): status \(result.status)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(text): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(text): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
