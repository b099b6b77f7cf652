#include "src/migrate/subnet_capacity_check.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <variant>

#include "fmt/format.h"
#include "src/migrate/vpc_cni.h"

namespace karpenter::migrate {
namespace {

// Pods not on the host network, by node.
std::map<std::string, int64_t> PodsByNode(const ClusterSnapshot& snapshot) {
  std::map<std::string, int64_t> pods;
  for (const api::Manifest* manifest : snapshot.pods) {
    const api::Pod& pod = std::get<api::Pod>(*manifest->object);
    if (!pod.spec.host_network && !pod.spec.node_name.empty()) ++pods[pod.spec.node_name];
  }
  return pods;
}

// Addresses the drained groups' nodes hold, by zone.
std::map<std::string, int64_t> AddressesNeeded(const ClusterSnapshot& snapshot,
                                               const MigrationInputs& inputs,
                                               const MigrationPlan& plan,
                                               const cloudprovider::Catalog& catalog) {
  std::set<std::string> drained;
  for (const MigratedGroup& group : plan.migrated_groups) drained.insert(group.name);
  const std::map<std::string, int64_t> pods = PodsByNode(snapshot);
  std::map<std::string, int64_t> needed;
  for (const ObservedGroup& group : snapshot.groups) {
    if (!drained.contains(group.name)) continue;
    for (const std::string& node : group.nodes) {
      const NodePlace& place = snapshot.node_places.at(node);
      const cloudprovider::InstanceTypeInfo* info = catalog.FindInfo(place.instance_type);
      auto count = pods.find(node);
      const int64_t on_node = count == pods.end() ? 0 : count->second;
      needed[place.zone] +=
          info == nullptr ? 1 + on_node : NodeAddresses(on_node, *info, inputs.cni);
    }
  }
  return needed;
}

std::string CniSummary(const VpcCniSettings& cni) {
  std::string text = cni.found ? "aws-node: " : "VPC CNI defaults (no aws-node DaemonSet): ";
  if (cni.prefix_delegation) {
    text += "prefix delegation";
  } else if (cni.warm_ip_target || cni.minimum_ip_target) {
    text += fmt::format("WARM_IP_TARGET={} MINIMUM_IP_TARGET={}", cni.warm_ip_target.value_or(0),
                        cni.minimum_ip_target.value_or(0));
  } else {
    text += fmt::format("WARM_ENI_TARGET={}", cni.warm_eni_target);
  }
  return text;
}

// What to change when a zone is short, for the settings in use.
std::string CniAdvice(const VpcCniSettings& cni) {
  if (cni.prefix_delegation) {
    return "prefix delegation takes /28 blocks: add subnets (or a secondary CIDR) to the zone, "
           "or drain one group at a time";
  }
  if (!cni.warm_ip_target && !cni.minimum_ip_target) {
    return fmt::format(
        "WARM_ENI_TARGET={} holds a whole spare ENI of addresses per node: set "
        "WARM_IP_TARGET (e.g. 2) and MINIMUM_IP_TARGET (the pods per node) on "
        "aws-node, or add subnets; drain one group at a time",
        cni.warm_eni_target);
  }
  return "add subnets (or a secondary CIDR) to the zone, or drain one group at a time";
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
  for (const auto& [zone, needed] : AddressesNeeded(snapshot, inputs, plan, catalog)) {
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
            fmt::format("the subnets of every drained group's zone have the addresses its nodes "
                        "and pods take ({})",
                        CniSummary(inputs.cni)),
            {}};
  }
  return {"subnet-capacity", Verdict::kWarn,
          fmt::format("zones whose subnets may run out of addresses while Phase 4 launches "
                      "replacements ({}): {}",
                      CniSummary(inputs.cni), CniAdvice(inputs.cni)),
          short_zones};
}

Check TypeOfferings(const ClusterSnapshot& snapshot, const MigrationInputs& inputs,
                    const MigrationPlan& plan, const cloudprovider::Catalog& catalog) {
  std::set<std::string> subnet_zones;
  for (const Subnet& subnet : inputs.subnets) subnet_zones.insert(subnet.zone);
  std::vector<std::string> missing;
  for (const ObservedGroup& group : snapshot.groups) {
    auto migrated =
        std::find_if(plan.migrated_groups.begin(), plan.migrated_groups.end(),
                     [&](const MigratedGroup& kept) { return kept.name == group.name; });
    if (migrated == plan.migrated_groups.end()) continue;
    const std::set<std::string>& zones = subnet_zones.empty() ? group.zones : subnet_zones;
    for (const std::string& zone : zones) {
      if (!zone.starts_with(catalog.region())) {
        return {"type-offerings",
                Verdict::kWarn,
                fmt::format("not checked: zone {} is not in the catalog's region {}", zone,
                            catalog.region()),
                {}};
      }
      for (const std::string& type : group.instance_types) {
        const cloudprovider::InstanceTypeInfo* info = catalog.FindInfo(type);
        if (info != nullptr && std::binary_search(info->zones.begin(), info->zones.end(), zone)) {
          continue;
        }
        missing.push_back(fmt::format("NodePool/{}: {} in {}", migrated->node_pool, type, zone));
      }
    }
  }
  std::sort(missing.begin(), missing.end());
  if (missing.empty()) {
    return {"type-offerings",
            Verdict::kPass,
            "every instance type of the migrated groups is offered in their zones",
            {}};
  }
  return {"type-offerings", Verdict::kWarn,
          "instance types the region does not offer in a zone of the NodePool: Karpenter launches "
          "them only in the other zones",
          missing};
}

}  // namespace karpenter::migrate
