// The twin's summary: `--json` exactly per DESIGN.md §3, and a side-by-side table for people.
#pragma once

#include <string>

#include "src/sim/runner.h"

namespace karpenter::sim {

// {"autoscalers":{"karpenter":{...},"cluster-autoscaler":{...}},"simulatedSeconds":..,
//  "wallSeconds":..,"seed":..} on one line; numbers rounded to 3 decimals (cost to 4).
std::string EncodeReportJson(const SimReport& report, double wall_seconds);

// One line comparing the first autoscaler with the second on the workload set's pending p50
// and the mean cost; empty unless there are exactly two runs.
std::string ReportVerdict(const SimReport& report);

// One column per autoscaler, one row per figure, a delta column (first minus second) and the
// verdict when there are two.
std::string RenderReportText(const SimReport& report, double wall_seconds);

}  // namespace karpenter::sim
