// Upstream: pkg/scheduling/requirement.go (Intersection, HasIntersection, withinBounds)
//
// Intersection and the allocation-free overlap test, plus the sorted-list helpers both use.
#include <algorithm>
#include <bit>
#include <iterator>
#include <utility>

#include "src/api/decimal.h"
#include "src/scheduling/requirement.h"
#include "src/scheduling/requirement_sets.h"

namespace karpenter::scheduling {
namespace internal {

std::shared_ptr<ValueList> MakeValueList(ValueList values) {
  if (values.empty()) return nullptr;
  if (!std::is_sorted(values.begin(), values.end())) std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return std::make_shared<ValueList>(std::move(values));
}

bool SortedContains(const ValueList* list, std::string_view value) {
  if (list == nullptr) return false;
  return std::binary_search(list->begin(), list->end(), value, ValueLess{});
}

bool WithinBounds(std::string_view value, std::optional<int64_t> gte, std::optional<int64_t> lte) {
  if (!gte && !lte) return true;
  std::optional<int64_t> parsed = api::ParseDecimalInt64(value);
  if (!parsed) return false;
  if (gte && *parsed < *gte) return false;
  if (lte && *parsed > *lte) return false;
  return true;
}

std::shared_ptr<ValueList> UnionWithinBounds(const std::shared_ptr<ValueList>& a,
                                             const std::shared_ptr<ValueList>& b,
                                             std::optional<int64_t> gte,
                                             std::optional<int64_t> lte) {
  auto within = [&](const std::string& value) { return WithinBounds(value, gte, lte); };
  if (!b) return Filter(a, within);
  if (!a) return Filter(b, within);
  ValueList merged;
  merged.reserve(a->size() + b->size());
  std::set_union(a->begin(), a->end(), b->begin(), b->end(), std::back_inserter(merged));
  if (gte || lte) std::erase_if(merged, [&](const std::string& v) { return !within(v); });
  if (merged.empty()) return nullptr;
  if (merged == *a) return a;
  if (merged == *b) return b;
  return std::make_shared<ValueList>(std::move(merged));
}

bool SortedIntersect(const ValueList* a, const ValueList* b) {
  if (a == nullptr || b == nullptr) return false;
  const ValueList& small = a->size() <= b->size() ? *a : *b;
  const ValueList& large = a->size() <= b->size() ? *b : *a;
  // A merge touches every element of both; probing touches small × log2(large).
  const size_t probe_cost = small.size() * std::bit_width(large.size());
  if (probe_cost < small.size() + large.size()) {
    for (const std::string& value : small) {
      if (std::binary_search(large.begin(), large.end(), value)) return true;
    }
    return false;
  }
  auto i = small.begin();
  auto j = large.begin();
  while (i != small.end() && j != large.end()) {
    const int order = i->compare(*j);
    if (order == 0) return true;
    if (order < 0) {
      ++i;
    } else {
      ++j;
    }
  }
  return false;
}

}  // namespace internal

namespace {

template <class T>
std::optional<T> MaxOf(std::optional<T> a, std::optional<T> b) {
  if (!a) return b;
  if (!b) return a;
  return std::max(*a, *b);
}

template <class T>
std::optional<T> MinOf(std::optional<T> a, std::optional<T> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

size_t SizeOf(const std::shared_ptr<internal::ValueList>& list) { return list ? list->size() : 0; }

}  // namespace

Requirement Requirement::Intersection(const Requirement& other) const {
  const std::optional<int64_t> gte = MaxOf(gte_, other.gte_);
  const std::optional<int64_t> lte = MinOf(lte_, other.lte_);
  const MinValues min_values = MaxOf(min_values_, other.min_values_);
  if (gte && lte && *gte > *lte)
    return Requirement(key_, /*complement=*/false, nullptr, min_values);

  if (complement_ && other.complement_) {
    Requirement out(key_, /*complement=*/true,
                    internal::UnionWithinBounds(values_, other.values_, gte, lte), min_values);
    out.gte_ = gte;
    out.lte_ = lte;
    return out;
  }
  if (complement_ || other.complement_) {
    // A finite set meets a complement: keep the finite values the complement allows. The
    // bounds only ever come from the complement and are dropped from the finite result.
    const Requirement& finite = complement_ ? other : *this;
    const Requirement& excluding = complement_ ? *this : other;
    auto allowed = [&](const std::string& value) {
      return !excluding.Contains(value) && internal::WithinBounds(value, gte, lte);
    };
    return Requirement(key_, /*complement=*/false, internal::Filter(finite.values_, allowed),
                       min_values);
  }
  // Two finite sets: the result is a subset of the smaller one, which it often equals.
  const bool this_smaller = SizeOf(values_) <= SizeOf(other.values_);
  const Requirement& small = this_smaller ? *this : other;
  const Requirement& large = this_smaller ? other : *this;
  auto in_large = [&](const std::string& value) { return large.Contains(value); };
  return Requirement(key_, /*complement=*/false, internal::Filter(small.values_, in_large),
                     min_values);
}

bool Requirement::HasIntersection(const Requirement& other) const {
  const std::optional<int64_t> gte = MaxOf(gte_, other.gte_);
  const std::optional<int64_t> lte = MinOf(lte_, other.lte_);
  if (gte && lte && *gte > *lte) return false;
  // Two complements exclude finitely many strings from a non-empty integer range, and each
  // integer has unboundedly many spellings ("7", "07", ...), so some value always remains.
  if (complement_ && other.complement_) return true;
  if (complement_ || other.complement_) {
    const Requirement& finite = complement_ ? other : *this;
    const Requirement& excluding = complement_ ? *this : other;
    if (!finite.values_) return false;
    return std::any_of(
        finite.values_->begin(), finite.values_->end(), [&](const std::string& value) {
          return !excluding.Contains(value) && internal::WithinBounds(value, gte, lte);
        });
  }
  return internal::SortedIntersect(values_.get(), other.values_.get());
}

}  // namespace karpenter::scheduling
