// Upstream: pkg/controllers/disruption/helpers.go (SimulateScheduling).
// What happens to the cluster if some candidates go away (D8): their currently reschedulable pods
// join the pending ones and the real provisioning scheduler places them on the remaining nodes or
// on new NodeClaims. The simulation reports which candidate pods could not move and where the
// others go.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "src/api/time.h"
#include "src/disruption/candidates.h"
#include "src/provisioning/plan.h"
#include "src/provisioning/snapshot_input.h"
#include "src/provisioning/solve_cache.h"
#include "src/state/pdb_limits.h"
#include "src/state/snapshot.h"

namespace karpenter::disruption {

struct SimulationOptions {
  // A consolidation keeps moved pods off nodes still inside consolidateAfter (D5, behaviour 27);
  // drift and expiration do not.
  bool consolidation = false;
  api::Time now;
  // False when the caller predicts the launch itself after cutting the claim's types (a
  // consolidation): new claims then carry a default `launch`, and a claim nothing could launch
  // still fails its pods, as with the prediction.
  bool predict_launches = true;
  // For a caller that rejects the move once any moved pod needs a new NodeClaim or an
  // uninitialized node: the solve stops at the first such pod (SimulationResult::stopped_at).
  bool stop_at_moved_pod_off_initialized = false;
};

struct SimulationResult {
  // New NodeClaims with their predicted launch (see SimulationOptions), creation order. Their
  // instance_type_options point into the Simulator's input: valid while that input lives.
  std::vector<provisioning::PlannedNodeClaim> new_node_claims;
  // Moved candidate pod -> its destination (an existing node's name, or "new nodeclaim N").
  std::map<std::string, std::string> destinations;
  // Why some candidate pod cannot move ("pod ns/x: reason"), sorted; empty when all moved.
  std::vector<std::string> failures;

  // The moved pod that stopped the simulation (SimulationOptions::
  // stop_at_moved_pod_off_initialized); the other fields are then empty.
  std::string stopped_at;

  bool AllCandidatePodsScheduled() const { return failures.empty() && stopped_at.empty(); }
};

// The cluster's scheduler input (from provisioning::BuildSchedulerInput) plus what simulations
// need to know about existing nodes. A simulation works in the caller's input itself: it marks
// its candidates removed there, adds their pods as pending, solves, and puts everything back
// before it returns (copying and destroying a 1,000-node input per poll was 5 % of the twin's
// day). So between simulations the input is as the caller built it, nothing else may use it
// during one, and a Simulator must not be used from two threads at once. The solves share one
// provisioning::SolveCache.
class Simulator {
 public:
  Simulator(const state::ClusterSnapshot& snapshot, provisioning::SnapshotSchedulerInput& input);

  // `candidates` must be distinct.
  SimulationResult Simulate(std::span<const Candidate* const> candidates,
                            const SimulationOptions& options) const;

  // As Simulate, with `extra_nodes` (replacements a command launches before it drains, as empty
  // initialized nodes) in the cluster too. They are not in the shared solve cache, so this solves
  // a copy of the input: dearer than Simulate, for the few moves that need it.
  SimulationResult SimulateWith(std::span<const Candidate* const> candidates,
                                std::span<const provisioning::ExistingNodeView> extra_nodes,
                                const SimulationOptions& options) const;

  // A pod that removing `candidates` moves and that no other initialized node whose taints it
  // tolerates has the room for (cpu, memory, pod slots), judged by the headroom before any solve;
  // empty when each may find some. A solve only shrinks headroom, so such a pod ends on an
  // uninitialized node (a failure), on a new NodeClaim, or nowhere: the simulation cannot delete
  // `candidates` outright.
  std::optional<std::string> PodWithoutInitializedRoom(std::span<const Candidate* const> candidates,
                                                       api::Time now) const;
  // Whether every NodeClaim a simulation of `candidates` could open either allows spot or
  // launches nothing below `price`. A claim allows spot unless its pool or a pod rules spot out,
  // a reserved offering holds it, or none of its types offers spot in its zones; then it launches
  // only offerings of those kinds, and each must cost at least `price`.
  bool ReplacementAllowsSpotOrCostsAtLeast(std::span<const Candidate* const> candidates,
                                           double price) const;

 private:
  void RebindInstanceTypes(const provisioning::SchedulerInput& local,
                           provisioning::NewNodeClaim& claim) const;

  // Per node of the input's existing_nodes: inside its pool's consolidateAfter at `now`.
  const std::vector<bool>& UnderConsolidateAfter(api::Time now) const;

  // The pods removing one candidate moves (reschedulable at `now`, nodeName cleared) and their
  // PodKeys. A simulation moves the pods into the scratch input and back after its solve, so a
  // poll that simulates a candidate many times copies its pods once.
  struct MovedPods {
    api::Time now;
    std::vector<api::Pod> pods;
    std::vector<std::string> keys;
  };
  MovedPods& MovedPodsOf(const Candidate& candidate, api::Time now) const;
  const provisioning::SolveCache& SolveCacheOf() const;
  // What ReplacementAllowsSpotOrCostsAtLeast knows before looking at the candidates: over the
  // pools' types' available offerings other than spot, the cheapest of all and the cheapest that
  // a claim without spot could launch when no pod names the capacity type (in a pool without
  // spot, reserved, or in a zone where the type offers no spot); infinity when there is none.
  struct SpotFacts {
    double cheapest_spotless = 0;
    double cheapest_not_spot = 0;
    // A pending pod, or a bound one with required anti-affinity, names karpenter.sh/capacity-type.
    bool pending_pin_capacity_type = false;
  };
  const SpotFacts& SpotFactsOf() const;

  // Puts back what a simulation changed in the input.
  void Restore() const;

  const state::ClusterSnapshot& snapshot_;
  // Changed only during a simulation (see the class comment).
  provisioning::SnapshotSchedulerInput& input_;
  const state::PdbLimits pdbs_;
  // What simulations change in the input, as the caller built it.
  const size_t pending_pods_;
  const std::set<std::string, std::less<>> removed_nodes_;
  const std::set<std::string> moving_pods_;
  const std::vector<bool> under_consolidate_after_;
  const provisioning::ReservedOfferingMode reserved_offering_mode_;
  // What every simulation's solve shares (pools, existing nodes), built on first use.
  mutable std::unique_ptr<provisioning::SolveCache> solve_cache_;
  mutable std::optional<SpotFacts> spot_facts_;
  mutable std::optional<api::Time> flags_now_;
  mutable std::vector<bool> flags_;
  // By candidate; only looked up, never iterated. Node-based, so a simulation may hold
  // references into it while it adds entries.
  mutable std::unordered_map<const Candidate*, MovedPods> moved_pods_;
  // What PodWithoutInitializedRoom knows of a pod at `room_facts_now_`: whether it moves and,
  // if so, its footprint. Multi-node consolidation asks about the same candidates' pods at every
  // step of its search.
  struct RoomFacts {
    bool moves = false;
    provisioning::ResourceFootprint need;
  };
  const RoomFacts& RoomFactsOf(const Candidate& candidate, size_t pod, api::Time now) const;
  mutable absl::flat_hash_map<const api::Pod*, RoomFacts> room_facts_;
  mutable api::Time room_facts_now_;
};

// Whether the node's NodeClaim is still inside its pool's consolidateAfter (from lastPodEventTime,
// else from its Initialized transition). consolidateAfter 0s or Never: false.
bool IsUnderConsolidateAfter(const api::NodeClaim& node_claim, const api::NodePool& node_pool,
                             api::Time now);

}  // namespace karpenter::disruption
