// Status conditions with a root, as awslabs/operatorpkg's status.ConditionSet keeps them (the
// library upstream's NodeClaims, NodePools and node classes use): every dependent condition
// exists (Unknown until set), the root (Ready) follows them — False if any is False, Unknown if
// any is Unknown, True once all are True — and a condition's lastTransitionTime moves only when
// something about it changes. Conditions stay sorted by type, as kubectl shows them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "karpenter/clock.h"
#include "src/api/meta.h"

namespace karpenter::controllers {

class ConditionSet {
 public:
  // Works on `conditions` in place; sets every missing one of `dependents` and the root
  // "Ready" to Unknown (True when the root already is). `generation` is the object's
  // metadata.generation, recorded as each condition's observedGeneration.
  ConditionSet(std::vector<api::Condition>& conditions, std::vector<std::string> dependents,
               const Clock& clock, int64_t generation);

  // The condition of `type`, or null.
  const api::Condition* Get(std::string_view type) const;
  bool IsTrue(std::string_view type) const;
  bool IsFalse(std::string_view type) const;
  // Also true for a condition that is not there at all.
  bool IsUnknown(std::string_view type) const;

  // Sets a dependent (or any other condition) and recomputes the root. An empty `reason`
  // becomes the condition's type: the CRDs require a reason.
  void SetTrue(std::string_view type, std::string_view reason = {}, std::string_view message = {});
  void SetFalse(std::string_view type, std::string_view reason, std::string_view message);
  void SetUnknown(std::string_view type, std::string_view reason, std::string_view message);
  // Stores `condition` as it is, keeping its lastTransitionTime when nothing else changed.
  void Set(api::Condition condition);

 private:
  bool IsDependent(std::string_view type) const;
  void RecomputeRoot(std::string_view changed);

  std::vector<api::Condition>& conditions_;
  std::vector<std::string> dependents_;
  const Clock& clock_;
  int64_t generation_;
};

// The NodeClaim's conditions: Ready over Launched, Registered and Initialized.
std::vector<std::string> NodeClaimDependentConditions();

}  // namespace karpenter::controllers
