// Upstream: pkg/controllers/disruption/types.go, pkg/controllers/state/statenode.go,
// pkg/utils/disruption/disruption.go
#include "src/disruption/candidates.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/api/karpenter_labels.h"
#include "src/disruption/node_state.h"
#include "src/state/pdb_limits.h"
#include "src/state/pod_predicates.h"

namespace karpenter::disruption {
namespace {

std::string PodName(const api::Pod& pod) {
  return absl::StrCat(pod.metadata.namespace_, "/", pod.metadata.name);
}

// Node names pending pods are nominated to by kube-scheduler preemption (state.Nominated).
std::map<std::string, std::string> NominatedNodes(const state::ClusterSnapshot& snapshot) {
  std::map<std::string, std::string> nominated;
  for (const api::Pod* pod : snapshot.UnboundPods()) {
    if (pod->status.nominated_node_name.empty()) continue;
    nominated.try_emplace(pod->status.nominated_node_name, PodName(*pod));
  }
  return nominated;
}

// Why the node itself cannot be disrupted (ValidateNodeDisruptable and the pool lookup), or "".
std::string NodeBlock(const api::Node& node, const api::NodeClaim* node_claim,
                      const state::ClusterSnapshot& snapshot,
                      const std::map<std::string, std::string>& nominated,
                      const PoolInstanceTypes& instance_types) {
  if (HasDisruptedTaint(node) && !IsDeleting(node, node_claim)) {
    return "already being disrupted (karpenter.sh/disrupted taint)";
  }
  if (node_claim == nullptr) return "not managed by Karpenter (no NodeClaim)";
  if (!IsInitialized(node, *node_claim)) return "node isn't initialized";
  if (IsDeleting(node, node_claim)) return "node is deleting or marked for deletion";
  if (auto it = nominated.find(node.metadata.name); it != nominated.end()) {
    return absl::StrCat("node is nominated for pending pod ", it->second);
  }
  auto annotation =
      node.metadata.annotations.find(api::KeyString<api::kDoNotDisruptAnnotationKey>());
  if (annotation != node.metadata.annotations.end() && annotation->second == "true") {
    return "disruption is blocked by the \"karpenter.sh/do-not-disrupt\" annotation on the node";
  }
  const std::string pool = NodePoolOf(node, node_claim);
  if (pool.empty()) return "node doesn't have the karpenter.sh/nodepool label";
  if (snapshot.FindNodePool(pool) == nullptr) {
    return absl::StrCat("NodePool \"", pool, "\" not found");
  }
  if (!instance_types.contains(pool)) {
    return absl::StrCat("NodePool \"", pool, "\" is not ready (no instance types)");
  }
  return "";
}

// Why a pod forbids graceful disruption of its node (ValidatePodsDisruptable), or "".
std::string PodBlock(const std::vector<const api::Pod*>& pods, const state::PdbLimits& pdbs,
                     api::Time now) {
  for (const api::Pod* pod : pods) {
    if (!state::IsDisruptable(*pod, now)) {
      return absl::StrCat("pod ", PodName(*pod),
                          " has the \"karpenter.sh/do-not-disrupt\" annotation");
    }
  }
  for (const api::Pod* pod : pods) {
    std::vector<std::string> keys =
        pdbs.BlockingBudgets(*pod, now, state::PdbLimits::Blocker::kZeroDisruptions);
    if (keys.size() > 1) {
      return absl::StrCat("pod ", PodName(*pod), " is covered by multiple PDBs (",
                          absl::StrJoin(keys, ", "), "); eviction does not support that");
    }
    if (keys.size() == 1) {
      return absl::StrCat("PDB ", keys.front(), " allows 0 disruptions (pod ", PodName(*pod), ")");
    }
  }
  return "";
}

// All of `pods`' blockers, for a candidate PodBlock already found blocked: sorted, no duplicates.
PodBlockers CollectPodBlockers(const std::vector<const api::Pod*>& pods,
                               const state::PdbLimits& pdbs, api::Time now) {
  PodBlockers out;
  std::set<std::string> pdb_names;
  for (const api::Pod* pod : pods) {
    if (!state::IsDisruptable(*pod, now)) out.do_not_disrupt_pods.push_back(PodName(*pod));
    std::vector<std::string> keys =
        pdbs.BlockingBudgets(*pod, now, state::PdbLimits::Blocker::kZeroDisruptions);
    if (keys.empty()) continue;
    out.pdb_pods.push_back(PodName(*pod));
    pdb_names.insert(keys.begin(), keys.end());
  }
  out.pdbs.assign(pdb_names.begin(), pdb_names.end());
  std::sort(out.do_not_disrupt_pods.begin(), out.do_not_disrupt_pods.end());
  std::sort(out.pdb_pods.begin(), out.pdb_pods.end());
  return out;
}

double ResolvePrice(const provisioning::InstanceTypeView* type, const std::string& zone,
                    const std::string& capacity_type) {
  if (type == nullptr) return 0;
  for (const provisioning::OfferingView& offering : type->offerings) {
    if (offering.zone == zone && offering.capacity_type == capacity_type) return offering.price;
  }
  return 0;
}

}  // namespace

PoolInstanceTypes IndexInstanceTypes(const provisioning::SchedulerInput& input) {
  PoolInstanceTypes index;
  for (const provisioning::NodePoolInstanceTypes& pool : input.node_pools) {
    auto& types = index[pool.node_pool.metadata.name];
    for (const provisioning::InstanceTypeView& type : pool.instance_types) {
      types[type.name] = &type;
    }
  }
  return index;
}

double EvictionCost(const api::Pod& pod) {
  double cost = 1.0;
  auto it = pod.metadata.annotations.find(api::KeyString<api::kPodDeletionCostAnnotationKey>());
  double deletion_cost = 0;
  if (it != pod.metadata.annotations.end() && absl::SimpleAtod(it->second, &deletion_cost)) {
    cost += deletion_cost / std::pow(2.0, 27);
  }
  if (pod.spec.priority) cost += static_cast<double>(*pod.spec.priority) / std::pow(2.0, 25);
  return std::clamp(cost, -10.0, 10.0);
}

double LifetimeRemaining(const api::NodeClaim& node_claim, const api::NodePool* node_pool,
                         api::Time now) {
  const std::optional<api::Duration> expire_after = ExpireAfter(node_claim, node_pool);
  if (!expire_after || !node_claim.metadata.creation_timestamp) return 1.0;
  const double total = static_cast<double>(expire_after->Nanos());
  if (total <= 0) return 0.0;
  const double age = static_cast<double>((now - *node_claim.metadata.creation_timestamp).Nanos());
  return std::clamp((total - age) / total, 0.0, 1.0);
}

CandidateSet BuildCandidates(const state::ClusterSnapshot& snapshot,
                             const PoolInstanceTypes& instance_types, api::Time now) {
  CandidateSet out;
  const state::PdbLimits pdbs(snapshot.pod_disruption_budgets());
  const std::map<std::string, std::string> nominated = NominatedNodes(snapshot);
  for (const api::Node& node : snapshot.nodes()) {
    const api::NodeClaim* node_claim = snapshot.NodeClaimForNode(node);
    std::string block = NodeBlock(node, node_claim, snapshot, nominated, instance_types);
    if (!block.empty()) {
      out.blocked.push_back({node.metadata.name, std::move(block)});
      continue;
    }
    Candidate candidate;
    candidate.node = &node;
    candidate.node_claim = node_claim;
    candidate.node_pool = snapshot.FindNodePool(NodePoolOf(node, node_claim));
    candidate.instance_type_name = LabelOf(node, node_claim, api::kLabelInstanceTypeStable);
    candidate.zone = LabelOf(node, node_claim, api::kLabelTopologyZone);
    candidate.capacity_type = LabelOf(node, node_claim, api::kCapacityTypeLabelKey);
    const auto& types = instance_types.at(candidate.node_pool->metadata.name);
    if (auto it = types.find(candidate.instance_type_name); it != types.end()) {
      candidate.instance_type = it->second;
    }
    candidate.price =
        ResolvePrice(candidate.instance_type, candidate.zone, candidate.capacity_type);
    double rescheduling_cost = 0;
    // The pods' charges answer the predicates without reading further into the pods.
    for (const state::SharedPod* shared : snapshot.SharedPodsOnNode(node.metadata.name)) {
      const state::SnapshotPod& held = **shared;
      if (held.charge.terminal) continue;
      const api::Pod* pod = &held.pod;
      candidate.pods.push_back(pod);
      const double eviction_cost = EvictionCost(*pod);
      rescheduling_cost += eviction_cost;
      if (!held.charge.reschedulable) continue;
      candidate.reschedulable_pods.push_back(pod);
      candidate.reschedulable_charges.push_back(&held.charge);
      candidate.reschedule_disruption_cost += std::max(0.0, eviction_cost);
    }
    candidate.disruption_cost =
        rescheduling_cost * LifetimeRemaining(*node_claim, candidate.node_pool, now);
    candidate.pod_block = PodBlock(candidate.pods, pdbs, now);
    if (!candidate.pod_block.empty()) {
      candidate.blockers = CollectPodBlockers(candidate.pods, pdbs, now);
      std::string reason = candidate.pod_block;
      if (candidate.HasTerminationGracePeriod()) {
        absl::StrAppend(&reason,
                        " (drift may still proceed: the NodeClaim has a "
                        "terminationGracePeriod)");
      }
      out.blocked.push_back({node.metadata.name, std::move(reason)});
    }
    out.candidates.push_back(std::move(candidate));
  }
  return out;
}

}  // namespace karpenter::disruption
