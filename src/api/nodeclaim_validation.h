// Validation of NodeClaims, and the checks NodeClaims share with NodePool templates
// (requirements, taints, nodeClassRef, status conditions, duration fields).
//
// Two layers exist upstream and both are reproduced, with each problem reported once:
//  - admission: the CRD's OpenAPI rules (patterns, enums, bounds, maxItems) and its CEL rules;
//  - runtime: the NodePool validation controller (ValidationSucceeded=False), which repeats most
//    admission rules and adds a few (qualified-name lengths, restricted-label check, label-value
//    syntax of requirement values, duplicate taints, well-known values). The provisioner applies
//    the runtime requirement rule to pod requirements too (ValidateRequirementRuntime).
// NodeClaims get only the admission layer, as upstream (no controller re-validates them).
//
// Not applicable to a single object: the CEL transition rule `spec is immutable`
// (self == oldSelf); it needs the previous version and is left to whoever applies updates.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "src/api/field_errors.h"
#include "src/api/karpenter_labels.h"
#include "src/api/meta.h"
#include "src/api/nodeclaim.h"
#include "src/api/taint.h"

namespace karpenter::api {

inline constexpr size_t kMaxRequirements = 100;
inline constexpr int64_t kMinValuesMinimum = 1;
inline constexpr int64_t kMinValuesMaximum = 50;
inline constexpr size_t kMaxRequirementKeyLength = 316;

// Which rule layers to apply.
struct RequirementRules {
  LabelKeyScope scope = LabelKeyScope::kNodeClaim;
  bool runtime = false;  // add the NodePool validation controller's rules
};

// All rules for a requirement list at `path` (e.g. "spec.template.spec.requirements"): maxItems,
// and per item the rules of ValidateRequirement.
void ValidateRequirements(const std::vector<NodeSelectorRequirementWithMinValues>& requirements,
                          std::string_view path, RequirementRules rules, FieldErrors* errors);

// One requirement at `path` (e.g. "spec.requirements[2]"):
//  admission: key required, ≤316, qualified-name pattern, CEL restricted keys/domains
//  (CrdLabelKeyViolations); operator required and in the enum; minValues 1..50; CEL: `In` needs
//  values, Gt/Lt/Gte/Lte need exactly one integer ≥ 0, `In`+minValues needs ≥ minValues values.
//  runtime (rules.runtime): key qualified name incl. length limits, IsRestrictedLabel on the
//  normalised key, every value a valid label value, and for well-known keys with known values
//  (capacity type, tenancy) under `In`: at least one known value and ≥ minValues known values.
void ValidateRequirement(const NodeSelectorRequirementWithMinValues& requirement,
                         std::string_view path, RequirementRules rules, FieldErrors* errors);

// Exactly the runtime rule set upstream's ValidateRequirement applies (provisioner: pod node
// selectors and required node affinity; NodeOverlay requirements), without admission-only rules.
void ValidateRequirementRuntime(const NodeSelectorRequirementWithMinValues& requirement,
                                std::string_view path, FieldErrors* errors);

// Taints and startup taints of one template/spec. Admission: key required + pattern, value
// pattern, effect required + enum. Runtime (`runtime`): key and value qualified names with length
// limits, and no two entries across both lists sharing key and effect.
void ValidateTaints(const std::vector<Taint>& taints, std::string_view taints_path,
                    const std::vector<Taint>& startup_taints, std::string_view startup_path,
                    bool runtime, FieldErrors* errors);

// nodeClassRef: required; group, kind, name non-empty; group without '/'. (The CEL rules making
// group and kind immutable need the previous version and are not applied.)
void ValidateNodeClassReference(const std::optional<NodeClassReference>& ref, std::string_view path,
                                FieldErrors* errors);

// expireAfter: ^(([0-9]+(s|m|h))+|Never)$ on the text as written (absent is fine: defaulted).
void ValidateExpireAfter(const std::optional<NillableDuration>& expire_after, std::string_view path,
                         FieldErrors* errors);
// terminationGracePeriod: ^([0-9]+(s|m|h))+$.
void ValidateTerminationGracePeriod(const std::optional<WrittenDuration>& grace_period,
                                    std::string_view path, FieldErrors* errors);

// status.conditions per the CRD: type required, ≤316, qualified-name pattern, unique (list-map
// key); status required, True|False|Unknown; lastTransitionTime required; reason ≤1024 matching
// ^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$ (required and non-empty when `reason_required`, as on
// NodePools; NodeClaims allow it empty); message ≤32768; observedGeneration ≥ 0.
void ValidateConditions(const std::vector<Condition>& conditions, std::string_view path,
                        bool reason_required, FieldErrors* errors);

// The CRD's qualified-name pattern (taint keys/values, requirement keys, condition types) without
// the length limits IsQualifiedName adds:
// ^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\/))?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$
bool MatchesQualifiedNamePattern(std::string_view value);
// Label-value pattern ^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$ (no length limit).
bool MatchesLabelValuePattern(std::string_view value);

// The API server's metadata rules for a cluster-scoped custom resource, at "metadata": name or
// generateName required; name a DNS-1123 subdomain (generateName too, ignoring a trailing '-');
// label keys qualified names and values valid label values; annotation keys qualified names and
// all annotations together at most 256 KiB.
void ValidateKarpenterObjectMeta(const ObjectMeta& metadata, FieldErrors* errors);

// Whole-object validation: apiVersion/kind, metadata, spec (admission rules, NodeClaim scope)
// and status.
void ValidateNodeClaim(const NodeClaim& node_claim, FieldErrors* errors);

}  // namespace karpenter::api
