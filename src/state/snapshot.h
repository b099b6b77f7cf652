// The cluster as the decision engine sees it at one instant: every modelled object of a snapshot
// file (or of the in-cluster informers), validated for uniqueness, in a deterministic order, with
// the lookups provisioning and disruption need (pods per node, Node <-> NodeClaim by provider ID,
// objects by name).
//
// Order: every list is sorted by (namespace, name), whatever order the input had, so everything
// derived from a snapshot is reproducible. Pointers returned by lookups point into the snapshot
// and stay valid for its lifetime (moving the snapshot keeps them valid; copying does not carry
// them over to the copy, except for pods, which copies share: see snapshot_pod.h).
//
// Workload controllers are expanded on construction (see workload_expansion.h): a Deployment
// with 10 replicas and no pods contributes 10 pending pods, so "pending" means every unbound pod,
// including those expanded (docs/contracts.md).
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "karpenter/common/status.h"
#include "src/api/manifest.h"
#include "src/state/snapshot_pod.h"

namespace karpenter::state {

// Annotation marking the cluster's default StorageClass; claims created without a class get it.
inline constexpr std::string_view kDefaultStorageClassAnnotationKey =
    "storageclass.kubernetes.io/is-default-class";

struct SnapshotOptions {
  // Add the pods (and claims) workload controllers would create; off to see the input verbatim.
  bool expand_workloads = true;
};

// One object with where it came from ("nodes.yaml:12"), for error messages.
struct SourcedObject {
  api::Object object;
  std::string origin;
};

// One pod for ClusterSnapshot::CarryPodsOver: the pod listed under (namespace, name) from now on,
// or null when there is none any more.
struct PodChange {
  std::string namespace_;
  std::string name;
  SharedPod pod;
};

class ClusterSnapshot {
 public:
  // Every modelled object of `manifests`. Manifests of kinds the engine does not model (Service,
  // ConfigMap, ...) are skipped and listed in `skipped()`. Decode problems in `Manifest::report`
  // are the caller's to report (see `karpenter validate`); the objects are taken as decoded.
  // Fails with InvalidArgument when an object has no name or two objects share kind, namespace
  // and name (the message names both origins).
  static absl::StatusOr<ClusterSnapshot> FromManifests(std::vector<api::Manifest> manifests,
                                                       const SnapshotOptions& options = {});
  // The same from objects built in code; origins are used only in error messages.
  static absl::StatusOr<ClusterSnapshot> FromObjects(std::vector<SourcedObject> objects,
                                                     const SnapshotOptions& options = {});

  ClusterSnapshot() = default;

  const std::vector<api::NodePool>& node_pools() const { return All<api::NodePool>(); }
  const std::vector<api::EC2NodeClass>& ec2_node_classes() const {
    return All<api::EC2NodeClass>();
  }
  const std::vector<api::NodeClaim>& node_claims() const { return All<api::NodeClaim>(); }
  const std::vector<api::Node>& nodes() const { return All<api::Node>(); }
  // Sorted by (namespace, name).
  PodSpan pods() const {
    return PodSpan(PodIterator(pods_.data()), PodIterator(pods_.data() + pods_.size()));
  }
  const std::vector<api::DaemonSet>& daemon_sets() const { return All<api::DaemonSet>(); }
  const std::vector<api::Deployment>& deployments() const { return All<api::Deployment>(); }
  const std::vector<api::ReplicaSet>& replica_sets() const { return All<api::ReplicaSet>(); }
  const std::vector<api::StatefulSet>& stateful_sets() const { return All<api::StatefulSet>(); }
  const std::vector<api::Job>& jobs() const { return All<api::Job>(); }
  const std::vector<api::PodDisruptionBudget>& pod_disruption_budgets() const {
    return All<api::PodDisruptionBudget>();
  }
  const std::vector<api::PersistentVolume>& persistent_volumes() const {
    return All<api::PersistentVolume>();
  }
  const std::vector<api::PersistentVolumeClaim>& persistent_volume_claims() const {
    return All<api::PersistentVolumeClaim>();
  }
  const std::vector<api::StorageClass>& storage_classes() const { return All<api::StorageClass>(); }
  const std::vector<api::CSINode>& csi_nodes() const { return All<api::CSINode>(); }
  const std::vector<api::VolumeAttachment>& volume_attachments() const {
    return All<api::VolumeAttachment>();
  }

  // "Kind/namespace/name (origin)" of every skipped manifest, in input order.
  const std::vector<std::string>& skipped() const { return skipped_; }

