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

// Existing nodes come before any NodePool, as the solve tries them: where the pod fits, and the
// check that refuses it elsewhere.
TEST(CliExplain, PodConsidersExistingNodesBeforeNodePools) {
  const std::string cluster =
      ScenarioSnapshot("test/scenarios/disruption/blocked-pdb-zero-disruptions.yaml");
  const std::filesystem::path pods = TempFile("_pods.yaml");
  std::ofstream(pods) << R"(apiVersion: v1
kind: Pod
metadata: {name: small, namespace: default}
spec:
  containers:
  - {name: app, image: pause, resources: {requests: {cpu: 100m}}}
---
apiVersion: v1
kind: Pod
metadata: {name: large, namespace: default}
spec:
  containers:
  - {name: app, image: pause, resources: {requests: {cpu: 3900m}}}
)";
  const std::vector<std::string> base = {
      "plan", "-f", cluster, "-f", pods.string(), "--now", "2026-12-02T00:00:00Z", "-o", "json"};
  std::vector<std::string> small = base;
  small.insert(small.end(), {"--explain", "pod/default/small"});
  CliRun run = RunKarpenter(small);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_EQ(out["verdict"].get<std::string>().rfind("lands on existing node n", 0), 0u) << out;
  ASSERT_GE(out["items"].size(), 3u) << out;
  EXPECT_EQ(out["items"][0]["subject"], "node n1");
  EXPECT_EQ(out["items"][0]["acts"], true);
  EXPECT_EQ(out["items"][1]["subject"], "node n2");
  EXPECT_EQ(out["items"][2]["subject"], "default");  // the NodePool after the nodes

  std::vector<std::string> large = base;
  large.insert(large.end(), {"--explain", "pod/default/large"});
  run = RunKarpenter(large);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  out = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_EQ(out["verdict"].get<std::string>().rfind("lands on new NodeClaim", 0), 0u) << out;
  EXPECT_EQ(out["items"][0]["acts"], false);
  EXPECT_EQ(out["items"][0]["reason"].get<std::string>().rfind("resources: the pod requests ", 0),
            0u)
      << out;
}

// Every disruption method, in the order the engine runs them, with the engine's verdict.
std::vector<std::string> MethodNames(const nlohmann::json& out) {
  std::vector<std::string> names;
  for (const auto& method : out["methods"]) names.push_back(method["method"]);
  return names;
}

const nlohmann::json& Method(const nlohmann::json& out, const std::string& name) {
  for (const auto& method : out["methods"]) {
    if (method["method"] == name) return method;
  }
  static const nlohmann::json kNone;
  return kNone;
}

TEST(CliExplain, NodeListsEveryMethodWithBlockingPdbsAndPods) {
  const std::string file =
      ScenarioSnapshot("test/scenarios/disruption/blocked-pdb-zero-disruptions.yaml");
  CliRun run = RunKarpenter(
      {"plan", "-f", file, "--explain", "node/n1", "--now", "2026-12-02T00:00:00Z", "-o", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_EQ(MethodNames(out),
            (std::vector<std::string>{"Expiration", "Emptiness", "StaticDrift", "Drift",
                                      "MultiNodeConsolidation", "SingleNodeConsolidation"}))
      << run.out;
  const nlohmann::json& drift = Method(out, "Drift");
  EXPECT_EQ(drift["code"], "pod-blocked") << drift;
  EXPECT_EQ(drift["acts"], false);
  EXPECT_EQ(drift["blockingPdbs"], nlohmann::json::array({"default/web"})) << drift;
  EXPECT_EQ(drift["blockingPods"], nlohmann::json::array({"default/web-1"})) << drift;
  EXPECT_EQ(Method(out, "Expiration")["code"], "not-expired");
  EXPECT_GT(Method(out, "Expiration")["timeLeftSeconds"].get<double>(), 0);
}

TEST(CliExplain, NodeTakenByACommandShowsItsReplacementAndBudget) {
  const std::string file =
      ScenarioSnapshot("test/scenarios/disruption/blocked-pdb-zero-disruptions.yaml");
  CliRun run = RunKarpenter(
      {"plan", "-f", file, "--explain", "node/n2", "--now", "2026-12-02T00:00:00Z", "-o", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
  const nlohmann::json& single = Method(out, "SingleNodeConsolidation");
  EXPECT_EQ(single["acts"], true) << out;
  EXPECT_EQ(single["code"], "acts");
  EXPECT_TRUE(single["replacements"].empty()) << single;  // a delete
  EXPECT_EQ(single["message"].get<std::string>().rfind("delete, no replacement needed", 0), 0u)
      << single;
  ASSERT_TRUE(single.contains("budget")) << single;
  EXPECT_EQ(single["budget"]["reason"], "Underutilized");
  EXPECT_EQ(single["budget"]["nodePool"], "default");
  EXPECT_GE(single["budget"]["allowed"].get<int>(), 1);
}

TEST(CliExplain, NodeInsideConsolidateAfterSaysHowLongIsLeft) {
  const std::string file =
      ScenarioSnapshot("test/scenarios/disruption/consolidate-after-not-elapsed-no-candidate.yaml");
  const std::vector<std::string> args = {
      "plan", "-f", file, "--explain", "node/n1", "--now", "2026-12-02T00:00:00Z"};
  std::vector<std::string> json_args = args;
  json_args.insert(json_args.end(), {"-o", "json"});
  CliRun json = RunKarpenter(json_args);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  nlohmann::json out = nlohmann::json::parse(json.out, nullptr, false);
  // The last pod event was at 23:30 and consolidateAfter is 1h: 30 minutes are left.
  const nlohmann::json& single = Method(out, "SingleNodeConsolidation");
  EXPECT_EQ(single["code"], "consolidate-after") << single;
  EXPECT_DOUBLE_EQ(single["timeLeftSeconds"].get<double>(), 1800);

  CliRun text = RunKarpenter(args);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("  disruption methods, in the order they run:\n"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("    - SingleNodeConsolidation [consolidate-after]: still within "
                          "consolidateAfter"),
            std::string::npos)
      << text.out;
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
