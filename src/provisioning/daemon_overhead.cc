#include "src/provisioning/daemon_overhead.h"

#include "src/provisioning/nodeclaim.h"
#include "src/provisioning/preferences.h"
#include "src/provisioning/resources.h"

namespace karpenter::provisioning {

std::optional<scheduling::Requirements> DaemonRequirementsOn(
    const api::Pod& daemon, const scheduling::Requirements& node_requirements,
    const std::vector<api::Taint>& taints, const scheduling::WellKnownLabels* allow_undefined) {
  PodAttempt attempt(daemon);
  ToleratePreferNoSchedule(attempt.tolerations);
  if (!CheckTaints(taints, attempt.tolerations).ok()) return std::nullopt;
  while (true) {
    absl::StatusOr<scheduling::Requirements> requirements = attempt.StrictRequirements();
    if (requirements.ok()) {
      const bool compatible = allow_undefined == nullptr
                                  ? node_requirements.IsCompatible(*requirements)
                                  : node_requirements.IsCompatible(*requirements, *allow_undefined);
      if (compatible) return *std::move(requirements);
    }
    // Only dropping a required OR-term can help; other relaxations touch preferences.
    auto& affinity = attempt.affinity;
    if (!affinity || !affinity->node_affinity ||
        !affinity->node_affinity->required_during_scheduling_ignored_during_execution) {
      return std::nullopt;
    }
    auto& terms = affinity->node_affinity->required_during_scheduling_ignored_during_execution
                      ->node_selector_terms;
    if (terms.size() <= 1) return std::nullopt;
    terms.erase(terms.begin());
  }
}

api::ResourceList DaemonOverheadOn(std::span<const api::Pod> daemons,
                                   const scheduling::Requirements& node_requirements,
                                   const std::vector<api::Taint>& taints,
                                   const scheduling::WellKnownLabels* allow_undefined) {
  api::ResourceList overhead;
  for (const api::Pod& daemon : daemons) {
    if (DaemonRequirementsOn(daemon, node_requirements, taints, allow_undefined)) {
      overhead = Merge(overhead, RequestsForPod(daemon));
    }
  }
  return overhead;
}

}  // namespace karpenter::provisioning
