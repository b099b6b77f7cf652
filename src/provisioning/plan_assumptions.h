// What a plan assumed where its input was silent: the region and where it came from, the zones
// NodeClaims may launch into and why, where prices come from, and the policies in force.
// `karpenter plan` prints them in both outputs so that a reader can tell a fact of the cluster
// from a default of the tool.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "src/api/json_writer.h"
#include "src/cloudprovider/spot_price_model.h"
#include "src/provisioning/input_region.h"
#include "src/state/snapshot.h"

namespace karpenter::provisioning {

struct PlanAssumptions {
  std::string region;
  std::string region_source;
  bool region_assumed = false;
  std::vector<std::string> zones;  // sorted
  std::string zones_source;
  std::string on_demand_prices;
  std::string spot_prices;
  std::map<std::string, std::string> policies;  // flag name -> value in force
};

// The assumptions of a plan of `snapshot` in `region`, whose zones are `region_zones`, with spot
// prices from `spot` and `policies` as the host ran it.
PlanAssumptions DescribeAssumptions(const state::ClusterSnapshot& snapshot,
                                    const RegionChoice& region,
                                    const std::vector<std::string>& region_zones,
                                    const cloudprovider::SpotPriceModel& spot,
                                    std::map<std::string, std::string> policies);

// `"assumptions":{...}` as the plan JSON carries it.
void WriteAssumptionsJson(api::JsonWriter& json, const PlanAssumptions& assumptions);
// "assumed: ..." lines for the text output.
std::string RenderAssumptionsText(const PlanAssumptions& assumptions);

}  // namespace karpenter::provisioning
