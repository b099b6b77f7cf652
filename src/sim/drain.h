// Upstream: Karpenter's termination controller and eviction queue
// (pkg/controllers/node/termination: terminator.go, eviction.go) and Cluster Autoscaler's
// Evictor (core/scaledown/actuation/drain.go). Drains one node through the twin's eviction API
// (Cluster::Evict, which honours PodDisruptionBudgets): refused evictions are retried with a
// backoff until the node is empty, the drain is forced at a deadline (Karpenter's NodeClaim
// terminationGracePeriod) or abandoned (Cluster Autoscaler's max-pod-eviction-time).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "src/sim/cluster.h"

namespace karpenter::sim {

struct DrainOptions {
  // Backoff for a refused eviction: doubles from `retry_base` up to `retry_max` (Karpenter's
  // eviction queue: 100 ms to 10 s; Cluster Autoscaler: a flat 10 s).
  SimMillis retry_base = 100;
  SimMillis retry_max = 10000;
  // Karpenter's drain: every pod of the node but static ones, DaemonSet pods too, evicted in
  // the termination controller's tiers (controllers::DrainTier: non-critical before critical,
  // workload before DaemonSet pods), the next tier once the one before is gone.
  bool priority_tiers = false;
  // Karpenter never evicts pods that tolerate karpenter.sh/disrupted:NoSchedule; they go with
  // the node.
  bool skip_disrupted_tolerating = false;
  // The drain is not done before this long, even with nothing to evict (Karpenter's
  // controllers::kMinDrainMillis: pods bound before the taint was seen get evicted too).
  SimMillis min_duration = 0;
  // Past this long, the pods left are deleted regardless of PDBs (terminationGracePeriod).
  std::optional<SimMillis> force_after;
  // Past this long, the drain fails (Cluster Autoscaler: 2 min, the node is kept).
  std::optional<SimMillis> give_up_after;
};

// Starts draining the node; `done(true)` once no pod that must be evicted is left (the caller
// then terminates the instance), `done(false)` if the drain gave up. Every refusal is logged
// once per pod as PodEvictionBlocked; forcing logs DrainForced, giving up DrainFailed.
void StartDrain(Cluster& cluster, const std::string& node_name, const DrainOptions& options,
                std::function<void(bool drained)> done);

}  // namespace karpenter::sim
