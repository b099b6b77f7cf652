// One cold solve of upstream Karpenter's scheduling benchmark workload — MakeDiversePods(N), or
// the preference pods under a PREFERENCE_POLICY — over the 400-type fake catalog, reported next
// to the lower bounds any placement must respect. "Cold" means a fresh SchedulerInput, timed
// alone: building pods, catalog and bounds is not timed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "karpenter/common/status.h"
#include "src/bench/benchmark_pods.h"
#include "src/bench/scheduling_report.h"
#include "src/provisioning/types.h"

namespace karpenter::bench {

enum class BenchWorkload { kDiverse, kPreferencesRespect, kPreferencesIgnore, kHostnameSpread };

struct SchedulingBenchmarkOptions {
  int pods = 1000;
  BenchWorkload workload = BenchWorkload::kDiverse;
  uint64_t seed = kDefaultPodSeed;
  provisioning::PackingPolicy packing = provisioning::PackingPolicy::kUpstream;
  provisioning::ClaimTieOrder claim_ties = provisioning::ClaimTieOrder::kUpstream;
  // Also split the solve's gap to the plain bound by resource and type (gap_breakdown.h).
  bool breakdown = false;
};

// Seconds on a monotonic clock; the host passes the real one, tests a fake.
using SecondsClock = std::function<double()>;

// The report without peak RSS (a property of the process, the host's to add). Fails only when the
// LP bound cannot be computed.
absl::StatusOr<SchedulingReport> RunSchedulingBenchmark(const SchedulingBenchmarkOptions& options,
                                                        const SecondsClock& clock);

}  // namespace karpenter::bench
