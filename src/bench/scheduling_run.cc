// (Not named *_benchmark.cc: kp_cc_library keeps such files out of the library.)
#include "src/bench/scheduling_run.h"

#include <vector>

#include "src/bench/fake_catalog.h"
#include "src/bench/gap_breakdown.h"
#include "src/bench/lower_bound.h"
#include "src/bench/scheduling_solve.h"
#include "src/provisioning/scheduler.h"

namespace karpenter::bench {
namespace {

std::string WorkloadName(BenchWorkload workload) {
  switch (workload) {
    case BenchWorkload::kDiverse:
      return "diverse";
    case BenchWorkload::kPreferencesRespect:
      return "preferences-respect";
    case BenchWorkload::kPreferencesIgnore:
      return "preferences-ignore";
    case BenchWorkload::kHostnameSpread:
      return "hostname-spread";
  }
  return "unknown";
}

std::vector<api::Pod> PodsOf(const SchedulingBenchmarkOptions& options) {
  switch (options.workload) {
    case BenchWorkload::kDiverse:
      return MakeDiversePods(options.pods, options.seed);
    case BenchWorkload::kHostnameSpread:
      return MakeHostnameSpreadPods(options.pods, options.seed);
    case BenchWorkload::kPreferencesRespect:
    case BenchWorkload::kPreferencesIgnore:
      break;
  }
  return MakePreferencePods(options.pods, options.seed);
}

std::string PackingName(provisioning::PackingPolicy packing) {
  return packing == provisioning::PackingPolicy::kCost ? "cost" : "upstream";
}

}  // namespace

absl::StatusOr<SchedulingReport> RunSchedulingBenchmark(const SchedulingBenchmarkOptions& options,
                                                        const SecondsClock& clock) {
  const std::vector<FakeInstanceType> catalog = FakeCatalog400();
  std::vector<api::Pod> pending = PodsOf(options);
  SchedulingReport report;
  report.workload = WorkloadName(options.workload);
  report.pods = static_cast<int64_t>(pending.size());
  report.instance_types = static_cast<int64_t>(catalog.size());
  report.node_floor = AntiAffinityNodeFloor(pending);
  KP_ASSIGN_OR_RETURN(report.lower_bound_per_hour, FluidLowerBound(pending, catalog));
  KP_ASSIGN_OR_RETURN(report.lower_bound_with_floor_per_hour,
                      FluidLowerBoundWithFloor(pending, catalog));
  report.packing = PackingName(options.packing);
  report.claim_ties =
      options.claim_ties == provisioning::ClaimTieOrder::kCreation ? "creation" : "upstream";

  const provisioning::PreferencePolicy policy =
      options.workload == BenchWorkload::kPreferencesIgnore
          ? provisioning::PreferencePolicy::kIgnore
          : provisioning::PreferencePolicy::kRespect;
  provisioning::SchedulerInput input =
      BenchSchedulerInput(catalog, std::move(pending), policy, options.packing);
  input.options.claim_ties = options.claim_ties;
  const double start = clock();
  const provisioning::SchedulerResult result = provisioning::Solve(input);
  const double seconds = clock() - start;
  report.solve = Summarise(result, seconds);
  if (options.breakdown) {
    KP_ASSIGN_OR_RETURN(
        report.gap, BreakDownGap(PackedNodesOf(result, input.pending_pods), NodeTypesOf(catalog)));
  }
  return report;
}

}  // namespace karpenter::bench
