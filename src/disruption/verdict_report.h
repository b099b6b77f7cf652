// The two faces of the per-node, per-method verdicts (verdict.h): JSON for `plan --explain
// node/NAME -o json` and the plan's `nodeNotes`, and indented text for people.
#pragma once

#include <string>

#include "src/api/json_writer.h"
#include "src/disruption/disruption.h"

namespace karpenter::disruption {

// {"method","acts","code","message"} plus, when the method computed them, "timeLeftSeconds",
// "budget" {nodePool, reason, allowed, disrupting, nodes, remaining}, "doNotDisrupt",
// "blockingPdbs", "blockingPods", "balanced" {score, threshold} and "replacements"
// [{instanceType, capacityType, zone, pricePerHour}].
void WriteVerdictJson(api::JsonWriter& json, const MethodVerdict& verdict);

// "    - Emptiness [not-empty]: not empty: 1 pod(s) would have to move\n" and one indented line
// per detail.
std::string RenderVerdictText(const MethodVerdict& verdict);

// The plan's structured notes: for each node no command takes, why each method left it alone,
// as [{"node","method","code","message"}]. Methods that never reached the node and StaticDrift on
// dynamic pools are left out, and a node that is no candidate at all appears once, with method
// "" (the same reason holds for every method).
void WriteNodeNotesJson(api::JsonWriter& json, const DisruptionResult& result);

}  // namespace karpenter::disruption
