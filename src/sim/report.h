// The twin's summary: `--json` exactly per docs/contracts.md, and a side-by-side table for people.
#pragma once

#include <string>
#include <vector>

#include "src/sim/runner.h"

namespace karpenter::sim {

// {"autoscalers":{"karpenter":{...},"cluster-autoscaler":{...}},"simulatedSeconds":..,
//  "wallSeconds":..,"seed":..} on one line; numbers rounded to 3 decimals (cost to 4).
std::string EncodeReportJson(const SimReport& report, double wall_seconds);

// One line comparing the first autoscaler with the second on the workload set's pending p50
// and the mean cost; empty unless there are exactly two runs.
std::string ReportVerdict(const SimReport& report);

// A row of the side-by-side table: its label (indented by two spaces per level under the row it
// details), one cell per run ("a / b" where a row has two figures) and, with two runs, the
// first run's figures minus the second's, signed.
struct ComparisonRow {
  std::string label;
  std::vector<std::string> cells;
  std::string delta;
};

// The table both the text and the HTML report show: overall pending time, each pod set that
// some run has (its pods and evictions, pending time, the pods that waited for capacity),
// node readiness, cost and nodes split by capacity type, evictions and unschedulable pods.
std::vector<ComparisonRow> ComparisonTable(const SimReport& report);

// One column per autoscaler, one row per figure, a delta column (first minus second) and the
// verdict when there are two.
std::string RenderReportText(const SimReport& report, double wall_seconds);

}  // namespace karpenter::sim
