import FilterEngine
import FilterPipeline
import Foundation
import Testing

/// Reliability of outputs (issue: reliability on the new surfaces): devices and FIFOs are written to, never
/// replaced; temporary files are exclusive, unpredictable and removed when the program is killed; batches never
/// replace each other's files; a stream cut short keeps its frames; hostile names answer at once.
@Suite struct OutputSafetyTests {
    let cli = CommandLineTests()

    func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-safety-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A 4:4:4 Y4M stream of `frames` grey 8×8 frames.
    static func stream(frames: Int) -> Data {
        var data = Data("YUV4MPEG2 W8 H8 F25:1 C444\n".utf8)
        for _ in 0..<frames { data += Data("FRAME\n".utf8) + Data(repeating: 128, count: 8 * 8 * 3) }
        return data
    }

    /// Whole 8×8 4:4:4 frames after the header line (the writer's header may carry more fields than the input's).
    static func frames(in data: Data) -> Int? {
        guard let newline = data.firstIndex(of: 0x0A) else { return nil }
        let body = data.count - (newline + 1), frame = 6 + 8 * 8 * 3
        return body % frame == 0 ? body / frame : nil
    }

    @Test func aFIFOOutputIsWrittenToNotReplaced() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("out.y4m").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader on the FIFO collects what the stream writes.
        let collected = directory.appendingPathComponent("collected").path
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "cat '\(fifo)' > '\(collected)'"]
        try reader.run()
        let result = try StreamCommandTests.run(["stream", "CIColorInvert", "-o", fifo], input: Self.stream(frames: 3))
        reader.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is still a FIFO")
        let written = try Data(contentsOf: URL(fileURLWithPath: collected))
        #expect(Self.frames(in: written) == 3, "\(written.count) bytes")
        // A directory is refused with one line.
        let toDirectory = try StreamCommandTests.run(["stream", "CIColorInvert", "-o", directory.path], input: Self.stream(frames: 1))
        #expect(toDirectory.status != 0 && toDirectory.stderr.contains("is a directory"), "\(toDirectory.stderr)")
    }

    @Test func aStreamWhoseInputBreaksKeepsTheFramesBeforeIt() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("kept.y4m").path
        // Two good frames, then a frame cut in the middle.
        let broken = Self.stream(frames: 2) + Data("FRAME\n".utf8) + Data(repeating: 1, count: 50)
        let result = try StreamCommandTests.run(["stream", "CIColorInvert", "-o", output], input: broken)
        #expect(result.status != 0)
        let kept = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(Self.frames(in: kept) == 2, "\(kept.count) bytes: \(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["kept.y4m"], "no temporary file left")
    }

    @Test func aKilledStreamLeavesNoPartialFile() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.y4m").path
        let process = Process()
        process.executableURL = try #require(CommandLineTests.binary)
        process.arguments = ["stream", "CIColorInvert", "-o", output]
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        // One frame, then the input stays open: the stream waits with its temporary file open.
        try input.fileHandleForWriting.write(contentsOf: Self.stream(frames: 1))
        var partial: [String] = []
        for _ in 0..<100 where partial.isEmpty {
            usleep(50_000)
            partial = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".partial-") }
        }
        #expect(!partial.isEmpty, "the stream writes into a temporary file beside its output")
        #expect(partial.allSatisfy { $0.hasPrefix(".out.y4m.partial-") && !$0.hasSuffix("\(process.processIdentifier)") },
                "an unpredictable name: \(partial)")
        // SIGTERM (a test runner may start children with SIGINT ignored, which the program then keeps ignoring).
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<200 where process.isRunning { usleep(50_000) }
        if process.isRunning {
            Issue.record("the stream did not die of SIGTERM")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        try? input.fileHandleForWriting.close()
    }

    @Test func twoBatchesWritingTheSameOutputsNeverReplaceEachOther() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = directory.appendingPathComponent("photos").path
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        for i in 0..<24 {
            try ImageFile.write(Image(color: Color(red: Double(i) / 24, green: 0.3, blue: 0.6)),
                                to: photos + String(format: "/%02d.png", i), rect: Rect(x: 0, y: 0, width: 64, height: 48),
                                context: RenderContext())
        }
        let out = directory.appendingPathComponent("out").path + "/"
        let binary = try #require(CommandLineTests.binary)
        // Two runs of the same batch at once, without --overwrite: each file is written by exactly one of them.
        var logs: [URL] = []
        let runs = (0..<2).map { index -> Process in
            let process = Process()
            process.executableURL = binary
            process.arguments = ["render", "CISepiaTone", "-i", photos + "/*.png", "-o", out, "--jobs", "1"]
            let log = directory.appendingPathComponent("log\(index)")
            FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardError = try? FileHandle(forWritingTo: log)
            logs.append(log)
            return process
        }
        for run in runs { try run.run() }
        for run in runs { run.waitUntilExit() }
        var rendered = 0
        for log in logs {
            let text = try String(contentsOf: log, encoding: .utf8)
            let match = text.firstMatch(of: /rendered (\d+) of 24 files/)
            rendered += Int(try #require(match, "\(text)").1)!
        }
        #expect(rendered == 24, "every file written once in all")
        #expect(runs.allSatisfy { $0.terminationStatus == 0 })
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).count == 24)
    }

    @Test func infoOfAHundredThousandCharacterNameAnswersAtOnce() throws {
        let start = Date()
        let result = try cli.run("info", String(repeating: "CISepiaTone", count: 9_091))
        #expect(result.status != 0 && result.stderr.contains("no filter"), "\(result.stderr.prefix(300))")
        #expect(result.stderr.count < 2_000, "the message is cut")
        #expect(Date().timeIntervalSince(start) < 5)
    }
}
