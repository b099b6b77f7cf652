#include "src/provisioning/plan_assumptions.h"

#include <set>
#include <utility>

#include "absl/strings/str_join.h"
#include "fmt/core.h"
#include "src/cloudprovider/region_catalog.h"
#include "src/provisioning/node_class_catalog.h"

namespace karpenter::provisioning {
namespace {

constexpr std::string_view kAllZones = "all zones of the region: add status.subnets";

// The zones every EC2NodeClass allows and where they came from: a class without subnet zones
// allows every zone of the region.
std::pair<std::vector<std::string>, std::string> ZonesOf(
    const state::ClusterSnapshot& snapshot, const std::vector<std::string>& region_zones) {
  std::set<std::string> zones;
  std::vector<std::string> without_subnets;
  for (const api::EC2NodeClass& node_class : snapshot.ec2_node_classes()) {
    std::vector<std::string> subnet_zones = SubnetZones(node_class);
    if (subnet_zones.empty()) without_subnets.push_back("EC2NodeClass/" + node_class.metadata.name);
    zones.insert(subnet_zones.begin(), subnet_zones.end());
  }
  if (zones.empty()) return {region_zones, std::string(kAllZones)};
  if (without_subnets.empty()) {
    return {std::vector<std::string>(zones.begin(), zones.end()), "EC2NodeClass status.subnets"};
  }
  zones.insert(region_zones.begin(), region_zones.end());
  return {std::vector<std::string>(zones.begin(), zones.end()),
          fmt::format("EC2NodeClass status.subnets; {} to {}", kAllZones,
                      absl::StrJoin(without_subnets, ", "))};
}

}  // namespace

PlanAssumptions DescribeAssumptions(const state::ClusterSnapshot& snapshot,
                                    const RegionChoice& region,
                                    const std::vector<std::string>& region_zones,
                                    const cloudprovider::SpotPriceModel& spot,
                                    std::map<std::string, std::string> policies) {
  PlanAssumptions out;
  out.region = region.region;
  out.region_source = region.source;
  out.region_assumed = region.assumed;
  std::tie(out.zones, out.zones_source) = ZonesOf(snapshot, region_zones);
  out.on_demand_prices = fmt::format(
      "embedded table of {} (us-east-1 list prices{})", cloudprovider::kOnDemandPricesDate,
      region.region == cloudprovider::kDefaultRegion ? "" : ", scaled to the region's level");
  out.spot_prices = "estimated by the model (docs/catalog.md)";
  if (!spot.prices.empty()) {
    out.spot_prices += fmt::format("; {} pinned by --spot-price", spot.prices.size());
  }
  out.policies = std::move(policies);
  return out;
}

void WriteAssumptionsJson(api::JsonWriter& json, const PlanAssumptions& assumptions) {
  json.Key("assumptions");
  json.BeginObject();
  json.Key("region");
  json.String(assumptions.region);
  json.Key("regionSource");
  json.String(assumptions.region_source);
  json.Key("regionAssumed");
  json.Bool(assumptions.region_assumed);
  json.Key("zones");
  json.BeginArray();
  for (const std::string& zone : assumptions.zones) json.String(zone);
  json.EndArray();
  json.Key("zonesSource");
  json.String(assumptions.zones_source);
  json.Key("onDemandPrices");
  json.String(assumptions.on_demand_prices);
  json.Key("spotPrices");
  json.String(assumptions.spot_prices);
  json.Key("policies");
  json.BeginObject();
  for (const auto& [name, value] : assumptions.policies) {
    json.Key(name);
    json.String(value);
  }
  json.EndObject();
  json.EndObject();
}

std::string RenderAssumptionsText(const PlanAssumptions& assumptions) {
  std::vector<std::string> policies;
  for (const auto& [name, value] : assumptions.policies) policies.push_back(name + "=" + value);
  return fmt::format(
      "assumed region: {} ({})\nassumed zones: {} ({})\nprices: on-demand from the {}; spot {}\n"
      "policies: {}\n",
      assumptions.region, assumptions.region_source, absl::StrJoin(assumptions.zones, ","),
      assumptions.zones_source, assumptions.on_demand_prices, assumptions.spot_prices,
      absl::StrJoin(policies, " "));
}

}  // namespace karpenter::provisioning
