// Behaviours 4 and 17 of the scheduling suite (features §10) plus minValues and the slice's
// scope: preference relaxation, NodePool limits and weights, explicit NodePool selectors,
// minValues Strict/BestEffort.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/scheduler_test_util.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

TEST(Scheduler, PreferredAffinityIsRespectedWhenPossible) {
  SchedulerInput input = DefaultInput();
  api::Pod pod = MakePod("prefers-b");
  AddPreferredAffinity(pod, 10, Term("topology.kubernetes.io/zone", "In", {kZoneB}));
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_THAT(result.new_node_claims[0].zones, ElementsAre(kZoneB));
}

TEST(Scheduler, UnsatisfiablePreferenceIsRelaxedToFallback) {
  SchedulerInput input = DefaultInput();
  AddRequirement(input.node_pools[0].node_pool, "kubernetes.io/arch", "In", {"amd64"});
  api::Pod pod = MakePod("prefers-arm");
  AddPreferredAffinity(pod, 50, Term("kubernetes.io/arch", "In", {"arm64"}));
  AddPreferredAffinity(pod, 10, Term("topology.kubernetes.io/zone", "In", {kZoneC}));
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  // The heavier (arm64) preference is dropped first; the lighter zone preference then holds.
  EXPECT_THAT(result.new_node_claims[0].zones, ElementsAre(kZoneC));
  EXPECT_EQ(result.new_node_claims[0].instance_types.front(), "t.small");
}

TEST(Scheduler, IgnorePolicyDropsPreferencesUpFront) {
  SchedulerInput input = DefaultInput();
  input.options.preference_policy = PreferencePolicy::kIgnore;
  api::Pod pod = MakePod("prefers-b");
  AddPreferredAffinity(pod, 10, Term("topology.kubernetes.io/zone", "In", {kZoneB}));
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_THAT(result.new_node_claims[0].zones, ElementsAre(kZoneA, kZoneB, kZoneC));
}

TEST(Scheduler, RequiredOrTermsAreTriedInTurnButLastIsKept) {
  SchedulerInput input = DefaultInput();
  api::Pod or_terms = MakePod("or-terms");
  AddRequiredAffinity(or_terms, {Term("topology.kubernetes.io/zone", "In", {"nowhere"}),
                                 Term("topology.kubernetes.io/zone", "In", {kZoneC})});
  api::Pod last = MakePod("last");
  AddRequiredAffinity(last, {Term("topology.kubernetes.io/zone", "In", {"nowhere"})});
  input.pending_pods = {last, or_terms};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/or-terms"));
  EXPECT_THAT(result.new_node_claims[0].zones, ElementsAre(kZoneC));
  EXPECT_THAT(result.unschedulable.at("default/last"),
              HasSubstr("no instance type met the scheduling requirements or had a required "
                        "offering"));
}

TEST(Scheduler, PreferNoScheduleTaintIsToleratedAfterRelaxation) {
  SchedulerInput input = DefaultInput();
  input.node_pools[0].node_pool.spec.template_.spec.taints = {{"spare", "", "PreferNoSchedule"}};
  input.pending_pods = {MakePod("a")};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_THAT(result.new_node_claims, SizeIs(1));
}

TEST(Scheduler, LimitsRemoveTypesLargerThanRemaining) {
  SchedulerInput input = DefaultInput();
  input.node_pools[0].node_pool.spec.limits = Resources({{"cpu", "4"}});
  input.pending_pods = {MakePod("a", "1", "1Gi")};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  for (const InstanceTypeView* type : result.new_node_claims[0].instance_type_options) {
    EXPECT_LE(type->allocatable.at("cpu"), Q("4")) << type->name;
  }
  EXPECT_THAT(result.new_node_claims[0].instance_types, SizeIs(7));
}

