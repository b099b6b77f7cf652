#include "cmd/karpenter/sim_command.h"

#include <unistd.h>

#include <fstream>
#include <iostream>
#include <iterator>

#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "cmd/karpenter/output_file.h"
#include "cmd/karpenter/output_format.h"
#include "cmd/karpenter/real_clock.h"
#include "cmd/karpenter/seed_option.h"
#include "cmd/karpenter/snapshot_region.h"
#include "src/api/duration.h"
#include "src/api/manifest.h"
#include "src/cloudprovider/catalog.h"
#include "src/sim/builtin_scenario.h"
#include "src/sim/progress.h"
#include "src/sim/report.h"
#include "src/sim/report_html.h"
#include "src/sim/runner.h"
#include "src/sim/scenario_file.h"
#include "src/sim/scenario_reader.h"
#include "src/sim/snapshot_scenario.h"

namespace karpenter::cli {
namespace {

// Progress only for a person watching stderr, and not when the --json line goes to the same
// terminal (it would land mid-bar); pipes, files, tests and CI never see it.
bool ShouldShowProgress(bool json) {
  return isatty(STDERR_FILENO) != 0 && !(json && isatty(STDOUT_FILENO) != 0);
}

// Each run's exposition after a comment naming its autoscaler. Cluster Autoscaler's run has no
// Karpenter controllers, hence no series.
std::string MetricsText(const sim::SimReport& report) {
  std::string text;
  for (const sim::RunResult& run : report.runs) {
    text += "# autoscaler: " + std::string(sim::AutoscalerName(run.autoscaler)) + "\n";
    text += run.metrics_text;
  }
  return text;
}

// The trace of a snapshot run without a scenario file: an hour with nothing happening but what
// the snapshot's own pods ask for.
sim::Scenario EmptyTrace(const std::vector<std::string>& files) {
  sim::Scenario trace;
  trace.name = "snapshot";
  trace.description =
      "The cluster of " + absl::StrJoin(files, ", ") + ", without a workload trace.";
  return trace;
}

absl::StatusOr<sim::Scenario> LoadScenario(const SimCommandOptions& options) {
  if (options.from.empty()) {
    if (!options.asgs.empty()) return absl::InvalidArgumentError("--asgs: needs --from");
    if (!options.region.empty()) return absl::InvalidArgumentError("--region: needs --from");
    return options.scenario.empty() ? sim::BuiltinScenario()
                                    : sim::LoadScenarioFile(options.scenario);
  }
  std::vector<api::Manifest> snapshot;
  for (const std::string& file : options.from) {
    absl::StatusOr<std::vector<api::Manifest>> manifests = api::LoadManifestFile(file);
    if (!manifests.ok()) {
      return absl::InvalidArgumentError(file + ": " + std::string(manifests.status().message()));
    }
    std::move(manifests->begin(), manifests->end(), std::back_inserter(snapshot));
  }
  KP_ASSIGN_OR_RETURN(const std::string region, SnapshotRegion(snapshot, options.region));
  sim::Scenario trace = EmptyTrace(options.from);
  if (!options.scenario.empty()) {
    KP_ASSIGN_OR_RETURN(trace, sim::LoadScenarioFile(options.scenario));
    if (!trace.region.empty() && trace.region != region) {
      return absl::InvalidArgumentError(options.scenario + ": region: \"" + trace.region +
                                        "\" disagrees with the snapshot, which is in " + region);
    }
  }
  trace.region = region;
  // Instance types and zones do not depend on the trace's spot prices.
  cloudprovider::CatalogOptions catalog_options;
  catalog_options.resolve.region = region;
  KP_ASSIGN_OR_RETURN(const cloudprovider::Catalog catalog,
                      cloudprovider::Catalog::LoadEmbedded(catalog_options));
  std::vector<sim::AutoScalingGroupRecord> asgs;
  if (!options.asgs.empty()) {
    KP_ASSIGN_OR_RETURN(asgs, sim::LoadAutoScalingGroupsFile(options.asgs));
  }
  return sim::ScenarioFromSnapshot(snapshot, std::move(trace), catalog, asgs);
}

}  // namespace

absl::StatusOr<double> ParseSimDuration(std::string_view text) {
  double seconds = 0;
  if (!absl::SimpleAtod(absl::string_view(text.data(), text.size()), &seconds)) {
    absl::StatusOr<api::Duration> duration = api::Duration::Parse(text);
    seconds = duration.ok() ? duration->Seconds() : 0;
  }
  // The scenario reader's limit: 1e9 s aborted.
  if (!(seconds > 0) || seconds > sim::kMaxScenarioSeconds) {
    return absl::InvalidArgumentError(
        "must be a positive number of simulated seconds or a duration such as 90m or 1h, at most "
        "2592000 (30 days)");
  }
  return seconds;
}

void AddSimCommand(CLI::App& app, SimCommandOptions& options, int& exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "sim", "Digital twin: Karpenter and Cluster Autoscaler side by side on virtual time");
  cmd->footer(
      "Examples:\n"
      "  karpenter sim                                  # the built-in migration scenario\n"
      "  karpenter sim examples/sim/happy-path.yaml --seed 7 -o json\n"
      "  karpenter sim examples/sim/day-1000-nodes.yaml --duration 1h --report day.html\n"
      "  karpenter sim --print-builtin > my-scenario.yaml\n"
      "Exit codes: 0 the run finished; 1 a bad scenario or flag (the field path is named)");
  cmd->add_option("scenario,-f,--filename", options.scenario,
                  "Scenario file (YAML); default: the built-in migration scenario");
  AddSeedOption(*cmd, options.seed, "Random seed");
  // Kept as text until the callback: CLI11 would read "90m" as a malformed number.
  cmd->add_option("--duration", options.duration_text,
                  "Simulated time to run instead of the scenario's durationSeconds: seconds or "
                  "a duration such as 90m, 1h")
      ->check(CLI::Validator(
          [](const std::string& value) -> std::string {
            absl::StatusOr<double> seconds = ParseSimDuration(value);
            return seconds.ok() ? "" : std::string(seconds.status().message());
          },
          "DURATION"));
  cmd->add_option("-o,--output", options.output,
                  "Output format (--json is -o json; yaml is the JSON summary as YAML, wide is "
                  "text)")
      ->check(CLI::IsMember(kOutputFormats))
      ->capture_default_str();
  cmd->add_flag("--json", options.json, "Print the JSON summary (docs/sim.md, \"The figures\")");
  cmd->add_option("--events", options.events, "Write every decision and state change (JSON lines)");
  cmd->add_option("--metrics", options.metrics,
                  "Write each run's final metrics in the Prometheus text format (upstream's "
                  "karpenter_* names, as /metrics would serve them)");
  cmd->add_option("--report", options.report,
                  "Write a self-contained HTML page with charts comparing the autoscalers");
  cmd->add_option("--from", options.from,
                  "Start from your cluster: files of Nodes, workloads, PDBs, NodePools and "
                  "EC2NodeClasses (kubectl get ... -o yaml); the scenario file, if any, is the "
                  "workload trace");
  cmd->add_option("--region", options.region,
                  "With --from: the AWS region of the snapshot, checked against its nodes' and "
                  "subnets' zones (default: the one they name)");
  cmd->add_option("--asgs", options.asgs,
                  "With --from: the Auto Scaling groups (aws autoscaling "
                  "describe-auto-scaling-groups output) for the node groups' bounds and tags");
  cmd->add_flag("--print-builtin", options.print_builtin,
                "Print the built-in scenario as a scenario file (a start for your own) and exit");
  cmd->callback([&options, &exit_code] {
    if (!options.duration_text.empty()) {
      options.duration_seconds = *ParseSimDuration(options.duration_text);
    }
    options.json = options.json || options.output == "json" || options.output == "yaml";
    options.progress = ShouldShowProgress(options.json);
    exit_code = RunSim(options, RealMonotonicMillis, std::cout, std::cerr);
  });
}

