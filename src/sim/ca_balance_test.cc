#include "src/sim/ca_balance.h"

#include <gtest/gtest.h>

#include "src/sim/cluster_autoscaler.h"
#include "src/sim/scenario_file.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::MakeDeployment;
using testing::World;

TEST(BalanceScaleUp, FillsTheSmallestGroupsFirstWithinTheirMaxSizes) {
  EXPECT_EQ(BalanceScaleUp({{"a", 0, 10}, {"b", 0, 10}, {"c", 0, 10}}, 4),
            (std::map<std::string, int>{{"a", 2}, {"b", 1}, {"c", 1}}));
  EXPECT_EQ(BalanceScaleUp({{"a", 3, 10}, {"b", 1, 10}}, 3),
            (std::map<std::string, int>{{"a", 0 + 1}, {"b", 2}}));
  EXPECT_EQ(BalanceScaleUp({{"a", 0, 10}, {"b", 0, 1}}, 4),
            (std::map<std::string, int>{{"a", 3}, {"b", 1}}));
  EXPECT_EQ(BalanceScaleUp({{"a", 2, 2}, {"b", 1, 2}}, 3), (std::map<std::string, int>{{"b", 1}}));
}

NodeGroup Group(const std::string& name, const std::string& type, const std::string& zone,
                int max_size = 10) {
  NodeGroup group;
  group.name = name;
  group.instance_type = type;
  group.zones = {zone};
  group.max_size = max_size;
  return group;
}

struct CaWorld {
  explicit CaWorld(std::vector<NodeGroup> specs, bool balance)
      : groups(world.cluster, std::move(specs)),
        autoscaler(world.cluster, groups,
                   ClusterAutoscalerOptions{.balance_similar_node_groups = balance}) {}
  World world;
  AutoScalingGroups groups;
  ClusterAutoscaler autoscaler;
};

TEST(SimilarNodeGroups, SameShapeLabelsAndTaintsApartFromZoneAndGroup) {
  CaWorld ca({Group("a", "c6i.2xlarge", "us-east-1a"), Group("b", "c6i.2xlarge", "us-east-1b"),
              Group("c", "m6i.2xlarge", "us-east-1c"), Group("d", "c6i.2xlarge", "us-east-1c")},
             false);
  ca.groups.Find("d")->spec.taints.push_back({.key = "dedicated", .effect = "NoSchedule"});
  auto node = [&](const std::string& name) {
    return ca.autoscaler.TemplateNode(*ca.groups.Find(name));
  };
  EXPECT_TRUE(SimilarNodeGroups(node("a"), node("b")));
  EXPECT_FALSE(SimilarNodeGroups(node("a"), node("c")));  // twice the memory
  EXPECT_FALSE(SimilarNodeGroups(node("a"), node("d")));  // tainted
  ca.groups.Find("b")->spec.labels["team"] = "x";
  EXPECT_FALSE(SimilarNodeGroups(node("a"), node("b")));
}

// Four c6i.2xlarge worth of pods; one group per zone. Without balancing the expander's group
// takes all four; with it, the similar groups get two each and the dissimilar one nothing.
int Desired(CaWorld& ca, const std::string& group) { return ca.groups.Find(group)->desired; }

TEST(ClusterAutoscalerBalance, SpreadsAScaleUpOverSimilarGroups) {
  const std::vector<NodeGroup> specs = {Group("zone-a", "c6i.2xlarge", "us-east-1a"),
                                        Group("zone-b", "c6i.2xlarge", "us-east-1b"),
                                        Group("memory", "r6i.2xlarge", "us-east-1c")};
  CaWorld off(specs, false);
  off.autoscaler.Start();
  ASSERT_TRUE(off.world.cluster.Apply(MakeDeployment("web", 8, "3", "1Gi"), false).ok());
  off.world.queue.RunUntil(40000);
  EXPECT_EQ(Desired(off, "zone-a") + Desired(off, "zone-b"), 4);
  EXPECT_TRUE(Desired(off, "zone-a") == 0 || Desired(off, "zone-b") == 0);

  CaWorld on(specs, true);
  on.autoscaler.Start();
  ASSERT_TRUE(on.world.cluster.Apply(MakeDeployment("web", 8, "3", "1Gi"), false).ok());
  on.world.queue.RunUntil(40000);
  EXPECT_EQ(Desired(on, "zone-a"), 2);
  EXPECT_EQ(Desired(on, "zone-b"), 2);
  EXPECT_EQ(Desired(on, "memory"), 0);
  EXPECT_EQ(testing::EventLines(on.world.log, "ScaleUpBalanced").size(), 2u);
  on.world.queue.RunUntil(300000);
  EXPECT_EQ(testing::BoundPods(on.world.cluster), 8u);
}

TEST(ClusterAutoscalerBalance, AFullGroupLeavesTheRestToTheOthers) {
  CaWorld ca({Group("zone-a", "c6i.2xlarge", "us-east-1a", 1),
              Group("zone-b", "c6i.2xlarge", "us-east-1b")},
             true);
  ca.autoscaler.Start();
  ASSERT_TRUE(ca.world.cluster.Apply(MakeDeployment("web", 8, "3", "1Gi"), false).ok());
  ca.world.queue.RunUntil(40000);
  EXPECT_EQ(Desired(ca, "zone-a"), 1);
  EXPECT_EQ(Desired(ca, "zone-b"), 3);
}

TEST(ClusterAutoscalerBalance, TheScenarioOptionDefaultsToOff) {
  constexpr char kYaml[] = "name: x\ndurationSeconds: 1\nzones: [a]\n";
  absl::StatusOr<Scenario> plain = ParseScenario(kYaml, "s.yaml");
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_FALSE(plain->cluster_autoscaler.balance_similar_node_groups);
  absl::StatusOr<Scenario> on = ParseScenario(
      std::string(kYaml) + "clusterAutoscaler: {balanceSimilarNodeGroups: true}\n", "s.yaml");
  ASSERT_TRUE(on.ok()) << on.status();
  EXPECT_TRUE(on->cluster_autoscaler.balance_similar_node_groups);
  absl::StatusOr<Scenario> bad = ParseScenario(
      std::string(kYaml) + "clusterAutoscaler: {balanceSimilarNodeGroups: sometimes}\n", "s.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(
                "s.yaml: clusterAutoscaler.balanceSimilarNodeGroups: must be true or false"),
            std::string::npos)
      << bad.status();
}

}  // namespace
}  // namespace karpenter::sim
