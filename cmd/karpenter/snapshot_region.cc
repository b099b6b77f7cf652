#include "cmd/karpenter/snapshot_region.h"

#include <variant>

#include "src/cloudprovider/region_catalog.h"
#include "src/provisioning/input_region.h"

namespace karpenter::cli {

absl::StatusOr<std::string> SnapshotRegion(const std::vector<api::Manifest>& snapshot,
                                           const std::string& flag) {
  std::vector<api::Node> nodes;
  std::vector<api::EC2NodeClass> node_classes;
  for (const api::Manifest& manifest : snapshot) {
    if (!manifest.object) continue;
    if (const auto* node = std::get_if<api::Node>(&*manifest.object)) nodes.push_back(*node);
    if (const auto* node_class = std::get_if<api::EC2NodeClass>(&*manifest.object)) {
      node_classes.push_back(*node_class);
    }
  }
  const std::vector<std::string> regions = cloudprovider::EmbeddedRegions();
  KP_ASSIGN_OR_RETURN(
      provisioning::RegionChoice region,
      provisioning::ChooseRegion(provisioning::RegionEvidenceOf(nodes, node_classes, regions), flag,
                                 regions));
  return region.region;
}

}  // namespace karpenter::cli
