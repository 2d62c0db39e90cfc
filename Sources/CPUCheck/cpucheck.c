// Compiled without any -march flag, so this check itself runs on every x86_64 CPU.
#include "cpucheck.h"
#include <stdio.h>
#include <unistd.h>

int cifiltertest_cpu_supported(void) {
#if defined(CIFILTERTEST_NEEDS_AVX2_FMA) && defined(__x86_64__)
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return 0;
#if defined(CIFILTERTEST_NEEDS_AVX512)
    // What Package.swift's zen4Extensions asks of the building machine.
    return __builtin_cpu_supports("x86-64-v4") && __builtin_cpu_supports("avx512ifma")
        && __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2")
        && __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bitalg")
        && __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512bf16")
        && __builtin_cpu_supports("gfni") && __builtin_cpu_supports("vaes") && __builtin_cpu_supports("vpclmulqdq");
#endif
    return 1;
#else
    return 1;
#endif
}

// Runs before Swift's main and before any tuned code: a SIGILL deep in a filter would say nothing useful.
__attribute__((constructor)) static void refuse_unsupported_cpu(void) {
    if (!cifiltertest_cpu_supported()) {
#if defined(CIFILTERTEST_NEEDS_AVX512)
        static const char message[] =
            "error: this build of cifiltertest uses the AVX-512 instructions of AMD Zen 4, which this CPU lacks; "
            "rebuild it here (or with CIFILTERTEST_TARGET_CPU=generic)\n";
#else
        static const char message[] =
            "error: this build of cifiltertest uses AVX2 and FMA instructions, which this CPU lacks; "
            "rebuild it here (or with CIFILTERTEST_TARGET_CPU=generic)\n";
#endif
        (void)!write(2, message, sizeof message - 1);
        _exit(2);
    }
}
