#include "src/sim/auto_scaling_groups.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "src/sim/cluster_autoscaler.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::World;

NodeGroup Group(std::vector<std::string> zones, int initial = 0) {
  NodeGroup group;
  group.name = "general";
  group.instance_type = "m6i.xlarge";
  group.zones = std::move(zones);
  group.max_size = 6;
  group.initial_size = initial;
  return group;
}

std::map<std::string, int> InstancesPerZone(const Cluster& cluster) {
  std::map<std::string, int> zones;
  for (const auto& [id, instance] : cluster.instances()) {
    if (instance.phase != NodePhase::kTerminated) ++zones[instance.request.zone];
  }
  return zones;
}

TEST(AutoScalingGroups, InitialInstancesAreReadyAndSpreadOverZones) {
  World world;
  AutoScalingGroups groups(world.cluster, {Group({"us-east-1a", "us-east-1b", "us-east-1c"}, 3)});
  groups.LaunchInitial();
  EXPECT_EQ(InstancesPerZone(world.cluster),
            (std::map<std::string, int>{{"us-east-1a", 1}, {"us-east-1b", 1}, {"us-east-1c", 1}}));
  for (const auto& [id, instance] : world.cluster.instances()) {
    EXPECT_EQ(instance.phase, NodePhase::kReady);
    EXPECT_EQ(instance.node.metadata.labels.at("eks.amazonaws.com/nodegroup"), "general");
  }
}

TEST(AutoScalingGroups, DesiredCapacityLaunchesAfterTheAsgDelay) {
  World world;
  AutoScalingGroups groups(world.cluster, {Group({"us-east-1a"})});
  ASSERT_TRUE(groups.SetDesiredCapacity("general", 2).ok());
  world.queue.RunUntil(9999);
  EXPECT_EQ(world.cluster.instances().size(), 0u);
  world.queue.RunUntil(10000);
  EXPECT_EQ(world.cluster.instances().size(), 2u);
  EXPECT_FALSE(groups.SetDesiredCapacity("missing", 1).ok());
}

TEST(AutoScalingGroups, DesiredIsClampedToTheGroupsBounds) {
  World world;
  AutoScalingGroups groups(world.cluster, {Group({"us-east-1a"})});
  ASSERT_TRUE(groups.SetDesiredCapacity("general", 50).ok());
  EXPECT_EQ(groups.Find("general")->desired, 6);
}

TEST(AutoScalingGroups, ShortageInOneZoneLaunchesInAnother) {
  World world({CapacityFault{"m6i.xlarge", "on-demand", {"us-east-1a"}, 0, 100}});
  AutoScalingGroups groups(world.cluster, {Group({"us-east-1a", "us-east-1b"})});
  ASSERT_TRUE(groups.SetDesiredCapacity("general", 2).ok());
  world.queue.RunUntil(20000);
  EXPECT_EQ(InstancesPerZone(world.cluster), (std::map<std::string, int>{{"us-east-1b", 2}}));
  EXPECT_FALSE(groups.Find("general")->last_failed_activity.has_value());
}

TEST(AutoScalingGroups, ShortageEverywhereRecordsAFailedActivity) {
  World world({CapacityFault{"m6i.xlarge", "on-demand", {}, 0, 100}});
  AutoScalingGroups groups(world.cluster, {Group({"us-east-1a", "us-east-1b"})});
  ASSERT_TRUE(groups.SetDesiredCapacity("general", 1).ok());
  world.queue.RunUntil(20000);
  EXPECT_TRUE(world.cluster.instances().empty());
  EXPECT_EQ(groups.Find("general")->last_failed_activity, 10000);
  EXPECT_EQ(groups.Find("general")->desired, 1);  // until Cluster Autoscaler notices
}

TEST(AutoScalingGroups, RetireDrainsAndEmptiesTheGroup) {
  World world;
  AutoScalingGroups groups(world.cluster, {Group({"us-east-1a"}, 2)});
  groups.LaunchInitial();
  ASSERT_TRUE(world.cluster.Apply(testing::MakeDeployment("web", 2, "500m", "256Mi"), false).ok());
  world.queue.RunUntil(2000);
  groups.Retire("general");
  EXPECT_EQ(groups.Find("general")->desired, 0);
  // Evicted pods terminate gracefully (30 s by default) before their nodes go.
  world.queue.RunUntil(60000);
  EXPECT_EQ(world.cluster.LiveInstanceCount(), 0u);
  EXPECT_TRUE(groups.Find("general")->instances.empty());
  EXPECT_EQ(world.cluster.counters().evictions, 2);
}

