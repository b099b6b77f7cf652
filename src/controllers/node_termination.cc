#include "src/controllers/node_termination.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "src/api/karpenter_labels.h"
#include "src/api/storage.h"
#include "src/controllers/conditions.h"
#include "src/controllers/drain_order.h"
#include "src/controllers/nodeclaim_lifecycle.h"
#include "src/controllers/object_fields.h"
#include "src/disruption/node_state.h"
#include "src/state/pod_predicates.h"

namespace karpenter::controllers {
namespace {

// Upstream's node termination work queue: per-node backoff from 100 ms to 10 s.
constexpr RateLimits kTerminationRateLimits{100, 10 * 1000, 10, 100};
constexpr int64_t kStepRequeueMillis = 1000;
// A pod terminating for longer than this past its deletion time is given up on: the instance
// going will stop it.
constexpr int64_t kStuckTerminatingMillis = 60 * 1000;

// Upstream's pod.IsDrainable: a pod the drain waits for — not one that tolerates the disrupted
// taint, not a static pod, not one stuck terminating past its deletion time (the instance going
// will stop it).
bool IsDrainable(const api::Pod& pod, const Clock& clock) {
  const bool stuck = pod.metadata.deletion_timestamp &&
                     MillisSince(clock, pod.metadata.deletion_timestamp) > kStuckTerminatingMillis;
  return !state::ToleratesDisruptedNoScheduleTaint(pod) && !state::IsOwnedByNode(pod) && !stuck;
}

bool Empty(const ReconcileResult& result) {
  return !result.requeue && !result.requeue_after_millis;
}

}  // namespace

void CountNodeTerminated(const api::Node& node, api::Time now, Metrics& metrics) {
  const std::string pool = LabelOf(node.metadata.labels, api::kNodePoolLabelKey);
  metrics.Add(
      "karpenter_nodes_terminated_total",
      {{"nodepool", pool}, {"zone", LabelOf(node.metadata.labels, api::kLabelTopologyZone)}}, 1);
  if (node.metadata.deletion_timestamp) {
    metrics.Observe("karpenter_nodes_termination_duration_seconds", {{"nodepool", pool}},
                    (now - *node.metadata.deletion_timestamp).Seconds());
  }
  if (node.metadata.creation_timestamp) {
    metrics.Observe("karpenter_nodes_lifetime_duration_seconds", {{"nodepool", pool}},
                    (now - *node.metadata.creation_timestamp).Seconds());
  }
}

NodeTermination::NodeTermination(TerminationSeams seams, EvictionQueue& evictions)
    : seams_(seams),
      evictions_(evictions),
      controller_(
          "node.termination", seams.clock,
          [this](const std::string& name) { return Reconcile(name); }, kTerminationRateLimits) {}

void NodeTermination::Start() {
  seams_.reader.Watch("Node", [this](const ObjectKey& key) { controller_.Enqueue(key.name); });
  for (const api::Object& object : seams_.reader.List("Node")) {
    controller_.Enqueue(KeyOf(object).name);
  }
}

void NodeTermination::Publish(const api::Node& node, EventType type, std::string_view reason,
                              std::string message) {
  seams_.recorder.Publish(Event{ObjectReference{"Node", "", node.metadata.name, node.metadata.uid},
                                type, std::string(reason), std::move(message)});
}

absl::StatusOr<ReconcileResult> NodeTermination::Reconcile(const std::string& node_name) {
  std::optional<api::Object> object = seams_.reader.Get(ObjectKey{"Node", "", node_name});
  auto* found = object ? std::get_if<api::Node>(&*object) : nullptr;
  if (found == nullptr || !found->metadata.deletion_timestamp) return ReconcileResult{};
  api::Node node = std::move(*found);
  const auto& finalizers = node.metadata.finalizers;
  if (std::find(finalizers.begin(), finalizers.end(), api::kTerminationFinalizer) ==
      finalizers.end()) {
    return ReconcileResult{};
  }

  std::optional<api::NodeClaim> claim;
  if (!node.spec.provider_id.empty()) {
    claim = seams_.reader.NodeClaimByProviderId(node.spec.provider_id);
  }
  if (claim && !claim->metadata.deletion_timestamp) {
    absl::Status deleted = seams_.writer.Delete(ObjectKey{"NodeClaim", "", claim->metadata.name});
    if (!deleted.ok() && !absl::IsNotFound(deleted)) {
      return absl::Status(deleted.code(), absl::StrCat("deleting nodeclaim, ", deleted.message()));
    }
    // Read it back: the deletion moved its resourceVersion, and its status is written below.
    claim = seams_.reader.NodeClaimByProviderId(node.spec.provider_id);
  }

  // An instance the cloud no longer has, behind a Node whose kubelet is silent, has nothing
  // left to drain.
  if (!disruption::IsNodeReady(node)) {
    CloudOr<api::NodeClaim> instance = seams_.cloud.Get(node.spec.provider_id);
    if (const auto* error = std::get_if<CloudError>(&instance)) {
      if (error->kind == CloudErrorKind::kNotFound) {
        absl::Status removed = RemoveFinalizer(node);
        if (absl::IsAborted(removed)) return ReconcileResult{std::nullopt, true};
        if (!removed.ok() && !absl::IsNotFound(removed)) return removed;
        return ReconcileResult{};
      }
      return absl::UnavailableError(absl::StrCat("getting nodeclaim, ", error->message));
    }
  }

  std::optional<api::Time> deadline;
  if (claim) {
    auto annotation = claim->metadata.annotations.find(
        std::string(api::kNodeClaimTerminationTimestampAnnotationKey));
    if (annotation != claim->metadata.annotations.end()) {
      Publish(node, EventType::kWarning, "TerminationGracePeriodExpiring",
              absl::StrCat("All pods will be deleted by ", annotation->second));
      absl::StatusOr<api::Time> parsed = api::Time::ParseRfc3339(annotation->second);
      if (!parsed.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "parsing annotation ", std::string(api::kNodeClaimTerminationTimestampAnnotationKey),
            ", ", parsed.status().message()));
      }
      deadline = *parsed;
    }
  }

  if (absl::Status tainted = Taint(node); !tainted.ok()) {
    if (absl::IsAborted(tainted)) return ReconcileResult{std::nullopt, true};
    return absl::Status(tainted.code(), absl::StrCat("tainting node, ", tainted.message()));
  }

  const std::optional<api::NodeClaim> stored = claim;
  api::NodeClaim* tracked = claim ? &*claim : nullptr;
  absl::StatusOr<ReconcileResult> result = AwaitDrain(tracked, node, deadline);
  if (result.ok() && Empty(*result)) result = AwaitVolumeDetachment(tracked, node, deadline);
  if (result.ok() && Empty(*result)) result = AwaitInstanceTermination(tracked);

  if (claim && claim->status != stored->status) {
    absl::StatusOr<api::Object> written = seams_.writer.UpdateStatus(*claim);
    if (absl::IsAborted(written.status())) return ReconcileResult{std::nullopt, true};
    if (!written.ok() && !absl::IsNotFound(written.status())) {
      return absl::Status(written.status().code(),
                          absl::StrCat("updating nodeclaim, ", written.status().message()));
    }
    if (written.ok() && disruption::TrueCondition(*stored, api::kConditionTypeDrained) == nullptr &&
        disruption::TrueCondition(*claim, api::kConditionTypeDrained) != nullptr) {
      seams_.metrics.Add("karpenter_nodes_drained_total",
                         {{"nodepool", LabelOf(node.metadata.labels, api::kNodePoolLabelKey)}}, 1);
    }
  }
  if (!result.ok() || !Empty(*result)) return result;
  absl::Status removed = RemoveFinalizer(node);
  if (absl::IsAborted(removed)) return ReconcileResult{std::nullopt, true};
  if (!removed.ok() && !absl::IsNotFound(removed)) return removed;
  return ReconcileResult{};
}

