// Behaviours 1-9 of the scheduling suite (features §10): requirement compatibility, restricted
// labels, numeric comparisons, preferences, separate claims, oversized requests, bin-packing,
// existing-node reuse and taints.
#include "src/provisioning/scheduler.h"

#include <algorithm>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/scheduler_test_util.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

bool AllTypesHave(const NewNodeClaim& claim, const std::string& key, const std::string& value) {
  return std::all_of(claim.instance_type_options.begin(), claim.instance_type_options.end(),
                     [&](const InstanceTypeView* type) {
                       const scheduling::Requirement* requirement = type->requirements.Find(key);
                       return requirement != nullptr && requirement->Has(value);
                     });
}

TEST(Scheduler, NodeSelectorNarrowsClaimToMatchingTypes) {
  SchedulerInput input = DefaultInput();
  api::Pod pod = MakePod("arm");
  pod.spec.node_selector = {{"kubernetes.io/arch", "arm64"}};
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_THAT(result.new_node_claims[0].instance_types, ElementsAre("g.large", "g.xlarge"));
  EXPECT_THAT(result.unschedulable, IsEmpty());
}

TEST(Scheduler, SelectorIncompatibleWithNodePoolRequirementIsUnschedulable) {
  SchedulerInput input = DefaultInput();
  AddRequirement(input.node_pools[0].node_pool, "kubernetes.io/arch", "In", {"amd64"});
  api::Pod pod = MakePod("arm");
  pod.spec.node_selector = {{"kubernetes.io/arch", "arm64"}};
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.new_node_claims, IsEmpty());
  EXPECT_THAT(result.unschedulable.at("default/arm"),
              HasSubstr("incompatible with nodepool \"default\", daemonset overhead={}, "
                        "incompatible requirements, key kubernetes.io/arch"));
}

TEST(Scheduler, UndefinedCustomLabelWithInFails) {
  SchedulerInput input = DefaultInput();
  api::Pod pod = MakePod("team");
  pod.spec.node_selector = {{"team", "a"}};
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.new_node_claims, IsEmpty());
  EXPECT_THAT(result.unschedulable.at("default/team"),
              HasSubstr("label \"team\" does not have known values"));
}

TEST(Scheduler, CustomLabelDefinedByTemplateLabelsSchedules) {
  SchedulerInput input = DefaultInput();
  input.node_pools[0].node_pool.spec.template_.metadata.labels = {{"team", "a"}};
  api::Pod pod = MakePod("team");
  pod.spec.node_selector = {{"team", "a"}};
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_TRUE(result.new_node_claims[0].requirements.Get("team").Has("a"));
  EXPECT_THAT(
      result.new_node_claims[0].labels,
      ElementsAre(std::pair<const std::string, std::string>("karpenter.sh/nodepool", "default"),
                  std::pair<const std::string, std::string>("team", "a")));
}

TEST(Scheduler, UndefinedCustomLabelWithNotInOrDoesNotExistSchedules) {
  SchedulerInput input = DefaultInput();
  api::Pod not_in = MakePod("not-in");
  AddRequiredAffinity(not_in, {Term("team", "NotIn", {"a"})});
  api::Pod absent = MakePod("absent");
  AddRequiredAffinity(absent, {Term("team", "DoesNotExist", {})});
  input.pending_pods = {not_in, absent};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_THAT(ClaimedPods(result), SizeIs(2));
}

TEST(Scheduler, CustomRequirementWithConcreteValueBecomesLabel) {
  SchedulerInput input = DefaultInput();
  AddRequirement(input.node_pools[0].node_pool, "team", "In", {"a", "b"});
  api::Pod pod = MakePod("team-b");
  pod.spec.node_selector = {{"team", "b"}, {"kubernetes.io/arch", "arm64"}};
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  // Well-known keys (arch, instance type, capacity type) are left to the provider.
  EXPECT_THAT(
      result.new_node_claims[0].labels,
      ElementsAre(std::pair<const std::string, std::string>("karpenter.sh/nodepool", "default"),
                  std::pair<const std::string, std::string>("team", "b")));
}

TEST(Scheduler, RestrictedLabelInSelectorIsUnschedulable) {
  SchedulerInput input = DefaultInput();
  api::Pod hostname = MakePod("hostname");
  hostname.spec.node_selector = {{"kubernetes.io/hostname", "node-1"}};
  api::Pod karpenter = MakePod("karpenter");
  AddRequiredAffinity(karpenter, {Term("karpenter.sh/custom", "Exists", {})});
  input.pending_pods = {hostname, karpenter};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.new_node_claims, IsEmpty());
  EXPECT_THAT(result.unschedulable.at("default/hostname"), HasSubstr("restricted"));
  EXPECT_THAT(result.unschedulable.at("default/karpenter"), HasSubstr("restricted"));
}

