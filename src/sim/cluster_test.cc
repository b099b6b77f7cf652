#include "src/sim/cluster.h"

#include <gtest/gtest.h>

#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::BoundPods;
using testing::MakeDeployment;
using testing::World;

InstanceRequest OnDemand(const std::string& type, const std::string& zone = "us-east-1a") {
  InstanceRequest request;
  request.instance_type = type;
  request.zone = zone;
  request.capacity_type = "on-demand";
  request.price = 0.36;
  request.node_group = "group";
  return request;
}

TEST(Cluster, NodeRegistersThenTurnsReadyAfterTheBootLatencies) {
  World world;
  const std::string id = world.cluster.LaunchInstance(OnDemand("m6i.xlarge"));
  world.queue.RunUntil(34999);
  EXPECT_EQ(world.cluster.instances().at(id).phase, NodePhase::kBooting);
  world.queue.RunUntil(35000);
  EXPECT_EQ(world.cluster.instances().at(id).phase, NodePhase::kRegistered);
  world.queue.RunUntil(49999);
  EXPECT_EQ(world.cluster.instances().at(id).phase, NodePhase::kRegistered);
  world.queue.RunUntil(50000);
  const Instance& instance = world.cluster.instances().at(id);
  EXPECT_EQ(instance.phase, NodePhase::kReady);
  EXPECT_EQ(instance.node.metadata.labels.at("node.kubernetes.io/instance-type"), "m6i.xlarge");
  EXPECT_EQ(instance.node.metadata.labels.at("topology.kubernetes.io/zone"), "us-east-1a");
  EXPECT_EQ(world.cluster.counters().node_ready_seconds, (std::vector<double>{50}));
}

TEST(Cluster, PodsBindOnlyOnceANodeIsReady) {
  World world;
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 2, "500m", "512Mi"), false).ok());
  world.cluster.LaunchInstance(OnDemand("m6i.xlarge"));
  world.queue.RunUntil(49000);
  EXPECT_EQ(BoundPods(world.cluster), 0u);
  EXPECT_EQ(world.cluster.UnschedulablePods().size(), 2u);
  world.queue.RunUntil(51001);
  EXPECT_EQ(BoundPods(world.cluster), 2u);
  // Created at 0, bound one kube-scheduler latency after Ready at 50 s.
  EXPECT_EQ(world.cluster.counters().pod_pending_seconds, (std::vector<double>{51, 51}));
}

TEST(Cluster, PodsBoundAtOnceAreNotAutoscalerWork) {
  World world;
  world.cluster.LaunchInstance(OnDemand("m6i.xlarge"), /*initial=*/true);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 2, "500m", "512Mi"), false).ok());
  world.queue.RunUntil(5000);
  EXPECT_EQ(BoundPods(world.cluster), 2u);
  EXPECT_TRUE(world.cluster.counters().pod_pending_seconds.empty());
}

TEST(Cluster, PodsThatDoNotFitStayPending) {
  World world;
  world.cluster.LaunchInstance(OnDemand("m6i.large"), /*initial=*/true);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("big", 1, "4", "1Gi"), false).ok());
  world.queue.RunUntil(5000);
  EXPECT_EQ(BoundPods(world.cluster), 0u);
  EXPECT_EQ(world.cluster.UnschedulablePods().size(), 1u);
}

