// Validation of NodePools, with Kubernetes field paths
// (`spec.template.spec.requirements[2].operator: Unsupported value: "Foo": ...`).
//
// Rules, by where upstream enforces them (each problem is reported once even when both layers
// check it; shared template rules are listed in nodeclaim_validation.h):
//  admission (CRD OpenAPI + CEL):
//   - metadata: name (or generateName) a DNS-1123 subdomain; label/annotation key syntax.
//   - template labels: ≤100 entries; values ≤63 chars matching the label-value pattern; keys not
//     in the karpenter.sh domain (except capacity-type), not karpenter.sh/nodepool, not
//     kubernetes.io/hostname, not in karpenter.k8s.aws outside the AWS allow-list.
//   - template spec: taints, startupTaints, requirements (≤100), nodeClassRef, expireAfter,
//     terminationGracePeriod.
//   - disruption: consolidateAfter required (when the block is present) and matching
//     ^(([0-9]+(s|m|h))+|Never)$; consolidationPolicy ∈ WhenEmpty|WhenEmptyOrUnderutilized|
//     Balanced; budgets ≤50, each: nodes ^((100|[0-9]{1,2})%|[0-9]+)$, schedule pattern,
//     duration ^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$, schedule set iff duration set,
//     reasons ≤50 distinct values of Underutilized|Empty|Drifted.
//   - weight 1..100; replicas ≥ 0; with replicas set: no weight, and limits at most {nodes}.
//   - status.conditions (see ValidateConditions; reason required on NodePools).
//  runtime (nodepool validation controller, ValidationSucceeded=False):
//   - template label keys qualified names (with length limits) and not restricted
//     (IsRestrictedLabel, which also refuses e.g. karpenter.k8s.aws/ec2nodeclass).
//   - taints: qualified-name lengths, no duplicate key+effect across taints and startupTaints.
//   - requirements: see ValidateRequirement with runtime rules; karpenter.sh/nodepool refused.
//  beyond upstream: a budget schedule that passes the CRD pattern but does not parse as cron is
//  reported; upstream accepts it and then blocks all disruption of the pool (budget of 0).
//
// Not applicable to a single object (CEL transition rules, need the previous version):
// nodeClassRef.group and .kind immutable; no switch between static (replicas set) and dynamic.
//
// Presence caveats: an empty `consolidationPolicy` or budget `nodes` string is indistinguishable
// from an omitted one, so it is defaulted rather than refused; an absent `requirements` list
// equals an empty one (both accepted).
#pragma once

#include "src/api/field_errors.h"
#include "src/api/nodepool.h"

namespace karpenter::api {

inline constexpr size_t kMaxTemplateLabels = 100;
inline constexpr size_t kMaxBudgets = 50;
inline constexpr size_t kMaxBudgetReasons = 50;
inline constexpr int32_t kMinWeight = 1;
inline constexpr int32_t kMaxWeight = 100;

// Admission and runtime rules together: everything that would make the pool unusable.
void ValidateNodePool(const NodePool& node_pool, FieldErrors* errors);

// Only what the API server would refuse (CRD OpenAPI + CEL).
void ValidateNodePoolAdmission(const NodePool& node_pool, FieldErrors* errors);

// Only what upstream's RuntimeValidate reports (template labels, taints, requirements), i.e. what
// turns ValidationSucceeded False on a pool the API server accepted.
void RuntimeValidateNodePool(const NodePool& node_pool, FieldErrors* errors);

// ^((100|[0-9]{1,2})%|[0-9]+)$
bool MatchesBudgetNodesPattern(std::string_view value);
// ^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\s(.+)\s(.+)\s(.+)\s(.+))$
// with RE2 semantics ('.' is any byte but '\n'; the first branch is anchored only at the start,
// the second only at the end).
bool MatchesBudgetSchedulePattern(std::string_view value);

}  // namespace karpenter::api
