// `karpenter plan --explain` as a user runs it: a pod's landing place and every NodePool's answer
// (the scheduler's own reasons), a node's disruption commands or why it is left alone, and
// mistakes in the target.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "test/cli_runner.h"

namespace karpenter::cli_test {
namespace {

std::filesystem::path TempFile(const std::string& suffix) {
  return std::filesystem::temp_directory_path() /
         ("kp_cli_explain_" +
          std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + suffix);
}

std::vector<std::string> ArticleArgs() {
  return ArticlePlanArgs("examples/article/workload-sample.yaml");
}

// The snapshot part (after the header document) of a disruption scenario.
std::string ScenarioSnapshot(const std::string& scenario) {
  std::ifstream in(SourcePath(scenario));
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  const std::filesystem::path path = TempFile(".yaml");
  std::ofstream(path) << all.substr(all.find("\n---\n") + 5);
  return path.string();
}

std::string FirstWorkloadPod() {
  CliRun plan = RunKarpenter(
      ArticlePlanArgs("examples/article/workload-sample.yaml", {"-o", "json", "--deterministic"}));
  nlohmann::json out = nlohmann::json::parse(plan.out, nullptr, false);
  return out["nodeClaims"][0]["pods"][0];
}

TEST(CliExplain, PodSaysWhereItLandsAndWhichPoolsFit) {
  const std::string pod = FirstWorkloadPod();
  std::vector<std::string> args = ArticleArgs();
  args.insert(args.end(), {"--explain", "pod/" + pod, "-o", "json"});
  CliRun run = RunKarpenter(args);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << run.out;
  EXPECT_EQ(out["target"], "pod/" + pod);
  EXPECT_EQ(
      out["verdict"].get<std::string>().rfind("lands on new NodeClaim #1 of nodepool default", 0),
      0u)
      << out;
  ASSERT_EQ(out["items"].size(), 1u) << out;
  EXPECT_EQ(out["items"][0]["subject"], "default");
  EXPECT_EQ(out["items"][0]["acts"], true);
  EXPECT_EQ(out["items"][0]["reason"].get<std::string>().rfind("fits: ", 0), 0u) << out;
}

TEST(CliExplain, PodThatNoPoolTakesGetsTheSchedulersReason) {
  const std::filesystem::path pod = TempFile("_pod.yaml");
  std::ofstream(pod) << R"(apiVersion: v1
kind: Pod
metadata: {name: mainframe, namespace: default}
spec:
  nodeSelector: {kubernetes.io/arch: s390x}
  containers:
  - name: app
    image: registry.k8s.io/pause:3.9
    resources: {requests: {cpu: 100m}}
)";
  std::vector<std::string> args = ArticleArgs();
  args.insert(args.end(), {"-f", pod.string(), "--explain", "pod/default/mainframe"});
  CliRun run = RunKarpenter(args);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("pod/default/mainframe: unschedulable: "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("  - default: incompatible with nodepool \"default\""), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("kubernetes.io/arch"), std::string::npos) << run.out;
}

TEST(CliExplain, NodeLeftAloneNamesTheBlockingPdb) {
  const std::string file =
      ScenarioSnapshot("test/scenarios/disruption/blocked-pdb-zero-disruptions.yaml");
  CliRun run =
      RunKarpenter({"plan", "-f", file, "--explain", "node/n1", "--now", "2026-12-02T00:00:00Z"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.rfind("node/n1: left alone now\n", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("  - not a candidate: PDB default/web allows 0 disruptions (pod "
                         "default/web-1)"),
            std::string::npos)
      << run.out;
}

TEST(CliExplain, NodeTakenByACommandNamesTheMethod) {
  const std::string file =
      ScenarioSnapshot("test/scenarios/disruption/blocked-pdb-zero-disruptions.yaml");
  CliRun run = RunKarpenter(
      {"plan", "-f", file, "--explain", "node/n2", "--now", "2026-12-02T00:00:00Z", "-o", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_EQ(out["verdict"], "disrupted now by SingleNodeConsolidation") << run.out;
  ASSERT_FALSE(out["items"].empty());
  EXPECT_EQ(out["items"][0]["acts"], true);
}

TEST(CliExplain, MalformedTargetIsAnErrorNamingTheFlag) {
  std::vector<std::string> args = ArticleArgs();
  args.insert(args.end(), {"--explain", "deployment/web"});
  CliRun run = RunKarpenter(args);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_NE(run.err.find("--explain \"deployment/web\": want pod/NAMESPACE/NAME or node/NAME"),
            std::string::npos)
      << run.err;
}

TEST(CliExplain, UnknownObjectIsAnError) {
  std::vector<std::string> args = ArticleArgs();
  args.insert(args.end(), {"--explain", "pod/default/nope"});
  CliRun run = RunKarpenter(args);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("--explain: the input has no pod default/nope"), std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace karpenter::cli_test
