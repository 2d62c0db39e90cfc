// Compiled without any -march flag, so this check itself runs on every x86_64 CPU.
#include "cpucheck.h"
#include <stdio.h>
#include <unistd.h>

int cifiltertest_cpu_supported(void) {
#if defined(CIFILTERTEST_NEEDS_AVX2_FMA) && defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 1;
#endif
}

// Runs before Swift's main and before any tuned code: a SIGILL deep in a filter would say nothing useful.
__attribute__((constructor)) static void refuse_unsupported_cpu(void) {
    if (!cifiltertest_cpu_supported()) {
        static const char message[] =
            "error: this build of cifiltertest uses AVX2 and FMA instructions, which this CPU lacks; "
            "rebuild it here (or with CIFILTERTEST_TARGET_CPU=generic)\n";
        (void)!write(2, message, sizeof message - 1);
        _exit(2);
    }
}
