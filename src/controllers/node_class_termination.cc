#include "src/controllers/node_class_termination.h"

#include <algorithm>
#include <optional>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/api/karpenter_labels.h"

namespace karpenter::controllers {
namespace {

// Up to five names, then how many more (upstream's PrettySlice).
std::string FirstNames(const std::vector<std::string>& names) {
  constexpr size_t kShown = 5;
  if (names.size() <= kShown) return absl::StrJoin(names, ", ");
  return absl::StrCat(
      absl::StrJoin(std::vector<std::string>(names.begin(), names.begin() + kShown), ", "), " and ",
      names.size() - kShown, " other(s)");
}

bool RefersTo(const api::NodeClaim& claim, const std::string& node_class) {
  return claim.spec.node_class_ref && claim.spec.node_class_ref->name == node_class &&
         claim.spec.node_class_ref->kind == "EC2NodeClass";
}

}  // namespace

NodeClassTermination::NodeClassTermination(Clock& clock, ClusterReader& reader,
                                           ClusterWriter& writer, EventRecorder& recorder,
                                           CleanUp clean_up)
    : clock_(clock),
      reader_(reader),
      writer_(writer),
      recorder_(recorder),
      clean_up_(std::move(clean_up)),
      controller_("nodeclass.termination", clock,
                  [this](const std::string& name) { return Reconcile(name); }) {}

void NodeClassTermination::Start() {
  reader_.Watch("EC2NodeClass", [this](const ObjectKey& key) { controller_.Enqueue(key.name); });
  // A NodeClaim that goes may be the last one a deleted class waits for. Its class is read
  // from the claim when it can be; a claim already gone wakes every deleting class.
  reader_.Watch("NodeClaim", [this](const ObjectKey& key) {
    std::optional<api::Object> object = reader_.Get(key);
    const auto* claim = object ? std::get_if<api::NodeClaim>(&*object) : nullptr;
    if (claim != nullptr) {
      if (claim->spec.node_class_ref) controller_.Enqueue(claim->spec.node_class_ref->name);
      return;
    }
    for (const api::Object& node_class : reader_.List("EC2NodeClass")) {
      if (std::get<api::EC2NodeClass>(node_class).metadata.deletion_timestamp) {
        controller_.Enqueue(KeyOf(node_class).name);
      }
    }
  });
  for (const api::Object& object : reader_.List("EC2NodeClass")) {
    controller_.Enqueue(KeyOf(object).name);
  }
}

absl::StatusOr<ReconcileResult> NodeClassTermination::WriteFinalizers(
    api::EC2NodeClass node_class, std::vector<std::string> finalizers) {
  node_class.metadata.finalizers = std::move(finalizers);
  absl::StatusOr<api::Object> written = writer_.Update(node_class);
  if (absl::IsAborted(written.status())) return ReconcileResult{std::nullopt, true};
  if (!written.ok() && !absl::IsNotFound(written.status())) return written.status();
  return ReconcileResult{};
}

absl::StatusOr<ReconcileResult> NodeClassTermination::Reconcile(const std::string& name) {
  std::optional<api::Object> object = reader_.Get(ObjectKey{"EC2NodeClass", "", name});
  const auto* node_class = object ? std::get_if<api::EC2NodeClass>(&*object) : nullptr;
  if (node_class == nullptr) return ReconcileResult{};
  const std::string finalizer(api::kAwsTerminationFinalizer);
  std::vector<std::string> finalizers = node_class->metadata.finalizers;
  const auto ours = std::find(finalizers.begin(), finalizers.end(), finalizer);
  if (!node_class->metadata.deletion_timestamp) {
    if (ours != finalizers.end()) return ReconcileResult{};
    finalizers.push_back(finalizer);
    return WriteFinalizers(*node_class, std::move(finalizers));
  }
  if (ours == finalizers.end()) return ReconcileResult{};
  std::vector<std::string> waiting;
  for (const api::Object& claim : reader_.List("NodeClaim")) {
    if (RefersTo(std::get<api::NodeClaim>(claim), name)) waiting.push_back(KeyOf(claim).name);
  }
  if (!waiting.empty()) {
    std::sort(waiting.begin(), waiting.end());
    recorder_.Publish(
        Event{ObjectReference{"EC2NodeClass", "", name, node_class->metadata.uid},
              EventType::kNormal, "WaitingOnNodeClaimTermination",
              absl::StrCat("Waiting on NodeClaim termination for ", FirstNames(waiting))});
    return ReconcileResult{kNodeClassTerminationRecheckMillis, false};
  }
  if (clean_up_) {
    if (absl::Status cleaned = clean_up_(*node_class); !cleaned.ok()) return cleaned;
  }
  finalizers.erase(ours);
  return WriteFinalizers(*node_class, std::move(finalizers));
}

}  // namespace karpenter::controllers
