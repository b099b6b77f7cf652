// `karpenter sim --report FILE.html`: one self-contained page (inline CSS and SVG, no scripts,
// no links) comparing the autoscalers of a run: headline figures side by side, node count,
// pending pods and $/hour over simulated time, the pod-pending-time CDF and the decision
// timeline. Every embedded text is escaped; the page is byte-identical for the same run.
#pragma once

#include <string>

#include "src/sim/runner.h"

namespace karpenter::sim {

// What a command other than `sim` puts around the twin's page: its name (in the title, the
// heading and the footer) and a section of its own, HTML the caller has escaped, ahead of the
// twin's sections.
struct ReportFrame {
  std::string command = "karpenter sim";
  std::string lead_section;
};

std::string RenderReportHtml(const SimReport& report, const ReportFrame& frame = {});

}  // namespace karpenter::sim
