// `karpenter sim --report FILE.html`: one self-contained page (inline CSS and SVG, no scripts,
// no links) comparing the autoscalers of a run: headline figures side by side, node count,
// pending pods and $/hour over simulated time, the pod-pending-time CDF and the decision
// timeline. Every embedded text is escaped; the page is byte-identical for the same run.
#pragma once

#include <string>

#include "src/sim/runner.h"

namespace karpenter::sim {

std::string RenderReportHtml(const SimReport& report);

}  // namespace karpenter::sim
