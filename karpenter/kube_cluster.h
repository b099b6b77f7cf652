// The cluster seam, as controllers see the Kubernetes API: a read side (informer caches with
// the field indexes upstream keeps, and a synced flag) and a write side with the API server's
// semantics. The Kubernetes client implements it against a real API server; the twin against
// its emulated objects; src/fakes in memory for tests.
//
// Write errors use these codes, so a controller can react as upstream's does:
//   kNotFound         404: no such object (or it is gone)
//   kAlreadyExists    409 on create: the name is taken
//   kAborted          409 Conflict: the object's resourceVersion (or a UID precondition) is not
//                     the stored one; re-read and retry
//   kInvalidArgument  422: the object is invalid
//   kUnavailable      retryable: throttled, server error, connection lost
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/manifest.h"

namespace karpenter {

// Which object: `kind` as manifests spell it ("Pod", "NodeClaim"); `namespace_` is empty for
// cluster-scoped kinds.
struct ObjectKey {
  std::string kind;
  std::string namespace_;
  std::string name;
  friend auto operator<=>(const ObjectKey&, const ObjectKey&) = default;
};

inline ObjectKey KeyOf(const api::Object& object) {
  return std::visit(
      [](const auto& typed) {
        return ObjectKey{typed.kind, typed.metadata.namespace_, typed.metadata.name};
      },
      object);
}

// How the eviction subresource answered.
enum class EvictionResult {
  kEvicted,          // 201: the pod is being deleted gracefully
  kNotFound,         // 404: no such pod
  kConflict,         // 409: the pod's UID is not the one asked for (a new pod of that name)
  kTooManyRequests,  // 429: a PodDisruptionBudget allows no disruption now; retry later
};

class ClusterReader {
 public:
  virtual ~ClusterReader() = default;

  // Every kind has been listed once: decisions on a partial view are not made (upstream's
  // cluster state Synced gate).
  virtual bool Synced() const = 0;
  virtual std::optional<api::Object> Get(const ObjectKey& key) const = 0;
  // Every object of `kind`, by namespace then name.
  virtual std::vector<api::Object> List(std::string_view kind) const = 0;
  // The field indexes: pods by spec.nodeName, Nodes by spec.providerID and NodeClaims by
  // status.providerID.
  virtual std::vector<api::Pod> PodsOnNode(std::string_view node_name) const = 0;
  virtual std::optional<api::Node> NodeByProviderId(std::string_view provider_id) const = 0;
  virtual std::optional<api::NodeClaim> NodeClaimByProviderId(
      std::string_view provider_id) const = 0;
  // Calls `on_change` with the key of every object of `kind` created, changed or deleted from
  // now on (an informer's event handler; controllers enqueue the key).
  virtual void Watch(std::string_view kind, std::function<void(const ObjectKey&)> on_change) = 0;
};

// DELETE's options: a UID precondition, and for pods the grace period granted (absent: the
// pod's own terminationGracePeriodSeconds).
struct DeleteOptions {
  std::string uid;
  std::optional<int64_t> grace_period_seconds;
};

class ClusterWriter {
 public:
  virtual ~ClusterWriter() = default;

  // Stores a new object: resourceVersion, uid and creationTimestamp are the server's.
  virtual absl::StatusOr<api::Object> Create(const api::Object& object) = 0;
  // Replaces metadata and spec (status is kept). When the object carries a resourceVersion it
  // must be the stored one. Removing the last finalizer of an object being deleted removes it.
  virtual absl::StatusOr<api::Object> Update(const api::Object& object) = 0;
  // Replaces status only (the status subresource), with the same resourceVersion rule.
  virtual absl::StatusOr<api::Object> UpdateStatus(const api::Object& object) = 0;
  // Applies an RFC 7386 JSON merge patch to metadata and spec; a `metadata.resourceVersion` in
  // the patch is a precondition.
  virtual absl::StatusOr<api::Object> MergePatch(const ObjectKey& key, std::string_view patch) = 0;
  // Deletes: an object with finalizers gets its deletionTimestamp and stays until they are
  // removed; a pod bound to a node stays until its kubelet confirms, after its grace period.
  // With `options.uid`, only the object with that UID (kAborted otherwise).
  virtual absl::Status Delete(const ObjectKey& key, const DeleteOptions& options) = 0;
  absl::Status Delete(const ObjectKey& key) { return Delete(key, DeleteOptions{}); }
  // POST pods/eviction for the pod with UID `uid`.
  virtual absl::StatusOr<EvictionResult> Evict(const ObjectKey& pod, std::string_view uid) = 0;
};

}  // namespace karpenter
