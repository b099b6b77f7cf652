// Solves that share a SolveCache decide exactly as solves that build their own: the cache holds
// only what the input's pools and nodes determine, and no solve leaves its placements in it.
#include "src/provisioning/solve_cache.h"

#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/scheduler_test_util.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

// Two pool nodes of 2 cpu (under a 4-cpu pool limit) and one node outside the pool.
SchedulerInput ThreeNodes() {
  SchedulerInput input = DefaultInput();
  input.node_pools[0].node_pool.spec.limits = Resources({{"cpu", "4"}});
  ExistingNodeView a = MakeNode("node-a", "2", "8Gi");
  a.labels["karpenter.sh/nodepool"] = "default";
  ExistingNodeView b = MakeNode("node-b", "2", "8Gi");
  b.labels["karpenter.sh/nodepool"] = "default";
  input.existing_nodes = {b, MakeNode("node-c", "1", "4Gi"), a};
  return input;
}

TEST(SolveCache, ASolveLeavesNoPlacementBehindForTheNext) {
  SchedulerInput input = ThreeNodes();
  const SolveCache cache(input);
  input.pending_pods = {MakePod("web", "1500m")};
  // Were node-a's copy in the cache charged with the first solve's pod, the second solve
  // would find it full and move on to node-b.
  for (int i = 0; i < 2; ++i) {
    const SchedulerResult result = Solve(input, cache);
    EXPECT_THAT(result.existing_node_pods.at("node-a"), ElementsAre("default/web"));
    EXPECT_THAT(result.new_node_claims, IsEmpty());
  }
}

TEST(SolveCache, RemovedNodesAreSkippedAndFreeTheirShareOfTheLimits) {
  SchedulerInput input = ThreeNodes();
  const SolveCache cache(input);
  input.pending_pods = {MakePod("big", "3")};
  // Both pool nodes count against the 4-cpu limit: no room for a claim.
  EXPECT_THAT(Solve(input, cache).unschedulable.at("default/big"), HasSubstr("limits"));
  // Without node-a, 2 cpu are free: a claim may only be a type of at most 2 cpu, too small.
  input.removed_nodes = {"node-a"};
  SchedulerResult one = Solve(input, cache);
  EXPECT_TRUE(one.unschedulable.contains("default/big"));
  EXPECT_THAT(one.unschedulable.at("default/big"), ::testing::Not(HasSubstr("limits")));
  // Without both, 4 cpu are free and a 4-cpu claim takes the pod.
  input.removed_nodes = {"node-a", "node-b"};
  SchedulerResult none = Solve(input, cache);
  EXPECT_THAT(none.unschedulable, IsEmpty());
  EXPECT_THAT(ClaimedPods(none), ElementsAre("default/big"));
  // A pod that fits a node goes to the first remaining one, never to a removed one.
  input.pending_pods = {MakePod("web", "500m")};
  input.removed_nodes = {"node-a"};
  EXPECT_THAT(Solve(input, cache).existing_node_pods.at("node-b"), ElementsAre("default/web"));
  // Each decision is the one a solve without the cache makes.
  for (const auto& removed : std::vector<std::set<std::string, std::less<>>>{
           {}, {"node-a"}, {"node-b"}, {"node-a", "node-b"}, {"node-c"}}) {
    input.removed_nodes = removed;
    for (const char* cpu : {"500m", "1500m", "3"}) {
      input.pending_pods = {MakePod("pod", cpu)};
      const SchedulerResult shared = Solve(input, cache);
      const SchedulerResult own = Solve(input);
      EXPECT_EQ(shared.existing_node_pods, own.existing_node_pods);
      EXPECT_EQ(ClaimedPods(shared), ClaimedPods(own));
      EXPECT_EQ(shared.unschedulable, own.unschedulable);
    }
  }
}

TEST(SolveCache, IsNotUsedForAnotherInput) {
  SchedulerInput input = ThreeNodes();
  const SolveCache cache(input);
  SchedulerInput other = input;
  other.existing_nodes.clear();  // A different cluster: the cache's nodes are not in it.
  other.pending_pods = {MakePod("web", "1500m")};
  EXPECT_FALSE(cache.BuiltFrom(other));
  const SchedulerResult result = Solve(other, cache);
  EXPECT_THAT(result.existing_node_pods, IsEmpty());
  EXPECT_THAT(ClaimedPods(result), ElementsAre("default/web"));
}

TEST(SolveCache, NodesAreTriedInitializedFirstThenByName) {
  SchedulerInput input = ThreeNodes();
  input.existing_nodes[2].initialized = false;  // node-a
  const SolveCache cache(input);
  std::vector<std::string> order;
  for (const ExistingNode& node : cache.nodes()) order.push_back(node.name());
  EXPECT_THAT(order, ElementsAre("node-b", "node-c", "node-a"));
}

}  // namespace
}  // namespace karpenter::provisioning
