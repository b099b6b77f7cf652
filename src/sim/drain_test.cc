#include "src/sim/drain.h"

#include <gtest/gtest.h>

#include "src/sim/cluster_autoscaler.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::BoundPods;
using testing::MakeDeployment;
using testing::World;

InstanceRequest OnDemand(const std::string& zone) {
  InstanceRequest request;
  request.instance_type = "m6i.xlarge";
  request.zone = zone;
  request.capacity_type = "on-demand";
  request.price = 0.19;
  return request;
}

api::PodDisruptionBudget MinAvailable(const std::string& app, int32_t min_available) {
  api::PodDisruptionBudget pdb;
  pdb.metadata.name = app;
  pdb.metadata.namespace_ = "default";
  api::LabelSelector selector;
  selector.match_labels = {{"app", app}};
  pdb.spec.selector = selector;
  api::IntOrString value;
  value.is_int = true;
  value.int_value = min_available;
  pdb.spec.min_available = value;
  return pdb;
}

// Three web pods on node A (the only node at first), then node B joins; draining A with
// minAvailable 2 must evict one pod at a time, each after the previous replacement is healthy.
struct DrainWorld {
  World world;
  std::string a;
  std::string node_a;
  explicit DrainWorld(int32_t min_available) {
    a = world.cluster.LaunchInstance(OnDemand("us-east-1a"), true);
    node_a = world.cluster.instances().at(a).node.metadata.name;
    EXPECT_TRUE(world.cluster.Apply(MakeDeployment("web", 3, "500m", "512Mi"), false).ok());
    EXPECT_TRUE(world.cluster.Apply(MinAvailable("web", min_available), false).ok());
    world.queue.RunUntil(2000);
    world.cluster.LaunchInstance(OnDemand("us-east-1b"), true);
    world.cluster.Cordon(a);
  }
};

std::vector<double> EvictionTimes(const EventLog& log) {
  std::vector<double> out;
  for (const std::string& line : log.lines()) {
    if (line.find("\"event\":\"PodEvicted\"") == std::string::npos) continue;
    out.push_back(std::stod(line.substr(line.find("\"t\":") + 4)));
  }
  return out;
}

TEST(Cluster, PdbStatusCountsHealthyPodsAgainstMinAvailableAndMaxUnavailable) {
  DrainWorld w(2);
  api::PodDisruptionBudget pdb = MinAvailable("web", 2);
  api::PodDisruptionBudgetStatus status = w.world.cluster.PdbStatus(pdb);
  EXPECT_EQ(status.expected_pods, 3);
  EXPECT_EQ(status.current_healthy, 3);
  EXPECT_EQ(status.desired_healthy, 2);
  EXPECT_EQ(status.disruptions_allowed, 1);
  pdb.spec.min_available.reset();
  api::IntOrString percent;
  percent.str_value = "50%";
  pdb.spec.max_unavailable = percent;  // ceil(1.5) = 2 may be unavailable
  status = w.world.cluster.PdbStatus(pdb);
  EXPECT_EQ(status.desired_healthy, 1);
  EXPECT_EQ(status.disruptions_allowed, 2);
}

TEST(Drain, EvictionsWaitForThePdbAndTheNodeEmptiesOnePodAtATime) {
  DrainWorld w(2);
  bool finished = false;
  StartDrain(w.world.cluster, w.node_a, DrainOptions{}, [&](bool drained) { finished = drained; });
  // Only one disruption is allowed until the first replacement binds on B (recreate 1 s, bind 1 s).
  EXPECT_EQ(w.world.cluster.counters().evictions, 1);
  w.world.queue.RunUntil(60000);
  EXPECT_TRUE(finished);
  EXPECT_EQ(w.world.cluster.counters().evictions, 3);
  EXPECT_TRUE(w.world.cluster.WorkloadPodsOn(w.node_a).empty());
  EXPECT_EQ(BoundPods(w.world.cluster), 3u);  // the replacements run on B
  const std::vector<double> times = EvictionTimes(w.world.log);
  ASSERT_EQ(times.size(), 3u);
  EXPECT_GE(times[1] - times[0], 2.0);  // the replacement had to become healthy first
  EXPECT_GE(times[2] - times[1], 2.0);
}

TEST(Drain, TerminationGracePeriodForcesWhatThePdbHolds) {
  DrainWorld w(3);  // minAvailable 3 of 3: no eviction is ever allowed
  bool finished = false;
  DrainOptions options;
  options.force_after = 30000;
  StartDrain(w.world.cluster, w.node_a, options, [&](bool drained) { finished = drained; });
  w.world.queue.RunUntil(20000);
  EXPECT_FALSE(finished);
  EXPECT_EQ(w.world.cluster.WorkloadPodsOn(w.node_a).size(), 3u);
  w.world.queue.RunUntil(40000);
  EXPECT_TRUE(finished);
  EXPECT_TRUE(w.world.cluster.WorkloadPodsOn(w.node_a).empty());
}

TEST(Drain, ClusterAutoscalerGivesUpAfterTheMaximumEvictionTime) {
  DrainWorld w(3);
  bool called = false;
  bool drained = true;
  const DrainOptions options{.retry_base = kEvictionRetryMillis,
                             .retry_max = kEvictionRetryMillis,
                             .give_up_after = kMaxPodEvictionMillis};
  StartDrain(w.world.cluster, w.node_a, options, [&](bool result) {
    called = true;
    drained = result;
  });
  w.world.queue.RunUntil(2000 + kMaxPodEvictionMillis - 1000);
  EXPECT_FALSE(called);
  w.world.queue.RunUntil(2000 + kMaxPodEvictionMillis + 1000);
  EXPECT_TRUE(called);
  EXPECT_FALSE(drained);
  EXPECT_EQ(w.world.cluster.counters().evictions, 0);
  EXPECT_EQ(w.world.cluster.WorkloadPodsOn(w.node_a).size(), 3u);
}

TEST(Drain, CriticalPodsGoInTheirOwnTierAfterTheOthers) {
  World world;
  const std::string a = world.cluster.LaunchInstance(OnDemand("us-east-1a"), true);
  const std::string node_a = world.cluster.instances().at(a).node.metadata.name;
  api::Deployment critical = MakeDeployment("dns", 1, "100m", "128Mi");
  critical.spec.template_.spec.priority_class_name = "system-cluster-critical";
  ASSERT_TRUE(world.cluster.Apply(critical, false).ok());
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 3, "100m", "128Mi"), false).ok());
  ASSERT_TRUE(world.cluster.Apply(MinAvailable("web", 2), false).ok());
  world.queue.RunUntil(2000);
  world.cluster.LaunchInstance(OnDemand("us-east-1b"), true);
  world.cluster.Cordon(a);
  StartDrain(world.cluster, node_a, DrainOptions{.priority_tiers = true}, [](bool) {});
  // web goes one pod at a time (minAvailable 2 of 3): dns waits until every web pod is gone.
  std::vector<std::string> evicted;
  world.queue.RunUntil(60000);
  for (const std::string& line : world.log.lines()) {
    if (line.find("\"event\":\"PodEvicted\"") == std::string::npos) continue;
    evicted.push_back(line.find("default/dns") != std::string::npos ? "dns" : "web");
  }
  EXPECT_EQ(evicted, (std::vector<std::string>{"web", "web", "web", "dns"}));
}

}  // namespace
}  // namespace karpenter::sim
