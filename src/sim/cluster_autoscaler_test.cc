#include "src/sim/cluster_autoscaler.h"

#include <gtest/gtest.h>

#include <set>

#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::BoundPods;
using testing::MakeDeployment;
using testing::World;

NodeGroup Group(const std::string& name, const std::string& type, const std::string& capacity,
                int initial, int priority = 0) {
  NodeGroup group;
  group.name = name;
  group.instance_type = type;
  group.capacity_type = capacity;
  group.zones = {"us-east-1a"};
  group.min_size = 0;
  group.max_size = 10;
  group.initial_size = initial;
  group.priority = priority;
  return group;
}

bool HasEvent(const EventLog& log, const std::string& fragment) {
  for (const std::string& line : log.lines()) {
    if (line.find(fragment) != std::string::npos) return true;
  }
  return false;
}

TEST(ClusterAutoscaler, ScalesUpOneGroupAndPodsBindWhenNodesAreReady) {
  World world;
  AutoScalingGroups groups(world.cluster, {Group("compute", "c6i.2xlarge", "on-demand", 0)});
  ClusterAutoscaler autoscaler(world.cluster, groups, {});
  autoscaler.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 4, "3", "1Gi"), false).ok());
  world.queue.RunUntil(300000);
  EXPECT_EQ(groups.Find("compute")->desired, 2);
  EXPECT_EQ(BoundPods(world.cluster), 4u);
  // Unschedulable at 1 s, then the wait for the next scan tick (the tick's phase is random,
  // so 0–10 s), 5 s compute, 10 s ASG delay, 50 s bring-up and the 1 s bind.
  for (double pending : world.cluster.counters().pod_pending_seconds) {
    EXPECT_GE(pending, 67);
    EXPECT_LE(pending, 77);
  }
}

TEST(ClusterAutoscaler, FrequentLoopsStartALoopWhenPodsTurnUnschedulable) {
  World world;
  AutoScalingGroups groups(world.cluster, {Group("compute", "c6i.2xlarge", "on-demand", 0)});
  ClusterAutoscalerOptions options;
  options.frequent_loops = true;
  ClusterAutoscaler autoscaler(world.cluster, groups, options);
  autoscaler.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 4, "3", "1Gi"), false).ok());
  world.queue.RunUntil(300000);
  EXPECT_EQ(BoundPods(world.cluster), 4u);
  // No wait for the tick: unschedulable at 1 s, loop at once, then as without frequent loops.
  for (double pending : world.cluster.counters().pod_pending_seconds) EXPECT_EQ(pending, 67);
}

TEST(ClusterAutoscaler, ScanTickPhaseVariesWithTheSeed) {
  std::set<double> pending;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    World world;
    world.random = Random(seed);
    AutoScalingGroups groups(world.cluster, {Group("compute", "c6i.2xlarge", "on-demand", 0)});
    ClusterAutoscaler autoscaler(world.cluster, groups, {});
    autoscaler.Start();
    ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 1, "3", "1Gi"), false).ok());
    world.queue.RunUntil(300000);
    ASSERT_EQ(world.cluster.counters().pod_pending_seconds.size(), 1u);
    pending.insert(world.cluster.counters().pod_pending_seconds.front());
  }
  EXPECT_GT(pending.size(), 1u);
}

TEST(ClusterAutoscaler, PodsFittingUpcomingNodesDoNotTriggerAnotherScaleUp) {
  World world;
  AutoScalingGroups groups(world.cluster, {Group("compute", "c6i.2xlarge", "on-demand", 0)});
  ClusterAutoscaler autoscaler(world.cluster, groups, {});
  autoscaler.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 2, "3", "1Gi"), false).ok());
  world.queue.RunUntil(60000);
  EXPECT_EQ(groups.Find("compute")->desired, 1);
  size_t scale_ups = 0;
  for (const std::string& line : world.log.lines()) {
    scale_ups += line.find("\"ScaleUp\"") != std::string::npos;
  }
  EXPECT_EQ(scale_ups, 1u);
}

TEST(ClusterAutoscaler, FailedActivityBacksOffTheGroupAtTheNextRefresh) {
  World world({CapacityFault{"c6i.2xlarge", "spot", {}, 0, 100000}});
  AutoScalingGroups groups(world.cluster, {Group("spot", "c6i.2xlarge", "spot", 0, 10),
                                           Group("on-demand", "c6i.2xlarge", "on-demand", 0, 1)});
  ClusterAutoscalerOptions options;
  options.expander = Expander::kPriority;
  ClusterAutoscaler autoscaler(world.cluster, groups, options);
  autoscaler.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 2, "3", "1Gi"), false).ok());
  world.queue.RunUntil(400000);
  EXPECT_TRUE(HasEvent(world.log, "\"ScalingActivityFailed\",\"nodeGroup\":\"spot\""));
  EXPECT_TRUE(HasEvent(world.log, "\"NodeGroupBackoff\",\"nodeGroup\":\"spot\""));
  EXPECT_EQ(groups.Find("spot")->desired, 0);
  EXPECT_EQ(groups.Find("on-demand")->desired, 1);
  EXPECT_EQ(BoundPods(world.cluster), 2u);
  // The fallback costs at least the 60 s refresh on top of the happy path.
  for (double pending : world.cluster.counters().pod_pending_seconds) EXPECT_GT(pending, 100);
}

TEST(ClusterAutoscaler, RemovesAnEmptyNodeOnlyAfterUnneededTimeAndDelayAfterAdd) {
  World world;
  AutoScalingGroups groups(world.cluster, {Group("compute", "c6i.2xlarge", "on-demand", 0)});
  ClusterAutoscaler autoscaler(world.cluster, groups, {});
  autoscaler.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 2, "3", "1Gi"), false).ok());
  world.queue.RunUntil(120000);
  ASSERT_EQ(world.cluster.LiveInstanceCount(), 1u);
  ASSERT_TRUE(world.cluster.DeleteDeployment("default/web").ok());
  world.queue.RunUntil(120000 + 590000);
  EXPECT_EQ(world.cluster.LiveInstanceCount(), 1u);
  world.queue.RunUntil(120000 + 620000);
  EXPECT_EQ(world.cluster.LiveInstanceCount(), 0u);
  EXPECT_EQ(groups.Find("compute")->desired, 0);
}

TEST(ClusterAutoscaler, KeepsNodesHostingSystemPods) {
  World world;
  AutoScalingGroups groups(world.cluster, {Group("compute", "c6i.2xlarge", "on-demand", 2)});
  groups.LaunchInitial();
  ClusterAutoscaler autoscaler(world.cluster, groups, {});
  autoscaler.Start();
  api::Deployment system = MakeDeployment("coredns", 1, "100m", "70Mi");
  system.metadata.namespace_ = "kube-system";
  ASSERT_TRUE(world.cluster.Apply(system, true).ok());
  world.queue.RunUntil(1500000);
  // The empty node goes; the one with the kube-system pod stays.
  EXPECT_EQ(world.cluster.LiveInstanceCount(), 1u);
  EXPECT_EQ(BoundPods(world.cluster), 1u);
}

}  // namespace
}  // namespace karpenter::sim
