#include "src/controllers/nodeclaim_consistency.h"

#include <optional>
#include <variant>

#include "absl/strings/str_format.h"
#include "src/api/karpenter_labels.h"
#include "src/controllers/conditions.h"
#include "src/disruption/node_state.h"

namespace karpenter::controllers {

std::vector<std::string> NodeShapeIssues(const api::Node& node, const api::NodeClaim& claim) {
  std::vector<std::string> issues;
  if (claim.metadata.deletion_timestamp ||
      disruption::TrueCondition(claim, api::kConditionTypeInitialized) == nullptr) {
    return issues;
  }
  for (const auto& [resource, requested] : claim.spec.resources.requests) {
    auto expected = claim.status.capacity.find(resource);
    if (requested.IsZero() || expected == claim.status.capacity.end() ||
        expected->second.IsZero()) {
      continue;
    }
    auto found = node.status.capacity.find(resource);
    const api::Quantity on_node =
        found == node.status.capacity.end() ? api::Quantity() : found->second;
    const double share = on_node.AsApproximateFloat64() / expected->second.AsApproximateFloat64();
    if (share < kNodeShapeMinimumShare) {
      issues.push_back(
          absl::StrFormat("expected %s of resource %s, but found %s (%0.1f%% of expected)",
                          expected->second.String(), resource, on_node.String(), share * 100));
    }
  }
  return issues;
}

NodeClaimConsistency::NodeClaimConsistency(Clock& clock, ClusterReader& reader,
                                           ClusterWriter& writer, EventRecorder& recorder)
    : clock_(clock),
      reader_(reader),
      writer_(writer),
      recorder_(recorder),
      controller_("nodeclaim.consistency", clock,
                  [this](const std::string& name) { return Reconcile(name); }) {}

void NodeClaimConsistency::Start() {
  reader_.Watch("NodeClaim", [this](const ObjectKey& key) { controller_.Enqueue(key.name); });
  for (const api::Object& object : reader_.List("NodeClaim")) {
    controller_.Enqueue(KeyOf(object).name);
  }
}

absl::StatusOr<ReconcileResult> NodeClaimConsistency::Reconcile(const std::string& name) {
  const int64_t now = clock_.NowMillis();
  std::optional<api::Object> object = reader_.Get(ObjectKey{"NodeClaim", "", name});
  const auto* found = object ? std::get_if<api::NodeClaim>(&*object) : nullptr;
  if (found == nullptr) {
    std::erase_if(last_scanned_, [now](const auto& entry) {
      return now - entry.second >= kConsistencyScanPeriodMillis;
    });
    return ReconcileResult{};
  }
  if (found->status.provider_id.empty()) return ReconcileResult{};
  // Events in between (status writes, heartbeats of the claim's conditions) wait for the period.
  if (auto it = last_scanned_.find(found->metadata.uid);
      it != last_scanned_.end() && now - it->second < kConsistencyScanPeriodMillis) {
    return ReconcileResult{kConsistencyScanPeriodMillis - (now - it->second), false};
  }
  last_scanned_[found->metadata.uid] = now;
  // No Node yet (or several): the lifecycle controller's business; looked at next period.
  std::optional<api::Node> node = reader_.NodeByProviderId(found->status.provider_id);
  if (!node) return ReconcileResult{kConsistencyScanPeriodMillis, false};

  api::NodeClaim claim = *found;
  const std::vector<std::string> issues = NodeShapeIssues(*node, claim);
  for (const std::string& issue : issues) {
    recorder_.Publish(
        Event{ObjectReference{"NodeClaim", "", claim.metadata.name, claim.metadata.uid},
              EventType::kWarning, "FailedConsistencyCheck", issue});
  }
  ConditionSet conditions(claim.status.conditions, NodeClaimDependentConditions(), clock_,
                          claim.metadata.generation);
  const std::string_view type = api::kConditionTypeConsistentStateFound;
  bool changed = false;
  if (!issues.empty() && !conditions.IsFalse(type)) {
    conditions.SetFalse(type, "ConsistencyCheckFailed", "Consistency Check Failed");
    changed = true;
  } else if (issues.empty() && !conditions.IsTrue(type)) {
    conditions.SetTrue(type);
    changed = true;
  }
  if (changed) {
    absl::StatusOr<api::Object> written = writer_.UpdateStatus(claim);
    if (absl::IsAborted(written.status())) {
      last_scanned_.erase(claim.metadata.uid);  // read again and check again, at once
      return ReconcileResult{std::nullopt, true};
    }
    if (!written.ok() && !absl::IsNotFound(written.status())) return written.status();
  }
  return ReconcileResult{kConsistencyScanPeriodMillis, false};
}

}  // namespace karpenter::controllers
