// What one twin run replays: the cluster at t=0 (node groups, manifests), the workload trace
// (steps at times), capacity faults, the latency model and which autoscalers to compare. Built
// from a scenario file (scenario_file.h) or the built-in migration scenario (builtin_scenario.h).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/api/manifest.h"
#include "src/api/taint.h"
#include "src/cloudprovider/spot_price_model.h"
#include "src/disruption/disruption.h"
#include "src/sim/latency.h"

namespace karpenter::sim {

enum class Autoscaler { kKarpenter, kClusterAutoscaler };

// "karpenter" | "cluster-autoscaler", the keys of the JSON report.
std::string_view AutoscalerName(Autoscaler autoscaler);

// An Auto Scaling group or EKS managed node group: one instance type, fixed zones.
struct NodeGroup {
  std::string name;
  std::string instance_type;
  std::string capacity_type = "on-demand";  // on-demand | spot
  std::vector<std::string> zones;
  int min_size = 0;
  int max_size = 0;
  int initial_size = 0;  // Ready instances at t=0
  // Resized by Cluster Autoscaler (tagged for autodiscovery); false for a static group.
  bool autoscaled = true;
  // The priority expander's weight for this group (higher wins).
  int priority = 0;
  std::map<std::string, std::string> labels;
  std::vector<api::Taint> taints;
};

enum class Expander { kLeastWaste, kMostPods, kRandom, kPriority };

struct ClusterAutoscalerOptions {
  Expander expander = Expander::kLeastWaste;  // default since CA 1.33 (peers.md §1.2)
  double scale_down_utilization_threshold = 0.5;
  int max_empty_bulk_delete = 10;  // --max-scale-down-parallelism for empty nodes
  bool scale_down_enabled = true;
  // --frequent-loops-enabled (default from CA 1.35): a newly unschedulable pod starts the next
  // loop at once instead of at the next scan tick.
  bool frequent_loops = false;
  // --balance-similar-node-groups (default false): a scale-up is spread over the groups similar
  // to the one the expander picked, evening out their sizes (ca_balance.h).
  bool balance_similar_node_groups = false;
};

enum class StepKind {
  kApply,             // create or replace the step's objects (Deployments, NodePools, ...)
  kScale,             // set a Deployment's replicas
  kScaleStatefulSet,  // set a StatefulSet's replicas
  kDelete,            // delete a Deployment and its pods
  kDrainNodeGroup,    // cordon, drain and retire every node of a group (the article's Phase 4)
};

struct Step {
  double at_seconds = 0;
  StepKind kind = StepKind::kApply;
  std::vector<api::Object> objects;  // kApply
  std::string target;                // kScale/kDelete: "namespace/name"; kDrainNodeGroup: group
  int replicas = 0;                  // kScale
  // Only in this autoscaler's run (e.g. the migration's NodePool); both when empty.
  std::optional<Autoscaler> only;
  std::string note;  // what the step stands for, echoed in the event log
};

enum class FaultKind {
  // RunInstances/CreateFleet fail with InsufficientInstanceCapacity.
  kInsufficientCapacity,
  // The instance launches (and bills) but never registers as a Node (peers.md §3.4 T4).
  kNeverRegisters,
  // Running spot instances of the offering are reclaimed at `rate_per_hour` (by when they are
  // running, not when they launched): a 2-minute warning, then termination.
  kSpotInterruptions,
};

// A fault of these offerings between `from` and `to` (launch time).
struct CapacityFault {
  std::string instance_type;
  std::string capacity_type;       // on-demand | spot
  std::vector<std::string> zones;  // every zone when empty
  double from_seconds = 0;
  double to_seconds = 0;
  FaultKind kind = FaultKind::kInsufficientCapacity;
  double rate_per_hour = 0;  // kSpotInterruptions: interruptions per instance-hour
};

// Jobs arriving at random (a Poisson process of `rate_per_hour`) between `from` and `to`: each
// arrival applies a copy of `job` named `<name>-<n>` (n = 1, 2, ...). Times come from a random
// stream of their own derived from the seed (job_arrivals.h), the same in every autoscaler's run.
struct JobArrivals {
  double from_seconds = 0;
  double to_seconds = 0;
  double rate_per_hour = 0;
  api::Job job;
  std::optional<Autoscaler> only;  // both runs when empty
};

// Settings of the Karpenter run that are not upstream's: `karpenter:` in a scenario file.
struct KarpenterOptions {
  // kExtended adds the opt-in consolidation search (src/disruption/extended_consolidation.h).
  disruption::ConsolidationSearch consolidation_search = disruption::ConsolidationSearch::kUpstream;
};

struct Scenario {
  std::string name;
  std::string description;
  double duration_seconds = 3600;
  // The AWS region whose embedded catalog (types, zone offerings, on-demand price level) both
  // runs use; empty means cloudprovider::kDefaultRegion (us-east-1).
  std::string region;
  // The VPC's subnet zones: where node groups may be placed and what EC2NodeClasses discover.
  std::vector<std::string> zones;
  std::vector<Autoscaler> autoscalers = {Autoscaler::kKarpenter, Autoscaler::kClusterAutoscaler};
  LatencyModel latency;
  ClusterAutoscalerOptions cluster_autoscaler;
  KarpenterOptions karpenter;
  std::vector<NodeGroup> node_groups;
  // Present at t=0 in every run; their pods are placed before the clock starts and are not
  // measured.
  std::vector<api::Object> initial_objects;
  std::vector<Step> steps;  // sorted by time (stable)
  std::vector<CapacityFault> faults;
  std::vector<JobArrivals> arrivals;
  // Spot prices of the EC2 model (and so of both autoscalers' bills and Karpenter's choices):
  // the documented discount model unless the scenario overrides parts of it.
  cloudprovider::SpotPriceModel spot_prices = cloudprovider::DefaultSpotPriceModel();
};

}  // namespace karpenter::sim
