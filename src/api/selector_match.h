// Matching, validation and parsing for label selectors and node selectors, with the semantics
// of k8s.io/apimachinery (labels, metav1 helpers and validation) and of the scheduler's node
// affinity helpers, plus Karpenter's Gte/Lte operators.
//
// Matching is on hot paths (every pod against every node or pod), so it checks only the
// structure Kubernetes' selector construction would reject (unknown operator, wrong number of
// values, non-integer bound) and treats such a requirement as matching nothing. It does not
// re-check key and value spelling: that is what ValidateLabelSelector and the API server do.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "karpenter/common/status.h"
#include "src/api/field_errors.h"
#include "src/api/selector.h"

namespace karpenter::api {

using LabelMap = std::map<std::string, std::string>;

// Operator spellings shared by label and node selectors.
inline constexpr std::string_view kSelectorOpIn = "In";
inline constexpr std::string_view kSelectorOpNotIn = "NotIn";
inline constexpr std::string_view kSelectorOpExists = "Exists";
inline constexpr std::string_view kSelectorOpDoesNotExist = "DoesNotExist";
inline constexpr std::string_view kSelectorOpGt = "Gt";
inline constexpr std::string_view kSelectorOpLt = "Lt";
// Karpenter-only inclusive bounds (NodePool requirements, since v1.10).
inline constexpr std::string_view kSelectorOpGte = "Gte";
inline constexpr std::string_view kSelectorOpLte = "Lte";

// The field name a NodeSelectorTerm's matchFields may refer to.
inline constexpr std::string_view kNodeNameField = "metadata.name";

// --- Label selectors (metav1.LabelSelector) ---

// True when every matchLabels pair and every matchExpression holds. An empty selector matches
// everything. NotIn and DoesNotExist hold when the key is absent. A malformed requirement (In or
// NotIn without values, Exists or DoesNotExist with values, unknown operator) makes the selector
// match nothing, as metav1.LabelSelectorAsSelector would fail for it.
//
// A *null* selector (an unset optional field) matches nothing in Kubernetes, unlike an empty
// one; callers holding a std::optional use the overload below, which encodes that rule.
bool Matches(const LabelSelector& selector, const LabelMap& labels);
// nullopt matches nothing; otherwise as above.
bool Matches(const std::optional<LabelSelector>& selector, const LabelMap& labels);

// Field validation of a label selector (metav1 validation.ValidateLabelSelector): matchLabels
// keys and values, and per expression the operator, the value count it needs, the key and each
// value. Appends to `errors` under `path` (e.g. "spec.selector").
void ValidateLabelSelector(const LabelSelector& selector, std::string_view path,
                           FieldErrors* errors);

// Validates a label map (metav1 validation.ValidateLabels). As in Kubernetes every error is
// reported at `path` itself, not at a per-key path.
void ValidateLabels(const LabelMap& labels, std::string_view path, FieldErrors* errors);

// Parses kubectl's `-l` syntax (labels.Parse followed by metav1.ParseToLabelSelector), e.g.
// `a=b,c!=d,e in (x,y),f notin (z),g,!h`. `=`/`==` become matchLabels; `!=` becomes NotIn
// with one value; `in`/`notin` values are de-duplicated and sorted; `()` means the single
// empty value. `>`/`<` parse but are rejected since LabelSelector cannot express them. An
// empty string yields the empty (match-everything) selector.
absl::StatusOr<LabelSelector> ParseSelector(std::string_view selector);

// --- Node selectors (v1.NodeSelector) ---

// One node-affinity expression against a node's labels. In/NotIn/Exists/DoesNotExist as for
// label selectors. Gt/Lt (and Karpenter's Gte/Lte) compare the label and the single value as
// 64-bit integers; a missing or non-integer label never matches, and a bound that is not a
// plain non-negative decimal (what Kubernetes accepts) makes the requirement match nothing.
bool Matches(const NodeSelectorRequirement& requirement, const LabelMap& labels);

// A term ANDs its expressions. A term with neither matchExpressions nor matchFields matches
// nothing. matchFields may only use In/NotIn with exactly one value (anything else makes the
// term match nothing) and compare against "metadata.name"; as in Kubernetes they are only
// consulted when `node_name` is non-empty.
bool Matches(const NodeSelectorTerm& term, const LabelMap& labels, std::string_view node_name = {});

// A node selector ORs its terms; no terms matches nothing.
bool Matches(const NodeSelector& selector, const LabelMap& labels, std::string_view node_name = {});

}  // namespace karpenter::api
