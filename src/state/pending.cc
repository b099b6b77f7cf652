// Upstream: pkg/utils/pod/scheduling.go, pkg/controllers/provisioning/provisioner.go,
// pkg/controllers/state/statenode.go (kubernetes-sigs/karpenter)
#include "src/state/pending.h"

#include <algorithm>

#include "src/api/nodeclaim.h"
#include "src/state/pdb_limits.h"
#include "src/state/pod_predicates.h"

namespace karpenter::state {
namespace {

bool IsInstanceTerminating(const api::NodeClaim& node_claim) {
  return std::any_of(node_claim.status.conditions.begin(), node_claim.status.conditions.end(),
                     [](const api::Condition& c) {
                       return c.type == api::kConditionTypeInstanceTerminating &&
                              c.status == "True";
                     });
}

}  // namespace

bool IsProvisionable(const api::Pod& pod, PendingRule rule) {
  if (rule == PendingRule::kFailedToSchedule && !FailedToSchedule(pod)) return false;
  return !IsScheduled(pod) && !IsTerminal(pod) && !IsTerminating(pod) && !IsPreempting(pod) &&
         !IsSchedulingGated(pod) && !IsOwnedByDaemonSet(pod) && !IsMirrorPod(pod);
}

PendingPods SelectPendingPods(const ClusterSnapshot& snapshot, PendingRule rule) {
  PendingPods result;
  for (const api::Pod* pod : snapshot.UnboundPods()) {  // bound pods are not provisionable
    if (!IsProvisionable(*pod, rule)) continue;
    if (std::optional<IgnoreReason> reason = ValidateForProvisioning(snapshot, *pod)) {
      result.ignored.push_back(IgnoredPod{.pod = pod, .reason = std::move(*reason)});
      continue;
    }
    result.pods.push_back(pod);
  }
  return result;
}

bool IsNodeDeleting(const ClusterSnapshot& snapshot, const api::Node& node) {
  return IsNodeDeleting(snapshot, node, {});
}

bool IsNodeDeleting(const ClusterSnapshot& snapshot, const api::Node& node,
                    const std::set<std::string>& marked) {
  if (node.metadata.deletion_timestamp.has_value()) return true;
  if (!node.spec.provider_id.empty() && marked.contains(node.spec.provider_id)) return true;
  const api::NodeClaim* node_claim = snapshot.NodeClaimForNode(node);
  return node_claim != nullptr && (node_claim->metadata.deletion_timestamp.has_value() ||
                                   IsInstanceTerminating(*node_claim));
}

std::vector<const api::Pod*> ReschedulablePodsOfDeletingNodes(const ClusterSnapshot& snapshot,
                                                              api::Time now) {
  return ReschedulablePodsOfDeletingNodes(snapshot, now, {});
}

std::vector<const api::Pod*> ReschedulablePodsOfDeletingNodes(const ClusterSnapshot& snapshot,
                                                              api::Time now,
                                                              const std::set<std::string>& marked) {
  const PdbLimits limits(snapshot.pod_disruption_budgets());
  std::vector<const api::Pod*> pods;
  for (const api::Node& node : snapshot.nodes()) {
    if (!IsNodeDeleting(snapshot, node, marked)) continue;
    for (const api::Pod* pod : snapshot.PodsOnNode(node.metadata.name)) {
      if (limits.IsCurrentlyReschedulable(*pod, now)) pods.push_back(pod);
    }
  }
  return pods;
}

}  // namespace karpenter::state