  // Every object of kind T, sorted by (namespace, name). Pods are held apart: see pods().
  template <class T>
  const std::vector<T>& All() const {
    static_assert(!std::is_same_v<T, api::Pod>, "pods are held by pointer: use pods()");
    if constexpr (std::is_same_v<T, api::Node>) {
      return *nodes_;
    } else if constexpr (std::is_same_v<T, api::NodeClaim>) {
      return *node_claims_;
    } else {
      return std::get<std::vector<T>>(objects_);
    }
  }
  // Binary search by (namespace, name); cluster-scoped kinds use an empty namespace.
  template <class T>
  const T* Find(std::string_view namespace_name, std::string_view name) const;

  const api::NodePool* FindNodePool(std::string_view name) const {
    return Find<api::NodePool>({}, name);
  }
  const api::EC2NodeClass* FindEC2NodeClass(std::string_view name) const {
    return Find<api::EC2NodeClass>({}, name);
  }
  const api::NodeClaim* FindNodeClaim(std::string_view name) const {
    return Find<api::NodeClaim>({}, name);
  }
  const api::Node* FindNode(std::string_view name) const { return Find<api::Node>({}, name); }
  const api::Pod* FindPod(std::string_view namespace_name, std::string_view name) const;
  const api::PersistentVolumeClaim* FindPersistentVolumeClaim(std::string_view namespace_name,
                                                              std::string_view name) const {
    return Find<api::PersistentVolumeClaim>(namespace_name, name);
  }
  const api::PersistentVolume* FindPersistentVolume(std::string_view name) const {
    return Find<api::PersistentVolume>({}, name);
  }
  const api::StorageClass* FindStorageClass(std::string_view name) const {
    return Find<api::StorageClass>({}, name);
  }
  const api::CSINode* FindCSINode(std::string_view name) const {
    return Find<api::CSINode>({}, name);
  }

  // Pods bound to `node_name` (spec.nodeName), sorted by (namespace, name). A pod may name a node
  // the snapshot lacks; it is still listed under that name.
  std::vector<const api::Pod*> PodsOnNode(std::string_view node_name) const;
  // The same as the snapshot holds them, with their charges (for scheduler inputs, which charge
  // every bound pod, and may keep the pods to recognise them in a later snapshot).
  std::vector<const SharedPod*> SharedPodsOnNode(std::string_view node_name) const;
  // The pods that carry karpenter.sh/do-not-disrupt, in pods() order: few, and the only ones whose
  // protection can change with the time alone.
  std::vector<const api::Pod*> PodsWithDoNotDisrupt() const;
  // The pods without a spec.nodeName, in pods() order: the few a pass over pending pods needs out
  // of a large cluster's tens of thousands.
  std::vector<const api::Pod*> UnboundPods() const;
  // Names of every node that has bound pods, sorted (including nodes absent from the snapshot).
  std::vector<std::string> NodeNamesWithPods() const;

  // The NodeClaim whose status.providerID equals the Node's spec.providerID, or nullptr (also for
  // an empty provider ID). When several share an ID the first by name wins.
  const api::NodeClaim* NodeClaimForNode(const api::Node& node) const;
  // The Node whose spec.providerID equals the NodeClaim's status.providerID, or nullptr.
  const api::Node* NodeForNodeClaim(const api::NodeClaim& node_claim) const;

  // The StorageClass annotated as default; with several, the newest (then the first by name), as
  // the API server's DefaultStorageClass admission picks. nullptr when there is none.
  const api::StorageClass* DefaultStorageClass() const;

  // True for pods added by workload expansion rather than read from the input.
  bool IsExpanded(const api::Pod& pod) const;

  // For a host whose pods change a few at a time between snapshots (the twin): the next snapshot
  // takes the last one's shared pods that did not change and new ones for those that did.
  // ReplacePods takes pods sorted by (namespace, name) without duplicates, each with a namespace
  // and a name, and rebuilds the pod index; otherwise it returns InvalidArgument and changes
  // nothing. Only for snapshots built without workload expansion (FailedPrecondition otherwise).
  absl::Status ReplacePods(std::vector<SharedPod> pods);
  // ReplacePods with `from`'s pods, `changes` applied (sorted by (namespace, name) without
  // duplicates, each pod listed under its own namespace and name). Only the changed pods are
  // read: the rest are found by binary search and their index entries are carried over, so a
  // change of a few pods out of tens of thousands costs little more than copying the list.
  absl::Status CarryPodsOver(const ClusterSnapshot& from, std::vector<PodChange> changes);
  // The node list, immutable and shareable: a later snapshot of the very same nodes can take it
  // (ShareNodes) instead of copying every node.
  using SharedNodes = std::shared_ptr<const std::vector<api::Node>>;
  const SharedNodes& shared_nodes() const { return nodes_; }
  // Makes `nodes` (another snapshot's shared_nodes()) this snapshot's nodes, in place of those it
  // was built with, and rebuilds the indexes that point into them.
  void ShareNodes(SharedNodes nodes);
  // The same for the NodeClaim list.
  using SharedNodeClaims = std::shared_ptr<const std::vector<api::NodeClaim>>;
  const SharedNodeClaims& shared_node_claims() const { return node_claims_; }
  void ShareNodeClaims(SharedNodeClaims node_claims);
  // How many pods and claims expansion added.
  size_t expanded_pod_count() const { return expanded_pods_.size(); }
  size_t expanded_claim_count() const { return expanded_claims_; }

