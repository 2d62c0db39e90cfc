import FilterEngine
import FilterPipeline
import Foundation
import Testing

/// `render --shard I/N`: disjoint, deterministic parts of a batch that together render it once, run side by side
/// by GNU parallel as a user would, resumable after a killed shard.
@Suite(.serialized) struct ShardedBatchTests {
    let cli = CommandLineTests()

    /// 40 small PNGs named 00…39 (each a different shade, so a wrong output shows).
    func photos(in directory: URL) throws -> String {
        let folder = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for i in 0..<40 {
            let colour = Image(color: Color(red: Double(i) / 40, green: 0.5, blue: 1 - Double(i) / 40))
            try ImageFile.write(colour, to: folder.appendingPathComponent(String(format: "%02d.png", i)).path,
                                rect: Rect(x: 0, y: 0, width: 24, height: 16), context: RenderContext())
        }
        return folder.path
    }

    func listing(_ path: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path).appendingPathComponent(name))
        }
        return files
    }

    @Test func shardsAreDisjointCompleteAndTheSameAsOneRun() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-shards-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = try photos(in: directory)
        let whole = directory.appendingPathComponent("whole").path, sharded = directory.appendingPathComponent("sharded").path

        let one = try cli.run("render", "CISepiaTone", "-i", photos + "/*.png", "-o", whole + "/")
        #expect(one.status == 0, "\(one.stderr)")
        #expect(try listing(whole).count == 40)

        // Each shard alone: its part only, and the summary names the shard.
        var seen: [String: Int] = [:]
        for index in 0..<4 {
            let part = directory.appendingPathComponent("part\(index)").path
            let run = try cli.run("render", "CISepiaTone", "-i", photos + "/*.png", "-o", part + "/", "--shard", "\(index)/4")
            #expect(run.status == 0 && run.stderr.contains("rendered 10 of 10 files") && run.stderr.contains("(shard \(index)/4)"),
                    "\(run.stderr)")
            for name in try FileManager.default.contentsOfDirectory(atPath: part) { seen[name, default: 0] += 1 }
        }
        #expect(seen.count == 40 && seen.values.allSatisfy { $0 == 1 }, "every file in exactly one shard")

        // Four shards at once under GNU parallel, into one directory: the same bytes as one run.
        guard let binary = CommandLineTests.binary, FileManager.default.isExecutableFile(atPath: "/usr/bin/parallel") else {
            print("GNU parallel is missing (scripts/install-deps installs it): the parallel shard run is skipped")
            return
        }
        let script = """
            parallel --will-cite --halt now,fail=1 '\(binary.path) render CISepiaTone -i "\(photos)/*.png" -o \(sharded)/ --shard {}/4' ::: 0 1 2 3
            """
        let status = try Self.shell(script)
        #expect(status == 0)
        #expect(try listing(sharded) == listing(whole))

        // A killed shard: its outputs removed as if it never ran; running it again finishes the batch, and the
        // shards already done skip everything.
        let lost = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("part2").path)
        for name in lost.prefix(7) { try FileManager.default.removeItem(atPath: sharded + "/" + name) }
        let resumed = try cli.run("render", "CISepiaTone", "-i", photos + "/*.png", "-o", sharded + "/", "--shard", "2/4")
        #expect(resumed.status == 0 && resumed.stderr.contains("rendered 7 of 10 files") && resumed.stderr.contains("3 skipped"),
                "\(resumed.stderr)")
        #expect(try listing(sharded) == listing(whole))
    }

    @Test func theIndexComesFromTheSchedulerAndBadShardsAreRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-shards-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = try photos(in: directory)
        let out = directory.appendingPathComponent("out").path
        guard let binary = CommandLineTests.binary else { Issue.record("no binary"); return }
        // Kubernetes Indexed Job, then a Slurm array starting at 1.
        #expect(try Self.shell("JOB_COMPLETION_INDEX=1 \(binary.path) render CISepiaTone -i '\(photos)/*.png' -o \(out)/k8s/ --shard auto/8") == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/k8s").sorted() == ["01.png", "09.png", "17.png", "25.png", "33.png"])
        #expect(try Self.shell("SLURM_ARRAY_TASK_ID=8 SLURM_ARRAY_TASK_MIN=1 \(binary.path) render CISepiaTone -i '\(photos)/*.png' -o \(out)/slurm/ --shard auto/8") == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/slurm").sorted() == ["07.png", "15.png", "23.png", "31.png", "39.png"])

        for (shard, message) in [("4/4", "outside 0…3"), ("-1/4", "outside"), ("1/0", "I/N"), ("x/4", "I/N"), ("auto/4", "JOB_COMPLETION_INDEX")] {
            let run = try cli.run("render", "CISepiaTone", "-i", photos + "/*.png", "-o", out + "/bad/", "--shard", shard)
            #expect(run.status != 0 && run.stderr.contains(message), "\(shard): \(run.stderr)")
        }
        let single = try cli.run("render", "CISepiaTone", "-i", photos + "/00.png", "-o", out + "/one.png", "--shard", "0/2")
        #expect(single.status != 0 && single.stderr.contains("splits a batch"), "\(single.stderr)")
    }

    /// Runs a line of bash (environment cleared of the scheduler variables first); the exit status.
    static func shell(_ script: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        var environment = ProcessInfo.processInfo.environment
        for name in ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN"] { environment[name] = nil }
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
