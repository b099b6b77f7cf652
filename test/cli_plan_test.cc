// `karpenter plan` as a user runs it, on the migration article's manifests: what it launches,
// the exact top-level JSON keys of docs/contracts.md, validation before planning, and reproducible
// output whatever the file order.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "src/cloudprovider/catalog.h"
#include "test/cli_runner.h"

namespace {

namespace fs = std::filesystem;

// Per test, since ctest runs tests in parallel processes.
fs::path TempPath(const std::string& name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return fs::temp_directory_path() /
         ("kp_cli_plan_" + std::string(test ? test->name() : "none") + "_" + name);
}

using karpenter::cli_test::CliRun;

CliRun RunCli(const std::string& args) {
  return karpenter::cli_test::RunKarpenterCommandLine(args);
}

std::string Source(const std::string& relative) {
  return karpenter::cli_test::SourcePath(relative);
}

const std::string kNodeClass = Source("examples/article/ec2nodeclass.yaml");
const std::string kNodePool = Source("examples/article/nodepool.yaml");
const std::string kWorkload = Source("examples/article/workload-sample.yaml");

std::string ArticleArgs() { return "-f " + kNodeClass + " -f " + kNodePool + " -f " + kWorkload; }

nlohmann::json ParseJson(const std::string& text) {
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

TEST(CliPlan, ArticleWorkloadLandsOnSpotCmrInstancesNewerThanGeneration5) {
  CliRun run = RunCli("plan " + ArticleArgs() + " -o json --deterministic");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json plan = ParseJson(run.out);
  ASSERT_FALSE(plan.is_discarded()) << run.out;
  EXPECT_EQ(plan["summary"]["pendingPods"], 10);
  EXPECT_EQ(plan["summary"]["scheduledPods"], 10);
  EXPECT_TRUE(plan["unschedulable"].empty());

  absl::StatusOr<karpenter::cloudprovider::Catalog> catalog =
      karpenter::cloudprovider::Catalog::LoadEmbedded();
  ASSERT_TRUE(catalog.ok()) << catalog.status();
  size_t placed = 0;
  double price = 0;
  ASSERT_FALSE(plan["nodeClaims"].empty());
  for (const nlohmann::json& claim : plan["nodeClaims"]) {
    placed += claim["pods"].size();
    const nlohmann::json& launch = claim["launch"];
    EXPECT_EQ(launch["capacityType"], "spot");
    price += launch["pricePerHour"].get<double>();
    const karpenter::cloudprovider::InstanceType* type =
        catalog->Find(launch["instanceType"].get<std::string>());
    ASSERT_NE(type, nullptr) << launch;
    const std::string category = type->labels.at("karpenter.k8s.aws/instance-category");
    EXPECT_TRUE(category == "c" || category == "m" || category == "r") << type->name;
    EXPECT_GT(std::stoi(type->labels.at("karpenter.k8s.aws/instance-generation")), 5) << type->name;
    // Every listed type satisfies the NodePool too, and the list is non-empty.
    ASSERT_FALSE(claim["instanceTypes"].empty());
    EXPECT_EQ(claim["nodePool"], "default");
  }
  EXPECT_EQ(placed, 10u);
  EXPECT_NEAR(plan["summary"]["pricePerHour"].get<double>(), price, 1e-6);
  EXPECT_EQ(plan["summary"]["newNodeClaims"], plan["nodeClaims"].size());
}

TEST(CliPlan, JsonHasExactlyTheContractKeys) {
  CliRun run = RunCli("plan " + ArticleArgs() + " -o json --deterministic");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json plan = ParseJson(run.out);
  ASSERT_TRUE(plan.is_object()) << run.out;
  auto keys = [](const nlohmann::json& object) {
    std::vector<std::string> out;
    for (auto it = object.begin(); it != object.end(); ++it) out.push_back(it.key());
    return out;
  };
  // nlohmann sorts keys, so these lists are alphabetical. `warnings` and `assumptions` extend
  // the docs/contracts.md document (issue 28); every contract key is still there.
  EXPECT_EQ(keys(plan), (std::vector<std::string>{"assumptions", "existingNodes", "nodeClaims",
                                                  "summary", "unschedulable", "warnings"}));
  EXPECT_EQ(keys(plan["summary"]),
            (std::vector<std::string>{"newNodeClaims", "pendingPods", "pricePerHour",
                                      "scheduledPods", "solveMillis"}));
  // `instanceTypeCount` and `allocatable` (of the launched type) say why the claim is what it
  // is (issue 28).
  EXPECT_EQ(keys(plan["nodeClaims"][0]),
            (std::vector<std::string>{"allocatable", "capacityTypes", "instanceTypeCount",
                                      "instanceTypes", "labels", "launch", "nodePool", "pods",
                                      "requests", "zones"}));
  EXPECT_EQ(keys(plan["nodeClaims"][0]["launch"]),
            (std::vector<std::string>{"capacityType", "instanceType", "pricePerHour", "zone"}));
  EXPECT_EQ(plan["summary"]["solveMillis"], 0);
  for (const nlohmann::json& claim : plan["nodeClaims"]) {
    EXPECT_EQ(claim["instanceTypeCount"], claim["instanceTypes"].size());
    // The launched type holds what the claim requests.
    ASSERT_TRUE(claim["allocatable"].contains("cpu")) << claim;
    ASSERT_TRUE(claim["allocatable"].contains("memory")) << claim;
  }
  // Keys come out in the contract's order, not alphabetically.
  EXPECT_EQ(run.out.rfind(R"({"nodeClaims":[{"nodePool":"default","instanceTypes":[)", 0), 0u);
}

TEST(CliPlan, RunsAreByteIdenticalWhateverTheFileOrder) {
  CliRun first = RunCli("plan " + ArticleArgs() + " -o json --deterministic");
  CliRun second = RunCli("plan " + ArticleArgs() + " -o json --deterministic");
  CliRun reversed = RunCli("plan -f " + kWorkload + " -f " + kNodePool + " -f " + kNodeClass +
                           " -o json --deterministic");
  ASSERT_EQ(first.exit_code, 0);
  EXPECT_FALSE(first.out.empty());
  EXPECT_EQ(first.out, second.out);
  EXPECT_EQ(first.out, reversed.out);
}

TEST(CliPlan, TextIsTheDefaultOutput) {
  CliRun run = RunCli("plan " + ArticleArgs());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("NODEPOOL"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("summary: 10 pending pod(s), 10 scheduled, 0 unschedulable"),
            std::string::npos)
      << run.out;
}

TEST(CliPlan, InvalidInputFailsWithTheFieldPathAndPrintsNoPlan) {
  fs::path bad = TempPath("bad.yaml");
  std::ofstream(bad) << R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: bad
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
        - key: karpenter.sh/capacity-type
          operator: Foo
          values: [spot]
)";
  CliRun run = RunCli("plan " + ArticleArgs() + " -f " + bad.string() + " -o json");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_NE(
      run.err.find(bad.string() + ": NodePool/bad: spec.template.spec.requirements[0].operator: "),
      std::string::npos)
      << run.err;
}

TEST(CliPlan, MissingFileAndSyntaxErrorsFail) {
  CliRun missing = RunCli("plan -f /nonexistent/file.yaml");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.out, "");
  EXPECT_NE(missing.err.find("/nonexistent/file.yaml: "), std::string::npos) << missing.err;

