#include "src/provisioning/input_region.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_join.h"
#include "fmt/core.h"
#include "src/api/karpenter_labels.h"
#include "src/cloudprovider/region_catalog.h"

namespace karpenter::provisioning {
namespace {

absl::Status UnknownRegion(std::string_view region, std::string_view field,
                           const std::vector<std::string>& known_regions) {
  return absl::InvalidArgumentError(fmt::format("{}: unknown region \"{}\"; known regions: {}",
                                                field, region, absl::StrJoin(known_regions, ", ")));
}

bool Known(std::string_view region, const std::vector<std::string>& known_regions) {
  return std::find(known_regions.begin(), known_regions.end(), region) != known_regions.end();
}

}  // namespace

std::string RegionOfZone(std::string_view zone, const std::vector<std::string>& known_regions) {
  std::string best;
  for (const std::string& region : known_regions) {
    // The region, then a zone letter or a local zone's "-city-N" part.
    if (zone.size() > region.size() && zone.substr(0, region.size()) == region &&
        (zone[region.size()] == '-' ||
         (zone[region.size()] >= 'a' && zone[region.size()] <= 'z')) &&
        region.size() > best.size()) {
      best = region;
    }
  }
  if (!best.empty()) return best;
  size_t end = zone.size();
  while (end > 0 && zone[end - 1] >= 'a' && zone[end - 1] <= 'z') --end;
  return std::string(zone.substr(0, end));
}

std::vector<RegionEvidence> RegionEvidenceOf(const std::vector<api::Node>& nodes,
                                             const std::vector<api::EC2NodeClass>& node_classes,
                                             const std::vector<std::string>& known_regions) {
  std::vector<RegionEvidence> evidence;
  for (const api::Node& node : nodes) {
    const auto& labels = node.metadata.labels;
    const std::string where = fmt::format("Node/{}: metadata.labels[", node.metadata.name);
    if (auto region = labels.find(std::string(api::kLabelTopologyRegion)); region != labels.end()) {
      evidence.push_back({region->second, fmt::format("{}{}] {}", where, api::kLabelTopologyRegion,
                                                      region->second)});
    }
    if (auto zone = labels.find(std::string(api::kLabelTopologyZone)); zone != labels.end()) {
      evidence.push_back({RegionOfZone(zone->second, known_regions),
                          fmt::format("{}{}] {}", where, api::kLabelTopologyZone, zone->second)});
    }
  }
  for (const api::EC2NodeClass& node_class : node_classes) {
    const std::vector<api::Subnet>& subnets = node_class.status.subnets;
    for (size_t i = 0; i < subnets.size(); ++i) {
      if (subnets[i].zone.empty()) continue;
      evidence.push_back({RegionOfZone(subnets[i].zone, known_regions),
                          fmt::format("EC2NodeClass/{}: status.subnets[{}].zone {}",
                                      node_class.metadata.name, i, subnets[i].zone)});
    }
  }
  return evidence;
}

absl::StatusOr<RegionChoice> ChooseRegion(const std::vector<RegionEvidence>& evidence,
                                          std::string_view flag,
                                          const std::vector<std::string>& known_regions) {
  const RegionEvidence* first = evidence.empty() ? nullptr : &evidence.front();
  for (const RegionEvidence& item : evidence) {
    if (item.region != first->region) {
      return absl::InvalidArgumentError(
          fmt::format("the input names two regions: {} is in {}, but {} is in {}", first->field,
                      first->region, item.field, item.region));
    }
  }
  if (!flag.empty()) {
    if (first != nullptr && first->region != flag) {
      return absl::InvalidArgumentError(fmt::format(
          "--region {} disagrees with the input: {} is in {}", flag, first->field, first->region));
    }
    if (!Known(flag, known_regions)) return UnknownRegion(flag, "--region", known_regions);
    return RegionChoice{.region = std::string(flag), .source = "--region"};
  }
  if (first != nullptr) {
    if (!Known(first->region, known_regions)) {
      return UnknownRegion(first->region, first->field, known_regions);
    }
    return RegionChoice{.region = first->region, .source = first->field};
  }
  return RegionChoice{.region = std::string(cloudprovider::kDefaultRegion),
                      .source =
                          "default: the input names no region (add "
                          "topology.kubernetes.io/region labels or --region)",
                      .assumed = true};
}

}  // namespace karpenter::provisioning