absl::Status NodeTermination::Taint(api::Node& node) {
  const api::Node stored = node;
  if (!disruption::HasDisruptedTaint(node)) {
    std::erase_if(node.spec.taints,
                  [](const api::Taint& taint) { return taint.key == api::kDisruptedTaintKey; });
    node.spec.taints.push_back(
        api::Taint{.key = std::string(api::kDisruptedTaintKey), .effect = "NoSchedule"});
  }
  // Load balancers stop sending to the node while it drains, before it goes.
  node.metadata.labels[std::string(api::kLabelExcludeFromExternalLoadBalancers)] = "karpenter";
  if (node == stored) return absl::OkStatus();
  absl::StatusOr<api::Object> written = seams_.writer.Update(node);
  if (!written.ok()) return written.status();
  node = std::get<api::Node>(std::move(*written));
  if (seams_.logger != nullptr && !disruption::HasDisruptedTaint(stored)) {
    seams_.logger->Info("tainted node", {{"Node", node.metadata.name},
                                         {"taint.Key", std::string(api::kDisruptedTaintKey)},
                                         {"taint.Value", ""},
                                         {"taint.Effect", "NoSchedule"}});
  }
  return absl::OkStatus();
}

size_t NodeTermination::Drain(const api::Node& node, const std::optional<api::Time>& deadline) {
  const api::Time now = seams_.clock.Now();
  std::vector<api::Pod> force;
  std::vector<api::Pod> tiers[kDrainTierCount];
  size_t waiting = 0;
  for (api::Pod& pod : seams_.reader.PodsOnNode(node.metadata.name)) {
    if (state::IsTerminal(pod) || !IsDrainable(pod, seams_.clock)) continue;
    ++waiting;
    if (NeedsForceDelete(pod, deadline, now)) {
      force.push_back(std::move(pod));
      continue;
    }
    const auto tier = static_cast<size_t>(DrainTierOf(pod));
    tiers[tier].push_back(std::move(pod));
  }
  // Past the deadline nothing waits for an earlier tier.
  if (!force.empty()) evictions_.Add(deadline, force);
  for (const std::vector<api::Pod>& tier : tiers) {
    if (!tier.empty()) {
      evictions_.Add(deadline, tier);
      break;
    }
  }
  return waiting;
}

