import CTerminalSignals
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Ctrl-Z when the interface loop does not answer (stuck in a system call): the C handler restores the terminal and
/// stops the process itself, after the grace period or at once on a second Ctrl-Z; SIGCONT then asks the loop to
/// repaint. In a forked child, a pipe standing in for the terminal (as in `SignalHandlerTests`).
@Suite(.serialized) struct SuspendSignalTests {
    /// Forks a child that installs the handlers, sends itself SIGTSTP `count` times and then never polls; waits
    /// until it stops, continues it, and returns the seconds until the stop, what it wrote to the stand-in terminal
    /// and its exit status (7: it saw the request and, after SIGCONT, the resumed flag).
    func stuckChild(signals count: Int) throws -> (stopped: Bool, seconds: Double, written: String, status: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TmuxError("pipe failed") }
        let restore = "RESTORED"
        cts_set_restore_sequence(restore, restore.utf8.count)
        let start = Date()
        let pid = fork()
        if pid == 0 {
            // Only the stand-in terminal stays open: a pipe of another test's running command held by this
            // stopped child would keep that command's reader waiting.
            for fd in 3..<4096 where fd != fds[1] { close(Int32(fd)) }
            var none = sigset_t()
            sigemptyset(&none)
            sigprocmask(SIG_SETMASK, &none, nil)
            // A group of its own with a parent outside it: not orphaned, so SIGTSTP's default action does stop it.
            setpgid(0, 0)
            cts_save_terminal(fds[1])
            cts_install(1)
            for _ in 0..<count { kill(getpid(), SIGTSTP) }
            let requested = cts_suspend_requested() != 0 || count > 1
            // Stuck: no polling of the request, only waiting to be continued.
            var resumed = false
            for _ in 0..<100 where !resumed {
                usleep(50_000)
                resumed = cts_take_resumed() != 0
            }
            _exit(requested && resumed ? 7 : 1)
        }
        close(fds[1])
        var status: Int32 = 0
        while waitpid(pid, &status, WUNTRACED) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(start)
        let stopped = (status & 0xff) == 0x7f && (status >> 8) & 0xff == SIGTSTP
        var bytes = [UInt8](repeating: 0, count: 256)
        let n = read(fds[0], &bytes, bytes.count)
        close(fds[0])
        if stopped {
            kill(pid, SIGCONT)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (stopped, seconds, String(decoding: bytes.prefix(max(0, n)), as: UTF8.self), code)
    }

    @Test func aStuckLoopIsStoppedAfterTheGracePeriodWithTheTerminalRestored() throws {
        let result = try stuckChild(signals: 1)
        #expect(result.stopped, "stopped by SIGTSTP")
        #expect(result.seconds >= 0.9 && result.seconds < 5, "after the 1 s grace period: \(result.seconds) s")
        #expect(result.written == "RESTORED")
        #expect(result.status == 7, "the request was flagged and SIGCONT set the resumed flag")
    }

    @Test func aSecondCtrlZStopsAtOnce() throws {
        let result = try stuckChild(signals: 2)
        #expect(result.stopped)
        #expect(result.seconds < 0.9, "without waiting for the grace period: \(result.seconds) s")
        #expect(result.written == "RESTORED")
        #expect(result.status == 7)
    }
}
