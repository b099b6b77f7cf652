// `karpenter plan --explain pod/NAMESPACE/NAME | node/NAME`: one object's part of the plan, with
// the engine's own reasons. For a pod: where the plan puts it; for every existing node and
// in-flight NodeClaim, in the order the solve tries them, whether the pod alone fits or the check
// that refuses it (taint, resources, requirement, ...); then for every NodePool whether a
// NodeClaim of that pool alone could take it and, if not, the scheduler's reason (requirement,
// taint, limit, offering). For a node: the disruption commands that include it, why it is not a
// candidate, the notes the disruption methods left about it, and every method's verdict with the
// numbers behind it (the engine's, recorded with DisruptionOptions::record_verdicts).
#pragma once

#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/disruption/disruption.h"
#include "src/provisioning/plan.h"
#include "src/provisioning/snapshot_input.h"
#include "src/state/snapshot.h"

namespace karpenter::cli {

struct ExplainTarget {
  std::string kind;  // pod | node
  std::string namespace_;
  std::string name;
};

// "pod/NS/NAME" or "node/NAME"; InvalidArgument naming --explain otherwise.
absl::StatusOr<ExplainTarget> ParseExplainTarget(const std::string& text);

struct ExplainItem {
  // A NodePool name, "node NAME" / "in-flight node NAME", or what the line is about ("note"...).
  std::string subject;
  bool acts = false;  // the pool fits the pod, or the line is a disruption command
  std::string reason;
};

struct Explanation {
  std::string target;   // as given
  std::string verdict;  // where the pod lands, or what happens to the node now
  std::vector<ExplainItem> items;
  // For a node: every disruption method's verdict, as the engine recorded it.
  std::vector<disruption::MethodVerdict> methods;
};

// A pod of `snapshot` against `input` (built from it) and the plan made from it. NotFound when
// the snapshot has no such pod.
absl::StatusOr<Explanation> ExplainPod(const ExplainTarget& target,
                                       const state::ClusterSnapshot& snapshot,
                                       const provisioning::SnapshotSchedulerInput& input,
                                       const provisioning::PlanResult& plan);

// A node of `snapshot` against the disruption decisions made for it (with verdicts recorded).
// NotFound when the snapshot has no such node.
absl::StatusOr<Explanation> ExplainNode(const ExplainTarget& target,
                                        const state::ClusterSnapshot& snapshot,
                                        const disruption::DisruptionResult& result);

std::string EncodeExplanationJson(const Explanation& explanation);
std::string RenderExplanationText(const Explanation& explanation);

}  // namespace karpenter::cli
