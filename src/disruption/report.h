// The two faces of a DisruptionResult for `karpenter plan --disruption`: the docs/contracts.md JSON
// (the plan document plus "commands" and "blocked") and an explanation for people.
#pragma once

#include <string>

#include "src/disruption/disruption.h"
#include "src/provisioning/plan.h"

namespace karpenter::disruption {

// The plan document with "commands", "blocked", "notes" and "nodeNotes" (verdict_report.h)
// appended; one line, no trailing newline.
std::string EncodeDisruptionJson(const provisioning::PlanResult& plan,
                                 const DisruptionResult& result);

// One paragraph per command ("delete node X, its 7 pods move to Y and Z, saves $0.19/h"), then
// blocked nodes ("node W blocked: PDB default/web allows 0 disruptions") and notes.
std::string RenderDisruptionText(const DisruptionResult& result);

}  // namespace karpenter::disruption
