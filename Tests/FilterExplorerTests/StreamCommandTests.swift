import FilterEngine
import FilterPipeline
import Foundation
import Testing

/// `cifiltertest stream`: Y4M test patterns made here (with this file's own BT.601/BT.709 arithmetic) go through
/// the built binary, and what comes out is decoded here again.
@Suite struct StreamCommandTests {
    let cli = CommandLineTests()

    /// A Y4M layout and colour, as this test writes it.
    struct Layout {
        var chroma: String  // 420jpeg, 420mpeg2, 422, 444
        var bt709: Bool
        var full: Bool
        var factor: (Int, Int) {
            switch chroma {
            case "444": (1, 1)
            case "422": (2, 1)
            default: (2, 2)
            }
        }
        var kr: Double { bt709 ? 0.2126 : 0.299 }
        var kb: Double { bt709 ? 0.0722 : 0.114 }
        var tag: String { "C\(chroma) XCOLORRANGE=\(full ? "FULL" : "LIMITED")" }

        func encode(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
            let y = kr * r + (1 - kr - kb) * g + kb * b
            let pb = (b - y) / (2 - 2 * kb), pr = (r - y) / (2 - 2 * kr)
            return full ? (255 * y, 128 + 255 * pb, 128 + 255 * pr) : (16 + 219 * y, 128 + 224 * pb, 128 + 224 * pr)
        }

        func decode(_ y: Double, _ cb: Double, _ cr: Double) -> (Double, Double, Double) {
            let l = full ? y / 255 : (y - 16) / 219
            let pb = (cb - 128) / (full ? 255 : 224), pr = (cr - 128) / (full ? 255 : 224)
            let r = l + (2 - 2 * kr) * pr, b = l + (2 - 2 * kb) * pb
            let g = (l - kr * r - kb * b) / (1 - kr - kb)
            return (min(max(r, 0), 1), min(max(g, 0), 1), min(max(b, 0), 1))
        }
    }

    static let width = 64, height = 32
    /// 75% colour bars in R'G'B' (white, yellow, cyan, green, magenta, red, blue, black), 8 pixels each.
    static let bars: [(Double, Double, Double)] = [(0.75, 0.75, 0.75), (0.75, 0.75, 0), (0, 0.75, 0.75), (0, 0.75, 0),
                                                   (0.75, 0, 0.75), (0.75, 0, 0), (0, 0, 0.75), (0, 0, 0)]

    /// The pattern: bars in the top half, a grey ramp from 0 to 1 across the bottom half.
    static func pattern(x: Int, y: Int) -> (Double, Double, Double) {
        if y < height / 2 { return bars[x / 8] }
        let v = Double(x) / Double(width - 1)
        return (v, v, v)
    }

    /// One frame's planes: Y per pixel, each chroma sample the mean of its block (bars are whole blocks wide).
    static func frame(_ layout: Layout) -> [UInt8] {
        var luma: [UInt8] = [], cb: [UInt8] = [], cr: [UInt8] = []
        for y in 0..<height { for x in 0..<width {
            let (r, g, b) = pattern(x: x, y: y)
            luma.append(UInt8(layout.encode(r, g, b).0.rounded()))
        } }
        let (fx, fy) = layout.factor
        for cy in 0..<height / fy { for cx in 0..<width / fx {
            var u = 0.0, v = 0.0
            for y in cy * fy..<(cy + 1) * fy { for x in cx * fx..<(cx + 1) * fx {
                let (r, g, b) = pattern(x: x, y: y)
                let (_, pu, pv) = layout.encode(r, g, b)
                u += pu; v += pv
            } }
            cb.append(UInt8((u / Double(fx * fy)).rounded())); cr.append(UInt8((v / Double(fx * fy)).rounded()))
        } }
        return luma + cb + cr
    }

    static func stream(_ layout: Layout, frames: Int = 3) -> Data {
        var data = Data("YUV4MPEG2 W\(width) H\(height) F30000:1001 Ip A1:1 \(layout.tag)\n".utf8)
        let planes = frame(layout)
        for _ in 0..<frames { data += Data("FRAME\n".utf8) + Data(planes) }
        return data
    }

