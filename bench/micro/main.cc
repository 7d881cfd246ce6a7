// The micro-benchmarks register themselves (RegisterBenchmark at static
// initialization); this is Google Benchmark's stock main.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
