// Upstream: pkg/controllers/disruption/helpers.go (SimulateScheduling).
// What happens to the cluster if some candidates go away (D8): their currently reschedulable pods
// join the pending ones and the real provisioning scheduler places them on the remaining nodes or
// on new NodeClaims. The simulation reports which candidate pods could not move and where the
// others go.
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "src/api/time.h"
#include "src/disruption/candidates.h"
#include "src/provisioning/plan.h"
#include "src/provisioning/snapshot_input.h"
#include "src/state/snapshot.h"

namespace karpenter::disruption {

struct SimulationOptions {
  // A consolidation keeps moved pods off nodes still inside consolidateAfter (D5, behaviour 27);
  // drift and expiration do not.
  bool consolidation = false;
  api::Time now;
};

struct SimulationResult {
  // New NodeClaims with their predicted launch, creation order. Their instance_type_options point
  // into the Simulator's input: valid while that input lives.
  std::vector<provisioning::PlannedNodeClaim> new_node_claims;
  // Moved candidate pod -> its destination (an existing node's name, or "new nodeclaim N").
  std::map<std::string, std::string> destinations;
  // Why some candidate pod cannot move ("pod ns/x: reason"), sorted; empty when all moved.
  std::vector<std::string> failures;

  bool AllCandidatePodsScheduled() const { return failures.empty(); }
};

// The cluster's scheduler input (from provisioning::BuildSchedulerInput) plus what simulations
// need to know about existing nodes.
class Simulator {
 public:
  Simulator(const state::ClusterSnapshot& snapshot,
            const provisioning::SnapshotSchedulerInput& input);

  SimulationResult Simulate(std::span<const Candidate* const> candidates,
                            const SimulationOptions& options) const;

 private:
  void RebindInstanceTypes(const provisioning::SchedulerInput& local,
                           provisioning::NewNodeClaim& claim) const;

  const state::ClusterSnapshot& snapshot_;
  const provisioning::SnapshotSchedulerInput& input_;
};

// Whether the node's NodeClaim is still inside its pool's consolidateAfter (from lastPodEventTime,
// else from its Initialized transition). consolidateAfter 0s or Never: false.
bool IsUnderConsolidateAfter(const api::NodeClaim& node_claim, const api::NodePool& node_pool,
                             api::Time now);

}  // namespace karpenter::disruption
