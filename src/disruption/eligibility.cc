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

std::optional<api::Duration> ConsolidateAfterLeft(const api::NodeClaim& claim,
                                                  const api::NodePool& pool, api::Time now) {
  if (ConsolidationDisabled(pool)) return std::nullopt;
  api::Duration after;
  if (pool.spec.disruption && pool.spec.disruption->consolidate_after) {
    after = *pool.spec.disruption->consolidate_after->duration;
  }
  if (after <= api::Duration()) return api::Duration();
  std::optional<api::Time> since = claim.status.last_pod_event_time;
  if (const api::Condition* initialized = TrueCondition(claim, api::kConditionTypeInitialized);
      !since && initialized != nullptr) {
    since = initialized->last_transition_time;
  }
  if (!since) since = claim.metadata.creation_timestamp;
  if (!since) return api::Duration();  // nothing says it is recent
  const api::Duration elapsed = now - *since;
  if (elapsed >= after) return api::Duration();
  return after - elapsed;
}

bool IsConsolidatable(const api::NodeClaim& claim, const api::NodePool& pool, api::Time now) {
  const std::optional<api::Duration> left = ConsolidateAfterLeft(claim, pool, now);
  return left && *left <= api::Duration();
}

bool EmptinessEligible(const Candidate& candidate, api::Time now) {
  const api::NodePool& pool = *candidate.node_pool;
  return candidate.pod_block.empty() && !IsStaticPool(pool) && !ConsolidationDisabled(pool) &&
         candidate.IsEmpty() && IsConsolidatable(candidate, now);
}

std::optional<Ineligibility> EmptinessIneligibility(const Candidate& candidate, api::Time now) {
  const api::NodePool& pool = *candidate.node_pool;
  if (!candidate.pod_block.empty()) {
    return Ineligibility{VerdictCode::kPodBlocked, candidate.pod_block, std::nullopt};
  }
  if (IsStaticPool(pool)) {
    return Ineligibility{VerdictCode::kStaticPool, "static NodePool", std::nullopt};
  }
  if (ConsolidationDisabled(pool)) {
    return Ineligibility{
        VerdictCode::kConsolidationDisabled,
        absl::StrCat("NodePool \"", pool.metadata.name, "\" has consolidateAfter: Never"),
        std::nullopt};
  }
  if (!candidate.IsEmpty()) {
    return Ineligibility{VerdictCode::kNotEmpty,
                         absl::StrCat("not empty: ", candidate.reschedulable_pods.size(),
                                      " pod(s) would have to move"),
                         std::nullopt};
  }
  const std::optional<api::Duration> left = ConsolidateAfterLeft(*candidate.node_claim, pool, now);
  if (left && *left > api::Duration()) {
    return Ineligibility{VerdictCode::kConsolidateAfter,
                         absl::StrCat("still within consolidateAfter: ", left->String(), " left"),
                         left};
  }
  return std::nullopt;
}

std::string ConsolidationIneligibility(const Candidate& candidate, api::Time now) {
  std::optional<Ineligibility> why = ConsolidationIneligibilityOf(candidate, now);
  return why ? std::move(why->message) : "";
}

std::optional<Ineligibility> ConsolidationIneligibilityOf(const Candidate& candidate,
                                                          api::Time now) {
  const api::NodePool& pool = *candidate.node_pool;
  if (!candidate.pod_block.empty()) {
    return Ineligibility{VerdictCode::kPodBlocked, candidate.pod_block, std::nullopt};
  }
  if (IsStaticPool(pool)) {
    return Ineligibility{VerdictCode::kStaticPool, "static NodePool", std::nullopt};
  }
  if (candidate.instance_type == nullptr) {
    return Ineligibility{
        VerdictCode::kIneligible,
        absl::StrCat("Instance Type \"", candidate.instance_type_name, "\" not found"),
        std::nullopt};
  }
  if (candidate.capacity_type.empty()) {
    return Ineligibility{
        VerdictCode::kIneligible,
        absl::StrCat("Node does not have label \"", std::string(api::kCapacityTypeLabelKey), "\""),
        std::nullopt};
  }
  if (candidate.zone.empty()) {
    return Ineligibility{
        VerdictCode::kIneligible,
        absl::StrCat("Node does not have label \"", std::string(api::kLabelTopologyZone), "\""),
        std::nullopt};
  }
  if (ConsolidationDisabled(pool)) {
    return Ineligibility{
        VerdictCode::kConsolidationDisabled,
        absl::StrCat("NodePool \"", pool.metadata.name, "\" has consolidation disabled"),
        std::nullopt};
  }
  if (candidate.IsEmpty()) {
    return Ineligibility{VerdictCode::kLeftToEmptiness, "empty (left to Emptiness)", std::nullopt};
  }
  if (ConsolidationPolicy(pool) == api::kConsolidationPolicyWhenEmpty) {
    return Ineligibility{VerdictCode::kWhenEmptyPolicy,
                         absl::StrCat("NodePool \"", pool.metadata.name,
                                      "\" has consolidation policy WhenEmpty, but node is not "
                                      "empty"),
                         std::nullopt};
  }
  const std::optional<api::Duration> left = ConsolidateAfterLeft(*candidate.node_claim, pool, now);
  if (left && *left > api::Duration()) {
    return Ineligibility{VerdictCode::kConsolidateAfter, "still within consolidateAfter", left};
  }
  return std::nullopt;
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
