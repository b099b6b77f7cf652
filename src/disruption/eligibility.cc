#include "src/disruption/eligibility.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/disruption/node_state.h"

namespace karpenter::disruption {

std::string ConsolidationPolicy(const api::NodePool& pool) {
  if (!pool.spec.disruption || pool.spec.disruption->consolidation_policy.empty()) {
    return std::string(api::kConsolidationPolicyWhenEmptyOrUnderutilized);
  }
  return pool.spec.disruption->consolidation_policy;
}

bool ConsolidationDisabled(const api::NodePool& pool) {
  return pool.spec.disruption && pool.spec.disruption->consolidate_after &&
         pool.spec.disruption->consolidate_after->IsNever();
}

bool IsStaticPool(const api::NodePool& pool) { return pool.spec.replicas.has_value(); }

bool IsConsolidatable(const Candidate& candidate, api::Time now) {
  return IsConsolidatable(*candidate.node_claim, *candidate.node_pool, now);
}

bool IsConsolidatable(const api::NodeClaim& claim, const api::NodePool& pool, api::Time now) {
  if (ConsolidationDisabled(pool)) return false;
  api::Duration after;
  if (pool.spec.disruption && pool.spec.disruption->consolidate_after) {
    after = *pool.spec.disruption->consolidate_after->duration;
  }
  if (after <= api::Duration()) return true;
  std::optional<api::Time> since = claim.status.last_pod_event_time;
  if (const api::Condition* initialized = TrueCondition(claim, api::kConditionTypeInitialized);
      !since && initialized != nullptr) {
    since = initialized->last_transition_time;
  }
  if (!since) since = claim.metadata.creation_timestamp;
  if (!since) return true;  // nothing says it is recent
  return now - *since >= after;
}

bool EmptinessEligible(const Candidate& candidate, api::Time now) {
  const api::NodePool& pool = *candidate.node_pool;
  return candidate.pod_block.empty() && !IsStaticPool(pool) && !ConsolidationDisabled(pool) &&
         candidate.IsEmpty() && IsConsolidatable(candidate, now);
}

std::string ConsolidationIneligibility(const Candidate& candidate, api::Time now) {
  const api::NodePool& pool = *candidate.node_pool;
  if (!candidate.pod_block.empty()) return candidate.pod_block;
  if (IsStaticPool(pool)) return "static NodePool";
  if (candidate.instance_type == nullptr) {
    return absl::StrCat("Instance Type \"", candidate.instance_type_name, "\" not found");
  }
  if (candidate.capacity_type.empty()) {
    return absl::StrCat("Node does not have label \"", std::string(api::kCapacityTypeLabelKey),
                        "\"");
  }
  if (candidate.zone.empty()) {
    return absl::StrCat("Node does not have label \"", std::string(api::kLabelTopologyZone), "\"");
  }
  if (ConsolidationDisabled(pool)) {
    return absl::StrCat("NodePool \"", pool.metadata.name, "\" has consolidation disabled");
  }
  if (candidate.IsEmpty()) return "empty (left to Emptiness)";
  if (ConsolidationPolicy(pool) == api::kConsolidationPolicyWhenEmpty) {
    return absl::StrCat("NodePool \"", pool.metadata.name,
                        "\" has consolidation policy WhenEmpty, but node is not empty");
  }
  if (!IsConsolidatable(candidate, now)) return "still within consolidateAfter";
  return "";
}

void SortBySavingsRatio(std::vector<const Candidate*>& candidates) {
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate* a, const Candidate* b) {
                     if (a->SavingsRatio() != b->SavingsRatio()) {
                       return a->SavingsRatio() > b->SavingsRatio();
                     }
                     // v1.13's order (lifetime-scaled disruption cost) breaks ties.
                     if (a->disruption_cost != b->disruption_cost) {
                       return a->disruption_cost < b->disruption_cost;
                     }
                     return a->name() < b->name();
                   });
}

}  // namespace karpenter::disruption
