// RapidCheck properties of the requirement algebra: intersection is commutative and associative,
// `Has` on an intersection is `Has` on both sides, the allocation-free checks agree with the
// constructive ones, and `Any` always picks an allowed value. Runs with a fixed seed so failures
// reproduce (RC_GTEST_PROP would draw a random seed per run).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "rapidcheck.h"
#include "src/api/decimal.h"
#include "src/scheduling/requirement.h"
#include "src/scheduling/requirement_test_util.h"
#include "src/scheduling/requirements.h"
#include "test/property_check.h"

namespace karpenter::scheduling {
namespace {

using testing::ShapeOf;

constexpr std::string_view kKey = "key";
constexpr property_test::PropertyOptions kProperty = {0x6b617270656e7472, 1000,
                                                      100};  // fixed: runs are reproducible

// Strings and integers that exercise every branch: words, canonical integers inside and outside
// typical bounds, and alternative spellings ("05", "+3") of integers.
const std::vector<std::string>& Universe() {
  static const std::vector<std::string> kUniverse = {
      "a", "b", "c", "x1", "", "0", "1", "2", "3", "5", "8", "13", "-1", "-4", "05", "+3", "007"};
  return kUniverse;
}

// Probes for Has: the universe plus every integer around the generated bounds and padded forms.
std::vector<std::string> Probes() {
  std::vector<std::string> probes = Universe();
  for (int i = -8; i <= 18; ++i) {
    probes.push_back(std::to_string(i));
    probes.push_back(i < 0 ? "-0" + std::to_string(-i) : "0" + std::to_string(i));
  }
  return probes;
}

enum class Op { kIn, kNotIn, kExists, kDoesNotExist, kGt, kLt, kGte, kLte };

struct Generated {
  Op op;
  std::vector<std::string> values;
  int64_t bound;
  Requirement requirement;
};

Generated ArbitraryBase() {
  const auto op = static_cast<Op>(*rc::gen::inRange(0, 8));
  auto values = *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(Universe()));
  const int64_t bound = *rc::gen::inRange<int64_t>(-6, 16);
  const auto maybe_min_values = *rc::gen::maybe(rc::gen::inRange<int32_t>(1, 5));
  Requirement::MinValues min_values;
  if (maybe_min_values) min_values = *maybe_min_values;
  switch (op) {
    case Op::kIn:
      return {op, values, bound, Requirement::In(kKey, values, min_values)};
    case Op::kNotIn:
      return {op, values, bound, Requirement::NotIn(kKey, values, min_values)};
    case Op::kExists:
      return {op, values, bound, Requirement::Exists(kKey, min_values)};
    case Op::kDoesNotExist:
      return {op, values, bound, Requirement::DoesNotExist(kKey, min_values)};
    case Op::kGt:
      return {op, values, bound, Requirement::Gt(kKey, bound, min_values)};
    case Op::kLt:
      return {op, values, bound, Requirement::Lt(kKey, bound, min_values)};
    case Op::kGte:
      return {op, values, bound, Requirement::Gte(kKey, bound, min_values)};
    case Op::kLte:
      return {op, values, bound, Requirement::Lte(kKey, bound, min_values)};
  }
  return {op, values, bound, Requirement::DoesNotExist(kKey)};
}

// What the selector means, written independently of Requirement.
bool Oracle(const Generated& g, const std::string& value) {
  auto contains = [&] {
    return std::find(g.values.begin(), g.values.end(), value) != g.values.end();
  };
  std::optional<int64_t> number = api::ParseDecimalInt64(value);
  switch (g.op) {
    case Op::kIn:
      return contains();
    case Op::kNotIn:
      return !contains();
    case Op::kExists:
      return true;
    case Op::kDoesNotExist:
      return false;
    case Op::kGt:
      return number && *number > g.bound;
    case Op::kLt:
      return number && *number < g.bound;
    case Op::kGte:
      return number && *number >= g.bound;
    case Op::kLte:
      return number && *number <= g.bound;
  }
  return false;
}

// A base requirement, or the intersection of two or three, so mixed shapes (bounded NotIn,
// two-sided bounds) appear as often as plain ones.
Requirement ArbitraryRequirement() {
  Requirement requirement = ArbitraryBase().requirement;
  const int extra = *rc::gen::inRange(0, 3);
  for (int i = 0; i < extra; ++i)
    requirement = requirement.Intersection(ArbitraryBase().requirement);
  return requirement;
}

bool AllowsNothing(const Requirement& requirement) {
  return !requirement.is_complement() && requirement.Values().empty();
}

TEST(RequirementProperty, ConstructorsMatchSelectorMeaning) {
  const std::vector<std::string> probes = Probes();
  property_test::CheckProperty(kProperty, "constructors", [&] {
    const Generated generated = ArbitraryBase();
    for (const std::string& probe : probes) {
      RC_ASSERT(generated.requirement.Has(probe) == Oracle(generated, probe));
    }
  });
}

TEST(RequirementProperty, IntersectionIsCommutative) {
  property_test::CheckProperty(kProperty, "commutative", [] {
    const Requirement a = ArbitraryRequirement();
    const Requirement b = ArbitraryRequirement();
    const Requirement ab = a.Intersection(b);
    const Requirement ba = b.Intersection(a);
    RC_ASSERT(ShapeOf(ab) == ShapeOf(ba));
    RC_ASSERT(ab == ba);
  });
}

TEST(RequirementProperty, IntersectionIsAssociative) {
  property_test::CheckProperty(kProperty, "associative", [] {
    const Requirement a = ArbitraryRequirement();
    const Requirement b = ArbitraryRequirement();
    const Requirement c = ArbitraryRequirement();
    RC_ASSERT(a.Intersection(b).Intersection(c) == a.Intersection(b.Intersection(c)));
  });
}

TEST(RequirementProperty, HasOnIntersectionIsHasOnBothSides) {
  const std::vector<std::string> probes = Probes();
  property_test::CheckProperty(kProperty, "has", [&] {
    const Requirement a = ArbitraryRequirement();
    const Requirement b = ArbitraryRequirement();
    const Requirement ab = a.Intersection(b);
    for (const std::string& probe : probes) {
      RC_ASSERT(ab.Has(probe) == (a.Has(probe) && b.Has(probe)));
    }
  });
}

TEST(RequirementProperty, HasIntersectionAgreesWithIntersection) {
  const std::vector<std::string> probes = Probes();
  property_test::CheckProperty(kProperty, "has-intersection", [&] {
    const Requirement a = ArbitraryRequirement();
    const Requirement b = ArbitraryRequirement();
    const bool overlaps = a.HasIntersection(b);
    RC_ASSERT(overlaps == b.HasIntersection(a));
    RC_ASSERT(overlaps == !AllowsNothing(a.Intersection(b)));
    // A shared probe proves overlap.
    for (const std::string& probe : probes) {
      if (a.Has(probe) && b.Has(probe)) RC_ASSERT(overlaps);
    }
  });
}

TEST(RequirementProperty, AnyIsAllowedAndStable) {
  property_test::CheckProperty(kProperty, "any", [] {
    const Requirement requirement = ArbitraryRequirement();
    const std::string any = requirement.Any();
    // "" means "no value" unless the set allows the empty label value itself (In [""]).
    if (AllowsNothing(requirement)) RC_ASSERT(any.empty());
    if (!AllowsNothing(requirement)) RC_ASSERT(requirement.Has(any));
    RC_ASSERT(requirement.Any() == any);
  });
}

TEST(RequirementProperty, LenAndOperatorDescribeTheSet) {
  property_test::CheckProperty(kProperty, "len-operator", [] {
    const Requirement requirement = ArbitraryRequirement();
    const NodeSelectorOperator op = requirement.Operator();
    const auto count = static_cast<int64_t>(requirement.Values().size());
    if (requirement.is_complement()) {
      RC_ASSERT(requirement.Len() == std::numeric_limits<int64_t>::max() - count);
      RC_ASSERT(op == (count == 0 ? NodeSelectorOperator::kExists : NodeSelectorOperator::kNotIn));
    } else {
      RC_ASSERT(requirement.Len() == count);
      RC_ASSERT(!requirement.gte() && !requirement.lte());
      RC_ASSERT(op ==
                (count == 0 ? NodeSelectorOperator::kDoesNotExist : NodeSelectorOperator::kIn));
    }
    RC_ASSERT(std::is_sorted(requirement.Values().begin(), requirement.Values().end()));
    RC_ASSERT(std::adjacent_find(requirement.Values().begin(), requirement.Values().end()) ==
              requirement.Values().end());
  });
}

TEST(RequirementProperty, RequirementsIntersectsIsSymmetric) {
  property_test::CheckProperty(kProperty, "requirements-symmetric", [] {
    const std::vector<std::string> keys = {"k1", "k2", "k3"};
    Requirements left;
    Requirements right;
    for (const std::string& key : keys) {
      if (*rc::gen::arbitrary<bool>()) {
        Requirement r = ArbitraryRequirement();
        left.Add(Requirement::Exists(key).Intersection(r));
      }
      if (*rc::gen::arbitrary<bool>()) {
        Requirement r = ArbitraryRequirement();
        right.Add(Requirement::Exists(key).Intersection(r));
      }
    }
    RC_ASSERT(left.HasIntersection(right) == right.HasIntersection(left));
    RC_ASSERT(left.HasIntersection(right) == left.Intersects(right).ok());
    const WellKnownLabels none;
    RC_ASSERT(left.IsCompatible(right, none) == left.Compatible(right, none).ok());
  });
}

}  // namespace
}  // namespace karpenter::scheduling
