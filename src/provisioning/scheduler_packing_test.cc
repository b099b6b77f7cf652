// Behaviours 6-11 of the scheduling suite (features §10): oversized requests, init containers
// and sidecars, cheapest type, bin-packing, max pods, existing nodes, taints and daemonsets.
#include <algorithm>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/scheduler_test_util.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

TEST(Scheduler, RequestsLargerThanEveryTypeAreUnschedulableWithReason) {
  SchedulerInput input = DefaultInput();
  input.pending_pods = {MakePod("huge", "200", "1Gi")};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.new_node_claims, IsEmpty());
  EXPECT_EQ(result.unschedulable.at("default/huge"),
            "incompatible with nodepool \"default\", daemonset overhead={}, no instance type "
            "satisfied resources {\"cpu\":\"200\",\"memory\":\"1Gi\",\"pods\":\"1\"} and "
            "requirements karpenter.sh/nodepool In [default] (no instance type has enough "
            "resources)");
}

TEST(Scheduler, MillionCpuRequestMentionsTypo) {
  SchedulerInput input = DefaultInput();
  input.pending_pods = {MakePod("typo", "1M", "1Gi")};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable.at("default/typo"), HasSubstr("m vs M typo?"));
}

TEST(Scheduler, InitContainerMaxAndSidecarsCountTowardsRequests) {
  SchedulerInput input = DefaultInput();
  api::Pod pod = MakePod("init", "1", "1Gi");
  api::Container init;
  init.name = "init";
  init.resources.requests = Resources({{"cpu", "6"}});
  pod.spec.init_containers.push_back(init);
  api::Pod sidecar = MakePod("sidecar", "2", "1Gi");
  api::Container side;
  side.name = "side";
  side.restart_policy = "Always";
  side.resources.requests = Resources({{"cpu", "3"}});
  sidecar.spec.init_containers.push_back(side);
  sidecar.spec.node_selector = {{"kubernetes.io/arch", "arm64"}};
  input.pending_pods = {pod, sidecar};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  // The init container alone needs 6 cpu; the sidecar's 3 + 2 cpu fit no arm64 type.
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/init"));
  EXPECT_EQ(result.new_node_claims[0].requests.at("cpu"), Q("6"));
  EXPECT_THAT(result.new_node_claims[0].instance_types,
              ElementsAre("m.2xlarge", "m.4xlarge", "p.metal"));
  EXPECT_THAT(result.unschedulable.at("default/sidecar"),
              HasSubstr("resources {\"cpu\":\"5\",\"memory\":\"1Gi\",\"pods\":\"1\"}"));
}

TEST(Scheduler, SmallPodGetsCheapestTypeFirst) {
  SchedulerInput input = DefaultInput();
  input.pending_pods = {MakePod("small")};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  const NewNodeClaim& claim = result.new_node_claims[0];
  ASSERT_THAT(claim.instance_types, SizeIs(10));
  EXPECT_EQ(claim.instance_types.front(), "t.small");
  EXPECT_EQ(claim.instance_types.back(), "p.metal");
  EXPECT_THAT(claim.capacity_types, ElementsAre("on-demand", "spot"));
  EXPECT_THAT(claim.zones, ElementsAre(kZoneA, kZoneB, kZoneC));
  absl::StatusOr<LaunchPrediction> launch = PredictLaunch(claim);
  ASSERT_TRUE(launch.ok()) << launch.status();
  EXPECT_EQ(launch->instance_type, "t.small");
  EXPECT_EQ(launch->capacity_type, "spot");
  EXPECT_EQ(launch->zone, kZoneA);
}

TEST(Scheduler, PodsArePackedOntoOneClaim) {
  SchedulerInput input = DefaultInput();
  input.pending_pods = {MakePod("a", "1", "1Gi"), MakePod("b", "1", "1Gi"),
                        MakePod("c", "1", "1Gi")};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  const NewNodeClaim& claim = result.new_node_claims[0];
  EXPECT_THAT(claim.pods, ElementsAre("default/a", "default/b", "default/c"));
  EXPECT_EQ(claim.instance_types.front(), "g.xlarge");
  EXPECT_EQ(claim.requests.at("cpu"), Q("3"));
  EXPECT_EQ(claim.requests.at("pods"), Q("3"));
}

