// Upstream: pkg/controllers/disruption/balanced.go
#include "src/disruption/balanced.h"

#include <limits>

#include "src/api/nodepool.h"
#include "src/disruption/eligibility.h"
#include "src/disruption/node_state.h"
#include "src/state/pod_predicates.h"

namespace karpenter::disruption {
namespace {

bool IsBalanced(const api::NodePool& pool) {
  return ConsolidationPolicy(pool) == api::kConsolidationPolicyBalanced;
}

bool Approved(double score) { return score >= 1.0 / kBalancedK; }

}  // namespace

std::map<std::string, PoolTotals> ComputePoolTotals(const state::ClusterSnapshot& snapshot,
                                                    std::span<const Candidate> candidates) {
  std::map<std::string, PoolTotals> totals;
  for (const Candidate& candidate : candidates) {
    // Upstream sums the candidates of the graceful class, which pod-blocked nodes are not. Only
    // Balanced pools are summed: walking every pod of the others each poll would be wasted.
    if (!candidate.pod_block.empty() || !IsBalanced(*candidate.node_pool)) continue;
    totals[candidate.node_pool->metadata.name].cost += candidate.price;
  }
  for (const api::Node& node : snapshot.nodes()) {
    const std::string pool = NodePoolOf(node, snapshot.NodeClaimForNode(node));
    auto it = totals.find(pool);
    if (it == totals.end()) continue;
    double cost = 1.0;
    for (const api::Pod* pod : snapshot.PodsOnNode(node.metadata.name)) {
      if (state::IsReschedulable(*pod)) cost += std::max(0.0, EvictionCost(*pod));
    }
    it->second.disruption_cost += cost;
  }
  return totals;
}

double BalancedScore(double savings, double disruption_cost, const PoolTotals& totals) {
  if (totals.cost <= 0 || totals.disruption_cost <= 0) return 0;
  const double savings_fraction = savings / totals.cost;
  const double disruption_fraction = disruption_cost / totals.disruption_cost;
  if (savings_fraction <= 0) return 0;
  if (disruption_fraction == 0) return std::numeric_limits<double>::infinity();
  return savings_fraction / disruption_fraction;
}

bool ApproveBalanced(const Command& command, std::span<const Candidate* const> candidates,
                     const std::map<std::string, PoolTotals>& totals) {
  std::map<std::string, std::vector<const Candidate*>> by_pool;
  double source_cost = 0;
  for (const Candidate* candidate : candidates) {
    by_pool[candidate->node_pool->metadata.name].push_back(candidate);
    source_cost += candidate->price;
  }
  for (const auto& [pool, members] : by_pool) {
    if (!IsBalanced(*members.front()->node_pool)) continue;
    double pool_cost = 0;
    double disruption = 0;
    for (const Candidate* candidate : members) {
      pool_cost += candidate->price;
      disruption += candidate->reschedule_disruption_cost;
    }
    double savings = command.savings_per_hour;
    if (source_cost > 0 && by_pool.size() > 1) savings *= pool_cost / source_cost;
    auto it = totals.find(pool);
    const PoolTotals pool_totals = it == totals.end() ? PoolTotals{} : it->second;
    // Zero totals leave nothing to normalise against; upstream's score is then 0 (rejected).
    if (!Approved(BalancedScore(savings, disruption, pool_totals))) return false;
  }
  return true;
}

bool CanPassBalancedThreshold(const Candidate& candidate,
                              const std::map<std::string, PoolTotals>& totals) {
  if (!IsBalanced(*candidate.node_pool)) return true;
  auto it = totals.find(candidate.node_pool->metadata.name);
  if (it == totals.end() || it->second.cost <= 0) return true;
  return Approved(BalancedScore(candidate.price, candidate.reschedule_disruption_cost, it->second));
}

std::optional<BalancedCheck> BalancedCheckOf(const Candidate& candidate, double savings,
                                             const std::map<std::string, PoolTotals>& totals) {
  if (!IsBalanced(*candidate.node_pool)) return std::nullopt;
  auto it = totals.find(candidate.node_pool->metadata.name);
  const PoolTotals pool_totals = it == totals.end() ? PoolTotals{} : it->second;
  return BalancedCheck{BalancedScore(savings, candidate.reschedule_disruption_cost, pool_totals),
                       1.0 / kBalancedK};
}

}  // namespace karpenter::disruption
