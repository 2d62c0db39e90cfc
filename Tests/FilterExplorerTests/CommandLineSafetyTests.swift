import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The command line with hostile input: control sequences in values, a closed output pipe, files that are not
/// regular files, and a render killed while it writes.
@Suite struct CommandLineSafetyTests {
    let cli = CommandLineTests()

    func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-safety-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func controlSequencesInValuesAreEchoedEscapedAndShort() throws {
        let osc52 = "\u{1b}]52;c;aGVsbG8=\u{07}"
        let cases: [[String]] = [
            ["render", "CISepiaTone", "inputIntensity=\(osc52)", "-o", "/tmp/never.png"],
            ["render", "CI\(osc52)Sepia", "-o", "/tmp/never.png"],
            ["info", "Sepia\(osc52)"],
            ["render", "CISepiaTone", "-i", "/tmp/\(osc52).png", "-o", "/tmp/never.png"],
            ["render", "CISepiaTone", "input\u{1b}[2JKey=1", "-o", "/tmp/never.png"],
        ]
        for arguments in cases {
            let result = try cli.run(arguments)
            #expect(result.status != 0)
            #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("\\e"), "\(arguments): \(result.stderr)")
        }
        let long = String(repeating: "x", count: 20_000)
        let result = try cli.run(["render", "CISepiaTone", "inputIntensity=\(long)", "-o", "/tmp/never.png"])
        #expect(result.stderr.count < 1000 && result.stderr.contains("…"), "\(result.stderr.count) characters")
    }

    @Test func nonRegularInputsAreRefusedAtOnce() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let out = directory.appendingPathComponent("o.png").path
        for (path, reason) in [(directory.path, "is a directory"), (fifo, "is a named pipe"), ("/dev/zero", "is a device")] {
            let start = Date()
            let result = try cli.run(["render", "CISepiaTone", "-i", path, "-o", out])
            #expect(result.status == 1 && result.stderr.contains(reason), "\(result.stderr)")
            #expect(Date().timeIntervalSince(start) < 10)
            let recipe = try cli.run(["render", "--recipe", path, "-o", out])
            #expect(recipe.status != 0 && recipe.stderr.contains(reason), "\(recipe.stderr)")
        }
    }

    /// `cifiltertest list | head -1`: the command dies of SIGPIPE quietly (no error text, no crash report), as
    /// other Unix programs do.
    @Test func closedOutputPipeEndsQuietly() throws {
        let binary = try #require(CommandLineTests.binary)
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let err = directory.appendingPathComponent("err").path
        let script = "'\(binary.path)' list --keys 2>'\(err)' | head -1 >/dev/null; '\(binary.path)' list --json 2>>'\(err)' | head -c 10 >/dev/null"
        let (status, _) = try Spawn.run("/bin/sh", ["-c", script])
        #expect(status == 0)
        #expect(try String(contentsOfFile: err, encoding: .utf8) == "")
    }

    /// A render killed at any moment leaves the previous output whole: the new file is written beside it and
    /// renamed. The kill is sent the moment the temporary file appears (while it is being written), and at
    /// fixed times during the render.
    @Test func killedRenderLeavesThePreviousOutputIntact() throws {
        let binary = try #require(CommandLineTests.binary)
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.png").path
        let previous = try cli.run(["render", "CICheckerboardGenerator", "--crop", "0,0,64,64", "-o", out])
        #expect(previous.status == 0, "\(previous.stderr)")
        let original = try Data(contentsOf: URL(fileURLWithPath: out))
        let arguments = ["render", "CIRandomGenerator", "--crop", "0,0,1200,1200", "-o", out]
        var caughtWriting = false
        for delay in [nil, 0.3, 1.0] as [Double?] {
            let pid = try Spawn.start(binary.path, arguments)
            let deadline = Date(timeIntervalSinceNow: delay ?? 120)
            var exited = false
            while Date() < deadline {
                if delay == nil, (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?
                    .contains(where: { $0.hasPrefix(".out.png.partial-") }) == true {
                    caughtWriting = true
                    break
                }
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { exited = true; break }
                usleep(2_000)
            }
            if !exited {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            }
            let now = try Data(contentsOf: URL(fileURLWithPath: out))
            if now != original {
                // Only a finished render may have replaced it, and then it is whole.
                let header = try cli.run(["render", "CIColorInvert", "-i", out, "-o", directory.appendingPathComponent("check.png").path])
                #expect(header.status == 0, "the output was replaced by a damaged file: \(header.stderr)")
                try original.write(to: URL(fileURLWithPath: out))
            }
        }
        if !caughtWriting { print("note: the kill did not land while the temporary file existed (the write was too quick)") }
    }
}

/// Starting programs with posix_spawn (Foundation's Process can hang in the test runner on Linux).
enum Spawn {
    static func start(_ path: String, _ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw TmuxError("cannot run \(path): error \(status)") }
        return pid
    }

    /// Runs to the end; the exit status (128+n for a signal).
    static func run(_ path: String, _ arguments: [String]) throws -> (Int32, Void) {
        let pid = try start(path, arguments)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), ())
    }
}

/// The bad-file corpus in its quick form (`scripts/fuzz-files.py --quick`): every case must end as a clean
/// result or a clean error. Skipped, with the reason, without python3 and Pillow (`scripts/install-deps`).
@Suite struct BadFileCorpusTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/fuzz-files.py").standardizedFileURL.path
    static let pillow: Bool = (try? Spawn.run("/usr/bin/env", ["python3", "-c", "import PIL"]).0) == 0

    @Test(.enabled(if: pillow, "python3 with Pillow (python3-pil) is not installed: the bad-file corpus is skipped"))
    func quickCorpusHasNoCrashHangMemoryOrUnclearOutcome() throws {
        let binary = try #require(CommandLineTests.binary)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-corpus-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.path + ".log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let command = "'\(Self.script)' --quick --binary '\(binary.path)' --keep '\(directory.path)' > '\(log)' 2>&1"
        let (status, _) = try Spawn.run("/bin/sh", ["-c", command])
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let summary = output.split(separator: "\n").last.map(String.init) ?? ""
        print(summary)
        #expect(status == 0, "\(output)")
        #expect(summary.hasPrefix("files: ") && summary.contains(" 0 crash, 0 hang, 0 memory, 0 fail, 0 unclear-error"), "\(summary)")
    }
}
