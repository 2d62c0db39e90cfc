import FilterEngine
import FilterPipeline
import Foundation
import Testing

/// `render` over many files, the shipped looks, and `animate` to PNG frames, GIF and Y4M (every output decoded).
@Suite struct BatchAndAnimationTests {
    let cli = CommandLineTests()
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static func look(_ name: String) -> String { repository.appendingPathComponent("Looks/\(name).json").path }

    func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-batch-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A small checkerboard (hue-turned, so it has colour) written as PNG or JPEG.
    func writeSample(_ path: String, width: Double = 48, height: Double = 32) throws {
        let board = try Filter(named: "CICheckerboardGenerator")
        try board.setValue(.number(8), forKey: "inputWidth")
        let hue = try Filter(named: "CIHueAdjust")
        try hue.setValue(.image(try board.makeOutputImage()), forKey: "inputImage")
        try hue.setValue(.number(1), forKey: "inputAngle")
        try ImageFile.write(try hue.makeOutputImage(), to: path, rect: Rect(x: 0, y: 0, width: width, height: height),
                            context: RenderContext())
    }

    func size(_ path: String) throws -> (Int, Int) {
        let extent = try ImageFile.read(path).extent
        return (Int(extent.width), Int(extent.height))
    }

    func pixels(_ path: String) throws -> [UInt8] {
        let image = try ImageFile.read(path)
        return try RenderContext().renderRGBA8(image, rect: image.extent).bytes
    }

