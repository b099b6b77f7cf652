#include "src/scheduling/requirements.h"

#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/scheduling/requirement_test_util.h"
#include "src/scheduling/well_known_labels.h"

namespace karpenter::scheduling {
namespace {

using testing::FixtureNames;

constexpr std::string_view kZone = "topology.kubernetes.io/zone";

// The fixtures of requirement_test_util.h, but on the zone key (a well-known label) and as
// whole Requirements; "unconstrained" is the empty set of requirements.
Requirements ZoneFixture(std::string_view name) {
  if (name == "unconstrained") return {};
  Requirement on_key = testing::Fixture(name);
  const std::vector<std::string> values(on_key.Values().begin(), on_key.Values().end());
  Requirement on_zone =
      on_key.is_complement() ? Requirement::NotIn(kZone, values) : Requirement::In(kZone, values);
  if (on_key.gte()) on_zone = on_zone.Intersection(Requirement::Gte(kZone, *on_key.gte()));
  if (on_key.lte()) on_zone = on_zone.Intersection(Requirement::Lte(kZone, *on_key.lte()));
  return {on_zone};
}

std::vector<std::string> CompatibilityNames() {
  std::vector<std::string> names = {"unconstrained"};
  names.insert(names.end(), FixtureNames().begin(), FixtureNames().end());
  return names;
}

// kCompatible[row][col]: whether ZoneFixture(row).Compatible(ZoneFixture(col)) succeeds, in
// CompatibilityNames() order, when well-known labels may stay undefined.
const std::vector<std::string> kCompatibleAllowUndefined = {
    "YYYYYYYYYYYYYYY",  // unconstrained
    "YYnYYYYYYYYYYYY",  // exists
    "YnYnnnYnnnYnnnn",  // doesNotExist
    "YYnYnYnnnnYnnnn",  // inA
    "YYnnYYYnnnYnnnn",  // inB
    "YYnYYYYnnnYnnnn",  // inAB
    "YYYnYYYYYYYYYYY",  // notInA
    "YYnnnnYYnYnnnnY",  // in1
    "YYnnnnYnYYYYnnn",  // in9
    "YYnnnnYYYYYYnnY",  // in19
    "YYYYYYYnYYYYYYY",  // notIn12
    "YYnnnnYnYYYYYnY",  // gt1
    "YYnnnnYnnnYYYnn",  // gt9
    "YYnnnnYnnnYnnYY",  // lt1
    "YYnnnnYYnYYYnYY",  // lt9
};
// Strict mode differs only where the left side leaves the key undefined: then only NotIn and
// DoesNotExist on the right pass.
const std::vector<std::string> kCompatibleStrict = {
    "YnYnnnYnnnYnnnn",  // unconstrained
    "YYnYYYYYYYYYYYY",  // exists
    "YnYnnnYnnnYnnnn",  // doesNotExist
    "YYnYnYnnnnYnnnn",  // inA
    "YYnnYYYnnnYnnnn",  // inB
    "YYnYYYYnnnYnnnn",  // inAB
    "YYYnYYYYYYYYYYY",  // notInA
    "YYnnnnYYnYnnnnY",  // in1
    "YYnnnnYnYYYYnnn",  // in9
    "YYnnnnYYYYYYnnY",  // in19
    "YYYYYYYnYYYYYYY",  // notIn12
    "YYnnnnYnYYYYYnY",  // gt1
    "YYnnnnYnnnYYYnn",  // gt9
    "YYnnnnYnnnYnnYY",  // lt1
    "YYnnnnYYnYYYnYY",  // lt9
};

TEST(Requirements, CompatibleWithWellKnownLabelsUndefinedMatchesTable) {
  const WellKnownLabels well_known = WellKnownLabels::Core();
  const std::vector<std::string> names = CompatibilityNames();
  for (size_t row = 0; row < names.size(); ++row) {
    const Requirements existing = ZoneFixture(names[row]);
    for (size_t col = 0; col < names.size(); ++col) {
      const Requirements incoming = ZoneFixture(names[col]);
      const bool expected = kCompatibleAllowUndefined[row][col] == 'Y';
      EXPECT_EQ(existing.Compatible(incoming, well_known).ok(), expected)
          << names[row] << " vs " << names[col];
      EXPECT_EQ(existing.IsCompatible(incoming, well_known), expected)
          << names[row] << " vs " << names[col];
    }
  }
}

TEST(Requirements, StrictlyCompatibleMatchesTable) {
  const std::vector<std::string> names = CompatibilityNames();
  for (size_t row = 0; row < names.size(); ++row) {
    const Requirements existing = ZoneFixture(names[row]);
    for (size_t col = 0; col < names.size(); ++col) {
      const Requirements incoming = ZoneFixture(names[col]);
      const bool expected = kCompatibleStrict[row][col] == 'Y';
      EXPECT_EQ(existing.Compatible(incoming).ok(), expected) << names[row] << " vs " << names[col];
      EXPECT_EQ(existing.IsCompatible(incoming), expected) << names[row] << " vs " << names[col];
    }
  }
}

TEST(Requirements, UndefinedCustomLabelFailsForInAndExistsOnly) {
  // §10 behaviour 1: a NodePool that never mentions "team" cannot promise it.
  const Requirements node_pool = {Requirement::In("other", {"x"})};
  const WellKnownLabels well_known = WellKnownLabels::Core();
  EXPECT_FALSE(node_pool.IsCompatible({Requirement::In("team", {"a"})}, well_known));
  EXPECT_FALSE(node_pool.IsCompatible({Requirement::Exists("team")}, well_known));
  EXPECT_FALSE(node_pool.IsCompatible({Requirement::Gt("team", 1)}, well_known));
  EXPECT_TRUE(node_pool.IsCompatible({Requirement::NotIn("team", {"a"})}, well_known));
  EXPECT_TRUE(node_pool.IsCompatible({Requirement::DoesNotExist("team")}, well_known));
  // Defined by the NodePool, the same key only needs to intersect.
  const Requirements defines_team = {Requirement::In("team", {"a", "b"})};
  EXPECT_TRUE(defines_team.IsCompatible({Requirement::In("team", {"a"})}, well_known));
  EXPECT_TRUE(defines_team.IsCompatible({Requirement::Exists("team")}, well_known));
  EXPECT_FALSE(defines_team.IsCompatible({Requirement::In("team", {"c"})}, well_known));
}

TEST(Requirements, UndefinedWellKnownLabelPassesOnlyWhenAllowed) {
  const Requirements node_pool;
  const Requirements pod = {Requirement::In("kubernetes.io/arch", {"arm64"})};
  EXPECT_TRUE(node_pool.IsCompatible(pod, WellKnownLabels::Core()));
  EXPECT_FALSE(node_pool.IsCompatible(pod));
  EXPECT_FALSE(node_pool.IsCompatible(pod, WellKnownLabels{"example.com/other"}));
  const Requirements aws_pod = {Requirement::In("karpenter.k8s.aws/instance-family", {"m5"})};
  EXPECT_FALSE(node_pool.IsCompatible(aws_pod, WellKnownLabels::Core()));
  EXPECT_TRUE(node_pool.IsCompatible(aws_pod, WellKnownLabels::CoreAndAws()));
}

TEST(Requirements, CompatibleReportsUnknownLabel) {
  const Requirements unconstrained;
  const Requirements pod = {Requirement::Exists("deployment")};
  absl::Status status = unconstrained.Compatible(pod);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(), "label \"deployment\" does not have known values");
  EXPECT_EQ(unconstrained.Compatible(pod, WellKnownLabels::Core()).message(),
            "label \"deployment\" does not have known values");
}

TEST(Requirements, CompatibleHintsAtWellKnownLabelForTruncatedKey) {
  const std::map<std::string, std::string> expected = {
      {"zone", "topology.kubernetes.io/zone"},
      {"region", "topology.kubernetes.io/region"},
      {"nodepool", "karpenter.sh/nodepool"},
      {"instance-type", "node.kubernetes.io/instance-type"},
      {"arch", "kubernetes.io/arch"},
      {"capacity-type", "karpenter.sh/capacity-type"},
  };
  // The AWS set adds topology.k8s.aws/zone-id, which also contains "zone"; the hint must still
  // pick the key whose name matches exactly.
  for (const WellKnownLabels& well_known :
       {WellKnownLabels::Core(), WellKnownLabels::CoreAndAws()}) {
    for (const auto& [bad, good] : expected) {
      absl::Status status = Requirements{}.Compatible({Requirement::Exists(bad)}, well_known);
      EXPECT_EQ(status.message(),
                "label \"" + bad + "\" does not have known values (typo of \"" + good + "\"?)");
    }
  }
}

TEST(Requirements, CompatibleHintsAtWellKnownLabelForTypo) {
  const std::map<std::string, std::string> expected = {
      {"topology.kubernetesio/zone", "topology.kubernetes.io/zone"},
      {"node.io/zone", "topology.kubernetes.io/zone"},
      {"topology.kubernetes.io/regio", "topology.kubernetes.io/region"},
      {"node.kubernetes.io/region", "topology.kubernetes.io/region"},
      {"karpenter/nodepool", "karpenter.sh/nodepool"},
  };
  for (const auto& [bad, good] : expected) {
    absl::Status status =
        Requirements{}.Compatible({Requirement::Exists(bad)}, WellKnownLabels::Core());
    EXPECT_EQ(status.message(),
              "label \"" + bad + "\" does not have known values (typo of \"" + good + "\"?)");
  }
}

TEST(Requirements, CompatibleHintsAtDefinedKeyWhenNoWellKnownMatches) {
  const Requirements node_pool = {Requirement::In("example.com/team", {"a"})};
  absl::Status status = node_pool.Compatible({Requirement::In("team", {"a"})});
  EXPECT_EQ(status.message(),
            "label \"team\" does not have known values (typo of \"example.com/team\"?)");
}

TEST(Requirements, CompatibleReportsOnlyFirstUndefinedKey) {
  const Requirements pod = {Requirement::Exists("b-custom"), Requirement::Exists("a-custom")};
  EXPECT_EQ(Requirements{}.Compatible(pod).message(),
            "label \"a-custom\" does not have known values");
}

TEST(Requirements, CompatibleReportsIncompatibleValues) {
  const Requirements node_pool = {Requirement::In(kZone, {"b"})};
  const Requirements pod = {Requirement::In(kZone, {"a"})};
  absl::Status status = node_pool.Compatible(pod, WellKnownLabels::Core());
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "key topology.kubernetes.io/zone, topology.kubernetes.io/zone In [a] not in "
            "topology.kubernetes.io/zone In [b]");
}

