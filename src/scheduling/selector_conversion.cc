// Upstream: pkg/scheduling/requirements.go (NewNodeSelectorRequirements, NewLabelRequirements,
// newPodRequirements) and requirement.go (NodeSelectorRequirement).
#include "src/scheduling/selector_conversion.h"

#include <utility>

#include "fmt/format.h"
#include "src/api/selector_match.h"

namespace karpenter::scheduling {
namespace {

// The first preferred term of the highest weight, or null when there are none.
const api::NodeSelectorTerm* HeaviestPreference(const api::NodeAffinity& node_affinity) {
  const api::PreferredSchedulingTerm* heaviest = nullptr;
  for (const api::PreferredSchedulingTerm& term :
       node_affinity.preferred_during_scheduling_ignored_during_execution) {
    if (heaviest == nullptr || term.weight > heaviest->weight) heaviest = &term;
  }
  return heaviest == nullptr ? nullptr : &heaviest->preference;
}

api::NodeSelectorRequirement Bound(const Requirement& requirement, std::string_view op,
                                   int64_t bound) {
  return {.key = std::string(requirement.key()),
          .operator_ = std::string(op),
          .values = {fmt::format("{}", bound)}};
}

}  // namespace

absl::StatusOr<Requirement> FromNodeSelectorRequirement(
    const api::NodeSelectorRequirement& requirement, Requirement::MinValues min_values) {
  return Requirement::Create(requirement.key, requirement.operator_, requirement.values,
                             min_values);
}

absl::StatusOr<Requirement> FromRequirementWithMinValues(
    const api::NodeSelectorRequirementWithMinValues& requirement) {
  Requirement::MinValues min_values;
  if (requirement.min_values) min_values = static_cast<int32_t>(*requirement.min_values);
  return Requirement::Create(requirement.key, requirement.operator_, requirement.values,
                             min_values);
}

absl::StatusOr<Requirements> FromNodeSelectorRequirements(
    std::span<const api::NodeSelectorRequirement> requirements) {
  Requirements out;
  for (const api::NodeSelectorRequirement& requirement : requirements) {
    KP_ASSIGN_OR_RETURN(Requirement converted, FromNodeSelectorRequirement(requirement));
    out.Add(std::move(converted));
  }
  return out;
}

Requirements FromLabels(const std::map<std::string, std::string>& labels) {
  Requirements out;
  for (const auto& [key, value] : labels) out.Add(Requirement::In(key, {value}));
  return out;
}

absl::StatusOr<Requirements> FromPodSelectors(
    const std::map<std::string, std::string>& node_selector,
    const api::Box<api::Affinity>& affinity, const PodRequirementOptions& options) {
  Requirements out = FromLabels(node_selector);
  if (!affinity || !affinity->node_affinity) return out;
  const api::NodeAffinity& node_affinity = *affinity->node_affinity;
  if (options.include_preferred) {
    if (const api::NodeSelectorTerm* preferred = HeaviestPreference(node_affinity)) {
      KP_ASSIGN_OR_RETURN(Requirements from_preferred,
                          FromNodeSelectorRequirements(preferred->match_expressions));
      out.Add(from_preferred);
    }
  }
  const std::optional<api::NodeSelector>& required =
      node_affinity.required_during_scheduling_ignored_during_execution;
  if (!required || required->node_selector_terms.empty()) return out;
  if (options.required_term >= required->node_selector_terms.size()) {
    return absl::InvalidArgumentError(
        fmt::format("required node affinity term {} does not exist; the pod has {}",
                    options.required_term, required->node_selector_terms.size()));
  }
  KP_ASSIGN_OR_RETURN(Requirements from_required,
                      FromNodeSelectorRequirements(
                          required->node_selector_terms[options.required_term].match_expressions));
  out.Add(from_required);
  return out;
}

absl::StatusOr<Requirements> FromPodSpec(const api::PodSpec& spec,
                                         const PodRequirementOptions& options) {
  return FromPodSelectors(spec.node_selector, spec.affinity, options);
}

std::vector<api::NodeSelectorRequirement> ToNodeSelectorRequirements(
    const Requirement& requirement) {
  if (requirement.gte() && requirement.lte()) {
    return {Bound(requirement, api::kSelectorOpGte, *requirement.gte()),
            Bound(requirement, api::kSelectorOpLte, *requirement.lte())};
  }
  if (requirement.gte()) return {Bound(requirement, api::kSelectorOpGte, *requirement.gte())};
  if (requirement.lte()) return {Bound(requirement, api::kSelectorOpLte, *requirement.lte())};
  std::span<const std::string> values = requirement.Values();
  return {{.key = std::string(requirement.key()),
           .operator_ = std::string(OperatorName(requirement.Operator())),
           .values = std::vector<std::string>(values.begin(), values.end())}};
}

std::vector<api::NodeSelectorRequirement> ToNodeSelectorRequirements(
    const Requirements& requirements) {
  std::vector<api::NodeSelectorRequirement> out;
  out.reserve(requirements.size());
  for (const Requirement& requirement : requirements) {
    std::vector<api::NodeSelectorRequirement> converted = ToNodeSelectorRequirements(requirement);
    out.insert(out.end(), std::make_move_iterator(converted.begin()),
               std::make_move_iterator(converted.end()));
  }
  return out;
}

}  // namespace karpenter::scheduling
