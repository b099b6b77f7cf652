// Upstream: kubernetes-sigs/karpenter pkg/controllers/nodepool/readiness and validation: the two
// conditions a NodePool's Ready rests on. ValidationSucceeded says whether the pool passes the
// runtime validation (False with every field error otherwise). NodeClassReady follows its node
// class's Ready condition (False with the class's reason, or NodeClassNotFound /
// NodeClassTerminating / NodeClassReadinessUnknown), so a NodePool whose EC2NodeClass cannot
// launch is not provisioned from. NodePools referring to a node class kind this provider does not
// serve are left alone.
#pragma once

#include <string>

#include "karpenter/clock.h"
#include "karpenter/kube_cluster.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

class NodePoolReadiness {
 public:
  NodePoolReadiness(Clock& clock, ClusterReader& reader, ClusterWriter& writer);

  // Reconciles every NodePool as it or any EC2NodeClass changes, and each existing one.
  void Start();
  absl::StatusOr<ReconcileResult> Reconcile(const std::string& node_pool);

 private:
  Clock& clock_;
  ClusterReader& reader_;
  ClusterWriter& writer_;
  KeyedController controller_;
};

}  // namespace karpenter::controllers
