#include "src/sim/kube_scheduler.h"

#include "src/provisioning/scheduler.h"
#include "src/provisioning/snapshot_input.h"

namespace karpenter::sim {

absl::StatusOr<Bindings> SchedulePending(const state::ClusterSnapshot& schedulable,
                                         provisioning::BoundPodCharges* charges) {
  provisioning::CatalogCache catalogs;  // unused: the snapshot has no NodePools or NodeClaims
  KP_ASSIGN_OR_RETURN(
      provisioning::SnapshotSchedulerInput input,
      provisioning::BuildSchedulerInput(schedulable, {.bound_pod_charges = charges}, catalogs));
  input.input.node_pools.clear();
  Bindings bindings;
  if (input.input.pending_pods.empty()) return bindings;
  provisioning::SchedulerResult result = provisioning::Solve(input.input);
  for (const auto& [node, pods] : result.existing_node_pods) {
    for (const std::string& pod : pods) bindings.pod_to_node[pod] = node;
  }
  // The solve ran without NodePools, so its own reason ("no nodepool has ...") would speak of
  // provisioning; what kube-scheduler found is that no existing node can take the pod.
  for (const auto& [pod, reason] : result.unschedulable) {
    bindings.unschedulable.emplace(pod, kNoNodeFitsReason);
  }
  for (const provisioning::UnschedulablePod& ignored : input.ignored_pods) {
    bindings.unschedulable.emplace(ignored.pod, ignored.reason);
  }
  return bindings;
}

}  // namespace karpenter::sim
