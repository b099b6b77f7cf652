// First fit without walking full nodes. A solve tries existing nodes in a fixed order and takes
// the first that accepts the pod; on a large cluster most nodes are too full for it, and
// `ExistingNode::MayFit` rules each out only after a visit. This index keeps, over that order,
// the largest headroom (cpu, memory, pod slots, each on its own) of every range of nodes, so a
// search skips whole ranges in which no node may hold the pod. The answer is the same node the
// walk would reach first, since the walk skips exactly the nodes MayFit rules out.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "src/provisioning/instance_filter.h"

namespace karpenter::provisioning {

class RoomIndex {
 public:
  RoomIndex() = default;
  explicit RoomIndex(std::span<const ResourceFootprint> rooms);

  size_t size() const { return size_; }
  void Set(size_t index, const ResourceFootprint& room);
  // The node is never offered again (a removed node).
  void Close(size_t index);
  // The first index at or after `from` whose room may hold `need` (cpu, memory and pod slots
  // each at least need's), or size() when there is none.
  size_t FirstFit(size_t from, const ResourceFootprint& need) const;

 private:
  size_t Search(size_t node, size_t begin, size_t end, size_t from,
                const ResourceFootprint& need) const;

  size_t size_ = 0;
  size_t leaves_ = 0;                   // size_ rounded up to a power of two
  std::vector<ResourceFootprint> max_;  // Heap order: 1 is the root, leaves from leaves_.
};

}  // namespace karpenter::provisioning
