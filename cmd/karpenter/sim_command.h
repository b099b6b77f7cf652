// `karpenter sim [SCENARIO | -f SCENARIO] [--seed N] [--duration 90m] [-o json|text] [--json]
// [--events FILE] [--metrics FILE] [--report FILE.html] [--print-builtin] [--from SNAPSHOT...]`:
// the digital twin. Without a scenario file it runs the built-in migration scenario; with
// --from, the snapshot's cluster under the scenario file's trace (or none). Exit 0 after a run, 1
// for a bad scenario file (every problem with its field path) or an unwritable output file (checked
// before the run).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "karpenter/common/status.h"

namespace karpenter::cli {

struct SimCommandOptions {
  std::string scenario;  // empty: the built-in scenario; with `from`, the workload trace
  // Snapshot files (manifests or `kubectl get ... -o yaml` Lists) of a cluster to start from.
  std::vector<std::string> from;
  // With `from`: `aws autoscaling describe-auto-scaling-groups` output, or empty.
  std::string asgs;
  // With `from`: the AWS region the snapshot must be in (empty: the one it names, else us-east-1).
  std::string region;
  uint64_t seed = 1;
  // Simulated seconds to run instead of the scenario's durationSeconds (0: the scenario's); the
  // trace is cut there, e.g. the first hour of a day-long scenario.
  double duration_seconds = 0;
  // The command line's --duration and -o as given; the callback turns them into the two above.
  std::string duration_text;
  std::string output = "text";
  bool json = false;  // --json or -o json
  // Print the built-in scenario as a scenario file instead of running anything.
  bool print_builtin = false;
  std::string events;  // JSON-lines file, or empty
  std::string report;  // HTML page, or empty
  // Prometheus text file with each run's final metrics (Karpenter's upstream names), or empty.
  std::string metrics;
  // Draw a progress line on `err` (set by the command only for an interactive terminal).
  bool progress = false;
};

// --duration: seconds ("5400") or a Go duration ("90m", "1h30m"), positive and at most
// kMaxScenarioSeconds; the error names the accepted forms.
absl::StatusOr<double> ParseSimDuration(std::string_view text);

void AddSimCommand(CLI::App& app, SimCommandOptions& options, int& exit_code);

// `monotonic_millis` times the run for wallSeconds.
int RunSim(const SimCommandOptions& options, const std::function<int64_t()>& monotonic_millis,
           std::ostream& out, std::ostream& err);

}  // namespace karpenter::cli