TEST(Scheduler, LimitsPartiallyAllowLaunches) {
  SchedulerInput input = DefaultInput();
  input.node_pools[0].node_pool.spec.limits = Resources({{"cpu", "6"}});
  input.pending_pods = {MakePod("a", "3", "1Gi"), MakePod("b", "3", "1Gi")};
  const SchedulerResult result = Solve(input);
  // The first claim could become a 4-cpu type, leaving 2 cpu: too little for the second pod.
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/a"));
  EXPECT_THAT(result.unschedulable.at("default/b"),
              HasSubstr("incompatible with nodepool \"default\""));
}

TEST(Scheduler, ExhaustedLimitsBlockTheNodePool) {
  SchedulerInput input = DefaultInput();
  input.node_pools[0].node_pool.spec.limits = Resources({{"cpu", "4"}});
  ExistingNodeView node = MakeNode("full", "4", "16Gi", "0");  // Holds no more pods.
  node.labels["karpenter.sh/nodepool"] = "default";
  input.existing_nodes = {node};
  input.pending_pods = {MakePod("a", "100m", "1Gi")};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.new_node_claims, IsEmpty());
  EXPECT_EQ(result.unschedulable.at("default/a"),
            "all available instance types exceed limits for nodepool: \"default\"");
}

TEST(Scheduler, NodesLimitCountsExistingNodes) {
  SchedulerInput input = DefaultInput();
  input.node_pools[0].node_pool.spec.limits = Resources({{"nodes", "1"}});
  ExistingNodeView node = MakeNode("full", "4", "16Gi", "0");
  node.labels["karpenter.sh/nodepool"] = "default";
  input.existing_nodes = {node};
  input.pending_pods = {MakePod("a")};
  EXPECT_THAT(Solve(input).unschedulable.at("default/a"), HasSubstr("exceed limits"));
  input.node_pools[0].node_pool.spec.limits = Resources({{"nodes", "2"}});
  EXPECT_THAT(Solve(input).new_node_claims, SizeIs(1));
}

TEST(Scheduler, HeavierNodePoolIsTriedFirst) {
  SchedulerInput input;
  input.node_pools.push_back({MakeNodePool("light", 10), Catalog()});
  input.node_pools.push_back({MakeNodePool("heavy", 50), Catalog()});
  input.node_pools.push_back({MakeNodePool("unweighted"), Catalog()});
  input.pending_pods = {MakePod("a")};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_EQ(result.new_node_claims[0].node_pool, "heavy");
}

TEST(Scheduler, EqualWeightsPreferTheNameLaterInTheAlphabet) {
  SchedulerInput input;
  input.node_pools.push_back({MakeNodePool("alpha", 10), Catalog()});
  input.node_pools.push_back({MakeNodePool("zulu", 10), Catalog()});
  input.node_pools.push_back({MakeNodePool("mike", 10), Catalog()});
  input.pending_pods = {MakePod("a")};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_EQ(result.new_node_claims[0].node_pool, "zulu");
}

TEST(Scheduler, DeletingAndStaticNodePoolsAreSkipped) {
  SchedulerInput input;
  api::NodePool deleting = MakeNodePool("deleting", 50);
  deleting.metadata.deletion_timestamp = api::Time::FromUnixSeconds(10);
  api::NodePool fixed = MakeNodePool("static", 40);
  fixed.spec.replicas = 3;
  input.node_pools.push_back({deleting, Catalog()});
  input.node_pools.push_back({fixed, Catalog()});
  input.node_pools.push_back({MakeNodePool("dynamic", 1), Catalog()});
  input.pending_pods = {MakePod("a")};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_EQ(result.new_node_claims[0].node_pool, "dynamic");
}

TEST(Scheduler, ErrorsListEveryNodePoolInPriorityOrder) {
  SchedulerInput input;
  api::NodePool arm = MakeNodePool("arm", 20);
  AddRequirement(arm, "kubernetes.io/arch", "In", {"arm64"});
  api::NodePool small = MakeNodePool("small", 10);
  AddRequirement(small, "node.kubernetes.io/instance-type", "In", {"t.small"});
  input.node_pools.push_back({small, Catalog()});
  input.node_pools.push_back({arm, Catalog()});
  api::Pod pod = MakePod("amd", "2", "1Gi");
  pod.spec.node_selector = {{"kubernetes.io/arch", "amd64"}};
  input.pending_pods = {pod};
  const std::string reason = Solve(input).unschedulable.at("default/amd");
  EXPECT_THAT(reason, ::testing::StartsWith("incompatible with nodepool \"arm\", daemonset "
                                            "overhead={}, incompatible requirements, key "
                                            "kubernetes.io/arch"));
  EXPECT_THAT(reason, HasSubstr("; incompatible with nodepool \"small\""));
}

