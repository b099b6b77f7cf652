#include "src/disruption/time_state.h"

#include "src/api/karpenter_labels.h"
#include "src/disruption/budgets.h"
#include "src/disruption/drift.h"
#include "src/disruption/eligibility.h"
#include "src/disruption/node_state.h"
#include "src/state/pod_predicates.h"

namespace karpenter::disruption {

std::string TimeDependentState(const state::ClusterSnapshot& snapshot, api::Time now) {
  std::string state;
  auto bit = [&state](bool value) { state.push_back(value ? '1' : '0'); };
  for (const api::NodeClaim& claim : snapshot.node_claims()) {
    const api::NodePool* pool = nullptr;
    if (auto label = claim.metadata.labels.find(api::KeyString<api::kNodePoolLabelKey>());
        label != claim.metadata.labels.end()) {
      pool = snapshot.FindNodePool(label->second);
    }
    bit(pool != nullptr && IsConsolidatable(claim, *pool, now));
    const std::optional<api::Time> expires = ExpirationTime(claim, pool);
    bit(expires && *expires <= now);
    bit(claim.metadata.creation_timestamp &&
        now - *claim.metadata.creation_timestamp > kInstanceTypeNotFoundAge);
  }
  state.push_back('|');
  for (const api::NodePool& pool : snapshot.node_pools()) {
    if (!pool.spec.disruption || !pool.spec.disruption->budgets) continue;
    for (const api::Budget& budget : *pool.spec.disruption->budgets) {
      const absl::StatusOr<bool> active = IsBudgetActive(budget, now);
      bit(active.ok() && *active);
    }
  }
  state.push_back('|');
  // Pods without the annotation are never protected; the key's generation pins the pod set.
  for (const api::Pod* pod : snapshot.PodsWithDoNotDisrupt()) {
    bit(state::IsDoNotDisruptActive(*pod, now));
  }
  return state;
}

}  // namespace karpenter::disruption
