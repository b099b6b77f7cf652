// `karpenter plan` in any region: the region comes from the input (node labels, EC2NodeClass
// status.subnets zones) or --region, conflicts are errors naming the field, silence assumes
// us-east-1, and both outputs state what was assumed. Warnings reach stderr once and the JSON.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "test/cli_runner.h"

namespace {

namespace fs = std::filesystem;
using karpenter::cli_test::CliRun;

fs::path TempPath(const std::string& name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return fs::temp_directory_path() /
         ("kp_cli_plan_region_" + std::string(test ? test->name() : "none") + "_" + name);
}

CliRun RunCli(const std::string& args) {
  return karpenter::cli_test::RunKarpenterCommandLine(args);
}

std::string Source(const std::string& relative) {
  return karpenter::cli_test::SourcePath(relative);
}

const std::string kNodeClass = Source("examples/article/ec2nodeclass.yaml");
const std::string kNodePool = Source("examples/article/nodepool.yaml");
const std::string kWorkload = Source("examples/article/workload-sample.yaml");

std::string PoolAndWorkload() { return " -f " + kNodePool + " -f " + kWorkload; }
std::string ArticleArgs() { return "-f " + kNodeClass + PoolAndWorkload(); }

nlohmann::json ParseJson(const std::string& text) {
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

// The article's EC2NodeClass with status.subnets in `zones`.
std::string NodeClassInZones(const std::vector<std::string>& zones) {
  fs::path path = TempPath("ec2nodeclass.yaml");
  std::ifstream in(kNodeClass);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text += "status:\n  subnets:\n";
  for (const std::string& zone : zones) {
    text += "    - id: subnet-" + zone + "\n      zone: " + zone + "\n";
  }
  std::ofstream(path) << text;
  return path.string();
}

std::string NodeLabelled(const std::string& name, const std::string& zone) {
  fs::path path = TempPath(name + ".yaml");
  std::ofstream(path) << "apiVersion: v1\nkind: Node\nmetadata:\n  name: " << name
                      << "\n  labels:\n    topology.kubernetes.io/zone: " << zone
                      << "\nstatus:\n  allocatable: {cpu: '2', memory: 4Gi, pods: '20'}\n";
  return path.string();
}

TEST(CliPlanRegion, SilentInputAssumesUsEast1AndSaysSoInBothOutputs) {
  CliRun json_run = RunCli("plan " + ArticleArgs() + " -o json --deterministic");
  ASSERT_EQ(json_run.exit_code, 0) << json_run.err;
  nlohmann::json plan = ParseJson(json_run.out);
  const nlohmann::json& assumed = plan["assumptions"];
  EXPECT_EQ(assumed["region"], "us-east-1");
  EXPECT_EQ(assumed["regionAssumed"], true);
  EXPECT_NE(assumed["regionSource"].get<std::string>().find("the input names no region"),
            std::string::npos);
  EXPECT_EQ(assumed["zonesSource"], "all zones of the region: add status.subnets");
  EXPECT_EQ(assumed["zones"].size(), 6u);
  EXPECT_NE(assumed["onDemandPrices"].get<std::string>().find("embedded table of 2026-07-20"),
            std::string::npos);
  EXPECT_NE(assumed["spotPrices"].get<std::string>().find("estimated by the model"),
            std::string::npos);
  EXPECT_EQ(assumed["policies"]["preferencePolicy"], "Respect");
  EXPECT_TRUE(plan["warnings"].is_array());

  CliRun text_run = RunCli("plan " + ArticleArgs() + " --deterministic");
  ASSERT_EQ(text_run.exit_code, 0) << text_run.err;
  EXPECT_NE(text_run.out.find("assumed region: us-east-1 (default: the input names no region"),
            std::string::npos)
      << text_run.out;
  EXPECT_NE(text_run.out.find("assumed zones: us-east-1a,"), std::string::npos);
}

TEST(CliPlanRegion, EuWest1SubnetsPlanInEuWest1AtItsPrices) {
  CliRun us = RunCli("plan " + ArticleArgs() + " -o json --deterministic");
  CliRun eu = RunCli("plan -f " + NodeClassInZones({"eu-west-1a", "eu-west-1b"}) +
                     PoolAndWorkload() + " -o json --deterministic");
  ASSERT_EQ(eu.exit_code, 0) << eu.err;
  nlohmann::json plan = ParseJson(eu.out);
  EXPECT_EQ(plan["summary"]["scheduledPods"], 10) << eu.out;
  EXPECT_TRUE(plan["unschedulable"].empty());
  for (const nlohmann::json& claim : plan["nodeClaims"]) {
    const std::string zone = claim["launch"]["zone"];
    EXPECT_TRUE(zone == "eu-west-1a" || zone == "eu-west-1b") << zone;
  }
  EXPECT_EQ(plan["assumptions"]["region"], "eu-west-1");
  EXPECT_EQ(plan["assumptions"]["regionAssumed"], false);
  EXPECT_EQ(plan["assumptions"]["regionSource"],
            "EC2NodeClass/default: status.subnets[0].zone eu-west-1a");
  EXPECT_EQ(plan["assumptions"]["zonesSource"], "EC2NodeClass status.subnets");
  EXPECT_EQ(plan["assumptions"]["zones"], nlohmann::json({"eu-west-1a", "eu-west-1b"}));
  EXPECT_GT(plan["summary"]["pricePerHour"].get<double>(),
            ParseJson(us.out)["summary"]["pricePerHour"].get<double>());
}

TEST(CliPlanRegion, RegionFlagPicksTheCatalog) {
  CliRun run = RunCli("plan " + ArticleArgs() + " --region us-west-2 -o json --deterministic");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json plan = ParseJson(run.out);
  EXPECT_EQ(plan["assumptions"]["region"], "us-west-2");
  EXPECT_EQ(plan["assumptions"]["regionSource"], "--region");
  ASSERT_FALSE(plan["nodeClaims"].empty());
  EXPECT_EQ(plan["nodeClaims"][0]["launch"]["zone"].get<std::string>().rfind("us-west-2", 0), 0u);
}

TEST(CliPlanRegion, RegionFlagThatDisagreesWithTheSubnetsIsAnErrorNamingTheField) {
  CliRun run = RunCli("plan -f " + NodeClassInZones({"eu-west-1a"}) + PoolAndWorkload() +
                      " --region us-west-2");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("--region us-west-2 disagrees with the input: EC2NodeClass/default: "
                         "status.subnets[0].zone eu-west-1a is in eu-west-1"),
            std::string::npos)
      << run.err;
}

TEST(CliPlanRegion, NodesInTwoRegionsAreAnError) {
  CliRun run = RunCli("plan " + ArticleArgs() + " -f " + NodeLabelled("a", "us-east-1a") + " -f " +
                      NodeLabelled("b", "eu-west-1b"));
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("the input names two regions: Node/a: "
                         "metadata.labels[topology.kubernetes.io/zone] us-east-1a is in us-east-1, "
                         "but Node/b"),
            std::string::npos)
      << run.err;
}

TEST(CliPlanRegion, UnknownRegionListsTheKnownOnes) {
  CliRun run = RunCli("plan " + ArticleArgs() + " --region xx-nowhere-1");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("--region: unknown region \"xx-nowhere-1\"; known regions: af-south-1"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("us-west-2"), std::string::npos);
}

TEST(CliPlanRegion, WarningsReachStderrOnceAndTheJson) {
  CliRun text = RunCli("plan" + PoolAndWorkload() + " --deterministic");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const std::string warning = "warning: nodepool \"default\" is not ready";
  size_t first = text.err.find(warning);
  ASSERT_NE(first, std::string::npos) << text.err;
  EXPECT_EQ(text.err.find(warning, first + 1), std::string::npos) << text.err;
  EXPECT_EQ(text.out.find(warning), std::string::npos) << text.out;

  CliRun json = RunCli("plan" + PoolAndWorkload() + " -o json --deterministic");
  nlohmann::json plan = ParseJson(json.out);
  ASSERT_EQ(plan["warnings"].size(), 1u) << json.out;
  EXPECT_EQ(plan["warnings"][0].get<std::string>().rfind("nodepool \"default\" is not ready", 0),
            0u);
}

}  // namespace
