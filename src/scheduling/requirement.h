// One label key's allowed values, as Karpenter's scheduler reasons about them: the set algebra
// behind node selectors, node affinity and NodePool/instance-type requirements.
//
// A `Requirement` is either a finite set of strings (In; empty = DoesNotExist) or the complement
// of a finite set (NotIn; nothing excluded = Exists), optionally narrowed by inclusive integer
// bounds. Gt/Lt are stored as Gte/Lte of the neighbouring integer. Only complements carry bounds:
// intersecting a finite set with bounds filters the set and drops the bounds. Values with bounds
// must parse as base-10 int64 (Go's strconv.Atoi rules: optional sign, leading zeros allowed);
// anything else is outside every bound.
//
// Values are kept sorted and unique, so iteration, printing and `Any()` are deterministic. The
// key and the value list are shared (the list copy-on-write) between copies and intersection
// results, so copying a Requirement costs two reference-count increments and no allocation.
//
// Complexity (n, m = value counts; L = value length): Has O(L log n); HasIntersection
// O(min(n, m) log max(n, m) · L) or a linear merge when sizes are close, no allocation;
// Intersection the same plus at most one new value list (none when the result equals one side's
// values, e.g. a pod's In ∩ a NodePool's wider In); Insert O(n) (sorted insert, copies the list
// when shared). A finite set checked against a complement costs O(n log m) either way.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"

namespace karpenter::scheduling {

// The operators of a v1.NodeSelectorRequirement, plus Karpenter's inclusive Gte/Lte.
enum class NodeSelectorOperator : uint8_t {
  kIn,
  kNotIn,
  kExists,
  kDoesNotExist,
  kGt,
  kLt,
  kGte,
  kLte,
};

// The API spelling ("In", "NotIn", ..., "Gte", "Lte").
std::string_view OperatorName(NodeSelectorOperator op);
// The operator with that exact spelling, or nullopt.
std::optional<NodeSelectorOperator> ParseOperator(std::string_view name);

class Requirement {
 public:
  // NodePool requirements may ask for at least this many distinct values among the chosen
  // instance types (1..50 when set).
  using MinValues = std::optional<int32_t>;

  // An empty key with no allowed value.
  Requirement() = default;

  // From a selector's (key, operator, values). The key is normalised (api::NormalizeLabelKey). In
  // and NotIn take the values (duplicates collapse); Exists and DoesNotExist ignore them, as
  // upstream does. Gt, Lt, Gte and Lte need exactly one base-10 int64 value, else
  // InvalidArgument.
  static absl::StatusOr<Requirement> Create(std::string_view key, NodeSelectorOperator op,
                                            std::span<const std::string> values,
                                            MinValues min_values = std::nullopt);
  // As above with the operator spelled as in the API; an unknown operator is InvalidArgument.
  static absl::StatusOr<Requirement> Create(std::string_view key, std::string_view op,
                                            std::span<const std::string> values,
                                            MinValues min_values = std::nullopt);

  // Typed constructors that cannot fail; keys are normalised as in Create.
  static Requirement In(std::string_view key, std::vector<std::string> values,
                        MinValues min_values = std::nullopt);
  static Requirement In(std::string_view key, std::initializer_list<std::string_view> values,
                        MinValues min_values = std::nullopt);
  static Requirement NotIn(std::string_view key, std::vector<std::string> values,
                           MinValues min_values = std::nullopt);
  static Requirement NotIn(std::string_view key, std::initializer_list<std::string_view> values,
                           MinValues min_values = std::nullopt);
  static Requirement Exists(std::string_view key, MinValues min_values = std::nullopt);
  static Requirement DoesNotExist(std::string_view key, MinValues min_values = std::nullopt);
  // value > bound; Gt INT64_MAX allows nothing.
  static Requirement Gt(std::string_view key, int64_t bound, MinValues min_values = std::nullopt);
  // value < bound; Lt INT64_MIN allows nothing.
  static Requirement Lt(std::string_view key, int64_t bound, MinValues min_values = std::nullopt);
  static Requirement Gte(std::string_view key, int64_t bound, MinValues min_values = std::nullopt);
  static Requirement Lte(std::string_view key, int64_t bound, MinValues min_values = std::nullopt);

  std::string_view key() const { return key_ ? std::string_view(*key_) : std::string_view(); }
  MinValues min_values() const { return min_values_; }
  // minValues BestEffort relaxes a NodeClaim's requirement in place.
  void set_min_values(MinValues min_values) { min_values_ = min_values; }
  // True for NotIn/Exists (and bounded) sets: `Values()` are then the excluded values.
  bool is_complement() const { return complement_; }
  // Inclusive bounds; only complements have them.
  std::optional<int64_t> gte() const { return gte_; }
  std::optional<int64_t> lte() const { return lte_; }

  // Whether a node whose label `key()` has `value` satisfies this requirement.
  bool Has(std::string_view value) const;
  // A value this requirement allows, or "" when it allows none (DoesNotExist); as upstream, a
  // set whose smallest value is the empty label value also yields "". Deterministic:
  // the smallest value of a finite set; for a complement the integer closest to 0 from above
  // within the bounds that is not excluded, printed in decimal.
  std::string Any() const;
  // The values allowed by both. Key from `*this`, bounds tightened, minValues the larger one.
  Requirement Intersection(const Requirement& other) const;
  // Whether `Intersection(other)` allows any value, computed without building it.
  bool HasIntersection(const Requirement& other) const;
  // The operator describing the set as it now stands: In, NotIn, Exists or DoesNotExist. Bounds
  // do not show here (a bounded complement reports Exists or NotIn), as upstream.
  NodeSelectorOperator Operator() const;
  // Sorted values: the allowed ones for a finite set, the excluded ones for a complement.
  std::span<const std::string> Values() const;
  // Number of allowed values; a complement counts as INT64_MAX minus its excluded values.
  int64_t Len() const;
  // Adds `value` to the underlying set: allows it for a finite set, excludes it for a
  // complement (where a value outside the bounds is already excluded and is not recorded).
  void Insert(std::string_view value);
  // "key In [a b]", "key NotIn [a]", "key Exists >=2 <=8", "key DoesNotExist minValues 2";
  // lists longer than five print "[a b c d e and N others]". Used in error messages.
  std::string ToString() const;

  bool operator==(const Requirement& other) const;

 private:
  using ValueList = std::vector<std::string>;

  Requirement(const std::string* key, bool complement, std::shared_ptr<ValueList> values,
              MinValues min_values);
  // The normalised key, interned: one copy per distinct key for the life of the process, so
  // copies and intersections share it without reference counts (which threads copying the same
  // requirements would contend for). Label keys are few.
  static const std::string* MakeKey(std::string_view key);

  bool Contains(std::string_view value) const;
  bool WithinBounds(std::string_view value) const;
  std::string AnyInteger() const;

  const std::string* key_ = nullptr;  // Null only for a default-constructed Requirement.
  // Sorted, unique; null when empty. Shared between copies: never modified while shared.
  std::shared_ptr<ValueList> values_;
  std::optional<int64_t> gte_;
  std::optional<int64_t> lte_;
  MinValues min_values_;
  bool complement_ = false;
};

}  // namespace karpenter::scheduling