TEST(AutoScalingGroups, RetireHonoursPodDisruptionBudgetsAsKubectlDrain) {
  World world;
  AutoScalingGroups groups(world.cluster, {Group({"us-east-1a"}, 2)});
  groups.LaunchInitial();
  ASSERT_TRUE(world.cluster.Apply(testing::MakeDeployment("web", 2, "500m", "256Mi"), false).ok());
  api::PodDisruptionBudget pdb;
  pdb.metadata.name = "web";
  pdb.metadata.namespace_ = "default";
  pdb.spec.min_available = api::IntOrString{.is_int = true, .int_value = 2, .str_value = {}};
  pdb.spec.selector = api::LabelSelector{.match_labels = {{"app", "web"}}};
  ASSERT_TRUE(world.cluster.Apply(pdb, false).ok());
  world.queue.RunUntil(2000);
  groups.Retire("general");
  world.queue.RunUntil(3'600'000);
  // Nowhere else to run, so the budget never allows an eviction: nothing is forced.
  EXPECT_EQ(world.cluster.counters().evictions, 0);
  EXPECT_EQ(testing::BoundPods(world.cluster), 2u);
  // The nodes holding those pods stay; a node the scheduler left empty drains at once and goes.
  std::set<std::string> holding;
  for (const auto& [key, record] : world.cluster.pods()) holding.insert(record.pod.spec.node_name);
  EXPECT_EQ(world.cluster.LiveInstanceCount(), holding.size());
  for (const std::string& node : holding) {
    EXPECT_NE(world.cluster.FindInstanceByNode(node), nullptr) << node;
  }
  bool blocked = false;
  for (const std::string& line : world.log.lines()) {
    blocked = blocked || line.find("PodEvictionBlocked") != std::string::npos;
  }
  EXPECT_TRUE(blocked);
}

TEST(ClusterAutoscaler, DeletesInstancesThatNeverRegisterAndBacksOff) {
  CapacityFault stuck{"m6i.xlarge", "on-demand", {}, 0, 100};
  stuck.kind = FaultKind::kNeverRegisters;
  World world({stuck});
  AutoScalingGroups groups(world.cluster, {Group({"us-east-1a"})});
  ClusterAutoscaler autoscaler(world.cluster, groups, {});
  autoscaler.Start();
  ASSERT_TRUE(world.cluster.Apply(testing::MakeDeployment("web", 1, "1", "256Mi"), false).ok());
  world.queue.RunUntil(900000);
  EXPECT_EQ(world.cluster.LiveInstanceCount(), 1u);  // stuck, billed, counted as upcoming
  EXPECT_EQ(testing::BoundPods(world.cluster), 0u);
  world.queue.RunUntil(1400000);
  bool timed_out = false;
  for (const std::string& line : world.log.lines()) {
    timed_out =
        timed_out || line.find("\"reason\":\"max-node-provision-time\"") != std::string::npos;
  }
  EXPECT_TRUE(timed_out);
  // After the 5 min backoff the group is tried again, and the new instance registers.
  EXPECT_EQ(testing::BoundPods(world.cluster), 1u);
  EXPECT_EQ(world.cluster.LiveInstanceCount(), 1u);
}

TEST(ClusterAutoscaler, GivesUpSlotsNotLaunchedWithinMaxNodeProvisionTime) {
  LatencyModel latency = testing::FixedLatency();
  latency.asg_launch_delay = {1000, 1000};  // the ASG never gets to it in time
  World world({}, latency);
  AutoScalingGroups groups(world.cluster, {Group({"us-east-1a"})});
  ClusterAutoscaler autoscaler(world.cluster, groups, {});
  autoscaler.Start();
  ASSERT_TRUE(world.cluster.Apply(testing::MakeDeployment("web", 1, "1", "256Mi"), false).ok());
  world.queue.RunUntil(990000);
  bool timed_out = false;
  for (const std::string& line : world.log.lines()) {
    timed_out =
        timed_out || line.find("\"reason\":\"max-node-provision-time\"") != std::string::npos;
  }
  EXPECT_TRUE(timed_out);
  EXPECT_EQ(groups.Find("general")->desired, 0);
}

}  // namespace
}  // namespace karpenter::sim
