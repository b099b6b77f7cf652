// `karpenter plan --catalog`: planning with upstream's fake catalog or any instance-type file
// instead of the embedded AWS catalog (docs/differential.md has the file format).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "test/cli_runner.h"

namespace {

namespace fs = std::filesystem;
using karpenter::cli_test::CliRun;

// Per test, since ctest runs tests in parallel processes.
fs::path TempPath(const std::string& name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return fs::temp_directory_path() /
         ("kp_cli_plan_catalog_" + std::string(test ? test->name() : "none") + "_" + name);
}

std::string WriteFile(const std::string& name, const std::string& content) {
  const fs::path path = TempPath(name);
  std::ofstream(path) << content;
  return path.string();
}

// A NodePool whose EC2NodeClass is nowhere in the input: with --catalog it needs none.
constexpr char kPool[] = R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: missing}
      requirements: []
)";

std::string PodYaml(const std::string& name, const std::string& cpu,
                    const std::string& node_selector) {
  return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
         ", namespace: default}\nspec:\n" +
         (node_selector.empty() ? "" : "  nodeSelector: {" + node_selector + "}\n") +
         "  containers:\n  - name: c\n    image: i\n    resources:\n      requests: {cpu: \"" +
         cpu + "\", memory: 1Gi}\n";
}

nlohmann::json ParseJson(const std::string& text) {
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

TEST(CliPlanCatalog, Fake400DeclaresItsLabelsAndNeedsNoNodeClass) {
  const std::string input = WriteFile("in.yaml", kPool + PodYaml("web", "1", "size: large"));
  CliRun run = karpenter::cli_test::RunKarpenter(
      {"plan", "-f", input, "--catalog", "fake400", "-o", "json", "--deterministic"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");  // No "nodepool is not ready" warning.
  const nlohmann::json plan = ParseJson(run.out);
  ASSERT_EQ(plan["nodeClaims"].size(), 1u) << run.out;
  // fake-it-4 (5 vCPU, 10 GiB) is the smallest type labelled size=large.
  EXPECT_EQ(plan["nodeClaims"][0]["instanceTypes"][0], "fake-it-4");
  EXPECT_EQ(plan["nodeClaims"][0]["launch"]["instanceType"], "fake-it-4");
  EXPECT_EQ(plan["assumptions"]["zones"],
            nlohmann::json({"test-zone-1", "test-zone-2", "test-zone-3"}));
  EXPECT_EQ(plan["assumptions"]["onDemandPrices"], "offerings of --catalog fake400");
  EXPECT_EQ(plan["assumptions"]["regionAssumed"], false);
}

TEST(CliPlanCatalog, PlansWithTheTypesOfAFile) {
  const std::string catalog = WriteFile("types.json", R"({
    "wellKnownLabels": ["tier"],
    "instanceTypes": [
      {"name": "small", "requirements": [{"key": "tier", "operator": "In", "values": ["a"]}],
       "capacity": {"cpu": "2", "memory": "4Gi", "pods": "10"},
       "offerings": [{"zone": "z1", "capacityType": "on-demand", "price": 0.1}]},
      {"name": "big", "requirements": [{"key": "tier", "operator": "In", "values": ["b"]}],
       "capacity": {"cpu": "16", "memory": "32Gi", "pods": "50"},
       "offerings": [{"zone": "z2", "capacityType": "on-demand", "price": 0.8},
                     {"zone": "z1", "capacityType": "on-demand", "price": 0.9}]}]})");
  const std::string input =
      WriteFile("in.yaml", kPool + PodYaml("little", "1", "") + PodYaml("large", "10", "") +
                               PodYaml("picky", "1", "tier: b"));
  CliRun run = karpenter::cli_test::RunKarpenter(
      {"plan", "-f", input, "--catalog", catalog, "-o", "json", "--deterministic"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json plan = ParseJson(run.out);
  ASSERT_FALSE(plan.is_discarded()) << run.out;
  EXPECT_TRUE(plan["unschedulable"].empty()) << run.out;
  std::map<std::string, std::string> type_of_pod;
  double price = 0;
  for (const nlohmann::json& claim : plan["nodeClaims"]) {
    for (const nlohmann::json& pod : claim["pods"]) {
      type_of_pod[pod.get<std::string>()] = claim["launch"]["instanceType"];
    }
    price += claim["launch"]["pricePerHour"].get<double>();
  }
  EXPECT_EQ(type_of_pod["default/large"], "big");
  EXPECT_EQ(type_of_pod["default/picky"], "big");  // tier=b selects a label of the file.
  EXPECT_EQ(plan["assumptions"]["zones"], nlohmann::json({"z1", "z2"}));
  // The file's prices: the large pods share one big node (0.8, zone z2); the little one fits it
  // too, so one claim in all.
  EXPECT_EQ(plan["nodeClaims"].size(), 1u) << run.out;
  EXPECT_DOUBLE_EQ(price, 0.8);
}

TEST(CliPlanCatalog, AMalformedFileNamesTheFieldAndPlansNothing) {
  const std::string catalog = WriteFile("bad.json", R"({"instanceTypes": [
      {"name": "a", "capacity": {"cpu": "1"},
       "offerings": [{"zone": "z", "capacityType": "spot", "price": "cheap"}]}]})");
  const std::string input = WriteFile("in.yaml", kPool + PodYaml("web", "1", ""));
  CliRun run =
      karpenter::cli_test::RunKarpenter({"plan", "-f", input, "--catalog", catalog, "-o", "json"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("--catalog " + catalog +
                         ": instanceTypes[0].offerings[0].price: want number, got string"),
            std::string::npos)
      << run.err;

  run = karpenter::cli_test::RunKarpenter(
      {"plan", "-f", input, "--catalog", TempPath("absent.json").string()});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("--catalog "), std::string::npos) << run.err;
}

TEST(CliPlanCatalog, RefusesFlagsThatNeedTheAwsCatalog) {
  const std::string input = WriteFile("in.yaml", kPool + PodYaml("web", "1", ""));
  for (const std::vector<std::string>& extra : {std::vector<std::string>{"--disruption"},
                                                {"--spot-price", "m5.large:us-east-1a=0.1"},
                                                {"--region", "us-west-2"},
                                                {"--drain", "a=b"},
                                                {"--explain", "node/n"}}) {
    std::vector<std::string> args = {"plan", "-f", input, "--catalog", "fake400"};
    args.insert(args.end(), extra.begin(), extra.end());
    CliRun run = karpenter::cli_test::RunKarpenter(args);
    EXPECT_EQ(run.exit_code, 1) << extra[0];
    EXPECT_EQ(run.out, "") << extra[0];
    EXPECT_NE(run.err.find("--catalog: cannot be used with " + extra[0].substr(0, 6)),
              std::string::npos)
        << run.err;
  }
}

}  // namespace
