// A conjunction of per-key requirements (upstream scheduling.Requirements): what a pod asks of a
// node, what a NodePool or NodeClaim allows, what an instance type or offering provides. Keys
// are kept sorted, so iteration, printing and error messages are deterministic.
//
// Storage is a vector sorted by key (keys are few: typically under 20), which makes copies one
// allocation, lookups a binary search and the pairwise checks below a linear merge of the two
// key lists. `HasIntersection` and `IsCompatible` allocate nothing; the Status-returning
// variants build their message only on failure.
#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "karpenter/common/status.h"
#include "src/scheduling/requirement.h"
#include "src/scheduling/well_known_labels.h"

namespace karpenter::scheduling {

class Requirements {
 public:
  Requirements() = default;
  // Adds each in turn (repeated keys intersect).
  Requirements(std::initializer_list<Requirement> requirements);

  // Intersects `requirement` into the one already held for its key, or adds it.
  void Add(Requirement requirement);
  // Adds every requirement of `other`.
  void Add(const Requirements& other);
  // Drops the requirement on `key`; false when there was none.
  bool Remove(std::string_view key);

  bool Has(std::string_view key) const { return Find(key) != nullptr; }
  // The requirement on `key`, or null when the key is unconstrained. No allocation.
  const Requirement* Find(std::string_view key) const;
  // The requirement on `key`; an unconstrained key yields `key Exists` (any value, or none at
  // all, is fine), as upstream. Copies; prefer Find on hot paths.
  Requirement Get(std::string_view key) const;
  // The constrained keys, sorted.
  std::vector<std::string> Keys() const;

  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  // Iteration in key order.
  std::vector<Requirement>::const_iterator begin() const { return items_.begin(); }
  std::vector<Requirement>::const_iterator end() const { return items_.end(); }

  // Whether `incoming` (e.g. a pod's requirements) can be met by something satisfying `*this`
  // (e.g. a NodePool's). Two rules, as upstream:
  //  - a key `incoming` constrains with In or Exists (possibly bounded) must be defined here,
  //    unless it is in `allow_undefined`: a custom label no NodePool declares will never appear
  //    on a node. NotIn and DoesNotExist hold on a node without the label, so they pass.
  //    Failure: `label "K" does not have known values` plus a ` (typo of "W"?)` hint when a
  //    well-known or defined key looks like what was meant. Only the first such key is reported.
  //  - every shared key must intersect (see Intersects).
  // Passing the well-known label set is upstream's AllowUndefinedWellKnownLabels mode; the
  // overload without it is strict. Errors are FailedPrecondition.
  absl::Status Compatible(const Requirements& incoming,
                          const WellKnownLabels& allow_undefined) const;
  absl::Status Compatible(const Requirements& incoming) const;
  // Same decision as Compatible, without building a message. No allocation.
  bool IsCompatible(const Requirements& incoming, const WellKnownLabels& allow_undefined) const;
  bool IsCompatible(const Requirements& incoming) const;

  // Whether every key constrained on both sides has a value both allow. Keys constrained on one
  // side only are fine. An empty overlap is still fine when both sides are NotIn or
  // DoesNotExist, since a node without the label satisfies both. Symmetric.
  // Failure lists every offending key in order as `key K, <incoming> not in <existing>` joined
  // by "; " (upstream's multierr text); FailedPrecondition.
  absl::Status Intersects(const Requirements& incoming) const;
  // Same decision as Intersects. No allocation; O(keys + keys') merges plus the per-key checks.
  bool HasIntersection(const Requirements& incoming) const;
  // HasIntersection restricted to one key: whether `incoming` and the requirement held for its
  // key (if any) pass the same per-key rule. A set that passed HasIntersection against some
  // requirements passes it against a narrower one when this holds for every key that changed.
  bool HasIntersection(const Requirement& incoming) const;

  // Node labels implied by the requirements: for every key `skip` does not reject, `Any()` of
  // its requirement when non-empty. As upstream, a bounded or NotIn/Exists requirement yields a
  // number (e.g. "0") and an In with several values its smallest value. The NodeClaim template
  // skips well-known, restricted and simulation-only keys.
  std::map<std::string, std::string> Labels(absl::FunctionRef<bool(std::string_view)> skip) const;
  std::map<std::string, std::string> Labels() const;

  // Whether any requirement carries minValues.
  bool HasMinValues() const;

  // Every requirement's ToString, sorted, joined by ", "; kubernetes.io/hostname is left out
  // (per-node placeholders would drown the message), as upstream.
  std::string ToString() const;

  bool operator==(const Requirements& other) const = default;

 private:
  std::vector<Requirement>::iterator LowerBound(std::string_view key);
  bool HasIntersectionImpl(const Requirements& incoming, std::string* errors) const;
  bool UndefinedKeysAllowed(const Requirements& incoming, const WellKnownLabels* allow_undefined,
                            std::string* error) const;
  std::string LabelHint(std::string_view key, const WellKnownLabels* allow_undefined) const;

  std::vector<Requirement> items_;  // Sorted by key, one entry per key.
};

}  // namespace karpenter::scheduling
