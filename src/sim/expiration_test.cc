// Expiration in the twin (karpenter-features.md §8): a NodeClaim whose expireAfter elapses
// during a run is deleted forcefully — no budgets, no consolidateAfter — drained, terminated
// and its pods land on a new node.
#include <gtest/gtest.h>

#include "src/api/karpenter_labels.h"
#include "src/sim/disruption_controller.h"
#include "src/sim/karpenter_host.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::BoundPods;
using testing::EventLines;
using testing::MakeDeployment;
using testing::World;

double TimeOf(const std::string& line) { return std::stod(line.substr(line.find("\"t\":") + 4)); }

// A pool whose nodes expire after `expire_after`; consolidation off (consolidateAfter Never) and
// a zero budget, so only expiration can move them.
api::NodePool ExpiringPool(std::optional<api::NillableDuration> expire_after) {
  api::NodePool pool = testing::MakeNodePool({"c6i.xlarge"}, {"on-demand"});
  pool.spec.template_.spec.expire_after = std::move(expire_after);
  api::Disruption disruption;
  disruption.consolidation_policy = "WhenEmptyOrUnderutilized";
  disruption.consolidate_after = api::NillableDuration::Never();
  disruption.budgets = std::vector<api::Budget>{{.nodes = "0"}};
  pool.spec.disruption = disruption;
  return pool;
}

void Start(World& world, const api::NodePool& pool, KarpenterHost& host) {
  ASSERT_TRUE(world.cluster.Apply(testing::MakeNodeClass(), true).ok());
  ASSERT_TRUE(world.cluster.Apply(pool, true).ok());
  host.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 3, "1", "1Gi"), false).ok());
}

std::vector<const Instance*> Live(const Cluster& cluster) {
  std::vector<const Instance*> out;
  for (const auto& [id, instance] : cluster.instances()) {
    if (instance.phase != NodePhase::kTerminated) out.push_back(&instance);
  }
  return out;
}

TEST(Expiration, AnExpiredNodeIsDrainedAndReplacedAndItsPodsReschedule) {
  World world;
  KarpenterHost host(world.cluster);
  Start(world, ExpiringPool(api::NillableDuration::Of(api::Duration::FromSeconds(600))), host);
  world.queue.RunUntil(120000);
  ASSERT_EQ(Live(world.cluster).size(), 1u);
  const std::string first = Live(world.cluster)[0]->id;
  // The NodeClaim carries its pool's expireAfter, as NodePool.ToNodeClaim copies it.
  const api::NodeClaim* claim =
      world.cluster.FindNodeClaim(Live(world.cluster)[0]->request.node_claim);
  ASSERT_NE(claim, nullptr);
  ASSERT_TRUE(claim->spec.expire_after.has_value());
  EXPECT_EQ(claim->spec.expire_after->duration, api::Duration::FromSeconds(600));

  world.queue.RunUntil(1200000);
  // Upstream's expiration controller deletes the claim at its expiry instant, not the next
  // disruption poll, and through no disruption command (no replacement launched first).
  const std::vector<std::string> created = EventLines(world.log, "NodeClaimCreated");
  const std::vector<std::string> expired = EventLines(world.log, "NodeClaimExpired");
  ASSERT_FALSE(created.empty());
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_DOUBLE_EQ(TimeOf(expired[0]), TimeOf(created[0]) + 600);
  EXPECT_TRUE(EventLines(world.log, "DisruptionCommandComputed").empty());
  const MetricLabels labels = testing::DefaultPoolDisruptedLabels("expired");
  EXPECT_EQ(host.metrics().Value("karpenter_nodeclaims_disrupted_total", labels), 1);
  EXPECT_EQ(host.metrics().Value("karpenter_pods_disruption_initiated_total", labels), 3);
  EXPECT_EQ(host.metrics().Value(
                "karpenter_voluntary_disruption_decisions_total",
                {{"decision", "replace"}, {"reason", "expired"}, {"consolidation_type", ""}}),
            0);
  EXPECT_EQ(world.cluster.instances().at(first).phase, NodePhase::kTerminated);
  EXPECT_EQ(world.cluster.counters().evictions, 3);
  const std::vector<const Instance*> live = Live(world.cluster);
  ASSERT_EQ(live.size(), 1u);
  EXPECT_NE(live[0]->id, first);
  EXPECT_EQ(BoundPods(world.cluster), 3u);
  EXPECT_TRUE(world.cluster.UnschedulablePods().empty());
}