  fs::path syntax = TempPath("syntax.yaml");
  std::ofstream(syntax) << "apiVersion: v1\nkind: Pod\nmetadata:\n  name: [x\n";
  CliRun broken = RunCli("plan -f " + syntax.string());
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_EQ(broken.out, "");
  EXPECT_NE(broken.err.find("line "), std::string::npos) << broken.err;
}

TEST(CliPlan, NodePoolWithoutItsNodeClassLeavesPodsUnschedulableWithTheReason) {
  CliRun run = RunCli("plan -f " + kNodePool + " -f " + kWorkload + " -o json --deterministic");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json plan = ParseJson(run.out);
  ASSERT_EQ(plan["unschedulable"].size(), 10u) << run.out;
  EXPECT_NE(plan["unschedulable"][0]["reason"].get<std::string>().find(
                "nodepool \"default\" is not ready: EC2NodeClass \"default\" not found"),
            std::string::npos)
      << run.out;
  EXPECT_TRUE(plan["nodeClaims"].empty());
  EXPECT_NE(run.err.find("warning: nodepool \"default\" is not ready"), std::string::npos);
}

// The article's zone spread is ScheduleAnyway; ignoring preferences isolates "existing nodes
// first" from spreading.
TEST(CliPlan, PodsFillAnExistingNodeBeforeAnythingIsLaunched) {
  fs::path node = TempPath("node.yaml");
  std::ofstream(node) << R"(apiVersion: v1
kind: Node
metadata:
  name: ip-10-0-1-5.ec2.internal
  labels:
    kubernetes.io/arch: amd64
    kubernetes.io/os: linux
    topology.kubernetes.io/zone: us-east-1a
    node.kubernetes.io/instance-type: m5.2xlarge
    karpenter.sh/nodepool: default
    karpenter.sh/capacity-type: spot
status:
  allocatable: {cpu: "8", memory: 30Gi, pods: "58"}
)";
  CliRun run = RunCli("plan " + ArticleArgs() + " -f " + node.string() +
                      " -o json --deterministic --preference-policy Ignore");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json plan = ParseJson(run.out);
  EXPECT_TRUE(plan["nodeClaims"].empty()) << run.out;
  ASSERT_EQ(plan["existingNodes"].size(), 1u) << run.out;
  EXPECT_EQ(plan["existingNodes"][0]["name"], "ip-10-0-1-5.ec2.internal");
  EXPECT_EQ(plan["existingNodes"][0]["pods"].size(), 10u);
  EXPECT_EQ(plan["summary"]["scheduledPods"], 10);
  EXPECT_EQ(plan["summary"]["pricePerHour"], 0);
}

TEST(CliPlan, UnparsableNowFails) {
  CliRun run = RunCli("plan " + ArticleArgs() + " --now yesterday");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("--now"), std::string::npos) << run.err;
}

// Each malformed --spot-price names itself and what is wrong, and no plan is printed.
TEST(CliPlan, MalformedSpotPricesFailWithoutAPlan) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"m5.large=0.1", "want INSTANCE_TYPE:ZONE=USD_PER_HOUR"},
      {"m5.large:us-east-1a=cheap", "want INSTANCE_TYPE:ZONE=USD_PER_HOUR"},
      {"m5.large:us-east-1a=-1", "the price must be a positive number"},
      {"m9.huge:us-east-1a=0.1", "the catalog has no instance type \"m9.huge\""},
      {"m5.large:us-east-1e=0.1", "m5.large has no spot offering in zone \"us-east-1e\""},
  };
  for (const auto& [entry, message] : cases) {
    CliRun run = RunCli("plan " + ArticleArgs() + " --spot-price " + entry);
    EXPECT_EQ(run.exit_code, 1) << entry;
    EXPECT_EQ(run.out, "") << entry;
    EXPECT_NE(run.err.find("--spot-price \"" + entry + "\": " + message), std::string::npos)
        << run.err;
  }
}

}  // namespace
