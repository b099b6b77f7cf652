#include "src/controllers/disrupted_mark.h"

#include <optional>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/api/nodeclaim.h"
#include "src/controllers/conditions.h"
#include "src/disruption/node_state.h"

namespace karpenter::controllers {

absl::Status MarkNodeDisrupted(const ClusterReader& reader, ClusterWriter& writer,
                               const Clock& clock, const std::string& node_name,
                               const std::string& reason) {
  const bool mark = !reason.empty();
  std::optional<api::Object> object = reader.Get(ObjectKey{"Node", "", node_name});
  if (!object) {
    if (!mark) return absl::OkStatus();
    return absl::NotFoundError(absl::StrCat("node ", node_name, " is gone"));
  }
  api::Node node = std::get<api::Node>(std::move(*object));
  if (mark != disruption::HasDisruptedTaint(node)) {
    std::erase_if(node.spec.taints,
                  [](const api::Taint& taint) { return taint.key == api::kDisruptedTaintKey; });
    if (mark) {
      node.spec.taints.push_back(
          api::Taint{.key = std::string(api::kDisruptedTaintKey), .effect = "NoSchedule"});
    }
    if (absl::StatusOr<api::Object> updated = writer.Update(node); !updated.ok()) {
      return updated.status();
    }
  }
  if (node.spec.provider_id.empty()) return absl::OkStatus();
  std::optional<api::NodeClaim> claim = reader.NodeClaimByProviderId(node.spec.provider_id);
  if (!claim) return absl::OkStatus();
  const std::vector<api::Condition> before = claim->status.conditions;
  if (mark) {
    ConditionSet conditions(claim->status.conditions, NodeClaimDependentConditions(), clock,
                            claim->metadata.generation);
    conditions.SetTrue(api::kConditionTypeDisruptionReason, reason, reason);
  } else {
    std::erase_if(claim->status.conditions, [](const api::Condition& condition) {
      return condition.type == api::kConditionTypeDisruptionReason;
    });
  }
  if (claim->status.conditions == before) return absl::OkStatus();
  absl::StatusOr<api::Object> written = writer.UpdateStatus(*claim);
  if (!written.ok() && !absl::IsNotFound(written.status())) return written.status();
  return absl::OkStatus();
}

}  // namespace karpenter::controllers
