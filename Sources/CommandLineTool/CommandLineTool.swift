import ArgumentParser
import FilterEngine
import FilterPipeline
import Foundation

/// What both executables share: their description, their commands but `explore`, and how they run.
public enum CommandLineTool {
    public static let abstract = "Browse, tweak and render Core Image filters in the terminal."
    public static let version = cifiltertestVersion
    /// Every command that needs no terminal interface.
    public static let headlessCommands: [any ParsableCommand.Type] = [
        ListCommand.self, InfoCommand.self, RenderCommand.self, AnimateCommand.self, StreamCommand.self, BenchCommand.self,
    ]

    /// ArgumentParser's main for `root`, with every error message passed through `Diagnostics.message` on its way
    /// out: the one place where the command line prints errors, so no user text reaches the terminal raw.
    public static func main(_ root: any ParsableCommand.Type) -> Never {
        quietCrashReporter()
        RegularFile.removeTemporaryFilesOnSignals()
        do {
            var command = try root.parseAsRoot()
            try command.run()
            Foundation.exit(0)
        } catch {
            let code = root.exitCode(for: error)
            let text = root.fullMessage(for: error)
            if code == .success {
                // --help, --version: our own text, to stdout as ArgumentParser does.
                if !text.isEmpty { print(text) }
            } else {
                Diagnostics.printError(text)
            }
            Foundation.exit(code.rawValue)
        }
    }

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
public enum Diagnostics {
    /// Lines of error text are cut after this many characters (usage lines are shorter).
    static let lineLimit = 300

    static func safe(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { DisplayText.escaped(String($0), limit: lineLimit) }.joined(separator: "\n")
    }

    public static func printError(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardError.write(Data((safe(text) + "\n").utf8))
    }

    public static func warn(_ text: String) {
        printError("cifiltertest: warning: " + text)
    }
}
