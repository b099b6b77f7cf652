// Upstream: pkg/apis/v1/nodeclaim_validation.go (ValidateRequirement, validateWellKnownValues)
// and the requirement rules of pkg/apis/crds/karpenter.sh_nodepools.yaml / _nodeclaims.yaml.
#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <string>

#include "absl/strings/str_join.h"
#include "src/api/labels.h"
#include "src/api/nodeclaim_validation.h"
#include "src/api/template_validation.h"

namespace karpenter::api {
namespace {

constexpr std::array<std::string_view, 8> kOperators = {
    kNodeSelectorOpIn, kNodeSelectorOpNotIn, kNodeSelectorOpExists, kNodeSelectorOpDoesNotExist,
    kNodeSelectorOpGt, kNodeSelectorOpLt,    kNodeSelectorOpGte,    kNodeSelectorOpLte};

constexpr std::string_view kInNeedsValues =
    "requirements with operator 'In' must have a value defined";
constexpr std::string_view kComparisonNeedsInteger =
    "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value";
constexpr std::string_view kMinValuesExceedsValues =
    "requirements with 'minValues' must have at least that many values specified in the "
    "'values' field";

bool IsComparison(std::string_view op) {
  return op == kNodeSelectorOpGt || op == kNodeSelectorOpLt || op == kNodeSelectorOpGte ||
         op == kNodeSelectorOpLte;
}

// CEL int(string) and Go's strconv.Atoi agree: optional sign, decimal digits, 64-bit range.
std::optional<int64_t> ParseInt64(std::string_view text) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && text.front() == '-') return std::nullopt;
  }
  if (text.empty() || text.front() == '+') return std::nullopt;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string QuoteAll(std::span<const std::string_view> values) {
  std::vector<std::string> quoted;
  for (std::string_view v : values) quoted.push_back(Quote(v));
  return absl::StrJoin(quoted, ", ");
}

void CheckKey(const NodeSelectorRequirementWithMinValues& requirement, const std::string& path,
              LabelKeyScope scope, const ValidationLayers& layers, FieldErrors* errors) {
  const std::string& key = requirement.key;
  if (key.empty() && layers.admission) {
    errors->Required(path);
    return;
  }
  if (layers.admission && key.size() > kMaxRequirementKeyLength) {
    errors->TooLong(path, kMaxRequirementKeyLength);
  }
  // The runtime layer checks the normalised key; normalisation only maps aliases to valid keys.
  const std::string_view normalized = NormalizeLabelKey(key);
  CheckQualifiedName(layers.runtime ? normalized : key, path, layers, errors);
  bool restricted_by_crd = false;
  if (layers.admission) {
    for (std::string_view message : CrdLabelKeyViolations(key, scope)) {
      errors->Invalid(path, Quote(key), message);
      restricted_by_crd = true;
    }
  }
  if (!layers.runtime || restricted_by_crd) return;
  if (IsRestrictedLabel(normalized)) {
    errors->Invalid(path, Quote(key), RestrictedLabelMessage(normalized));
  } else if (scope == LabelKeyScope::kNodePool && key == kNodePoolLabelKey) {
    errors->Invalid(path, Quote(key), "label \"karpenter.sh/nodepool\" is restricted");
  }
}

// Runtime rule for keys whose useful values are known (capacity type, tenancy): `In` must name
// at least one of them, and at least minValues of them. Unknown values next to known ones are
// tolerated (upstream logs and drops them).
void CheckWellKnownValues(const NodeSelectorRequirementWithMinValues& requirement,
                          const std::string& values_path, bool min_values_reported,
                          FieldErrors* errors) {
  const std::string_view key = NormalizeLabelKey(requirement.key);
  if (requirement.operator_ != kNodeSelectorOpIn || requirement.values.empty() ||
      !IsWellKnownLabel(key)) {
    return;
  }
  std::span<const std::string_view> known = WellKnownValuesFor(key);
  if (known.empty()) return;
  const auto valid = std::count_if(
      requirement.values.begin(), requirement.values.end(), [&](const std::string& value) {
        return std::find(known.begin(), known.end(), value) != known.end();
      });
  if (valid == 0) {
    errors->Invalid(
        values_path, QuoteList(requirement.values),
        "no valid values found for key " + Quote(key) + ", expected one of: " + QuoteAll(known));
    return;
  }
  if (requirement.min_values && valid < *requirement.min_values && !min_values_reported) {
    errors->Invalid(values_path, QuoteList(requirement.values),
                    "not enough valid values found for key " + Quote(key) + ", expected at least " +
                        std::to_string(*requirement.min_values) + " from: " + QuoteAll(known));
  }
}

