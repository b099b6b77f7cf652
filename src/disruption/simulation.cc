// Upstream: pkg/controllers/disruption/helpers.go (SimulateScheduling),
// pkg/utils/disruption/disruption.go (IsUnderConsolidateAfter)
#include "src/disruption/simulation.h"

#include <set>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "src/disruption/node_state.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/scheduler.h"

namespace karpenter::disruption {
namespace {

// Each existing node's own under_consolidate_after, as the input was built.
std::vector<bool> UnderConsolidateAfterFlags(const provisioning::SchedulerInput& input) {
  std::vector<bool> flags;
  flags.reserve(input.existing_nodes.size());
  for (const provisioning::ExistingNodeView& node : input.existing_nodes) {
    flags.push_back(node.under_consolidate_after);
  }
  return flags;
}

}  // namespace

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
  for (const provisioning::InstanceTypeView*& type : claim.instance_type_options.Mutable()) {
    for (size_t pool = 0; pool < local.node_pools.size(); ++pool) {
      const std::vector<provisioning::InstanceTypeView>& types =
          local.node_pools[pool].instance_types.vector();
      if (types.empty() || type < types.data() || type >= types.data() + types.size()) continue;
      type = &input_.input.node_pools[pool].instance_types[type - types.data()];
      break;
    }
  }
}

Simulator::Simulator(const state::ClusterSnapshot& snapshot,
                     provisioning::SnapshotSchedulerInput& input)
    : snapshot_(snapshot),
      input_(input),
      pdbs_(snapshot.pod_disruption_budgets()),
      pending_pods_(input.input.pending_pods.size()),
      removed_nodes_(input.input.removed_nodes),
      moving_pods_(input.input.moving_pods),
      under_consolidate_after_(UnderConsolidateAfterFlags(input.input)),
      reserved_offering_mode_(input.input.options.reserved_offering_mode) {}

void Simulator::Restore() const {
  provisioning::SchedulerInput& input = input_.input;
  input.removed_nodes = removed_nodes_;
  input.pending_pods.resize(pending_pods_);
  input.moving_pods = moving_pods_;
  for (size_t i = 0; i < input.existing_nodes.size(); ++i) {
    input.existing_nodes[i].under_consolidate_after = under_consolidate_after_[i];
  }
  input.options.reserved_offering_mode = reserved_offering_mode_;
}

const std::vector<bool>& Simulator::UnderConsolidateAfter(api::Time now) const {
  if (flags_now_ == now) return flags_;
  const std::vector<provisioning::ExistingNodeView>& nodes = input_.input.existing_nodes;
  flags_.assign(nodes.size(), false);
  for (size_t i = 0; i < nodes.size(); ++i) {
    const api::Node* live = snapshot_.FindNode(nodes[i].name);
    const api::NodeClaim* claim = live ? snapshot_.NodeClaimForNode(*live) : nullptr;
    const api::NodePool* pool = claim ? snapshot_.FindNodePool(NodePoolOf(*live, claim)) : nullptr;
    flags_[i] = pool != nullptr && IsUnderConsolidateAfter(*claim, *pool, now);
  }
  flags_now_ = now;
  return flags_;
}

Simulator::MovedPods& Simulator::MovedPodsOf(const Candidate& candidate, api::Time now) const {
  auto [it, inserted] = moved_pods_.try_emplace(&candidate);
  MovedPods& moved = it->second;
  if (!inserted && moved.now == now) return moved;
  moved = {.now = now};
  moved.pods.reserve(candidate.reschedulable_pods.size());
  moved.keys.reserve(candidate.reschedulable_pods.size());
  for (const api::Pod* pod : candidate.reschedulable_pods) {
    if (!pdbs_.IsCurrentlyReschedulable(*pod, now)) continue;
    api::Pod& copy = moved.pods.emplace_back(*pod);
    copy.spec.node_name.clear();
    moved.keys.push_back(provisioning::PodKey(copy));
  }
  return moved;
}

SimulationResult Simulator::Simulate(std::span<const Candidate* const> candidates,
                                     const SimulationOptions& options) const {
  return SimulateWith(candidates, {}, options);
}

SimulationResult Simulator::SimulateWith(
    std::span<const Candidate* const> candidates,
    std::span<const provisioning::ExistingNodeView> extra_nodes,
    const SimulationOptions& options) const {
  // This simulation takes the candidates' nodes and bound pods away, adds their pods as pending,
  // solves, and restores the input.
  provisioning::SchedulerInput& input = input_.input;
  // A simulation places every moved pod in one solve or gives up the command, so it may not wait
  // for reserved capacity (upstream runs disruption simulations in fallback mode).
  input.options.reserved_offering_mode = provisioning::ReservedOfferingMode::kFallback;
  for (const Candidate* candidate : candidates) input.removed_nodes.insert(candidate->name());
  if (options.consolidation) {
    const std::vector<bool>& flags = UnderConsolidateAfter(options.now);
    for (size_t i = 0; i < input.existing_nodes.size(); ++i) {
      input.existing_nodes[i].under_consolidate_after = under_consolidate_after_[i] || flags[i];
    }
  }
  // The candidates' pods join the pending ones (moved in from the cache, moved back below).
  const size_t first_moved = input.pending_pods.size();
  std::vector<MovedPods*> batches;
  absl::flat_hash_set<std::string_view> moving;
  if (options.consolidation) input.moving_pods.clear();
  for (const Candidate* candidate : candidates) {
    MovedPods& batch = MovedPodsOf(*candidate, options.now);
    batches.push_back(&batch);
    for (api::Pod& pod : batch.pods) input.pending_pods.push_back(std::move(pod));
    for (const std::string& key : batch.keys) {
      moving.insert(key);
      if (options.consolidation) input.moving_pods.insert(key);
    }
  }

  provisioning::SchedulerResult solved;
  std::optional<provisioning::SchedulerInput> with_extra;
  if (extra_nodes.empty()) {
    if (solve_cache_ == nullptr) solve_cache_ = std::make_unique<provisioning::SolveCache>(input);
    solved = provisioning::Solve(input, *solve_cache_);
  } else {
    with_extra.emplace(input);
    with_extra->existing_nodes.insert(with_extra->existing_nodes.end(), extra_nodes.begin(),
                                      extra_nodes.end());
    solved = provisioning::Solve(*with_extra);
  }
  const provisioning::SchedulerInput& solved_input = with_extra ? *with_extra : input;
  SimulationResult result;
  std::set<std::string> failures;
  for (const auto& [pod, reason] : solved.unschedulable) {
    if (moving.contains(pod)) failures.insert(absl::StrCat("pod ", pod, ": ", reason));
  }
  std::set<std::string, std::less<>> uninitialized;
  for (const provisioning::ExistingNodeView& node : input.existing_nodes) {
    if (!node.initialized && !input.removed_nodes.contains(node.name)) {
      uninitialized.insert(node.name);
    }
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
    RebindInstanceTypes(solved_input, claim);
    absl::StatusOr<provisioning::LaunchPrediction> launch = provisioning::LaunchPrediction{};
    if (options.predict_launches) {
      launch = provisioning::PredictLaunch(claim);
    } else if (absl::Status launchable = provisioning::CheckLaunchable(claim); !launchable.ok()) {
      launch = std::move(launchable);
    }
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

  size_t moved_back = first_moved;
  for (MovedPods* batch : batches) {
    for (api::Pod& pod : batch->pods) pod = std::move(input.pending_pods[moved_back++]);
  }
  Restore();
  return result;
}

}  // namespace karpenter::disruption
