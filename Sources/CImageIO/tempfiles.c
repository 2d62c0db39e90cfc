#include "cimageio.h"
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define SLOTS 256
#define FREE 0
#define CLAIMED 1
#define READY 2

static char paths[SLOTS][4096];
static volatile int states[SLOTS];

int cimageio_temporary_register(const char *path) {
    if (strlen(path) >= sizeof paths[0]) return -1;
    for (int i = 0; i < SLOTS; i++) {
        if (__sync_bool_compare_and_swap(&states[i], FREE, CLAIMED)) {
            strcpy(paths[i], path);
            __sync_synchronize();
            states[i] = READY;
            return i;
        }
    }
    return -1;
}

void cimageio_temporary_forget(int slot) {
    if (slot >= 0 && slot < SLOTS) {
        __sync_synchronize();
        states[slot] = FREE;
    }
}

static void remove_and_die(int signal_number) {
    for (int i = 0; i < SLOTS; i++) {
        if (states[i] == READY) unlink(paths[i]);
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigaction(signal_number, &action, NULL);
    raise(signal_number);
}

void cimageio_temporary_remove_on_signals(void) {
    static volatile int installed = 0;
    if (!__sync_bool_compare_and_swap(&installed, 0, 1)) return;
    int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (unsigned k = 0; k < sizeof signals / sizeof signals[0]; k++) {
        struct sigaction current;
        if (sigaction(signals[k], NULL, &current) != 0) continue;
        if (current.sa_handler != SIG_DFL) continue;  // ignored, or someone else's handler
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = remove_and_die;
        sigemptyset(&action.sa_mask);
        sigaction(signals[k], &action, NULL);
        // A parent may start the program with these blocked (threads of test runners do): it would then never
        // end on Ctrl-C or kill, so they are let through.
        sigset_t unblock;
        sigemptyset(&unblock);
        sigaddset(&unblock, signals[k]);
        pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
    }
}