int RunSim(const SimCommandOptions& options, const std::function<int64_t()>& monotonic_millis,
           std::ostream& out, std::ostream& err) {
  if (options.print_builtin) {
    out << sim::BuiltinScenarioYaml();
    return 0;
  }
  // An output that cannot be written fails now, not after a run of minutes.
  for (const auto& [path, what] :
       {std::pair{&options.events, "events"}, std::pair{&options.metrics, "metrics"},
        std::pair{&options.report, "report"}}) {
    if (!path->empty() && !Writable(*path)) {
      err << *path << ": cannot write the " << what << " file\n";
      return 1;
    }
  }
  const int64_t start = monotonic_millis();
  absl::StatusOr<sim::Scenario> scenario = LoadScenario(options);
  if (!scenario.ok()) {
    err << scenario.status().message() << "\n";
    return 1;
  }
  if (options.duration_seconds > 0) scenario->duration_seconds = options.duration_seconds;
  cloudprovider::CatalogOptions catalog_options;
  catalog_options.resolve.region = scenario->region;
  catalog_options.spot = scenario->spot_prices;
  absl::StatusOr<cloudprovider::Catalog> catalog =
      cloudprovider::Catalog::LoadEmbedded(catalog_options);
  if (!catalog.ok()) {
    err << "catalog: " << catalog.status().message() << "\n";
    return 1;
  }
  sim::EventLog log(!options.events.empty());
  sim::ProgressIndicator indicator(err);
  sim::ProgressCallback progress;
  if (options.progress) {
    progress = [&indicator](sim::Autoscaler autoscaler, sim::SimMillis now, sim::SimMillis end) {
      indicator.Update(autoscaler, now, end);
    };
  }
  absl::StatusOr<sim::SimReport> report = sim::RunScenario(
      *scenario, options.seed, *catalog, log, progress, sim::RunMode::kParallel,
      options.metrics.empty() ? sim::MetricsScrape::kNone : sim::MetricsScrape::kFinal);
  indicator.Finish();
  if (!report.ok()) {
    err << "sim: " << report.status().message() << "\n";
    return 1;
  }
  if (!options.events.empty()) {
    std::ofstream events(options.events);
    for (const std::string& line : log.lines()) events << line << "\n";
    events.close();  // flushes: a full disk shows here, not in the destructor
    if (events.fail()) {
      err << options.events << ": cannot write the events file\n";
      return 1;
    }
  }
  if (!options.metrics.empty() && !WriteFile(options.metrics, MetricsText(*report))) {
    err << options.metrics << ": cannot write the metrics file\n";
    return 1;
  }
  if (!options.report.empty() && !WriteFile(options.report, sim::RenderReportHtml(*report))) {
    err << options.report << ": cannot write the report file\n";
    return 1;
  }
  const double wall_seconds = static_cast<double>(monotonic_millis() - start) / 1000.0;
  if (options.json && options.output == "yaml") {
    absl::StatusOr<std::string> yaml = JsonToYaml(sim::EncodeReportJson(*report, wall_seconds));
    if (!yaml.ok()) {
      err << "sim: " << yaml.status().message() << "\n";
      return 1;
    }
    out << *yaml;
  } else if (options.json) {
    out << sim::EncodeReportJson(*report, wall_seconds) << "\n";
  } else {
    out << sim::RenderReportText(*report, wall_seconds);
  }
  return 0;
}

}  // namespace karpenter::cli
