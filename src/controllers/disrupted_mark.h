// Upstream: kubernetes-sigs/karpenter pkg/controllers/disruption/orchestration (the queue marks
// a command's candidates before it starts and unmarks them when it rolls back).
#pragma once

#include <string>

#include "absl/status/status.h"
#include "karpenter/clock.h"
#include "karpenter/kube_cluster.h"

namespace karpenter::controllers {

// With a `reason` ("Underutilized", "Empty", "Drifted", ...), marks the node a disruption
// candidate: the karpenter.sh/disrupted:NoSchedule taint on its Node, so nothing new lands on
// it, and the DisruptionReason condition on its NodeClaim; with an empty `reason`, removes both.
// The Node is written at the resourceVersion read, so a concurrent change of its taints is never
// overwritten (the Conflict is returned). NotFound when marking a Node that is gone.
absl::Status MarkNodeDisrupted(const ClusterReader& reader, ClusterWriter& writer,
                               const Clock& clock, const std::string& node_name,
                               const std::string& reason);

}  // namespace karpenter::controllers
