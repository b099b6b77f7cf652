#include "src/controllers/conditions.h"

#include <algorithm>
#include <utility>

#include "src/api/nodeclaim.h"

namespace karpenter::controllers {
namespace {

constexpr std::string_view kTrue = "True";
constexpr std::string_view kFalse = "False";
constexpr std::string_view kUnknown = "Unknown";
constexpr std::string_view kRoot = "Ready";

// A condition as set by name: an empty reason becomes the type, since the CRDs require one.
api::Condition Make(std::string_view type, std::string_view status, std::string_view reason,
                    std::string_view message) {
  api::Condition condition;
  condition.type = std::string(type);
  condition.status = std::string(status);
  condition.reason = std::string(reason.empty() ? type : reason);
  condition.message = std::string(message);
  return condition;
}

}  // namespace

ConditionSet::ConditionSet(std::vector<api::Condition>& conditions,
                           std::vector<std::string> dependents, const Clock& clock,
                           int64_t generation)
    : conditions_(conditions),
      dependents_(std::move(dependents)),
      clock_(clock),
      generation_(generation) {
  std::vector<std::string> known = dependents_;
  known.emplace_back(kRoot);
  for (const std::string& type : known) {
    if (Get(type) != nullptr) continue;
    api::Condition condition;
    condition.type = type;
    const bool ready = IsTrue(kRoot);
    condition.status = std::string(ready ? kTrue : kUnknown);
    condition.reason = ready ? type : std::string("AwaitingReconciliation");
    Set(std::move(condition));
  }
}

const api::Condition* ConditionSet::Get(std::string_view type) const {
  auto it = std::find_if(conditions_.begin(), conditions_.end(),
                         [&](const api::Condition& condition) { return condition.type == type; });
  return it == conditions_.end() ? nullptr : &*it;
}

bool ConditionSet::IsTrue(std::string_view type) const {
  const api::Condition* condition = Get(type);
  return condition != nullptr && condition->status == kTrue;
}

bool ConditionSet::IsFalse(std::string_view type) const {
  const api::Condition* condition = Get(type);
  return condition != nullptr && condition->status == kFalse;
}

bool ConditionSet::IsUnknown(std::string_view type) const {
  const api::Condition* condition = Get(type);
  return condition == nullptr || condition->status == kUnknown;
}

void ConditionSet::Set(api::Condition condition) {
  condition.observed_generation = generation_;
  auto it = std::find_if(conditions_.begin(), conditions_.end(), [&](const api::Condition& stored) {
    return stored.type == condition.type;
  });
  if (it != conditions_.end()) {
    condition.last_transition_time = it->last_transition_time;
    if (condition == *it) return;
    conditions_.erase(it);
  }
  condition.last_transition_time = clock_.Now();
  auto at = std::lower_bound(
      conditions_.begin(), conditions_.end(), condition.type,
      [](const api::Condition& stored, const std::string& type) { return stored.type < type; });
  conditions_.insert(at, std::move(condition));
}

void ConditionSet::SetTrue(std::string_view type, std::string_view reason,
                           std::string_view message) {
  Set(Make(type, kTrue, reason, message));
  RecomputeRoot(type);
}

void ConditionSet::SetFalse(std::string_view type, std::string_view reason,
                            std::string_view message) {
  api::Condition condition = Make(type, kFalse, reason, message);
  Set(condition);
  if (IsDependent(type)) {
    condition.type = std::string(kRoot);
    Set(std::move(condition));
  }
}

void ConditionSet::SetUnknown(std::string_view type, std::string_view reason,
                              std::string_view message) {
  api::Condition condition = Make(type, kUnknown, reason, message);
  Set(condition);
  // A failed dependent outweighs an unknown one: the root stays (or becomes) False.
  for (const std::string& dependent : dependents_) {
    if (IsFalse(dependent)) {
      if (!IsFalse(kRoot)) SetFalse(kRoot, condition.reason, condition.message);
      return;
    }
  }
  if (IsDependent(type)) {
    condition.type = std::string(kRoot);
    Set(std::move(condition));
  }
}

bool ConditionSet::IsDependent(std::string_view type) const {
  return std::find(dependents_.begin(), dependents_.end(), type) != dependents_.end();
}

void ConditionSet::RecomputeRoot(std::string_view changed) {
  // The dependent that holds the root back: the most recently changed False one, else the most
  // recently changed Unknown one.
  const api::Condition* holding = nullptr;
  for (std::string_view wanted : {kFalse, kUnknown}) {
    for (const std::string& dependent : dependents_) {
      const api::Condition* condition = Get(dependent);
      if (condition == nullptr || condition->status != wanted) continue;
      if (holding == nullptr || condition->last_transition_time > holding->last_transition_time) {
        holding = condition;
      }
    }
    if (holding != nullptr) break;
  }
  api::Condition root;
  root.type = std::string(kRoot);
  if (holding != nullptr) {
    root.status = holding->status;
    root.reason = holding->reason;
    root.message = holding->message;
  } else if (changed != kRoot) {
    root.status = std::string(kTrue);
    root.reason = std::string(kRoot);
  } else {
    return;
  }
  Set(std::move(root));
}

std::vector<std::string> NodeClaimDependentConditions() {
  return {std::string(api::kConditionTypeLaunched), std::string(api::kConditionTypeRegistered),
          std::string(api::kConditionTypeInitialized)};
}

}  // namespace karpenter::controllers
