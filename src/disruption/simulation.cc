// Upstream: pkg/controllers/disruption/helpers.go (SimulateScheduling),
// pkg/utils/disruption/disruption.go (IsUnderConsolidateAfter)
#include "src/disruption/simulation.h"

#include <algorithm>
#include <limits>
#include <set>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/api/taint_match.h"
#include "src/disruption/node_state.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/resources.h"
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

bool SelectorTermNames(const api::NodeSelectorTerm& term, std::string_view key) {
  for (const api::NodeSelectorRequirement& requirement : term.match_expressions) {
    if (requirement.key == key) return true;
  }
  return false;
}

bool AffinityUsesTopologyKey(const std::optional<api::PodAffinity>& affinity,
                             std::string_view key) {
  if (!affinity) return false;
  for (const api::PodAffinityTerm& term :
       affinity->required_during_scheduling_ignored_during_execution) {
    if (term.topology_key == key) return true;
  }
  for (const api::WeightedPodAffinityTerm& weighted :
       affinity->preferred_during_scheduling_ignored_during_execution) {
    if (weighted.pod_affinity_term.topology_key == key) return true;
  }
  return false;
}

// Whether the pod may narrow a node's `key` label through its node selector, its node affinity
// (required or preferred), or as the topology key of a spread constraint or pod (anti-)affinity.
// `key` is a std::string: the node selector's map looks up only those, and a simulation asks
// this of every pod it moves.
bool PodNamesNodeLabel(const api::Pod& pod, const std::string& key) {
  if (pod.spec.node_selector.contains(key)) return true;
  for (const api::TopologySpreadConstraint& constraint : pod.spec.topology_spread_constraints) {
    if (constraint.topology_key == key) return true;
  }
  const auto& affinity = pod.spec.affinity;
  if (!affinity) return false;
  if (AffinityUsesTopologyKey(affinity->pod_affinity, key) ||
      AffinityUsesTopologyKey(affinity->pod_anti_affinity, key)) {
    return true;
  }
  if (!affinity->node_affinity) return false;
  const api::NodeAffinity& node_affinity = *affinity->node_affinity;
  if (const auto& required = node_affinity.required_during_scheduling_ignored_during_execution) {
    for (const api::NodeSelectorTerm& term : required->node_selector_terms) {
      if (SelectorTermNames(term, key)) return true;
    }
  }
  for (const api::PreferredSchedulingTerm& preferred :
       node_affinity.preferred_during_scheduling_ignored_during_execution) {
    if (SelectorTermNames(preferred.preference, key)) return true;
  }
  return false;
}

