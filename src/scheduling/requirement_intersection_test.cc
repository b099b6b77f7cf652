// Table tests of Requirement::Intersection and HasIntersection over every pair of operators.
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/scheduling/requirement.h"
#include "src/scheduling/requirement_test_util.h"

namespace karpenter::scheduling {
namespace {

using testing::ExpectedShape;
using testing::Fixture;
using testing::FixtureNames;
using testing::kKey;
using testing::ShapeOf;

// kIntersections[row][column] names the expected shape of Fixture(row) ∩ Fixture(column), with
// rows and columns in FixtureNames() order:
// exists doesNotExist inA inB inAB notInA in1 in9 in19 notIn12 gt1 gt9 lt1 lt9.
const std::vector<std::vector<std::string>> kIntersections = {
    // exists
    {"exists", "doesNotExist", "inA", "inB", "inAB", "notInA", "in1", "in9", "in19", "notIn12",
     "gt1", "gt9", "lt1", "lt9"},
    // doesNotExist
    {"doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist",
     "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist",
     "doesNotExist", "doesNotExist"},
    // inA
    {"inA", "doesNotExist", "inA", "doesNotExist", "inA", "doesNotExist", "doesNotExist",
     "doesNotExist", "doesNotExist", "inA", "doesNotExist", "doesNotExist", "doesNotExist",
     "doesNotExist"},
    // inB
    {"inB", "doesNotExist", "doesNotExist", "inB", "inB", "inB", "doesNotExist", "doesNotExist",
     "doesNotExist", "inB", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist"},
    // inAB
    {"inAB", "doesNotExist", "inA", "inB", "inAB", "inB", "doesNotExist", "doesNotExist",
     "doesNotExist", "inAB", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist"},
    // notInA
    {"notInA", "doesNotExist", "doesNotExist", "inB", "inB", "notInA", "in1", "in9", "in19",
     "notInA12", "gt1", "gt9", "lt1", "lt9"},
    // in1
    {"in1", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist", "in1", "in1",
     "doesNotExist", "in1", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist", "in1"},
    // in9
    {"in9", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist", "in9", "doesNotExist",
     "in9", "in9", "in9", "in9", "doesNotExist", "doesNotExist", "doesNotExist"},
    // in19
    {"in19", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist", "in19", "in1", "in9",
     "in19", "in9", "in9", "doesNotExist", "doesNotExist", "in1"},
    // notIn12
    {"notIn12", "doesNotExist", "inA", "inB", "inAB", "notInA12", "doesNotExist", "in9", "in9",
     "notIn12", "gt1ex2", "gt9", "lt1", "lt9ex12"},
    // gt1
    {"gt1", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist", "gt1", "doesNotExist",
     "in9", "in9", "gt1ex2", "gt1", "gt9", "doesNotExist", "gt1lt9"},
    // gt9
    {"gt9", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist", "gt9", "doesNotExist",
     "doesNotExist", "doesNotExist", "gt9", "gt9", "gt9", "doesNotExist", "doesNotExist"},
    // lt1
    {"lt1", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist", "lt1", "doesNotExist",
     "doesNotExist", "doesNotExist", "lt1", "doesNotExist", "doesNotExist", "lt1", "lt1"},
    // lt9
    {"lt9", "doesNotExist", "doesNotExist", "doesNotExist", "doesNotExist", "lt9", "in1",
     "doesNotExist", "in1", "lt9ex12", "gt1lt9", "doesNotExist", "lt1", "lt9"},
};

bool IsEmptyShape(const testing::Shape& shape) { return !shape.complement && shape.values.empty(); }

TEST(Requirement, IntersectionMatchesTableForEveryOperatorPair) {
  const auto& names = FixtureNames();
  ASSERT_EQ(kIntersections.size(), names.size());
  for (size_t row = 0; row < names.size(); ++row) {
    ASSERT_EQ(kIntersections[row].size(), names.size()) << names[row];
    for (size_t col = 0; col < names.size(); ++col) {
      Requirement result = Fixture(names[row]).Intersection(Fixture(names[col]));
      EXPECT_EQ(ShapeOf(result), ExpectedShape(kIntersections[row][col]))
          << names[row] << " ∩ " << names[col];
      EXPECT_EQ(result.key(), kKey);
      EXPECT_FALSE(result.min_values().has_value());
    }
  }
}

TEST(Requirement, HasIntersectionAgreesWithIntersectionTable) {
  const auto& names = FixtureNames();
  for (size_t row = 0; row < names.size(); ++row) {
    for (size_t col = 0; col < names.size(); ++col) {
      const bool expected = !IsEmptyShape(ExpectedShape(kIntersections[row][col]));
      EXPECT_EQ(Fixture(names[row]).HasIntersection(Fixture(names[col])), expected)
          << names[row] << " ∩ " << names[col];
    }
  }
}

TEST(Requirement, IntersectionTakesLargerMinValuesWhenEitherSideHasIt) {
  const auto& names = FixtureNames();
  for (const std::string& a : names) {
    for (const std::string& b : names) {
      EXPECT_EQ(Fixture(a, 2).Intersection(Fixture(b)).min_values(), 2) << a << " ∩ " << b;
      EXPECT_EQ(Fixture(a).Intersection(Fixture(b, 3)).min_values(), 3) << a << " ∩ " << b;
      EXPECT_EQ(Fixture(a, 4).Intersection(Fixture(b, 1)).min_values(), 4) << a << " ∩ " << b;
      // The set itself does not depend on minValues.
      EXPECT_EQ(ShapeOf(Fixture(a, 2).Intersection(Fixture(b, 5))),
                ShapeOf(Fixture(a).Intersection(Fixture(b))));
    }
  }
}

TEST(Requirement, IntersectionKeepsMinValuesWhenBoundsCross) {
  Requirement result = Requirement::Gt(kKey, 9, 2).Intersection(Requirement::Lt(kKey, 1));
  EXPECT_EQ(result.Operator(), NodeSelectorOperator::kDoesNotExist);
  EXPECT_EQ(result.min_values(), 2);
}

TEST(Requirement, GteAndLteIntersectInclusively) {
  Requirement both = Requirement::Gte(kKey, 2).Intersection(Requirement::Lte(kKey, 8));
  EXPECT_EQ(both.gte(), 2);
  EXPECT_EQ(both.lte(), 8);
  EXPECT_TRUE(both.Has("2"));
  EXPECT_TRUE(both.Has("5"));
  EXPECT_TRUE(both.Has("8"));
  EXPECT_FALSE(both.Has("1"));
  EXPECT_FALSE(both.Has("9"));
}

TEST(Requirement, EqualGteAndLteLeaveExactlyOneInteger) {
  Requirement point = Requirement::Gte(kKey, 8).Intersection(Requirement::Lte(kKey, 8));
  EXPECT_TRUE(point.Has("8"));
  EXPECT_FALSE(point.Has("7"));
  EXPECT_FALSE(point.Has("9"));
  EXPECT_TRUE(point.HasIntersection(Requirement::In(kKey, {"8"})));
  EXPECT_EQ(point.Any(), "8");
}

TEST(Requirement, GtAndLtOfNeighboursLeaveNothing) {
  // Gt 4 ∩ Lt 5 has no integer; Gt 4 ∩ Lte 4 neither.
  EXPECT_FALSE(Requirement::Gt(kKey, 4).HasIntersection(Requirement::Lt(kKey, 5)));
  EXPECT_EQ(ShapeOf(Requirement::Gt(kKey, 4).Intersection(Requirement::Lt(kKey, 5))),
            ExpectedShape("doesNotExist"));
  EXPECT_FALSE(Requirement::Gt(kKey, 4).HasIntersection(Requirement::Lte(kKey, 4)));
  EXPECT_TRUE(Requirement::Gt(kKey, 4).HasIntersection(Requirement::Lt(kKey, 6)));
}

TEST(Requirement, TighterBoundWinsWhenGtMeetsGte) {
  // Gt 4 is Gte 5: the same bound. Gt 5 (Gte 6) is tighter than Gte 5. Gte 6 beats Gt 3.
  EXPECT_EQ(Requirement::Gt(kKey, 4).Intersection(Requirement::Gte(kKey, 5)).gte(), 5);
  EXPECT_EQ(Requirement::Gt(kKey, 5).Intersection(Requirement::Gte(kKey, 5)).gte(), 6);
  EXPECT_EQ(Requirement::Gt(kKey, 3).Intersection(Requirement::Gte(kKey, 6)).gte(), 6);
  EXPECT_EQ(Requirement::Lt(kKey, 5).Intersection(Requirement::Lte(kKey, 5)).lte(), 4);
  EXPECT_EQ(Requirement::Lt(kKey, 9).Intersection(Requirement::Lte(kKey, 5)).lte(), 5);
}

TEST(Requirement, BoundsDropNonIntegerValuesOfFiniteSets) {
  Requirement result = Requirement::In(kKey, {"a", "5", "12", "4", "-3", "1.5", ""})
                           .Intersection(Requirement::Gt(kKey, 4));
  EXPECT_EQ(ShapeOf(result), (testing::Shape{.values = {"12", "5"}}));
  EXPECT_EQ(result.gte(), std::nullopt) << "finite results carry no bounds";
}

TEST(Requirement, BoundsAcceptEverySpellingOfAnInteger) {
  // Go's strconv.Atoi accepts a sign and leading zeros, so "05" and "+5" are 5.
  Requirement result =
      Requirement::In(kKey, {"05", "+5", "5", "4"}).Intersection(Requirement::Gte(kKey, 5));
  EXPECT_EQ(ShapeOf(result), (testing::Shape{.values = {"+5", "05", "5"}}));
}

TEST(Requirement, BoundsDropExcludedValuesOutsideThemFromComplements) {
  Requirement result =
      Requirement::NotIn(kKey, {"A", "1", "5", "20"}).Intersection(Requirement::Lte(kKey, 10));
  EXPECT_EQ(ShapeOf(result), (testing::Shape{.complement = true, .values = {"1", "5"}, .lte = 10}));
}

TEST(Requirement, ComplementsUnionTheirExcludedValues) {
  Requirement result =
      Requirement::NotIn(kKey, {"a", "c"}).Intersection(Requirement::NotIn(kKey, {"b", "c"}));
  EXPECT_EQ(ShapeOf(result), (testing::Shape{.complement = true, .values = {"a", "b", "c"}}));
  EXPECT_EQ(result.Operator(), NodeSelectorOperator::kNotIn);
}

TEST(Requirement, ComplementsIntersectEvenWhenEveryCanonicalIntegerIsExcluded) {
  // [5, 5] minus "5" still contains "05", which Has accepts; upstream treats two complements as
  // always overlapping once the bounds do.
  Requirement point = Requirement::Gte(kKey, 5).Intersection(Requirement::Lte(kKey, 5));
  Requirement not5 = Requirement::NotIn(kKey, {"5"});
  EXPECT_TRUE(point.HasIntersection(not5));
  Requirement both = point.Intersection(not5);
  EXPECT_FALSE(both.Has("5"));
  EXPECT_TRUE(both.Has("05"));
  EXPECT_TRUE(both.Has(both.Any()));
}

TEST(Requirement, ExtremeBoundsDoNotOverflow) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(Requirement::Gt(kKey, kMax).Operator(), NodeSelectorOperator::kDoesNotExist);
  EXPECT_EQ(Requirement::Gt(kKey, kMax).Len(), 0);
  EXPECT_EQ(Requirement::Lt(kKey, kMin).Operator(), NodeSelectorOperator::kDoesNotExist);
  EXPECT_TRUE(Requirement::Gte(kKey, kMax).Has("9223372036854775807"));
  EXPECT_TRUE(Requirement::Lte(kKey, kMin).Has("-9223372036854775808"));
  EXPECT_FALSE(Requirement::Lte(kKey, kMax).Has("9223372036854775808")) << "out of int64 range";
  EXPECT_TRUE(Requirement::Gte(kKey, kMin).HasIntersection(Requirement::Lte(kKey, kMax)));
  EXPECT_EQ(Requirement::Gt(kKey, kMax - 1).Any(), "9223372036854775807");
  EXPECT_EQ(Requirement::Lt(kKey, kMin + 1).Any(), "-9223372036854775808");
}

TEST(Requirement, FiniteIntersectionSharesValuesWithTheSmallerSide) {
  // Not observable through values, but a later Insert on the result must not leak into inputs.
  Requirement small = Requirement::In(kKey, {"a"});
  Requirement large = Requirement::In(kKey, {"a", "b", "c"});
  Requirement result = large.Intersection(small);
  result.Insert("z");
  EXPECT_EQ(ShapeOf(small), (testing::Shape{.values = {"a"}}));
  EXPECT_EQ(ShapeOf(result), (testing::Shape{.values = {"a", "z"}}));
}

TEST(Requirement, HasIntersectionOfLargeAndSmallFiniteSets) {
  std::vector<std::string> many;
  many.reserve(1000);
  for (int i = 0; i < 1000; ++i) many.push_back("type-" + std::to_string(i));
  Requirement large = Requirement::In(kKey, many);
  EXPECT_TRUE(large.HasIntersection(Requirement::In(kKey, {"type-999"})));
  EXPECT_TRUE(Requirement::In(kKey, {"nope", "type-0"}).HasIntersection(large));
  EXPECT_FALSE(large.HasIntersection(Requirement::In(kKey, {"type-1000", "x"})));
  std::vector<std::string> half(many.begin() + 500, many.end());
  EXPECT_TRUE(large.HasIntersection(Requirement::In(kKey, half)));
  EXPECT_FALSE(Requirement::In(kKey, {"a", "b", "c"})
                   .HasIntersection(Requirement::In(kKey, {"d", "e", "f"})));
}

}  // namespace
}  // namespace karpenter::scheduling
