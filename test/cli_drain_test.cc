// `karpenter plan --drain` as an operator runs it on examples/drain/managed-node-group.yaml:
// which nodes are cordoned, which pods kubectl would evict or leave, the PDB refusals, what
// Karpenter launches for the evicted pods and the cost delta; selector mistakes; and the exit
// codes of --fail-on-unschedulable.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test/cli_runner.h"

namespace karpenter::cli_test {
namespace {

std::vector<std::string> PlanArgs(std::vector<std::string> extra) {
  extra.insert(extra.begin(), "--deterministic");
  return ArticlePlanArgs("examples/drain/managed-node-group.yaml", extra);
}

nlohmann::ordered_json RunJson(std::vector<std::string> extra, CliRun* run_out = nullptr) {
  std::vector<std::string> args = PlanArgs(std::move(extra));
  args.insert(args.end(), {"-o", "json"});
  CliRun run = RunKarpenter(args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  if (run_out != nullptr) *run_out = run;
  return nlohmann::ordered_json::parse(run.out, nullptr, false);
}

const nlohmann::ordered_json* FindNode(const nlohmann::ordered_json& drain,
                                       const std::string& name) {
  for (const auto& node : drain["nodes"]) {
    if (node["name"] == name) return &node;
  }
  return nullptr;
}

// Every pod the plan places, new NodeClaims and existing nodes alike, by where it goes.
std::vector<std::string> PlacedPods(const nlohmann::ordered_json& plan) {
  std::vector<std::string> pods;
  for (const auto& claim : plan["nodeClaims"]) {
    for (const auto& pod : claim["pods"]) pods.push_back(pod);
  }
  for (const auto& node : plan["existingNodes"]) {
    for (const auto& pod : node["pods"]) pods.push_back(pod);
  }
  std::sort(pods.begin(), pods.end());
  return pods;
}

TEST(CliDrain, WithoutDrainTheBoundPodsStayWhereTheyAre) {
  nlohmann::ordered_json plan = RunJson({});
  ASSERT_FALSE(plan.is_discarded());
  EXPECT_FALSE(plan.contains("drain"));
  EXPECT_TRUE(PlacedPods(plan).empty()) << plan.dump();
}

TEST(CliDrain, NodeGroupIsDrainedAsKubectlWould) {
  nlohmann::ordered_json plan = RunJson({"--drain", "eks.amazonaws.com/nodegroup=ng-1"});
  ASSERT_TRUE(plan.contains("drain")) << plan.dump();
  const nlohmann::ordered_json& drain = plan["drain"];
  EXPECT_EQ(drain["selectors"],
            nlohmann::ordered_json::array({"eks.amazonaws.com/nodegroup=ng-1"}));
  ASSERT_EQ(drain["nodes"].size(), 2u) << drain.dump();
  const nlohmann::ordered_json& a = *FindNode(drain, "mng-a");
  EXPECT_EQ(a["evicted"],
            nlohmann::ordered_json::array({"default/api-5c6b7-a1", "default/web-7d9f8-a1"}));
  EXPECT_EQ(a["daemonSetPods"], nlohmann::ordered_json::array({"default/node-exporter-a"}));
  EXPECT_EQ(a["mirrorPods"], nlohmann::ordered_json::array({"default/kube-proxy-mng-a"}));
  EXPECT_EQ(a["completes"], true);
  EXPECT_EQ(a["instanceType"], "m5.xlarge");
  EXPECT_EQ(a["capacityType"], "on-demand");
  EXPECT_GT(a["pricePerHour"].get<double>(), 0.0);
  const nlohmann::ordered_json& b = *FindNode(drain, "mng-b");
  // PDB web admitted mng-a's web pod: mng-b's is refused at first but retried, so it leaves too.
  EXPECT_EQ(b["evicted"], nlohmann::ordered_json::array({"default/web-7d9f8-b1"}));
  EXPECT_EQ(b["stuck"], nlohmann::ordered_json::array({"default/db-0"}));
  EXPECT_EQ(b["completedPods"], nlohmann::ordered_json::array({"default/report-28871-x"}));
  EXPECT_EQ(b["completes"], false);
  ASSERT_EQ(drain["pdbRefusals"].size(), 2u) << drain.dump();
  // mng-b's pods in name order: db-0 first.
  EXPECT_EQ(drain["pdbRefusals"][0]["pod"], "default/db-0");
  EXPECT_EQ(drain["pdbRefusals"][0]["pdb"], "default/db");
  EXPECT_EQ(drain["pdbRefusals"][0]["retried"], false);
  EXPECT_EQ(drain["pdbRefusals"][1]["pod"], "default/web-7d9f8-b1");
  EXPECT_EQ(drain["pdbRefusals"][1]["pdb"], "default/web");
  EXPECT_EQ(drain["pdbRefusals"][1]["retried"], true);
  // Only the node that drains empty is counted as removed; every new NodeClaim as added.
  EXPECT_DOUBLE_EQ(drain["removedPricePerHour"].get<double>(), a["pricePerHour"].get<double>());
  EXPECT_DOUBLE_EQ(drain["addedPricePerHour"].get<double>(),
                   plan["summary"]["pricePerHour"].get<double>());
  EXPECT_NEAR(drain["deltaPerHour"].get<double>(),
              drain["addedPricePerHour"].get<double>() - drain["removedPricePerHour"].get<double>(),
              1e-6);
}

TEST(CliDrain, EvictedPodsFindHomesOffTheCordonedNodes) {
  nlohmann::ordered_json plan = RunJson({"--drain", "eks.amazonaws.com/nodegroup=ng-1"});
  EXPECT_EQ(PlacedPods(plan),
            (std::vector<std::string>{"default/api-5c6b7-a1", "default/web-7d9f8-a1",
                                      "default/web-7d9f8-b1"}))
      << plan.dump();
  for (const auto& node : plan["existingNodes"]) {
    EXPECT_NE(node["name"], "mng-a");
    EXPECT_NE(node["name"], "mng-b");
  }
  EXPECT_TRUE(plan["unschedulable"].empty()) << plan.dump();
}

TEST(CliDrain, UnreplicatedPodStopsKubectlOnItsNode) {
  nlohmann::ordered_json plan = RunJson({"--drain", "eks.amazonaws.com/nodegroup in (ng-2)"});
  ASSERT_EQ(plan["drain"]["nodes"].size(), 1u);
  const nlohmann::ordered_json& c = plan["drain"]["nodes"][0];
  EXPECT_EQ(c["name"], "mng-c");
  EXPECT_NE(c["error"].get<std::string>().find(
                "cannot delete Pods that declare no controller (use --force to override): "
                "default/debug-shell"),
            std::string::npos)
      << c.dump();
  EXPECT_TRUE(c["evicted"].empty());
  EXPECT_EQ(c["completes"], false);
  EXPECT_TRUE(PlacedPods(plan).empty());
  EXPECT_EQ(plan["drain"]["removedPricePerHour"], 0.0);
}

TEST(CliDrain, SelectorsUnionAndReadNotInAndAbsentKeys) {
  nlohmann::ordered_json plan =
      RunJson({"--drain", "!karpenter.sh/nodepool,eks.amazonaws.com/nodegroup notin (ng-2)",
               "--drain", "kubernetes.io/hostname=mng-c"});
  std::vector<std::string> names;
  for (const auto& node : plan["drain"]["nodes"]) names.push_back(node["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"mng-a", "mng-b", "mng-c"}));
  EXPECT_EQ(plan["drain"]["selectors"].size(), 2u);
}

TEST(CliDrain, SelectorMatchingNoNodeIsAWarningPrintedOnce) {
  CliRun run;
  nlohmann::ordered_json plan = RunJson({"--drain", "eks.amazonaws.com/nodegroup=ng-9"}, &run);
  const std::string warning = "--drain \"eks.amazonaws.com/nodegroup=ng-9\" matches no node";
  EXPECT_EQ(plan["warnings"], nlohmann::ordered_json::array({warning}));
  const size_t first = run.err.find("warning: " + warning);
  ASSERT_NE(first, std::string::npos) << run.err;
  EXPECT_EQ(run.err.find(warning, first + warning.size()), std::string::npos) << run.err;
  EXPECT_TRUE(plan["drain"]["nodes"].empty());
}

TEST(CliDrain, MalformedSelectorIsAnErrorNamingTheFlag) {
  CliRun run = RunKarpenter(PlanArgs({"--drain", "eks.amazonaws.com/nodegroup in ng-1"}));
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_EQ(run.err.rfind("--drain \"eks.amazonaws.com/nodegroup in ng-1\": ", 0), 0u) << run.err;
}

TEST(CliDrain, TextSaysWhatKubectlDoesAndWhatItCosts) {
  CliRun run = RunKarpenter(PlanArgs({"--drain", "eks.amazonaws.com/nodegroup=ng-1"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("node mng-a (on-demand m5.xlarge in us-east-1a, $0.1920/h): cordoned, "
                         "evicts 2 pods: default/api-5c6b7-a1, default/web-7d9f8-a1; leaves 1 "
                         "DaemonSet pod; leaves 1 mirror pod"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("PDB default/web refuses evicting default/web-7d9f8-b1: the PDB allows "
                         "no more disruptions now"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("keeps 1 pod a PDB never lets go: default/db-0"), std::string::npos)
      << run.out;
  EXPECT_NE(
      run.out.find(
          "  cost: removing the 1 node that drains empty saves $0.1920/h; the new nodeclaims above "
          "cost $"),
      std::string::npos)
      << run.out;
}

TEST(CliPlanExit, FailOnUnschedulablePrintsThePlanAndExits2) {
  // Without a NodePool nothing can be launched for the evicted pods (but one fits on mng-c).
  CliRun run = RunKarpenter({"plan", "-f", SourcePath("examples/drain/managed-node-group.yaml"),
                             "--drain", "eks.amazonaws.com/nodegroup=ng-1",
                             "--fail-on-unschedulable", "-o", "json", "--deterministic"});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  nlohmann::ordered_json plan = nlohmann::ordered_json::parse(run.out, nullptr, false);
  ASSERT_FALSE(plan.is_discarded()) << run.out;
  ASSERT_EQ(plan["unschedulable"].size(), 2u) << run.out;
  EXPECT_EQ(plan["unschedulable"][0]["reason"],
            "no NodePools in the input: add NodePool and EC2NodeClass manifests with -f");
  EXPECT_NE(run.err.find("warning: no NodePools in the input"), std::string::npos) << run.err;
}

TEST(CliPlanExit, FailOnUnschedulableExits0WhenEveryPodIsPlaced) {
  CliRun run = RunKarpenter(
      PlanArgs({"--drain", "eks.amazonaws.com/nodegroup=ng-1", "--fail-on-unschedulable"}));
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

TEST(CliPlanExit, WithoutTheFlagUnschedulablePodsExit0) {
  CliRun run = RunKarpenter({"plan", "-f", SourcePath("examples/drain/managed-node-group.yaml"),
                             "--drain", "eks.amazonaws.com/nodegroup=ng-1"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("no NodePools in the input"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace karpenter::cli_test
