// Upstream: kubernetes-sigs/karpenter pkg/controllers/node/termination/terminator/eviction.go.
// The pods a node's termination wants gone, each reconciled on its own: evicted through the
// eviction subresource, so PodDisruptionBudgets are honoured (a 429 is retried with backoff,
// 100 ms doubling to 10 s), or — once its node's terminationGracePeriod would expire before
// the pod's own grace period ends — deleted with the grace period that is left, bypassing PDBs
// and do-not-disrupt. A pod gone, replaced (another UID) or already terminating leaves the
// queue.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "karpenter/clock.h"
#include "karpenter/event_recorder.h"
#include "karpenter/kube_cluster.h"
#include "karpenter/metrics.h"
#include "src/api/pod.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

// The message the eviction subresource answers a pod matched by two PDBs with.
inline constexpr std::string_view kMultiplePdbsMessage =
    "This pod has more than one PodDisruptionBudget, which the eviction subresource does not "
    "support.";

class EvictionQueue {
 public:
  EvictionQueue(Clock& clock, ClusterReader& reader, ClusterWriter& writer, EventRecorder& recorder,
                Metrics& metrics);

  // Queues `pods` to go by `deadline` (the node's termination time; none: evict only). A pod
  // already queued keeps the earlier deadline.
  void Add(const std::optional<api::Time>& deadline, const std::vector<api::Pod>& pods);
  bool Has(const api::Pod& pod) const;
  // One attempt at the pod "namespace/name".
  absl::StatusOr<ReconcileResult> Reconcile(const std::string& key);

  const KeyedController& controller() const { return controller_; }

 private:
  struct Item {
    std::string uid;
    std::optional<api::Time> deadline;
  };
  absl::StatusOr<ReconcileResult> ForceDelete(const api::Pod& pod, const Item& item);
  absl::StatusOr<ReconcileResult> Evict(const api::Pod& pod);
  // Why the pod goes: the DisruptionReason of its node's NodeClaim, else "Forceful
  // Termination"; empty when the node or NodeClaim cannot be found.
  std::string EvictionReason(const api::Pod& pod) const;
  void FailedDraining(const api::Pod& pod, std::string_view why);

  Clock& clock_;
  ClusterReader& reader_;
  ClusterWriter& writer_;
  EventRecorder& recorder_;
  Metrics& metrics_;
  std::map<std::string, Item> items_;  // by namespace/name
  KeyedController controller_;
};

// Whether `pod` must be deleted now rather than evicted: its grace period, started now, would
// end after `deadline` (or, already terminating, it is set to end after it).
bool NeedsForceDelete(const api::Pod& pod, const std::optional<api::Time>& deadline, api::Time now);

}  // namespace karpenter::controllers