    /// The header and each frame's R'G'B' per pixel (nearest chroma sample: enough inside the bars and the grey
    /// ramp, where chroma is flat).
    static func decode(_ data: Data, _ layout: Layout) throws -> (header: String, frames: [[(Double, Double, Double)]]) {
        let bytes = [UInt8](data)
        let newline = try #require(bytes.firstIndex(of: 10))
        let header = String(decoding: bytes[..<newline], as: UTF8.self)
        let (fx, fy) = layout.factor
        let cw = (width + fx - 1) / fx, ch = (height + fy - 1) / fy
        let size = width * height + 2 * cw * ch
        var frames: [[(Double, Double, Double)]] = []
        var offset = newline + 1
        while offset < bytes.count {
            #expect(Array(bytes[offset..<offset + 6]) == Array("FRAME\n".utf8))
            let p = offset + 6
            try #require(p + size <= bytes.count, "a truncated output frame")
            var pixels: [(Double, Double, Double)] = []
            for y in 0..<height { for x in 0..<width {
                let c = (y / fy) * cw + x / fx
                pixels.append(layout.decode(Double(bytes[p + y * width + x]), Double(bytes[p + width * height + c]),
                                            Double(bytes[p + width * height + cw * ch + c])))
            } }
            frames.append(pixels)
            offset = p + size
        }
        return (header, frames)
    }

    /// Pixels away from the edges between bars and between the bars and the ramp: the upsampled chroma blends
    /// neighbouring samples there, and 4:2:0 output averages two of those rows again.
    static func checked(_ x: Int, _ y: Int) -> Bool {
        abs(y - height / 2) >= 4 && (y >= height / 2 || (2...5).contains(x % 8))
    }

