// Cluster Autoscaler's binpacking estimator (estimator/binpacking_estimator.go, peers.md §1.1
// step 3) and its expanders (§1.2). The estimator is First-Fit-Decreasing over copies of a node
// group's template node; the fit test is the provisioning scheduler's (provisioning::Solve with
// the template copies as existing nodes, which it fills in name order with pods sorted largest
// first), so CA and Karpenter judge "does this pod fit this node" identically.
#pragma once

#include <string>
#include <vector>

#include "src/api/pod.h"
#include "src/provisioning/types.h"
#include "src/sim/random.h"
#include "src/sim/scenario.h"

namespace karpenter::sim {

struct Estimate {
  int nodes = 0;                  // template copies that received pods
  std::vector<std::string> pods;  // "namespace/name" of the pods placed, sorted
  double cpu_requested = 0;       // cores, pods placed (daemonsets excluded)
  double memory_requested = 0;    // bytes
};

// Places `pods` on at most `max_nodes` copies of `node` (daemonset overhead from
// `daemonset_pods` is charged to each copy).
Estimate EstimateNodes(const provisioning::ExistingNodeView& node, int max_nodes,
                       const std::vector<api::Pod>& pods,
                       const std::vector<api::Pod>& daemonset_pods);

// One node group's answer to the pending pods.
struct ExpansionOption {
  std::string group;
  Estimate estimate;
  double node_cpu = 0;     // allocatable cores per node
  double node_memory = 0;  // allocatable bytes per node
  int priority = 0;
};

// The expander's choice among `options` (non-empty), ties broken with `random`:
// least-waste (least idle CPU after the scale-up, then memory), most-pods, random, priority.
size_t ChooseExpansion(Expander expander, const std::vector<ExpansionOption>& options,
                       Random& random);

}  // namespace karpenter::sim