TEST(Requirements, IntersectsJoinsEveryFailingKeyInOrder) {
  const Requirements existing = {Requirement::In("b", {"1"}), Requirement::In("a", {"x"}),
                                 Requirement::In("c", {"same"})};
  const Requirements incoming = {Requirement::In("a", {"y"}), Requirement::Gt("b", 5),
                                 Requirement::In("c", {"same"})};
  absl::Status status = existing.Intersects(incoming);
  EXPECT_EQ(status.message(),
            "key a, a In [y] not in a In [x]; key b, b Exists >=6 not in b In [1]");
  EXPECT_FALSE(existing.HasIntersection(incoming));
}

TEST(Requirements, IntersectsIgnoresKeysOnOneSideOnly) {
  const Requirements existing = {Requirement::In("a", {"x"})};
  const Requirements incoming = {Requirement::DoesNotExist("b")};
  EXPECT_TRUE(existing.Intersects(incoming).ok());
  EXPECT_TRUE(existing.HasIntersection(incoming));
}

TEST(Requirements, IntersectsAcceptsEmptyOverlapWhenBothAllowAbsence) {
  const Requirements does_not_exist = {Requirement::DoesNotExist("a")};
  const Requirements not_in = {Requirement::NotIn("a", {"x"})};
  const Requirements in = {Requirement::In("a", {"x"})};
  EXPECT_TRUE(does_not_exist.HasIntersection(does_not_exist));
  EXPECT_TRUE(does_not_exist.HasIntersection(not_in));
  EXPECT_TRUE(not_in.HasIntersection(does_not_exist));
  EXPECT_FALSE(does_not_exist.HasIntersection(in));
  EXPECT_FALSE(in.HasIntersection(does_not_exist));
  // Bounded NotIn sets whose bounds cross still both allow a node without the label.
  Requirement high = Requirement::Gt("a", 5);
  high.Insert("7");
  Requirement low = Requirement::Lt("a", 3);
  low.Insert("1");
  EXPECT_TRUE(Requirements{high}.HasIntersection(Requirements{low}));
  EXPECT_FALSE(
      Requirements{Requirement::Gt("a", 5)}.HasIntersection(Requirements{Requirement::Lt("a", 3)}));
}