TEST(Scheduler, NewClaimOpensWhenFull) {
  SchedulerInput input = DefaultInput();
  AddRequirement(input.node_pools[0].node_pool, "node.kubernetes.io/instance-type", "In",
                 {"m.large"});
  input.pending_pods = {MakePod("a", "1500m", "1Gi"), MakePod("b", "1500m", "1Gi")};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(2));
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/a"));
  EXPECT_THAT(result.new_node_claims[1].pods, ElementsAre("default/b"));
}

TEST(Scheduler, MaxPodsForcesSecondClaim) {
  SchedulerInput input = DefaultInput();
  AddRequirement(input.node_pools[0].node_pool, "node.kubernetes.io/instance-type", "In",
                 {"t.small"});
  for (const char* name : {"p1", "p2", "p3", "p4", "p5"}) {
    input.pending_pods.push_back(MakePod(name, "10m", "10Mi"));
  }
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(2));
  EXPECT_THAT(result.new_node_claims[0].pods, SizeIs(4));
  EXPECT_THAT(result.new_node_claims[1].pods, ElementsAre("default/p5"));
}

TEST(Scheduler, ExistingNodeIsUsedBeforeLaunching) {
  SchedulerInput input = DefaultInput();
  input.existing_nodes = {MakeNode("node-1", "4", "16Gi")};
  input.pending_pods = {MakePod("a", "1", "1Gi"), MakePod("b", "1", "1Gi"),
                        MakePod("c", "3", "1Gi")};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.existing_node_pods.at("node-1"), ElementsAre("default/c", "default/a"));
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/b"));
}

TEST(Scheduler, ExistingNodeRequestedResourcesAreHonoured) {
  SchedulerInput input = DefaultInput();
  ExistingNodeView node = MakeNode("node-1", "4", "16Gi");
  node.requested = Resources({{"cpu", "3500m"}});
  input.existing_nodes = {node};
  input.pending_pods = {MakePod("a", "1", "1Gi")};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.existing_node_pods, IsEmpty());
  EXPECT_THAT(result.new_node_claims, SizeIs(1));
}

TEST(Scheduler, InitializedNodesArePreferredOverUninitialized) {
  SchedulerInput input = DefaultInput();
  ExistingNodeView fresh = MakeNode("a-fresh", "4", "16Gi");
  fresh.initialized = false;
  fresh.managed = true;
  input.existing_nodes = {fresh, MakeNode("b-ready", "4", "16Gi")};
  input.pending_pods = {MakePod("a", "1", "1Gi")};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.existing_node_pods.at("b-ready"), ElementsAre("default/a"));
}

TEST(Scheduler, UninitializedManagedNodeIgnoresEphemeralAndStartupTaints) {
  SchedulerInput input = DefaultInput();
  input.node_pools[0].node_pool.spec.template_.spec.startup_taints = {
      {"example.com/agent", "", "NoSchedule"}};
  ExistingNodeView node = MakeNode("fresh", "4", "16Gi");
  node.labels["karpenter.sh/nodepool"] = "default";
  node.initialized = false;
  node.managed = true;
  node.taints = {{"node.kubernetes.io/not-ready", "", "NoSchedule"},
                 {"karpenter.sh/unregistered", "", "NoExecute"},
                 {"example.com/agent", "", "NoSchedule"}};
  input.existing_nodes = {node};
  input.pending_pods = {MakePod("a", "1", "1Gi")};
  EXPECT_THAT(Solve(input).existing_node_pods.at("fresh"), ElementsAre("default/a"));

  input.existing_nodes[0].initialized = true;  // Now the taints are real.
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.existing_node_pods, IsEmpty());
  EXPECT_THAT(result.new_node_claims, SizeIs(1));
}

TEST(Scheduler, NodePoolTaintsMustBeTolerated) {
  SchedulerInput input = DefaultInput();
  input.node_pools[0].node_pool.spec.template_.spec.taints = {{"dedicated", "gpu", "NoSchedule"}};
  input.node_pools[0].node_pool.spec.template_.spec.startup_taints = {
      {"example.com/boot", "", "NoSchedule"}};
  api::Pod tolerant = MakePod("tolerant");
  tolerant.spec.tolerations = {{"dedicated", "Equal", "gpu", "NoSchedule", std::nullopt}};
  input.pending_pods = {MakePod("plain"), tolerant};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/tolerant"));
  EXPECT_EQ(result.unschedulable.at("default/plain"),
            "incompatible with nodepool \"default\", daemonset overhead={}, did not tolerate "
            "dedicated=gpu:NoSchedule");
}