absl::StatusOr<ReconcileResult> NodeTermination::AwaitDrain(
    api::NodeClaim* claim, const api::Node& node, const std::optional<api::Time>& deadline) {
  std::optional<ConditionSet> conditions;
  if (claim != nullptr) {
    conditions.emplace(claim->status.conditions, NodeClaimDependentConditions(), seams_.clock,
                       claim->metadata.generation);
    if (conditions->Get(api::kConditionTypeDrained) == nullptr) {
      conditions->SetUnknown(api::kConditionTypeDrained, "Draining", "Draining");
    }
  }
  if (const size_t waiting = Drain(node, deadline); waiting > 0) {
    Publish(node, EventType::kWarning, "FailedDraining",
            absl::StrCat("Failed to drain node, ", waiting, " pods are waiting to be evicted"));
    return ReconcileResult{kStepRequeueMillis, false};
  }
  if (conditions) {
    const api::Condition* drained = conditions->Get(api::kConditionTypeDrained);
    if (drained->status == "Unknown" && drained->last_transition_time &&
        MillisSince(seams_.clock, drained->last_transition_time) < kMinDrainMillis) {
      return ReconcileResult{kStepRequeueMillis, false};
    }
    conditions->SetTrue(api::kConditionTypeDrained);
  }
  return ReconcileResult{};
}