    func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-stream-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs the binary with `input` on standard input; standard output and error collected.
    static func run(_ arguments: [String], input: Data, executable: URL? = nil) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = try executable ?? #require(CommandLineTests.binary)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        // A refused stream closes its input early: writing on must fail with EPIPE, not kill the test runner.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        nonisolated(unsafe) let writing = stdin.fileHandleForWriting
        let feeder = Thread {
            try? writing.write(contentsOf: input)
            try? writing.close()
        }
        feeder.start()
        // The summary on standard error is short: read after standard output ends.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, out, String(decoding: errors, as: UTF8.self))
    }

    static let layouts: [Layout] = ["420jpeg", "420mpeg2", "422", "444"].flatMap { chroma in
        [(false, false), (true, false), (false, true), (true, true)].map { Layout(chroma: chroma, bt709: $0.0, full: $0.1) }
    }

    /// This test's own arithmetic against published values: BT.601 video-range 75% yellow is Y 162, Cb 44, Cr 142.
    @Test func theTestPatternHasKnownValues() {
        let (y, cb, cr) = Layout(chroma: "444", bt709: false, full: false).encode(0.75, 0.75, 0)
        #expect((y.rounded(), cb.rounded(), cr.rounded()) == (162, 44, 142))
        let (y7, cb7, cr7) = Layout(chroma: "444", bt709: true, full: false).encode(0.75, 0.75, 0)
        #expect((y7.rounded(), cb7.rounded(), cr7.rounded()) == (168, 44, 136))  // BT.709 75% yellow
    }

    /// Every layout, matrix and range through an identity recipe, file to file: same header, frame count and
    /// size, and colours within 1/255 of the input's.
    @Test(arguments: layouts) func identityRecipeKeepsFramesAndColours(layout: Layout) throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.y4m"), output = directory.appendingPathComponent("out.y4m")
        let recipe = directory.appendingPathComponent("identity.json")
        try Data(#"[{"filter": "CIExposureAdjust", "inputs": {"inputEV": 0}}]"#.utf8).write(to: recipe)
        try Self.stream(layout).write(to: input)
        // The matrix is given: the 64×32 frames would be read as BT.601 otherwise.
        let result = try cli.run("stream", "--recipe", recipe.path, "-i", input.path, "-o", output.path,
                                 "--matrix", layout.bt709 ? "709" : "601")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("3 frames in, 3 out, 0 dropped"), "\(result.stderr)")
        let before = try Self.decode(try Data(contentsOf: input), layout)
        let after = try Self.decode(try Data(contentsOf: output), layout)
        #expect(after.header == "YUV4MPEG2 W64 H32 F30000:1001 Ip A1:1 \(layout.tag)")
        #expect(after.frames.count == 3)
        var worst = 0.0
        for (a, b) in zip(before.frames, after.frames) {
            for y in 0..<Self.height { for x in 0..<Self.width where Self.checked(x, y) {
                let p = a[y * Self.width + x], q = b[y * Self.width + x]
                worst = max(worst, abs(p.0 - q.0), abs(p.1 - q.1), abs(p.2 - q.2))
            } }
        }
        #expect(worst * 255 <= 1.0001, "\(layout.chroma) 709 \(layout.bt709) full \(layout.full): off by \(worst * 255)/255")
    }

    /// Converting the layout, matrix and range on the way (to 4:4:4 full-range BT.601) keeps the colours only if
    /// both conversions are right; standard input to standard output.
    @Test(arguments: layouts) func conversionsThroughStandardInputAndOutput(layout: Layout) throws {
        let target = Layout(chroma: "444", bt709: false, full: true)
        let result = try Self.run(["stream", "--matrix", layout.bt709 ? "709" : "601", "--output-chroma", "444",
                                   "--output-matrix", "601", "--output-range", "full"], input: Self.stream(layout, frames: 2))
        #expect(result.status == 0, "\(result.stderr)")
        let after = try Self.decode(result.stdout, target)
        #expect(after.header == "YUV4MPEG2 W64 H32 F30000:1001 Ip A1:1 C444 XCOLORRANGE=FULL")
        #expect(after.frames.count == 2)
        let before = try Self.decode(Self.stream(layout, frames: 1), layout)
        var worst = 0.0
        for y in 0..<Self.height { for x in 0..<Self.width where Self.checked(x, y) {
            let p = before.frames[0][y * Self.width + x], q = after.frames[0][y * Self.width + x]
            worst = max(worst, abs(p.0 - q.0), abs(p.1 - q.1), abs(p.2 - q.2))
        } }
        // Two 8-bit roundings of Y'CbCr: within 1.5 levels.
        #expect(worst * 255 <= 1.5, "\(layout.chroma) 709 \(layout.bt709) full \(layout.full): off by \(worst * 255)/255")
    }

    /// The frames are in linear light inside: +½ EV multiplies the linear value of a grey by √2 (75% grey, linear
    /// 0.5225, becomes linear 0.7389, sRGB 0.8745).
    @Test func filtersWorkInLinearLight() throws {
        let layout = Layout(chroma: "444", bt709: false, full: true)
        let result = try Self.run(["stream", "CIExposureAdjust", "inputEV=0.5"], input: Self.stream(layout, frames: 1))
        #expect(result.status == 0, "\(result.stderr)")
        let white = try Self.decode(result.stdout, layout).frames[0][3]  // the 75% white bar
        func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        func encoded(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }
        let expected = encoded(2.0.squareRoot() * linear(0.75))
        #expect(abs(white.0 - expected) * 255 <= 1 && abs(white.1 - expected) * 255 <= 1, "\(white) \(expected)")
    }

    /// The recipe is resolved once: over 50 frames, its .cube table and its background image are each opened once
    /// (counted by strace on the real binary), and the frames still show both.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"),
                   "needs strace (scripts/install-deps installs it)"))
    func aStreamReadsTheRecipesFilesOnce() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 2³ table that swaps red and blue, and an opaque mid-grey background.
        let cube = dir.appendingPathComponent("swap.cube").path
        var table = "LUT_3D_SIZE 2\n"
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { table += "\(b) \(g) \(r)\n" } } }
        try table.write(toFile: cube, atomically: true, encoding: .utf8)
        let background = dir.appendingPathComponent("grey.png").path
        let grey = Image(color: Color(red: 0.2, green: 0.2, blue: 0.2, alpha: 1)).cropped(to: Rect(x: 0, y: 0, width: 64, height: 32))
        try ImageFile.write(grey, to: background, context: RenderContext())
        let recipe = dir.appendingPathComponent("look.json").path
        try """
            [{"filter": "CIColorCube", "inputs": {"inputCubeDimension": 2, "inputCubeData": "\(cube)"}},
             {"filter": "CISourceOverCompositing", "inputs": {"inputBackgroundImage": "\(background)"}}]
            """.write(toFile: recipe, atomically: true, encoding: .utf8)
        let trace = dir.appendingPathComponent("trace.txt").path
        let layout = Layout(chroma: "444", bt709: false, full: true)
        let binary = try #require(CommandLineTests.binary).path
        let result = try Self.run(["-f", "-e", "trace=openat,open", "-o", trace, binary, "stream", "--recipe", recipe],
                                  input: Self.stream(layout, frames: 50), executable: URL(fileURLWithPath: "/usr/bin/strace"))
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try Self.decode(result.stdout, layout)
        #expect(decoded.frames.count == 50)
        // The 75% yellow bar (r g 0) comes out cyan (0 g r): the table ran on every frame.
        if let yellow = decoded.frames.last?[2 * Self.width + 12] { #expect(yellow.0 < 0.05 && yellow.2 > 0.7, "\(yellow)") }
        let opens = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        for path in [cube, background, recipe] {
            #expect(opens.filter { $0.contains("\"\(path)\"") }.count == 1, "\(path) opened \(opens.filter { $0.contains(path) })")
        }
    }

    /// Bad streams are refused with one line, and never crash.
    @Test func badStreamsAreRefusedWithOneLine() throws {
        let good = Self.stream(Layout(chroma: "420jpeg", bt709: false, full: false), frames: 2)
        let cases: [(String, Data, String)] = [
            ("not Y4M", Data("P6\n64 32\n255\n".utf8), "does not start with"),
            ("truncated", good.prefix(good.count - 100), "frame 2 is truncated"),
            ("10-bit", Data("YUV4MPEG2 W64 H32 F25:1 C420p10\nFRAME\n".utf8), "more than 8 bits"),
            ("absurd size", Data("YUV4MPEG2 W1000000 H1000000 F25:1\nFRAME\n".utf8), "over the limit"),
            ("no size", Data("YUV4MPEG2 F25:1\n".utf8), "no W"),
            ("bad chroma", Data("YUV4MPEG2 W64 H32 C411\n".utf8), "not one of"),
            ("no FRAME", Data("YUV4MPEG2 W4 H4 C444\nFRAMX\n".utf8), "does not start with FRAME"),
            ("empty", Data(), "empty input"),
        ]
        for (name, input, message) in cases {
            let result = try Self.run(["stream"], input: input)
            #expect(result.status == 1, "\(name): status \(result.status)")
            let errors = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("stream:") }
            #expect(errors.count == 1 && errors[0].contains(message), "\(name): \(result.stderr)")
        }
    }

    /// --drop keeps the accounting: every frame read is either written or dropped.
    @Test func dropPolicyAccountsForEveryFrame() throws {
        let result = try Self.run(["stream", "--drop", "--queue", "1", "CIGaussianBlur", "inputRadius=3"],
                                  input: Self.stream(Layout(chroma: "420jpeg", bt709: false, full: false), frames: 20))
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("stream:") })
        let numbers = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        // "stream: N frames in, M out, D dropped"
        #expect(numbers.count >= 3 && numbers[0] == 20 && numbers[1] + numbers[2] == 20, "\(summary)")
        #expect(try Self.decode(result.stdout, Layout(chroma: "420jpeg", bt709: false, full: false)).frames.count == numbers[1])
    }

    /// A long stream through a pipe: the resident memory after 800 frames is what it was after 200.
    @Test func memoryStaysFlatOnALongStream() throws {
        let (width, height, frames) = (320, 240, 800)
        let process = Process()
        process.executableURL = try #require(CommandLineTests.binary)
        process.arguments = ["stream", "CISepiaTone"]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let samples = RSSSamples()
        nonisolated(unsafe) let handle = stdin.fileHandleForWriting
        let feeder = Thread {
            var planes = [UInt8](repeating: 128, count: width * height * 3 / 2)
            try? handle.write(contentsOf: Data("YUV4MPEG2 W\(width) H\(height) F25:1 C420jpeg\n".utf8))
            for index in 0..<frames {
                for i in stride(from: index % 7, to: width * height, by: 7) { planes[i] = UInt8(truncatingIfNeeded: i + index) }
                try? handle.write(contentsOf: Data("FRAME\n".utf8) + Data(planes))
                if index == 200 || index == frames - 1 { samples.add(RSSSamples.residentKiB(pid)) }
            }
            try? handle.close()
        }
        feeder.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(output.count > frames * width * height * 3 / 2)
        let values = samples.values.compactMap { $0 }
        try #require(values.count == 2)
        print("stream RSS: \(values[0]) KiB after 200 frames, \(values[1]) KiB after \(frames)")
        // A frame is 115 KB in and 307 KB rendered: a leak of one a frame would add over 200 MB.
        #expect(values[1] - values[0] < 16 * 1024, "RSS grew from \(values[0]) to \(values[1]) KiB")
    }
}

final class RSSSamples: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var values: [Int?] = []
    func add(_ value: Int?) { lock.lock(); values.append(value); lock.unlock() }

    /// VmRSS of a process, from /proc.
    static func residentKiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}

extension StreamCommandTests.Layout: CustomTestStringConvertible {
    var testDescription: String { "C\(chroma) BT.\(bt709 ? 709 : 601) \(full ? "full" : "video")" }
}