TEST(Scheduler, FallsBackToLighterNodePoolWhenHeavierCannotFit) {
  SchedulerInput input;
  api::NodePool heavy = MakeNodePool("heavy", 50);
  AddRequirement(heavy, "kubernetes.io/arch", "In", {"arm64"});
  input.node_pools.push_back({heavy, Catalog()});
  input.node_pools.push_back({MakeNodePool("light", 10), Catalog()});
  input.pending_pods = {MakePod("big", "8", "1Gi")};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_EQ(result.new_node_claims[0].node_pool, "light");
}

TEST(Scheduler, ExplicitNodePoolSelectorIsHonoured) {
  SchedulerInput input;
  input.node_pools.push_back({MakeNodePool("light", 10), Catalog()});
  input.node_pools.push_back({MakeNodePool("heavy", 50), Catalog()});
  api::Pod pod = MakePod("a");
  pod.spec.node_selector = {{"karpenter.sh/nodepool", "light"}};
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_EQ(result.new_node_claims[0].node_pool, "light");
}

SchedulerInput MinValuesInput() {
  SchedulerInput input = DefaultInput();
  AddRequirement(input.node_pools[0].node_pool, kInstanceFamily, "Exists", {}, 3);
  api::Pod pod = MakePod("big");
  AddRequiredAffinity(pod, {Term(kInstanceCpu, "Gt", {"15"})});  // m.4xlarge and p.metal
  input.pending_pods = {pod};
  return input;
}

TEST(Scheduler, MinValuesStrictRejectsTooFewFamilies) {
  const SchedulerInput input = MinValuesInput();
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.new_node_claims, IsEmpty());
  EXPECT_THAT(result.unschedulable.at("default/big"),
              HasSubstr("min requirement not met for karpenter.k8s.aws/instance-family"));
}

TEST(Scheduler, MinValuesBestEffortRelaxesAndMarksClaim) {
  SchedulerInput input = MinValuesInput();
  input.options.min_values_policy = MinValuesPolicy::kBestEffort;
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_TRUE(result.new_node_claims[0].min_values_relaxed);
  EXPECT_EQ(result.new_node_claims[0].requirements.Get(kInstanceFamily).min_values(), 2);
}

// Upstream offers a pod to the NodeClaims it already opened with relaxation off: under
// BestEffort only a claim's first pod may lower minValues. Together the two pods would leave the
// m and p families only (m.2xlarge and up, p.metal); alone each keeps c, m, g and p.
TEST(Scheduler, MinValuesBestEffortDoesNotRelaxAClaimThatHoldsPods) {
  SchedulerInput input = DefaultInput();
  AddRequirement(input.node_pools[0].node_pool, kInstanceFamily, "Exists", {}, 3);
  input.pending_pods = {MakePod("a", "3", "1Gi", 1), MakePod("b", "3", "1Gi", 2)};
  input.options.min_values_policy = MinValuesPolicy::kBestEffort;
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(2));
  for (const NewNodeClaim& claim : result.new_node_claims) {
    EXPECT_THAT(claim.pods, SizeIs(1));
    EXPECT_FALSE(claim.min_values_relaxed);
  }
}

TEST(Scheduler, MinValuesMetKeepsClaimUnrelaxed) {
  SchedulerInput input = DefaultInput();
  AddRequirement(input.node_pools[0].node_pool, kInstanceFamily, "Exists", {}, 3);
  input.pending_pods = {MakePod("small")};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_FALSE(result.new_node_claims[0].min_values_relaxed);
}

}  // namespace
}  // namespace karpenter::provisioning
