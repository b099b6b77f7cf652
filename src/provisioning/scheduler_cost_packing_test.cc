// PackingPolicy::kCost (types.h, packing_order.h): the opt-in packing that fills the capacity a
// NodeClaim already pays for before growing the emptiest claim, as upstream would.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/scheduler_test_util.h"
#include "src/provisioning/topology_test_util.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;
using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

api::Pod AntiAffinityPod(const std::string& name, const char* cpu) {
  api::Pod pod = Labeled(name, {{"app", "a"}}, cpu);
  RequireAntiAffinity(pod, AffinityTerm(kHostnameKey, {{"app", "a"}}));
  return pod;
}

// Two claims forced apart: one full t.small (a-1, 1 cpu), one half-empty t.small (a-2). The
// filler g (300m) goes to the emptiest claim first under upstream's order, a tie broken by
// creation, so a-1's claim grows to a 2-cpu type; kCost puts it in a-2's spare half instead.
SchedulerInput FillerInput(PackingPolicy packing) {
  SchedulerInput input = DefaultInput();
  input.options.packing = packing;
  input.pending_pods = {AntiAffinityPod("a-1", "1"), AntiAffinityPod("a-2", "500m"),
                        MakePod("g", "300m")};
  return input;
}

std::vector<std::string> CheapestTypes(const SchedulerResult& result) {
  std::vector<std::string> types;
  for (const NewNodeClaim& claim : result.new_node_claims) types.push_back(claim.instance_types[0]);
  return types;
}

TEST(CostPacking, UpstreamGrowsTheEmptiestClaim) {
  const SchedulerInput input = FillerInput(PackingPolicy::kUpstream);
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 2u);
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/a-1", "default/g"));
  EXPECT_NE(CheapestTypes(result)[0], "t.small");  // grown
  EXPECT_EQ(CheapestTypes(result)[1], "t.small");
}

TEST(CostPacking, FillsTheSpareRoomOfAClaimBeforeGrowingOne) {
  const SchedulerInput input = FillerInput(PackingPolicy::kCost);
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 2u);
  EXPECT_THAT(result.new_node_claims[1].pods, ElementsAre("default/a-2", "default/g"));
  EXPECT_THAT(CheapestTypes(result), ElementsAre("t.small", "t.small"));
  EXPECT_TRUE(result.unschedulable.empty());
}

// Upstream's queue takes the 2-cpu pod first and lets a-1 join its claim, which then grows to
// c.xlarge; kCost places the anti-affinity pods first, each on its own t.small, and the big pod
// grows one of them to c.xlarge only after — the same price here, but the pods that force claims
// apart are all placed before any filler.
TEST(CostPacking, PlacesRequiredAntiAffinityPodsFirst) {
  SchedulerInput input = DefaultInput();
  input.options.packing = PackingPolicy::kCost;
  input.pending_pods = {MakePod("big", "2"), AntiAffinityPod("a-1", "500m"),
                        AntiAffinityPod("a-2", "500m")};
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 2u);
  EXPECT_EQ(result.new_node_claims[0].pods.front(), "default/a-1");
  EXPECT_EQ(result.new_node_claims[1].pods.front(), "default/a-2");
  EXPECT_TRUE(result.unschedulable.empty());
}

TEST(CostPacking, StillHonoursAntiAffinity) {
  SchedulerInput input = DefaultInput();
  input.options.packing = PackingPolicy::kCost;
  for (int i = 0; i < 4; ++i) {
    input.pending_pods.push_back(AntiAffinityPod("a-" + std::to_string(i), "100m"));
  }
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 4u);
  for (const NewNodeClaim& claim : result.new_node_claims) EXPECT_EQ(claim.pods.size(), 1u);
}

}  // namespace
}  // namespace karpenter::provisioning
