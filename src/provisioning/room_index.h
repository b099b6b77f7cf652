// First fit without walking full nodes. A solve tries existing nodes in a fixed order and takes
// the first that accepts the pod; on a large cluster most nodes are too full for it, and
// `ExistingNode::MayFit` rules each out only after a visit. This index keeps, over that order,
// the largest headroom (cpu, memory, pod slots, each on its own) of every range of nodes, so a
// search skips whole ranges in which no node may hold the pod. The answer is the same node the
// walk would reach first, since the walk skips exactly the nodes MayFit rules out.
//
// Maxima taken per resource let a range pass when one node has the cpu and another the memory,
// which is the rule on a packed cluster, not the exception: a consolidation's moved pods mostly
// fit nowhere, and such a failing search used to visit hundreds of ranges. So each range also
// keeps, for a few memory-per-cpu ratios, the largest min(cpu × ratio, memory) of its nodes: a
// node that holds the pod scores at least the pod's own min(cpu × ratio, memory) at every ratio,
// so a range scoring less at any ratio holds no such node.
#pragma once

#include <array>
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
  // Memory per cpu (GiB per core) of the balanced scores: from compute- to memory-heavy shapes.
  static constexpr std::array<double, 6> kGibPerCore = {0.5, 1, 2, 4, 8, 16};

  // What a range of nodes may hold: the per-resource maxima and the best balanced scores.
  struct Summary {
    ResourceFootprint max;
    std::array<double, kGibPerCore.size()> balanced;
  };
  static Summary Of(const ResourceFootprint& room);
  static Summary Larger(const Summary& a, const Summary& b);
  static bool MayHold(const Summary& range, const Summary& need);

  size_t Search(size_t node, size_t begin, size_t end, size_t from, const Summary& need) const;

  size_t size_ = 0;
  size_t leaves_ = 0;          // size_ rounded up to a power of two
  std::vector<Summary> tree_;  // Heap order: 1 is the root, leaves from leaves_.
};

}  // namespace karpenter::provisioning
