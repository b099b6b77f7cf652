#include "src/state/volume_topology.h"

#include <string>

#include "src/api/karpenter_labels.h"
#include "src/api/nodeclaim.h"

namespace karpenter::state {
namespace {

// The claim a volume mounts: its own for persistentVolumeClaim, "<pod>-<volume>" for a generic
// ephemeral volume; nullptr for other sources or a claim that does not exist.
const api::PersistentVolumeClaim* ClaimOf(const ClusterSnapshot& snapshot, const api::Pod& pod,
                                          const api::Volume& volume) {
  if (volume.persistent_volume_claim.has_value()) {
    return snapshot.FindPersistentVolumeClaim(pod.metadata.namespace_,
                                              volume.persistent_volume_claim->claim_name);
  }
  if (volume.ephemeral.has_value()) {
    return snapshot.FindPersistentVolumeClaim(pod.metadata.namespace_,
                                              pod.metadata.name + "-" + volume.name);
  }
  return nullptr;
}

void AppendBoundVolumeRequirements(const api::PersistentVolume& volume,
                                   std::vector<api::NodeSelectorRequirement>& out) {
  const auto& affinity = volume.spec.node_affinity;
  if (!affinity.has_value() || !affinity->required.has_value() ||
      affinity->required->node_selector_terms.empty()) {
    return;
  }
  const bool node_local = volume.spec.local.has_value() || volume.spec.host_path.has_value();
  for (const api::NodeSelectorRequirement& requirement :
       affinity->required->node_selector_terms.front().match_expressions) {
    if (node_local && requirement.key == api::kLabelHostname) continue;
    out.push_back(requirement);
  }
}

void AppendStorageClassRequirements(const api::StorageClass& storage_class,
                                    std::vector<api::NodeSelectorRequirement>& out) {
  if (storage_class.allowed_topologies.empty()) return;
  for (const api::TopologySelectorLabelRequirement& expression :
       storage_class.allowed_topologies.front().match_label_expressions) {
    out.push_back({expression.key, std::string(api::kNodeSelectorOpIn), expression.values});
  }
}

}  // namespace

std::vector<api::NodeSelectorRequirement> VolumeRequirements(const ClusterSnapshot& snapshot,
                                                             const api::Pod& pod) {
  std::vector<api::NodeSelectorRequirement> out;
  for (const api::Volume& volume : pod.spec.volumes) {
    const api::PersistentVolumeClaim* claim = ClaimOf(snapshot, pod, volume);
    if (claim == nullptr) continue;
    if (!claim->spec.volume_name.empty()) {
      if (const api::PersistentVolume* bound =
              snapshot.FindPersistentVolume(claim->spec.volume_name)) {
        AppendBoundVolumeRequirements(*bound, out);
      }
      continue;
    }
    const std::string class_name = claim->spec.storage_class_name.value_or("");
    if (class_name.empty()) continue;
    if (const api::StorageClass* storage_class = snapshot.FindStorageClass(class_name)) {
      AppendStorageClassRequirements(*storage_class, out);
    }
  }
  return out;
}

void InjectVolumeRequirements(const ClusterSnapshot& snapshot, api::Pod& pod) {
  std::vector<api::NodeSelectorRequirement> requirements = VolumeRequirements(snapshot, pod);
  if (requirements.empty()) return;
  api::Affinity& affinity = pod.spec.affinity ? *pod.spec.affinity : pod.spec.affinity.emplace();
  api::NodeAffinity& node_affinity =
      affinity.node_affinity ? *affinity.node_affinity : affinity.node_affinity.emplace();
  auto& required = node_affinity.required_during_scheduling_ignored_during_execution;
  if (!required.has_value()) required.emplace();
  if (required->node_selector_terms.empty()) required->node_selector_terms.emplace_back();
  for (api::NodeSelectorTerm& term : required->node_selector_terms) {
    term.match_expressions.insert(term.match_expressions.end(), requirements.begin(),
                                  requirements.end());
  }
}

}  // namespace karpenter::state