TEST(Cluster, UnschedulablePodsAreRetriedOnlyWhenRoomMayHaveAppeared) {
  World world;
  world.cluster.LaunchInstance(OnDemand("m6i.large"), /*initial=*/true);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("big", 1, "3", "1Gi"), false).ok());
  world.queue.RunUntil(5000);
  ASSERT_EQ(world.cluster.UnschedulablePods().size(), 1u);
  const uint64_t passes = world.cluster.scheduling_passes();
  // Booting and registering nodes take no pods yet: nothing the pending pod waits for has
  // changed, so a pass asked for meanwhile does not retry it.
  world.cluster.LaunchInstance(OnDemand("m6i.xlarge"));
  world.cluster.RequestSchedulingPass();
  world.queue.RunUntil(20000);
  EXPECT_EQ(world.cluster.scheduling_passes(), passes);
  world.queue.RunUntil(40000);
  world.cluster.RequestSchedulingPass();
  world.queue.RunUntil(49000);
  EXPECT_EQ(world.cluster.scheduling_passes(), passes);
  // The node turning Ready (50 s after its launch at 5 s) is such a change: the pod is
  // retried and binds.
  world.queue.RunUntil(57000);
  EXPECT_EQ(world.cluster.scheduling_passes(), passes + 1);
  EXPECT_EQ(BoundPods(world.cluster), 1u);
  // A new pod is tried at once, with no other change.
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("huge", 1, "64", "1Gi"), false).ok());
  world.queue.RunUntil(65000);
  EXPECT_EQ(world.cluster.scheduling_passes(), passes + 2);
  ASSERT_EQ(world.cluster.UnschedulablePods().size(), 1u);
  // Without any change it waits out kube-scheduler's five minutes before the next retry.
  world.cluster.RequestSchedulingPass();
  world.queue.RunUntil(120000);
  EXPECT_EQ(world.cluster.scheduling_passes(), passes + 2);
  world.queue.RunUntil(400000);
  world.cluster.RequestSchedulingPass();
  world.queue.RunUntil(410000);
  EXPECT_EQ(world.cluster.scheduling_passes(), passes + 3);
}

TEST(Cluster, DaemonSetPodsLandOnRegisteredNodes) {
  World world;
  api::DaemonSet daemon_set;
  daemon_set.metadata.name = "agent";
  daemon_set.metadata.namespace_ = "kube-system";
  daemon_set.spec.template_ = MakeDeployment("agent", 1, "100m", "64Mi").spec.template_;
  ASSERT_TRUE(world.cluster.Apply(daemon_set, true).ok());
  const std::string id = world.cluster.LaunchInstance(OnDemand("m6i.large"));
  world.queue.RunUntil(35000);
  const std::string node = world.cluster.instances().at(id).node.metadata.name;
  size_t on_node = 0;
  for (const auto& [key, record] : world.cluster.pods())
    on_node += record.pod.spec.node_name == node;
  EXPECT_EQ(on_node, 1u);
  EXPECT_TRUE(world.cluster.WorkloadPodsOn(node).empty());
}

TEST(Cluster, DrainEvictsAndTheControllerRecreatesElsewhere) {
  World world;
  const std::string a = world.cluster.LaunchInstance(OnDemand("m6i.xlarge"), true);
  world.cluster.LaunchInstance(OnDemand("m6i.xlarge", "us-east-1b"), true);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 2, "500m", "512Mi"), false).ok());
  world.queue.RunUntil(2000);
  const std::string node_a = world.cluster.instances().at(a).node.metadata.name;
  const size_t on_a = world.cluster.WorkloadPodsOn(node_a).size();
  ASSERT_GT(on_a, 0u);
  world.cluster.Cordon(a);
  EXPECT_EQ(world.cluster.Drain(a), static_cast<int>(on_a));
  EXPECT_EQ(world.cluster.counters().evictions, static_cast<int64_t>(on_a));
  world.queue.RunUntil(5000);
  EXPECT_EQ(world.cluster.pods().size(), 2u);
  EXPECT_EQ(BoundPods(world.cluster), 2u);
  EXPECT_TRUE(world.cluster.WorkloadPodsOn(node_a).empty());
}

TEST(Cluster, CostAccruesPerSecondWhileInstancesRun) {
  World world;
  InstanceRequest request = OnDemand("m6i.xlarge");
  request.price = 3.6;
  const std::string id = world.cluster.LaunchInstance(request, true);
  world.queue.RunUntil(1000000);
  world.cluster.TerminateInstance(id);
  world.queue.RunUntil(2000000);
  world.cluster.SettleCost();
  EXPECT_DOUBLE_EQ(world.cluster.counters().cost_dollar_seconds, 3.6 * 1000);
  EXPECT_EQ(world.cluster.price_per_hour(), 0);
  EXPECT_EQ(world.cluster.LiveInstanceCount(), 0u);
  EXPECT_EQ(world.cluster.counters().max_instances, 1u);
}

TEST(Cluster, ScaleInRemovesPendingPodsFirst) {
  World world;
  world.cluster.LaunchInstance(OnDemand("m6i.large"), true);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 3, "800m", "256Mi"), false).ok());
  world.queue.RunUntil(2000);
  ASSERT_EQ(BoundPods(world.cluster), 2u);
  ASSERT_TRUE(world.cluster.ScaleDeployment("default/web", 2).ok());
  EXPECT_EQ(world.cluster.pods().size(), 2u);
  EXPECT_EQ(BoundPods(world.cluster), 2u);
  EXPECT_FALSE(world.cluster.ScaleDeployment("default/none", 1).ok());
}