  using ObjectLists =
      std::tuple<std::vector<api::NodePool>, std::vector<api::NodeClaim>,
                 std::vector<api::EC2NodeClass>, std::vector<api::Pod>, std::vector<api::Node>,
                 std::vector<api::DaemonSet>, std::vector<api::Deployment>,
                 std::vector<api::ReplicaSet>, std::vector<api::StatefulSet>, std::vector<api::Job>,
                 std::vector<api::PodDisruptionBudget>, std::vector<api::PersistentVolume>,
                 std::vector<api::PersistentVolumeClaim>, std::vector<api::StorageClass>,
                 std::vector<api::CSINode>, std::vector<api::VolumeAttachment>>;

 private:
  // Takes sorted, duplicate-free lists and builds the indexes.
  explicit ClusterSnapshot(ObjectLists objects);
  void BuildPodIndex();
  std::vector<const api::Pod*> PodsAt(const std::vector<size_t>& indexes) const;
  void BuildProviderIdIndexes();
  void BuildNodeProviderIdIndex();       // the nodes' half of BuildProviderIdIndexes
  void BuildNodeClaimProviderIdIndex();  // the NodeClaims' half

  // Its pod, node and NodeClaim lists stay empty: pods_, nodes_ and node_claims_ hold them.
  ObjectLists objects_;
  SharedNodes nodes_ = std::make_shared<const std::vector<api::Node>>();
  SharedNodeClaims node_claims_ = std::make_shared<const std::vector<api::NodeClaim>>();
  std::vector<SharedPod> pods_;
  std::vector<std::string> skipped_;
  // What the pod index finds by: node (or none), and carrying do-not-disrupt. Keys view the pods'
  // spec.nodeName, valid while pods_ holds the pods; values index into pods_.
  struct PodIndex {
    absl::flat_hash_map<std::string_view, std::vector<size_t>> by_node;
    std::vector<size_t> unbound;
    std::vector<size_t> do_not_disrupt;
    // Lists position `i` in its place, which may come before others already listed.
    void Add(const SnapshotPod& pod, size_t i);
  };
  PodIndex pod_index_;
  // Provider IDs share long prefixes ("aws:///zone/i-0..."): hashed, not compared in a tree.
  absl::flat_hash_map<std::string, size_t> node_by_provider_id_;
  absl::flat_hash_map<std::string, size_t> node_claim_by_provider_id_;
  std::set<std::string, std::less<>> expanded_pods_;  // "namespace/name"
  size_t expanded_claims_ = 0;
};

// True for kinds that live in a namespace (Pod, workloads, PDB, PVC).
template <class T>
inline constexpr bool kIsNamespaced = false;
template <>
inline constexpr bool kIsNamespaced<api::Pod> = true;
template <>
inline constexpr bool kIsNamespaced<api::DaemonSet> = true;
template <>
inline constexpr bool kIsNamespaced<api::Deployment> = true;
template <>
inline constexpr bool kIsNamespaced<api::ReplicaSet> = true;
template <>
inline constexpr bool kIsNamespaced<api::StatefulSet> = true;
template <>
inline constexpr bool kIsNamespaced<api::Job> = true;
template <>
inline constexpr bool kIsNamespaced<api::PodDisruptionBudget> = true;
template <>
inline constexpr bool kIsNamespaced<api::PersistentVolumeClaim> = true;

// Orders objects by (namespace, name).
template <class T>
bool ObjectKeyLess(const T& a, const T& b) {
  if (a.metadata.namespace_ != b.metadata.namespace_) {
    return a.metadata.namespace_ < b.metadata.namespace_;
  }
  return a.metadata.name < b.metadata.name;
}

template <class T>
const T* ClusterSnapshot::Find(std::string_view namespace_name, std::string_view name) const {
  const std::vector<T>& all = All<T>();
  auto it = std::lower_bound(
      all.begin(), all.end(), std::pair(namespace_name, name),
      [](const T& object, const std::pair<std::string_view, std::string_view>& key) {
        return std::pair<std::string_view, std::string_view>(object.metadata.namespace_,
                                                             object.metadata.name) < key;
      });
  if (it == all.end() || it->metadata.namespace_ != namespace_name || it->metadata.name != name) {
    return nullptr;
  }
  return &*it;
}

}  // namespace karpenter::state
