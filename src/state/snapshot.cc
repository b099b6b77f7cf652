#include "src/state/snapshot.h"

#include <algorithm>
#include <cctype>
#include <utility>
#include <variant>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/pod_resources.h"
#include "src/state/expansion_limit.h"
#include "src/state/pod_predicates.h"
#include "src/state/workload_expansion.h"

namespace karpenter::state {
namespace {

template <class T>
struct Entry {
  T object;
  std::string origin;
};

template <class Lists>
struct EntryListsOf;
template <class... T>
struct EntryListsOf<std::tuple<std::vector<T>...>> {
  using type = std::tuple<std::vector<Entry<T>>...>;
};
using EntryLists = EntryListsOf<ClusterSnapshot::ObjectLists>::type;

std::string KeyText(const api::ObjectMeta& metadata) {
  if (metadata.namespace_.empty()) return metadata.name;
  return metadata.namespace_ + "/" + metadata.name;
}

// Cluster-scoped objects carry no namespace (the API server drops one); namespaced objects
// without one land in "default", as `kubectl apply` puts them.
template <class T>
void NormalizeNamespace(T& object) {
  if constexpr (kIsNamespaced<T>) {
    if (object.metadata.namespace_.empty()) object.metadata.namespace_ = "default";
  } else {
    object.metadata.namespace_.clear();
  }
}

absl::Status AddEntry(SourcedObject sourced, EntryLists& lists) {
  return std::visit(
      [&](auto& typed) -> absl::Status {
        using T = std::decay_t<decltype(typed)>;
        NormalizeNamespace(typed);
        if (typed.metadata.name.empty()) {
          return absl::InvalidArgumentError(
              fmt::format("{}: {} has no metadata.name", sourced.origin, typed.kind));
        }
        std::get<std::vector<Entry<T>>>(lists).push_back(
            Entry<T>{std::move(typed), std::move(sourced.origin)});
        return absl::OkStatus();
      },
      sourced.object);
}

// Orders "a.yaml:9" before "a.yaml:10": digit runs compare by value.
bool NaturalLess(std::string_view a, std::string_view b) {
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t end_a = i;
      size_t end_b = j;
      while (end_a < a.size() && std::isdigit(static_cast<unsigned char>(a[end_a]))) ++end_a;
      while (end_b < b.size() && std::isdigit(static_cast<unsigned char>(b[end_b]))) ++end_b;
      std::string_view run_a = a.substr(i, end_a - i);
      std::string_view run_b = b.substr(j, end_b - j);
      while (run_a.size() > 1 && run_a.front() == '0') run_a.remove_prefix(1);
      while (run_b.size() > 1 && run_b.front() == '0') run_b.remove_prefix(1);
      if (run_a.size() != run_b.size()) return run_a.size() < run_b.size();
      if (run_a != run_b) return run_a < run_b;
      i = end_a;
      j = end_b;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  if ((a.size() - i) != (b.size() - j)) return a.size() - i < b.size() - j;
  return a < b;
}

// Sorts by key (origin breaks ties so the duplicate message does not depend on input order)
// and refuses two objects with the same key.
template <class T>
absl::Status SortAndCheckUnique(std::vector<Entry<T>>& entries) {
  std::sort(entries.begin(), entries.end(), [](const Entry<T>& a, const Entry<T>& b) {
    if (ObjectKeyLess(a.object, b.object)) return true;
    if (ObjectKeyLess(b.object, a.object)) return false;
    return NaturalLess(a.origin, b.origin);
  });
  for (size_t i = 1; i < entries.size(); ++i) {
    const T& previous = entries[i - 1].object;
    const T& current = entries[i].object;
    if (ObjectKeyLess(previous, current)) continue;
    return absl::InvalidArgumentError(fmt::format("duplicate {} {}: defined at {} and at {}",
                                                  current.kind, KeyText(current.metadata),
                                                  entries[i - 1].origin, entries[i].origin));
  }
  return absl::OkStatus();
}

template <class T>
std::vector<T> TakeObjects(std::vector<Entry<T>>& entries) {
  std::vector<T> objects;
  objects.reserve(entries.size());
  for (Entry<T>& entry : entries) objects.push_back(std::move(entry.object));
  return objects;
}

absl::StatusOr<ClusterSnapshot::ObjectLists> SortedUniqueLists(std::vector<SourcedObject> sourced) {
  EntryLists lists;
  for (SourcedObject& object : sourced) KP_RETURN_IF_ERROR(AddEntry(std::move(object), lists));
  absl::Status status = std::apply(
      [](auto&... entries) {
        absl::Status first;
        ((first.ok() ? first = SortAndCheckUnique(entries) : first), ...);
        return first;
      },
      lists);
  KP_RETURN_IF_ERROR(status);
  return std::apply(
      [](auto&... entries) { return ClusterSnapshot::ObjectLists(TakeObjects(entries)...); },
      lists);
}

// The object a list entry holds: itself, or the pod a shared pod holds.
template <class T>
const T& ObjectOf(const T& object) {
  return object;
}
const api::Pod& ObjectOf(const SharedPod& pod) { return pod->pod; }

// Expansion never reuses a taken name, so a clash here is a bug in expansion, not bad input.
template <class Entry>
absl::Status MergeGenerated(std::vector<Entry>& existing, std::vector<Entry> generated) {
  const auto less = [](const Entry& a, const Entry& b) {
    return ObjectKeyLess(ObjectOf(a), ObjectOf(b));
  };
  for (Entry& entry : generated) existing.push_back(std::move(entry));
  std::stable_sort(existing.begin(), existing.end(), less);
  for (size_t i = 1; i < existing.size(); ++i) {
    if (less(existing[i - 1], existing[i])) continue;
    return absl::InternalError(fmt::format("workload expansion produced a second {} {}",
                                           ObjectOf(existing[i]).kind,
                                           KeyText(ObjectOf(existing[i]).metadata)));
  }
  return absl::OkStatus();
}

std::string Origin(const api::Manifest& manifest, size_t index) {
  if (manifest.line > 0) return fmt::format("{}:{}", manifest.source, manifest.line);
  return fmt::format("{} (item {})", manifest.source, index + 1);
}

// Holds each pod by pointer, charged once, in the list's order.
std::vector<SharedPod> SharePods(std::vector<api::Pod> pods) {
  std::vector<SharedPod> shared;
  shared.reserve(pods.size());
  for (api::Pod& pod : pods) shared.push_back(std::make_shared<const SnapshotPod>(std::move(pod)));
  return shared;
}

bool AsksForHostPorts(const api::Pod& pod) {
  for (const api::Container& container : pod.spec.containers) {
    for (const api::ContainerPort& port : container.ports) {
      if (port.host_port > 0) return true;
    }
  }
  return false;
}

bool ClaimsVolumes(const api::Pod& pod) {
  return std::any_of(pod.spec.volumes.begin(), pod.spec.volumes.end(), [](const api::Volume& v) {
    return v.persistent_volume_claim.has_value() || v.ephemeral.has_value();
  });
}

}  // namespace

SnapshotPod::SnapshotPod(api::Pod pod_in)
    : pod(std::move(pod_in)),
      charge{.requests = api::PodRequests(pod),
             .terminal = IsTerminal(pod),
             .daemon = IsOwnedByDaemonSet(pod),
             .reschedulable = IsReschedulable(pod),
             .do_not_disrupt = pod.metadata.annotations.contains(
                 api::KeyString<api::kDoNotDisruptAnnotationKey>()),
             .host_ports = AsksForHostPorts(pod),
             .claims_volumes = ClaimsVolumes(pod)} {}

ClusterSnapshot::ClusterSnapshot(ObjectLists objects) : objects_(std::move(objects)) {
  pods_ = SharePods(std::move(std::get<std::vector<api::Pod>>(objects_)));
  std::get<std::vector<api::Pod>>(objects_).clear();
  nodes_ = std::make_shared<const std::vector<api::Node>>(
      std::move(std::get<std::vector<api::Node>>(objects_)));
  std::get<std::vector<api::Node>>(objects_).clear();
  node_claims_ = std::make_shared<const std::vector<api::NodeClaim>>(
      std::move(std::get<std::vector<api::NodeClaim>>(objects_)));
  std::get<std::vector<api::NodeClaim>>(objects_).clear();
  BuildPodIndex();
  BuildProviderIdIndexes();
}

void ClusterSnapshot::ShareNodes(SharedNodes nodes) {
  nodes_ = std::move(nodes);
  BuildNodeProviderIdIndex();
}

void ClusterSnapshot::ShareNodeClaims(SharedNodeClaims node_claims) {
  node_claims_ = std::move(node_claims);
  BuildNodeClaimProviderIdIndex();
}

absl::StatusOr<ClusterSnapshot> ClusterSnapshot::FromManifests(std::vector<api::Manifest> manifests,
                                                               const SnapshotOptions& options) {
  std::vector<SourcedObject> objects;
  std::vector<std::string> skipped;
  objects.reserve(manifests.size());
  for (size_t i = 0; i < manifests.size(); ++i) {
    api::Manifest& manifest = manifests[i];
    if (!manifest.object.has_value()) {
      skipped.push_back(fmt::format("{} ({})", manifest.Ref(), Origin(manifest, i)));
      continue;
    }
    objects.push_back(SourcedObject{std::move(*manifest.object), Origin(manifest, i)});
  }
  KP_ASSIGN_OR_RETURN(ClusterSnapshot snapshot, FromObjects(std::move(objects), options));
  snapshot.skipped_ = std::move(skipped);
  return snapshot;
}

absl::StatusOr<ClusterSnapshot> ClusterSnapshot::FromObjects(std::vector<SourcedObject> objects,
                                                             const SnapshotOptions& options) {
  KP_ASSIGN_OR_RETURN(ObjectLists lists, SortedUniqueLists(std::move(objects)));
  ClusterSnapshot snapshot(std::move(lists));
  if (!options.expand_workloads) return snapshot;

  KP_RETURN_IF_ERROR(CheckExpansionSize(snapshot));
  ExpandedWorkloads expanded = ExpandWorkloads(snapshot);
  if (expanded.pods.empty() && expanded.claims.empty()) return snapshot;
  std::set<std::string, std::less<>> expanded_pods;
  for (const api::Pod& pod : expanded.pods) expanded_pods.insert(KeyText(pod.metadata));
  const size_t expanded_claims = expanded.claims.size();
  KP_RETURN_IF_ERROR(
      MergeGenerated(std::get<std::vector<api::PersistentVolumeClaim>>(snapshot.objects_),
                     std::move(expanded.claims)));
  KP_RETURN_IF_ERROR(MergeGenerated(snapshot.pods_, SharePods(std::move(expanded.pods))));
  snapshot.BuildPodIndex();
  snapshot.expanded_pods_ = std::move(expanded_pods);
  snapshot.expanded_claims_ = expanded_claims;
  return snapshot;
}

void ClusterSnapshot::PodIndex::Add(const SnapshotPod& pod, size_t i) {
  // A build adds positions in order (an append); a carry-over adds changed pods among others.
  const auto add = [i](std::vector<size_t>& list) {
    if (list.empty() || list.back() < i) {
      list.push_back(i);
    } else {
      list.insert(std::upper_bound(list.begin(), list.end(), i), i);
    }
  };
  if (pod.pod.spec.node_name.empty()) {
    add(unbound);
  } else {
    add(by_node[pod.pod.spec.node_name]);
  }
  if (pod.charge.do_not_disrupt) add(do_not_disrupt);
}

void ClusterSnapshot::BuildPodIndex() {
  PodIndex index;
  index.by_node.reserve(nodes().size());
  for (size_t i = 0; i < pods_.size(); ++i) index.Add(*pods_[i], i);
  pod_index_ = std::move(index);
}

// Lists are sorted by name, so emplace keeps the first by name for a shared provider ID.
void ClusterSnapshot::BuildNodeProviderIdIndex() {
  node_by_provider_id_.clear();
  const std::vector<api::Node>& all_nodes = nodes();
  node_by_provider_id_.reserve(all_nodes.size());
  for (size_t i = 0; i < all_nodes.size(); ++i) {
    const std::string& id = all_nodes[i].spec.provider_id;
    if (!id.empty()) node_by_provider_id_.emplace(id, i);
  }
}

void ClusterSnapshot::BuildProviderIdIndexes() {
  BuildNodeProviderIdIndex();
  BuildNodeClaimProviderIdIndex();
}

void ClusterSnapshot::BuildNodeClaimProviderIdIndex() {
  node_claim_by_provider_id_.clear();
  const std::vector<api::NodeClaim>& all_claims = node_claims();
  node_claim_by_provider_id_.reserve(all_claims.size());
  for (size_t i = 0; i < all_claims.size(); ++i) {
    const std::string& id = all_claims[i].status.provider_id;
    if (!id.empty()) node_claim_by_provider_id_.emplace(id, i);
  }
}

absl::Status ClusterSnapshot::ReplacePods(std::vector<SharedPod> pods) {
  if (!expanded_pods_.empty() || expanded_claims_ != 0) {
    return absl::FailedPreconditionError("ReplacePods on a snapshot with expanded workloads");
  }
  // One pass over the pods (which live apart in memory) both checks them and indexes them.
  PodIndex index;
  index.by_node.reserve(nodes().size());
  for (size_t i = 0; i < pods.size(); ++i) {
    const api::Pod& pod = pods[i]->pod;
    if (pod.metadata.namespace_.empty() || pod.metadata.name.empty()) {
      return absl::InvalidArgumentError(
          fmt::format("ReplacePods: pod {} has no namespace or name", i));
    }
    if (i > 0 && !ObjectKeyLess(pods[i - 1]->pod, pod)) {
      return absl::InvalidArgumentError(
          fmt::format("ReplacePods: pod {} is out of order or repeated", KeyText(pod.metadata)));
    }
    index.Add(*pods[i], i);
  }
  pods_ = std::move(pods);
  pod_index_ = std::move(index);
  return absl::OkStatus();
}

absl::Status ClusterSnapshot::CarryPodsOver(const ClusterSnapshot& from,
                                            std::vector<PodChange> changes) {
  if (!expanded_pods_.empty() || expanded_claims_ != 0 || !from.expanded_pods_.empty() ||
      from.expanded_claims_ != 0) {
    return absl::FailedPreconditionError("CarryPodsOver on a snapshot with expanded workloads");
  }
  using Key = std::pair<std::string_view, std::string_view>;
  const auto key_of = [](const api::ObjectMeta& metadata) {
    return Key(metadata.namespace_, metadata.name);
  };
  for (size_t i = 0; i < changes.size(); ++i) {
    const PodChange& change = changes[i];
    const Key key(change.namespace_, change.name);
    if (change.namespace_.empty() || change.name.empty()) {
      return absl::InvalidArgumentError(
          fmt::format("CarryPodsOver: change {} has no namespace or name", i));
    }
    if (i > 0 && !(Key(changes[i - 1].namespace_, changes[i - 1].name) < key)) {
      return absl::InvalidArgumentError(fmt::format(
          "CarryPodsOver: change {}/{} is out of order or repeated", key.first, key.second));
    }
    if (change.pod != nullptr && key_of(change.pod->pod.metadata) != key) {
      return absl::InvalidArgumentError(fmt::format("CarryPodsOver: change {}/{} holds pod {}",
                                                    key.first, key.second,
                                                    KeyText(change.pod->pod.metadata)));
    }
  }
  // The new list is the old one's runs between the changes, with the changed pods in their
  // places; `moved_to` maps an old position to its new one.
  const std::vector<SharedPod>& old = from.pods_;
  constexpr size_t kGone = static_cast<size_t>(-1);
  std::vector<size_t> moved_to(old.size(), kGone);
  std::vector<SharedPod> pods;
  pods.reserve(old.size() + changes.size());
  std::vector<size_t> added;
  size_t next = 0;  // the first old pod not yet carried over or dropped
  const auto carry_to = [&](size_t end) {
    for (; next < end; ++next) {
      moved_to[next] = pods.size();
      pods.push_back(old[next]);
    }
  };
  for (PodChange& change : changes) {
    const Key key(change.namespace_, change.name);
    auto at = std::lower_bound(old.begin() + static_cast<std::ptrdiff_t>(next), old.end(), key,
                               [&](const SharedPod& pod, const Key& wanted) {
                                 return key_of(pod->pod.metadata) < wanted;
                               });
    carry_to(static_cast<size_t>(at - old.begin()));
    if (at != old.end() && key_of((*at)->pod.metadata) == key) ++next;  // replaced or gone
    if (change.pod == nullptr) continue;
    added.push_back(pods.size());
    pods.push_back(std::move(change.pod));
  }
  carry_to(old.size());

  const auto carried = [&](const std::vector<size_t>& positions) {
    std::vector<size_t> out;
    out.reserve(positions.size());
    for (size_t position : positions) {
      if (moved_to[position] != kGone) out.push_back(moved_to[position]);
    }
    return out;
  };
  PodIndex index;
  index.by_node.reserve(from.pod_index_.by_node.size());
  for (const auto& [node, positions] : from.pod_index_.by_node) {
    std::vector<size_t> list = carried(positions);
    if (list.empty()) continue;
    // The key views a pod of this snapshot, which may outlive `from`.
    index.by_node.emplace(pods[list.front()]->pod.spec.node_name, std::move(list));
  }
  index.unbound = carried(from.pod_index_.unbound);
  index.do_not_disrupt = carried(from.pod_index_.do_not_disrupt);
  for (size_t position : added) index.Add(*pods[position], position);
  pods_ = std::move(pods);
  pod_index_ = std::move(index);
  return absl::OkStatus();
}

const api::Pod* ClusterSnapshot::FindPod(std::string_view namespace_name,
                                         std::string_view name) const {
  const std::pair<std::string_view, std::string_view> key(namespace_name, name);
  auto it = std::lower_bound(
      pods_.begin(), pods_.end(), key, [](const SharedPod& pod, const auto& wanted) {
        return std::pair<std::string_view, std::string_view>(pod->pod.metadata.namespace_,
                                                             pod->pod.metadata.name) < wanted;
      });
  if (it == pods_.end() || (*it)->pod.metadata.namespace_ != namespace_name ||
      (*it)->pod.metadata.name != name) {
    return nullptr;
  }
  return &(*it)->pod;
}

std::vector<const api::Pod*> ClusterSnapshot::PodsAt(const std::vector<size_t>& indexes) const {
  std::vector<const api::Pod*> result;
  result.reserve(indexes.size());
  for (size_t index : indexes) result.push_back(&pods_[index]->pod);
  return result;
}

std::vector<const api::Pod*> ClusterSnapshot::PodsOnNode(std::string_view node_name) const {
  auto it = pod_index_.by_node.find(node_name);
  if (it == pod_index_.by_node.end()) return {};
  return PodsAt(it->second);
}

std::vector<const SharedPod*> ClusterSnapshot::SharedPodsOnNode(std::string_view node_name) const {
  std::vector<const SharedPod*> result;
  auto it = pod_index_.by_node.find(node_name);
  if (it == pod_index_.by_node.end()) return result;
  result.reserve(it->second.size());
  for (size_t index : it->second) result.push_back(&pods_[index]);
  return result;
}

std::vector<const api::Pod*> ClusterSnapshot::PodsWithDoNotDisrupt() const {
  return PodsAt(pod_index_.do_not_disrupt);
}

std::vector<const api::Pod*> ClusterSnapshot::UnboundPods() const {
  return PodsAt(pod_index_.unbound);
}

std::vector<std::string> ClusterSnapshot::NodeNamesWithPods() const {
  std::vector<std::string> names;
  names.reserve(pod_index_.by_node.size());
  for (const auto& [name, unused] : pod_index_.by_node) names.emplace_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

const api::NodeClaim* ClusterSnapshot::NodeClaimForNode(const api::Node& node) const {
  auto it = node_claim_by_provider_id_.find(node.spec.provider_id);
  if (it == node_claim_by_provider_id_.end()) return nullptr;
  return &node_claims()[it->second];
}

const api::Node* ClusterSnapshot::NodeForNodeClaim(const api::NodeClaim& node_claim) const {
  auto it = node_by_provider_id_.find(node_claim.status.provider_id);
  if (it == node_by_provider_id_.end()) return nullptr;
  return &nodes()[it->second];
}

const api::StorageClass* ClusterSnapshot::DefaultStorageClass() const {
  const api::StorageClass* best = nullptr;
  for (const api::StorageClass& storage_class : storage_classes()) {
    auto it =
        storage_class.metadata.annotations.find(std::string(kDefaultStorageClassAnnotationKey));
    if (it == storage_class.metadata.annotations.end() || it->second != "true") continue;
    // Strictly newer wins, so among equals the first by name stays.
    if (best == nullptr || storage_class.metadata.creation_timestamp.value_or(api::Time()) >
                               best->metadata.creation_timestamp.value_or(api::Time())) {
      best = &storage_class;
    }
  }
  return best;
}

bool ClusterSnapshot::IsExpanded(const api::Pod& pod) const {
  return expanded_pods_.contains(KeyText(pod.metadata));
}

}  // namespace karpenter::state
