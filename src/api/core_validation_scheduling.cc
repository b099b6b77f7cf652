// Upstream: pkg/apis/core/validation/validation.go (kubernetes/kubernetes)
// Validation of the scheduling constraints: tolerations, node taints, node selectors, pod
// (anti-)affinity and topology spread constraints (k8s.io/kubernetes core validation).
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/api/core_validation.h"
#include "src/api/core_validation_internal.h"
#include "src/api/labels.h"
#include "src/api/selector_match.h"

namespace karpenter::api {

using validation_internal::InvalidEach;
using validation_internal::ValidateQualifiedName;

namespace {

constexpr char kWeightRangeMsg[] = "must be in the range 1-100";

void ValidateTaintEffect(const std::string& effect, bool allow_empty, const std::string& path,
                         FieldErrors* errors) {
  if (effect.empty()) {
    if (!allow_empty) errors->Required(path);
    return;
  }
  if (effect != "NoSchedule" && effect != "PreferNoSchedule" && effect != "NoExecute") {
    errors->NotSupported(path, effect, {"NoSchedule", "PreferNoSchedule", "NoExecute"});
  }
}

void ValidateNodeSelectorRequirement(const NodeSelectorRequirement& requirement,
                                     const std::string& path, FieldErrors* errors) {
  const std::string values_path = ChildPath(path, "values");
  const std::string& op = requirement.operator_;
  if (op == "In" || op == "NotIn") {
    if (requirement.values.empty()) {
      errors->Required(values_path, "must be specified when `operator` is 'In' or 'NotIn'");
    }
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (!requirement.values.empty()) {
      errors->Forbidden(values_path,
                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
    }
  } else if (op == "Gt" || op == "Lt") {
    if (requirement.values.size() != 1) {
      errors->Required(values_path,
                       "must be specified single value when `operator` is 'Lt' or 'Gt'");
    }
  } else {
    errors->Invalid(ChildPath(path, "operator"), Quote(op), "not a valid selector operator");
  }
  ValidateQualifiedName(requirement.key, ChildPath(path, "key"), errors);
  for (size_t i = 0; i < requirement.values.size(); ++i) {
    InvalidEach(errors, IndexPath(values_path, i), Quote(requirement.values[i]),
                IsValidLabelValue(requirement.values[i]));
  }
}

// matchFields may only select on the node name.
void ValidateNodeFieldSelectorRequirement(const NodeSelectorRequirement& requirement,
                                          const std::string& path, FieldErrors* errors) {
  const std::string values_path = ChildPath(path, "values");
  if (requirement.operator_ == "In" || requirement.operator_ == "NotIn") {
    if (requirement.values.size() != 1) {
      errors->Required(values_path,
                       "must be only one value when `operator` is 'In' or 'NotIn' for node "
                       "field selector");
    }
  } else {
    errors->Invalid(ChildPath(path, "operator"), Quote(requirement.operator_),
                    "not a valid selector operator");
  }
  if (requirement.key != "metadata.name") {
    errors->Invalid(ChildPath(path, "key"), Quote(requirement.key),
                    "not a valid field selector key");
    return;
  }
  for (size_t i = 0; i < requirement.values.size(); ++i) {
    validation_internal::ValidateDns1123Subdomain(requirement.values[i], IndexPath(values_path, i),
                                                  errors);
  }
}

void ValidateNodeSelectorTerm(const NodeSelectorTerm& term, const std::string& path,
                              FieldErrors* errors) {
  const std::string expressions = ChildPath(path, "matchExpressions");
  for (size_t i = 0; i < term.match_expressions.size(); ++i) {
    ValidateNodeSelectorRequirement(term.match_expressions[i], IndexPath(expressions, i), errors);
  }
  const std::string fields = ChildPath(path, "matchFields");
  for (size_t i = 0; i < term.match_fields.size(); ++i) {
    ValidateNodeFieldSelectorRequirement(term.match_fields[i], IndexPath(fields, i), errors);
  }
}

void ValidateWeight(int32_t weight, const std::string& path, FieldErrors* errors) {
  if (weight <= 0 || weight > 100) {
    errors->Invalid(path, std::to_string(weight), kWeightRangeMsg);
  }
}

void ValidateNodeAffinity(const NodeAffinity& affinity, const std::string& path,
                          FieldErrors* errors) {
  if (affinity.required_during_scheduling_ignored_during_execution.has_value()) {
    ValidateNodeSelector(*affinity.required_during_scheduling_ignored_during_execution,
                         ChildPath(path, "requiredDuringSchedulingIgnoredDuringExecution"), errors);
  }
  const std::string preferred = ChildPath(path, "preferredDuringSchedulingIgnoredDuringExecution");
  const auto& terms = affinity.preferred_during_scheduling_ignored_during_execution;
  for (size_t i = 0; i < terms.size(); ++i) {
    const std::string term_path = IndexPath(preferred, i);
    ValidateWeight(terms[i].weight, ChildPath(term_path, "weight"), errors);
    ValidateNodeSelectorTerm(terms[i].preference, ChildPath(term_path, "preference"), errors);
  }
}

// Keys of a selector's matchLabels and matchExpressions.
std::set<std::string> SelectorKeys(const std::optional<LabelSelector>& selector) {
  std::set<std::string> keys;
  if (!selector.has_value()) return keys;
  for (const auto& [key, value] : selector->match_labels) keys.insert(key);
  for (const auto& requirement : selector->match_expressions) keys.insert(requirement.key);
  return keys;
}

// matchLabelKeys / mismatchLabelKeys of a pod affinity term.
void ValidateAffinityLabelKeys(const std::vector<std::string>& keys,
                               const std::optional<LabelSelector>& selector,
                               const std::string& path, FieldErrors* errors) {
  if (keys.empty()) return;
  if (!selector.has_value()) {
    errors->Forbidden(path, "must not be specified when labelSelector is not set");
    return;
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    ValidateQualifiedName(keys[i], IndexPath(path, i), errors);
  }
}

void ValidatePodAffinityTerm(const PodAffinityTerm& term, const std::string& path,
                             FieldErrors* errors) {
  if (term.label_selector.has_value()) {
    ValidateLabelSelector(*term.label_selector, ChildPath(path, "labelSelector"), errors);
  }
  if (term.namespace_selector.has_value()) {
    ValidateLabelSelector(*term.namespace_selector, ChildPath(path, "namespaceSelector"), errors);
  }
  for (const std::string& name : term.namespaces) {
    // Kubernetes reports these at ".namespace" (singular).
    validation_internal::ValidateDns1123Label(name, ChildPath(path, "namespace"), errors);
  }
  const std::string match_path = ChildPath(path, "matchLabelKeys");
  ValidateAffinityLabelKeys(term.match_label_keys, term.label_selector, match_path, errors);
  ValidateAffinityLabelKeys(term.mismatch_label_keys, term.label_selector,
                            ChildPath(path, "mismatchLabelKeys"), errors);
  const std::set<std::string> mismatch(term.mismatch_label_keys.begin(),
                                       term.mismatch_label_keys.end());
  for (size_t i = 0; i < term.match_label_keys.size(); ++i) {
    if (mismatch.count(term.match_label_keys[i]) > 0) {
      errors->Invalid(IndexPath(match_path, i), Quote(term.match_label_keys[i]),
                      "exists in both matchLabelKeys and mismatchLabelKeys");
    }
  }
  const std::string topology_path = ChildPath(path, "topologyKey");
  if (term.topology_key.empty()) {
    errors->Required(topology_path, "can not be empty");
  }
  ValidateQualifiedName(term.topology_key, topology_path, errors);
}

void ValidatePodAffinity(const PodAffinity& affinity, const std::string& path,
                         FieldErrors* errors) {
  const std::string required = ChildPath(path, "requiredDuringSchedulingIgnoredDuringExecution");
  const auto& required_terms = affinity.required_during_scheduling_ignored_during_execution;
  for (size_t i = 0; i < required_terms.size(); ++i) {
    ValidatePodAffinityTerm(required_terms[i], IndexPath(required, i), errors);
  }
  const std::string preferred = ChildPath(path, "preferredDuringSchedulingIgnoredDuringExecution");
  const auto& preferred_terms = affinity.preferred_during_scheduling_ignored_during_execution;
  for (size_t i = 0; i < preferred_terms.size(); ++i) {
    const std::string term_path = IndexPath(preferred, i);
    ValidateWeight(preferred_terms[i].weight, ChildPath(term_path, "weight"), errors);
    ValidatePodAffinityTerm(preferred_terms[i].pod_affinity_term,
                            ChildPath(term_path, "podAffinityTerm"), errors);
  }
}

void ValidateNodeInclusionPolicy(const std::optional<std::string>& policy, const std::string& path,
                                 FieldErrors* errors) {
  if (policy.has_value() && *policy != "Honor" && *policy != "Ignore") {
    errors->NotSupported(path, *policy, {"Honor", "Ignore"});
  }
}

void ValidateMinDomains(const TopologySpreadConstraint& constraint, const std::string& path,
                        FieldErrors* errors) {
  if (!constraint.min_domains.has_value()) return;
  validation_internal::ValidatePositive(*constraint.min_domains, path, errors);
  if (constraint.when_unsatisfiable != "DoNotSchedule") {
    errors->Invalid(path, std::to_string(*constraint.min_domains),
                    absl::StrCat("can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ",
                                 constraint.when_unsatisfiable));
  }
}

// matchLabelKeys narrow the selector by the incoming pod's own label values, so they need a
// selector to narrow and must not repeat keys the selector already names.
void ValidateSpreadMatchLabelKeys(const TopologySpreadConstraint& constraint,
                                  const std::string& path, FieldErrors* errors) {
  if (constraint.match_label_keys.empty()) return;
  if (!constraint.label_selector.has_value()) {
    errors->Forbidden(path, "must not be specified when labelSelector is not set");
  }
  const std::set<std::string> selector_keys = SelectorKeys(constraint.label_selector);
  for (size_t k = 0; k < constraint.match_label_keys.size(); ++k) {
    const std::string& key = constraint.match_label_keys[k];
    ValidateQualifiedName(key, IndexPath(path, k), errors);
    if (selector_keys.count(key) > 0) {
      errors->Invalid(IndexPath(path, k), Quote(key),
                      "exists in both matchLabelKeys and labelSelector");
    }
  }
}

}  // namespace

void ValidateTolerations(const std::vector<Toleration>& tolerations, std::string_view path,
                         FieldErrors* errors) {
  for (size_t i = 0; i < tolerations.size(); ++i) {
    const Toleration& toleration = tolerations[i];
    const std::string index_path = IndexPath(path, i);
    const std::string operator_path = ChildPath(index_path, "operator");
    if (!toleration.key.empty()) {
      ValidateQualifiedName(toleration.key, ChildPath(index_path, "key"), errors);
    }
    // An empty key only makes sense as "tolerate everything".
    if (toleration.key.empty() && toleration.operator_ != "Exists") {
      errors->Invalid(operator_path, Quote(toleration.operator_),
                      "operator must be Exists when `key` is empty, which means \"match all "
                      "values and all keys\"");
    }
    if (toleration.toleration_seconds.has_value() && toleration.effect != "NoExecute") {
      errors->Invalid(ChildPath(index_path, "effect"), Quote(toleration.effect),
                      "effect must be 'NoExecute' when `tolerationSeconds` is set");
    }
    // Kubernetes reports value problems at the operator path.
    if (toleration.operator_.empty() || toleration.operator_ == "Equal") {
      std::vector<std::string> messages = IsValidLabelValue(toleration.value);
      if (!messages.empty()) {
        errors->Invalid(operator_path, Quote(toleration.value), absl::StrJoin(messages, ";"));
      }
    } else if (toleration.operator_ == "Exists") {
      if (!toleration.value.empty()) {
        errors->Invalid(operator_path, Quote(toleration.value),
                        "value must be empty when `operator` is 'Exists'");
      }
    } else {
      errors->NotSupported(operator_path, toleration.operator_, {"Equal", "Exists"});
    }
    ValidateTaintEffect(toleration.effect, /*allow_empty=*/true, ChildPath(index_path, "effect"),
                        errors);
  }
}

void ValidateTaints(const std::vector<Taint>& taints, std::string_view path, FieldErrors* errors) {
  std::set<std::pair<std::string, std::string>> seen;  // (effect, key)
  for (size_t i = 0; i < taints.size(); ++i) {
    const Taint& taint = taints[i];
    const std::string index_path = IndexPath(path, i);
    ValidateQualifiedName(taint.key, ChildPath(index_path, "key"), errors);
    std::vector<std::string> messages = IsValidLabelValue(taint.value);
    if (!messages.empty()) {
      errors->Invalid(ChildPath(index_path, "value"), Quote(taint.value),
                      absl::StrJoin(messages, ";"));
    }
    ValidateTaintEffect(taint.effect, /*allow_empty=*/false, ChildPath(index_path, "effect"),
                        errors);
    if (!seen.emplace(taint.effect, taint.key).second) {
      errors->Add(index_path, "Duplicate value: " + Quote(taint.key + ":" + taint.effect) +
                                  ": taints must be unique by key and effect pair");
    }
  }
}

void ValidateNodeSelector(const NodeSelector& selector, std::string_view path,
                          FieldErrors* errors) {
  const std::string terms_path = ChildPath(path, "nodeSelectorTerms");
  if (selector.node_selector_terms.empty()) {
    errors->Required(terms_path, "must have at least one node selector term");
  }
  for (size_t i = 0; i < selector.node_selector_terms.size(); ++i) {
    ValidateNodeSelectorTerm(selector.node_selector_terms[i], IndexPath(terms_path, i), errors);
  }
}

void ValidateAffinity(const Affinity& affinity, std::string_view path, FieldErrors* errors) {
  if (affinity.node_affinity.has_value()) {
    ValidateNodeAffinity(*affinity.node_affinity, ChildPath(path, "nodeAffinity"), errors);
  }
  if (affinity.pod_affinity.has_value()) {
    ValidatePodAffinity(*affinity.pod_affinity, ChildPath(path, "podAffinity"), errors);
  }
  if (affinity.pod_anti_affinity.has_value()) {
    ValidatePodAffinity(*affinity.pod_anti_affinity, ChildPath(path, "podAntiAffinity"), errors);
  }
}

void ValidateTopologySpreadConstraints(const std::vector<TopologySpreadConstraint>& constraints,
                                       std::string_view path, FieldErrors* errors) {
  for (size_t i = 0; i < constraints.size(); ++i) {
    const TopologySpreadConstraint& constraint = constraints[i];
    const std::string index_path = IndexPath(path, i);
    validation_internal::ValidatePositive(constraint.max_skew, ChildPath(index_path, "maxSkew"),
                                          errors);
    if (constraint.topology_key.empty()) {
      errors->Required(ChildPath(index_path, "topologyKey"), "can not be empty");
    }
    const std::string& action = constraint.when_unsatisfiable;
    if (action != "DoNotSchedule" && action != "ScheduleAnyway") {
      errors->NotSupported(ChildPath(index_path, "whenUnsatisfiable"), action,
                           {"DoNotSchedule", "ScheduleAnyway"});
    }
    // {topologyKey, whenUnsatisfiable} identifies a constraint; report the first of a pair.
    for (size_t j = i + 1; j < constraints.size(); ++j) {
      if (constraints[j].topology_key == constraint.topology_key &&
          constraints[j].when_unsatisfiable == action) {
        errors->Duplicate(ChildPath(index_path, "{topologyKey, whenUnsatisfiable}"),
                          Quote(absl::StrCat("{", constraint.topology_key, ", ", action, "}")));
        break;
      }
    }
    ValidateMinDomains(constraint, ChildPath(index_path, "minDomains"), errors);
    ValidateNodeInclusionPolicy(constraint.node_affinity_policy,
                                ChildPath(index_path, "nodeAffinityPolicy"), errors);
    ValidateNodeInclusionPolicy(constraint.node_taints_policy,
                                ChildPath(index_path, "nodeTaintsPolicy"), errors);
    ValidateSpreadMatchLabelKeys(constraint, ChildPath(index_path, "matchLabelKeys"), errors);
    if (constraint.label_selector.has_value()) {
      ValidateLabelSelector(*constraint.label_selector, ChildPath(index_path, "labelSelector"),
                            errors);
    }
  }
}

}  // namespace karpenter::api
