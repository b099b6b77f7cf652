// Wiring between the benchmark workload (fake catalog, pod mixes) and the provisioning
// scheduler: builds upstream's benchmark SchedulerInput — one NodePool with limits lifted, the
// fake catalog, no existing nodes or daemonsets — and summarises a SchedulerResult into the
// figures kp_scheduling_bench reports.
#pragma once

#include <span>
#include <vector>

#include "src/api/nodepool.h"
#include "src/api/pod.h"
#include "src/bench/fake_catalog.h"
#include "src/bench/gap_breakdown.h"
#include "src/bench/scheduling_report.h"
#include "src/provisioning/instance_type_file.h"
#include "src/provisioning/types.h"

namespace karpenter::bench {

inline constexpr char kBenchNodePoolName[] = "default";

// upstream test.NodePool with cpu 10,000,000 and memory 10,000,000Gi limits, no requirements
// or taints, defaulted. Up to upstream's largest run (20,000 pods) the limits are in effect
// none; but each NodeClaim charges them the capacity of its largest candidate type, so past it
// they would bind. `pods` beyond 20,000 scale them in proportion, keeping them out of the way.
api::NodePool BenchNodePool(int64_t pods = 0);

provisioning::InstanceTypeView ToInstanceTypeView(const FakeInstanceType& type);

// The catalog behind `--catalog fake400`: upstream's fake.InstanceTypes(400) with the three label
// keys its fake provider declares well-known.
provisioning::InstanceTypeFile Fake400CatalogFile();

provisioning::SchedulerInput BenchSchedulerInput(
    std::span<const FakeInstanceType> catalog, std::vector<api::Pod> pods,
    provisioning::PreferencePolicy policy,
    provisioning::PackingPolicy packing = provisioning::PackingPolicy::kUpstream);

// What the claim would cost at launch: its first (cheapest) instance type at that type's cheapest
// available offering in one of the claim's zones and capacity types; 0 when it has none.
double NodeClaimPrice(const provisioning::NewNodeClaim& claim);

// A 16-hex-digit FNV-1a hash of every decision in `result`: each new NodeClaim's pool,
// requirements, instance types, zones, capacity types, pods (in placement order), labels and
// requests, in creation order, then the pods placed on existing nodes and the unschedulable pods
// with reasons.
std::string DecisionDigest(const provisioning::SchedulerResult& result);

SolveOutcome Summarise(const provisioning::SchedulerResult& result, double seconds);

// Each new NodeClaim as a node of its first (cheapest) type, priced as NodeClaimPrice, with the
// summed requests of its pods (looked up in `pods` by PodKey), for BreakDownGap.
std::vector<PackedNode> PackedNodesOf(const provisioning::SchedulerResult& result,
                                      std::span<const api::Pod> pods);

}  // namespace karpenter::bench
