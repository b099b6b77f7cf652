// Upstream: pkg/controllers/disruption/types.go (NewCandidate), pkg/controllers/state/statenode.go
// (ValidateNodeDisruptable, ValidatePodsDisruptable), pkg/utils/disruption/disruption.go.
// Disruption candidates (D2) and their costs (D3): every node Karpenter could disrupt now, and for
// every other node the human reason it is left alone.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "src/api/node.h"
#include "src/api/nodeclaim.h"
#include "src/api/nodepool.h"
#include "src/api/pod.h"
#include "src/api/time.h"
#include "src/provisioning/types.h"
#include "src/state/snapshot.h"

namespace karpenter::disruption {

// Everything that forbids graceful disruption of a candidate, for explanations (pod_block holds
// the first reason, as upstream reports it).
struct PodBlockers {
  std::vector<std::string> do_not_disrupt_pods;  // "namespace/name"
  std::vector<std::string> pdbs;                 // "namespace/name" at 0 disruptions
  std::vector<std::string> pdb_pods;             // pods those PDBs cover, "namespace/name"
};

struct Candidate {
  const api::Node* node = nullptr;
  const api::NodeClaim* node_claim = nullptr;
  const api::NodePool* node_pool = nullptr;
  // The pool's instance type the node runs as; nullptr when the pool cannot launch it any more
  // (then the node can still be emptied or drifted, never consolidated).
  const provisioning::InstanceTypeView* instance_type = nullptr;
  std::string instance_type_name;
  std::string zone;
  std::string capacity_type;
  double price = 0;  // the node's offering price; 0 when unknown
  // Pods bound to the node that are not terminal, and those of them that must move elsewhere.
  std::vector<const api::Pod*> pods;
  std::vector<const api::Pod*> reschedulable_pods;
  // The snapshot's charges of reschedulable_pods, index for index (BuildCandidates fills both; a
  // candidate made otherwise may leave it empty).
  std::vector<const state::PodCharge*> reschedulable_charges;
  // Σ eviction costs × fraction of lifetime left (ordering, D3).
  double disruption_cost = 0;
  // 1 + Σ max(0, eviction cost) over reschedulable pods; ≤ 1 means empty.
  double reschedule_disruption_cost = 1;
  // Set when a pod forbids graceful disruption (do-not-disrupt, PDB); eventual methods may
  // proceed anyway when the NodeClaim has a terminationGracePeriod.
  std::string pod_block;
  PodBlockers blockers;  // filled only when `pod_block` is set

  const std::string& name() const { return node->metadata.name; }
  bool IsEmpty() const { return reschedule_disruption_cost <= 1.0; }
  double SavingsRatio() const { return price / reschedule_disruption_cost; }
  bool HasTerminationGracePeriod() const {
    return node_claim->spec.termination_grace_period.has_value();
  }
};

struct BlockedNode {
  std::string node;
  std::string reason;
  friend bool operator==(const BlockedNode&, const BlockedNode&) = default;
};

struct CandidateSet {
  std::vector<Candidate> candidates;  // by node name
  std::vector<BlockedNode> blocked;   // by node name; pod-blocked candidates are listed too
};

// The instance types each NodePool may launch, by pool then type name.
using PoolInstanceTypes =
    std::map<std::string, std::map<std::string, const provisioning::InstanceTypeView*>>;
PoolInstanceTypes IndexInstanceTypes(const provisioning::SchedulerInput& input);

// Pod eviction cost: clamp(1 + deletion-cost/2^27 + priority/2^25, −10, 10).
double EvictionCost(const api::Pod& pod);
// Fraction of the node's lifetime left before expireAfter, in [0, 1] (1 without expiry).
double LifetimeRemaining(const api::NodeClaim& node_claim, const api::NodePool* node_pool,
                         api::Time now);

// Every Node of the snapshot, as a candidate or with why it is not one. Checks run in upstream
// order: already disrupting, not managed, uninitialized, deleting, nominated, do-not-disrupt on
// the node, no NodePool label, pool unknown or unable to launch, then the pods.
CandidateSet BuildCandidates(const state::ClusterSnapshot& snapshot,
                             const PoolInstanceTypes& instance_types, api::Time now);

}  // namespace karpenter::disruption
