// Taint/toleration matching, formatting, parsing and field validation with Kubernetes'
// semantics (core/v1 Toleration.ToleratesTaint, Taint.ToString, kubectl's taint parser and
// pkg/apis/core/validation).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/field_errors.h"
#include "src/api/taint.h"

namespace karpenter::api {

inline constexpr std::string_view kTaintEffectNoSchedule = "NoSchedule";
inline constexpr std::string_view kTaintEffectPreferNoSchedule = "PreferNoSchedule";
inline constexpr std::string_view kTaintEffectNoExecute = "NoExecute";
inline constexpr std::string_view kTolerationOpEqual = "Equal";
inline constexpr std::string_view kTolerationOpExists = "Exists";

// A non-empty toleration effect must equal the taint's; a non-empty key must equal the
// taint's. Then operator Exists tolerates any value, Equal (or "") requires equal values, and
// any other operator tolerates nothing. So {operator: Exists} alone tolerates every taint.
bool ToleratesTaint(const Toleration& toleration, const Taint& taint);

// True when every taint is tolerated by at least one toleration. With
// `ignore_prefer_no_schedule`, PreferNoSchedule taints are skipped, as the scheduler's filter
// does (they only affect scoring).
bool ToleratesAll(const std::vector<Toleration>& tolerations, const std::vector<Taint>& taints,
                  bool ignore_prefer_no_schedule);
// As above; on failure also sets `*untolerated` to the first taint (in `taints` order) that no
// toleration tolerates, for error messages. It points into `taints`. Left untouched on success.
bool ToleratesAll(const std::vector<Toleration>& tolerations, const std::vector<Taint>& taints,
                  bool ignore_prefer_no_schedule, const Taint** untolerated);

// "key=value:Effect", or "key:Effect" when the value is empty.
std::string TaintToString(const Taint& taint);

// Parses kubectl's taint syntax: "key=value:Effect", "key:Effect", or a bare "key" (which
// leaves the effect empty; ValidateTaint then reports it). The effect must be NoSchedule,
// PreferNoSchedule or NoExecute, the key a qualified name and the value a label value. Errors
// use kubectl's wording ("invalid taint spec: ...", "invalid taint effect: ...").
absl::StatusOr<Taint> ParseTaint(std::string_view spec);

// Field validation of one node taint at `path` (e.g. "spec.taints[0]"): key a qualified name,
// value a label value, effect required and one of the three effects.
void ValidateTaint(const Taint& taint, std::string_view path, FieldErrors* errors);

// Field validation of one toleration at `path`: the key (when set) a qualified name, an empty
// key only with Exists, tolerationSeconds only with NoExecute, the operator Equal/""/Exists, a
// label value for Equal and no value for Exists, and the effect (when set) a known effect.
void ValidateToleration(const Toleration& toleration, std::string_view path, FieldErrors* errors);

}  // namespace karpenter::api
