// The explorer's signal handling, in one C file so that the handler and the interface loop share one flag
// (a `static` in a header gave every importer its own copy). Everything here is async-signal-safe.
#ifndef CTERMINALSIGNALS_H
#define CTERMINALSIGNALS_H
#include <stddef.h>

/// Remembers the terminal's settings (call before curses changes them) and the bytes that undo curses'
/// screen modes (alternate screen, hidden cursor, keypad and mouse reporting), written by a handler that cannot
/// call curses.
void cts_save_terminal(int fd);
void cts_set_restore_sequence(const char *bytes, size_t length);

/// Quit signals (INT, TERM, HUP, QUIT, PIPE, USR1, USR2) set a flag that the interface loop polls: it leaves
/// through its normal exit (state saved, terminal restored) and the program then dies of the same signal. If the
/// loop has not left within `grace_seconds` (it is stuck), or a second quit signal arrives, the handler restores the
/// terminal itself and dies of the signal at once. Crash signals (SEGV, BUS, ILL, TRAP, ABRT, FPE) restore the
/// terminal first, then go to the handler that was there before (the Swift runtime's crash reporter).
void cts_install(unsigned grace_seconds);
/// Puts back the handlers that were there before `cts_install` and cancels the grace timer.
void cts_uninstall(void);
/// The quit signal received, or 0.
int cts_pending_signal(void);
/// Restores the terminal now: the saved settings and the restore sequence.
void cts_restore_terminal(void);

/// Job control. SIGTSTP (Ctrl-Z, `kill -TSTP`) sets a flag the interface loop polls: it leaves curses and calls
/// `cts_suspend_now(0)`, which stops the process. If the loop has not answered within the grace period, or a second
/// SIGTSTP arrives, the handler restores the terminal itself and stops. SIGCONT (`fg`, `bg`, `kill -CONT`) sets
/// a flag that asks the loop to re-enter curses and repaint everything.
int cts_suspend_requested(void);
/// Stops the process now by SIGTSTP's default action (`restore`: restore the terminal first); returns after
/// SIGCONT, with the request cleared and the resumed flag set.
void cts_suspend_now(int restore);
/// Whether SIGCONT arrived since the last call (and clears it).
int cts_take_resumed(void);
/// Our SIGTSTP handler again (a safeguard after a resume). `cts_install` must run before curses starts: ncurses
/// then leaves SIGTSTP alone; installed after newterm, ncurses would set SIGTSTP to SIG_IGN during every screen
/// update and a Ctrl-Z arriving then would be lost.
void cts_reinstall_tstp(void);
#endif
