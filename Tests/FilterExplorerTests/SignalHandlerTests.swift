import CTerminalSignals
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The explorer's C signal handlers in a forked child, with a pipe standing in for the terminal: what the
/// handler writes to restore it arrives in the pipe. (The tmux tests cover the whole program.)
@Suite(.serialized) struct SignalHandlerTests {
    /// Runs `body` in a child process; returns how it ended (exit status, or 128+signal), the seconds it took and
    /// what it wrote to the stand-in terminal.
    func child(_ body: @escaping (Int32) -> Void) throws -> (status: Int32, seconds: Double, written: String) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TmuxError("pipe failed") }
        // Made before the fork (a static copy in the C file): the child only calls C functions.
        let restore = "RESTORED"
        cts_set_restore_sequence(restore, restore.utf8.count)
        let start = Date()
        let pid = fork()
        if pid == 0 {
            close(fds[0])
            // Only async-signal-safe work from here: the test runner's other threads do not exist in the child.
            var none = sigset_t()
            sigemptyset(&none)
            sigprocmask(SIG_SETMASK, &none, nil)
            // Default crash handling underneath: the Swift runtime's crash reporter (the test runner's) would
            // try to report on the child and hold the runner's output open.
            for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] { Glibc.signal(signal, SIG_DFL) }
            body(fds[1])
            _exit(0)
        }
        close(fds[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        var bytes = [UInt8](repeating: 0, count: 256)
        let n = read(fds[0], &bytes, bytes.count)
        close(fds[0])
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (code, Date().timeIntervalSince(start), String(decoding: bytes.prefix(max(0, n)), as: UTF8.self))
    }

    static func prepare(_ fd: Int32, grace: UInt32) {
        cts_save_terminal(fd)
        cts_install(grace)
    }

    @Test func aSignalIsAFlagTheLoopSees() throws {
        let result = try child { fd in
            Self.prepare(fd, grace: 5)
            kill(getpid(), SIGTERM)
            _exit(cts_pending_signal() == SIGTERM ? 7 : 1)
        }
        #expect(result.status == 7 && result.written == "")
    }

    @Test func aStuckLoopIsEndedAfterTheGracePeriodWithTheTerminalRestored() throws {
        let result = try child { fd in
            Self.prepare(fd, grace: 1)
            kill(getpid(), SIGTERM)
            for _ in 0..<100 { usleep(100_000) }  // never looks at the flag
        }
        #expect(result.status == 128 + SIGTERM)
        #expect(result.seconds > 0.8 && result.seconds < 5, "\(result.seconds) s")
        #expect(result.written == "RESTORED")
    }

    @Test func aSecondSignalEndsAtOnce() throws {
        let result = try child { fd in
            Self.prepare(fd, grace: 30)
            kill(getpid(), SIGTERM)
            kill(getpid(), SIGINT)
            for _ in 0..<100 { usleep(100_000) }
        }
        #expect(result.status == 128 + SIGINT && result.seconds < 5 && result.written == "RESTORED")
    }

    @Test func aCrashRestoresFirst() throws {
        let result = try child { fd in
            Self.prepare(fd, grace: 30)
            kill(getpid(), SIGSEGV)
            for _ in 0..<100 { usleep(100_000) }
        }
        #expect(result.status == 128 + SIGSEGV && result.written == "RESTORED")
    }

    @Test func uninstallPutsBackThePreviousHandlers() throws {
        let result = try child { fd in
            signal(SIGUSR1, SIG_IGN)
            Self.prepare(fd, grace: 30)
            cts_uninstall()
            kill(getpid(), SIGUSR1)  // ignored again
            _exit(cts_pending_signal() == 0 ? 9 : 1)
        }
        #expect(result.status == 9 && result.written == "")
    }
}
