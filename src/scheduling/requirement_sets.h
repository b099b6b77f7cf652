// Sorted-vector set operations behind `Requirement` (requirement.cc and
// requirement_intersection.cc). Internal to the scheduling library: callers use Requirement.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace karpenter::scheduling::internal {

using ValueList = std::vector<std::string>;

// Orders strings and string_views alike, so lookups never build a std::string.
struct ValueLess {
  bool operator()(std::string_view a, std::string_view b) const { return a < b; }
};

// Sorts and deduplicates; an empty list becomes null (Requirement's "no values").
std::shared_ptr<ValueList> MakeValueList(ValueList values);

// Binary search; `list` may be null. O(L log n), no allocation.
bool SortedContains(const ValueList* list, std::string_view value);

// Whether `value` parses as a base-10 int64 inside the inclusive bounds. With no bounds every
// value is inside; with any bound a non-integer is outside.
bool WithinBounds(std::string_view value, std::optional<int64_t> gte, std::optional<int64_t> lte);

// The elements of `list` for which `keep` holds, in order. Returns `list` itself when all are
// kept (no allocation, the result shares the list) and null when none are.
template <class Keep>
std::shared_ptr<ValueList> Filter(const std::shared_ptr<ValueList>& list, Keep&& keep) {
  if (!list) return nullptr;
  const ValueList& values = *list;
  size_t first_dropped = 0;
  while (first_dropped < values.size() && keep(values[first_dropped])) ++first_dropped;
  if (first_dropped == values.size()) return list;
  ValueList kept(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(first_dropped));
  for (size_t i = first_dropped + 1; i < values.size(); ++i) {
    if (keep(values[i])) kept.push_back(values[i]);
  }
  if (kept.empty()) return nullptr;
  return std::make_shared<ValueList>(std::move(kept));
}

// Sorted union of `a` and `b` restricted to the bounds; shares `a` or `b` when the result
// equals it.
std::shared_ptr<ValueList> UnionWithinBounds(const std::shared_ptr<ValueList>& a,
                                             const std::shared_ptr<ValueList>& b,
                                             std::optional<int64_t> gte,
                                             std::optional<int64_t> lte);

// Whether two sorted lists share an element, by merge or by binary search of the smaller into
// the larger, whichever is cheaper. No allocation.
bool SortedIntersect(const ValueList* a, const ValueList* b);

}  // namespace karpenter::scheduling::internal
