#include "cterminalsignals.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t pending_signal = 0;
static unsigned grace = 2;
static volatile sig_atomic_t installed = 0;
static int terminal_fd = -1;
static struct termios saved_termios;
static volatile sig_atomic_t have_termios = 0;
static volatile sig_atomic_t suspend_requested = 0;
static volatile sig_atomic_t resumed = 0;
static char restore_bytes[512];
static volatile sig_atomic_t restore_length = 0;

static const int quit_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM };
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE };
#define COUNT(a) (sizeof a / sizeof a[0])
static struct sigaction previous_quit[COUNT(quit_signals)];
static struct sigaction previous_crash[COUNT(crash_signals)];
static struct sigaction previous_tstp, previous_cont;
static void on_tstp(int sig);

void cts_save_terminal(int fd) {
    terminal_fd = fd;
    have_termios = tcgetattr(fd, &saved_termios) == 0;
}

void cts_set_restore_sequence(const char *bytes, size_t length) {
    if (length > sizeof restore_bytes) length = sizeof restore_bytes;
    memcpy(restore_bytes, bytes, length);
    restore_length = (sig_atomic_t)length;
}

void cts_restore_terminal(void) {
    if (terminal_fd < 0) return;
    // Never wait on the terminal here: output stopped (flow control) or a full buffer must not hang the
    // handler, so the write is non-blocking (the flag put back after) and the settings apply at once.
    int flags = fcntl(terminal_fd, F_GETFL);
    if (flags >= 0) fcntl(terminal_fd, F_SETFL, flags | O_NONBLOCK);
    size_t done = 0, total = (size_t)restore_length;
    while (done < total) {
        ssize_t n = write(terminal_fd, restore_bytes + done, total - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += (size_t)n;
    }
    if (flags >= 0) fcntl(terminal_fd, F_SETFL, flags);
    if (have_termios) tcsetattr(terminal_fd, TCSANOW, &saved_termios);
}

/// Restores the terminal and dies of `sig` with its default action (so the parent sees 128+sig).
static void die_of(int sig) {
    int saved = errno;
    cts_restore_terminal();
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    errno = saved;
}

static void on_quit(int sig) {
    if (sig == SIGALRM) {
        // The grace period is over: the loop is stuck. Stop if that is what was asked (Ctrl-Z), else die of the
        // signal that asked us to quit.
        if (pending_signal == 0 && suspend_requested) {
            cts_suspend_now(1);
            return;
        }
        die_of(pending_signal ? pending_signal : SIGALRM);
        return;
    }
    if (pending_signal != 0) {  // a second request: do not wait for the loop any longer
        die_of(sig);
        return;
    }
    pending_signal = sig;
    alarm(grace);
}

static void on_crash(int sig, siginfo_t *info, void *context) {
    cts_restore_terminal();
    // Then the handler that was there before (the Swift runtime's crash reporter prints its backtrace on the
    // restored screen), then the default action: the process dies of the signal.
    for (unsigned i = 0; i < COUNT(crash_signals); i++) {
        if (crash_signals[i] != sig) continue;
        struct sigaction *before = &previous_crash[i];
        if ((before->sa_flags & SA_SIGINFO) && before->sa_sigaction) {
            before->sa_sigaction(sig, info, context);
        } else if (before->sa_handler != SIG_DFL && before->sa_handler != SIG_IGN && before->sa_handler) {
            before->sa_handler(sig);
        }
    }
    signal(sig, SIG_DFL);
    // Sent by a process (kill, abort): sent again, delivered when this handler returns. After a fault,
    // returning runs the faulting instruction again, which now gets the default action.
    if (info == NULL || info->si_code <= 0) raise(sig);
}

static void install_tstp(void) {
    struct sigaction tstp;
    memset(&tstp, 0, sizeof tstp);
    sigemptyset(&tstp.sa_mask);
    tstp.sa_handler = on_tstp;
    sigaction(SIGTSTP, &tstp, NULL);
}

void cts_suspend_now(int restore) {
    int saved = errno;
    if (pending_signal == 0) alarm(0);
    if (restore) cts_restore_terminal();
    // Stopped by the default action of the signal itself, so the shell reports the job as stopped (by SIGTSTP).
    signal(SIGTSTP, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTSTP);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(SIGTSTP);
    // Here after SIGCONT.
    install_tstp();
    suspend_requested = 0;
    resumed = 1;
    errno = saved;
}

static void on_tstp(int sig) {
    (void)sig;
    if (suspend_requested) {  // a second Ctrl-Z: the loop has not answered the first; stop from here
        cts_suspend_now(1);
        return;
    }
    suspend_requested = 1;
    if (pending_signal == 0) alarm(grace);
}

void cts_reinstall_tstp(void) {
    if (installed) install_tstp();
}

static void on_cont(int sig) {
    (void)sig;
    resumed = 1;
}

void cts_install(unsigned grace_seconds) {
    grace = grace_seconds ? grace_seconds : 1;
    pending_signal = 0;
    struct sigaction quit;
    memset(&quit, 0, sizeof quit);
    sigemptyset(&quit.sa_mask);
    quit.sa_handler = on_quit;
    for (unsigned i = 0; i < COUNT(quit_signals); i++) sigaction(quit_signals[i], &quit, &previous_quit[i]);
    struct sigaction crash;
    memset(&crash, 0, sizeof crash);
    sigemptyset(&crash.sa_mask);
    crash.sa_sigaction = on_crash;
    crash.sa_flags = SA_SIGINFO | SA_ONSTACK;
    for (unsigned i = 0; i < COUNT(crash_signals); i++) sigaction(crash_signals[i], &crash, &previous_crash[i]);
    sigaction(SIGTSTP, NULL, &previous_tstp);
    install_tstp();
    struct sigaction cont;
    memset(&cont, 0, sizeof cont);
    sigemptyset(&cont.sa_mask);
    cont.sa_handler = on_cont;
    cont.sa_flags = SA_RESTART;
    sigaction(SIGCONT, &cont, &previous_cont);
    suspend_requested = 0;
    resumed = 0;
    // A parent may have started us with these blocked (a mask is inherited): we must see them to quit.
    sigset_t wanted;
    sigemptyset(&wanted);
    for (unsigned i = 0; i < COUNT(quit_signals); i++) sigaddset(&wanted, quit_signals[i]);
    sigaddset(&wanted, SIGWINCH);
    sigaddset(&wanted, SIGTSTP);
    sigaddset(&wanted, SIGCONT);
    sigprocmask(SIG_UNBLOCK, &wanted, NULL);
    installed = 1;
}

void cts_uninstall(void) {
    if (!installed) return;
    installed = 0;
    alarm(0);
    for (unsigned i = 0; i < COUNT(quit_signals); i++) sigaction(quit_signals[i], &previous_quit[i], NULL);
    for (unsigned i = 0; i < COUNT(crash_signals); i++) sigaction(crash_signals[i], &previous_crash[i], NULL);
    sigaction(SIGTSTP, &previous_tstp, NULL);
    sigaction(SIGCONT, &previous_cont, NULL);
}

int cts_pending_signal(void) { return pending_signal; }
int cts_suspend_requested(void) { return suspend_requested; }
int cts_take_resumed(void) {
    if (!resumed) return 0;
    resumed = 0;
    return 1;
}
