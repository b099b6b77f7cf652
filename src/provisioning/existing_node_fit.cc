#include "src/provisioning/existing_node_fit.h"

#include <algorithm>

#include "src/api/karpenter_labels.h"
#include "src/provisioning/existing_node.h"
#include "src/provisioning/preferences.h"
#include "src/provisioning/resources.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/topology.h"

namespace karpenter::provisioning {
namespace {

// The pool's startup taints, which an uninitialized node of it may still carry.
std::vector<api::Taint> StartupTaints(const SchedulerInput& input, const ExistingNodeView& node) {
  auto pool = node.labels.find(std::string(api::kNodePoolLabelKey));
  if (pool == node.labels.end()) return {};
  for (const NodePoolInstanceTypes& candidate : input.node_pools) {
    if (candidate.node_pool.metadata.name == pool->second) {
      return candidate.node_pool.spec.template_.spec.startup_taints;
    }
  }
  return {};
}

}  // namespace

std::vector<ExistingNodeFit> ExplainExistingNodes(const SchedulerInput& input,
                                                  const api::Pod& pod) {
  std::vector<const ExistingNodeView*> ordered;
  for (const ExistingNodeView& node : input.existing_nodes) ordered.push_back(&node);
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto* a, const auto* b) {
    if (a->initialized != b->initialized) return a->initialized;
    return a->name < b->name;
  });
  PodAttempt attempt(pod);
  if (auto volumes = input.pod_volumes.find(PodKey(pod)); volumes != input.pod_volumes.end()) {
    attempt.volumes = &volumes->second;
  }
  if (input.options.preference_policy == PreferencePolicy::kIgnore) IgnorePreferences(attempt);
  const absl::StatusOr<scheduling::Requirements> requirements = attempt.Requirements();
  const absl::StatusOr<scheduling::Requirements> strict = attempt.StrictRequirements();
  const api::ResourceList requests = RequestsForPod(pod);
  const BoundPodFacts bound(input);
  const Topology topology(input, std::span(&attempt, 1), bound);
  std::vector<ExistingNodeFit> out;
  for (const ExistingNodeView* view : ordered) {
    ExistingNodeFit fit{view->name, view->initialized, ""};
    if (!requirements.ok() || !strict.ok()) {
      fit.refusal =
          "requirement: " +
          std::string((requirements.ok() ? strict.status() : requirements.status()).message());
    } else {
      const ExistingNode node(*view, EffectiveTaints(*view, StartupTaints(input, *view)),
                              input.daemonset_pods);
      fit.refusal = node.Refusal(attempt, *requirements, requests, &*strict, &topology);
    }
    out.push_back(std::move(fit));
  }
  return out;
}

}  // namespace karpenter::provisioning
