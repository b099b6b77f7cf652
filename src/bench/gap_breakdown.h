// Where a packing's cost above the fluid LP bound goes. With the LP's dual prices y (lower_bound.h
// SolveFluid), every node's price splits into y·(what its pods use) + y·(what stays idle) + its
// premium (price − y·capacity, ≥ 0, zero for the types the LP buys). The used parts sum to
// y·demand, which is the bound, so
//   cost − bound = Σ y_cpu·idle cpu + Σ y_memory·idle memory + Σ y_pods·idle pod slots + Σ premium
// exactly. `karpenter bench disruption --until-stable --breakdown` prints it for the steady state,
// to tell CPU stranding from memory stranding from buying the wrong types.
#pragma once

#include <string>
#include <vector>

#include "src/bench/lower_bound.h"

namespace karpenter::bench {

// One node of a packing: its type, price and allocatable, and the requests of the pods on it.
struct PackedNode {
  std::string type;
  double price = 0;
  FluidDemand capacity;
  FluidDemand used;
};

// The nodes of one type: how many, what they cost, and the share of their capacity pods use.
struct TypeUsage {
  std::string type;
  int nodes = 0;
  double price = 0;
  double cpu_used = 0;  // fraction of the type's summed allocatable
  double memory_used = 0;
  double pods_used = 0;
};

struct GapBreakdown {
  double cost = 0;
  double bound = 0;
  // The dual value of idle capacity, per resource, and the summed type premium; with the bound
  // they add up to `cost` (up to the LP's round-off).
  double idle_cpu = 0;
  double idle_memory = 0;
  double idle_pods = 0;
  double premium = 0;
  std::vector<TypeUsage> types;  // by type name
};

// The breakdown of `nodes` against the LP over `types` for the nodes' summed pod requests.
absl::StatusOr<GapBreakdown> BreakDownGap(const std::vector<PackedNode>& nodes,
                                          std::span<const FluidNodeType> types);

// The breakdown for people: one line with the sum, then one line per type, indented two spaces,
// without a trailing newline.
std::string GapBreakdownText(const GapBreakdown& gap);

}  // namespace karpenter::bench
