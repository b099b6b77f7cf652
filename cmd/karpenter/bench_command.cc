#include "cmd/karpenter/bench_command.h"

#include <sys/resource.h>

#include <cstdio>

#include "cmd/karpenter/real_clock.h"
#include "src/bench/scheduling_report.h"
#include "src/bench/scheduling_run.h"

namespace karpenter::cli {
namespace {

// The high-water mark of the whole process: with several sizes in one run it is the largest so
// far, so a sweep that wants per-size figures runs one size per process.
double PeakRssMb() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
}

bench::BenchWorkload Workload(const std::string& preferences) {
  if (preferences == "respect") return bench::BenchWorkload::kPreferencesRespect;
  if (preferences == "ignore") return bench::BenchWorkload::kPreferencesIgnore;
  return bench::BenchWorkload::kDiverse;
}

int RunBenchScheduling(const BenchSchedulingOptions& options) {
  for (int pods : options.pods) {
    bench::SchedulingBenchmarkOptions run;
    run.pods = pods;
    run.workload = Workload(options.preferences);
    run.seed = options.seed;
    run.packing = options.packing == "cost" ? provisioning::PackingPolicy::kCost
                                            : provisioning::PackingPolicy::kUpstream;
    run.claim_ties = options.claim_ties == "creation" ? provisioning::ClaimTieOrder::kCreation
                                                      : provisioning::ClaimTieOrder::kUpstream;
    run.breakdown = options.breakdown;
    absl::StatusOr<bench::SchedulingReport> report =
        bench::RunSchedulingBenchmark(run, RealMonotonicSeconds);
    if (!report.ok()) {
      std::fprintf(stderr, "bench scheduling: %s\n", report.status().ToString().c_str());
      return 1;
    }
    report->peak_rss_mb = PeakRssMb();
    const std::string line = options.json ? ReportJson(*report) : ReportText(*report);
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

void AddBenchCommand(CLI::App& app, BenchSchedulingOptions& options, int& exit_code) {
  CLI::App* bench = app.add_subcommand("bench", "Benchmarks with upstream Karpenter's workloads");
  bench->require_subcommand(1);
  CLI::App* scheduling = bench->add_subcommand(
      "scheduling", "Cold solves of the diverse-pods (or preference-pods) benchmark workload");
  scheduling
      ->add_option("--pods", options.pods,
                   "Pending pods; a comma-separated list runs one solve per size, one line each")
      ->delimiter(',')
      // Ten million pods aborted with std::bad_alloc after minutes; 100,000 take about 600 MB.
      ->check(CLI::Range(1, 200'000))
      ->capture_default_str();
  scheduling
      ->add_option(
          "--preferences", options.preferences,
          "Run the preference pods under this PREFERENCE_POLICY instead of the diverse mix")
      ->check(CLI::IsMember({"respect", "ignore"}));
  scheduling->add_option("--seed", options.seed, "Seed of the pod generator")
      ->capture_default_str();
  scheduling->add_flag("--json", options.json, "One JSON object per size");
  scheduling
      ->add_option("--packing", options.packing,
                   "upstream (default): upstream's placement decisions; cost: fill the capacity "
                   "each NodeClaim already pays for first (not upstream behaviour)")
      ->check(CLI::IsMember({"upstream", "cost"}))
      ->capture_default_str();
  scheduling
      ->add_option("--claim-ties", options.claim_ties,
                   "upstream (default): among NodeClaims with as many pods, try them in the order "
                   "upstream's Go sort leaves them; creation: the one opened first (not upstream "
                   "behaviour)")
      ->check(CLI::IsMember({"upstream", "creation"}))
      ->capture_default_str();
  scheduling->add_flag("--breakdown", options.breakdown,
                       "Split the gap to the fluid bound by resource and instance type");
  scheduling->callback([&options, &exit_code] { exit_code = RunBenchScheduling(options); });
}

}  // namespace karpenter::cli
