#include "src/scheduling/requirement.h"

#include <map>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "src/scheduling/requirement_test_util.h"

namespace karpenter::scheduling {
namespace {

using testing::Fixture;
using testing::FixtureNames;
using testing::kKey;
using testing::Shape;
using testing::ShapeOf;

TEST(NodeSelectorOperator, NamesRoundTrip) {
  const std::vector<std::string> names = {"In", "NotIn", "Exists", "DoesNotExist",
                                          "Gt", "Lt",    "Gte",    "Lte"};
  for (const std::string& name : names) {
    std::optional<NodeSelectorOperator> op = ParseOperator(name);
    ASSERT_TRUE(op.has_value()) << name;
    EXPECT_EQ(OperatorName(*op), name);
  }
  EXPECT_FALSE(ParseOperator("in").has_value());
  EXPECT_FALSE(ParseOperator("").has_value());
  EXPECT_FALSE(ParseOperator("Ge").has_value());
}

TEST(Requirement, CreateBuildsEachOperator) {
  const std::vector<std::string> none;
  const std::vector<std::string> ab = {"b", "a", "b"};
  const std::vector<std::string> five = {"5"};
  EXPECT_EQ(ShapeOf(*Requirement::Create(kKey, "In", ab)), (Shape{.values = {"a", "b"}}));
  EXPECT_EQ(ShapeOf(*Requirement::Create(kKey, "NotIn", ab)),
            (Shape{.complement = true, .values = {"a", "b"}}));
  EXPECT_EQ(ShapeOf(*Requirement::Create(kKey, "Exists", none)), (Shape{.complement = true}));
  EXPECT_EQ(ShapeOf(*Requirement::Create(kKey, "DoesNotExist", none)), Shape{});
  EXPECT_EQ(ShapeOf(*Requirement::Create(kKey, "Gt", five)), (Shape{.complement = true, .gte = 6}));
  EXPECT_EQ(ShapeOf(*Requirement::Create(kKey, "Lt", five)), (Shape{.complement = true, .lte = 4}));
  EXPECT_EQ(ShapeOf(*Requirement::Create(kKey, "Gte", five)),
            (Shape{.complement = true, .gte = 5}));
  EXPECT_EQ(ShapeOf(*Requirement::Create(kKey, "Lte", five)),
            (Shape{.complement = true, .lte = 5}));
}

TEST(Requirement, CreateIgnoresValuesOfExistsAndDoesNotExist) {
  const std::vector<std::string> values = {"x"};
  EXPECT_EQ(ShapeOf(*Requirement::Create(kKey, NodeSelectorOperator::kExists, values)),
            (Shape{.complement = true}));
  EXPECT_EQ(ShapeOf(*Requirement::Create(kKey, NodeSelectorOperator::kDoesNotExist, values)),
            Shape{});
}

TEST(Requirement, CreateKeepsMinValues) {
  const std::vector<std::string> values = {"a", "b"};
  auto requirement = Requirement::Create(kKey, "In", values, 2);
  ASSERT_TRUE(requirement.ok());
  EXPECT_EQ(requirement->min_values(), 2);
}

TEST(Requirement, CreateRejectsMalformedBounds) {
  const std::vector<std::string> none;
  const std::vector<std::string> two = {"1", "2"};
  const std::vector<std::string> word = {"abc"};
  const std::vector<std::string> too_big = {"9223372036854775808"};
  for (std::string_view op : {"Gt", "Lt", "Gte", "Lte"}) {
    EXPECT_EQ(Requirement::Create(kKey, op, none).status().code(),
              absl::StatusCode::kInvalidArgument)
        << op;
    EXPECT_EQ(Requirement::Create(kKey, op, two).status().code(),
              absl::StatusCode::kInvalidArgument)
        << op;
    EXPECT_EQ(Requirement::Create(kKey, op, word).status().code(),
              absl::StatusCode::kInvalidArgument)
        << op;
    EXPECT_EQ(Requirement::Create(kKey, op, too_big).status().code(),
              absl::StatusCode::kInvalidArgument)
        << op;
  }
  EXPECT_EQ(Requirement::Create(kKey, "Gt", word).status().message(),
            "requirement key Gt: value \"abc\" is not an integer");
  EXPECT_EQ(Requirement::Create(kKey, "Lt", two).status().message(),
            "requirement key Lt needs exactly one value, got 2");
}

TEST(Requirement, CreateRejectsUnknownOperator) {
  const std::vector<std::string> values = {"a"};
  absl::Status status = Requirement::Create(kKey, "Matches", values).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "requirement key: unknown operator \"Matches\"");
}

TEST(Requirement, ConstructorsNormaliseBetaKeys) {
  const std::map<std::string, std::string> aliases = {
      {"failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone"},
      {"failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region"},
      {"beta.kubernetes.io/arch", "kubernetes.io/arch"},
      {"beta.kubernetes.io/os", "kubernetes.io/os"},
      {"beta.kubernetes.io/instance-type", "node.kubernetes.io/instance-type"},
  };
  const std::vector<std::string> one = {"1"};
  for (const auto& [alias, stable] : aliases) {
    EXPECT_EQ(Requirement::In(alias, {"x"}).key(), stable);
    EXPECT_EQ(Requirement::NotIn(alias, {"x"}).key(), stable);
    EXPECT_EQ(Requirement::Exists(alias).key(), stable);
    EXPECT_EQ(Requirement::DoesNotExist(alias).key(), stable);
    EXPECT_EQ(Requirement::Gt(alias, 1).key(), stable);
    EXPECT_EQ(Requirement::Create(alias, "Lte", one)->key(), stable);
  }
  EXPECT_EQ(Requirement::In("example.com/zone", {"x"}).key(), "example.com/zone");
}

// Expected Has() for each fixture against values "A", "B", "1", "2", "9".
// Keys are interned process-wide: threads building requirements on the same keys at once,
// spelled both ways, each get the normalised key.
TEST(Requirement, KeysInternedFromManyThreadsStayNormalised) {
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &wrong] {
      for (int i = 0; i < 2000; ++i) {
        const std::string custom = "example.com/key-" + std::to_string((i * 7 + t) % 300);
        if (Requirement::In(custom, {"a"}).key() != custom) ++wrong[t];
        const bool beta = (i + t) % 2 == 0;
        const Requirement zone = Requirement::Exists(beta ? "failure-domain.beta.kubernetes.io/zone"
                                                          : "topology.kubernetes.io/zone");
        if (zone.key() != "topology.kubernetes.io/zone") ++wrong[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong, std::vector<int>(4, 0));
}

TEST(Requirement, HasMatchesTable) {
  const std::vector<std::string> values = {"A", "B", "1", "2", "9"};
  const std::map<std::string, std::string> expected = {
      {"exists", "YYYYY"}, {"doesNotExist", "nnnnn"}, {"inA", "Ynnnn"}, {"inB", "nYnnn"},
      {"inAB", "YYnnn"},   {"notInA", "nYYYY"},       {"in1", "nnYnn"}, {"in9", "nnnnY"},
      {"in19", "nnYnY"},   {"notIn12", "YYnnY"},      {"gt1", "nnnYY"}, {"gt9", "nnnnn"},
      {"lt1", "nnnnn"},    {"lt9", "nnYYn"},
  };
  for (const std::string& name : FixtureNames()) {
    const Requirement requirement = Fixture(name);
    for (size_t i = 0; i < values.size(); ++i) {
      EXPECT_EQ(requirement.Has(values[i]), expected.at(name)[i] == 'Y')
          << name << " Has " << values[i];
    }
  }
}

TEST(Requirement, BoundsAreInclusiveAtTheEdges) {
  EXPECT_TRUE(Requirement::Gte(kKey, 2).Has("2"));
  EXPECT_FALSE(Requirement::Gte(kKey, 2).Has("1"));
  EXPECT_TRUE(Requirement::Lte(kKey, 8).Has("8"));
  EXPECT_FALSE(Requirement::Lte(kKey, 8).Has("9"));
  EXPECT_TRUE(Requirement::Gte(kKey, 0).Has("0"));
  EXPECT_FALSE(Requirement::Gte(kKey, 0).Has("-1"));
  EXPECT_TRUE(Requirement::Lte(kKey, 0).Has("0"));
  EXPECT_FALSE(Requirement::Lte(kKey, 0).Has("1"));
  // Gt/Lt are exclusive and equal Gte/Lte of the neighbour.
  for (const char* value : {"0", "1", "2", "8", "9", "10"}) {
    EXPECT_EQ(Requirement::Gt(kKey, 1).Has(value), Requirement::Gte(kKey, 2).Has(value)) << value;
    EXPECT_EQ(Requirement::Lt(kKey, 9).Has(value), Requirement::Lte(kKey, 8).Has(value)) << value;
  }
}

TEST(Requirement, BoundsRejectNonIntegers) {
  const Requirement gte = Requirement::Gte(kKey, 0);
  for (const char* value : {"", "a", "1.0", "1e3", " 1", "1 ", "0x10", "--1", "+", "-"}) {
    EXPECT_FALSE(gte.Has(value)) << '"' << value << '"';
  }
  EXPECT_TRUE(gte.Has("+7"));
  EXPECT_TRUE(gte.Has("007"));
  EXPECT_FALSE(Requirement::Gte(kKey, -10).Has("-11"));
  EXPECT_TRUE(Requirement::Gte(kKey, -10).Has("-10"));
}

TEST(Requirement, OperatorDescribesTheCurrentSet) {
  const std::map<std::string, NodeSelectorOperator> expected = {
      {"exists", NodeSelectorOperator::kExists},
      {"doesNotExist", NodeSelectorOperator::kDoesNotExist},
      {"inA", NodeSelectorOperator::kIn},
      {"inB", NodeSelectorOperator::kIn},
      {"inAB", NodeSelectorOperator::kIn},
      {"notInA", NodeSelectorOperator::kNotIn},
      {"in1", NodeSelectorOperator::kIn},
      {"in9", NodeSelectorOperator::kIn},
      {"in19", NodeSelectorOperator::kIn},
      {"notIn12", NodeSelectorOperator::kNotIn},
      {"gt1", NodeSelectorOperator::kExists},
      {"gt9", NodeSelectorOperator::kExists},
      {"lt1", NodeSelectorOperator::kExists},
      {"lt9", NodeSelectorOperator::kExists},
  };
  for (const std::string& name : FixtureNames()) {
    EXPECT_EQ(Fixture(name).Operator(), expected.at(name)) << name;
  }
  EXPECT_EQ(Requirement::In(kKey, {}).Operator(), NodeSelectorOperator::kDoesNotExist);
  EXPECT_EQ(Requirement::NotIn(kKey, {}).Operator(), NodeSelectorOperator::kExists);
}

TEST(Requirement, LenCountsComplementsFromInt64Max) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const std::map<std::string, int64_t> expected = {
      {"exists", kMax}, {"doesNotExist", 0},   {"inA", 1},    {"inB", 1},
      {"inAB", 2},      {"notInA", kMax - 1},  {"in1", 1},    {"in9", 1},
      {"in19", 2},      {"notIn12", kMax - 2}, {"gt1", kMax}, {"gt9", kMax},
      {"lt1", kMax},    {"lt9", kMax},
  };
  for (const std::string& name : FixtureNames()) {
    EXPECT_EQ(Fixture(name).Len(), expected.at(name)) << name;
  }
}

TEST(Requirement, AnyIsDeterministicAndAllowed) {
  const std::map<std::string, std::string> expected = {
      {"exists", "0"}, {"doesNotExist", ""}, {"inA", "A"}, {"inB", "B"},  {"inAB", "A"},
      {"notInA", "0"}, {"in1", "1"},         {"in9", "9"}, {"in19", "1"}, {"notIn12", "0"},
      {"gt1", "2"},    {"gt9", "10"},        {"lt1", "0"}, {"lt9", "0"},
  };
  for (const std::string& name : FixtureNames()) {
    const Requirement requirement = Fixture(name);
    const std::string any = requirement.Any();
    EXPECT_EQ(any, expected.at(name)) << name;
    EXPECT_EQ(requirement.Any(), any) << name << " must not vary between calls";
    if (!any.empty()) {
      EXPECT_TRUE(requirement.Has(any)) << name;
    }
  }
}

TEST(Requirement, AnySkipsExcludedIntegers) {
  EXPECT_EQ(Requirement::NotIn(kKey, {"0", "1"}).Any(), "2");
  EXPECT_EQ(Requirement::Lte(kKey, -5).Any(), "-5");
  EXPECT_EQ(Requirement::Gte(kKey, -5).Any(), "0");
  Requirement from_minus3 = Requirement::Gte(kKey, -3);
  for (const char* excluded : {"0", "1", "2"}) from_minus3.Insert(excluded);
  EXPECT_EQ(from_minus3.Any(), "3");
  // Upwards runs out at the upper bound, so it looks below zero.
  Requirement up_to_1 = Requirement::Lte(kKey, 1);
  up_to_1.Insert("0");
  up_to_1.Insert("1");
  EXPECT_EQ(up_to_1.Any(), "-1");
}

TEST(Requirement, AnyFallsBackToZeroPaddingWhenEveryIntegerIsExcluded) {
  Requirement point = Requirement::Gte(kKey, 5).Intersection(Requirement::Lte(kKey, 5));
  point.Insert("5");
  EXPECT_EQ(point.Any(), "05");
  point.Insert("05");
  EXPECT_EQ(point.Any(), "005");
  EXPECT_TRUE(point.Has(point.Any()));
  Requirement negative = Requirement::Gte(kKey, -7).Intersection(Requirement::Lte(kKey, -7));
  negative.Insert("-7");
  EXPECT_EQ(negative.Any(), "-07");
  EXPECT_TRUE(negative.Has(negative.Any()));
}

TEST(Requirement, ToStringPrintsUpstreamFormat) {
  const std::map<std::string, std::string> expected = {
      {"exists", "key Exists"},  {"doesNotExist", "key DoesNotExist"},
      {"inA", "key In [A]"},     {"inB", "key In [B]"},
      {"inAB", "key In [A B]"},  {"notInA", "key NotIn [A]"},
      {"in1", "key In [1]"},     {"in9", "key In [9]"},
      {"in19", "key In [1 9]"},  {"notIn12", "key NotIn [1 2]"},
      {"gt1", "key Exists >=2"}, {"gt9", "key Exists >=10"},
      {"lt1", "key Exists <=0"}, {"lt9", "key Exists <=8"},
  };
  for (const std::string& name : FixtureNames()) {
    EXPECT_EQ(Fixture(name).ToString(), expected.at(name)) << name;
  }
  EXPECT_EQ(Fixture("gt1").Intersection(Fixture("lt9")).ToString(), "key Exists >=2 <=8");
  EXPECT_EQ(Fixture("gt9").Intersection(Fixture("lt1")).ToString(), "key DoesNotExist");
  EXPECT_EQ(Fixture("notIn12").Intersection(Fixture("gt1")).ToString(), "key NotIn [2] >=2");
  EXPECT_EQ(Fixture("inAB", 2).ToString(), "key In [A B] minValues 2");
  EXPECT_EQ(Fixture("exists", 1).ToString(), "key Exists minValues 1");
}

TEST(Requirement, ToStringSummarisesLongValueLists) {
  EXPECT_EQ(Requirement::In(kKey, {"a", "b", "c", "d", "e"}).ToString(), "key In [a b c d e]");
  EXPECT_EQ(Requirement::In(kKey, {"h", "g", "f", "e", "d", "c", "b", "a"}).ToString(),
            "key In [a b c d e and 3 others]");
  EXPECT_EQ(Requirement::NotIn(kKey, {"1", "2", "3", "4", "5", "6"}).ToString(),
            "key NotIn [1 2 3 4 5 and 1 others]");
}

TEST(Requirement, ValuesAreSortedAndUnique) {
  Requirement requirement = Requirement::In(kKey, {"c", "a", "b", "a", "c"});
  EXPECT_EQ(ShapeOf(requirement).values, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(requirement.Len(), 3);
}

TEST(Requirement, InsertAddsToFiniteSets) {
  Requirement requirement = Requirement::In(kKey, {"b"});
  requirement.Insert("a");
  requirement.Insert("c");
  requirement.Insert("b");
  EXPECT_EQ(ShapeOf(requirement), (Shape{.values = {"a", "b", "c"}}));
  Requirement empty = Requirement::DoesNotExist(kKey);
  empty.Insert("x");
  EXPECT_EQ(empty.Operator(), NodeSelectorOperator::kIn);
  EXPECT_TRUE(empty.Has("x"));
}

TEST(Requirement, InsertExcludesFromComplements) {
  Requirement requirement = Requirement::Exists(kKey);
  requirement.Insert("a");
  EXPECT_FALSE(requirement.Has("a"));
  EXPECT_EQ(requirement.Operator(), NodeSelectorOperator::kNotIn);
  // Outside the bounds a value is already excluded; it is not recorded.
  Requirement bounded = Requirement::Gte(kKey, 5);
  bounded.Insert("3");
  bounded.Insert("x");
  bounded.Insert("7");
  EXPECT_EQ(ShapeOf(bounded), (Shape{.complement = true, .values = {"7"}, .gte = 5}));
}

TEST(Requirement, InsertOnACopyLeavesTheOriginalAlone) {
  const Requirement original = Requirement::In(kKey, {"a", "b"});
  Requirement copy = original;
  copy.Insert("c");
  EXPECT_EQ(ShapeOf(original), (Shape{.values = {"a", "b"}}));
  EXPECT_EQ(ShapeOf(copy), (Shape{.values = {"a", "b", "c"}}));
  Requirement shared = original.Intersection(Requirement::Exists(kKey));
  shared.Insert("z");
  EXPECT_FALSE(original.Has("z"));
}

TEST(Requirement, EqualityComparesSetsNotSpelling) {
  EXPECT_EQ(Requirement::In(kKey, {"a", "b"}), Requirement::In(kKey, {"b", "a", "a"}));
  EXPECT_NE(Requirement::In(kKey, {"a"}), Requirement::NotIn(kKey, {"a"}));
  EXPECT_NE(Requirement::In(kKey, {"a"}), Requirement::In("other", {"a"}));
  EXPECT_NE(Requirement::In(kKey, {"a"}, 1), Requirement::In(kKey, {"a"}));
  EXPECT_EQ(Requirement::Gt(kKey, 1), Requirement::Gte(kKey, 2));
  EXPECT_NE(Requirement::Gte(kKey, 2), Requirement::Lte(kKey, 2));
  EXPECT_EQ(Requirement::In(kKey, {}), Requirement::DoesNotExist(kKey));
}

TEST(Requirement, SetMinValuesReplacesIt) {
  Requirement requirement = Requirement::In(kKey, {"a", "b"}, 2);
  requirement.set_min_values(1);
  EXPECT_EQ(requirement.min_values(), 1);
  requirement.set_min_values(std::nullopt);
  EXPECT_FALSE(requirement.min_values().has_value());
}

}  // namespace
}  // namespace karpenter::scheduling