TEST(Scheduler, ExistingNodeTaintsAreRespected) {
  SchedulerInput input = DefaultInput();
  ExistingNodeView node = MakeNode("tainted", "4", "16Gi");
  node.taints = {{"dedicated", "db", "NoSchedule"}};
  input.existing_nodes = {node};
  input.pending_pods = {MakePod("a")};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.existing_node_pods, IsEmpty());
  EXPECT_THAT(result.new_node_claims, SizeIs(1));
}

api::Pod Daemon(const char* name, const char* cpu) {
  api::Pod daemon = MakePod(name, cpu, "128Mi");
  daemon.metadata.namespace_ = "kube-system";
  return daemon;
}

TEST(Scheduler, DaemonSetOverheadIsCountedOnNewClaims) {
  SchedulerInput input = DefaultInput();
  input.daemonset_pods = {Daemon("agent", "1")};
  input.pending_pods = {MakePod("a", "1500m", "1Gi")};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  const NewNodeClaim& claim = result.new_node_claims[0];
  // 2.5 cpu no longer fits the 2-cpu types.
  EXPECT_EQ(claim.instance_types.front(), "g.xlarge");
  EXPECT_EQ(claim.requests.at("cpu"), Q("2500m"));
  EXPECT_EQ(claim.requests.at("pods"), Q("2"));
}

TEST(Scheduler, DaemonSetNotToleratingNodePoolTaintAddsNoOverhead) {
  SchedulerInput input = DefaultInput();
  input.node_pools[0].node_pool.spec.template_.spec.taints = {{"dedicated", "x", "NoSchedule"}};
  input.daemonset_pods = {Daemon("agent", "1")};
  api::Pod pod = MakePod("a", "1500m", "1Gi");
  pod.spec.tolerations = {{"dedicated", "Exists", "", "", std::nullopt}};
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_EQ(result.new_node_claims[0].requests.at("cpu"), Q("1500m"));
}

TEST(Scheduler, DaemonSetSelectingOtherArchOnlyChargesThoseTypes) {
  SchedulerInput input = DefaultInput();
  api::Pod daemon = Daemon("arm-agent", "1");
  daemon.spec.node_selector = {{"kubernetes.io/arch", "arm64"}};
  input.daemonset_pods = {daemon};
  input.pending_pods = {MakePod("a", "1500m", "1Gi")};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  // amd64 2-cpu types still fit; g.large (arm64, 2 cpu) does not with the agent.
  const auto& types = result.new_node_claims[0].instance_types;
  EXPECT_EQ(types.front(), "c.large");
  EXPECT_EQ(std::count(types.begin(), types.end(), "g.large"), 0);
  EXPECT_EQ(result.new_node_claims[0].requests.at("cpu"), Q("1500m"));
}

TEST(Scheduler, DaemonSetOverheadOnExistingNodeExcludesBoundDaemons) {
  SchedulerInput input = DefaultInput();
  input.daemonset_pods = {Daemon("agent", "1")};
  ExistingNodeView node = MakeNode("node-1", "2", "16Gi");
  input.existing_nodes = {node};
  input.pending_pods = {MakePod("a", "1500m", "1Gi")};
  // The agent has not arrived yet: its cpu is reserved, so the pod does not fit.
  EXPECT_THAT(Solve(input).existing_node_pods, IsEmpty());
  // Bound already (and part of `requested`): the same pod does not fit either.
  input.existing_nodes[0].requested = Resources({{"cpu", "1"}});
  input.existing_nodes[0].daemon_requested = Resources({{"cpu", "1"}});
  EXPECT_THAT(Solve(input).existing_node_pods, IsEmpty());
  // A smaller pod fits next to the bound agent.
  input.pending_pods = {MakePod("b", "1", "1Gi")};
  EXPECT_THAT(Solve(input).existing_node_pods.at("node-1"), ElementsAre("default/b"));
}

TEST(Scheduler, HostPortConflictsSplitClaims) {
  SchedulerInput input = DefaultInput();
  api::Pod a = MakePod("a");
  AddHostPort(a, 8080);
  api::Pod b = MakePod("b");
  AddHostPort(b, 8080);
  api::Pod c = MakePod("c");
  AddHostPort(c, 9090);
  input.pending_pods = {a, b, c};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(2));
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/a", "default/c"));
  EXPECT_THAT(result.new_node_claims[1].pods, ElementsAre("default/b"));
}

}  // namespace
}  // namespace karpenter::provisioning
