#include "src/bench/decisions.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::bench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

Decisions Sample() {
  Decisions decisions;
  decisions.node_claims = {
      {"default", {"default/a", "default/b"}, "fake-it-1", 0.6294967296, {"test-zone-1"}, {"spot"}},
      {"default", {"default/c"}, "fake-it-0", 0.3147483648, {"test-zone-2"}, {"on-demand"}},
  };
  decisions.existing_nodes = {{"node-1", {"default/d"}}};
  decisions.unschedulable = {{"default/e", "no instance type satisfied resources"}};
  return decisions;
}

TEST(Decisions, RoundTrips) {
  absl::StatusOr<Decisions> parsed = ParseDecisions(EncodeDecisions(Sample()));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->node_claims, Sample().node_claims);
  EXPECT_EQ(parsed->existing_nodes, Sample().existing_nodes);
  EXPECT_EQ(parsed->unschedulable, Sample().unschedulable);
  EXPECT_THAT(DiffDecisions(Sample(), *parsed), IsEmpty());
}

TEST(Decisions, ComparesThePartitionNotTheOrder) {
  Decisions reordered = Sample();
  std::swap(reordered.node_claims[0], reordered.node_claims[1]);
  std::swap(reordered.node_claims[1].pods[0], reordered.node_claims[1].pods[1]);
  reordered.node_claims[0].price += 1e-12;
  reordered.unschedulable["default/e"] = "another scheduler's words";
  EXPECT_THAT(DiffDecisions(Sample(), reordered), IsEmpty());
}

TEST(Decisions, ReportsEveryDifference) {
  Decisions moved = Sample();
  moved.node_claims[0].pods = {"default/a"};
  moved.node_claims[1].pods.push_back("default/b");
  // The claim of a differs, the claim of c is missing, one keyed by b is extra.
  EXPECT_THAT(DiffDecisions(Sample(), moved), SizeIs(3));

  Decisions pricier = Sample();
  pricier.node_claims[1].instance_type = "fake-it-1";
  pricier.node_claims[1].price = 0.6294967296;
  EXPECT_THAT(DiffDecisions(Sample(), pricier),
              ElementsAre(HasSubstr("claim differs:\n  want default fake-it-0")));

  Decisions zoned = Sample();
  zoned.node_claims[0].zones = {"test-zone-2"};
  EXPECT_THAT(DiffDecisions(Sample(), zoned), SizeIs(1));

  Decisions scheduled = Sample();
  scheduled.unschedulable.clear();
  scheduled.existing_nodes["node-1"].push_back("default/e");
  EXPECT_THAT(DiffDecisions(Sample(), scheduled),
              ElementsAre(HasSubstr("node node-1"), HasSubstr("want default/e unschedulable")));
}

TEST(Decisions, NullListsAreEmpty) {
  absl::StatusOr<Decisions> parsed = ParseDecisions(
      R"({"nodeClaims": [{"nodePool": "p", "pods": null, "instanceType": "t", "price": 1,
          "zones": null, "capacityTypes": ["spot"]}], "existingNodes": null, "unschedulable": {}})");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_THAT(parsed->node_claims[0].pods, IsEmpty());
  EXPECT_THAT(parsed->node_claims[0].zones, IsEmpty());
  EXPECT_TRUE(ParseDecisions(R"({"nodeClaims": null})").ok());
}

TEST(Decisions, ParseErrorsNameTheField) {
  const std::pair<const char*, const char*> cases[] = {
      {"nope", "not valid JSON"},
      {"{}", "decisions.nodeClaims: required"},
      {R"({"nodeClaims": [{"nodePool": "p"}]})", "decisions.nodeClaims[0].pods: required"},
      {R"({"nodeClaims": [{"nodePool": "p", "pods": [1], "instanceType": "t", "price": 1,
           "zones": [], "capacityTypes": []}]})",
       "decisions.nodeClaims[0].pods[0]: want string"},
      {R"({"nodeClaims": [], "unschedulable": {"a": 1}})",
       "decisions.unschedulable.a: want string"},
  };
  for (const auto& [json, want] : cases) {
    absl::StatusOr<Decisions> parsed = ParseDecisions(json);
    ASSERT_FALSE(parsed.ok()) << json;
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(parsed.status().message(), HasSubstr(want)) << json;
  }
}

}  // namespace
}  // namespace karpenter::bench
