#include "src/controllers/nodeclaim_expiration.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/api/nodeclaim.h"
#include "src/controllers/disrupted_metrics.h"
#include "src/controllers/nodeclaim_lifecycle.h"
#include "src/controllers/object_fields.h"
#include "src/disruption/node_state.h"
#include "src/state/pod_predicates.h"

namespace karpenter::controllers {
namespace {

// Counts a NodeClaim deleted for `reason` and the pods it was running that must move.
void CountDeleted(const api::NodeClaim& claim, std::string_view reason, const ClusterReader& reader,
                  Metrics& metrics) {
  size_t pods = 0;
  if (!claim.status.node_name.empty()) {
    for (const api::Pod& pod : reader.PodsOnNode(claim.status.node_name)) {
      pods += state::IsReschedulable(pod) ? 1 : 0;
    }
  }
  CountDisrupted(DisruptedLabels(claim, reason), pods, metrics);
}

}  // namespace

std::optional<api::Time> ExpirationInstant(const api::NodeClaim& claim) {
  if (!claim.spec.expire_after || !claim.spec.expire_after->duration ||
      !claim.metadata.creation_timestamp) {
    return std::nullopt;
  }
  return *claim.metadata.creation_timestamp + *claim.spec.expire_after->duration;
}

NodeClaimExpiration::NodeClaimExpiration(CleanupSeams seams)
    : seams_(seams),
      controller_("nodeclaim.expiration", seams.clock,
                  [this](const std::string& name) { return Reconcile(name); }) {}

void NodeClaimExpiration::Start() {
  seams_.reader.Watch("NodeClaim", [this](const ObjectKey& key) { controller_.Enqueue(key.name); });
  for (const api::Object& object : seams_.reader.List("NodeClaim")) {
    controller_.Enqueue(KeyOf(object).name);
  }
}

absl::StatusOr<ReconcileResult> NodeClaimExpiration::Reconcile(const std::string& name) {
  std::optional<api::Object> object = seams_.reader.Get(ObjectKey{"NodeClaim", "", name});
  const auto* claim = object ? std::get_if<api::NodeClaim>(&*object) : nullptr;
  if (claim == nullptr || claim->metadata.deletion_timestamp) return ReconcileResult{};
  const std::optional<api::Time> expires = ExpirationInstant(*claim);
  if (!expires) return ReconcileResult{};
  const api::Time now = seams_.clock.Now();
  if (now < *expires) {
    return ReconcileResult{(*expires - now).Nanos() / api::Duration::kMillisecond, false};
  }
  absl::Status deleted = seams_.writer.Delete(ObjectKey{"NodeClaim", "", name});
  if (absl::IsNotFound(deleted)) return ReconcileResult{};
  if (!deleted.ok()) return deleted;
  CountDeleted(*claim, "expired", seams_.reader, seams_.metrics);
  return ReconcileResult{};
}

NodeClaimGarbageCollection::NodeClaimGarbageCollection(CleanupSeams seams)
    : seams_(seams),
      loop_("nodeclaim.garbagecollection", seams.clock, [this] { return Reconcile(); }) {}

absl::StatusOr<ReconcileResult> NodeClaimGarbageCollection::Reconcile() {
  CloudOr<std::vector<api::NodeClaim>> listed = seams_.cloud.List();
  if (const auto* error = std::get_if<CloudError>(&listed)) {
    return absl::UnavailableError(absl::StrCat("listing instances, ", error->message));
  }
  std::set<std::string> alive;
  for (const api::NodeClaim& instance : std::get<std::vector<api::NodeClaim>>(listed)) {
    if (!instance.metadata.deletion_timestamp) alive.insert(instance.status.provider_id);
  }
  absl::Status failed;
  for (const api::Object& object : seams_.reader.List("NodeClaim")) {
    const auto* claim = std::get_if<api::NodeClaim>(&object);
    // Unregistered NodeClaims are left to the registration timeout: the cloud's list alone is
    // not trusted to delete them.
    if (claim == nullptr || claim->metadata.deletion_timestamp ||
        disruption::TrueCondition(*claim, api::kConditionTypeRegistered) == nullptr ||
        alive.contains(claim->status.provider_id)) {
      continue;
    }
    std::optional<api::Node> node = seams_.reader.NodeByProviderId(claim->status.provider_id);
    if (node && disruption::IsNodeReady(*node)) continue;
    absl::Status deleted = seams_.writer.Delete(ObjectKey{"NodeClaim", "", claim->metadata.name});
    if (absl::IsNotFound(deleted)) continue;
    if (!deleted.ok()) {
      if (failed.ok()) failed = deleted;
      continue;
    }
    CountDeleted(*claim, "garbage_collected", seams_.reader, seams_.metrics);
  }
  if (!failed.ok()) return failed;
  return ReconcileResult{kGarbageCollectionPeriodMillis, false};
}

}  // namespace karpenter::controllers
