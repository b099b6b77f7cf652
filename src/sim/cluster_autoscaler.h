// The Cluster Autoscaler model (peers.md §1, §3.3): a loop every `caScanInterval` that takes
// the pods kube-scheduler marked unschedulable, drops those that fit on upcoming nodes, asks
// every eligible node group's FFD estimate, lets the expander pick ONE group and raises its
// desired capacity after `caLoopCompute`. The AWS provider's ASG cache refreshes every
// `asgRefreshInterval`: a failed scaling activity (InsufficientInstanceCapacity) then removes
// the group's placeholders and backs the group off (5 min doubling to 30 min); slots not
// registered within `maxNodeProvisionTime` are given up the same way. Scale-down removes nodes
// whose requests are below the utilisation threshold and whose pods fit elsewhere, after
// `scaleDownUnneededTime` and `scaleDownDelayAfterAdd`: empty nodes in bulk, others drained one
// at a time; nodes with kube-system pods are skipped (--skip-nodes-with-system-pods).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "src/provisioning/snapshot_input.h"
#include "src/provisioning/solve_cache.h"
#include "src/provisioning/types.h"
#include "src/sim/auto_scaling_groups.h"
#include "src/sim/ca_estimator.h"
#include "src/sim/cluster.h"

namespace karpenter::sim {

// Cluster Autoscaler's Evictor (core/scaledown/actuation): a refused eviction is retried every
// EvictionRetryTime, for at most MaxPodEvictionTime.
inline constexpr SimMillis kEvictionRetryMillis = 10 * 1000;
inline constexpr SimMillis kMaxPodEvictionMillis = 2 * 60 * 1000;

class ClusterAutoscaler {
 public:
  ClusterAutoscaler(Cluster& cluster, AutoScalingGroups& groups, ClusterAutoscalerOptions options)
      : cluster_(cluster), groups_(groups), options_(options) {}

  // Schedules the first loop and ASG refresh.
  void Start();
  // Scaled to 0 replicas: no more loops.
  void Stop() { stopped_ = true; }

  // The template node CA simulates for a group: the catalog type's allocatable and labels, the
  // group's labels and taints, its first zone.
  provisioning::ExistingNodeView TemplateNode(const GroupState& group) const;

 private:
  void Loop(uint64_t generation);
  // Builds input_ from the schedulable snapshot unless it is already of this generation.
  absl::Status BuildInput();
  // Runs the next loop `at` (never before the current decision is made), replacing the one
  // scheduled.
  void ScheduleLoop(SimMillis at);
  void OnPodsUnschedulable();
  // True when it decided a scale-up.
  bool ScaleUp(const std::vector<api::Pod>& pending, const std::vector<api::Pod>& daemons);
  // The pending pods that would not fit the nodes already requested but not yet Ready.
  std::vector<api::Pod> NotFittingUpcomingNodes(const std::vector<api::Pod>& pending,
                                                const std::vector<api::Pod>& daemons) const;
  // --balance-similar-node-groups: the chosen estimate's nodes spread over the similar groups
  // among `options`, by group.
  std::map<std::string, int> Balance(const ExpansionOption& chosen,
                                     const std::vector<ExpansionOption>& options);
  // One option per group that may grow (autoscaled, below max, not backed off) and fits a pod.
  std::vector<ExpansionOption> ExpansionOptions(const std::vector<api::Pod>& pods,
                                                const std::vector<api::Pod>& daemons) const;
  void ScaleDown(const provisioning::SchedulerInput& schedulable);
  // The autoscaled nodes below the utilisation threshold, without kube-system pods, whose pods
  // fit elsewhere: a function of the cluster's objects, so computed once per generation.
  const std::set<std::string>& UnneededNodes(const provisioning::SchedulerInput& schedulable);
  // The scale-down simulation: whether the node's workload pods fit on the other nodes.
  // `others` holds the schedulable nodes and daemonsets; it is solved with the node removed
  // (its pending pods and removed nodes are this call's scratch), and every call of one loop
  // shares `cache`, built on first use.
  bool PodsFitElsewhere(provisioning::SchedulerInput& others,
                        std::unique_ptr<provisioning::SolveCache>& cache,
                        const std::string& node_name) const;
  void Refresh();
  void BackOff(GroupState& group, const std::string& reason);

  Cluster& cluster_;
  AutoScalingGroups& groups_;
  ClusterAutoscalerOptions options_;
  bool stopped_ = false;
  SimMillis last_scale_up_ = -1;
  uint64_t loop_generation_ = 0;
  SimMillis busy_until_ = 0;                  // the running loop's decision is made then
  std::set<std::string> seen_unschedulable_;  // frequent loops: pods that already started one
  SimMillis last_refresh_ = 0;
  std::map<std::string, SimMillis> backoff_until_;
  std::map<std::string, SimMillis> backoff_duration_;
  std::map<std::string, SimMillis> unneeded_since_;  // node -> since
  // The loop's scheduler input for `input_generation_`. It points into the cluster's shared
  // snapshot of that generation, which the cluster keeps until the generation moves (and a
  // snapshot held here would stop the cluster from carrying its pods over to the next one).
  std::unique_ptr<provisioning::SnapshotSchedulerInput> input_;
  uint64_t input_generation_ = 0;
  provisioning::BoundPodCharges bound_pod_charges_;  // across the loop's inputs
  std::optional<uint64_t> unneeded_generation_;      // what unneeded_nodes_ was computed for
  std::set<std::string> unneeded_nodes_;
  bool draining_ = false;  // a non-empty node is being drained (max-drain-parallelism 1)
  std::map<std::string, int> draining_in_;  // group -> nodes being drained
};

}  // namespace karpenter::sim
