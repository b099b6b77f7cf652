// Upstream: pkg/apis/v1/nodepool.go (GetAllowedDisruptionsByReason), pkg/controllers/disruption/
// helpers.go (BuildDisruptionBudgetMapping) in kubernetes-sigs/karpenter.
// NodePool disruption budgets (features §1.1): how many of a pool's nodes a disruption method may
// take right now for one reason. Percentages round up, cron windows are evaluated in UTC, and
// nodes already disrupting (NotReady, deleting, or in the orchestration queue) use up budget.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "karpenter/common/status.h"
#include "src/api/nodepool.h"
#include "src/api/time.h"
#include "src/state/snapshot.h"

namespace karpenter::disruption {

enum class Reason { kEmpty, kDrifted, kUnderutilized, kExpired };

// "Empty", "Drifted", "Underutilized", "Expired" (the NodePool budget spelling).
std::string_view ReasonName(Reason reason);

// No budget applies: upstream's MaxInt32.
inline constexpr int kUnlimitedDisruptions = 2147483647;

// Whether a budget constrains disruptions at `now`: always without a schedule, else while the
// last cron fire time lies within `duration` before `now`. InvalidArgument for a bad cron.
absl::StatusOr<bool> IsBudgetActive(const api::Budget& budget, api::Time now);

// The allowed disruptions for `reason` in a pool of `num_nodes` nodes: the minimum over the active
// budgets that name the reason (or name none), `P%` rounded up; kUnlimitedDisruptions when no
// budget applies. InvalidArgument for a malformed budget (upstream then allows 0).
absl::StatusOr<int> AllowedDisruptions(const api::NodePool& pool, api::Time now, int num_nodes,
                                       Reason reason);

struct PoolBudget {
  int nodes = 0;        // managed, initialized, not terminating nodes of the pool
  int disrupting = 0;   // of those, NotReady, deleting or already being disrupted
  int allowed = 0;      // AllowedDisruptions (0 for a malformed budget)
  int remaining = 0;    // allowed − disrupting, never negative
  std::string problem;  // why `allowed` was forced to 0, e.g. a bad cron
};

// True when the node counts against its pool's budget as already disrupting: NotReady, deleting
// (node or NodeClaim), or tainted karpenter.sh/disrupted by an earlier command.
bool IsDisrupting(const state::ClusterSnapshot& snapshot, const api::Node& node);

// Every NodePool of the snapshot by name. `extra_disrupting` lists nodes that count as
// disrupting although the snapshot does not say so yet (e.g. expired nodes about to be deleted).
std::map<std::string, PoolBudget> BuildBudgetMapping(
    const state::ClusterSnapshot& snapshot, api::Time now, Reason reason,
    const std::set<std::string>& extra_disrupting = {});

}  // namespace karpenter::disruption
