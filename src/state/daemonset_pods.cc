// Upstream: pkg/utils/daemonset/daemonset.go, pkg/controllers/provisioning/provisioner.go
#include "src/state/daemonset_pods.h"

#include "src/state/controller_pods.h"
#include "src/state/expansion_internal.h"
#include "src/state/ownership.h"

namespace karpenter::state {
namespace {

// The newest pod the DaemonSet owns (ties broken by name, the snapshot's order).
const api::Pod* NewestOwnedPod(const ClusterSnapshot& snapshot, const api::DaemonSet& daemon_set) {
  const api::Pod* newest = nullptr;
  for (const api::Pod& pod : internal::PodsInNamespace(snapshot, daemon_set.metadata.namespace_)) {
    if (!IsOwnedByObject(pod.metadata, "DaemonSet", daemon_set.metadata)) continue;
    if (newest == nullptr || pod.metadata.creation_timestamp.value_or(api::Time()) >
                                 newest->metadata.creation_timestamp.value_or(api::Time())) {
      newest = &pod;
    }
  }
  return newest;
}

void RestoreTemplateNodeAffinity(const api::DaemonSet& daemon_set, api::Pod& pod) {
  const std::optional<api::Affinity>& template_affinity = daemon_set.spec.template_.spec.affinity;
  if (!template_affinity.has_value() || !template_affinity->node_affinity.has_value() ||
      !template_affinity->node_affinity->required_during_scheduling_ignored_during_execution) {
    return;
  }
  if (!pod.spec.affinity.has_value()) pod.spec.affinity.emplace();
  if (!pod.spec.affinity->node_affinity.has_value()) pod.spec.affinity->node_affinity.emplace();
  pod.spec.affinity->node_affinity->required_during_scheduling_ignored_during_execution =
      template_affinity->node_affinity->required_during_scheduling_ignored_during_execution;
}

}  // namespace

api::Pod DaemonSetPodTemplate(const api::DaemonSet& daemon_set) {
  return PodFromTemplate(daemon_set.spec.template_,
                         ControllerReference("apps/v1", "DaemonSet", daemon_set.metadata),
                         daemon_set.metadata.namespace_, daemon_set.metadata.name,
                         daemon_set.metadata.creation_timestamp.value_or(api::Time()));
}

api::Pod DaemonSetPod(const ClusterSnapshot& snapshot, const api::DaemonSet& daemon_set) {
  const api::Pod* live = NewestOwnedPod(snapshot, daemon_set);
  api::Pod pod = live != nullptr ? *live : DaemonSetPodTemplate(daemon_set);
  RestoreTemplateNodeAffinity(daemon_set, pod);
  return pod;
}

std::vector<api::Pod> DaemonSetPods(const ClusterSnapshot& snapshot) {
  std::vector<api::Pod> pods;
  pods.reserve(snapshot.daemon_sets().size());
  for (const api::DaemonSet& daemon_set : snapshot.daemon_sets()) {
    pods.push_back(DaemonSetPod(snapshot, daemon_set));
  }
  return pods;
}

}  // namespace karpenter::state
