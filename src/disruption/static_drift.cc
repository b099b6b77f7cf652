#include "src/disruption/static_drift.h"

#include <algorithm>
#include <limits>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/disruption/node_state.h"

namespace karpenter::disruption {

StaticPoolCounts CountStaticPoolNodeClaims(const state::ClusterSnapshot& snapshot,
                                           const std::string& pool,
                                           const std::set<std::string>& extra_deleting) {
  StaticPoolCounts counts;
  for (const api::NodeClaim& claim : snapshot.node_claims()) {
    auto label = claim.metadata.labels.find(std::string(api::kNodePoolLabelKey));
    if (label == claim.metadata.labels.end() || label->second != pool) continue;
    const api::Node* node = snapshot.NodeForNodeClaim(claim);
    const bool deleting = claim.metadata.deletion_timestamp.has_value() ||
                          (node != nullptr && (IsDeleting(*node, &claim) ||
                                               extra_deleting.contains(node->metadata.name)));
    if (deleting) {
      ++counts.deleting;
    } else if (node != nullptr && HasDisruptedTaint(*node)) {
      ++counts.pending_disruption;
    } else {
      ++counts.active;
    }
  }
  return counts;
}

StaticDriftAllowance AllowStaticDrift(const api::NodePool& pool, const StaticPoolCounts& counts,
                                      int64_t budget_remaining, int64_t drifted) {
  const int64_t replicas = pool.spec.replicas.value_or(0);
  if (counts.active + counts.pending_disruption > replicas) {
    return {0, fmt::format("it holds {} NodeClaims for {} replicas (a scale-down or an earlier "
                           "replacement is still under way)",
                           counts.active + counts.pending_disruption, replicas)};
  }
  const int64_t wanted = std::min(budget_remaining, drifted);
  auto limit = pool.spec.limits.find("nodes");
  if (limit == pool.spec.limits.end()) return {wanted, ""};
  const int64_t node_limit = limit->second.Value();
  const int64_t all = counts.active + counts.deleting + counts.pending_disruption;
  const int64_t room = std::max<int64_t>(0, node_limit - all);
  if (room >= wanted) return {wanted, ""};
  return {room, fmt::format("limits.nodes {} leaves room for {} replacement{} beside its {} "
                            "NodeClaims",
                            node_limit, room, room == 1 ? "" : "s", all)};
}

}  // namespace karpenter::disruption
