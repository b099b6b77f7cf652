// PlanFromInput, EncodePlanJson and RenderPlanText: the launch prediction per claim, pods on
// existing nodes, unschedulable pods with reasons (ignored ones and not-ready pools included),
// the summary, the exact JSON shape of docs/contracts.md, and the injected solve clock.
#include "src/provisioning/plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "src/provisioning/scheduler_test_util.h"

namespace karpenter::provisioning {
namespace {

using testing::AddRequirement;
using ::testing::HasSubstr;
using testing::MakeNode;
using testing::MakeNodePool;
using testing::MakePod;
using ::testing::Not;

// A pool limited to t.small in zone A: one exact, predictable claim.
SnapshotSchedulerInput SmallInput() {
  SnapshotSchedulerInput input;
  api::NodePool pool = MakeNodePool("default");
  AddRequirement(pool, "node.kubernetes.io/instance-type", "In", {"t.small"});
  AddRequirement(pool, "topology.kubernetes.io/zone", "In", {testing::kZoneA});
  input.input.node_pools.push_back({pool, testing::Catalog()});
  input.input.pending_pods.push_back(MakePod("a", "200m", "256Mi"));
  input.input.pending_pods.push_back(MakePod("huge", "64", "1Gi"));
  input.ignored_pods.push_back({"default/ignored", "it has a restricted label"});
  return input;
}

TEST(PlanFromInput, EncodesTheDesignShapeExactly) {
  SnapshotSchedulerInput input = SmallInput();
  input.input.pending_pods.pop_back();  // keep only pods whose reasons are short
  input.ignored_pods.push_back({"default/quoted", "label \"x\" is restricted"});
  const PlanResult plan = PlanFromInput(input);
  EXPECT_EQ(EncodePlanJson(plan),
            R"({"nodeClaims":[{"nodePool":"default","instanceTypes":["t.small"],)"
            R"("capacityTypes":["on-demand","spot"],"zones":["test-zone-a"],)"
            R"("launch":{"instanceType":"t.small","zone":"test-zone-a","capacityType":"spot",)"
            R"("pricePerHour":0.003},"pods":["default/a"],)"
            R"("requests":{"cpu":"200m","memory":"256Mi","pods":"1"},)"
            R"("labels":{"karpenter.sh/nodepool":"default"},"instanceTypeCount":1,)"
            R"("allocatable":{"cpu":"1","memory":"2Gi","pods":"4"}}],"existingNodes":[],)"
            R"("unschedulable":[{"pod":"default/ignored","reason":"it has a restricted label"},)"
            R"({"pod":"default/quoted","reason":"label \"x\" is restricted"}],)"
            R"("summary":{"pendingPods":3,"scheduledPods":1,"newNodeClaims":1,)"
            R"("pricePerHour":0.003,"solveMillis":0},"warnings":[]})");
}

TEST(PlanFromInput, WarningsAndAssumptionsFollowTheSummary) {
  SnapshotSchedulerInput input = SmallInput();
  input.warnings = {"nodepool \"x\" is not ready"};
  PlanResult plan = PlanFromInput(input);
  plan.assumptions = PlanAssumptions{.region = "eu-west-1",
                                     .region_source = "--region",
                                     .zones = {"eu-west-1a"},
                                     .zones_source = "EC2NodeClass status.subnets",
                                     .on_demand_prices = "table",
                                     .spot_prices = "model",
                                     .policies = {{"packing", "upstream"}}};
  EXPECT_THAT(EncodePlanJson(plan),
              HasSubstr(R"("solveMillis":0},"warnings":["nodepool \"x\" is not ready"],)"
                        R"("assumptions":{"region":"eu-west-1","regionSource":"--region",)"
                        R"("regionAssumed":false,"zones":["eu-west-1a"],)"
                        R"("zonesSource":"EC2NodeClass status.subnets","onDemandPrices":"table",)"
                        R"("spotPrices":"model","policies":{"packing":"upstream"}}})"));
  const std::string text = RenderPlanText(plan);
  // Warnings go to stderr, once, from the host; the text names the assumptions.
  EXPECT_THAT(text, Not(HasSubstr("not ready")));
  EXPECT_THAT(text, HasSubstr("assumed region: eu-west-1 (--region)\n"));
  EXPECT_THAT(text, HasSubstr("assumed zones: eu-west-1a (EC2NodeClass status.subnets)\n"));
  EXPECT_THAT(text, HasSubstr("prices: on-demand from the table; spot model\n"));
  EXPECT_THAT(text, HasSubstr("policies: packing=upstream\n"));
}

