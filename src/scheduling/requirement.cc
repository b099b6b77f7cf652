// Upstream: pkg/scheduling/requirement.go
#include "src/scheduling/requirement.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <limits>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "fmt/format.h"
#include "src/api/decimal.h"
#include "src/api/karpenter_labels.h"
#include "src/api/selector_match.h"
#include "src/scheduling/requirement_sets.h"

namespace karpenter::scheduling {
namespace {

constexpr std::array<std::pair<NodeSelectorOperator, std::string_view>, 8> kOperatorNames = {{
    {NodeSelectorOperator::kIn, api::kSelectorOpIn},
    {NodeSelectorOperator::kNotIn, api::kSelectorOpNotIn},
    {NodeSelectorOperator::kExists, api::kSelectorOpExists},
    {NodeSelectorOperator::kDoesNotExist, api::kSelectorOpDoesNotExist},
    {NodeSelectorOperator::kGt, api::kSelectorOpGt},
    {NodeSelectorOperator::kLt, api::kSelectorOpLt},
    {NodeSelectorOperator::kGte, api::kSelectorOpGte},
    {NodeSelectorOperator::kLte, api::kSelectorOpLte},
}};

// How many values ToString lists before summarising the rest, as upstream.
constexpr size_t kMaxPrintedValues = 5;

}  // namespace

std::string_view OperatorName(NodeSelectorOperator op) {
  for (const auto& [candidate, name] : kOperatorNames) {
    if (candidate == op) return name;
  }
  return {};
}

std::optional<NodeSelectorOperator> ParseOperator(std::string_view name) {
  for (const auto& [op, candidate] : kOperatorNames) {
    if (candidate == name) return op;
  }
  return std::nullopt;
}

Requirement::Requirement(const std::string* key, bool complement, std::shared_ptr<ValueList> values,
                         MinValues min_values)
    : key_(key), values_(std::move(values)), min_values_(min_values), complement_(complement) {}

const std::string* Requirement::MakeKey(std::string_view key) {
  // Each thread remembers the keys it has seen (raw spelling -> interned normalised key) and
  // takes the lock only for a key new to it. The raw spellings are interned too, so the map's
  // views stay valid.
  thread_local absl::flat_hash_map<std::string_view, const std::string*> seen;
  if (auto it = seen.find(key); it != seen.end()) return it->second;
  static absl::Mutex mutex(absl::kConstInit);
  static auto* const interned = new absl::node_hash_set<std::string>();
  absl::MutexLock lock(&mutex);
  const std::string* raw = &*interned->emplace(key).first;
  const std::string* normalized = &*interned->emplace(api::NormalizeLabelKey(key)).first;
  seen.emplace(*raw, normalized);
  return normalized;
}

absl::StatusOr<Requirement> Requirement::Create(std::string_view key, NodeSelectorOperator op,
                                                std::span<const std::string> values,
                                                MinValues min_values) {
  switch (op) {
    case NodeSelectorOperator::kIn:
      return In(key, std::vector<std::string>(values.begin(), values.end()), min_values);
    case NodeSelectorOperator::kNotIn:
      return NotIn(key, std::vector<std::string>(values.begin(), values.end()), min_values);
    case NodeSelectorOperator::kExists:
      return Exists(key, min_values);
    case NodeSelectorOperator::kDoesNotExist:
      return DoesNotExist(key, min_values);
    case NodeSelectorOperator::kGt:
    case NodeSelectorOperator::kLt:
    case NodeSelectorOperator::kGte:
    case NodeSelectorOperator::kLte:
      break;
  }
  if (values.size() != 1) {
    return absl::InvalidArgumentError(fmt::format(
        "requirement {} {} needs exactly one value, got {}", key, OperatorName(op), values.size()));
  }
  std::optional<int64_t> bound = api::ParseDecimalInt64(values.front());
  if (!bound) {
    return absl::InvalidArgumentError(
        fmt::format("requirement {} {}: value \"{}\" is not an integer", key, OperatorName(op),
                    values.front()));
  }
  switch (op) {
    case NodeSelectorOperator::kGt:
      return Gt(key, *bound, min_values);
    case NodeSelectorOperator::kLt:
      return Lt(key, *bound, min_values);
    case NodeSelectorOperator::kGte:
      return Gte(key, *bound, min_values);
    default:
      return Lte(key, *bound, min_values);
  }
}

absl::StatusOr<Requirement> Requirement::Create(std::string_view key, std::string_view op,
                                                std::span<const std::string> values,
                                                MinValues min_values) {
  std::optional<NodeSelectorOperator> parsed = ParseOperator(op);
  if (!parsed) {
    return absl::InvalidArgumentError(
        fmt::format("requirement {}: unknown operator \"{}\"", key, op));
  }
  return Create(key, *parsed, values, min_values);
}

Requirement Requirement::In(std::string_view key, std::vector<std::string> values,
                            MinValues min_values) {
  return Requirement(MakeKey(key), /*complement=*/false, internal::MakeValueList(std::move(values)),
                     min_values);
}

Requirement Requirement::In(std::string_view key, std::initializer_list<std::string_view> values,
                            MinValues min_values) {
  return In(key, std::vector<std::string>(values.begin(), values.end()), min_values);
}

Requirement Requirement::NotIn(std::string_view key, std::vector<std::string> values,
                               MinValues min_values) {
  return Requirement(MakeKey(key), /*complement=*/true, internal::MakeValueList(std::move(values)),
                     min_values);
}

Requirement Requirement::NotIn(std::string_view key, std::initializer_list<std::string_view> values,
                               MinValues min_values) {
  return NotIn(key, std::vector<std::string>(values.begin(), values.end()), min_values);
}

Requirement Requirement::Exists(std::string_view key, MinValues min_values) {
  return Requirement(MakeKey(key), /*complement=*/true, nullptr, min_values);
}

Requirement Requirement::DoesNotExist(std::string_view key, MinValues min_values) {
  return Requirement(MakeKey(key), /*complement=*/false, nullptr, min_values);
}

Requirement Requirement::Gt(std::string_view key, int64_t bound, MinValues min_values) {
  // No int64 is above INT64_MAX, and bound + 1 would overflow.
  if (bound == std::numeric_limits<int64_t>::max()) return DoesNotExist(key, min_values);
  return Gte(key, bound + 1, min_values);
}

Requirement Requirement::Lt(std::string_view key, int64_t bound, MinValues min_values) {
  if (bound == std::numeric_limits<int64_t>::min()) return DoesNotExist(key, min_values);
  return Lte(key, bound - 1, min_values);
}

Requirement Requirement::Gte(std::string_view key, int64_t bound, MinValues min_values) {
  Requirement requirement = Exists(key, min_values);
  requirement.gte_ = bound;
  return requirement;
}

Requirement Requirement::Lte(std::string_view key, int64_t bound, MinValues min_values) {
  Requirement requirement = Exists(key, min_values);
  requirement.lte_ = bound;
  return requirement;
}

bool Requirement::Contains(std::string_view value) const {
  return internal::SortedContains(values_.get(), value);
}

bool Requirement::WithinBounds(std::string_view value) const {
  return internal::WithinBounds(value, gte_, lte_);
}

bool Requirement::Has(std::string_view value) const {
  // Finite sets never carry bounds, so membership alone decides.
  if (!complement_) return Contains(value);
  return !Contains(value) && WithinBounds(value);
}

std::string Requirement::Any() const {
  if (complement_) return AnyInteger();
  if (!values_) return {};
  return values_->front();
}

// Walks outwards from the bounded integer closest to 0, so the first pick is usually "0" or a
// bound. At most |excluded|+1 candidates are tried in each direction before one is free. If the
// range is small and every canonical spelling in it is excluded, a zero-padded spelling of the
// same integer still satisfies `Has` (it parses to a value within bounds but is not excluded).
std::string Requirement::AnyInteger() const {
  const int64_t lo = gte_.value_or(std::numeric_limits<int64_t>::min());
  const int64_t hi = lte_.value_or(std::numeric_limits<int64_t>::max());
  const int64_t start = std::clamp<int64_t>(0, lo, hi);
  const size_t budget = (values_ ? values_->size() : 0) + 1;
  int64_t candidate = start;
  for (size_t i = 0; i < budget; ++i) {
    std::string text = fmt::format("{}", candidate);
    if (!Contains(text)) return text;
    if (candidate == hi) break;
    ++candidate;
  }
  candidate = start;
  for (size_t i = 0; i < budget && candidate > lo; ++i) {
    --candidate;
    std::string text = fmt::format("{}", candidate);
    if (!Contains(text)) return text;
  }
  std::string padded = fmt::format("{}", start);
  const size_t digits_at = start < 0 ? 1 : 0;
  do {
    padded.insert(digits_at, 1, '0');
  } while (Contains(padded));
  return padded;
}

NodeSelectorOperator Requirement::Operator() const {
  const bool empty = !values_;
  if (complement_) return empty ? NodeSelectorOperator::kExists : NodeSelectorOperator::kNotIn;
  return empty ? NodeSelectorOperator::kDoesNotExist : NodeSelectorOperator::kIn;
}

std::span<const std::string> Requirement::Values() const {
  if (!values_) return {};
  return *values_;
}

int64_t Requirement::Len() const {
  const auto count = static_cast<int64_t>(values_ ? values_->size() : 0);
  if (complement_) return std::numeric_limits<int64_t>::max() - count;
  return count;
}

void Requirement::Insert(std::string_view value) {
  if (complement_ && (gte_ || lte_) && !WithinBounds(value)) return;
  if (!values_) values_ = std::make_shared<ValueList>();
  auto it = std::lower_bound(values_->begin(), values_->end(), value, internal::ValueLess{});
  if (it != values_->end() && *it == value) return;
  if (values_.use_count() > 1) {
    // Another Requirement shares this list: copy before writing.
    const auto offset = it - values_->begin();
    values_ = std::make_shared<ValueList>(*values_);
    it = values_->begin() + offset;
  }
  values_->insert(it, std::string(value));
}

std::string Requirement::ToString() const {
  const NodeSelectorOperator op = Operator();
  std::string out = fmt::format("{} {}", key(), OperatorName(op));
  if (op == NodeSelectorOperator::kIn || op == NodeSelectorOperator::kNotIn) {
    out += " [";
    const size_t count = values_->size();
    for (size_t i = 0; i < count && i < kMaxPrintedValues; ++i) {
      if (i > 0) out += ' ';
      out += (*values_)[i];
    }
    if (count > kMaxPrintedValues) {
      fmt::format_to(std::back_inserter(out), " and {} others", count - kMaxPrintedValues);
    }
    out += ']';
  }
  if (gte_) fmt::format_to(std::back_inserter(out), " >={}", *gte_);
  if (lte_) fmt::format_to(std::back_inserter(out), " <={}", *lte_);
  if (min_values_) fmt::format_to(std::back_inserter(out), " minValues {}", *min_values_);
  return out;
}

bool Requirement::operator==(const Requirement& other) const {
  if (key() != other.key() || complement_ != other.complement_ || gte_ != other.gte_ ||
      lte_ != other.lte_ || min_values_ != other.min_values_) {
    return false;
  }
  return std::ranges::equal(Values(), other.Values());
}

}  // namespace karpenter::scheduling