TEST(Cluster, CountsTheUnboundPodsAsPodsComeBindAndGo) {
  World world;
  const std::string a = world.cluster.LaunchInstance(OnDemand("m6i.large"), true);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 3, "800m", "256Mi"), false).ok());
  EXPECT_EQ(world.cluster.unbound_pod_count(), 3u);
  world.queue.RunUntil(2000);
  ASSERT_EQ(BoundPods(world.cluster), 2u);
  EXPECT_EQ(world.cluster.unbound_pod_count(), 1u);
  world.cluster.Cordon(a);
  ASSERT_EQ(world.cluster.Drain(a), 2);
  world.queue.RunUntil(60000);  // the evicted pods come back pending: the only node is cordoned
  EXPECT_EQ(BoundPods(world.cluster), 0u);
  EXPECT_EQ(world.cluster.unbound_pod_count(), 3u);
  ASSERT_TRUE(world.cluster.ScaleDeployment("default/web", 1).ok());
  EXPECT_EQ(world.cluster.unbound_pod_count(), 1u);
  ASSERT_TRUE(world.cluster.DeleteDeployment("default/web").ok());
  EXPECT_EQ(world.cluster.unbound_pod_count(), 0u);
}

api::Job MakeJob(const std::string& name, int32_t parallelism, int32_t completions,
                 const std::string& run_seconds) {
  api::Job job;
  job.metadata.name = name;
  job.metadata.namespace_ = "ci";
  job.metadata.annotations[kJobRunSecondsAnnotation] = run_seconds;
  job.spec.parallelism = parallelism;
  job.spec.completions = completions;
  job.spec.template_.metadata.labels = {{"job", name}};
  api::Container container;
  container.name = "build";
  container.image = "builder";
  container.resources.requests["cpu"] = *api::Quantity::Parse("1");
  job.spec.template_.spec.containers.push_back(std::move(container));
  return job;
}

size_t EventCount(const EventLog& log, const std::string& event) {
  return testing::EventLines(log, event).size();
}

TEST(Cluster, JobPodsRunTheirTimeInWavesOfParallelismUntilTheCompletions) {
  testing::World world;
  world.cluster.LaunchInstance(OnDemand("m6i.2xlarge"), true);
  ASSERT_TRUE(world.cluster.Apply(MakeJob("build", 2, 5, "100"), false).ok());
  world.queue.RunUntil(50000);
  EXPECT_EQ(testing::BoundPods(world.cluster), 2u);  // parallelism 2
  world.queue.RunUntil(102000);                      // bound at 1 s, done at 101 s
  EXPECT_EQ(EventCount(world.log, "PodSucceeded"), 2u);
  EXPECT_EQ(testing::BoundPods(world.cluster), 2u);  // the next two took their place
  world.queue.RunUntil(400000);
  EXPECT_EQ(EventCount(world.log, "PodSucceeded"), 5u);
  EXPECT_EQ(EventCount(world.log, "JobCompleted"), 1u);
  EXPECT_EQ(world.cluster.pods().size(), 0u);
}

TEST(Cluster, AnEvictedJobPodIsReplacedAndRunsItsFullTimeAgain) {
  testing::World world;
  world.cluster.LaunchInstance(OnDemand("m6i.2xlarge"), true);
  ASSERT_TRUE(world.cluster.Apply(MakeJob("build", 1, 1, "100"), false).ok());
  world.queue.RunUntil(50000);
  ASSERT_EQ(world.cluster.pods().size(), 1u);
  const std::string first = world.cluster.pods().begin()->first;
  EXPECT_EQ(world.cluster.Evict(first), Cluster::Eviction::kEvicted);
  world.queue.RunUntil(120000);  // the first pod would have finished at 101 s
  EXPECT_EQ(EventCount(world.log, "PodSucceeded"), 0u);
  world.queue.RunUntil(160000);  // its replacement, bound at ~52 s, finishes at ~152 s
  EXPECT_EQ(EventCount(world.log, "PodSucceeded"), 1u);
  EXPECT_EQ(EventCount(world.log, "JobCompleted"), 1u);
}

}  // namespace
}  // namespace karpenter::sim
