// Upstream: the ShouldDisrupt filters of pkg/controllers/disruption/{emptiness,drift,
// consolidation}.go and pkg/controllers/nodeclaim/disruption/consolidation.go.
// Which candidates each method may look at, and the candidate order it uses.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "src/api/time.h"
#include "src/disruption/candidates.h"
#include "src/disruption/verdict.h"

namespace karpenter::disruption {

// consolidationPolicy with its default (WhenEmptyOrUnderutilized).
std::string ConsolidationPolicy(const api::NodePool& pool);
// consolidateAfter "Never": no consolidation at all, emptiness included.
bool ConsolidationDisabled(const api::NodePool& pool);
// A static pool (spec.replicas set, alpha): only StaticDrift touches it.
bool IsStaticPool(const api::NodePool& pool);

// The Consolidatable condition at `now` (D5): initialized and `consolidateAfter` has passed since
// the last pod event (or since initialization). Never: false.
bool IsConsolidatable(const Candidate& candidate, api::Time now);
bool IsConsolidatable(const api::NodeClaim& claim, const api::NodePool& pool, api::Time now);
// How much of consolidateAfter is left at `now`: zero once consolidatable, nullopt with Never.
std::optional<api::Duration> ConsolidateAfterLeft(const api::NodeClaim& claim,
                                                  const api::NodePool& pool, api::Time now);

// Why a method may not look at a candidate. `message` is for people; `time_left` is set for
// kConsolidateAfter.
struct Ineligibility {
  VerdictCode code = VerdictCode::kIneligible;
  std::string message;
  std::optional<api::Duration> time_left;
};

// Graceful methods skip candidates whose pods block eviction; drift (eventual) takes them when
// the NodeClaim has a terminationGracePeriod.
bool EmptinessEligible(const Candidate& candidate, api::Time now);
// Why EmptinessEligible is false (nullopt when it is true).
std::optional<Ineligibility> EmptinessIneligibility(const Candidate& candidate, api::Time now);
// Why a candidate is not a consolidation candidate ("" when it is).
std::string ConsolidationIneligibility(const Candidate& candidate, api::Time now);
// The same with its code (nullopt when it is a candidate).
std::optional<Ineligibility> ConsolidationIneligibilityOf(const Candidate& candidate,
                                                          api::Time now);

// Highest savings ratio (price per unit of rescheduling cost, v1.14) first; ties by the
// lifetime-scaled disruption cost (lowest first), then node name.
void SortBySavingsRatio(std::vector<const Candidate*>& candidates);

}  // namespace karpenter::disruption
