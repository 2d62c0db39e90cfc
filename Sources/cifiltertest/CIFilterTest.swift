import ArgumentParser
import FilterEngine
import Foundation

@main
struct CIFilterTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cifiltertest",
        abstract: "Browse, tweak and render Core Image filters in the terminal.",
        version: cifiltertestVersion,
        subcommands: [ListCommand.self, InfoCommand.self, RenderCommand.self, AnimateCommand.self, StreamCommand.self, BenchCommand.self, ExploreCommand.self],
        defaultSubcommand: ExploreCommand.self
    )

    /// ArgumentParser's main, with every error message passed through `Diagnostics.message` on its way out:
    /// the one place where the command line prints errors, so no user text reaches the terminal raw.
    static func main() {
        quietCrashReporter()
        RegularFile.removeTemporaryFilesOnSignals()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            let text = fullMessage(for: error)
            if code == .success {
                // --help, --version: our own text, to stdout as ArgumentParser does.
                if !text.isEmpty { print(text) }
            } else {
                Diagnostics.printError(text)
            }
            Foundation.exit(code.rawValue)
        }
    }
}

extension CIFilterTest {
    /// The Swift runtime's crash reporter reads `SWIFT_BACKTRACE` once, at start-up, and on a terminal it is
    /// interactive: it would print over the explorer's interface and wait for a key ("Press space to
    /// interact…"), and stop a command run by hand for 30 s. So on a terminal the program runs itself again, once,
    /// with `interactive=no` added (the person's other settings kept): a crash then prints its backtrace and exits
    /// (in the explorer after its crash handler has restored the terminal).
    static func quietCrashReporter() {
        let current = ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] ?? ""
        guard isatty(STDIN_FILENO) != 0 || isatty(STDERR_FILENO) != 0, !current.contains("interactive=") else { return }
        setenv("SWIFT_BACKTRACE", current.isEmpty ? "interactive=no" : current + ",interactive=no", 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        // Still here: exec failed; the program runs as it is.
    }
}

/// Messages to stderr, made safe: control characters escaped and each line shortened (`DisplayText`).
enum Diagnostics {
    /// Lines of error text are cut after this many characters (usage lines are shorter).
    static let lineLimit = 300

    static func safe(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { DisplayText.escaped(String($0), limit: lineLimit) }.joined(separator: "\n")
    }

    static func printError(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardError.write(Data((safe(text) + "\n").utf8))
    }

    static func warn(_ text: String) {
        printError("cifiltertest: warning: " + text)
    }
}
