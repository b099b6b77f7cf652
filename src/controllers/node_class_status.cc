#include "src/controllers/node_class_status.h"

#include <utility>
#include <variant>

namespace karpenter::controllers {
namespace {

// Each resolved condition keeps the stored one's lastTransitionTime when nothing about it
// changed, so a re-resolution that finds the same world writes nothing.
void KeepTransitionTimes(const std::vector<api::Condition>& stored,
                         std::vector<api::Condition>& resolved) {
  for (api::Condition& condition : resolved) {
    for (const api::Condition& old : stored) {
      if (old.type == condition.type && old.status == condition.status &&
          old.reason == condition.reason && old.message == condition.message) {
        condition.last_transition_time = old.last_transition_time;
        condition.observed_generation = old.observed_generation;
      }
    }
  }
}

}  // namespace

NodeClassStatusController::NodeClassStatusController(Clock& clock, ClusterReader& reader,
                                                     ClusterWriter& writer, Resolve resolve,
                                                     int64_t refresh_millis)
    : clock_(clock),
      reader_(reader),
      writer_(writer),
      resolve_(std::move(resolve)),
      refresh_millis_(refresh_millis),
      controller_("nodeclass.status", clock,
                  [this](const std::string& name) { return Reconcile(name); }) {}

void NodeClassStatusController::Start() {
  reader_.Watch("EC2NodeClass", [this](const ObjectKey& key) { controller_.Enqueue(key.name); });
  for (const api::Object& object : reader_.List("EC2NodeClass")) {
    controller_.Enqueue(KeyOf(object).name);
  }
}

absl::StatusOr<ReconcileResult> NodeClassStatusController::Reconcile(const std::string& name) {
  std::optional<api::Object> object = reader_.Get(ObjectKey{"EC2NodeClass", "", name});
  const auto* stored = object ? std::get_if<api::EC2NodeClass>(&*object) : nullptr;
  if (stored == nullptr || stored->metadata.deletion_timestamp) return ReconcileResult{};
  absl::StatusOr<api::EC2NodeClassStatus> resolved = resolve_(*stored);
  if (!resolved.ok()) return resolved.status();
  KeepTransitionTimes(stored->status.conditions, resolved->conditions);
  for (api::Condition& condition : resolved->conditions) {
    if (condition.observed_generation == 0) {
      condition.observed_generation = stored->metadata.generation;
    }
    // A condition that changed moves now (the CRD requires the time and a reason).
    if (!condition.last_transition_time) condition.last_transition_time = clock_.Now();
    if (condition.reason.empty()) condition.reason = condition.type;
  }
  if (*resolved != stored->status) {
    api::EC2NodeClass updated = *stored;
    updated.status = *std::move(resolved);
    absl::StatusOr<api::Object> written = writer_.UpdateStatus(updated);
    if (!written.ok()) {
      if (absl::IsNotFound(written.status())) return ReconcileResult{};
      if (absl::IsAborted(written.status())) return ReconcileResult{std::nullopt, true};
      return written.status();
    }
  }
  return ReconcileResult{refresh_millis_, false};
}

}  // namespace karpenter::controllers
