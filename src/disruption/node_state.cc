#include "src/disruption/node_state.h"

#include <algorithm>

#include "src/api/karpenter_labels.h"
#include "src/api/taint_match.h"

namespace karpenter::disruption {

const api::Condition* TrueCondition(const api::NodeClaim& node_claim, std::string_view type) {
  for (const api::Condition& condition : node_claim.status.conditions) {
    if (condition.type == type && condition.status == "True") return &condition;
  }
  return nullptr;
}

bool IsInitialized(const api::Node& node, const api::NodeClaim& node_claim) {
  auto label = node.metadata.labels.find(api::KeyString<api::kNodeInitializedLabelKey>());
  if (label != node.metadata.labels.end() && label->second == "true") return true;
  return TrueCondition(node_claim, api::kConditionTypeInitialized) != nullptr;
}

bool IsNodeReady(const api::Node& node) {
  return std::any_of(
      node.status.conditions.begin(), node.status.conditions.end(),
      [](const api::NodeCondition& c) { return c.type == "Ready" && c.status == "True"; });
}

bool IsDeleting(const api::Node& node, const api::NodeClaim* node_claim) {
  if (node.metadata.deletion_timestamp) return true;
  if (node_claim == nullptr) return false;
  return node_claim->metadata.deletion_timestamp.has_value() ||
         TrueCondition(*node_claim, api::kConditionTypeInstanceTerminating) != nullptr;
}

bool HasDisruptedTaint(const api::Node& node) {
  return std::any_of(node.spec.taints.begin(), node.spec.taints.end(), [](const api::Taint& t) {
    return t.key == api::kDisruptedTaintKey && t.effect == api::kTaintEffectNoSchedule;
  });
}

std::string LabelOf(const api::Node& node, const api::NodeClaim* node_claim, std::string_view key) {
  const std::string k(key);
  if (auto it = node.metadata.labels.find(k); it != node.metadata.labels.end()) return it->second;
  if (node_claim == nullptr) return "";
  if (auto it = node_claim->metadata.labels.find(k); it != node_claim->metadata.labels.end()) {
    return it->second;
  }
  return "";
}

std::string NodePoolOf(const api::Node& node, const api::NodeClaim* node_claim) {
  return LabelOf(node, node_claim, api::kNodePoolLabelKey);
}

std::optional<api::Duration> ExpireAfter(const api::NodeClaim& node_claim,
                                         const api::NodePool* node_pool) {
  if (node_claim.spec.expire_after) return node_claim.spec.expire_after->duration;
  if (node_pool != nullptr && node_pool->spec.template_.spec.expire_after) {
    return node_pool->spec.template_.spec.expire_after->duration;
  }
  return api::DefaultExpireAfter().duration;
}

std::optional<api::Time> ExpirationTime(const api::NodeClaim& node_claim,
                                        const api::NodePool* node_pool) {
  const std::optional<api::Duration> expire_after = ExpireAfter(node_claim, node_pool);
  if (!expire_after || !node_claim.metadata.creation_timestamp) return std::nullopt;
  return *node_claim.metadata.creation_timestamp + *expire_after;
}

}  // namespace karpenter::disruption
