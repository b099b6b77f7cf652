// Which of a solve's topology groups select a pod, remembered per distinct (namespace, labels).
// Every placement counts its pod in the groups that select it, and every group selects by
// namespace and labels only. A solve's tens of thousands of pending pods come from a few
// workloads and so share a handful of label sets: each (label set, group) pair is matched once
// here instead of once per placement.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "src/api/pod.h"
#include "src/provisioning/topology_group.h"

namespace karpenter::provisioning {

// Dense ids for pods' (namespace, labels): equal pairs get equal ids.
class LabelSets {
 public:
  // The id of the pod's namespace and labels. The pod must outlive the LabelSets.
  uint32_t IdOf(const api::Pod& pod);
  // The first pod given the id: its namespace and labels are the set's.
  const api::Pod& Representative(uint32_t id) const { return *representatives_[id]; }
  size_t size() const { return representatives_.size(); }

 private:
  struct Key {
    const std::string* name_space;
    const std::map<std::string, std::string>* labels;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const;
  };
  struct KeyEq {
    bool operator()(const Key& a, const Key& b) const;
  };

  absl::flat_hash_map<Key, uint32_t, KeyHash, KeyEq> ids_;
  std::vector<const api::Pod*> representatives_;
};

// For one list of groups that only ever grows at the end, which of them select each label set.
class GroupSelections {
 public:
  // Ascending indices into `groups` of the groups whose selector picks `label_set`'s pods
  // (TopologyGroup::Selects). Groups appended since the last call are matched now. The reference
  // is valid until the next call.
  const std::vector<size_t>& Selecting(uint32_t label_set, const LabelSets& label_sets,
                                       std::span<const std::unique_ptr<TopologyGroup>> groups);

 private:
  struct Entry {
    size_t checked = 0;  // Groups [0, checked) have been matched.
    std::vector<size_t> selecting;
  };
  std::vector<Entry> entries_;  // By label set.
};

}  // namespace karpenter::provisioning
