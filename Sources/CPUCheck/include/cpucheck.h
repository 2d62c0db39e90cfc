#ifndef CPUCHECK_H
#define CPUCHECK_H
/// 1 when this CPU runs the instructions the build was tuned for (always 1 for an untuned build).
int cifiltertest_cpu_supported(void);
#endif
