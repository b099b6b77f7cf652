// Building blocks shared by NodeClaim and NodePool validation (the NodePool template is a
// NodeClaim spec): which rule layers run, and the per-field checks parameterised by them.
// Callers outside src/api should use nodeclaim_validation.h / nodepool_validation.h instead.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/duration.h"
#include "src/api/field_errors.h"
#include "src/api/karpenter_labels.h"
#include "src/api/nodeclaim.h"
#include "src/api/taint.h"

namespace karpenter::api {

inline constexpr std::string_view kKarpenterApiVersion = "karpenter.sh/v1";

// Admission = the CRD's OpenAPI + CEL rules (the API server refuses the object); runtime = the
// NodePool validation controller (the object exists but ValidationSucceeded=False). Where both
// layers check the same thing, it is reported once.
struct ValidationLayers {
  bool admission = true;
  bool runtime = false;
};

// One requirement under the chosen layers (see ValidateRequirement in nodeclaim_validation.h).
void CheckRequirement(const NodeSelectorRequirementWithMinValues& requirement,
                      std::string_view path, LabelKeyScope scope, const ValidationLayers& layers,
                      FieldErrors* errors);

// Taints plus startup taints; duplicates (same key and effect across both) are a runtime rule.
void ValidateTaintLists(const std::vector<Taint>& taints, std::string_view taints_path,
                        const std::vector<Taint>& startup_taints, std::string_view startup_path,
                        const ValidationLayers& layers, FieldErrors* errors);

// A label/taint key or taint value: the CRD pattern, or IsQualifiedName (pattern plus length
// limits) when the runtime layer runs.
void CheckQualifiedName(std::string_view value, const std::string& path,
                        const ValidationLayers& layers, FieldErrors* errors);

// apiVersion must be karpenter.sh/v1 and kind `expected_kind`.
void ValidateTypeMeta(std::string_view api_version, std::string_view kind,
                      std::string_view expected_kind, FieldErrors* errors);

// ^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$
bool MatchesConditionReasonPattern(std::string_view value);

// The detail of an OpenAPI pattern failure: "should match '<pattern>'".
std::string PatternDetail(std::string_view pattern);
// ["a", "b"], for Invalid() on a list value.
std::string QuoteList(const std::vector<std::string>& values);

// The text a pattern is checked against: what the user wrote (both kinds keep it), else the
// value's Go form for one built in code.
std::string PatternText(const NillableDuration& value);
std::string PatternText(const WrittenDuration& value);

}  // namespace karpenter::api
