#include "src/state/volume_usage.h"

#include <string_view>

namespace karpenter::state {
namespace {

// In-tree provisioners whose volumes the CSI migration hands to a CSI driver.
std::string_view MigratedDriver(std::string_view provisioner) {
  if (provisioner == "kubernetes.io/aws-ebs") return "ebs.csi.aws.com";
  return provisioner;
}

std::string ResolveDriver(const ClusterSnapshot& snapshot, const std::string& volume_name,
                          const std::string& storage_class_name) {
  if (!volume_name.empty()) {
    const api::PersistentVolume* volume = snapshot.FindPersistentVolume(volume_name);
    if (volume != nullptr && volume->spec.csi.has_value() && !volume->spec.csi->driver.empty()) {
      return volume->spec.csi->driver;
    }
  }
  if (!storage_class_name.empty()) {
    const api::StorageClass* storage_class = snapshot.FindStorageClass(storage_class_name);
    if (storage_class != nullptr && !storage_class->provisioner.empty()) {
      return std::string(MigratedDriver(storage_class->provisioner));
    }
  }
  return "";
}

}  // namespace

VolumesByDriver PodVolumes(const ClusterSnapshot& snapshot, const api::Pod& pod) {
  VolumesByDriver out;
  const std::string& ns = pod.metadata.namespace_;
  for (const api::Volume& volume : pod.spec.volumes) {
    std::string claim_name;
    std::string volume_name;
    std::string storage_class_name;
    if (volume.persistent_volume_claim.has_value()) {
      claim_name = volume.persistent_volume_claim->claim_name;
      if (const api::PersistentVolumeClaim* claim =
              snapshot.FindPersistentVolumeClaim(ns, claim_name)) {
        volume_name = claim->spec.volume_name;
        storage_class_name = claim->spec.storage_class_name.value_or("");
      }
    } else if (volume.ephemeral.has_value()) {
      claim_name = pod.metadata.name + "-" + volume.name;
      const auto& claim_template = volume.ephemeral->volume_claim_template;
      if (claim_template.has_value()) {
        storage_class_name = claim_template->spec.storage_class_name.value_or("");
      }
    } else {
      continue;
    }
    const std::string driver = ResolveDriver(snapshot, volume_name, storage_class_name);
    if (!driver.empty()) out[driver].insert(ns + "/" + claim_name);
  }
  return out;
}

std::map<std::string, int64_t> VolumeLimits(const api::CSINode& csi_node) {
  std::map<std::string, int64_t> limits;
  for (const api::CSINodeDriver& driver : csi_node.spec.drivers) {
    if (driver.allocatable.has_value() && driver.allocatable->count.has_value()) {
      limits[driver.name] = *driver.allocatable->count;
    }
  }
  return limits;
}

void AddVolumes(VolumesByDriver& into, const VolumesByDriver& more) {
  for (const auto& [driver, ids] : more) into[driver].insert(ids.begin(), ids.end());
}

std::string ExceededVolumeLimit(const std::map<std::string, int64_t>& limits,
                                const VolumesByDriver& in_use, const VolumesByDriver& more) {
  for (const auto& [driver, ids] : more) {
    auto limit = limits.find(driver);
    if (limit == limits.end()) continue;
    auto used = in_use.find(driver);
    int64_t total = used == in_use.end() ? 0 : static_cast<int64_t>(used->second.size());
    for (const std::string& id : ids) {
      if (used == in_use.end() || !used->second.contains(id)) ++total;
    }
    if (total > limit->second) return driver;
  }
  return "";
}

}  // namespace karpenter::state
