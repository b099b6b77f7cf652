#include "src/sim/spot_interruptions.h"

#include <gtest/gtest.h>

#include "src/interruption/message.h"
#include "src/sim/auto_scaling_groups.h"
#include "src/sim/karpenter_host.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::BoundPods;
using testing::MakeDeployment;
using testing::World;

// Every covered spot instance is interrupted at the first tick (rate 10^4 per hour).
CapacityFault Storm(double from, double to) {
  CapacityFault fault;
  fault.kind = FaultKind::kSpotInterruptions;
  fault.capacity_type = "spot";
  fault.from_seconds = from;
  fault.to_seconds = to;
  fault.rate_per_hour = 10000;
  return fault;
}

size_t CountEvents(const EventLog& log, const std::string& event) {
  return testing::EventLines(log, event).size();
}

InstanceRequest Request(const std::string& capacity_type) {
  InstanceRequest request;
  request.instance_type = "m6i.xlarge";
  request.zone = "us-east-1a";
  request.capacity_type = capacity_type;
  request.price = 0.1;
  return request;
}

TEST(SpotInterruptions, WarnsTwoMinutesBeforeReclaimingSpotInstancesOnly) {
  World world;
  const std::string spot = world.cluster.LaunchInstance(Request("spot"), true);
  const std::string on_demand = world.cluster.LaunchInstance(Request("on-demand"), true);
  SpotInterruptions interruptions(world.cluster, {Storm(0, 120)}, 1);
  std::vector<std::string> bodies;
  interruptions.set_on_event([&](std::string body) { bodies.push_back(std::move(body)); });
  interruptions.Start();
  world.queue.RunUntil(60000);  // the first tick
  auto kind_of = [](const std::string& body) { return interruption::ParseMessage(body)->kind; };
  ASSERT_EQ(bodies.size(), 2u);
  EXPECT_EQ(kind_of(bodies[0]), interruption::Kind::kRebalanceRecommendation);
  absl::StatusOr<interruption::Message> message = interruption::ParseMessage(bodies[1]);
  ASSERT_TRUE(message.ok()) << message.status();
  EXPECT_EQ(message->kind, interruption::Kind::kSpotInterrupted);
  EXPECT_EQ(message->instance_ids, std::vector<std::string>{spot});
  world.queue.RunUntil(60000 + kSpotInterruptionWarningMillis - 1);
  EXPECT_NE(world.cluster.instances().at(spot).phase, NodePhase::kTerminated);
  world.queue.RunUntil(60000 + kSpotInterruptionWarningMillis);
  EXPECT_EQ(world.cluster.instances().at(spot).phase, NodePhase::kTerminated);
  ASSERT_EQ(bodies.size(), 3u);  // the state change of the reclaimed instance
  EXPECT_EQ(kind_of(bodies[2]), interruption::Kind::kInstanceTerminated);
  EXPECT_NE(world.cluster.instances().at(on_demand).phase, NodePhase::kTerminated);
  EXPECT_EQ(interruptions.interrupted(), 1u);  // warned once, never again
}

TEST(SpotInterruptions, NoFaultDrawsNothingAndTheSameSeedInterruptsTheSameInstances) {
  auto run = [](double rate) {
    World world;
    for (int i = 0; i < 20; ++i) world.cluster.LaunchInstance(Request("spot"), true);
    CapacityFault fault = Storm(0, 600);
    fault.rate_per_hour = rate;
    SpotInterruptions interruptions(world.cluster, {fault}, 42);
    interruptions.Start();
    world.queue.RunUntil(600000);
    std::vector<std::string> reclaimed;
    for (const auto& [id, instance] : world.cluster.instances()) {
      if (instance.phase == NodePhase::kTerminated) reclaimed.push_back(id);
    }
    return reclaimed;
  };
  const std::vector<std::string> first = run(2);
  EXPECT_EQ(first, run(2));
  EXPECT_GT(first.size(), 0u);
  EXPECT_LT(first.size(), 20u);  // 2 per hour over 10 minutes: about 1 − e^(−1/3) ≈ 28 %
}

TEST(SpotInterruptions, AnAutoScalingGroupReplacesAReclaimedInstance) {
  NodeGroup group;
  group.name = "spot";
  group.instance_type = "m6i.xlarge";
  group.capacity_type = "spot";
  group.zones = {"us-east-1a"};
  group.min_size = 0;
  group.max_size = 5;
  group.initial_size = 2;
  World world;
  AutoScalingGroups groups(world.cluster, {group});
  groups.LaunchInitial();
  SpotInterruptions interruptions(world.cluster, {Storm(0, 60)}, 3);
  interruptions.set_on_reclaimed([&](const std::string& id) { groups.InstanceLost(id); });
  interruptions.Start();
  world.queue.RunUntil(60000 + kSpotInterruptionWarningMillis);
  EXPECT_EQ(world.cluster.LiveInstanceCount(), 0u);
  world.queue.RunUntil(60000 + kSpotInterruptionWarningMillis + 20000);  // asgLaunchDelay 10 s
  EXPECT_EQ(world.cluster.LiveInstanceCount(), 2u);
  EXPECT_EQ(groups.Find("spot")->desired, 2);
}

// Karpenter reads the warning from its queue, marks the offering unavailable, drains the node
// and provisions elsewhere before EC2 takes the instance: the pods are running again within
// about a minute, and the interrupted offering is not chosen again.
TEST(SpotInterruptions, KarpenterDrainsAndReplacesBeforeTheInstanceIsReclaimed) {
  World world;
  ASSERT_TRUE(world.cluster.Apply(testing::MakeNodeClass(), true).ok());
  ASSERT_TRUE(
      world.cluster.Apply(testing::MakeNodePool({"c6i.xlarge", "m6i.xlarge"}, {"spot"}), true)
          .ok());
  KarpenterHost host(world.cluster);
  host.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 2, "1", "1Gi"), false).ok());
  world.queue.RunUntil(100000);
  ASSERT_EQ(world.cluster.LiveInstanceCount(), 1u);
  const Instance& first = world.cluster.instances().begin()->second;
  const std::string first_id = first.id;
  const std::string first_offering = first.request.instance_type + "/" + first.request.zone;
  SpotInterruptions interruptions(world.cluster, {Storm(100, 160)}, 5);
  interruptions.set_on_event([&](std::string body) { host.EnqueueInterruptionMessage(body); });
  interruptions.Start();
  world.queue.RunUntil(160000 + 5000);  // warning at 160 s, delivered within 3 s
  // The rebalance recommendation is only recorded; the warning starts the drain.
  EXPECT_EQ(CountEvents(world.log, "InterruptionReceived"), 2u);
  EXPECT_EQ(CountEvents(world.log, "DrainStarted"), 1u);
  world.queue.RunUntil(160000 + kSpotInterruptionWarningMillis);
  // Drained and terminated by Karpenter before the reclaim; replacement up, pods bound.
  EXPECT_EQ(CountEvents(world.log, "SpotInstanceReclaimed"), 0u);
  EXPECT_EQ(world.cluster.instances().at(first_id).phase, NodePhase::kTerminated);
  EXPECT_EQ(BoundPods(world.cluster), 2u);
  for (const auto& [id, instance] : world.cluster.instances()) {
    if (instance.phase == NodePhase::kTerminated) continue;
    EXPECT_NE(instance.request.instance_type + "/" + instance.request.zone, first_offering);
  }
}

}  // namespace
}  // namespace karpenter::sim
