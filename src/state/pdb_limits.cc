// Upstream: pkg/utils/pdb/pdb.go (kubernetes-sigs/karpenter)
#include "src/state/pdb_limits.h"

#include <algorithm>

#include "src/api/selector_match.h"
#include "src/state/pod_predicates.h"

namespace karpenter::state {
namespace {

bool IsNotReady(const api::Pod& pod) {
  return std::any_of(pod.status.conditions.begin(), pod.status.conditions.end(),
                     [](const api::PodCondition& c) {
                       return c.type == kPodConditionReady && c.status == "False";
                     });
}

}  // namespace

bool IsFullyBlockingBudget(const api::PodDisruptionBudget& budget) {
  const std::optional<api::IntOrString>& max_unavailable = budget.spec.max_unavailable;
  const std::optional<api::IntOrString>& min_available = budget.spec.min_available;
  if (max_unavailable.has_value()) {
    if (max_unavailable->is_int && max_unavailable->int_value == 0) return true;
    if (!max_unavailable->is_int && max_unavailable->str_value == "0%") return true;
  }
  return min_available.has_value() && !min_available->is_int && min_available->str_value == "100%";
}

PdbLimits::PdbLimits(std::span<const api::PodDisruptionBudget> budgets) {
  budgets_.reserve(budgets.size());
  for (const api::PodDisruptionBudget& pdb : budgets) {
    budgets_.push_back(Budget{
        .key = pdb.metadata.namespace_ + "/" + pdb.metadata.name,
        .pdb = &pdb,
        .fully_blocking = IsFullyBlockingBudget(pdb),
        .always_allow_unhealthy = pdb.spec.unhealthy_pod_eviction_policy.value_or("") ==
                                  api::kUnhealthyPodEvictionAlwaysAllow,
    });
  }
}

std::vector<std::string> PdbLimits::BlockingBudgets(const api::Pod& pod, api::Time now,
                                                    Blocker blocker) const {
  std::vector<const Budget*> matching;
  for (const Budget& budget : budgets_) {
    if (budget.pdb->metadata.namespace_ != pod.metadata.namespace_) continue;
    // A PDB without a selector selects nothing (policy/v1), an empty one everything.
    if (!api::Matches(budget.pdb->spec.selector, pod.metadata.labels)) continue;
    matching.push_back(&budget);
  }
  // Most pods have no budget: asked second, evictability is read only for the others.
  if (matching.empty() || !IsEvictable(pod, now)) return {};
  std::vector<std::string> keys;
  if (matching.size() > 1) {
    for (const Budget* budget : matching) keys.push_back(budget->key);
    return keys;
  }
  const Budget& budget = *matching.front();
  if (budget.always_allow_unhealthy && IsNotReady(pod)) return keys;
  const bool blocked = blocker == Blocker::kZeroDisruptions
                           ? budget.pdb->status.disruptions_allowed == 0
                           : budget.fully_blocking;
  if (blocked) keys.push_back(budget.key);
  return keys;
}

bool PdbLimits::IsCurrentlyReschedulable(const api::Pod& pod, api::Time now) const {
  return IsReschedulable(pod) && IsDisruptable(pod, now) && !IsFullyBlocked(pod, now);
}

}  // namespace karpenter::state
