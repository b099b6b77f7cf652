// Upstream: kubernetes-sigs/karpenter pkg/controllers/nodepool/hash and nodepool/counter.
//   - NodePoolHashController stamps each NodePool with the hash of the template fields whose
//     change drifts its nodes (labels, annotations, taints, startup taints, node class,
//     expireAfter, terminationGracePeriod; requirements drift on their own) and the hash
//     version. NodeClaims carry the hash they were launched with, so static drift is a
//     comparison. Our hash is not upstream's hashstructure value, so it carries its own version:
//     on a version change (switching from upstream, or back) the NodeClaims of the pool are
//     re-stamped with the current hash instead of drifting, as upstream does for its own hash
//     version changes; a NodeClaim already Drifted keeps its old hash.
//   - NodePoolCounter keeps status.resources (cpu, memory, pods, ephemeral-storage, nodes: the
//     capacity of the pool's nodes, and of launched NodeClaims not initialized yet) and
//     status.nodes, every 5 s once the cluster view is synced, so limits are visible.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "karpenter/clock.h"
#include "karpenter/kube_cluster.h"
#include "src/api/nodepool.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

inline constexpr std::string_view kNodePoolHashVersion = "karpenter-cpp-v1";
inline constexpr int64_t kNodePoolCounterPeriodMillis = 5 * 1000;

// FNV-1a (64 bit) of the drift-relevant template fields in a canonical form (maps by key,
// taints as sets, durations by value), in decimal as upstream prints its hash.
std::string NodePoolHash(const api::NodePool& pool);

// The pool's status.resources as upstream's counter computes it, "nodes" included.
api::ResourceList NodePoolResources(const ClusterReader& reader, std::string_view pool);
// Sets the pool's status.resources and status.nodes from the cluster, as one counter pass.
void CountNodePool(const ClusterReader& reader, api::NodePool& pool);

struct NodePoolSeams {
  Clock& clock;
  ClusterReader& reader;
  ClusterWriter& writer;
};

class NodePoolHashController {
 public:
  explicit NodePoolHashController(NodePoolSeams seams);
  void Start();
  absl::StatusOr<ReconcileResult> Reconcile(const std::string& name);

 private:
  absl::Status RestampNodeClaims(const api::NodePool& pool, const std::string& hash);

  NodePoolSeams seams_;
  KeyedController controller_;
};

class NodePoolCounter {
 public:
  explicit NodePoolCounter(NodePoolSeams seams);
  void Start();
  absl::StatusOr<ReconcileResult> Reconcile(const std::string& name);

 private:
  NodePoolSeams seams_;
  KeyedController controller_;
};

}  // namespace karpenter::controllers
