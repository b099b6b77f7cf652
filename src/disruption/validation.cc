// Upstream: pkg/controllers/disruption/validation.go
#include "src/disruption/validation.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "src/disruption/candidates.h"
#include "src/disruption/eligibility.h"
#include "src/disruption/reshape_consolidation.h"
#include "src/disruption/simulation.h"

namespace karpenter::disruption {
namespace {

ValidationResult Abandon(ValidationFailure failure, std::string message) {
  return {std::nullopt, failure, std::move(message)};
}

// The command's candidates that are still candidates for its method, in command order.
std::vector<const Candidate*> StillValid(const CandidateSet& set, const Command& command,
                                         api::Time now) {
  std::map<std::string, const Candidate*, std::less<>> by_name;
  for (const Candidate& candidate : set.candidates) by_name[candidate.name()] = &candidate;
  std::vector<const Candidate*> valid;
  for (const std::string& name : command.candidates) {
    auto it = by_name.find(name);
    if (it == by_name.end()) continue;
    const Candidate& candidate = *it->second;
    const bool eligible = command.method == Method::kEmptiness
                              ? EmptinessEligible(candidate, now)
                              : ConsolidationIneligibility(candidate, now).empty();
    if (eligible) valid.push_back(&candidate);
  }
  return valid;
}

ValidationResult ValidateEmptiness(const state::ClusterSnapshot& snapshot, const CandidateSet& set,
                                   const Command& command, api::Time now) {
  std::vector<const Candidate*> valid = StillValid(set, command, now);
  if (valid.empty()) {
    return Abandon(ValidationFailure::kChurn,
                   absl::StrCat(command.candidates.size(), " candidates are no longer valid"));
  }
  auto budgets = BuildBudgetMapping(snapshot, now, Reason::kEmpty);
  Command validated = command;
  validated.candidates.clear();
  validated.candidate_price_per_hour = 0;
  for (const Candidate* candidate : valid) {
    int& remaining = budgets[candidate->node_pool->metadata.name].remaining;
    if (remaining == 0) continue;
    --remaining;
    validated.candidates.push_back(candidate->name());
    validated.candidate_price_per_hour += candidate->price;
  }
  if (validated.candidates.empty()) {
    return Abandon(ValidationFailure::kBudget,
                   "every candidate would now violate its disruption budget");
  }
  validated.savings_per_hour = validated.candidate_price_per_hour;
  return {std::move(validated), std::nullopt, ""};
}

// The command with its replacements' instance type options pointing into `input` (which
// outlives the older input they were computed from); a type `input` no longer offers is dropped.
Command RebindReplacements(const provisioning::SchedulerInput& input, const Command& command) {
  Command rebound = command;
  for (provisioning::PlannedNodeClaim& planned : rebound.replacements) {
    std::map<std::string_view, const provisioning::InstanceTypeView*> by_name;
    for (const provisioning::NodePoolInstanceTypes& pool : input.node_pools) {
      if (pool.node_pool.metadata.name != planned.claim.node_pool) continue;
      for (const provisioning::InstanceTypeView& type : pool.instance_types) {
        by_name[type.name] = &type;
      }
    }
    std::vector<const provisioning::InstanceTypeView*>& options =
        planned.claim.instance_type_options.Mutable();
    for (const provisioning::InstanceTypeView*& type : options) {
      auto it = by_name.find(type->name);
      type = it == by_name.end() ? nullptr : it->second;
    }
    std::erase(options, nullptr);
  }
  return rebound;
}

ValidationResult ValidateConsolidation(const state::ClusterSnapshot& snapshot,
                                       provisioning::SnapshotSchedulerInput& input,
                                       const CandidateSet& set, const Command& command,
                                       api::Time now) {
  std::vector<const Candidate*> valid = StillValid(set, command, now);
  if (valid.size() != command.candidates.size()) {
    return Abandon(ValidationFailure::kChurn, absl::StrCat(command.candidates.size() - valid.size(),
                                                           " candidates are no longer valid"));
  }
  auto budgets = BuildBudgetMapping(snapshot, now, Reason::kUnderutilized);
  for (const Candidate* candidate : valid) {
    int& remaining = budgets[candidate->node_pool->metadata.name].remaining;
    if (remaining == 0) {
      return Abandon(ValidationFailure::kBudget,
                     "a candidate can no longer be disrupted without violating budgets");
    }
    --remaining;
  }
  const Simulator simulator(snapshot, input);
  if (command.replacements.size() > 1) {
    // A re-shape (reshape_consolidation.h): its pods must still land on the remaining nodes
    // and the replacements it launches.
    SimulationResult reshaped =
        SimulateReshape(simulator, input.input, valid, command.replacements, now);
    if (!reshaped.AllCandidatePodsScheduled()) {
      return Abandon(ValidationFailure::kScheduling, reshaped.failures.front());
    }
    return {RebindReplacements(input.input, command), std::nullopt, ""};
  }
  SimulationResult result = simulator.Simulate(valid, {.consolidation = true, .now = now});
  if (!result.AllCandidatePodsScheduled()) {
    return Abandon(ValidationFailure::kScheduling, result.failures.front());
  }
  const size_t claims = result.new_node_claims.size();
  const bool same = command.replacements.empty() ? claims == 0 : claims == 1;
  if (!same) {
    return Abandon(ValidationFailure::kScheduling, "scheduling simulation produced new results");
  }
  Command validated = command;
  if (claims == 1) {
    const provisioning::NewNodeClaim& fresh = result.new_node_claims.front().claim;
    std::map<std::string_view, const provisioning::InstanceTypeView*> options;
    for (size_t i = 0; i < fresh.instance_types.size(); ++i) {
      options[fresh.instance_types[i]] = fresh.instance_type_options[i];
    }
    provisioning::NewNodeClaim& claim = validated.replacements.front().claim;
    claim.instance_type_options.clear();
    for (const std::string& type : claim.instance_types) {
      auto option = options.find(type);
      if (option == options.end()) {
        return Abandon(ValidationFailure::kScheduling,
                       absl::StrCat("scheduling simulation produced new results: ", type,
                                    " is no longer an option"));
      }
      // The command's replacement keeps its decision but must point into `input`, which
      // outlives the (older) input it was computed from.
      claim.instance_type_options.push_back(option->second);
    }
  }
  return {std::move(validated), std::nullopt, ""};
}

}  // namespace

bool IsRevalidated(Method method) {
  return method == Method::kEmptiness || method == Method::kMultiNodeConsolidation ||
         method == Method::kSingleNodeConsolidation;
}

std::string_view ValidationFailureName(ValidationFailure failure) {
  switch (failure) {
    case ValidationFailure::kChurn:
      return "churn";
    case ValidationFailure::kBudget:
      return "budget";
    case ValidationFailure::kScheduling:
      return "scheduling";
  }
  return "unknown";
}

ValidationResult ValidateCommand(const state::ClusterSnapshot& snapshot,
                                 provisioning::SnapshotSchedulerInput& input,
                                 const Command& command, api::Time now) {
  if (!IsRevalidated(command.method)) return {command, std::nullopt, ""};
  const PoolInstanceTypes types = IndexInstanceTypes(input.input);
  const CandidateSet set = BuildCandidates(snapshot, types, now);
  if (command.method == Method::kEmptiness) return ValidateEmptiness(snapshot, set, command, now);
  return ValidateConsolidation(snapshot, input, set, command, now);
}

}  // namespace karpenter::disruption
