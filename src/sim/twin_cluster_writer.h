// The write side of the cluster seam (karpenter/kube_cluster.h) over the twin's world, with the
// API server's rules (src/apiserver): resourceVersion and UID preconditions, server-owned
// fields, status written apart from the main resource, finalizers holding a deleted object with
// its deletionTimestamp, and the eviction subresource with its PodDisruptionBudget answers.
// Reads go through the TwinClusterReader, whose resourceVersions this turns on.
//
// What the twin takes, by kind: NodeClaims, NodePools and EC2NodeClasses are created, updated,
// patched and deleted; Nodes (registered by their kubelets) are updated, patched and deleted;
// Pods (made by the workload controllers) are deleted and evicted. Anything else is refused with
// InvalidArgument. A Node is the twin's as long as its instance runs: removing it then
// (deleted without finalizers, or its last finalizer removed) is refused with
// FailedPrecondition; once the instance is gone, so is the Node.
#pragma once

#include <cstdint>
#include <string_view>

#include "karpenter/kube_cluster.h"
#include "src/sim/cluster.h"
#include "src/sim/twin_cluster_reader.h"

namespace karpenter::sim {

class TwinClusterWriter final : public ClusterWriter {
 public:
  TwinClusterWriter(Cluster& cluster, TwinClusterReader& reader);
  TwinClusterWriter(const TwinClusterWriter&) = delete;
  TwinClusterWriter& operator=(const TwinClusterWriter&) = delete;

  absl::StatusOr<api::Object> Create(const api::Object& object) override;
  absl::StatusOr<api::Object> Update(const api::Object& object) override;
  absl::StatusOr<api::Object> UpdateStatus(const api::Object& object) override;
  absl::StatusOr<api::Object> MergePatch(const ObjectKey& key, std::string_view patch) override;
  using ClusterWriter::Delete;
  // A pod is deleted gracefully (Cluster::DeleteGracefully, at least 1 s): it stays on its
  // node, terminating, for the grace period given or its own.
  absl::Status Delete(const ObjectKey& key, const DeleteOptions& options) override;
  absl::StatusOr<EvictionResult> Evict(const ObjectKey& pod, std::string_view uid) override;

 private:
  // The stored object a write of `key` by `verb` replaces, after the kind check and, when the
  // writer names a resourceVersion (`version`), the precondition on it.
  absl::StatusOr<api::Object> Stored(const ObjectKey& key, std::string_view verb,
                                     std::string_view version = {}) const;
  // Stores `object` in the twin, or removes it when it is being deleted and has no finalizers
  // left; returns it as stored (with its new resourceVersion) or as it was last.
  absl::StatusOr<api::Object> Store(api::Object object);
  absl::Status Remove(const ObjectKey& key);

  Cluster& cluster_;
  TwinClusterReader& reader_;
  uint64_t created_ = 0;  // objects created through this writer: names and UIDs
};

}  // namespace karpenter::sim
