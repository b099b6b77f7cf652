// Upstream: pkg/controllers/disruption/balanced.go (kubernetes-sigs/karpenter, v1.14).
// The Balanced consolidation policy (D10): a move is approved for a Balanced pool only when the
// share of the pool's cost it saves is at least 1/k of the share of the pool's disruption cost it
// causes, (savings / pool cost) / (disruption / pool disruption) ≥ 1/k with k = 2. Pools with
// other policies always approve.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "src/disruption/candidates.h"
#include "src/disruption/command.h"
#include "src/disruption/verdict.h"
#include "src/state/snapshot.h"

namespace karpenter::disruption {

inline constexpr int kBalancedK = 2;

struct PoolTotals {
  double cost = 0;             // Σ prices of the pool's gracefully disruptable candidates
  double disruption_cost = 0;  // Σ over all the pool's nodes of 1 + Σ max(0, eviction cost)
};

// Totals per pool with the Balanced policy (no other pool reads them), from every candidate (for
// cost) and every node of the snapshot (disruption).
std::map<std::string, PoolTotals> ComputePoolTotals(const state::ClusterSnapshot& snapshot,
                                                    std::span<const Candidate> candidates);

// The score of a move saving `savings` at `disruption_cost`: 0 without savings, infinite without
// disruption; approved at ≥ 1/k.
double BalancedScore(double savings, double disruption_cost, const PoolTotals& totals);

// Whether every Balanced pool among the command's candidates approves (net savings split between
// pools in proportion to their candidates' prices).
bool ApproveBalanced(const Command& command, std::span<const Candidate* const> candidates,
                     const std::map<std::string, PoolTotals>& totals);

// Best case for a single candidate (a delete saving its whole price): false when even that
// cannot pass, so single-node consolidation skips it.
bool CanPassBalancedThreshold(const Candidate& candidate,
                              const std::map<std::string, PoolTotals>& totals);

// For a candidate of a Balanced pool, the score of a move of it saving `savings` and the
// threshold it must reach (for explanations); nullopt for other policies.
std::optional<BalancedCheck> BalancedCheckOf(const Candidate& candidate, double savings,
                                             const std::map<std::string, PoolTotals>& totals);

}  // namespace karpenter::disruption