TEST(WriteNodeClaimJson, AReservedLaunchAddsItsReservationLabels) {
  PlannedNodeClaim planned;
  planned.claim.node_pool = "default";
  planned.claim.labels = {{"karpenter.sh/nodepool", "default"}};
  planned.launch = {.instance_type = "m.large",
                    .zone = testing::kZoneA,
                    .capacity_type = "reserved",
                    .price = 0,
                    .reservation_id = "cr-1",
                    .reservation_type = "capacity-block",
                    .reservation_interruptible = false};
  api::JsonWriter json;
  WriteNodeClaimJson(json, planned);
  EXPECT_THAT(json.str(),
              HasSubstr(R"("labels":{"karpenter.k8s.aws/capacity-reservation-id":"cr-1",)"
                        R"("karpenter.k8s.aws/capacity-reservation-interruptible":"false",)"
                        R"("karpenter.k8s.aws/capacity-reservation-type":"capacity-block",)"
                        R"("karpenter.sh/nodepool":"default"})"));
}

TEST(PlanFromInput, SolveMillisComesFromTheInjectedClock) {
  int64_t now = 100;
  const PlanResult plan = PlanFromInput(SmallInput(), [&now] { return now += 7; });
  EXPECT_EQ(plan.summary.solve_millis, 7);
  EXPECT_EQ(PlanFromInput(SmallInput()).summary.solve_millis, 0);
}

TEST(PlanFromInput, PodsOnExistingNodesAreListedPerNode) {
  SnapshotSchedulerInput input = SmallInput();
  input.input.existing_nodes.push_back(MakeNode("node-b", "4", "8Gi"));
  input.input.existing_nodes.push_back(MakeNode("node-a", "1", "1Gi"));
  input.input.pending_pods = {MakePod("x", "500m", "512Mi"), MakePod("y", "2", "1Gi")};
  const PlanResult plan = PlanFromInput(input);
  ASSERT_EQ(plan.existing_nodes.size(), 2u);
  EXPECT_EQ(plan.existing_nodes[0].name, "node-a");
  EXPECT_THAT(plan.existing_nodes[0].pods, ::testing::ElementsAre("default/x"));
  EXPECT_EQ(plan.existing_nodes[1].name, "node-b");
  EXPECT_THAT(plan.existing_nodes[1].pods, ::testing::ElementsAre("default/y"));
  EXPECT_TRUE(plan.node_claims.empty());
  EXPECT_EQ(plan.summary.scheduled_pods, 2u);
  EXPECT_THAT(EncodePlanJson(plan),
              HasSubstr(R"("existingNodes":[{"name":"node-a","pods":["default/x"]},)"));
}

TEST(PlanFromInput, UnschedulablePodsHearAboutNotReadyPools) {
  SnapshotSchedulerInput input = SmallInput();
  input.not_ready_node_pools = {"nodepool \"gpu\" is not ready: EC2NodeClass \"gpu\" not found"};
  const PlanResult plan = PlanFromInput(input);
  ASSERT_EQ(plan.unschedulable[0].pod, "default/huge");
  EXPECT_THAT(plan.unschedulable[0].reason,
              HasSubstr("; nodepool \"gpu\" is not ready: EC2NodeClass \"gpu\" not found"));
  // Pods Karpenter ignores keep their own reason.
  EXPECT_EQ(plan.unschedulable[1].reason, "it has a restricted label");
}

TEST(PlanFromInput, PricesAreRoundedAndSummed) {
  SnapshotSchedulerInput input = SmallInput();
  input.input.pending_pods = {MakePod("a", "800m", "256Mi"), MakePod("b", "800m", "256Mi"),
                              MakePod("c", "800m", "256Mi")};
  const PlanResult plan = PlanFromInput(input);
  ASSERT_EQ(plan.node_claims.size(), 3u);
  EXPECT_THAT(EncodePlanJson(plan), HasSubstr(R"("pricePerHour":0.009,"solveMillis":0)"));
}

TEST(RenderPlanText, ListsClaimsUnschedulablePodsAndASummary) {
  const std::string text = RenderPlanText(PlanFromInput(SmallInput()));
  EXPECT_THAT(text, HasSubstr("default          t.small          test-zone-a  spot"));
  EXPECT_THAT(text, HasSubstr("default/huge: "));
  EXPECT_THAT(text, HasSubstr("default/ignored: it has a restricted label"));
  EXPECT_THAT(text, HasSubstr("summary: 3 pending pod(s), 1 scheduled, 2 unschedulable, 1 new "
                              "nodeclaim(s), $0.0030/hour"));
}

TEST(RenderPlanText, TruncatesLongPodLists) {
  SnapshotSchedulerInput input = SmallInput();
  input.input.pending_pods.clear();
  for (const char* name : {"p1", "p2", "p3"}) input.input.pending_pods.push_back(MakePod(name));
  const std::string text = RenderPlanText(PlanFromInput(input), 2);
  EXPECT_THAT(text, HasSubstr(", ... (1 more)"));
}

}  // namespace
}  // namespace karpenter::provisioning
