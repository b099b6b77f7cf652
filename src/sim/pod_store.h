// The twin's pods by key, with the indexes its controllers and kube-scheduler model ask for on
// every event: the pods bound to each node, the pods of each owner, and the unbound pods. A
// 20,000-pod cluster answers these without a scan of every pod.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/api/manifest.h"
#include "src/sim/event_queue.h"
#include "src/sim/pod_sets.h"

namespace karpenter::sim {

struct PodRecord {
  api::Pod pod;
  SimMillis created_at = 0;
  bool measured = true;        // false for the pods of the initial manifests and DaemonSets
  std::optional<PodSet> set;   // none for the initial manifests' and DaemonSets' pods
  std::string owner;           // "namespace/name" of its Deployment or Job, or empty
  bool job = false;            // owned by a Job: runs for the Job's run time, then succeeds
  bool stateful_set = false;   // owned by a StatefulSet: named <set>-<ordinal>
  bool unschedulable = false;  // the last scheduling pass could not place it
  // Some pass could not place it: it waited for capacity, so its pending time is measured.
  bool waited_for_capacity = false;
  // Evicted and shutting down (deletionTimestamp set): it keeps its node's resources until
  // then, its controller has already replaced it (a StatefulSet waits for the name). -1: live.
  SimMillis terminating_until = -1;
  bool terminating() const { return terminating_until >= 0; }
};

// A pod's node changes only through Bind, and its owner never: the indexes stay true as long as
// records are added, bound and erased through this class. Every list is in key order, the order
// in which all() iterates, so a caller that switches from a scan to an index decides alike.
class PodStore {
 public:
  using Map = std::map<std::string, PodRecord>;
  // Pods by key; the keys are views of the map's own keys.
  using Index = std::map<std::string_view, PodRecord*>;

  PodStore() = default;
  // The indexes point into the map.
  PodStore(const PodStore&) = delete;
  PodStore& operator=(const PodStore&) = delete;

  const Map& all() const { return pods_; }
  Map::iterator find(const std::string& key) { return pods_.find(key); }
  Map::const_iterator find(const std::string& key) const { return pods_.find(key); }
  Map::iterator end() { return pods_.end(); }
  Map::const_iterator end() const { return pods_.end(); }
  bool contains(const std::string& key) const { return pods_.contains(key); }
  PodRecord& at(const std::string& key) { return pods_.at(key); }
  const PodRecord& at(const std::string& key) const { return pods_.at(key); }

  // Adds the record under `key`, or replaces the one there.
  PodRecord& Put(const std::string& key, PodRecord record);
  void Erase(Map::iterator it);
  // Binds the pod to `node_name`.
  void Bind(Map::iterator it, const std::string& node_name);

  // The lists below stay valid until the store next changes: collect keys before changing it.
  // Every pod bound to the node, DaemonSet pods included.
  const Index& OnNode(std::string_view node_name) const;
  // The node's pods that no DaemonSet owns.
  const Index& WorkloadOn(std::string_view node_name) const;
  // The pods whose PodRecord::owner is `owner` (Deployments, Jobs and StatefulSets alike).
  const Index& OwnedBy(std::string_view owner) const;
  const Index& Unbound() const { return unbound_; }
  // The requests of every pod bound to a node (DaemonSet and terminating pods included), kept
  // as pods bind and go: the report's utilisation without a scan of every pod per sample.
  int64_t bound_milli_cpu() const { return bound_milli_cpu_; }
  int64_t bound_memory_bytes() const { return bound_memory_bytes_; }

  // Empty when every index agrees with a scan of all(); else what differs first (tests).
  std::string IndexMismatch() const;

 private:
  void Add(Map::iterator it);
  void Remove(Map::iterator it);
  // Adds (+1) or removes (-1) a bound pod's cpu and memory requests from the totals.
  void AddBoundRequests(const api::Pod& pod, int direction);
  // Looked up by string_view without building a string.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view name) const { return std::hash<std::string_view>()(name); }
  };
  using Indexes = std::unordered_map<std::string, Index, NameHash, std::equal_to<>>;
  static const Index& Lookup(const Indexes& indexes, std::string_view name);

  Map pods_;
  Indexes on_node_;
  Indexes workload_on_;
  Indexes owned_by_;
  Index unbound_;
  int64_t bound_milli_cpu_ = 0;
  int64_t bound_memory_bytes_ = 0;
};

}  // namespace karpenter::sim
