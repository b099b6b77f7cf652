// The host's real time, for the few CLI outputs that report it (how long a solve took) or
// default to it (the evaluation time). The engine never reads it; hosts pass it in.
#pragma once

#include <cstdint>

#include "src/api/time.h"

namespace karpenter::cli {

// Milliseconds on a monotonic clock with an arbitrary origin.
int64_t RealMonotonicMillis();

// Seconds on the same monotonic clock, for benchmarks that time sub-millisecond work.
double RealMonotonicSeconds();

// CPU seconds the calling thread has used (user plus system), for benchmarks on a shared machine
// where wall time overstates the work.
double RealThreadCpuSeconds();

// The wall-clock time now.
api::Time RealNow();

}  // namespace karpenter::cli
