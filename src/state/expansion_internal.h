// Pieces shared by the workload expansion files (workload_expansion.cc, statefulset_expansion.cc);
// not part of the library's interface.
#pragma once

#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>

#include "src/api/pod.h"
#include "src/api/workloads.h"
#include "src/state/snapshot.h"
#include "src/state/workload_expansion.h"

namespace karpenter::state::internal {

// Names in use within one kind, so generated objects never clash with existing or earlier
// generated ones.
class TakenNames {
 public:
  bool Contains(std::string_view namespace_name, std::string_view name) const {
    return names_.contains(Key(namespace_name, name));
  }
  // Reserves the name; false when it was already taken.
  bool Take(std::string_view namespace_name, std::string_view name) {
    return names_.insert(Key(namespace_name, name)).second;
  }

 private:
  // '/' appears in neither namespaces nor names, so the joined key is unambiguous.
  static std::string Key(std::string_view namespace_name, std::string_view name) {
    std::string key(namespace_name);
    key += '/';
    key += name;
    return key;
  }
  std::set<std::string, std::less<>> names_;
};

// Pods of the snapshot in `namespace_name` (a contiguous run, since pods are sorted by namespace).
PodSpan PodsInNamespace(const ClusterSnapshot& snapshot, std::string_view namespace_name);

// Name of the default StorageClass, if the snapshot has one.
std::optional<std::string> DefaultStorageClassName(const ClusterSnapshot& snapshot);

// Adds the StatefulSet's missing pods and claims to `out`.
void ExpandStatefulSet(const ClusterSnapshot& snapshot, const api::StatefulSet& stateful_set,
                       const std::optional<std::string>& default_storage_class,
                       TakenNames& pod_names, TakenNames& claim_names, ExpandedWorkloads& out);

// Adds the claims of `pod`'s ephemeral volumes that neither the snapshot nor `claim_names` has.
void AddEphemeralClaims(const api::Pod& pod,
                        const std::optional<std::string>& default_storage_class,
                        TakenNames& claim_names, ExpandedWorkloads& out);

}  // namespace karpenter::state::internal
