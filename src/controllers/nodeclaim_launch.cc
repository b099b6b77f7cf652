// The launch and liveness steps of NodeClaimLifecycle (upstream: lifecycle/launch.go and
// liveness.go), and the NodePool registration health both of them feed.
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/controllers/nodeclaim_lifecycle.h"
#include "src/controllers/object_fields.h"

namespace karpenter::controllers {
namespace {

std::string Truncated(std::string message) {
  if (message.size() >= 300) {
    message.resize(300);
    message += "...";
  }
  return message;
}

std::optional<api::NodePool> GetNodePool(const ClusterReader& reader, const std::string& name) {
  std::optional<api::Object> object = reader.Get(ObjectKey{"NodePool", "", name});
  if (!object) return std::nullopt;
  if (auto* pool = std::get_if<api::NodePool>(&*object)) return std::move(*pool);
  return std::nullopt;
}

}  // namespace

void CopyLaunched(const api::NodeClaim& launched, api::NodeClaim& claim) {
  std::map<std::string, std::string> labels = launched.metadata.labels;
  for (const auto& [key, value] : claim.metadata.labels) labels[key] = value;
  claim.metadata.labels = std::move(labels);
  for (const auto& [key, value] : launched.metadata.annotations) {
    claim.metadata.annotations[key] = value;
  }
  claim.status.provider_id = launched.status.provider_id;
  claim.status.image_id = launched.status.image_id;
  claim.status.allocatable = launched.status.allocatable;
  claim.status.capacity = launched.status.capacity;
}

absl::StatusOr<ReconcileResult> NodeClaimLifecycle::Launch(api::NodeClaim& claim,
                                                           ConditionSet& conditions) {
  const std::string& uid = claim.metadata.uid;
  if (!conditions.IsUnknown(api::kConditionTypeLaunched)) {
    if (conditions.IsTrue(api::kConditionTypeLaunched)) launched_.erase(uid);
    return ReconcileResult{};
  }
  // A launch whose status write was lost is not repeated: the instance exists.
  if (auto it = launched_.find(uid);
      it != launched_.end() && it->second.expires_millis > seams_.clock.NowMillis()) {
    CopyLaunched(it->second.claim, claim);
    conditions.SetTrue(api::kConditionTypeLaunched);
    return ReconcileResult{};
  }
  CloudOr<api::NodeClaim> created = seams_.cloud.Create(claim);
  if (auto* error = std::get_if<CloudError>(&created)) {
    switch (error->kind) {
      case CloudErrorKind::kInsufficientCapacity:
      case CloudErrorKind::kNodeClassNotReady: {
        const bool capacity = error->kind == CloudErrorKind::kInsufficientCapacity;
        Publish(
            claim, capacity ? "InsufficientCapacityError" : "NodeClassNotReady",
            absl::StrCat("NodeClaim ", claim.metadata.name, " event: ", Truncated(error->message)));
        absl::Status deleted =
            DeleteForReason(claim, capacity ? "insufficient_capacity" : "nodeclass_not_ready");
        if (!deleted.ok() && !absl::IsNotFound(deleted)) return deleted;
        return ReconcileResult{};
      }
      default:
        conditions.SetUnknown(api::kConditionTypeLaunched,
                              error->reason.empty() ? "LaunchFailed" : error->reason,
                              Truncated(error->message));
        return absl::UnavailableError(absl::StrCat("launching nodeclaim, ", error->message));
    }
  }
  api::NodeClaim& launched = std::get<api::NodeClaim>(created);
  launched_[uid] = Launched{launched, seams_.clock.NowMillis() + kLaunchCacheMillis};
  CopyLaunched(launched, claim);
  conditions.SetTrue(api::kConditionTypeLaunched);
  Log("launched nodeclaim", claim,
      {{"provider-id", claim.status.provider_id},
       {"instance-type", LabelOf(claim.metadata.labels, api::kLabelInstanceTypeStable)},
       {"zone", LabelOf(claim.metadata.labels, api::kLabelTopologyZone)},
       {"capacity-type", LabelOf(claim.metadata.labels, api::kCapacityTypeLabelKey)},
       {"allocatable", ResourceListText(claim.status.allocatable)}});
  return ReconcileResult{};
}

absl::StatusOr<ReconcileResult> NodeClaimLifecycle::CheckLiveness(api::NodeClaim& claim,
                                                                  ConditionSet& conditions) {
  if (conditions.IsTrue(api::kConditionTypeRegistered)) return ReconcileResult{};
  const api::Condition* launched = conditions.Get(api::kConditionTypeLaunched);
  if (launched == nullptr) return ReconcileResult{std::nullopt, true};
  // Not launched: timed from Launched's transition. Launched but not registered: from
  // Registered's (set Unknown on the first pass, so both clocks start with the NodeClaim).
  const bool launching = launched->status != "True";
  const api::Condition* timed =
      launching ? launched : conditions.Get(api::kConditionTypeRegistered);
  if (timed == nullptr) return ReconcileResult{std::nullopt, true};
  const int64_t timeout = launching ? kLaunchTimeoutMillis : kRegistrationTimeoutMillis;
  const int64_t left = timeout - MillisSince(seams_.clock, timed->last_transition_time);
  if (left > 0) return ReconcileResult{left, false};
  absl::Status health = RecordRegistration(claim, /*registered=*/false, conditions);
  if (absl::IsAborted(health)) return ReconcileResult{std::nullopt, true};
  if (!health.ok() && !absl::IsNotFound(health)) return health;
  absl::Status deleted =
      DeleteForReason(claim, launching ? "launch_timeout" : "registration_timeout");
  if (!deleted.ok() && !absl::IsNotFound(deleted)) return deleted;
  return ReconcileResult{};
}

absl::Status NodeClaimLifecycle::RecordRegistration(const api::NodeClaim& claim, bool registered,
                                                    const ConditionSet& claim_conditions) {
  auto label = claim.metadata.labels.find(std::string(api::kNodePoolLabelKey));
  if (label == claim.metadata.labels.end() || label->second.empty()) return absl::OkStatus();
  std::optional<api::NodePool> pool = GetNodePool(seams_.reader, label->second);
  if (!pool) return absl::NotFoundError(absl::StrCat("NodePool ", label->second, " not found"));
  // Only a NodePool that owns the claim hears about it (not a namesake created since).
  const bool owned =
      std::any_of(claim.metadata.owner_references.begin(), claim.metadata.owner_references.end(),
                  [&](const api::OwnerReference& owner) {
                    return owner.kind == "NodePool" && owner.uid == pool->metadata.uid;
                  });
  if (!owned) return absl::OkStatus();
  const std::string uid = pool->metadata.uid;
  const api::NodePool stored = *pool;
  ConditionSet conditions(pool->status.conditions,
                          {std::string(api::kConditionTypeValidationSucceeded),
                           std::string(api::kConditionTypeNodeClassReady)},
                          seams_.clock, pool->metadata.generation);
  const RegistrationHealth verdict = seams_.health.StatusWith(uid, registered);
  if (registered && verdict == RegistrationHealth::kHealthy) {
    conditions.SetTrue(api::kConditionTypeNodeRegistrationHealthy);
  } else if (!registered && verdict == RegistrationHealth::kUnhealthy &&
             !conditions.IsFalse(api::kConditionTypeNodeRegistrationHealthy)) {
    const api::Condition* launched = claim_conditions.Get(api::kConditionTypeLaunched);
    if (launched != nullptr && launched->status == "True") {
      conditions.SetFalse(api::kConditionTypeNodeRegistrationHealthy, "RegistrationFailed",
                          "Failed to register node");
    } else {
      conditions.SetFalse(api::kConditionTypeNodeRegistrationHealthy,
                          launched != nullptr ? launched->reason : "",
                          launched != nullptr ? launched->message : "");
    }
  }
  if (pool->status != stored.status) {
    absl::StatusOr<api::Object> written = seams_.writer.UpdateStatus(*pool);
    if (!written.ok() && !absl::IsNotFound(written.status())) return written.status();
  }
  seams_.health.Record(uid, registered);
  return absl::OkStatus();
}

}  // namespace karpenter::controllers
