// `karpenter plan --drain`: the drain what-if of state/drain.h priced with the embedded catalog,
// next to what the plan launches to absorb the evicted pods, and written out for people and as
// the plan JSON's `drain` object.
#pragma once

#include <string>
#include <vector>

#include "src/api/json_writer.h"
#include "src/cloudprovider/catalog.h"
#include "src/state/drain.h"
#include "src/state/snapshot.h"

namespace karpenter::provisioning {

// What a drained node costs while it runs, from its labels and the catalog.
struct DrainedNodePrice {
  std::string instance_type;
  std::string zone;
  std::string capacity_type;  // on-demand | spot
  double price = 0;           // USD per hour; 0 when the catalog does not know the offering
  bool priced = false;
};

struct DrainReport {
  state::DrainResult drain;
  std::vector<DrainedNodePrice> prices;  // parallel to drain.nodes
  // Nodes whose drain completes, assumed removed afterwards (a node group scaled down, or
  // Karpenter's emptiness), and what they cost together.
  double removed_price_per_hour = 0;
  // Every NodeClaim the plan launches, the evicted pods' homes included.
  double added_price_per_hour = 0;
};

// Prices `drain` (computed on `snapshot`, before the drain) against the new NodeClaims of the
// plan made after it, which cost `added_price_per_hour` together.
DrainReport PriceDrain(state::DrainResult drain, const state::ClusterSnapshot& snapshot,
                       const cloudprovider::Catalog& catalog, double added_price_per_hour);

// Sums of model prices rounded to six decimals, as every price in the plan output is.
double RoundPrice(double price);

// `"drain":{...}` for the plan JSON.
void WriteDrainJson(api::JsonWriter& json, const DrainReport& report);
// The "drain:" section of the text output.
std::string RenderDrainText(const DrainReport& report);

}  // namespace karpenter::provisioning
