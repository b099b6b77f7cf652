// The cluster seam in memory, with the API server's write semantics (resourceVersion
// preconditions, server-owned fields, finalizers and deletionTimestamp, the eviction
// subresource and PodDisruptionBudgets), watch notifications, injected failures (a Conflict
// storm, 429s, NotFound) and a log of every write, for the controllers' tests.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "karpenter/clock.h"
#include "karpenter/kube_cluster.h"

namespace karpenter::fakes {

class FakeKubeCluster : public ClusterReader, public ClusterWriter {
 public:
  enum class Verb { kCreate, kUpdate, kUpdateStatus, kMergePatch, kDelete, kEvict };

  explicit FakeKubeCluster(const Clock& clock) : clock_(clock) {}

  // --- reads ---
  bool Synced() const override { return synced_; }
  std::optional<api::Object> Get(const ObjectKey& key) const override;
  std::vector<api::Object> List(std::string_view kind) const override;
  std::vector<api::Pod> PodsOnNode(std::string_view node_name) const override;
  std::optional<api::Node> NodeByProviderId(std::string_view provider_id) const override;
  std::optional<api::NodeClaim> NodeClaimByProviderId(std::string_view provider_id) const override;
  void Watch(std::string_view kind, std::function<void(const ObjectKey&)> on_change) override;

  // --- writes ---
  absl::StatusOr<api::Object> Create(const api::Object& object) override;
  absl::StatusOr<api::Object> Update(const api::Object& object) override;
  absl::StatusOr<api::Object> UpdateStatus(const api::Object& object) override;
  absl::StatusOr<api::Object> MergePatch(const ObjectKey& key, std::string_view patch) override;
  using ClusterWriter::Delete;
  absl::Status Delete(const ObjectKey& key, const DeleteOptions& options) override;
  absl::StatusOr<EvictionResult> Evict(const ObjectKey& pod, std::string_view uid) override;

  // --- test controls ---
  void set_synced(bool synced) { synced_ = synced; }
  // The next call of `verb` fails with `status` (failures queue up per verb).
  void FailNext(Verb verb, absl::Status status) { failures_[verb].push_back(std::move(status)); }
  // The next `count` writes of any kind fail with Conflict, as when another writer keeps
  // winning the race.
  void ConflictStorm(int count) { conflicts_left_ = count; }
  // Removes pods that are being deleted and carry no finalizers (the kubelet confirming).
  void ReapTerminatingPods();
  // "Create Pod/default/a", "Evict Pod/default/a 429", ... in call order.
  const std::vector<std::string>& writes() const { return writes_; }

 private:
  // The injected failure for `verb`, if any (a Conflict storm applies to every write).
  std::optional<absl::Status> TakeFailure(Verb verb);
  std::string NextResourceVersion() { return std::to_string(++resource_version_); }
  void Notify(const ObjectKey& key);
  void Log(std::string_view verb, const ObjectKey& key, std::string_view outcome = {});
  // The stored object `object` replaces, after the injected failures and the resourceVersion
  // precondition (`name` is the verb as logged).
  absl::StatusOr<api::Object*> FindForWrite(Verb verb, std::string_view name,
                                            const api::Object& object);
  // Fields only the server sets carry over from `stored`; the resourceVersion moves on.
  void KeepServerFields(const api::ObjectMeta& stored, api::ObjectMeta& meta);
  // Stores `object` as the new version of `key`, or removes it when it is being deleted and
  // has no finalizers left.
  api::Object Store(const ObjectKey& key, api::Object object);

  const Clock& clock_;
  bool synced_ = true;
  std::map<ObjectKey, api::Object> objects_;
  uint64_t resource_version_ = 0;
  uint64_t uids_ = 0;
  std::map<Verb, std::deque<absl::Status>> failures_;
  int conflicts_left_ = 0;
  std::map<std::string, std::vector<std::function<void(const ObjectKey&)>>, std::less<>> watches_;
  std::vector<std::string> writes_;
};

// Test setup, as a client and the kube-scheduler would leave the cluster:
// every object of the manifest file at `path` (YAML or JSON), created.
absl::Status CreateFromFile(FakeKubeCluster& cluster, const std::string& path);
// Test setup from YAML documents: each object created as a client would, then the status it
// carries written as its owner (kubelet, Karpenter, kube-scheduler) would, for Nodes,
// NodeClaims and Pods.
absl::Status CreateWithStatus(FakeKubeCluster& cluster, std::string_view yaml);
// A pod of one container requesting `cpu` and `memory` that the kube-scheduler could not place
// (PodScheduled False, reason Unschedulable).
absl::Status CreateUnschedulablePod(FakeKubeCluster& cluster, const std::string& name,
                                    const std::string& cpu, const std::string& memory);

}  // namespace karpenter::fakes
