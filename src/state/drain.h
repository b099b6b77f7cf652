// What `kubectl drain --ignore-daemonsets --delete-emptydir-data -l SELECTOR` would do to a
// snapshot's nodes, as a what-if for `karpenter plan --drain` (the migration article's Phase 4):
// which nodes it cordons, which pods it evicts, which it leaves (DaemonSet and mirror pods), which
// evictions a PodDisruptionBudget refuses at first and kubectl keeps retrying, and which pods
// stop kubectl before it evicts anything from a node (pods no controller would recreate).
//
// The eviction rules here are the API server's and kubectl's, not Karpenter's: a pod that
// carries `karpenter.sh/do-not-disrupt` is evicted like any other, since kubectl ignores that
// annotation. Nodes are drained one after another in name order, as kubectl walks its list, and
// each admitted eviction uses up one of its PDB's allowed disruptions.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/manifest.h"
#include "src/api/selector.h"
#include "src/state/snapshot.h"

namespace karpenter::state {

// kubectl cordon sets spec.unschedulable; the node lifecycle controller then adds this taint,
// which is what schedulers (Karpenter's included) read.
inline constexpr std::string_view kUnschedulableTaintKey = "node.kubernetes.io/unschedulable";

// One --drain selector as the user wrote it and parsed.
struct DrainSelector {
  std::string text;
  api::LabelSelector selector;
};

struct DrainedNode {
  std::string name;
  // "namespace/name" of the pods that leave and need a home elsewhere, including those a PDB
  // holds back at first (they leave once kubectl's retries are admitted).
  std::vector<std::string> evicted;
  std::vector<std::string> daemon_set_pods;  // stay: --ignore-daemonsets
  std::vector<std::string> mirror_pods;      // static pods: the kubelet's, never evicted
  std::vector<std::string> completed_pods;   // Succeeded/Failed: deleted, nothing to reschedule
  // Pods a PDB never lets go: the node keeps them and the drain does not finish.
  std::vector<std::string> stuck;
  // Why kubectl stops before evicting anything from this node (the node is still cordoned);
  // empty when it drains.
  std::string error;
  // No error and nothing stuck: the node ends empty but for DaemonSet and mirror pods.
  bool Completes() const { return error.empty() && stuck.empty(); }
};

// An eviction a PodDisruptionBudget refuses when kubectl first asks (HTTP 429).
struct PdbRefusal {
  std::string pod;  // "namespace/name"
  std::string pdb;  // "namespace/name", or several joined by ", "
  // The budget can never admit it (maxUnavailable 0, minAvailable 100%, or several PDBs cover the
  // pod); otherwise kubectl retries every 5 s and the eviction goes through once evicted pods are
  // running again elsewhere.
  bool never = false;
  std::string reason;  // for people
};

struct DrainResult {
  std::vector<std::string> selectors;  // as given
  std::vector<DrainedNode> nodes;      // by name
  std::vector<PdbRefusal> refusals;    // in eviction order
  std::vector<std::string> warnings;   // selectors that matched no node
};

// Every node one of `selectors` matches, drained; a selector that matches no node is a warning.
DrainResult SimulateDrain(const ClusterSnapshot& snapshot,
                          std::span<const DrainSelector> selectors);

// `manifests` as they would read after the drain: drained nodes cordoned (spec.unschedulable and
// the unschedulable taint), evicted pods unbound so the planner sees them pending. Pods of nodes
// kubectl refuses to drain, and stuck pods, stay bound.
void ApplyDrain(const DrainResult& drain, std::vector<api::Manifest>& manifests);

}  // namespace karpenter::state