// A PDB that allows no eviction holds the drain, but not past the pool's terminationGracePeriod
// (copied to the NodeClaim). As upstream's terminator: a pod whose own grace period would
// outlast that deadline is deleted that long before it, with the whole seconds left, whatever
// its PDB says, so it is gone by the deadline and its replacement starts earlier. Without the
// claim marked deleting, every poll would start another drain of the expired node.
TEST(Expiration, PodsThatWouldOutlastTheTerminationGracePeriodAreDeletedAheadOfIt) {
  World world;
  KarpenterHost host(world.cluster);
  api::NodePool pool = ExpiringPool(api::NillableDuration::Of(api::Duration::FromSeconds(600)));
  pool.spec.template_.spec.termination_grace_period = api::Duration::FromSeconds(120);
  api::PodDisruptionBudget pdb;
  pdb.metadata.name = "web";
  pdb.metadata.namespace_ = "default";
  pdb.spec.selector = api::LabelSelector{.match_labels = {{"app", "web"}}};
  pdb.spec.max_unavailable = api::IntOrString{.is_int = true, .int_value = 0};
  ASSERT_TRUE(world.cluster.Apply(pdb, true).ok());
  ASSERT_TRUE(world.cluster.Apply(testing::MakeNodeClass(), true).ok());
  ASSERT_TRUE(world.cluster.Apply(pool, true).ok());
  host.Start();
  api::Deployment web = MakeDeployment("web", 3, "1", "1Gi");
  web.spec.template_.spec.termination_grace_period_seconds = 30;
  ASSERT_TRUE(world.cluster.Apply(web, false).ok());
  world.queue.RunUntil(1000000);
  const std::vector<std::string> started = EventLines(world.log, "DrainStarted");
  const std::vector<std::string> deleted = EventLines(world.log, "PodForceDeleted");
  ASSERT_EQ(started.size(), 1u);
  ASSERT_EQ(deleted.size(), 3u);
  for (const std::string& line : deleted) {
    EXPECT_NEAR(TimeOf(line), TimeOf(started[0]) + 90, 0.002) << line;
  }
  EXPECT_TRUE(EventLines(world.log, "DrainForced").empty());
  EXPECT_FALSE(EventLines(world.log, "PodEvictionBlocked").empty());
  // Deleted 90.001 s in with 29 whole seconds left, they are gone, and the node with them,
  // just before the deadline.
  const std::vector<std::string> terminated = EventLines(world.log, "InstanceTerminated");
  ASSERT_EQ(terminated.size(), 1u);
  EXPECT_NEAR(TimeOf(terminated[0]), TimeOf(started[0]) + 119.001, 0.002);
  EXPECT_EQ(world.cluster.counters().evictions, 3);
  EXPECT_EQ(Live(world.cluster).size(), 1u);
  EXPECT_EQ(BoundPods(world.cluster), 3u);
}

// Budgets of zero and a do-not-disrupt pod hold back every disruption method; expiration is
// none of them.
TEST(Expiration, DoNotDisruptPodsDoNotHoldItBack) {
  World world;
  KarpenterHost host(world.cluster);
  api::Deployment web = MakeDeployment("web", 3, "1", "1Gi");
  web.spec.template_.metadata.annotations[std::string(api::kDoNotDisruptAnnotationKey)] = "true";
  ASSERT_TRUE(world.cluster.Apply(testing::MakeNodeClass(), true).ok());
  ASSERT_TRUE(
      world.cluster
          .Apply(ExpiringPool(api::NillableDuration::Of(api::Duration::FromSeconds(600))), true)
          .ok());
  host.Start();
  ASSERT_TRUE(world.cluster.Apply(web, false).ok());
  world.queue.RunUntil(900000);
  EXPECT_EQ(EventLines(world.log, "NodeClaimExpired").size(), 1u);
  EXPECT_EQ(EventLines(world.log, "DrainStarted").size(), 1u);
}

// A claim that expires before CreateFleet answers is dropped; its pods are planned again.
TEST(Expiration, AClaimStillLaunchingIsDroppedAndItsPodsPlannedAgain) {
  World world;
  world.latency.create_fleet = {30, 30};
  KarpenterHost host(world.cluster);
  Start(world, ExpiringPool(api::NillableDuration::Of(api::Duration::FromSeconds(10))), host);
  world.queue.RunUntil(120000);
  const std::vector<std::string> expired = EventLines(world.log, "NodeClaimExpired");
  ASSERT_FALSE(expired.empty());
  EXPECT_NE(expired[0].find("\"node\":\"\""), std::string::npos) << expired[0];
  EXPECT_TRUE(EventLines(world.log, "NodeClaimLaunched").empty());
  // Each new claim expires before its launch too: the pods keep being planned, none bound.
  EXPECT_GE(EventLines(world.log, "NodeClaimCreated").size(), 2u);
  EXPECT_EQ(BoundPods(world.cluster), 0u);
}

TEST(Expiration, NeverKeepsTheNode) {
  World world;
  KarpenterHost host(world.cluster);
  Start(world, ExpiringPool(api::NillableDuration::Never()), host);
  world.queue.RunUntil(1200000);
  EXPECT_TRUE(EventLines(world.log, "NodeClaimExpired").empty());
  EXPECT_EQ(world.cluster.counters().evictions, 0);
  EXPECT_EQ(Live(world.cluster).size(), 1u);
}

}  // namespace
}  // namespace karpenter::sim
