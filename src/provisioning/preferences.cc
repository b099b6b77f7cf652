#include "src/provisioning/preferences.h"

#include <algorithm>

#include "src/api/karpenter_labels.h"
#include "src/api/taint_match.h"
#include "src/scheduling/selector_conversion.h"

namespace karpenter::provisioning {
namespace {

constexpr char kScheduleAnyway[] = "ScheduleAnyway";

// Index of the heaviest term (the first among equal weights).
template <class Terms>
size_t Heaviest(const Terms& terms) {
  size_t best = 0;
  for (size_t i = 1; i < terms.size(); ++i) {
    if (terms[i].weight > terms[best].weight) best = i;
  }
  return best;
}

template <class Terms>
bool EraseHeaviest(Terms& terms) {
  if (terms.empty()) return false;
  terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(Heaviest(terms)));
  return true;
}

}  // namespace

PodAttempt::PodAttempt(const api::Pod& original)
    : pod(&original),
      affinity(original.spec.affinity),
      tolerations(original.spec.tolerations),
      topology_spread_constraints(original.spec.topology_spread_constraints) {}

absl::StatusOr<scheduling::Requirements> PodAttempt::Requirements() const {
  return scheduling::FromPodSelectors(pod->spec.node_selector, affinity, {});
}

absl::StatusOr<scheduling::Requirements> PodAttempt::StrictRequirements() const {
  return scheduling::FromPodSelectors(pod->spec.node_selector, affinity,
                                      {.include_preferred = false});
}

void IgnorePreferences(PodAttempt& attempt) {
  if (attempt.affinity) {
    if (attempt.affinity->node_affinity) {
      attempt.affinity->node_affinity->preferred_during_scheduling_ignored_during_execution.clear();
    }
    if (attempt.affinity->pod_affinity) {
      attempt.affinity->pod_affinity->preferred_during_scheduling_ignored_during_execution.clear();
    }
    if (attempt.affinity->pod_anti_affinity) {
      attempt.affinity->pod_anti_affinity->preferred_during_scheduling_ignored_during_execution
          .clear();
    }
  }
  std::erase_if(attempt.topology_spread_constraints, [](const api::TopologySpreadConstraint& tsc) {
    return tsc.when_unsatisfiable == kScheduleAnyway;
  });
}

bool ToleratePreferNoSchedule(std::vector<api::Toleration>& tolerations) {
  api::Toleration toleration;
  toleration.operator_ = std::string(api::kTolerationOpExists);
  toleration.effect = std::string(api::kTaintEffectPreferNoSchedule);
  if (std::find(tolerations.begin(), tolerations.end(), toleration) != tolerations.end()) {
    return false;
  }
  tolerations.push_back(std::move(toleration));
  return true;
}

bool Relax(PodAttempt& attempt, bool tolerate_prefer_no_schedule) {
  if (attempt.affinity) {
    api::Affinity& affinity = *attempt.affinity;
    if (affinity.node_affinity &&
        affinity.node_affinity->required_during_scheduling_ignored_during_execution) {
      auto& terms = affinity.node_affinity->required_during_scheduling_ignored_during_execution
                        ->node_selector_terms;
      // The last OR-term is never dropped: it is a hard requirement.
      if (terms.size() > 1) {
        terms.erase(terms.begin());
        return true;
      }
    }
    if (affinity.pod_affinity &&
        EraseHeaviest(
            affinity.pod_affinity->preferred_during_scheduling_ignored_during_execution)) {
      return true;
    }
    if (affinity.pod_anti_affinity &&
        EraseHeaviest(
            affinity.pod_anti_affinity->preferred_during_scheduling_ignored_during_execution)) {
      return true;
    }
    if (affinity.node_affinity &&
        EraseHeaviest(
            affinity.node_affinity->preferred_during_scheduling_ignored_during_execution)) {
      return true;
    }
  }
  auto anyway = std::find_if(attempt.topology_spread_constraints.begin(),
                             attempt.topology_spread_constraints.end(),
                             [](const api::TopologySpreadConstraint& tsc) {
                               return tsc.when_unsatisfiable == kScheduleAnyway;
                             });
  if (anyway != attempt.topology_spread_constraints.end()) {
    attempt.topology_spread_constraints.erase(anyway);
    return true;
  }
  return tolerate_prefer_no_schedule && ToleratePreferNoSchedule(attempt.tolerations);
}

std::optional<std::string> RestrictedLabelViolation(const api::Pod& pod) {
  for (const auto& [key, value] : pod.spec.node_selector) {
    if (api::IsRestrictedLabel(key)) return api::RestrictedLabelMessage(key);
  }
  const auto& affinity = pod.spec.affinity;
  if (affinity && affinity->node_affinity &&
      affinity->node_affinity->required_during_scheduling_ignored_during_execution) {
    for (const api::NodeSelectorTerm& term :
         affinity->node_affinity->required_during_scheduling_ignored_during_execution
             ->node_selector_terms) {
      for (const api::NodeSelectorRequirement& requirement : term.match_expressions) {
        if (api::IsRestrictedLabel(requirement.key)) {
          return api::RestrictedLabelMessage(requirement.key);
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace karpenter::provisioning
