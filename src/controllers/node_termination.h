// Upstream: kubernetes-sigs/karpenter pkg/controllers/node/termination (controller.go and
// terminator/terminator.go). Runs when a Karpenter Node (one with the karpenter.sh/termination
// finalizer) is deleted:
//   - its NodeClaim is deleted too (its lifecycle controller then waits for the Node);
//   - a Node that is not Ready and whose instance the cloud no longer knows is let go at once;
//   - otherwise the Node is tainted karpenter.sh/disrupted:NoSchedule (and excluded from load
//     balancers), drained in four tiers — non-critical pods, non-critical DaemonSet pods,
//     critical pods, critical DaemonSet pods, each tier once the one before is gone — through
//     the EvictionQueue, with the NodeClaim's terminationGracePeriod forcing what is left;
//   - VolumeAttachments of drained pods are awaited (not past the grace period);
//   - the instance is terminated (CloudProvider::Delete until NotFound), and the finalizer goes.
// The NodeClaim's Drained, VolumesDetached and InstanceTerminating conditions record progress.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "karpenter/clock.h"
#include "karpenter/cloud_provider.h"
#include "karpenter/event_recorder.h"
#include "karpenter/kube_cluster.h"
#include "karpenter/logger.h"
#include "karpenter/metrics.h"
#include "src/api/node.h"
#include "src/api/nodeclaim.h"
#include "src/controllers/eviction_queue.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

// A drain leaves pods time to be replaced: even an empty node is not Drained until 5 s after
// draining started (pods the scheduler bound before it saw the taint get evicted too).
inline constexpr int64_t kMinDrainMillis = 5 * 1000;

// What a Node whose termination finished counts, written once for the controller and the
// twin: karpenter_nodes_terminated_total{nodepool,zone}, and the
// karpenter_nodes_termination_duration_seconds (from its deletionTimestamp) and
// karpenter_nodes_lifetime_duration_seconds (from its creation) of its NodePool.
void CountNodeTerminated(const api::Node& node, api::Time now, Metrics& metrics);

struct TerminationSeams {
  Clock& clock;
  ClusterReader& reader;
  ClusterWriter& writer;
  CloudProvider& cloud;
  EventRecorder& recorder;
  Metrics& metrics;
  // Upstream's "tainted node" and "deleted node" lines; optional.
  Logger* logger = nullptr;
};

class NodeTermination {
 public:
  NodeTermination(TerminationSeams seams, EvictionQueue& evictions);

  // Reconciles every Node from now on as it changes, and each existing one.
  void Start();
  absl::StatusOr<ReconcileResult> Reconcile(const std::string& node_name);

  const KeyedController& controller() const { return controller_; }

 private:
  // Each step returns a result to requeue with (or an error) while it is not done; an empty
  // result passes on to the next step.
  absl::StatusOr<ReconcileResult> AwaitDrain(api::NodeClaim* claim, const api::Node& node,
                                             const std::optional<api::Time>& deadline);
  absl::StatusOr<ReconcileResult> AwaitVolumeDetachment(api::NodeClaim* claim,
                                                        const api::Node& node,
                                                        const std::optional<api::Time>& deadline);
  absl::StatusOr<ReconcileResult> AwaitInstanceTermination(api::NodeClaim* claim);
  // Queues the pods still to go; how many are waiting (0: drained).
  size_t Drain(const api::Node& node, const std::optional<api::Time>& deadline);
  // The VolumeAttachments on `node` whose volumes belong to pods that are drained (a pod that
  // is never drained keeps its volume attached until the instance goes).
  std::vector<std::string> PendingVolumeAttachments(const api::Node& node) const;
  absl::Status Taint(api::Node& node);
  absl::Status RemoveFinalizer(const api::Node& node);
  void Publish(const api::Node& node, EventType type, std::string_view reason, std::string message);

  TerminationSeams seams_;
  EvictionQueue& evictions_;
  KeyedController controller_;
};

}  // namespace karpenter::controllers