const std::string& CapacityTypeKey() {
  static const std::string* const kKey = new std::string(api::kCapacityTypeLabelKey);
  return *kKey;
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
  input.stop_on_moving_pod_off_initialized = false;
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

const provisioning::SolveCache& Simulator::SolveCacheOf() const {
  if (solve_cache_ == nullptr) {
    solve_cache_ = std::make_unique<provisioning::SolveCache>(input_.input);
  }
  return *solve_cache_;
}

const Simulator::RoomFacts& Simulator::RoomFactsOf(const Candidate& candidate, size_t pod,
                                                   api::Time now) const {
  if (room_facts_now_ != now) {
    room_facts_.clear();
    room_facts_now_ = now;
  }
  const api::Pod& moved = *candidate.reschedulable_pods[pod];
  auto [it, inserted] = room_facts_.try_emplace(&moved);
  RoomFacts& facts = it->second;
  if (!inserted) return facts;
  facts.moves = pdbs_.IsCurrentlyReschedulable(moved, now);
  if (!facts.moves) return facts;
  const bool charged =
      candidate.reschedulable_charges.size() == candidate.reschedulable_pods.size();
  const state::PodCharge* charge = charged ? candidate.reschedulable_charges[pod] : nullptr;
  // RequestsForPod is the charge's requests and one pod slot, whose footprint the charge gives
  // without building the list, unless a container asks for pod slots itself.
  if (charge != nullptr && !charge->requests.contains(provisioning::kResourcePods)) {
    constexpr int64_t kOnePodSlotMilli = 1000;  // footprints count in milli-units
    facts.need = provisioning::FootprintOf(charge->requests);
    facts.need.pods = kOnePodSlotMilli;
  } else {
    facts.need = provisioning::FootprintOf(provisioning::RequestsForPod(moved));
  }
  return facts;
}

std::optional<std::string> Simulator::PodWithoutInitializedRoom(
    std::span<const Candidate* const> candidates, api::Time now) const {
  const provisioning::SolveCache& cache = SolveCacheOf();
  const std::vector<provisioning::ExistingNode>& nodes = cache.nodes();
  const auto removed = [&](const provisioning::ExistingNode& node) {
    if (input_.input.removed_nodes.contains(node.name())) return true;
    return std::any_of(candidates.begin(), candidates.end(),
                       [&](const Candidate* c) { return c->name() == node.name(); });
  };
  for (const Candidate* candidate : candidates) {
    for (size_t i = 0; i < candidate->reschedulable_pods.size(); ++i) {
      const RoomFacts& facts = RoomFactsOf(*candidate, i, now);
      if (!facts.moves) continue;
      const api::Pod* pod = candidate->reschedulable_pods[i];
      const provisioning::ResourceFootprint& need = facts.need;
      // Relaxing a pod only adds a PreferNoSchedule toleration, so a NoSchedule or NoExecute
      // taint it does not tolerate keeps it off the node for good.
      const auto closed = [&](const provisioning::ExistingNode& node) {
        return removed(node) || !api::ToleratesAll(pod->spec.tolerations, node.taints(),
                                                   /*ignore_prefer_no_schedule=*/true);
      };
      // The cache orders initialized nodes first.
      size_t index = cache.rooms().FirstFit(0, need);
      while (index < nodes.size() && nodes[index].view().initialized && closed(nodes[index])) {
        index = cache.rooms().FirstFit(index + 1, need);
      }
      if (index == nodes.size() || !nodes[index].view().initialized) {
        return provisioning::PodKey(*pod);
      }
    }
  }
  return std::nullopt;
}

const Simulator::SpotFacts& Simulator::SpotFactsOf() const {
  if (spot_facts_) return *spot_facts_;
  constexpr double kNone = std::numeric_limits<double>::infinity();
  SpotFacts facts{.cheapest_spotless = kNone, .cheapest_not_spot = kNone};
  for (const provisioning::PoolPrototype& pool : SolveCacheOf().pools()) {
    const provisioning::NodeClaimTemplate& tmpl = pool.node_claim_template;
    const scheduling::Requirement* capacity_type =
        tmpl.requirements.Find(api::kCapacityTypeLabelKey);
    const bool pool_spot = capacity_type == nullptr || capacity_type->Has(api::kCapacityTypeSpot);
    for (const provisioning::TypeCandidate& candidate : tmpl.candidates) {
      const std::vector<provisioning::OfferingView>& offerings = candidate.type->offerings;
      for (const provisioning::OfferingView& offering : offerings) {
        if (!offering.available || offering.capacity_type == api::kCapacityTypeSpot) continue;
        facts.cheapest_not_spot = std::min(facts.cheapest_not_spot, offering.price);
        // A reserved offering may pin the claim to itself, spot in its zone or not.
        const bool spot_here =
            pool_spot && !offering.reserved() &&
            std::any_of(offerings.begin(), offerings.end(), [&](const auto& other) {
              return other.available && other.zone == offering.zone &&
                     other.capacity_type == api::kCapacityTypeSpot;
            });
        if (!spot_here) facts.cheapest_spotless = std::min(facts.cheapest_spotless, offering.price);
      }
    }
  }
  for (const api::Pod& pod : input_.input.pending_pods) {
    facts.pending_pin_capacity_type |= PodNamesNodeLabel(pod, CapacityTypeKey());
  }
  // A bound pod's required anti-affinity keeps the pods it selects out of its domains.
  for (const api::Pod* pod : SolveCacheOf().bound_pod_facts().with_required_anti_affinity) {
    facts.pending_pin_capacity_type |= PodNamesNodeLabel(*pod, CapacityTypeKey());
  }
  spot_facts_ = facts;
  return *spot_facts_;
}

bool Simulator::ReplacementAllowsSpotOrCostsAtLeast(std::span<const Candidate* const> candidates,
                                                    double price) const {
  const SpotFacts& facts = SpotFactsOf();
  bool pinned = facts.pending_pin_capacity_type;
  for (const Candidate* candidate : candidates) {
    for (const api::Pod* pod : candidate->reschedulable_pods) {
      pinned = pinned || PodNamesNodeLabel(*pod, CapacityTypeKey());
    }
  }
  // A pod that names the capacity type may keep spot off the claim in any zone.
  return (pinned ? facts.cheapest_not_spot : facts.cheapest_spotless) >= price;
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

  input.stop_on_moving_pod_off_initialized = options.stop_at_moved_pod_off_initialized;
  provisioning::SchedulerResult solved;
  std::optional<provisioning::SchedulerInput> with_extra;
  if (extra_nodes.empty()) {
    solved = provisioning::Solve(input, SolveCacheOf());
  } else {
    with_extra.emplace(input);
    with_extra->existing_nodes.insert(with_extra->existing_nodes.end(), extra_nodes.begin(),
                                      extra_nodes.end());
    solved = provisioning::Solve(*with_extra);
  }
  const provisioning::SchedulerInput& solved_input = with_extra ? *with_extra : input;
  SimulationResult result;
  const auto put_back = [&] {
    size_t moved_back = first_moved;
    for (MovedPods* batch : batches) {
      for (api::Pod& pod : batch->pods) pod = std::move(input.pending_pods[moved_back++]);
    }
    Restore();
  };
  if (!solved.stopped_at.empty()) {
    result.stopped_at = std::move(solved.stopped_at);
    put_back();
    return result;
  }
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
  put_back();
  return result;
}

}  // namespace karpenter::disruption