std::vector<std::string> NodeTermination::PendingVolumeAttachments(const api::Node& node) const {
  std::vector<const api::VolumeAttachment*> attached;
  std::vector<api::Object> objects = seams_.reader.List("VolumeAttachment");
  for (const api::Object& object : objects) {
    const auto* attachment = std::get_if<api::VolumeAttachment>(&object);
    if (attachment != nullptr && attachment->spec.node_name == node.metadata.name) {
      attached.push_back(attachment);
    }
  }
  if (attached.empty()) return {};
  // Volumes of pods the drain leaves in place stay attached until the instance goes.
  std::set<std::string> kept_volumes;
  for (const api::Pod& pod : seams_.reader.PodsOnNode(node.metadata.name)) {
    if (IsDrainable(pod, seams_.clock)) continue;
    for (const api::Volume& volume : pod.spec.volumes) {
      std::string claim_name;
      if (volume.persistent_volume_claim) {
        claim_name = volume.persistent_volume_claim->claim_name;
      } else if (volume.ephemeral) {
        claim_name = absl::StrCat(pod.metadata.name, "-", volume.name);
      } else {
        continue;
      }
      std::optional<api::Object> pvc = seams_.reader.Get(
          ObjectKey{"PersistentVolumeClaim", pod.metadata.namespace_, claim_name});
      const auto* typed = pvc ? std::get_if<api::PersistentVolumeClaim>(&*pvc) : nullptr;
      if (typed != nullptr && !typed->spec.volume_name.empty()) {
        kept_volumes.insert(typed->spec.volume_name);
      }
    }
  }
  std::vector<std::string> pending;
  for (const api::VolumeAttachment* attachment : attached) {
    const std::optional<std::string>& volume = attachment->spec.source.persistent_volume_name;
    if (volume && !kept_volumes.contains(*volume)) pending.push_back(attachment->metadata.name);
  }
  return pending;
}

absl::StatusOr<ReconcileResult> NodeTermination::AwaitVolumeDetachment(
    api::NodeClaim* claim, const api::Node& node, const std::optional<api::Time>& deadline) {
  std::optional<ConditionSet> conditions;
  if (claim != nullptr) {
    conditions.emplace(claim->status.conditions, NodeClaimDependentConditions(), seams_.clock,
                       claim->metadata.generation);
  }
  std::vector<std::string> pending = PendingVolumeAttachments(node);
  if (pending.empty()) {
    if (conditions) conditions->SetTrue(api::kConditionTypeVolumesDetached);
    return ReconcileResult{};
  }
  if (!deadline || seams_.clock.Now() <= *deadline) {
    Publish(node, EventType::kNormal, "AwaitingVolumeDetachment",
            absl::StrCat("Awaiting deletion of bound volumeattachments (",
                         absl::StrJoin(pending, ", "), ")"));
    if (conditions) {
      conditions->SetUnknown(api::kConditionTypeVolumesDetached, "AwaitingVolumeDetachment",
                             "AwaitingVolumeDetachment");
    }
    return ReconcileResult{kStepRequeueMillis, false};
  }
  if (conditions) {
    conditions->SetFalse(api::kConditionTypeVolumesDetached, "TerminationGracePeriodElapsed",
                         "TerminationGracePeriodElapsed");
  }
  return ReconcileResult{};
}

absl::StatusOr<ReconcileResult> NodeTermination::AwaitInstanceTermination(api::NodeClaim* claim) {
  if (claim == nullptr) return ReconcileResult{};
  std::variant<std::monostate, CloudError> deleted = seams_.cloud.Delete(*claim);
  const auto* error = std::get_if<CloudError>(&deleted);
  const bool gone = error != nullptr && error->kind == CloudErrorKind::kNotFound;
  if (error != nullptr && !gone) {
    return absl::UnavailableError(absl::StrCat("terminating instance, ", error->message));
  }
  ConditionSet(claim->status.conditions, NodeClaimDependentConditions(), seams_.clock,
               claim->metadata.generation)
      .SetTrue(api::kConditionTypeInstanceTerminating);
  if (!gone) return ReconcileResult{kInstanceTerminationPollMillis, false};
  return ReconcileResult{};
}

absl::Status NodeTermination::RemoveFinalizer(const api::Node& node) {
  std::vector<std::string> remaining = node.metadata.finalizers;
  std::erase(remaining, std::string(api::kTerminationFinalizer));
  nlohmann::json patch;
  patch["metadata"]["resourceVersion"] = node.metadata.resource_version;
  patch["metadata"]["finalizers"] = remaining;
  absl::StatusOr<api::Object> patched =
      seams_.writer.MergePatch(ObjectKey{"Node", "", node.metadata.name}, patch.dump());
  if (!patched.ok()) return patched.status();
  if (seams_.logger != nullptr) seams_.logger->Info("deleted node", {{"Node", node.metadata.name}});
  CountNodeTerminated(node, seams_.clock.Now(), seams_.metrics);
  return absl::OkStatus();
}

}  // namespace karpenter::controllers
