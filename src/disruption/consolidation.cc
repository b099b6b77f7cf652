// Upstream: pkg/controllers/disruption/consolidation.go, multinodeconsolidation.go,
// singlenodeconsolidation.go, pkg/cloudprovider/types.go (WorstLaunchPrice)
#include "src/disruption/consolidation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/provisioning/instance_filter.h"
#include "src/provisioning/launch.h"

namespace karpenter::disruption {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The dearest compatible offering of the capacity type a launch would prefer (reserved, then
// spot, then on-demand): what the replacement could cost at worst.
double WorstLaunchPrice(const provisioning::InstanceTypeView& type,
                        const scheduling::Requirements& requirements) {
  for (std::string_view capacity_type :
       {api::kCapacityTypeReserved, api::kCapacityTypeSpot, api::kCapacityTypeOnDemand}) {
    double worst = -1;
    for (const provisioning::OfferingView& offering : type.offerings) {
      if (!offering.available || offering.capacity_type != capacity_type) continue;
      if (!provisioning::OfferingCompatible(offering, requirements)) continue;
      worst = std::max(worst, offering.price);
    }
    if (worst >= 0) return worst;
  }
  return kInfinity;
}

// Keeps the claim's types whose worst launch price is below `max_price`, preserving order, and
// re-derives its type names, capacity types and zones. False (with `why`) when minValues can no
// longer be met.
// The first minValues key `types` cannot satisfy, or "".
std::string UnmetMinValues(std::span<const provisioning::InstanceTypeView* const> types,
                           const scheduling::Requirements& requirements) {
  std::vector<provisioning::TypeCandidate> candidates;
  candidates.reserve(types.size());
  for (const provisioning::InstanceTypeView* type : types) candidates.push_back({.type = type});
  std::vector<const provisioning::TypeCandidate*> pointers;
  for (const provisioning::TypeCandidate& candidate : candidates) pointers.push_back(&candidate);
  return provisioning::UnmetMinValuesKey(pointers, requirements);
}

bool KeepCheaperThan(provisioning::NewNodeClaim& claim, double max_price, std::string& why) {
  std::erase_if(claim.instance_type_options.Mutable(),
                [&](const provisioning::InstanceTypeView* type) {
                  return !(WorstLaunchPrice(*type, claim.requirements) < max_price);
                });
  const std::string unmet =
      UnmetMinValues(claim.instance_type_options.vector(), claim.requirements);
  if (!unmet.empty()) {
    why = absl::StrCat("Filtering by price: minValues requirement on ", unmet,
                       " is not met by the cheaper instance types");
    return false;
  }
  std::vector<std::string> names;
  std::set<std::string> capacity_types;
  std::set<std::string> zones;
  for (const provisioning::InstanceTypeView* type : claim.instance_type_options) {
    names.push_back(type->name);
    for (const provisioning::OfferingView& offering : type->offerings) {
      if (!offering.available || !provisioning::OfferingCompatible(offering, claim.requirements)) {
        continue;
      }
      capacity_types.insert(offering.capacity_type);
      zones.insert(offering.zone);
    }
  }
  claim.instance_types = std::move(names);
  claim.capacity_types.assign(capacity_types.begin(), capacity_types.end());
  claim.zones.assign(zones.begin(), zones.end());
  return true;
}

void PinCapacityType(provisioning::NewNodeClaim& claim, std::string_view capacity_type) {
  claim.requirements.Add(scheduling::Requirement::In(api::kCapacityTypeLabelKey, {capacity_type}));
  std::erase_if(claim.instance_type_options.Mutable(),
                [&](const provisioning::InstanceTypeView* type) {
                  return !provisioning::HasCompatibleOffering(*type, claim.requirements);
                });
  std::vector<const provisioning::InstanceTypeView*>& options =
      claim.instance_type_options.Mutable();
  std::stable_sort(options.begin(), options.end(), [&](const auto* a, const auto* b) {
    return provisioning::CheapestOfferingPrice(*a, claim.requirements) <
           provisioning::CheapestOfferingPrice(*b, claim.requirements);
  });
}

bool AllowsCapacityType(const provisioning::NewNodeClaim& claim, std::string_view capacity_type) {
  const scheduling::Requirement* requirement = claim.requirements.Find(api::kCapacityTypeLabelKey);
  return requirement == nullptr || requirement->Has(capacity_type);
}

double SumPrices(std::span<const Candidate* const> candidates) {
  double total = 0;
  for (const Candidate* candidate : candidates) total += candidate->price;
  return total;
}

// Predicts the launch again after the types changed; false when nothing can launch.
bool Relaunch(provisioning::PlannedNodeClaim& planned, std::string& why) {
  absl::StatusOr<provisioning::LaunchPrediction> launch =
      provisioning::PredictLaunch(planned.claim);
  if (!launch.ok()) {
    why = std::string(launch.status().message());
    return false;
  }
  planned.launch = *std::move(launch);
  return true;
}

Command MakeCommand(std::span<const Candidate* const> candidates, SimulationResult result) {
  Command command;
  for (const Candidate* candidate : candidates) command.candidates.push_back(candidate->name());
  command.candidate_price_per_hour = SumPrices(candidates);
  command.savings_per_hour = command.candidate_price_per_hour;
  for (const provisioning::PlannedNodeClaim& claim : result.new_node_claims) {
    command.savings_per_hour -= claim.launch.price;
  }
  command.replacements = std::move(result.new_node_claims);
  command.destinations = std::move(result.destinations);
  return command;
}

// Spot candidates replaced by spot (D8): only behind the gate, and a single node needs at least
// 15 cheaper types, of which the launch keeps the cheapest 15 (or what minValues needs).
ConsolidationDecision SpotToSpot(std::span<const Candidate* const> candidates,
                                 SimulationResult result, double candidate_price,
                                 const ConsolidationOptions& options) {
  if (!options.spot_to_spot) {
    return {std::nullopt,
            "SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node"};
  }
  provisioning::PlannedNodeClaim& planned = result.new_node_claims.front();
  PinCapacityType(planned.claim, api::kCapacityTypeSpot);
  std::string why;
  if (!KeepCheaperThan(planned.claim, candidate_price, why)) return {std::nullopt, why};
  const size_t options_left = planned.claim.instance_type_options.size();
  if (options_left == 0) return {std::nullopt, "Can't replace with a cheaper node"};
  if (candidates.size() == 1) {
    if (options_left < kMinInstanceTypesForSpotToSpot) {
      return {std::nullopt,
              fmt::format("SpotToSpotConsolidation requires {} cheaper instance type options than "
                          "the current candidate to consolidate, got {}",
                          kMinInstanceTypesForSpotToSpot, options_left)};
    }
    size_t keep = kMinInstanceTypesForSpotToSpot;
    const auto& types = planned.claim.instance_type_options;
    // With minValues, keep the shortest cheapest prefix that still meets them, if longer.
    while (keep < options_left &&
           !UnmetMinValues(std::span(types).first(keep), planned.claim.requirements).empty()) {
      ++keep;
    }
    planned.claim.instance_type_options.resize(keep);
    KeepCheaperThan(planned.claim, kInfinity, why);  // re-derive names, zones, capacity types
  }
  if (!Relaunch(planned, why)) return {std::nullopt, why};
  return {MakeCommand(candidates, std::move(result)), ""};
}

}  // namespace

ConsolidationDecision ComputeConsolidation(const Simulator& simulator,
                                           std::span<const Candidate* const> candidates,
                                           const ConsolidationOptions& options) {
  const double candidate_price = SumPrices(candidates);
  const bool all_spot = std::all_of(candidates.begin(), candidates.end(), [](const Candidate* c) {
    return c->capacity_type == api::kCapacityTypeSpot;
  });
  // When only a deletion can pass, a moved pod off the initialized nodes settles the move: it
  // ends on an uninitialized node or nowhere (failures) or on a new claim, and that claim would
  // allow spot (refused below while the gate is off) or launch nothing cheaper. A pod with no
  // room on another initialized node settles it without a solve (about half the simulations in
  // the first six hours of the twin's 1,000-node day); otherwise the solve stops at the first
  // such pod (most of the rest: the candidates' pods fit one by one but not all together).
  const bool only_deletion_can_pass =
      options.reject_unsolved && all_spot && !options.spot_to_spot &&
      simulator.ReplacementAllowsSpotOrCostsAtLeast(candidates, candidate_price);
  constexpr std::string_view kNoReplacement =
      "a new NodeClaim would replace spot with spot (SpotToSpotConsolidation is disabled) or cost "
      "no less";
  if (only_deletion_can_pass) {
    if (std::optional<std::string> pod =
            simulator.PodWithoutInitializedRoom(candidates, options.now)) {
      return {std::nullopt, fmt::format("pod {} has no room on another initialized node, and {}",
                                        *pod, kNoReplacement)};
    }
  }
  SimulationResult result =
      simulator.Simulate(candidates, {.consolidation = true,
                                      .now = options.now,
                                      // Every command below predicts its launch again after
                                      // cutting the types; a rejection needs none.
                                      .predict_launches = false,
                                      // The pod fails, or a claim launches, either way: rejected.
                                      .stop_at_moved_pod_off_initialized = only_deletion_can_pass});
  if (!result.stopped_at.empty()) {
    return {std::nullopt,
            fmt::format("pod {} would need a new NodeClaim or an uninitialized node, and {}",
                        result.stopped_at, kNoReplacement)};
  }
  if (!result.AllCandidatePodsScheduled()) return {std::nullopt, result.failures.front()};
  if (result.new_node_claims.empty()) return {MakeCommand(candidates, std::move(result)), ""};
  if (result.new_node_claims.size() > 1) {
    return {std::nullopt, fmt::format("Can't remove without creating {} nodeclaims",
                                      result.new_node_claims.size())};
  }
  provisioning::PlannedNodeClaim& planned = result.new_node_claims.front();
  if (all_spot && AllowsCapacityType(planned.claim, api::kCapacityTypeSpot)) {
    return SpotToSpot(candidates, std::move(result), candidate_price, options);
  }
  std::string why;
  if (!KeepCheaperThan(planned.claim, candidate_price, why)) return {std::nullopt, why};
  if (planned.claim.instance_type_options.empty()) {
    return {std::nullopt, "Can't replace with a cheaper node"};
  }
  // On-demand replaced by something that may be spot: launch spot, the point of the move.
  if (AllowsCapacityType(planned.claim, api::kCapacityTypeSpot) &&
      AllowsCapacityType(planned.claim, api::kCapacityTypeOnDemand)) {
    PinCapacityType(planned.claim, api::kCapacityTypeSpot);
    KeepCheaperThan(planned.claim, kInfinity, why);
  }
  if (!Relaunch(planned, why)) return {std::nullopt, why};
  return {MakeCommand(candidates, std::move(result)), ""};
}

std::optional<Command> ConsolidateMultiNode(const Simulator& simulator,
                                            std::span<const Candidate* const> candidates,
                                            const ConsolidationOptions& options) {
  ConsolidationDecision decision = ComputeConsolidation(simulator, candidates, options);
  if (!decision.command) return std::nullopt;
  if (!decision.command->replacements.empty()) {
    // A replacement of a type being removed must beat the cheapest such candidate.
    std::map<std::string, double> price_by_type;
    for (const Candidate* candidate : candidates) {
      auto [it, inserted] =
          price_by_type.try_emplace(candidate->instance_type_name, candidate->price);
      if (!inserted) it->second = std::min(it->second, candidate->price);
    }
    provisioning::PlannedNodeClaim& planned = decision.command->replacements.front();
    double max_price = kInfinity;
    for (const std::string& type : planned.claim.instance_types) {
      if (auto it = price_by_type.find(type); it != price_by_type.end()) {
        max_price = std::min(max_price, it->second);
      }
    }
    std::string why;
    if (!KeepCheaperThan(planned.claim, max_price, why) ||
        planned.claim.instance_type_options.empty() || !Relaunch(planned, why)) {
      return std::nullopt;
    }
    decision.command->savings_per_hour =
        decision.command->candidate_price_per_hour - planned.launch.price;
  }
  if (options.balanced_totals != nullptr &&
      !ApproveBalanced(*decision.command, candidates, *options.balanced_totals)) {
    return std::nullopt;
  }
  return std::move(decision.command);
}

std::optional<Command> MultiNodeConsolidation(const Simulator& simulator,
                                              std::span<const Candidate* const> candidates,
                                              const ConsolidationOptions& options,
                                              size_t max_candidates) {
  if (candidates.size() < 2) return std::nullopt;
  // Prefix lengths mid + 1 for mid in [1, hi]; upstream's off-by-one lets 101 through past 100.
  size_t lo = 1;
  size_t hi = std::min(candidates.size(), max_candidates);
  if (candidates.size() <= max_candidates) hi = candidates.size() - 1;
  std::optional<Command> best;
  while (lo <= hi) {
    const size_t mid = (lo + hi) / 2;
    std::optional<Command> command =
        ConsolidateMultiNode(simulator, candidates.first(mid + 1), options);
    if (command) {
      best = std::move(command);
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

std::vector<const Candidate*> InterleaveByNodePool(std::span<const Candidate* const> candidates) {
  std::map<std::string, std::vector<const Candidate*>> by_pool;
  for (const Candidate* candidate : candidates) {
    by_pool[candidate->node_pool->metadata.name].push_back(candidate);
  }
  std::vector<const Candidate*> out;
  for (size_t i = 0; out.size() < candidates.size(); ++i) {
    for (const auto& [pool, pool_candidates] : by_pool) {
      if (i < pool_candidates.size()) out.push_back(pool_candidates[i]);
    }
  }
  return out;
}

}  // namespace karpenter::disruption