void CheckMinValuesRange(int64_t min_values, const std::string& path, FieldErrors* errors) {
  if (min_values < kMinValuesMinimum) {
    errors->Invalid(path, std::to_string(min_values),
                    "should be greater than or equal to " + std::to_string(kMinValuesMinimum));
  } else if (min_values > kMinValuesMaximum) {
    errors->Invalid(path, std::to_string(min_values),
                    "should be less than or equal to " + std::to_string(kMinValuesMaximum));
  }
}

}  // namespace

std::string QuoteList(const std::vector<std::string>& values) {
  std::vector<std::string> quoted;
  quoted.reserve(values.size());
  for (const std::string& v : values) quoted.push_back(Quote(v));
  return "[" + absl::StrJoin(quoted, ", ") + "]";
}

void CheckRequirement(const NodeSelectorRequirementWithMinValues& requirement,
                      std::string_view path, LabelKeyScope scope, const ValidationLayers& layers,
                      FieldErrors* errors) {
  CheckKey(requirement, ChildPath(path, "key"), scope, layers, errors);

  const std::string& op = requirement.operator_;
  const std::string op_path = ChildPath(path, "operator");
  if (op.empty() && layers.admission) {
    errors->Required(op_path);
  } else if (std::find(kOperators.begin(), kOperators.end(), op) == kOperators.end()) {
    errors->NotSupported(op_path, op, {kOperators.begin(), kOperators.end()});
  }

  const std::string values_path = ChildPath(path, "values");
  bool comparison_failed = false;
  if (IsComparison(op)) {
    std::optional<int64_t> value;
    if (requirement.values.size() == 1) value = ParseInt64(requirement.values[0]);
    comparison_failed = !value || *value < 0;
    if (comparison_failed) {
      errors->Invalid(values_path, QuoteList(requirement.values), kComparisonNeedsInteger);
    }
  }
  // The CRD declares the label-value pattern on the array itself, where OpenAPI ignores it, so
  // only the runtime layer checks values. A value already refused as a comparison operand ("-1")
  // is not reported a second time.
  if (layers.runtime && !comparison_failed) {
    for (size_t i = 0; i < requirement.values.size(); ++i) {
      std::vector<std::string> problems = IsValidLabelValue(requirement.values[i]);
      if (problems.empty()) continue;
      errors->Invalid(IndexPath(values_path, i), Quote(requirement.values[i]),
                      absl::StrJoin(problems, "; "));
    }
  }
  if (op == kNodeSelectorOpIn && requirement.values.empty()) {
    errors->Required(values_path, kInNeedsValues);
  }

  const std::string min_values_path = ChildPath(path, "minValues");
  bool min_values_reported = false;
  if (requirement.min_values) {
    const int64_t min_values = *requirement.min_values;
    if (layers.admission) CheckMinValuesRange(min_values, min_values_path, errors);
    if (op == kNodeSelectorOpIn && static_cast<int64_t>(requirement.values.size()) < min_values) {
      errors->Invalid(min_values_path, std::to_string(min_values), kMinValuesExceedsValues);
      min_values_reported = true;
    }
  }
  if (layers.runtime) CheckWellKnownValues(requirement, values_path, min_values_reported, errors);
}

void ValidateRequirement(const NodeSelectorRequirementWithMinValues& requirement,
                         std::string_view path, RequirementRules rules, FieldErrors* errors) {
  CheckRequirement(requirement, path, rules.scope,
                   ValidationLayers{.admission = true, .runtime = rules.runtime}, errors);
}

void ValidateRequirementRuntime(const NodeSelectorRequirementWithMinValues& requirement,
                                std::string_view path, FieldErrors* errors) {
  // Upstream's shared rule has no notion of the owner; only NodePool validation adds the
  // karpenter.sh/nodepool key check, so the NodeClaim scope is the neutral one here.
  CheckRequirement(requirement, path, LabelKeyScope::kNodeClaim,
                   ValidationLayers{.admission = false, .runtime = true}, errors);
}

void ValidateRequirements(const std::vector<NodeSelectorRequirementWithMinValues>& requirements,
                          std::string_view path, RequirementRules rules, FieldErrors* errors) {
  if (requirements.size() > kMaxRequirements) {
    errors->TooMany(std::string(path), requirements.size(), kMaxRequirements);
  }
  for (size_t i = 0; i < requirements.size(); ++i) {
    ValidateRequirement(requirements[i], IndexPath(path, i), rules, errors);
  }
}

}  // namespace karpenter::api