    @Test func batchKeepsNamesReportsFailuresAndRefusesToOverwrite() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = directory.appendingPathComponent("photos").path, out = directory.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try writeSample(photos + "/a.png")
        try writeSample(photos + "/b.jpg", width: 40, height: 24)
        try writeSample(photos + "/c.png", width: 20, height: 30)
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: photos + "/bad.png"))

        // A quoted pattern and a second -i; the bad file fails alone.
        let first = try cli.run("render", "--recipe", Self.look("warm-fade"), "-i", photos + "/*.png", "-i", photos + "/b.jpg", "-o", out + "/")
        #expect(first.status == 1)
        #expect(first.stderr.contains("bad.png"), "\(first.stderr)")
        #expect(first.stderr.contains("rendered 3 of 4 files"), "\(first.stderr)")
        #expect(try size(out + "/a.png") == (48, 32))
        #expect(try size(out + "/b.jpg") == (40, 24))
        #expect(try size(out + "/c.png") == (20, 30))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out)) == ["a.png", "b.jpg", "c.png"])

        // Existing outputs are left alone unless --overwrite, and counted as skipped (a run again resumes).
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/a.png"))
        let again = try cli.run("render", "CISepiaTone", "-i", photos + "/a.png", "-i", photos + "/c.png", "-o", out)
        #expect(again.status == 0)
        #expect(again.stderr.contains("rendered 0 of 2 files") && again.stderr.contains("2 skipped: their outputs exist"), "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/a.png")) == before)
        let replaced = try cli.run("render", "CISepiaTone", "-i", photos + "/a.png", "-i", photos + "/c.png", "-o", out, "--overwrite")
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(replaced.stderr.contains("rendered 2 of 2 files"), "\(replaced.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/a.png")) != before)

        // A plain chain in a batch renders what a single render does; --format changes the extension.
        let single = directory.appendingPathComponent("single.png").path
        #expect(try cli.run("render", "CISepiaTone", "inputIntensity=0.7", "-i", photos + "/b.jpg", "-o", single).status == 0)
        let batch = try cli.run("render", "CISepiaTone", "inputIntensity=0.7", "-i", photos + "/[b].*", "-o", directory.path + "/png/",
                                "--format", "png", "--jobs", "1")
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(try pixels(directory.path + "/png/b.png") == pixels(single))

        let toAFile = try cli.run("render", "CISepiaTone", "-i", photos + "/a.png", "-i", photos + "/c.png", "-o", directory.path + "/x.png")
        #expect(toAFile.status != 0 && toAFile.stderr.contains("directory"), "\(toAFile.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/x.png"))

        let nothing = try cli.run("render", "CISepiaTone", "-i", photos + "/*.tiff", "-o", out)
        #expect(nothing.status == 1 && nothing.stderr.contains("no file matches"), "\(nothing.stderr)")
    }

    @Test func everyShippedLookRendersOnASample() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sample = directory.appendingPathComponent("sample.png").path
        try writeSample(sample)
        let original = try pixels(sample)
        for look in ["vintage-film", "warm-fade", "duotone", "sketch"] {
            let output = directory.appendingPathComponent("\(look).png").path
            let result = try cli.run("render", "--recipe", Self.look(look), "-i", sample, "-o", output)
            #expect(result.status == 0, "\(look): \(result.stderr)")
            #expect(try size(output) == (48, 32), "\(look)")
            #expect(try pixels(output) != original, "\(look) changed nothing")
        }
        // The vintage grain: a flat grey comes out warmer and no longer flat.
        let grey = directory.appendingPathComponent("grey.png").path
        #expect(try cli.run("render", "CIConstantColorGenerator", "inputColor=0.5 0.5 0.5", "--crop", "0,0,64,64", "-o", grey).status == 0)
        let vintage = directory.appendingPathComponent("vintage-grey.png").path
        #expect(try cli.run("render", "--recipe", Self.look("vintage-film"), "-i", grey, "-o", vintage).status == 0)
        let bytes = try pixels(vintage)
        let centre = (32 * 64 + 32) * 4
        #expect(bytes[centre] > bytes[centre + 2], "warm: red \(bytes[centre]) over blue \(bytes[centre + 2])")
        let first: Int = (28 * 64 + 28) * 4, last: Int = (36 * 64 + 36) * 4
        let reds: Set<UInt8> = Set(stride(from: first, to: last, by: 4).map { (i: Int) -> UInt8 in bytes[i] })
        #expect(reds.count > 2, "grain")
        // The grain only darkens: the look's first two steps alone (as in the recipe) are never darker.
        let clean = directory.appendingPathComponent("no-grain.png").path
        #expect(try cli.run("render", "CITemperatureAndTint", "inputNeutral=6500 0", "inputTargetNeutral=4800 10", "CIVignette",
                            "inputIntensity=0.8", "inputRadius=2", "-i", grey, "-o", clean).status == 0)
        let cleanBytes = try pixels(clean)
        let brighter = zip(bytes, cleanBytes).filter { (pair: (UInt8, UInt8)) -> Bool in Int(pair.0) > Int(pair.1) + 1 }.count
        #expect(brighter == 0, "\(brighter) channel values brighter than without grain")
    }

    @Test func recipeReferencesMustNameAnEarlierStep() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recipe = directory.appendingPathComponent("r.json")
        try Data(#"[{"filter": "CIMultiplyCompositing", "inputs": {"inputBackgroundImage": {"image": "later"}}}, {"filter": "CISepiaTone", "id": "later"}]"#.utf8).write(to: recipe)
        let result = try cli.run("render", "--recipe", recipe.path, "-i", "/nonexistent.png", "-o", directory.path + "/o.png")
        #expect(result.status != 0)
        #expect(result.stderr.contains("no earlier step has that id"), "\(result.stderr)")
    }

    @Test func animationToPNGFramesMovesFromFromToTo() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        func greys(_ ease: String) throws -> [UInt8] {
            let out = directory.appendingPathComponent(ease).path
            let result = try cli.run("animate", "CIConstantColorGenerator", "--animate", "inputColor=0 0 0 1:1 1 1 1",
                                     "--frames", "5", "--ease", ease, "--crop", "0,0,6,4", "-o", out)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == (1...5).map { "frame-000\($0).png" })
            return try (1...5).map { index in
                let path = out + "/frame-000\(index).png"
                #expect(try size(path) == (6, 4))
                return try pixels(path)[0]
            }
        }
        let linear = try greys("linear"), eased = try greys("ease-in-out")
        #expect(linear.first == 0 && linear.last == 255)
        #expect(linear == linear.sorted() && Set(linear).count == 5, "\(linear)")
        #expect(eased.first == 0 && eased.last == 255 && eased[2] == linear[2])
        #expect(eased[1] < linear[1] && eased[3] > linear[3], "eased \(eased), linear \(linear)")
        // The frames exist now: a second run refuses, --overwrite replaces.
        let again = try cli.run("animate", "CIConstantColorGenerator", "--animate", "inputColor=0 0 0 1:1 1 1 1",
                                "--frames", "5", "--crop", "0,0,6,4", "-o", directory.appendingPathComponent("linear").path)
        #expect(again.status != 0 && again.stderr.contains("exists"), "\(again.stderr)")
    }

    /// Apple's render-destination sample at a small size: the GIF decoded by Pillow.
    @Test func renderDestinationSampleAsAGIF() throws {
        guard Self.hasPillow else {
            print("skipped: python3 with Pillow (python3-pil) is not installed")
            return
        }
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let gif = directory.appendingPathComponent("checker.gif").path
        let result = try cli.run("animate", "--recipe", Self.look("render-destination"), "--animate", "inputCenter=[0 0]:[22 22]",
                                 "--animate", "inputAngle=0:0.88", "--frames", "12", "--fps", "20", "--crop", "0,0,64,48", "-o", gif)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Self.python("""
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            durations, firsts = [], []
            for i in range(im.n_frames):
                im.seek(i)
                durations.append(im.info.get('duration'))
                firsts.append(im.convert('RGB').getpixel((4, 4)))
            print(im.n_frames, im.size[0], im.size[1], im.info.get('loop'), set(durations))
            print(firsts[0], firsts[-1])
            """, gif)
        let lines = report.split(separator: "\n").map(String.init)
        #expect(lines.first == "12 64 48 0 {50}", "\(report)")
        // The first frame is the sample's unturned red and yellow board (both exact in the 6×7×6 cube).
        #expect(lines.count > 1 && (lines[1].hasPrefix("(255, 0, 0)") || lines[1].hasPrefix("(255, 255, 0)")), "\(report)")
    }

    @Test func y4mOnStandardOutput() throws {
        for chroma in [420, 444] {
            let (status, data, stderr) = try Self.runBinary(["animate", "CIConstantColorGenerator", "--animate", "inputColor=1 0 0 1:1 0 0 1",
                                                            "--frames", "7", "--crop", "0,0,5,3", "--y4m", "--chroma", "\(chroma)", "-o", "-"])
            #expect(status == 0, "\(stderr)")
            let header = "YUV4MPEG2 W5 H3 F25:1 Ip A1:1 \(chroma == 420 ? "C420jpeg" : "C444") XCOLORRANGE=LIMITED\n"
            #expect(data.prefix(header.utf8.count) == Data(header.utf8))
            let chromaSamples = chroma == 420 ? 3 * 2 : 5 * 3
            let frameBytes = 6 + 15 + 2 * chromaSamples
            #expect(data.count == header.utf8.count + 7 * frameBytes, "\(data.count) bytes")
            var frames = 0
            var offset = header.utf8.count
            while offset + frameBytes <= data.count {
                let start = data.startIndex + offset
                #expect(data[start..<start + 6] == Data("FRAME\n".utf8))
                // Pure red in BT.601 video range: Y 81, Cb 90, Cr 240.
                        let y: UInt8 = data[start + 6], cb: UInt8 = data[start + 21], cr: UInt8 = data[start + 21 + chromaSamples]
                #expect(y == 81 && cb == 90 && cr == 240, "\(y) \(cb) \(cr)")
                frames += 1
                offset += frameBytes
            }
            #expect(frames == 7)
        }
        let refused = try cli.run("animate", "CIConstantColorGenerator", "--animate", "inputColor=1 0 0 1:0 0 1 1", "--crop", "0,0,5,3", "-o", "-")
        #expect(refused.status != 0 && refused.stderr.contains("--y4m"))
    }

    static let hasPillow: Bool = (try? python("import PIL")) != nil

    static func python(_ script: String, _ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The binary with its standard output kept as bytes.
    static func runBinary(_ arguments: [String]) throws -> (Int32, Data, String) {
        let binary = try #require(CommandLineTests.binary)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data, String(decoding: errors, as: UTF8.self))
    }
}