TEST(Scheduler, KubernetesIoSubdomainLabelIsAllowed) {
  SchedulerInput input = DefaultInput();
  input.node_pools[0].node_pool.spec.template_.metadata.labels = {
      {"node-role.kubernetes.io/worker", "true"}};
  api::Pod pod = MakePod("worker");
  pod.spec.node_selector = {{"node-role.kubernetes.io/worker", "true"}};
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_THAT(result.new_node_claims, SizeIs(1));
}

TEST(Scheduler, GtAndLtOnInstanceLabelsSelectMatchingTypes) {
  SchedulerInput input = DefaultInput();
  api::Pod pod = MakePod("mid");
  api::NodeSelectorTerm term = Term(kInstanceCpu, "Gt", {"2"});
  term.match_expressions.push_back({kInstanceCpu, "Lt", {"16"}});
  AddRequiredAffinity(pod, {term});
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_THAT(result.new_node_claims[0].instance_types,
              ElementsAre("g.xlarge", "c.xlarge", "m.xlarge", "m.2xlarge"));
}

TEST(Scheduler, PodsWithDifferentArchAndZoneLandOnDifferentClaims) {
  SchedulerInput input = DefaultInput();
  api::Pod amd = MakePod("amd");
  amd.spec.node_selector = {{"kubernetes.io/arch", "amd64"}};
  api::Pod arm = MakePod("arm");
  arm.spec.node_selector = {{"kubernetes.io/arch", "arm64"}};
  api::Pod zone_a = MakePod("zone-a");
  zone_a.spec.node_selector = {{"topology.kubernetes.io/zone", kZoneA}};
  api::Pod zone_b = MakePod("zone-b");
  zone_b.spec.node_selector = {{"topology.kubernetes.io/zone", kZoneB}};
  input.pending_pods = {amd, arm, zone_a, zone_b};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  ASSERT_THAT(result.new_node_claims, SizeIs(2));
  // Pods of equal size go in uid order: amd, arm, zone-a, zone-b. zone-a joins the amd claim
  // (first of the equally empty ones); zone-b then prefers the emptier arm claim.
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/amd", "default/zone-a"));
  EXPECT_THAT(result.new_node_claims[0].zones, ElementsAre(kZoneA));
  EXPECT_TRUE(AllTypesHave(result.new_node_claims[0], "kubernetes.io/arch", "amd64"));
  EXPECT_THAT(result.new_node_claims[1].pods, ElementsAre("default/arm", "default/zone-b"));
  EXPECT_TRUE(AllTypesHave(result.new_node_claims[1], "kubernetes.io/arch", "arm64"));
  EXPECT_THAT(result.new_node_claims[1].zones, ElementsAre(kZoneB));
}

}  // namespace
}  // namespace karpenter::provisioning

namespace karpenter::provisioning {
namespace {

using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

TEST(Scheduler, MovingPodsSkipNodesUnderConsolidateAfterButPendingPodsDoNot) {
  SchedulerInput input = DefaultInput();
  input.existing_nodes.push_back(MakeNode("recent", "4", "16Gi"));
  input.existing_nodes.back().under_consolidate_after = true;
  input.pending_pods = {MakePod("moved"), MakePod("pending")};
  input.moving_pods = {"default/moved"};
  SchedulerResult result = Solve(input);
  EXPECT_EQ(result.existing_node_pods["recent"], std::vector<std::string>{"default/pending"});
  EXPECT_EQ(ClaimedPods(result), std::vector<std::string>{"default/moved"});
}

TEST(Scheduler, RemovedNodesTakeNoPodsAndFreeTheirPoolLimits) {
  SchedulerInput input = DefaultInput();
  input.node_pools[0].node_pool.spec.limits = Resources({{"cpu", "4"}});
  ExistingNodeView gone = MakeNode("a-gone", "4", "16Gi");
  gone.labels["karpenter.sh/nodepool"] = "default";
  input.existing_nodes = {gone, MakeNode("b-full", "0", "0")};
  input.pending_pods = {MakePod("web", "1")};
  // Present, the node takes the pod and its 4 cpu use up the pool's limit.
  SchedulerResult present = Solve(input);
  EXPECT_EQ(present.existing_node_pods["a-gone"], std::vector<std::string>{"default/web"});
  input.pending_pods.push_back(MakePod("big", "8"));
  EXPECT_THAT(Solve(input).unschedulable.at("default/big"), ::testing::HasSubstr("limits"));
  // Removed, it is as if it were not there: the pod needs a claim, and the limit allows one.
  input.pending_pods.pop_back();
  input.removed_nodes = {"a-gone"};
  SchedulerResult removed = Solve(input);
  EXPECT_FALSE(removed.existing_node_pods.contains("a-gone"));
  EXPECT_EQ(ClaimedPods(removed), std::vector<std::string>{"default/web"});
}

}  // namespace
}  // namespace karpenter::provisioning
