// Upstream: pkg/utils/pod/scheduling.go (IsProvisionable), pkg/controllers/provisioning/
// provisioner.go (GetPendingPods, the deleting-node pods of Schedule), pkg/controllers/state
// (StateNode.Deleted) in kubernetes-sigs/karpenter.
// The pods a provisioning pass plans capacity for: pending pods (P3) and the pods of nodes being
// deleted that will need a new home (P4).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "src/api/node.h"
#include "src/api/pod.h"
#include "src/api/time.h"
#include "src/state/pod_validation.h"
#include "src/state/snapshot.h"

namespace karpenter::state {

// A pending pod Karpenter refuses to provision for, with why.
struct IgnoredPod {
  const api::Pod* pod = nullptr;
  IgnoreReason reason;
};

struct PendingPods {
  std::vector<const api::Pod*> pods;  // to provision for, in snapshot order
  std::vector<IgnoredPod> ignored;    // pending but refused, in snapshot order
};

// Which unbound pods wait for capacity.
enum class PendingRule {
  // Every one: a snapshot or a manifest has pods no kube-scheduler has looked at yet
  // (docs/contracts.md).
  kUnbound,
  // Only those kube-scheduler found no node for (FailedToSchedule), as upstream's controller:
  // a pod just created may still fit the cluster as it is, and planning for it would launch a
  // node kube-scheduler then leaves empty.
  kFailedToSchedule,
};

// A pod waiting for capacity: unbound, not terminal, not being deleted, not nominated to a node
// by preemption, not held by scheduling gates, and neither a DaemonSet pod (overhead, not work)
// nor a static pod; under kFailedToSchedule also marked unschedulable by kube-scheduler.
bool IsProvisionable(const api::Pod& pod, PendingRule rule = PendingRule::kUnbound);

// Every provisionable pod of the snapshot (expanded ones included), split by
// ValidateForProvisioning into pods to provision for and ignored pods.
PendingPods SelectPendingPods(const ClusterSnapshot& snapshot,
                              PendingRule rule = PendingRule::kUnbound);

// The node is going away: it has a deletionTimestamp, or its NodeClaim has one or reports
// InstanceTerminating=True.
bool IsNodeDeleting(const ClusterSnapshot& snapshot, const api::Node& node);
// The same, or the node's provider ID is in `marked`: nodes a disruption command has started
// on, whose replacements exist (upstream's StateNode.MarkedForDeletion).
bool IsNodeDeleting(const ClusterSnapshot& snapshot, const api::Node& node,
                    const std::set<std::string>& marked);

// Pods bound to deleting nodes that will have to run elsewhere (P4): reschedulable (active, or a
// terminating StatefulSet pod; not DaemonSet, not static), not protected by an active
// `karpenter.sh/do-not-disrupt` at `now`, and not behind a PDB that can never allow eviction.
// Nodes in name order, pods in snapshot order.
std::vector<const api::Pod*> ReschedulablePodsOfDeletingNodes(const ClusterSnapshot& snapshot,
                                                              api::Time now);
// The same, with the nodes whose provider IDs are in `marked` counted as deleting.
std::vector<const api::Pod*> ReschedulablePodsOfDeletingNodes(const ClusterSnapshot& snapshot,
                                                              api::Time now,
                                                              const std::set<std::string>& marked);

}  // namespace karpenter::state
