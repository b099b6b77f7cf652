// Upstream: kubernetes-sigs/karpenter pkg/controllers/nodeclaim/podevents. A NodeClaim's
// status.lastPodEventTime moves when a pod is bound to its node, or one there goes terminal or
// starts terminating (DaemonSet pods aside): consolidateAfter counts from it. Writes are
// de-duplicated within 10 s, shorter than the 15 s validation of consolidation, so a command
// decided meanwhile is still re-checked against the event.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "karpenter/clock.h"
#include "karpenter/kube_cluster.h"
#include "src/api/nodeclaim.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

inline constexpr int64_t kPodEventDedupeMillis = 10 * 1000;

// Whether a pod event at `now` moves the claim's status.lastPodEventTime: it has none yet, or
// the one it has is at least kPodEventDedupeMillis old. Shared with the twin's cluster.
bool RecordsPodEvent(const api::NodeClaim& claim, api::Time now);

struct PodEventSeams {
  Clock& clock;
  ClusterReader& reader;
  ClusterWriter& writer;
};

class PodEvents {
 public:
  explicit PodEvents(PodEventSeams seams);

  // Watches pods: each event that counts queues its pod.
  void Start();
  // The informer's handler: whether this change of the pod counts (a pod seen for the first
  // time counts as created, as an informer's first list does).
  bool Counts(const ObjectKey& pod);
  // Stamps the NodeClaim of the node the pod `namespace/name` is on.
  absl::StatusOr<ReconcileResult> Reconcile(const std::string& pod);

 private:
  struct Seen {
    bool bound = false;
    bool terminal = false;
    bool terminating = false;
  };

  PodEventSeams seams_;
  KeyedController controller_;
  std::map<ObjectKey, Seen> seen_;
};

}  // namespace karpenter::controllers
