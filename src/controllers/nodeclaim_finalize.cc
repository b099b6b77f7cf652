// NodeClaimLifecycle's finalizer (upstream: lifecycle/controller.go finalize): Node first, then
// the instance, then the NodeClaim itself.
#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "src/api/karpenter_labels.h"
#include "src/controllers/nodeclaim_lifecycle.h"
#include "src/controllers/object_fields.h"

namespace karpenter::controllers {
namespace {}  // namespace

absl::StatusOr<ReconcileResult> NodeClaimLifecycle::Finalize(api::NodeClaim& claim) {
  auto& finalizers = claim.metadata.finalizers;
  if (std::find(finalizers.begin(), finalizers.end(), api::kTerminationFinalizer) ==
      finalizers.end()) {
    return ReconcileResult{};
  }
  const ObjectKey key{"NodeClaim", "", claim.metadata.name};

  // The time by which every pod must be gone, so that the Node's termination can force it.
  const std::string deadline_key(api::kNodeClaimTerminationTimestampAnnotationKey);
  if (claim.spec.termination_grace_period && !claim.metadata.annotations.contains(deadline_key)) {
    const std::string deadline =
        (*claim.metadata.deletion_timestamp + claim.spec.termination_grace_period->value).Rfc3339();
    nlohmann::json patch;
    patch["metadata"]["resourceVersion"] = claim.metadata.resource_version;
    patch["metadata"]["annotations"][deadline_key] = deadline;
    absl::StatusOr<api::Object> patched = seams_.writer.MergePatch(key, patch.dump());
    if (absl::IsAborted(patched.status())) return ReconcileResult{std::nullopt, true};
    if (absl::IsNotFound(patched.status())) return ReconcileResult{};
    if (!patched.ok()) {
      return absl::Status(patched.status().code(),
                          absl::StrCat("adding nodeclaim terminationGracePeriod annotation, ",
                                       patched.status().message()));
    }
    Publish(claim, "TerminationGracePeriodExpiring",
            absl::StrCat("All pods will be deleted by ", deadline));
    claim = std::get<api::NodeClaim>(std::move(*patched));
  }

  // A registered NodeClaim waits for its Node: the Node's own termination cordons and drains
  // it, and its deletion brings this NodeClaim back here.
  if (ConditionSet(claim.status.conditions, NodeClaimDependentConditions(), seams_.clock,
                   claim.metadata.generation)
          .IsTrue(api::kConditionTypeRegistered) &&
      !claim.status.provider_id.empty()) {
    if (std::optional<api::Node> node = seams_.reader.NodeByProviderId(claim.status.provider_id)) {
      if (!node->metadata.deletion_timestamp) {
        absl::Status deleted = seams_.writer.Delete(ObjectKey{"Node", "", node->metadata.name});
        if (!deleted.ok() && !absl::IsNotFound(deleted)) return deleted;
      }
      return ReconcileResult{};
    }
  }

  if (!claim.status.provider_id.empty()) {
    std::variant<std::monostate, CloudError> deleted = seams_.cloud.Delete(claim);
    const auto* error = std::get_if<CloudError>(&deleted);
    const bool gone = error != nullptr && error->kind == CloudErrorKind::kNotFound;
    if (error != nullptr && !gone) {
      return absl::UnavailableError(absl::StrCat("terminating instance, ", error->message));
    }
    api::NodeClaim stored = claim;
    ConditionSet conditions(claim.status.conditions, NodeClaimDependentConditions(), seams_.clock,
                            claim.metadata.generation);
    conditions.SetTrue(api::kConditionTypeInstanceTerminating);
    if (claim.status != stored.status) {
      absl::StatusOr<api::Object> written = seams_.writer.UpdateStatus(claim);
      if (absl::IsNotFound(written.status())) return ReconcileResult{};
      if (absl::IsAborted(written.status())) return ReconcileResult{std::nullopt, true};
      if (!written.ok()) return written.status();
      claim = std::get<api::NodeClaim>(std::move(*written));
    }
    if (!gone) return ReconcileResult{kInstanceTerminationPollMillis, false};
    const api::Condition* terminating = conditions.Get(api::kConditionTypeInstanceTerminating);
    seams_.metrics.Observe(
        "karpenter_nodeclaims_instance_termination_duration_seconds",
        {{"nodepool", LabelOf(claim.metadata.labels, api::kNodePoolLabelKey)}},
        SecondsSince(seams_.clock, terminating ? terminating->last_transition_time : std::nullopt));
  }

  std::vector<std::string> remaining = claim.metadata.finalizers;
  std::erase(remaining, std::string(api::kTerminationFinalizer));
  nlohmann::json patch;
  patch["metadata"]["resourceVersion"] = claim.metadata.resource_version;
  patch["metadata"]["finalizers"] = remaining;
  absl::StatusOr<api::Object> patched = seams_.writer.MergePatch(key, patch.dump());
  if (absl::IsAborted(patched.status())) return ReconcileResult{std::nullopt, true};
  if (absl::IsNotFound(patched.status())) return ReconcileResult{};
  if (!patched.ok()) {
    return absl::Status(patched.status().code(), absl::StrCat("removing termination finalizer, ",
                                                              patched.status().message()));
  }
  launched_.erase(claim.metadata.uid);
  Log("deleted nodeclaim", claim, {{"Node", claim.status.node_name}});
  seams_.metrics.Observe("karpenter_nodeclaims_termination_duration_seconds",
                         {{"nodepool", LabelOf(claim.metadata.labels, api::kNodePoolLabelKey)}},
                         SecondsSince(seams_.clock, claim.metadata.deletion_timestamp));
  seams_.metrics.Add("karpenter_nodeclaims_terminated_total",
                     {{"nodepool", LabelOf(claim.metadata.labels, api::kNodePoolLabelKey)},
                      {"capacity_type", LabelOf(claim.metadata.labels, api::kCapacityTypeLabelKey)},
                      {"zone", LabelOf(claim.metadata.labels, api::kLabelTopologyZone)}},
                     1);
  return ReconcileResult{};
}

}  // namespace karpenter::controllers
