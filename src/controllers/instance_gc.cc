#include "src/controllers/instance_gc.h"

#include <set>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"

namespace karpenter::controllers {

InstanceGarbageCollection::InstanceGarbageCollection(CleanupSeams seams)
    : seams_(seams),
      loop_("instance.garbagecollection", seams.clock, [this] { return Reconcile(); }) {}

absl::StatusOr<ReconcileResult> InstanceGarbageCollection::Reconcile() {
  // The cloud is listed before the cluster: a NodeClaim launched while the list is slow is then
  // already in the cluster's view, so its instance is not taken for a leak.
  CloudOr<std::vector<api::NodeClaim>> listed = seams_.cloud.List();
  if (const auto* error = std::get_if<CloudError>(&listed)) {
    return absl::UnavailableError(absl::StrCat("listing instances, ", error->message));
  }
  std::set<std::string> claimed;
  for (const api::Object& object : seams_.reader.List("NodeClaim")) {
    const auto& claim = std::get<api::NodeClaim>(object);
    if (!claim.status.provider_id.empty()) claimed.insert(claim.status.provider_id);
  }
  const api::Time now = seams_.clock.Now();
  absl::Status failed;
  for (const api::NodeClaim& instance : std::get<std::vector<api::NodeClaim>>(listed)) {
    // Already terminating, of unknown age, too young, or someone's: left alone.
    if (instance.metadata.deletion_timestamp || !instance.metadata.creation_timestamp ||
        now - *instance.metadata.creation_timestamp <=
            api::Duration::FromMillis(kInstanceGarbageCollectionMinAgeMillis) ||
        claimed.contains(instance.status.provider_id)) {
      continue;
    }
    auto deleted = seams_.cloud.Delete(instance);
    if (const auto* error = std::get_if<CloudError>(&deleted);
        error != nullptr && error->kind != CloudErrorKind::kNotFound) {
      failed.Update(absl::UnavailableError(
          absl::StrCat("terminating ", instance.status.provider_id, ", ", error->message)));
      continue;
    }
    std::optional<api::Node> node = seams_.reader.NodeByProviderId(instance.status.provider_id);
    if (!node) continue;
    absl::Status removed = seams_.writer.Delete(ObjectKey{"Node", "", node->metadata.name});
    if (!removed.ok() && !absl::IsNotFound(removed)) failed.Update(removed);
  }
  if (!failed.ok()) return failed;
  ++successful_passes_;
  return ReconcileResult{successful_passes_ <= kInstanceGarbageCollectionEarlyPasses
                             ? kInstanceGarbageCollectionEarlyPeriodMillis
                             : kGarbageCollectionPeriodMillis,
                         false};
}

}  // namespace karpenter::controllers
