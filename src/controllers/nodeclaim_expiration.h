// Upstream: kubernetes-sigs/karpenter pkg/controllers/nodeclaim/expiration and
// nodeclaim/garbagecollection. Two ways a NodeClaim is deleted without a disruption decision:
//   - expiration: `spec.expireAfter` after its creation (not "Never"), whatever its pods say —
//     budgets and do-not-disrupt do not hold it back; terminationGracePeriod bounds the drain;
//   - garbage collection, every 2 minutes: a registered NodeClaim whose instance the cloud no
//     longer lists, unless its Node still reports Ready (the kubelet is plainly alive).
// Both count karpenter_nodeclaims_disrupted_total and the pods they disrupt.
#pragma once

#include <optional>
#include <string>

#include "karpenter/clock.h"
#include "karpenter/cloud_provider.h"
#include "karpenter/kube_cluster.h"
#include "karpenter/metrics.h"
#include "src/api/nodeclaim.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

inline constexpr int64_t kGarbageCollectionPeriodMillis = 2 * 60 * 1000;

// When `claim` expires: its creationTimestamp plus spec.expireAfter. None without either, or
// with expireAfter "Never". The twin times its expirations by this too.
std::optional<api::Time> ExpirationInstant(const api::NodeClaim& claim);

struct CleanupSeams {
  Clock& clock;
  ClusterReader& reader;
  ClusterWriter& writer;
  CloudProvider& cloud;
  Metrics& metrics;
};

class NodeClaimExpiration {
 public:
  explicit NodeClaimExpiration(CleanupSeams seams);

  void Start();
  absl::StatusOr<ReconcileResult> Reconcile(const std::string& name);

 private:
  CleanupSeams seams_;
  KeyedController controller_;
};

class NodeClaimGarbageCollection {
 public:
  explicit NodeClaimGarbageCollection(CleanupSeams seams);

  void Start() { loop_.Start(); }
  absl::StatusOr<ReconcileResult> Reconcile();

 private:
  CleanupSeams seams_;
  SingletonLoop loop_;
};

}  // namespace karpenter::controllers
