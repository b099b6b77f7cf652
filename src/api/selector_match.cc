// Label- and node-selector matching and label-selector validation. The `-l` string parser
// lives in selector_parse.cc.
#include "src/api/selector_match.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "src/api/decimal.h"
#include "src/api/labels.h"

namespace karpenter::api {
namespace {

bool Contains(const std::vector<std::string>& values, std::string_view value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// The bound of a Gt/Lt requirement. Kubernetes requires it to be both a valid label value and
// a base-10 int64, which together leave only plain digit strings (a sign is not a label
// character).
std::optional<int64_t> ParseBound(std::string_view s) {
  if (s.empty() || s.size() > 63) return std::nullopt;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  return ParseDecimalInt64(s);
}

// Shared by label-selector expressions and node-selector expressions for the four set-based
// operators. Returns nullopt for an operator it does not handle.
std::optional<bool> MatchSetOperator(std::string_view op, const std::string& key,
                                     const std::vector<std::string>& values,
                                     const LabelMap& labels) {
  if (op == kSelectorOpIn || op == kSelectorOpNotIn) {
    if (values.empty()) return false;  // Kubernetes refuses to build this requirement.
    auto it = labels.find(key);
    if (op == kSelectorOpIn) return it != labels.end() && Contains(values, it->second);
    return it == labels.end() || !Contains(values, it->second);
  }
  if (op == kSelectorOpExists || op == kSelectorOpDoesNotExist) {
    if (!values.empty()) return false;
    bool present = labels.find(key) != labels.end();
    return op == kSelectorOpExists ? present : !present;
  }
  return std::nullopt;
}

bool MatchFieldRequirement(const NodeSelectorRequirement& requirement, std::string_view node_name) {
  // Only metadata.name exists; any other field reads as the empty string.
  std::string_view actual = requirement.key == kNodeNameField ? node_name : std::string_view{};
  bool equal = actual == requirement.values.front();
  return requirement.operator_ == kSelectorOpIn ? equal : !equal;
}

bool IsWellFormedFieldRequirement(const NodeSelectorRequirement& requirement) {
  return (requirement.operator_ == kSelectorOpIn || requirement.operator_ == kSelectorOpNotIn) &&
         requirement.values.size() == 1;
}

void ValidateLabelName(std::string_view key, const std::string& path, FieldErrors* errors) {
  for (const std::string& msg : IsQualifiedName(key)) errors->Invalid(path, Quote(key), msg);
}

}  // namespace

bool Matches(const LabelSelector& selector, const LabelMap& labels) {
  for (const auto& [key, value] : selector.match_labels) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  for (const LabelSelectorRequirement& expr : selector.match_expressions) {
    std::optional<bool> matched = MatchSetOperator(expr.operator_, expr.key, expr.values, labels);
    if (!matched.value_or(false)) return false;
  }
  return true;
}

bool Matches(const std::optional<LabelSelector>& selector, const LabelMap& labels) {
  return selector.has_value() && Matches(*selector, labels);
}

void ValidateLabels(const LabelMap& labels, std::string_view path, FieldErrors* errors) {
  std::string p(path);
  for (const auto& [key, value] : labels) {
    ValidateLabelName(key, p, errors);
    for (const std::string& msg : IsValidLabelValue(value)) errors->Invalid(p, Quote(value), msg);
  }
}

void ValidateLabelSelector(const LabelSelector& selector, std::string_view path,
                           FieldErrors* errors) {
  ValidateLabels(selector.match_labels, ChildPath(path, "matchLabels"), errors);
  std::string expressions_path = ChildPath(path, "matchExpressions");
  for (size_t i = 0; i < selector.match_expressions.size(); ++i) {
    const LabelSelectorRequirement& expr = selector.match_expressions[i];
    std::string expr_path = IndexPath(expressions_path, i);
    const std::string& op = expr.operator_;
    if (op == kSelectorOpIn || op == kSelectorOpNotIn) {
      if (expr.values.empty()) {
        errors->Required(ChildPath(expr_path, "values"),
                         "must be specified when `operator` is 'In' or 'NotIn'");
      }
    } else if (op == kSelectorOpExists || op == kSelectorOpDoesNotExist) {
      if (!expr.values.empty()) {
        errors->Forbidden(ChildPath(expr_path, "values"),
                          "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
      }
    } else {
      errors->Invalid(ChildPath(expr_path, "operator"), Quote(op), "not a valid selector operator");
    }
    ValidateLabelName(expr.key, ChildPath(expr_path, "key"), errors);
    std::string values_path = ChildPath(expr_path, "values");
    for (size_t j = 0; j < expr.values.size(); ++j) {
      for (const std::string& msg : IsValidLabelValue(expr.values[j])) {
        errors->Invalid(IndexPath(values_path, j), Quote(expr.values[j]), msg);
      }
    }
  }
}

bool Matches(const NodeSelectorRequirement& requirement, const LabelMap& labels) {
  const std::string& op = requirement.operator_;
  if (std::optional<bool> matched =
          MatchSetOperator(op, requirement.key, requirement.values, labels)) {
    return *matched;
  }
  bool gt = op == kSelectorOpGt, lt = op == kSelectorOpLt;
  bool gte = op == kSelectorOpGte, lte = op == kSelectorOpLte;
  if (!(gt || lt || gte || lte) || requirement.values.size() != 1) return false;
  std::optional<int64_t> bound = ParseBound(requirement.values.front());
  if (!bound) return false;
  auto it = labels.find(requirement.key);
  if (it == labels.end()) return false;
  std::optional<int64_t> actual = ParseDecimalInt64(it->second);
  if (!actual) return false;
  if (gt) return *actual > *bound;
  if (lt) return *actual < *bound;
  if (gte) return *actual >= *bound;
  return *actual <= *bound;
}

bool Matches(const NodeSelectorTerm& term, const LabelMap& labels, std::string_view node_name) {
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  // Malformed field requirements fail the term even when fields are not consulted, because
  // Kubernetes rejects them while building the selector, before it looks at the node.
  for (const NodeSelectorRequirement& field : term.match_fields) {
    if (!IsWellFormedFieldRequirement(field)) return false;
  }
  for (const NodeSelectorRequirement& expr : term.match_expressions) {
    if (!Matches(expr, labels)) return false;
  }
  if (!node_name.empty()) {
    for (const NodeSelectorRequirement& field : term.match_fields) {
      if (!MatchFieldRequirement(field, node_name)) return false;
    }
  }
  return true;
}

bool Matches(const NodeSelector& selector, const LabelMap& labels, std::string_view node_name) {
  return std::any_of(
      selector.node_selector_terms.begin(), selector.node_selector_terms.end(),
      [&](const NodeSelectorTerm& term) { return Matches(term, labels, node_name); });
}

}  // namespace karpenter::api
