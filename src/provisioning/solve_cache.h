// What a solve derives from the parts of its input that repeated solves share: the NodePools
// (their templates, instance-type candidates with daemonset overhead, limits) and the existing
// nodes as placement targets. A disruption poll simulates many candidate sets on one cluster;
// each simulation changes only the pending pods, the removed nodes, the moving pods and the
// consolidateAfter flags, so it reuses one cache instead of rebuilding 1,000 nodes and every
// pool's types per simulation.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/api/resource_list.h"
#include "src/api/taint.h"
#include "src/provisioning/compatibility_cache.h"
#include "src/provisioning/existing_node.h"
#include "src/provisioning/node_claim_finalizer.h"
#include "src/provisioning/nodeclaim.h"
#include "src/provisioning/pool_limits.h"
#include "src/provisioning/reservation_manager.h"
#include "src/provisioning/room_index.h"
#include "src/provisioning/topology.h"
#include "src/provisioning/types.h"

namespace karpenter::provisioning {

// One NodePool as every solve on the input starts it.
struct PoolPrototype {
  NodeClaimTemplate node_claim_template;
  std::vector<api::Taint> startup_taints;
  // The pool's limits, when it has any.
  std::optional<api::ResourceList> limits;
  // How the template's candidates charge the limits (set with `limits`).
  std::optional<PoolLimits> limit_charges;
  // Over the template's candidates. A memo of a pure function, so solves share it.
  std::unique_ptr<CompatibilityCache> compatibility;
};

class SolveCache {
 public:
  // Valid for solves of `input` itself while its min-values policy, node pools, daemonset pods,
  // existing nodes (other than `under_consolidate_after`) and bound pods are unchanged; `input`
  // must outlive the cache.
  explicit SolveCache(const SchedulerInput& input);

  bool BuiltFrom(const SchedulerInput& input) const { return &input == input_; }

  // Weight desc, then name desc; pools that launch nothing (deleting, static, invalid, no
  // compatible type) are left out.
  const std::vector<PoolPrototype>& pools() const { return pools_; }
  bool tolerate_prefer_no_schedule() const { return tolerate_prefer_no_schedule_; }
  // Every reservation of the pools with nothing held yet: each solve starts from a copy.
  const ReservationManager& reservations() const { return reservations_; }

  // Every existing node of the input (removed ones included) in the order solves try them:
  // initialized first, then by name.
  const std::vector<ExistingNode>& nodes() const { return nodes_; }
  // The nodes' headroom in that order, for first fit; each solve starts from a copy.
  const RoomIndex& rooms() const { return rooms_; }
  // The indexes in nodes() of the nodes named `name` (an in-flight claim may share a name).
  std::vector<size_t> NodesNamed(std::string_view name) const;
  // What nodes of `pool` charge against its limits, minus what the input's removed nodes charge.
  api::ResourceList UsedBy(const std::string& pool, const SchedulerInput& input) const;
  const BoundPodFacts& bound_pod_facts() const { return bound_pod_facts_; }
  // Finalises every solve's claims. Its memo is keyed by the pools' candidates, which this
  // cache owns, so the simulations of one poll, whose claims mostly end on the same few
  // candidate lists, compute each list's selection once.
  NodeClaimFinalizer& finalizer() const { return *finalizer_; }

 private:
  void BuildPools();
  void BuildNodes();

  const SchedulerInput* input_;
  std::vector<PoolPrototype> pools_;
  bool tolerate_prefer_no_schedule_ = false;
  ReservationManager reservations_;
  std::vector<ExistingNode> nodes_;
  RoomIndex rooms_;
  std::vector<std::pair<std::string_view, size_t>> by_name_;  // Sorted; views of nodes_' names.
  BoundPodFacts bound_pod_facts_;
  std::unique_ptr<NodeClaimFinalizer> finalizer_;
  // Limits: what all nodes of a pool charge, and each pooled node's pool and charge by
  // node name.
  std::map<std::string, api::ResourceList> used_by_pool_;
  std::multimap<std::string, std::pair<std::string, api::ResourceList>> charges_;
};

}  // namespace karpenter::provisioning
