#include "src/migrate/subnet_capacity_check.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <variant>

#include "fmt/format.h"

namespace karpenter::migrate {
namespace {

// Addresses the drained groups' pods and nodes hold, by zone.
std::map<std::string, int64_t> AddressesNeeded(const ClusterSnapshot& snapshot,
                                               const MigrationPlan& plan,
                                               const cloudprovider::Catalog& catalog) {
  std::set<std::string> drained;
  for (const MigratedGroup& group : plan.migrated_groups) drained.insert(group.name);
  std::map<std::string, int64_t> needed;
  for (const ObservedGroup& group : snapshot.groups) {
    if (!drained.contains(group.name)) continue;
    for (const std::string& node : group.nodes) {
      const NodePlace& place = snapshot.node_places.at(node);
      const cloudprovider::InstanceTypeInfo* info = catalog.FindInfo(place.instance_type);
      needed[place.zone] += 1 + (info == nullptr ? 0 : info->ipv4_per_eni);
    }
  }
  for (const api::Manifest* manifest : snapshot.pods) {
    const api::Pod& pod = std::get<api::Pod>(*manifest->object);
    auto place = snapshot.node_places.find(pod.spec.node_name);
    if (pod.spec.host_network || place == snapshot.node_places.end()) continue;
    if (needed.contains(place->second.zone)) {
      const bool on_drained = std::any_of(
          snapshot.groups.begin(), snapshot.groups.end(), [&](const ObservedGroup& group) {
            return drained.contains(group.name) &&
                   std::binary_search(group.nodes.begin(), group.nodes.end(), pod.spec.node_name);
          });
      if (on_drained) ++needed[place->second.zone];
    }
  }
  return needed;
}

int64_t FreeAddresses(const std::vector<Subnet>& subnets, const std::string& zone,
                      const std::string& cluster) {
  int64_t tagged = 0;
  int64_t all = 0;
  bool any_tagged = false;
  for (const Subnet& subnet : subnets) {
    if (subnet.zone != zone) continue;
    all += subnet.available_ips;
    auto tag = subnet.tags.find(kDiscoveryTag);
    if (tag != subnet.tags.end() && tag->second == cluster) {
      any_tagged = true;
      tagged += subnet.available_ips;
    }
  }
  return any_tagged ? tagged : all;
}

}  // namespace

Check SubnetCapacity(const ClusterSnapshot& snapshot, const MigrationInputs& inputs,
                     const MigrationPlan& plan, const cloudprovider::Catalog& catalog) {
  if (!inputs.subnets_given) {
    return {"subnet-capacity", Verdict::kWarn, "not checked: no --subnets given", {}};
  }
  std::vector<std::string> short_zones;
  for (const auto& [zone, needed] : AddressesNeeded(snapshot, plan, catalog)) {
    const int64_t free = FreeAddresses(inputs.subnets, zone, plan.cluster);
    if (free < needed) {
      short_zones.push_back(
          fmt::format("{}: {} free addresses, Phase 4 needs about {}", zone, free, needed));
    }
  }
  std::sort(short_zones.begin(), short_zones.end());
  if (short_zones.empty()) {
    return {"subnet-capacity",
            Verdict::kPass,
            "the subnets of every drained group's zone have the addresses its pods, nodes and "
            "warm ENIs take",
            {}};
  }
  return {"subnet-capacity", Verdict::kWarn,
          "zones whose subnets may run out of addresses while Phase 4 launches replacements "
          "(VPC CNI, WARM_ENI_TARGET=1): drain one group at a time, or add subnets or prefix "
          "delegation",
          short_zones};
}

}  // namespace karpenter::migrate
