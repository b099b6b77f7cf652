// Upstream: kubernetes-sigs/karpenter pkg/controllers/nodeclaim/consistency. Every 10 minutes per
// launched NodeClaim, its Node is checked against what the claim promised: a node that came up
// with less than 90 % of the capacity the claim's instance type should have, for any resource
// the claim requests, gets a FailedConsistencyCheck warning per shortfall and the claim
// ConsistentStateFound=False (ConsistencyCheckFailed); otherwise the condition is True. A
// wrong-sized node usually means a bad AMI or kubelet configuration (reserved memory, max pods).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "karpenter/clock.h"
#include "karpenter/event_recorder.h"
#include "karpenter/kube_cluster.h"
#include "src/api/node.h"
#include "src/api/nodeclaim.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

inline constexpr int64_t kConsistencyScanPeriodMillis = 10 * 60 * 1000;
// A node with less than this share of an expected resource is inconsistent.
inline constexpr double kNodeShapeMinimumShare = 0.90;

// The node-shape check: one line per resource the claim requests whose node capacity is short
// of kNodeShapeMinimumShare of the claim's status.capacity. None for deleting or uninitialized
// claims.
std::vector<std::string> NodeShapeIssues(const api::Node& node, const api::NodeClaim& claim);

class NodeClaimConsistency {
 public:
  NodeClaimConsistency(Clock& clock, ClusterReader& reader, ClusterWriter& writer,
                       EventRecorder& recorder);

  void Start();
  absl::StatusOr<ReconcileResult> Reconcile(const std::string& name);

 private:
  Clock& clock_;
  ClusterReader& reader_;
  ClusterWriter& writer_;
  EventRecorder& recorder_;
  KeyedController controller_;
  // NodeClaim UID -> when it was last scanned (millis); entries older than a period are dropped.
  std::map<std::string, int64_t> last_scanned_;
};

}  // namespace karpenter::controllers