TEST(Requirements, AddIntersectsRepeatedKeys) {
  Requirements requirements;
  requirements.Add(Requirement::In("a", {"x", "y", "z"}));
  requirements.Add(Requirement::NotIn("a", {"y"}));
  requirements.Add(Requirement::In("b", {"1"}, 1));
  requirements.Add(Requirement::Exists("b", 2));
  ASSERT_EQ(requirements.size(), 2u);
  EXPECT_EQ(requirements.Get("a"), Requirement::In("a", {"x", "z"}));
  EXPECT_EQ(requirements.Get("b"), Requirement::In("b", {"1"}, 2));
}

TEST(Requirements, AddMergesAnotherSet) {
  Requirements requirements = {Requirement::In("a", {"x", "y"})};
  requirements.Add(Requirements{Requirement::In("a", {"y"}), Requirement::Exists("b")});
  EXPECT_EQ(requirements.Keys(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(requirements.Get("a"), Requirement::In("a", {"y"}));
  requirements.Add(requirements);
  EXPECT_EQ(requirements.Get("a"), Requirement::In("a", {"y"}));
}

TEST(Requirements, KeysAreSortedWhateverTheInsertionOrder) {
  const Requirements requirements = {Requirement::Exists("c"), Requirement::Exists("a"),
                                     Requirement::Exists("b")};
  EXPECT_EQ(requirements.Keys(), (std::vector<std::string>{"a", "b", "c"}));
  std::vector<std::string> iterated;
  for (const Requirement& requirement : requirements) iterated.emplace_back(requirement.key());
  EXPECT_EQ(iterated, requirements.Keys());
}

TEST(Requirements, GetOfAbsentKeyIsExists) {
  const Requirements requirements = {Requirement::In("a", {"x"})};
  EXPECT_FALSE(requirements.Has("b"));
  EXPECT_EQ(requirements.Find("b"), nullptr);
  EXPECT_EQ(requirements.Get("b"), Requirement::Exists("b"));
  ASSERT_NE(requirements.Find("a"), nullptr);
  EXPECT_TRUE(requirements.Find("a")->Has("x"));
}

TEST(Requirements, AliasedKeysMeetUnderTheStableKey) {
  const Requirements requirements = {
      Requirement::In("failure-domain.beta.kubernetes.io/zone", {"test"})};
  EXPECT_FALSE(requirements.Has("failure-domain.beta.kubernetes.io/zone"));
  EXPECT_TRUE(requirements.Get(kZone).Has("test"));
}

TEST(Requirements, RemoveDropsAKey) {
  Requirements requirements = {Requirement::Exists("a"), Requirement::Exists("b")};
  EXPECT_TRUE(requirements.Remove("a"));
  EXPECT_FALSE(requirements.Remove("a"));
  EXPECT_EQ(requirements.Keys(), (std::vector<std::string>{"b"}));
}

TEST(Requirements, LabelsTakeAnyValueOfEachKey) {
  const Requirements requirements = {
      Requirement::In("in", {"b", "a"}),
      Requirement::NotIn("not-in", {"0"}),
      Requirement::Lt("lt", 4),
      Requirement::Gt("gt", 5),
      Requirement::Exists("exists"),
      Requirement::DoesNotExist("does-not-exist"),
      Requirement::In("single", {"value"}),
  };
  const std::map<std::string, std::string> expected = {
      {"in", "a"}, {"not-in", "1"}, {"lt", "0"}, {"gt", "6"}, {"exists", "0"}, {"single", "value"},
  };
  EXPECT_EQ(requirements.Labels(), expected);
}

TEST(Requirements, LabelsSkipRejectedKeys) {
  const Requirements requirements = {Requirement::In(kZone, {"z1"}),
                                     Requirement::In("team", {"a"})};
  const WellKnownLabels well_known = WellKnownLabels::Core();
  auto labels = requirements.Labels([&](std::string_view key) { return well_known.Contains(key); });
  EXPECT_EQ(labels, (std::map<std::string, std::string>{{"team", "a"}}));
}

TEST(Requirements, HasMinValuesWhenAnyRequirementCarriesIt) {
  Requirements requirements = {Requirement::Exists("a")};
  EXPECT_FALSE(requirements.HasMinValues());
  requirements.Add(Requirement::In("b", {"x", "y"}, 2));
  EXPECT_TRUE(requirements.HasMinValues());
}

TEST(Requirements, ToStringListsRequirementsInKeyOrderWithoutHostname) {
  const Requirements requirements = {
      Requirement::Exists("exists"),
      Requirement::DoesNotExist("doesNotExist"),
      Requirement::In("inA", {"A"}),
      Requirement::In("inB", {"B"}),
      Requirement::In("inAB", {"A", "B"}),
      Requirement::NotIn("notInA", {"A"}),
      Requirement::In("in1", {"1"}),
      Requirement::In("in9", {"9"}),
      Requirement::In("in19", {"1", "9"}),
      Requirement::NotIn("notIn12", {"1", "2"}),
      Requirement::Gt("greaterThan1", 1),
      Requirement::Gt("greaterThan9", 9),
      Requirement::Lt("lessThan1", 1),
      Requirement::Lt("lessThan9", 9),
      Requirement::In("kubernetes.io/hostname", {"hostname-placeholder-0001"}),
  };
  EXPECT_EQ(requirements.ToString(),
            "doesNotExist DoesNotExist, exists Exists, greaterThan1 Exists >=2, greaterThan9 "
            "Exists >=10, in1 In [1], in19 In [1 9], in9 In [9], inA In [A], inAB In [A B], inB "
            "In [B], lessThan1 Exists <=0, lessThan9 Exists <=8, notIn12 NotIn [1 2], notInA "
            "NotIn [A]");
}

}  // namespace
}  // namespace karpenter::scheduling
