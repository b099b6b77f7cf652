// Upstream: Cluster Autoscaler's --balance-similar-node-groups (processors/nodegroupset:
// compare_nodegroups.go, balancing_processor.go; peers.md §1.1 step 5). After the expander has
// picked a group, the scale-up is spread over the groups that look the same to a pod — one ASG
// per zone is the usual multi-AZ layout — so their sizes stay even.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "src/provisioning/types.h"

namespace karpenter::sim {

// CA's defaults: --memory-difference-ratio 0.015, --max-allocatable-difference-ratio 0.05.
inline constexpr double kMaxMemoryDifferenceRatio = 0.015;
inline constexpr double kMaxAllocatableDifferenceRatio = 0.05;

// Two groups' template nodes are similar: the same capacity (memory within 1.5%), allocatable
// within 5%, the same labels apart from the zone, region, hostname and node-group labels that
// tell groups apart anyway, and the same taints.
bool SimilarNodeGroups(const provisioning::ExistingNodeView& a,
                       const provisioning::ExistingNodeView& b);

struct BalanceGroup {
  std::string name;
  int size = 0;  // current target size (desired)
  int max_size = 0;
};

// How many of `nodes` each group gets so their sizes come out as even as possible within their
// max sizes: the smallest groups are filled first; ties go to the earlier group in `groups`.
// Groups that get nothing are left out; the total is less than `nodes` only when every group
// is full.
std::map<std::string, int> BalanceScaleUp(const std::vector<BalanceGroup>& groups, int nodes);

}  // namespace karpenter::sim
