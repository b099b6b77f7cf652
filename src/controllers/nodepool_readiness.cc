#include "src/controllers/nodepool_readiness.h"

#include "absl/strings/str_join.h"
#include "src/api/ec2nodeclass.h"
#include "src/api/karpenter_labels.h"
#include "src/api/nodepool.h"
#include "src/api/nodepool_validation.h"
#include "src/controllers/conditions.h"

namespace karpenter::controllers {
namespace {

std::vector<std::string> NodePoolDependentConditions() {
  return {std::string(api::kConditionTypeValidationSucceeded),
          std::string(api::kConditionTypeNodeClassReady)};
}

// Upstream: pkg/controllers/nodepool/validation. What the API server accepted but a NodePool still
// must not carry (restricted labels, duplicate taints, unsupported requirements).
void SetValidationSucceeded(const api::NodePool& pool, ConditionSet& conditions) {
  api::FieldErrors errors;
  api::RuntimeValidateNodePool(pool, &errors);
  if (errors.empty()) {
    conditions.SetTrue(api::kConditionTypeValidationSucceeded);
    return;
  }
  std::vector<std::string> messages;
  for (const api::FieldError& error : errors.errors()) messages.push_back(error.ToString());
  conditions.SetFalse(api::kConditionTypeValidationSucceeded, "NodePoolValidationFailed",
                      absl::StrJoin(messages, "; "));
}

}  // namespace

NodePoolReadiness::NodePoolReadiness(Clock& clock, ClusterReader& reader, ClusterWriter& writer)
    : clock_(clock),
      reader_(reader),
      writer_(writer),
      controller_("nodepool.readiness", clock,
                  [this](const std::string& name) { return Reconcile(name); }) {}

void NodePoolReadiness::Start() {
  reader_.Watch("NodePool", [this](const ObjectKey& key) { controller_.Enqueue(key.name); });
  // A node class changing concerns every NodePool that refers to it.
  reader_.Watch("EC2NodeClass", [this](const ObjectKey& key) {
    for (const api::Object& object : reader_.List("NodePool")) {
      const auto& pool = std::get<api::NodePool>(object);
      const auto& ref = pool.spec.template_.spec.node_class_ref;
      if (ref && ref->name == key.name) controller_.Enqueue(pool.metadata.name);
    }
  });
  for (const api::Object& object : reader_.List("NodePool")) {
    controller_.Enqueue(KeyOf(object).name);
  }
}

absl::StatusOr<ReconcileResult> NodePoolReadiness::Reconcile(const std::string& node_pool) {
  std::optional<api::Object> object = reader_.Get(ObjectKey{"NodePool", "", node_pool});
  auto* found = object ? std::get_if<api::NodePool>(&*object) : nullptr;
  if (found == nullptr) return ReconcileResult{};
  api::NodePool pool = std::move(*found);
  const auto& ref = pool.spec.template_.spec.node_class_ref;
  if (!ref || ref->kind != api::kEC2NodeClassKind || ref->group != api::kAwsGroup) {
    return ReconcileResult{};
  }
  const api::NodePool stored = pool;
  ConditionSet conditions(pool.status.conditions, NodePoolDependentConditions(), clock_,
                          pool.metadata.generation);
  SetValidationSucceeded(pool, conditions);
  std::optional<api::Object> class_object = reader_.Get(ObjectKey{"EC2NodeClass", "", ref->name});
  const auto* node_class = class_object ? std::get_if<api::EC2NodeClass>(&*class_object) : nullptr;
  if (node_class == nullptr) {
    conditions.SetFalse(api::kConditionTypeNodeClassReady, "NodeClassNotFound",
                        "NodeClass not found on cluster");
  } else if (node_class->metadata.deletion_timestamp) {
    conditions.SetFalse(api::kConditionTypeNodeClassReady, "NodeClassTerminating",
                        "NodeClass is Terminating");
  } else {
    const api::Condition* ready = nullptr;
    for (const api::Condition& condition : node_class->status.conditions) {
      if (condition.type == "Ready") ready = &condition;
    }
    if (ready == nullptr || ready->status == "Unknown") {
      conditions.SetFalse(api::kConditionTypeNodeClassReady, "NodeClassReadinessUnknown",
                          "Node Class Readiness Unknown");
    } else if (ready->status == "False") {
      conditions.SetFalse(api::kConditionTypeNodeClassReady, ready->reason, ready->message);
    } else {
      conditions.SetTrue(api::kConditionTypeNodeClassReady);
    }
  }
  if (pool.status == stored.status) return ReconcileResult{};
  absl::StatusOr<api::Object> written = writer_.UpdateStatus(pool);
  if (absl::IsAborted(written.status())) return ReconcileResult{std::nullopt, true};
  if (!written.ok() && !absl::IsNotFound(written.status())) return written.status();
  return ReconcileResult{};
}

}  // namespace karpenter::controllers
