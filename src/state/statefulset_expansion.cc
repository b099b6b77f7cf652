// Upstream (behaviour, not code): kubernetes/kubernetes pkg/controller/statefulset
// (stateful_set_utils.go: pod identity, claim names and labels, pod volumes) and
// pkg/controller/volume/ephemeral (claims of generic ephemeral volumes).
#include <string>

#include "src/state/controller_pods.h"
#include "src/state/expansion_internal.h"
#include "src/state/workload_expansion.h"

namespace karpenter::state {
namespace {

constexpr std::string_view kPodNameLabel = "statefulset.kubernetes.io/pod-name";
constexpr std::string_view kPodIndexLabel = "apps.kubernetes.io/pod-index";

std::string OrdinalPodName(const api::StatefulSet& stateful_set, int32_t ordinal) {
  return stateful_set.metadata.name + "-" + std::to_string(ordinal);
}

std::string ClaimName(const api::PersistentVolumeClaim& claim_template,
                      const api::StatefulSet& stateful_set, int32_t ordinal) {
  return claim_template.metadata.name + "-" + OrdinalPodName(stateful_set, ordinal);
}

// The pod's volume named after the claim template is replaced by (or added as) a reference to
// that ordinal's claim, whatever source the template gave it.
void UseClaimVolume(api::PodSpec& spec, const std::string& volume_name,
                    const std::string& claim_name) {
  api::Volume volume{
      .name = volume_name,
      .persistent_volume_claim = api::PersistentVolumeClaimVolumeSource{.claim_name = claim_name}};
  for (api::Volume& existing : spec.volumes) {
    if (existing.name != volume_name) continue;
    existing = std::move(volume);
    return;
  }
  spec.volumes.push_back(std::move(volume));
}

}  // namespace

std::vector<int32_t> MissingOrdinals(const ClusterSnapshot& snapshot,
                                     const api::StatefulSet& stateful_set) {
  const int32_t start =
      stateful_set.spec.ordinals.has_value() ? stateful_set.spec.ordinals->start : 0;
  const int32_t replicas = stateful_set.spec.replicas.value_or(1);
  std::vector<int32_t> missing;
  for (int32_t ordinal = start; ordinal - start < replicas; ++ordinal) {
    if (snapshot.FindPod(stateful_set.metadata.namespace_, OrdinalPodName(stateful_set, ordinal)) ==
        nullptr) {
      missing.push_back(ordinal);
    }
  }
  return missing;
}

namespace internal {

void ExpandStatefulSet(const ClusterSnapshot& snapshot, const api::StatefulSet& stateful_set,
                       const std::optional<std::string>& default_storage_class,
                       TakenNames& pod_names, TakenNames& claim_names, ExpandedWorkloads& out) {
  const std::string& namespace_ = stateful_set.metadata.namespace_;
  const api::Time created = stateful_set.metadata.creation_timestamp.value_or(api::Time());
  const api::OwnerReference controller =
      ControllerReference("apps/v1", "StatefulSet", stateful_set.metadata);
  for (int32_t ordinal : MissingOrdinals(snapshot, stateful_set)) {
    const std::string name = OrdinalPodName(stateful_set, ordinal);
    // Another StatefulSet's ordinal may have produced the same name ("a-1-2" from "a-1" and
    // "a"); the first in snapshot order keeps it, as the API server would refuse the second.
    if (!pod_names.Take(namespace_, name)) continue;
    api::Pod pod =
        PodFromTemplate(stateful_set.spec.template_, controller, namespace_, name, created);
    pod.metadata.labels[std::string(kPodNameLabel)] = name;
    pod.metadata.labels[std::string(kPodIndexLabel)] = std::to_string(ordinal);
    for (const api::PersistentVolumeClaim& claim_template :
         stateful_set.spec.volume_claim_templates) {
      const std::string claim_name = ClaimName(claim_template, stateful_set, ordinal);
      UseClaimVolume(pod.spec, claim_template.metadata.name, claim_name);
      if (!claim_names.Take(namespace_, claim_name)) continue;
      api::PersistentVolumeClaim claim =
          ClaimFromTemplate(claim_template.metadata, claim_template.spec, namespace_, claim_name,
                            created, default_storage_class, std::nullopt);
      // The controller labels claims with the StatefulSet's selector so they can be found again.
      if (stateful_set.spec.selector.has_value()) {
        for (const auto& [key, value] : stateful_set.spec.selector->match_labels) {
          claim.metadata.labels[key] = value;
        }
      }
      out.claims.push_back(std::move(claim));
    }
    MarkUnschedulable(pod, created);
    out.pods.push_back(std::move(pod));
  }
}

void AddEphemeralClaims(const api::Pod& pod,
                        const std::optional<std::string>& default_storage_class,
                        TakenNames& claim_names, ExpandedWorkloads& out) {
  for (const api::Volume& volume : pod.spec.volumes) {
    if (!volume.ephemeral.has_value() || !volume.ephemeral->volume_claim_template.has_value()) {
      continue;
    }
    const std::string claim_name = pod.metadata.name + "-" + volume.name;
    if (!claim_names.Take(pod.metadata.namespace_, claim_name)) continue;
    const api::PersistentVolumeClaimTemplate& claim_template =
        *volume.ephemeral->volume_claim_template;
    out.claims.push_back(
        ClaimFromTemplate(claim_template.metadata, claim_template.spec, pod.metadata.namespace_,
                          claim_name, pod.metadata.creation_timestamp.value_or(api::Time()),
                          default_storage_class, ControllerReference("v1", "Pod", pod.metadata)));
  }
}

}  // namespace internal
}  // namespace karpenter::state
