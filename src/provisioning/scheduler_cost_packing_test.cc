// PackingPolicy::kCost (types.h, packing_order.h): the opt-in packing that fills the capacity a
// NodeClaim already pays for before growing the emptiest claim, as upstream would.
#include <algorithm>
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

// Types proportional in cpu and memory (k cpu, 2k Gi) at a price linear in k, as the benchmark's
// fake catalog: only idle capacity costs anything.
SchedulerInput ProportionalInput(std::vector<api::Pod> pods) {
  SchedulerInput input;
  std::vector<InstanceTypeView> types;
  for (int k = 1; k <= 4; ++k) {
    const std::string size = std::to_string(k);
    types.push_back(MakeInstanceType({"p." + size, "p", size, k, 2 * k, 110, "amd64", 0.1 * k}));
  }
  input.node_pools.push_back({MakeNodePool("default"), std::move(types)});
  input.options.packing = PackingPolicy::kCost;
  input.pending_pods = std::move(pods);
  return input;
}

api::Pod AntiAffinityPod(const std::string& name, const char* cpu, const char* memory) {
  api::Pod pod = AntiAffinityPod(name, cpu);
  pod.spec.containers.front().resources.requests = Resources({{"cpu", cpu}, {"memory", memory}});
  return pod;
}

// Two claims forced apart: a-1 (1500m, 1Gi) on p.2, a-2 (100m, 2Gi) on p.1, whose memory is
// full. Ranked by cpu, the 1500m filler comes first and grows a-1's claim to p.3, and the
// memory-heavy one (500m, 3Gi) then grows a-2's to p.3: 6 cpu bought. Ranked by cpu + memory
// (each Gi weighs half a cpu here), the memory-heavy pod comes first and fills a-1's spare 500m
// and 3Gi exactly, and the 1500m pod grows a-2's claim to p.2: 4 cpu.
std::vector<api::Pod> MemoryHeavyPods() {
  return {AntiAffinityPod("a-1", "1500m", "1Gi"), AntiAffinityPod("a-2", "100m", "2Gi"),
          MakePod("cpu-heavy", "1500m", "256Mi"), MakePod("memory-heavy", "500m", "3Gi")};
}

TEST(CostPacking, RanksPodsByCpuAndMemorySoMemoryHeavyPodsFillSpareRoom) {
  const SchedulerInput input = ProportionalInput(MemoryHeavyPods());
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 2u);
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/a-1", "default/memory-heavy"));
  EXPECT_THAT(result.new_node_claims[1].pods, ElementsAre("default/a-2", "default/cpu-heavy"));
  EXPECT_THAT(CheapestTypes(result), ElementsAre("p.2", "p.2"));
  EXPECT_TRUE(result.unschedulable.empty());
}

TEST(CostPacking, DecisionsDoNotDependOnTheOrderPodsArriveIn) {
  std::vector<api::Pod> pods = MemoryHeavyPods();
  const SchedulerInput input = ProportionalInput(pods);
  const SchedulerResult first = Solve(input);
  std::reverse(pods.begin(), pods.end());
  const SchedulerInput reversed_input = ProportionalInput(pods);
  const SchedulerResult reversed = Solve(reversed_input);
  std::swap(pods[0], pods[2]);
  const SchedulerInput shuffled_input = ProportionalInput(pods);
  const SchedulerResult shuffled = Solve(shuffled_input);
  for (const SchedulerResult* other : {&reversed, &shuffled}) {
    ASSERT_EQ(other->new_node_claims.size(), first.new_node_claims.size());
    for (size_t i = 0; i < first.new_node_claims.size(); ++i) {
      EXPECT_EQ(other->new_node_claims[i].pods, first.new_node_claims[i].pods);
      EXPECT_EQ(other->new_node_claims[i].instance_types, first.new_node_claims[i].instance_types);
    }
  }
}

api::Pod InZone(api::Pod pod, const char* zone) {
  pod.spec.node_selector[kZoneKey] = zone;
  return pod;
}

// Two claims forced apart, a-1 pinned to zone a and a-2 to zone b, each a p.1 with 500m to spare.
// The free pod f and the zone-a pod z are the same size, and f sorts first. Placed first, f takes
// the spare room in zone a, and z must then grow a-1's claim to p.2 (3 cpu in all); with the free
// pod last, z takes that room and f the spare room in zone b (two p.1).
TEST(CostPacking, PlacesPodsWithPlacementConstraintsBeforeFreeOnes) {
  const SchedulerInput input =
      ProportionalInput({InZone(AntiAffinityPod("a-1", "500m"), kZoneA),
                         InZone(AntiAffinityPod("a-2", "500m"), kZoneB), MakePod("f", "500m"),
                         InZone(MakePod("z", "500m"), kZoneA)});
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 2u);
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/a-1", "default/z"));
  EXPECT_THAT(result.new_node_claims[1].pods, ElementsAre("default/a-2", "default/f"));
  EXPECT_THAT(CheapestTypes(result), ElementsAre("p.1", "p.1"));
  EXPECT_TRUE(result.unschedulable.empty());
}

}  // namespace
}  // namespace karpenter::provisioning
