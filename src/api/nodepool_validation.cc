// Upstream: pkg/apis/v1/nodepool_validation.go, pkg/apis/crds/karpenter.sh_nodepools.yaml
#include "src/api/nodepool_validation.h"

#include <algorithm>
#include <array>
#include <set>
#include <string>

#include "absl/strings/str_join.h"
#include "src/api/cron.h"
#include "src/api/duration_patterns.h"
#include "src/api/labels.h"
#include "src/api/nodeclaim_validation.h"
#include "src/api/template_validation.h"

namespace karpenter::api {
namespace {

constexpr std::string_view kBudgetNodesPattern = "^((100|[0-9]{1,2})%|[0-9]+)$";
constexpr std::string_view kBudgetSchedulePattern =
    "^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\\s(.+)\\s(.+)\\s(.+)\\s(.+))"
    "$";
constexpr std::string_view kLabelValuePattern = "^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$";
constexpr size_t kMaxLabelValueLength = 63;
constexpr std::string_view kScheduleNeedsDuration = "'schedule' must be set with 'duration'";

constexpr std::array<std::string_view, 3> kConsolidationPolicies = {
    kConsolidationPolicyWhenEmpty, kConsolidationPolicyWhenEmptyOrUnderutilized,
    kConsolidationPolicyBalanced};
constexpr std::array<std::string_view, 3> kDisruptionReasons = {
    kDisruptionReasonUnderutilized, kDisruptionReasonEmpty, kDisruptionReasonDrifted};
constexpr std::array<std::string_view, 7> kScheduleMacros = {
    "@annually", "@yearly", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
// RE2's \s.
bool IsRe2Space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

template <size_t N>
std::vector<std::string_view> AsVector(const std::array<std::string_view, N>& values) {
  return {values.begin(), values.end()};
}

void ValidateTemplateLabels(const std::map<std::string, std::string>& labels,
                            const ValidationLayers& layers, FieldErrors* errors) {
  constexpr std::string_view kPath = "spec.template.metadata.labels";
  if (layers.admission && labels.size() > kMaxTemplateLabels) {
    errors->TooMany(std::string(kPath), labels.size(), kMaxTemplateLabels);
  }
  for (const auto& [key, value] : labels) {
    const std::string path = KeyPath(kPath, key);
    if (layers.runtime) {
      std::vector<std::string> problems = IsQualifiedName(key);
      if (!problems.empty()) errors->Invalid(path, Quote(key), absl::StrJoin(problems, "; "));
    }
    bool restricted_by_crd = false;
    if (layers.admission) {
      for (std::string_view message : CrdLabelKeyViolations(key, LabelKeyScope::kNodePool)) {
        errors->Invalid(path, Quote(key), message);
        restricted_by_crd = true;
      }
    }
    if (layers.runtime && !restricted_by_crd) {
      if (IsRestrictedLabel(key)) {
        errors->Invalid(path, Quote(key), RestrictedLabelMessage(key));
      } else if (key == kNodePoolLabelKey) {
        errors->Invalid(path, Quote(key), "label \"karpenter.sh/nodepool\" is restricted");
      }
    }
    if (layers.admission) {
      // The CRD's maxLength and pattern are exactly IsValidLabelValue's rules.
      if (value.size() > kMaxLabelValueLength) errors->TooLong(path, kMaxLabelValueLength);
      if (!MatchesLabelValuePattern(value)) {
        errors->Invalid(path, Quote(value), PatternDetail(kLabelValuePattern));
      }
    } else {
      std::vector<std::string> problems = IsValidLabelValue(value);
      if (!problems.empty()) errors->Invalid(path, Quote(value), absl::StrJoin(problems, "; "));
    }
  }
}

void ValidateTemplate(const NodeClaimTemplate& node_claim_template, const ValidationLayers& layers,
                      FieldErrors* errors) {
  ValidateTemplateLabels(node_claim_template.metadata.labels, layers, errors);
  const NodeClaimTemplateSpec& spec = node_claim_template.spec;
  ValidateTaintLists(spec.taints, "spec.template.spec.taints", spec.startup_taints,
                     "spec.template.spec.startupTaints", layers, errors);
  constexpr std::string_view kRequirements = "spec.template.spec.requirements";
  if (layers.admission && spec.requirements.size() > kMaxRequirements) {
    errors->TooMany(std::string(kRequirements), spec.requirements.size(), kMaxRequirements);
  }
  for (size_t i = 0; i < spec.requirements.size(); ++i) {
    CheckRequirement(spec.requirements[i], IndexPath(kRequirements, i), LabelKeyScope::kNodePool,
                     layers, errors);
  }
  if (!layers.admission) return;
  ValidateNodeClassReference(spec.node_class_ref, "spec.template.spec.nodeClassRef", errors);
  ValidateExpireAfter(spec.expire_after, "spec.template.spec.expireAfter", errors);
  ValidateTerminationGracePeriod(spec.termination_grace_period,
                                 "spec.template.spec.terminationGracePeriod", errors);
}

void ValidateBudgetSchedule(const Budget& budget, const std::string& path, FieldErrors* errors) {
  const std::string schedule_path = ChildPath(path, "schedule");
  const std::string duration_path = ChildPath(path, "duration");
  if (budget.schedule) {
    if (!MatchesBudgetSchedulePattern(*budget.schedule)) {
      errors->Invalid(schedule_path, Quote(*budget.schedule),
                      PatternDetail(kBudgetSchedulePattern));
    } else if (absl::Status cron = ValidateCron(*budget.schedule); !cron.ok()) {
      errors->Invalid(schedule_path, Quote(*budget.schedule),
                      "invalid cron schedule: " + std::string(cron.message()));
    }
  }
  if (budget.duration) {
    const std::string text = PatternText(*budget.duration);
    if (!MatchesBudgetDurationPattern(text)) {
      errors->Invalid(duration_path, Quote(text), PatternDetail(kBudgetDurationPattern));
    }
  }
  // CEL on the list: self.all(x, has(x.schedule) == has(x.duration)); reported on the missing one.
  if (budget.schedule && !budget.duration) errors->Required(duration_path, kScheduleNeedsDuration);
  if (budget.duration && !budget.schedule) errors->Required(schedule_path, kScheduleNeedsDuration);
}

void ValidateBudget(const Budget& budget, const std::string& path, FieldErrors* errors) {
  const std::string reasons_path = ChildPath(path, "reasons");
  if (budget.reasons.size() > kMaxBudgetReasons) {
    errors->TooMany(reasons_path, budget.reasons.size(), kMaxBudgetReasons);
  }
  std::set<std::string_view> seen;
  for (size_t i = 0; i < budget.reasons.size(); ++i) {
    const std::string& reason = budget.reasons[i];
    const std::string reason_path = IndexPath(reasons_path, i);
    if (std::find(kDisruptionReasons.begin(), kDisruptionReasons.end(), reason) ==
        kDisruptionReasons.end()) {
      errors->NotSupported(reason_path, reason, AsVector(kDisruptionReasons));
    }
    // x-kubernetes-list-type: set
    if (!seen.insert(reason).second) errors->Duplicate(reason_path, Quote(reason));
  }
  // An omitted `nodes` is defaulted; one written as "" is checked like any other value.
  if (budget.nodes && !MatchesBudgetNodesPattern(*budget.nodes)) {
    errors->Invalid(ChildPath(path, "nodes"), Quote(*budget.nodes),
                    PatternDetail(kBudgetNodesPattern));
  }
  ValidateBudgetSchedule(budget, path, errors);
}

void ValidateDisruption(const Disruption& disruption, FieldErrors* errors) {
  constexpr std::string_view kPath = "spec.disruption";
  if (!disruption.consolidate_after) {
    errors->Required(ChildPath(kPath, "consolidateAfter"));
  } else if (const std::string text = PatternText(*disruption.consolidate_after);
             !MatchesKarpenterDurationPattern(text)) {
    errors->Invalid(ChildPath(kPath, "consolidateAfter"), Quote(text),
                    PatternDetail(kKarpenterDurationPattern));
  }
  if (!disruption.consolidation_policy.empty() &&
      std::find(kConsolidationPolicies.begin(), kConsolidationPolicies.end(),
                disruption.consolidation_policy) == kConsolidationPolicies.end()) {
    errors->NotSupported(ChildPath(kPath, "consolidationPolicy"), disruption.consolidation_policy,
                         AsVector(kConsolidationPolicies));
  }
  if (!disruption.budgets) return;
  const std::vector<Budget>& budgets = *disruption.budgets;
  const std::string budgets_path = ChildPath(kPath, "budgets");
  if (budgets.size() > kMaxBudgets) errors->TooMany(budgets_path, budgets.size(), kMaxBudgets);
  for (size_t i = 0; i < budgets.size(); ++i) {
    ValidateBudget(budgets[i], IndexPath(budgets_path, i), errors);
  }
}

// weight, replicas and the CEL rules for static pools.
void ValidateScaling(const NodePoolSpec& spec, FieldErrors* errors) {
  if (spec.weight && (*spec.weight < kMinWeight || *spec.weight > kMaxWeight)) {
    errors->Invalid("spec.weight", std::to_string(*spec.weight),
                    *spec.weight < kMinWeight ? "should be greater than or equal to 1"
                                              : "should be less than or equal to 100");
  }
  if (!spec.replicas) return;
  if (*spec.replicas < 0) {
    errors->Invalid("spec.replicas", std::to_string(*spec.replicas),
                    "should be greater than or equal to 0");
  }
  const bool only_nodes_limit =
      spec.limits.empty() || (spec.limits.size() == 1 && spec.limits.contains("nodes"));
  if (!only_nodes_limit) {
    errors->Forbidden("spec.limits", "only 'limits.nodes' is supported on static NodePools");
  }
  if (spec.weight)
    errors->Forbidden("spec.weight", "'weight' is not supported on static NodePools");
}

void ValidateWithLayers(const NodePool& node_pool, const ValidationLayers& layers,
                        FieldErrors* errors) {
  if (layers.admission) {
    ValidateTypeMeta(node_pool.api_version, node_pool.kind, "NodePool", errors);
    ValidateKarpenterObjectMeta(node_pool.metadata, errors);
  }
  ValidateTemplate(node_pool.spec.template_, layers, errors);
  if (!layers.admission) return;
  if (node_pool.spec.disruption) ValidateDisruption(*node_pool.spec.disruption, errors);
  ValidateScaling(node_pool.spec, errors);
  ValidateConditions(node_pool.status.conditions, "status.conditions", /*reason_required=*/true,
                     errors);
}

}  // namespace

bool MatchesBudgetNodesPattern(std::string_view value) {
  if (value.empty()) return false;
  if (value.back() != '%') return std::all_of(value.begin(), value.end(), IsDigit);
  std::string_view number = value.substr(0, value.size() - 1);
  if (number == "100") return true;
  return !number.empty() && number.size() <= 2 &&
         std::all_of(number.begin(), number.end(), IsDigit);
}

bool MatchesBudgetSchedulePattern(std::string_view value) {
  for (std::string_view macro : kScheduleMacros) {
    if (value.starts_with(macro)) return true;
  }
  // Simulate (.+)\s(.+)\s(.+)\s(.+)\s(.+)$ unanchored at the start. Bit 2k: about to start group
  // k (needs one character); bit 2k+1: inside group k.
  constexpr int kGroups = 5;
  uint32_t states = 0;
  for (char c : value) {
    states |= 1u;  // a match may start at any position
    uint32_t next = 0;
    for (int k = 0; k < kGroups; ++k) {
      const bool start = states & (1u << (2 * k));
      const bool inside = states & (1u << (2 * k + 1));
      if ((start || inside) && c != '\n') next |= 1u << (2 * k + 1);
      if (inside && IsRe2Space(c) && k + 1 < kGroups) next |= 1u << (2 * (k + 1));
    }
    states = next;
  }
  return states & (1u << (2 * (kGroups - 1) + 1));
}

void ValidateNodePool(const NodePool& node_pool, FieldErrors* errors) {
  ValidateWithLayers(node_pool, ValidationLayers{.admission = true, .runtime = true}, errors);
}

void ValidateNodePoolAdmission(const NodePool& node_pool, FieldErrors* errors) {
  ValidateWithLayers(node_pool, ValidationLayers{.admission = true, .runtime = false}, errors);
}

void RuntimeValidateNodePool(const NodePool& node_pool, FieldErrors* errors) {
  ValidateWithLayers(node_pool, ValidationLayers{.admission = false, .runtime = true}, errors);
}

}  // namespace karpenter::api
