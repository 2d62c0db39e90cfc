import Foundation
import Testing

/// The generated man page and completions against the binary's own command-line declarations (scripts/test also
/// regenerates and compares them byte for byte: scripts/generate-docs --check), and `--version`.
@Suite struct ShipTests {
    let cli = CommandLineTests()
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func file(_ path: String) throws -> String {
        try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func versionIsTheOneTheSourceDeclares() throws {
        let declared = try file("Sources/CommandLineTool/Version.swift")
        let result = try cli.run("--version")
        #expect(result.status == 0)
        #expect(declared.contains("public let cifiltertestVersion = \"\(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))\""))
    }

    /// `cifiltertest-headless`, built beside `cifiltertest`, renders without the terminal interface: it links
    /// neither ncurses nor chafa (ldd), and has every command but `explore`.
    @Test func theHeadlessBuildLinksNoTerminalLibraries() throws {
        let binary = try #require(CommandLineTests.binary).deletingLastPathComponent().appendingPathComponent("cifiltertest-headless")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build it: swift build --product cifiltertest-headless")
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [binary.path]
        let pipe = Pipe()
        ldd.standardOutput = pipe
        try ldd.run()
        let libraries = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(libraries.contains("libpng"), "\(libraries)")
        #expect(!libraries.contains("ncurses") && !libraries.contains("chafa") && !libraries.contains("glib"), "\(libraries)")
        let help = Process()
        help.executableURL = binary
        help.arguments = ["--help"]
        let out = Pipe()
        help.standardOutput = out
        try help.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        help.waitUntilExit()
        #expect(text.contains("  render") && text.contains("  stream") && !text.contains("  explore"), "\(text)")
    }

    @Test func completionsAreWhatTheBinaryGenerates() throws {
        for shell in ["bash", "zsh", "fish"] {
            let generated = try cli.run("--generate-completion-script", shell)
            #expect(generated.status == 0)
            #expect(try file("completions/cifiltertest.\(shell)") == generated.stdout, "completions/cifiltertest.\(shell) is stale: run scripts/generate-docs")
        }
        // bash loads it and registers the command.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "source \(Self.repository.path)/completions/cifiltertest.bash && complete -p cifiltertest"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && text.contains("cifiltertest"), "\(text)")
    }

    /// Every option of every subcommand appears in the man page, and the page names no option that is gone.
    @Test func manPageListsEveryOption() throws {
        let dump = try cli.run("--experimental-dump-help")
        #expect(dump.status == 0)
        let info = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var names: Set<String> = []
        func collect(_ command: [String: Any]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where (argument["shouldDisplay"] as? Bool) != false {
                for name in argument["names"] as? [[String: Any]] ?? [] where (name["kind"] as? String) == "long" {
                    if let n = name["name"] as? String { names.insert(n) }
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { collect(sub) }
        }
        collect(try #require(info["command"] as? [String: Any]))
        #expect(names.contains("shard") && names.contains("recipe"))
        let page = try file("cifiltertest.1")
        // mdoc writes a long option as `Fl -name`, after its short name as `Fl n , -name`.
        var documented: Set<String> = []
        let longName = try NSRegularExpression(pattern: "(?:Fl |, )-([A-Za-z0-9][A-Za-z0-9-]*)")
        for line in page.split(separator: "\n") where line.hasPrefix(".It Fl") {
            let text = String(line)
            for match in longName.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                documented.insert((text as NSString).substring(with: match.range(at: 1)))
            }
        }
        #expect(names.subtracting(documented).isEmpty, "options missing from cifiltertest.1: \(names.subtracting(documented).sorted()); run scripts/generate-docs")
        #expect(documented.subtracting(names).isEmpty, "options gone but documented: \(documented.subtracting(names).sorted())")
    }

    @Test func manPageRenders() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else {
            print("man is missing (scripts/install-deps installs man-db): the rendering check is skipped")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/man")
        process.arguments = [Self.repository.appendingPathComponent("cifiltertest.1").path]
        var environment = ProcessInfo.processInfo.environment
        environment["MANPAGER"] = "cat"
        environment["PAGER"] = "cat"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("SYNOPSIS") && text.contains("--shard"), "\(text.prefix(300))")
    }
}
