#include "src/controllers/nodeclaim_lifecycle.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "src/api/karpenter_labels.h"
#include "src/controllers/disrupted_metrics.h"
#include "src/controllers/object_fields.h"

namespace karpenter::controllers {
namespace {

// Upstream's lifecycle work queue: per-key backoff from 1 s to 1 minute.
constexpr RateLimits kLifecycleRateLimits{1000, 60 * 1000, 10, 100};

std::optional<api::NodeClaim> GetNodeClaim(const ClusterReader& reader, const std::string& name) {
  std::optional<api::Object> object = reader.Get(ObjectKey{"NodeClaim", "", name});
  if (!object) return std::nullopt;
  if (auto* claim = std::get_if<api::NodeClaim>(&*object)) return std::move(*claim);
  return std::nullopt;
}

bool HasFinalizer(const api::ObjectMeta& meta, std::string_view finalizer) {
  return std::find(meta.finalizers.begin(), meta.finalizers.end(), finalizer) !=
         meta.finalizers.end();
}

// A merge patch that replaces the finalizer list, guarded by the resourceVersion it was read
// at (a list in a merge patch is replaced whole, so a concurrent change must not be lost).
std::string FinalizersPatch(const api::ObjectMeta& meta, std::vector<std::string> finalizers) {
  nlohmann::json patch;
  patch["metadata"]["resourceVersion"] = meta.resource_version;
  patch["metadata"]["finalizers"] = std::move(finalizers);
  return patch.dump();
}

// The entries of `after` that differ from `before`, and nulls for the keys it dropped.
nlohmann::json MapDiff(const std::map<std::string, std::string>& before,
                       const std::map<std::string, std::string>& after) {
  nlohmann::json diff = nlohmann::json::object();
  for (const auto& [key, value] : after) {
    auto it = before.find(key);
    if (it == before.end() || it->second != value) diff[key] = value;
  }
  for (const auto& [key, value] : before) {
    if (!after.contains(key)) diff[key] = nullptr;
  }
  return diff;
}

ReconcileResult Min(const ReconcileResult& a, const ReconcileResult& b) {
  ReconcileResult result;
  result.requeue = a.requeue || b.requeue;
  if (a.requeue_after_millis && b.requeue_after_millis) {
    result.requeue_after_millis = std::min(*a.requeue_after_millis, *b.requeue_after_millis);
  } else {
    result.requeue_after_millis =
        a.requeue_after_millis ? a.requeue_after_millis : b.requeue_after_millis;
  }
  return result;
}

ReconcileResult Requeue() { return ReconcileResult{std::nullopt, true}; }

}  // namespace

std::string_view TerminationMode(const api::NodeClaim& claim) {
  if (!claim.spec.termination_grace_period) return "graceful";
  return claim.spec.termination_grace_period->value.Nanos() <= 0 ? "forceful" : "eventual";
}

NodeClaimLifecycle::NodeClaimLifecycle(LifecycleSeams seams)
    : seams_(seams),
      controller_(
          "nodeclaim.lifecycle", seams.clock,
          [this](const std::string& name) { return Reconcile(name); }, kLifecycleRateLimits) {}

void NodeClaimLifecycle::Start() {
  seams_.reader.Watch("NodeClaim", [this](const ObjectKey& key) { controller_.Enqueue(key.name); });
  // A Node's changes concern the NodeClaim with its providerID (registration, readiness,
  // taints removed, deletion finished).
  seams_.reader.Watch("Node", [this](const ObjectKey& key) {
    std::optional<api::Object> object = seams_.reader.Get(key);
    const auto* node = object ? std::get_if<api::Node>(&*object) : nullptr;
    if (node == nullptr) {
      // A deleted Node can no longer be read: its claim is the one it last belonged to. A
      // claim being finalized waits for exactly this event.
      if (auto it = claim_of_node_.find(key.name); it != claim_of_node_.end()) {
        controller_.Enqueue(it->second);
        claim_of_node_.erase(it);
      }
      return;
    }
    if (node->spec.provider_id.empty()) return;
    if (std::optional<api::NodeClaim> claim =
            seams_.reader.NodeClaimByProviderId(node->spec.provider_id)) {
      claim_of_node_[key.name] = claim->metadata.name;
      controller_.Enqueue(claim->metadata.name);
    }
  });
  for (const api::Object& object : seams_.reader.List("NodeClaim")) {
    controller_.Enqueue(KeyOf(object).name);
  }
}

absl::StatusOr<ReconcileResult> NodeClaimLifecycle::Reconcile(const std::string& name) {
  std::optional<api::NodeClaim> claim = GetNodeClaim(seams_.reader, name);
  if (!claim) return ReconcileResult{};
  if (claim->metadata.deletion_timestamp) return Finalize(*claim);

  if (!HasFinalizer(claim->metadata, api::kTerminationFinalizer)) {
    std::vector<std::string> finalizers = claim->metadata.finalizers;
    finalizers.emplace_back(api::kTerminationFinalizer);
    absl::StatusOr<api::Object> patched = seams_.writer.MergePatch(
        ObjectKey{"NodeClaim", "", name}, FinalizersPatch(claim->metadata, finalizers));
    if (absl::IsAborted(patched.status())) return Requeue();
    if (absl::IsNotFound(patched.status())) return ReconcileResult{};
    if (!patched.ok()) return patched.status();
    claim = std::get<api::NodeClaim>(std::move(*patched));
  }

  const api::NodeClaim stored = *claim;
  ConditionSet conditions(claim->status.conditions, NodeClaimDependentConditions(), seams_.clock,
                          claim->metadata.generation);
  ReconcileResult result{std::nullopt, false};
  bool first = true;
  absl::Status failed;
  using Step =
      absl::StatusOr<ReconcileResult> (NodeClaimLifecycle::*)(api::NodeClaim&, ConditionSet&);
  for (Step step : {&NodeClaimLifecycle::Launch, &NodeClaimLifecycle::Register,
                    &NodeClaimLifecycle::Initialize, &NodeClaimLifecycle::CheckLiveness}) {
    absl::StatusOr<ReconcileResult> step_result = (this->*step)(*claim, conditions);
    if (!step_result.ok()) {
      if (failed.ok()) failed = step_result.status();
      continue;
    }
    result = first ? *step_result : Min(result, *step_result);
    first = false;
  }
  if (absl::Status written = WriteChanges(stored, *claim); !written.ok()) {
    return absl::IsNotFound(written) ? failed : written;
  }
  if (!failed.ok()) return failed;
  return result;
}

absl::Status NodeClaimLifecycle::WriteChanges(const api::NodeClaim& stored,
                                              const api::NodeClaim& claim) {
  const ObjectKey key{"NodeClaim", "", claim.metadata.name};
  nlohmann::json labels = MapDiff(stored.metadata.labels, claim.metadata.labels);
  nlohmann::json annotations = MapDiff(stored.metadata.annotations, claim.metadata.annotations);
  if (!labels.empty() || !annotations.empty()) {
    nlohmann::json patch;
    if (!labels.empty()) patch["metadata"]["labels"] = std::move(labels);
    if (!annotations.empty()) patch["metadata"]["annotations"] = std::move(annotations);
    if (absl::StatusOr<api::Object> patched = seams_.writer.MergePatch(key, patch.dump());
        !patched.ok()) {
      return patched.status();
    }
  }
  if (stored.status == claim.status) return absl::OkStatus();
  // Status is written whole and without a resourceVersion: this controller owns these fields.
  api::NodeClaim status_only = claim;
  status_only.metadata.resource_version.clear();
  return seams_.writer.UpdateStatus(status_only).status();
}

void NodeClaimLifecycle::Publish(const api::NodeClaim& claim, std::string_view reason,
                                 std::string message) {
  seams_.recorder.Publish(
      Event{ObjectReference{"NodeClaim", "", claim.metadata.name, claim.metadata.uid},
            EventType::kWarning, std::string(reason), std::move(message)});
}

void NodeClaimLifecycle::Log(std::string_view message, const api::NodeClaim& claim,
                             std::vector<LogField> fields) const {
  if (seams_.logger == nullptr) return;
  fields.insert(fields.begin(), LogField{"NodeClaim", claim.metadata.name});
  seams_.logger->Info(message, fields);
}

std::string ResourceListText(const api::ResourceList& resources) {
  std::vector<std::string> parts;
  for (const auto& [name, quantity] : resources) {
    parts.push_back(absl::StrCat(name, "=", quantity.String()));
  }
  return absl::StrJoin(parts, ",");
}

absl::Status NodeClaimLifecycle::DeleteForReason(const api::NodeClaim& claim,
                                                 std::string_view reason) {
  if (absl::Status deleted = seams_.writer.Delete(ObjectKey{"NodeClaim", "", claim.metadata.name});
      !deleted.ok()) {
    return deleted;
  }
  // Nothing ran on it: no pods to count.
  CountDisrupted(DisruptedLabels(claim, reason), std::nullopt, seams_.metrics);
  return absl::OkStatus();
}

}  // namespace karpenter::controllers
