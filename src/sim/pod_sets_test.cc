// Which pod set each pod joins and what each set counts (pod_sets.h), and the cost and nodes
// split by capacity type.
#include <gtest/gtest.h>

#include "src/sim/cluster.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::BoundPods;
using testing::MakeDeployment;
using testing::World;

InstanceRequest Request(const std::string& capacity_type, double price,
                        const std::string& zone = "us-east-1a") {
  InstanceRequest request;
  request.instance_type = "m6i.xlarge";
  request.zone = zone;
  request.capacity_type = capacity_type;
  request.price = price;
  return request;
}

const PodSetCounters& Set(const World& world, PodSet set) {
  return world.cluster.counters().pod_sets[static_cast<size_t>(set)];
}

size_t PodsIn(const World& world, PodSet set) {
  size_t count = 0;
  for (const auto& [key, record] : world.cluster.pods()) count += record.set == set;
  return count;
}

TEST(PodSets, InitialPodsAreInNoSetAndAStepsPodsAreWorkload) {
  World world;
  world.cluster.LaunchInstance(Request("on-demand", 0.2), /*initial=*/true);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("base", 2, "100m", "128Mi"), true).ok());
  world.queue.RunUntil(5000);
  EXPECT_EQ(Set(world, PodSet::kWorkload).pods, 0u);
  // A step scaling an initial Deployment makes workload pods; its first two stay in no set.
  ASSERT_TRUE(world.cluster.ScaleDeployment("default/base", 3).ok());
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 2, "100m", "128Mi"), false).ok());
  world.queue.RunUntil(10000);
  EXPECT_EQ(Set(world, PodSet::kWorkload).pods, 3u);
  EXPECT_EQ(PodsIn(world, PodSet::kWorkload), 3u);
  // Bound at once, yet measured: the set has the same pods whatever capacity was there.
  EXPECT_EQ(Set(world, PodSet::kWorkload).pending_seconds.size(), 3u);
  EXPECT_TRUE(Set(world, PodSet::kWorkload).waited_pending_seconds.empty());
}

TEST(PodSets, AnOperatorDrainsPodsComeBackAsMigrationPods) {
  World world;
  const std::string legacy = world.cluster.LaunchInstance(Request("on-demand", 0.2), true);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 2, "500m", "512Mi"), false).ok());
  world.queue.RunUntil(3000);
  ASSERT_EQ(BoundPods(world.cluster), 2u);
  world.cluster.LaunchInstance(Request("on-demand", 0.2, "us-east-1b"), true);
  world.cluster.SetRemovalCause(legacy, PodSet::kMigration);
  world.cluster.Cordon(legacy);
  EXPECT_EQ(world.cluster.Drain(legacy), 2);
  world.queue.RunUntil(10000);
  EXPECT_EQ(Set(world, PodSet::kMigration).evictions, 2);
  EXPECT_EQ(Set(world, PodSet::kMigration).pods, 2u);
  EXPECT_EQ(PodsIn(world, PodSet::kMigration), 2u);
  EXPECT_EQ(Set(world, PodSet::kMigration).pending_seconds.size(), 2u);
  EXPECT_EQ(Set(world, PodSet::kDisruption).evictions, 0);
  EXPECT_EQ(Set(world, PodSet::kWorkload).pods, 2u);  // the originals stay workload pods
}

TEST(PodSets, AnAutoscalersEvictionIsADisruption) {
  World world;
  world.cluster.LaunchInstance(Request("on-demand", 0.2), true);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 1, "500m", "512Mi"), false).ok());
  world.queue.RunUntil(3000);
  const std::string pod = world.cluster.pods().begin()->first;
  ASSERT_EQ(world.cluster.Evict(pod), Cluster::Eviction::kEvicted);
  world.queue.RunUntil(10000);
  EXPECT_EQ(Set(world, PodSet::kDisruption).evictions, 1);
  EXPECT_EQ(Set(world, PodSet::kDisruption).pods, 1u);
  EXPECT_EQ(world.cluster.counters().evictions, 1);
}

// Cluster Autoscaler has no interruption handling: the pods die with the reclaimed instance and
// are counted all the same, though no eviction was asked for.
TEST(PodSets, PodsLostWithAnInterruptedInstanceAreInterruptionPods) {
  World world;
  const std::string spot = world.cluster.LaunchInstance(Request("spot", 0.1), true);
  world.cluster.LaunchInstance(Request("on-demand", 0.2, "us-east-1b"), true);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 4, "100m", "128Mi"), false).ok());
  world.queue.RunUntil(3000);
  const std::string node = world.cluster.instances().at(spot).node.metadata.name;
  const size_t on_spot = world.cluster.WorkloadPodsOn(node).size();
  ASSERT_GT(on_spot, 0u);
  world.cluster.SetRemovalCause(spot, PodSet::kInterruption);
  world.cluster.TerminateInstance(spot);
  world.queue.RunUntil(10000);
  EXPECT_EQ(Set(world, PodSet::kInterruption).evictions, static_cast<int64_t>(on_spot));
  EXPECT_EQ(Set(world, PodSet::kInterruption).pods, on_spot);
  EXPECT_EQ(world.cluster.counters().evictions, 0);  // the eviction API was not involved
}

TEST(PodSets, AScaleInBeforeTheReplacementDropsIt) {
  World world;
  const std::string a = world.cluster.LaunchInstance(Request("on-demand", 0.2), true);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 2, "500m", "512Mi"), false).ok());
  world.queue.RunUntil(3000);
  world.cluster.SetRemovalCause(a, PodSet::kMigration);
  world.cluster.Drain(a);
  ASSERT_TRUE(world.cluster.ScaleDeployment("default/web", 0).ok());
  ASSERT_TRUE(world.cluster.ScaleDeployment("default/web", 1).ok());
  world.queue.RunUntil(10000);
  EXPECT_EQ(Set(world, PodSet::kMigration).evictions, 2);
  EXPECT_EQ(Set(world, PodSet::kMigration).pods, 0u);
  EXPECT_EQ(Set(world, PodSet::kWorkload).pods, 3u);
}

TEST(CapacityTypes, CostAndNodesAreSplitByTheBilledCapacityType) {
  World world;
  const std::string spot = world.cluster.LaunchInstance(Request("spot", 0.9), true);
  world.cluster.LaunchInstance(Request("on-demand", 3.6), true);
  world.queue.RunUntil(1000000);
  world.cluster.TerminateInstance(spot);
  world.queue.RunUntil(2000000);
  world.cluster.SettleCost();
  const auto& by_type = world.cluster.counters().by_capacity_type;
  ASSERT_EQ(by_type.size(), 2u);
  EXPECT_DOUBLE_EQ(by_type.at("spot").cost_dollar_seconds, 0.9 * 1000);
  EXPECT_DOUBLE_EQ(by_type.at("on-demand").cost_dollar_seconds, 3.6 * 2000);
  EXPECT_EQ(by_type.at("spot").price_per_hour, 0);
  EXPECT_EQ(by_type.at("spot").nodes, 0u);
  EXPECT_EQ(by_type.at("spot").max_nodes, 1u);
  EXPECT_EQ(by_type.at("on-demand").nodes, 1u);
  EXPECT_DOUBLE_EQ(world.cluster.counters().cost_dollar_seconds, 0.9 * 1000 + 3.6 * 2000);
}

}  // namespace
}  // namespace karpenter::sim
