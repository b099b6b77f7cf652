// kp_scheduling_bench: one cold solve of upstream Karpenter's scheduling benchmark workload
// (MakeDiversePods(N), or the 4,000-pod preference case) over the 400-type fake catalog, reported
// next to the lower bounds any placement must respect. The solve is cold: a fresh input, timed
// alone (building pods, catalog and bounds is not timed). Uses the real clock and process RSS:
// this is a benchmark, not a test.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "src/bench/benchmark_pods.h"
#include "src/bench/fake_catalog.h"
#include "src/bench/lower_bound.h"
#include "src/bench/scheduling_report.h"
#include "src/bench/scheduling_solve.h"
#include "src/provisioning/scheduler.h"

namespace {

double PeakRssMb() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Cold scheduling solve over upstream Karpenter's benchmark workload"};
  int pods = 1000;
  bool json = false;
  std::string preferences;
  uint64_t seed = karpenter::bench::kDefaultPodSeed;
  app.add_option("--pods", pods, "number of pending pods")->check(CLI::Range(1, 10'000'000));
  app.add_flag("--json", json, "print one JSON object");
  app.add_option("--preferences", preferences,
                 "run the preference-pods case under this policy instead of the diverse mix")
      ->check(CLI::IsMember({"respect", "ignore"}));
  app.add_option("--seed", seed, "seed of the pod generator");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  }

  using namespace karpenter::bench;
  const std::vector<FakeInstanceType> catalog = FakeCatalog400();
  const std::vector<karpenter::api::Pod> pending =
      preferences.empty() ? MakeDiversePods(pods, seed) : MakePreferencePods(pods, seed);

  SchedulingReport report;
  report.workload = preferences.empty() ? "diverse" : "preferences-" + preferences;
  report.pods = static_cast<int64_t>(pending.size());
  report.instance_types = static_cast<int64_t>(catalog.size());
  report.node_floor = AntiAffinityNodeFloor(pending);
  absl::StatusOr<double> bound = FluidLowerBound(pending, catalog);
  if (!bound.ok()) {
    std::fprintf(stderr, "lower bound: %s\n", bound.status().ToString().c_str());
    return 1;
  }
  report.lower_bound_per_hour = *bound;

  const karpenter::provisioning::PreferencePolicy policy =
      preferences == "ignore" ? karpenter::provisioning::PreferencePolicy::kIgnore
                              : karpenter::provisioning::PreferencePolicy::kRespect;
  const karpenter::provisioning::SchedulerInput input =
      BenchSchedulerInput(catalog, pending, policy);
  const auto start = std::chrono::steady_clock::now();
  const karpenter::provisioning::SchedulerResult result = karpenter::provisioning::Solve(input);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  report.solve = Summarise(result, elapsed.count());
  report.peak_rss_mb = PeakRssMb();
  const std::string out = json ? ReportJson(report) : ReportText(report);
  std::printf("%s\n", out.c_str());
  return 0;
}
