#include "cmd/karpenter/bench_command.h"

#include <sys/resource.h>

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "cmd/karpenter/catalog_option.h"
#include "cmd/karpenter/output_format.h"
#include "cmd/karpenter/real_clock.h"
#include "cmd/karpenter/seed_option.h"
#include "src/api/input_file.h"
#include "src/api/manifest.h"
#include "src/bench/scheduling_report.h"
#include "src/bench/scheduling_run.h"
#include "src/bench/workload_file.h"

namespace karpenter::cli {
namespace {

// The high-water mark of the whole process: with several sizes in one run it is the largest so
// far, so a sweep that wants per-size figures runs one size per process.
double PeakRssMb() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
}

bench::BenchWorkload Workload(const BenchSchedulingOptions& options) {
  if (options.preferences == "respect") return bench::BenchWorkload::kPreferencesRespect;
  if (options.preferences == "ignore") return bench::BenchWorkload::kPreferencesIgnore;
  if (options.workload == "hostname-spread") return bench::BenchWorkload::kHostnameSpread;
  return bench::BenchWorkload::kDiverse;
}

// One solve of the workload in `options.pods_file`; its decisions as one JSON line.
int RunWorkloadFile(const BenchSchedulingOptions& options) {
  absl::StatusOr<provisioning::InstanceTypeFile> catalog = LoadCatalogOption(options.catalog);
  if (!catalog.ok()) {
    std::fprintf(stderr, "bench scheduling: %s\n", std::string(catalog.status().message()).c_str());
    return 1;
  }
  absl::StatusOr<std::vector<api::Manifest>> manifests = api::LoadManifestFile(options.pods_file);
  if (!manifests.ok()) {
    std::fprintf(stderr, "bench scheduling: --pods-file %s: %s\n", options.pods_file.c_str(),
                 std::string(manifests.status().message()).c_str());
    return 1;
  }
  provisioning::SchedulerOptions scheduler;
  scheduler.preference_policy = options.preferences == "ignore"
                                    ? provisioning::PreferencePolicy::kIgnore
                                    : provisioning::PreferencePolicy::kRespect;
  scheduler.min_values_policy = options.min_values_policy == "BestEffort"
                                    ? provisioning::MinValuesPolicy::kBestEffort
                                    : provisioning::MinValuesPolicy::kStrict;
  scheduler.packing = options.packing == "cost" ? provisioning::PackingPolicy::kCost
                                                : provisioning::PackingPolicy::kUpstream;
  scheduler.claim_ties = options.claim_ties == "creation" ? provisioning::ClaimTieOrder::kCreation
                                                          : provisioning::ClaimTieOrder::kUpstream;
  absl::StatusOr<bench::Decisions> decisions =
      bench::SolveWorkload(*manifests, *catalog, scheduler);
  if (!decisions.ok()) {
    std::fprintf(stderr, "bench scheduling: --pods-file %s: %s\n", options.pods_file.c_str(),
                 std::string(decisions.status().message()).c_str());
    return 1;
  }
  std::printf("%s\n", bench::EncodeDecisions(*decisions).c_str());
  return 0;
}

int RunBenchScheduling(const BenchSchedulingOptions& options) {
  if (!options.pods_file.empty()) return RunWorkloadFile(options);
  bool first_document = true;
  for (int pods : options.pods) {
    bench::SchedulingBenchmarkOptions run;
    run.pods = pods;
    run.workload = Workload(options);
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
    if (options.output == "yaml") {
      // One YAML document per size, as --json prints one JSON line per size.
      absl::StatusOr<std::string> yaml = JsonToYaml(ReportJson(*report));
      if (!yaml.ok()) {
        std::fprintf(stderr, "bench scheduling: %s\n", yaml.status().ToString().c_str());
        return 1;
      }
      std::printf("%s%s", first_document ? "" : "---\n", yaml->c_str());
      first_document = false;
      std::fflush(stdout);
      continue;
    }
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
  bench->footer(
      "Examples:\n"
      "  karpenter bench scheduling --pods 1000,5000 -o json\n"
      "  karpenter bench disruption --nodes 100,1000\n"
      "Exit codes: 0 measured; 1 bad flags");
  CLI::App* scheduling = bench->add_subcommand(
      "scheduling", "Cold solves of the diverse-pods (or preference-pods) benchmark workload");
  scheduling->footer(
      "Examples:\n"
      "  karpenter bench scheduling --pods 5000\n"
      "  karpenter bench scheduling --pods 1000,5000,20000 --seed 3 -o json\n"
      "  karpenter bench scheduling --pods 5000 --breakdown\n"
      "  karpenter bench scheduling --pods 100000 --workload hostname-spread\n"
      "Exit codes: 0 measured; 1 bad flags");
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
  scheduling
      ->add_option("--workload", options.workload,
                   "diverse (default): upstream's diverse pods; hostname-spread: replicas of one "
                   "app with a required hostname spread (maxSkew 1), one pod per node")
      ->check(CLI::IsMember({"diverse", "hostname-spread"}))
      ->excludes("--preferences")
      ->capture_default_str();
  AddSeedOption(*scheduling, options.seed, "Seed of the pod generator");
  scheduling->add_flag("--json", options.json, "One JSON object per size (-o json)");
  scheduling
      ->add_option("-o,--output", options.output,
                   "json: one JSON object per size (--json); yaml: one YAML document per size; "
                   "text and wide: one line per size")
      ->check(CLI::IsMember(kOutputFormats))
      ->excludes("--json");
  scheduling
      ->add_option("--packing", options.packing,
                   "upstream (default): upstream's placement decisions; cost: rank pods by cpu and "
                   "memory and fill the capacity each NodeClaim already pays for first (not "
                   "upstream behaviour)")
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
  CLI::Option* pods_file =
      scheduling
          ->add_option("--pods-file", options.pods_file,
                       "Solve this workload instead (Pods, NodePools, DaemonSets and Nodes "
                       "as YAML or JSON manifests) and print its decisions as JSON; "
                       "--preferences then sets PREFERENCE_POLICY (docs/differential.md)")
          ->excludes("--pods")
          ->excludes("--seed")
          ->excludes("--workload")
          ->excludes("--json")
          ->excludes("--breakdown");
  scheduling
      ->add_option("--catalog", options.catalog,
                   "With --pods-file: fake400 (upstream's fake.InstanceTypes(400)) or an "
                   "instance-type list as JSON")
      ->needs(pods_file)
      ->capture_default_str();
  scheduling
      ->add_option("--min-values-policy", options.min_values_policy,
                   "With --pods-file: MIN_VALUES_POLICY")
      ->check(CLI::IsMember({"Strict", "BestEffort"}))
      ->needs(pods_file)
      ->capture_default_str();
  scheduling->callback([&options, &exit_code] {
    options.json = options.json || options.output == "json";
    exit_code = RunBenchScheduling(options);
  });
}

}  // namespace karpenter::cli
