// Lower bounds that say how far a scheduler's answer is from the best possible one, so benchmark
// output can report cost quality next to speed.
//
// FluidLowerBound: the $/h a perfect "fluid" packer would pay — one that may buy fractional
// nodes and split pods across them. It solves, with COIN-OR CLP,
//   minimise Σ price_t·x_t  subject to  Σ cap_t[r]·x_t ≥ demand[r] for r ∈ {cpu, memory, pods},
//   x ≥ 0,
// so every real packing costs at least this much (constraints like anti-affinity only add cost).
// AntiAffinityNodeFloor: the fewest nodes any placement can use, from pods that required
// hostname anti-affinity forces apart.
// FluidLowerBoundWithFloor: the same LP with one more row that the fluid packer ignores,
//   Σ_{t can hold a pod of the largest anti-affinity clique} x_t ≥ the clique's size.
// Proof sketch: in any placement the clique's k pods sit on k distinct nodes, each of a type whose
// allocatable holds that pod's requests, so the placement's node counts x meet the row (and the
// capacity rows, as before). The LP with the row is thus still a relaxation of every placement,
// a lower bound; and adding a row never lowers an optimum, so it is ≥ the plain bound. It is
// reported next to the plain bound, never instead of it: it tells how much of a packing's gap the
// forced nodes' fixed overhead (kube-reserved per node) explains.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "src/api/pod.h"
#include "src/bench/fake_catalog.h"

namespace karpenter::bench {

// What the pods need in total; cpu in millicores, memory in bytes, pods as a count.
struct FluidDemand {
  double cpu_milli = 0;
  double memory_bytes = 0;
  double pods = 0;
};

// One purchasable node shape: its cheapest price and what pods may use on it (allocatable).
struct FluidNodeType {
  double price = 0;  // per hour
  double cpu_milli = 0;
  double memory_bytes = 0;
  double pods = 0;
};

// Sum of the pods' scheduling requests (api::PodRequests) and their count.
FluidDemand DemandOf(std::span<const api::Pod> pods);
// The cpu, memory and pods of a resource list (a node's allocatable), in FluidDemand's units.
FluidDemand ResourcesOf(const api::ResourceList& list);

// Allocatable and cheapest available price of each type; types with no available offering are
// left out (they cannot be bought).
std::vector<FluidNodeType> NodeTypesOf(std::span<const FakeInstanceType> types);

// The LP optimum lowered by a relative 1e-9 (absolute below $1), so solver round-off never lifts
// it above the true optimum. Zero demand gives 0. InvalidArgument when a
// type has a negative price or capacity; FailedPrecondition when no mix of types covers the
// demand (the LP is infeasible); Internal when the solver fails otherwise.
absl::StatusOr<double> FluidLowerBound(const FluidDemand& demand,
                                       std::span<const FluidNodeType> types);
// The same LP's bound with its dual prices: what one more unit of each resource would add to the
// optimum. Every node type's price is at least the dual value of its capacity, and the bound is
// the dual value of the demand, so a packing's excess over the bound splits exactly into the
// dual value of its idle capacity plus each node's premium over the value of its capacity
// (gap_breakdown.h).
struct FluidSolution {
  double bound = 0;
  double price_per_cpu_milli = 0;
  double price_per_memory_byte = 0;
  double price_per_pod = 0;
};
absl::StatusOr<FluidSolution> SolveFluid(const FluidDemand& demand,
                                         std::span<const FluidNodeType> types);

// At least `nodes` nodes of the types marked `eligible` (one flag per type, in `types` order).
struct FluidNodeFloor {
  double nodes = 0;
  std::vector<bool> eligible;
};
// The LP with the floor row as well. InvalidArgument when `eligible` is not one flag per type;
// otherwise as FluidLowerBound (FailedPrecondition when no eligible type exists for a positive
// floor).
absl::StatusOr<double> FluidLowerBoundWithFloor(const FluidDemand& demand,
                                                std::span<const FluidNodeType> types,
                                                const FluidNodeFloor& floor);
absl::StatusOr<double> FluidLowerBound(std::span<const api::Pod> pods,
                                       std::span<const FakeInstanceType> types);

// The largest set of pods that must all be on different nodes because each carries the same
// required podAntiAffinity term on kubernetes.io/hostname and each matches that term's selector
// (in the term's namespaces). At least 1 when there are pods, 0 when there are none. Terms whose
// effect depends on objects outside the pods (namespaceSelector) or on per-pod label keys
// (matchLabelKeys, mismatchLabelKeys) are skipped, which keeps the floor a valid lower bound.
int64_t AntiAffinityNodeFloor(std::span<const api::Pod> pods);
// The pods of that largest set (the first, in a fixed order, among equally large ones); empty
// when no pod carries such a term.
std::vector<const api::Pod*> LargestAntiAffinityClique(std::span<const api::Pod> pods);

// FluidLowerBound with the floor row for the largest anti-affinity clique; a type is eligible
// when its allocatable holds at least one of the clique's pods. Without a clique, the plain bound.
absl::StatusOr<double> FluidLowerBoundWithFloor(std::span<const api::Pod> pods,
                                                std::span<const FakeInstanceType> types);

}  // namespace karpenter::bench
