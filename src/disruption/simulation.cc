// Upstream: pkg/controllers/disruption/helpers.go (SimulateScheduling),
// pkg/utils/disruption/disruption.go (IsUnderConsolidateAfter)
#include "src/disruption/simulation.h"

#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/disruption/node_state.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/scheduler.h"
#include "src/state/pdb_limits.h"

namespace karpenter::disruption {

bool IsUnderConsolidateAfter(const api::NodeClaim& node_claim, const api::NodePool& node_pool,
                             api::Time now) {
  const std::optional<api::Disruption>& disruption = node_pool.spec.disruption;
  if (!disruption || !disruption->consolidate_after) return false;
  const std::optional<api::Duration>& after = disruption->consolidate_after->duration;
  if (!after || *after <= api::Duration()) return false;
  const api::Condition* initialized = TrueCondition(node_claim, api::kConditionTypeInitialized);
  if (initialized == nullptr) return false;
  std::optional<api::Time> since = node_claim.status.last_pod_event_time;
  if (!since) since = initialized->last_transition_time;
  if (!since) return false;
  return now - *since < *after;
}

// Solve's claims point at the instance types of the simulation's own (local) input; point them at
// the same types in the cluster's input, which outlives the simulation.
void Simulator::RebindInstanceTypes(const provisioning::SchedulerInput& local,
                                    provisioning::NewNodeClaim& claim) const {
  for (const provisioning::InstanceTypeView*& type : claim.instance_type_options) {
    for (size_t pool = 0; pool < local.node_pools.size(); ++pool) {
      const auto& types = local.node_pools[pool].instance_types;
      if (types.empty() || type < types.data() || type >= types.data() + types.size()) continue;
      type = &input_.input.node_pools[pool].instance_types[type - types.data()];
      break;
    }
  }
}

Simulator::Simulator(const state::ClusterSnapshot& snapshot,
                     const provisioning::SnapshotSchedulerInput& input)
    : snapshot_(snapshot), input_(input) {}

SimulationResult Simulator::Simulate(std::span<const Candidate* const> candidates,
                                     const SimulationOptions& options) const {
  std::set<std::string, std::less<>> removed;
  for (const Candidate* candidate : candidates) removed.insert(candidate->name());
  // Every field of the cluster's input (pools, daemonsets, pending pods and their volumes,
  // options), then the nodes and bound pods without the candidates.
  provisioning::SchedulerInput input = input_.input;
  input.existing_nodes.clear();
  input.bound_pods.clear();
  for (const provisioning::ExistingNodeView& node : input_.input.existing_nodes) {
    if (removed.contains(node.name)) continue;
    input.existing_nodes.push_back(node);
    if (!options.consolidation) continue;
    const api::Node* live = snapshot_.FindNode(node.name);
    const api::NodeClaim* claim = live ? snapshot_.NodeClaimForNode(*live) : nullptr;
    const api::NodePool* pool = claim ? snapshot_.FindNodePool(NodePoolOf(*live, claim)) : nullptr;
    if (pool != nullptr && IsUnderConsolidateAfter(*claim, *pool, options.now)) {
      input.existing_nodes.back().under_consolidate_after = true;
    }
  }
  for (const api::Pod& pod : input_.input.bound_pods) {
    if (!removed.contains(pod.spec.node_name)) input.bound_pods.push_back(pod);
  }
  const state::PdbLimits pdbs(snapshot_.pod_disruption_budgets());
  std::set<std::string> moving;
  for (const Candidate* candidate : candidates) {
    for (const api::Pod* pod : candidate->reschedulable_pods) {
      if (!pdbs.IsCurrentlyReschedulable(*pod, options.now)) continue;
      api::Pod moved = *pod;
      moved.spec.node_name.clear();
      moving.insert(provisioning::PodKey(moved));
      input.pending_pods.push_back(std::move(moved));
    }
  }
  if (options.consolidation) input.moving_pods = moving;

  provisioning::SchedulerResult solved = provisioning::Solve(input);
  SimulationResult result;
  std::set<std::string> failures;
  for (const auto& [pod, reason] : solved.unschedulable) {
    if (moving.contains(pod)) failures.insert(absl::StrCat("pod ", pod, ": ", reason));
  }
  std::set<std::string, std::less<>> uninitialized;
  for (const provisioning::ExistingNodeView& node : input.existing_nodes) {
    if (!node.initialized) uninitialized.insert(node.name);
  }
  for (const auto& [node, pods] : solved.existing_node_pods) {
    for (const std::string& pod : pods) {
      if (!moving.contains(pod)) continue;
      if (uninitialized.contains(node)) {
        failures.insert(
            absl::StrCat("pod ", pod, ": would schedule against uninitialized node ", node));
      }
      result.destinations[pod] = node;
    }
  }
  for (provisioning::NewNodeClaim& claim : solved.new_node_claims) {
    RebindInstanceTypes(input, claim);
    absl::StatusOr<provisioning::LaunchPrediction> launch = provisioning::PredictLaunch(claim);
    if (!launch.ok()) {
      for (const std::string& pod : claim.pods) {
        if (moving.contains(pod)) {
          failures.insert(absl::StrCat("pod ", pod, ": ", launch.status().message()));
        }
      }
      continue;
    }
    const std::string label = absl::StrCat("new nodeclaim ", result.new_node_claims.size() + 1);
    for (const std::string& pod : claim.pods) {
      if (moving.contains(pod)) result.destinations[pod] = label;
    }
    result.new_node_claims.push_back({std::move(claim), *std::move(launch)});
  }
  result.failures.assign(failures.begin(), failures.end());
  return result;
}

}  // namespace karpenter::disruption
