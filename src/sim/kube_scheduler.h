// The twin's kube-scheduler: binds pending pods to Ready, uncordoned nodes with the same
// placement predicates the provisioning scheduler uses (resources, taints, node selectors and
// affinity, topology spread, pod (anti-)affinity, host ports) — it runs provisioning::Solve on
// a schedulable-only snapshot with no NodePools, so nothing here re-implements a predicate.
// Pods are tried largest first and nodes in name order (first fit), unlike kube-scheduler's
// scoring; the twin measures when a pod can run, not on which node.
#pragma once

#include <map>
#include <set>
#include <string>

#include "karpenter/common/status.h"
#include "src/state/snapshot.h"

namespace karpenter::provisioning {
class BoundPodCharges;
}  // namespace karpenter::provisioning

namespace karpenter::sim {

// Why kube-scheduler left a pod unbound when no Ready, uncordoned node can take it.
inline constexpr char kNoNodeFitsReason[] =
    "no Ready, schedulable node fits it (resources, taints, affinity, topology spread or ports)";

struct Bindings {
  std::map<std::string, std::string> pod_to_node;  // "namespace/name" -> node
  // Pods no node can take now, with why (the scheduler's reason, as upstream's event says it).
  std::map<std::string, std::string> unschedulable;
};

// `charges` (may be null) keeps the bound pods' charges between passes.
absl::StatusOr<Bindings> SchedulePending(const state::ClusterSnapshot& schedulable,
                                         provisioning::BoundPodCharges* charges = nullptr);

}  // namespace karpenter::sim
