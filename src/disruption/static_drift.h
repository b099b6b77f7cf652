// Upstream: pkg/controllers/disruption/staticdrift.go, pkg/controllers/state/statenodepool.go
// (GetNodeCount, ReserveNodeCount) in kubernetes-sigs/karpenter.
// StaticDrift (D14): drifted nodes of static NodePools (spec.replicas, gate StaticCapacity) are
// replaced one command per node, each by a NodeClaim made from the pool's template, without a
// scheduling simulation. A replacement is an extra node while the drifted one drains, so the
// pool's `limits.nodes` caps how many may be replaced at once; nothing is replaced while the pool
// holds more NodeClaims than `replicas` (a scale-down is still under way).
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "src/api/nodepool.h"
#include "src/state/snapshot.h"

namespace karpenter::disruption {

// A static pool's NodeClaims as upstream's NodePoolState counts them.
struct StaticPoolCounts {
  int64_t active = 0;              // not deleting, not in the orchestration queue
  int64_t deleting = 0;            // deletionTimestamp on the NodeClaim or its Node
  int64_t pending_disruption = 0;  // tainted karpenter.sh/disrupted by a queued command
};

// Counts the NodeClaims labelled with the pool. `extra_deleting` names nodes being deleted in
// this pass (expired ones) that the snapshot does not show as deleting yet.
StaticPoolCounts CountStaticPoolNodeClaims(const state::ClusterSnapshot& snapshot,
                                           const std::string& pool,
                                           const std::set<std::string>& extra_deleting);

struct StaticDriftAllowance {
  int64_t replaceable = 0;  // how many drifted nodes may be replaced now
  std::string held_by;      // why fewer than wanted, for people ("" when none held back)
};

// min(budget, drifted), then cut to what `limits.nodes` leaves after every NodeClaim the pool
// has (active, deleting, pending disruption); 0 while active + pending exceed `replicas`.
StaticDriftAllowance AllowStaticDrift(const api::NodePool& pool, const StaticPoolCounts& counts,
                                      int64_t budget_remaining, int64_t drifted);

}  // namespace karpenter::disruption
