// Runs every scenario of test/scenarios/provisioning through `karpenter plan -o json` (and of
// test/scenarios/disruption through `karpenter plan --disruption -o json`) as a user would, and
// checks the decisions against the scenario's expectations. One test per file, named after it;
// scenarios marked `pending` are skipped with their reason.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "src/cloudprovider/catalog.h"
#include "test/cli_runner.h"
#include "test/disruption_checks.h"
#include "test/scenario_checks.h"
#include "test/scenario_file.h"

namespace karpenter::scenario {
namespace {

namespace fs = std::filesystem;

using cli_test::CliRun;
using cli_test::RunKarpenter;

const cloudprovider::Catalog& SharedCatalog() {
  static const cloudprovider::Catalog* catalog = [] {
    absl::StatusOr<cloudprovider::Catalog> loaded = cloudprovider::Catalog::LoadEmbedded();
    return loaded.ok() ? new cloudprovider::Catalog(*std::move(loaded))
                       : new cloudprovider::Catalog();
  }();
  return *catalog;
}

std::string ScenarioDir(const char* kind) {
  return (fs::path(KP_SOURCE_DIR) / "test" / "scenarios" / kind).string();
}

constexpr char kNow[] = "2026-12-02T00:00:00Z";

// Runs one scenario file; `extra_args` are what the scenario directory implies (`--disruption`).
void RunScenario(const std::string& path, const std::vector<std::string>& extra_args) {
  absl::StatusOr<Scenario> scenario = LoadScenario(path);
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  if (!scenario->pending.empty()) GTEST_SKIP() << "pending: " << scenario->pending;
  ASSERT_FALSE(SharedCatalog().Types().empty()) << "embedded catalog failed to load";

  fs::path dir = fs::temp_directory_path() / "kp_scenarios";
  fs::create_directories(dir);
  fs::path snapshot = dir / (scenario->name + ".yaml");
  std::ofstream(snapshot) << scenario->snapshot;

  // A fixed evaluation time keeps time-dependent decisions (do-not-disrupt durations, deleting
  // nodes) reproducible.
  const std::string now = scenario->now.empty() ? kNow : scenario->now;
  std::vector<std::string> args = {"plan",  "-f", snapshot.string(), "-o", "json",
                                   "--now", now,  "--deterministic"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  args.insert(args.end(), scenario->args.begin(), scenario->args.end());
  CliRun run = RunKarpenter(args);
  std::string context = "scenario " + scenario->name + " (" + scenario->description + ")\n";
  ASSERT_EQ(run.exit_code, 0) << context << "karpenter " << absl::StrJoin(args, " ")
                              << "\nstderr: " << run.err << "\nstdout: " << run.out;
  nlohmann::json plan = nlohmann::json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(plan.is_discarded()) << context << "output is not JSON:\n" << run.out;

  std::vector<std::string> failures = CheckExpectations(scenario->expect, plan, SharedCatalog());
  for (std::string& failure :
       CheckDisruptionExpectations(scenario->expect, plan, SharedCatalog())) {
    failures.push_back(std::move(failure));
  }
  for (const std::string& failure : failures) ADD_FAILURE() << context << failure;
  if (!failures.empty())
    std::cerr << "full plan of " << scenario->name << ":\n" << plan.dump(1) << "\n";
}

class PlanScenario : public testing::TestWithParam<std::string> {};

TEST_P(PlanScenario, MatchesExpectations) { RunScenario(GetParam(), {}); }

// test/scenarios/disruption: the same runner with `--disruption`.
class DisruptionScenario : public testing::TestWithParam<std::string> {};

TEST_P(DisruptionScenario, MatchesExpectations) { RunScenario(GetParam(), {"--disruption"}); }

std::string TestName(const testing::TestParamInfo<std::string>& info) {
  return ScenarioTestName(info.param);
}

INSTANTIATE_TEST_SUITE_P(Provisioning, PlanScenario,
                         testing::ValuesIn(ListScenarioFiles(ScenarioDir("provisioning"))),
                         TestName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PlanScenario);
INSTANTIATE_TEST_SUITE_P(Disruption, DisruptionScenario,
                         testing::ValuesIn(ListScenarioFiles(ScenarioDir("disruption"))), TestName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DisruptionScenario);

// The runner itself: the header and the snapshot split where the first document ends.
TEST(ScenarioFile, SplitsHeaderFromSnapshot) {
  fs::path path = fs::temp_directory_path() / "kp_scenario_split.yaml";
  std::ofstream(path) << "# comment\ndescription: d\nbehaviours: [7]\nexpect:\n  newNodeClaims: 1\n"
                         "---\napiVersion: v1\nkind: Pod\n---\nkind: Node\n";
  absl::StatusOr<Scenario> scenario = LoadScenario(path.string());
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  EXPECT_EQ(scenario->description, "d");
  EXPECT_EQ(scenario->behaviours, std::vector<int>{7});
  EXPECT_EQ(scenario->snapshot, "apiVersion: v1\nkind: Pod\n---\nkind: Node\n");
}

TEST(ScenarioFile, RejectsUnknownHeaderKeys) {
  fs::path path = fs::temp_directory_path() / "kp_scenario_unknown.yaml";
  std::ofstream(path) << "descripton: typo\nexpect: {newNodeClaims: 1}\n---\nkind: Pod\n";
  EXPECT_FALSE(LoadScenario(path.string()).ok());
}

TEST(ScenarioChecks, ReportsEachFailedExpectationWithThePlan) {
  nlohmann::json plan = nlohmann::json::parse(R"({
    "nodeClaims":[{"nodePool":"a","pods":["d/x","d/y"],"instanceTypes":["m5.large"],
                   "launch":{"instanceType":"m5.large","capacityType":"spot"},
                   "requests":{"cpu":"1500m"},"labels":{"k":"v"}}],
    "existingNodes":[{"name":"n1","pods":["d/z"]}],
    "unschedulable":[{"pod":"d/big","reason":"no instance type met the requirements"}],
    "summary":{"newNodeClaims":1}})");
  YAML::Node good = YAML::Load(R"(
newNodeClaims: 1
summary: {newNodeClaims: 1}
together: [[d/x, d/y]]
apart: [[d/x, d/z]]
unschedulable: [{pod: d/big, reason: "no instance type"}]
existingNodes: {n1: [d/z]}
nodeClaims:
  - {pod: d/x, nodePool: a, capacityType: spot, instanceType: m5.large, pods: ["d/*"],
     requests: {cpu: 1.5}, requestsAtLeast: {cpu: 1}, labels: {k: v},
     instanceTypes: {minCount: 1, match: [{key: karpenter.k8s.aws/instance-category, operator: In, values: [m]}]}}
)");
  EXPECT_EQ(CheckExpectations(good, plan, SharedCatalog()), std::vector<std::string>{});
  YAML::Node bad = YAML::Load(R"(
newNodeClaims: 2
together: [[d/x, d/z]]
nodeClaims: [{index: 0, nodePool: b, requests: {cpu: 2}}]
)");
  std::vector<std::string> failures = CheckExpectations(bad, plan, SharedCatalog());
  ASSERT_EQ(failures.size(), 4u) << absl::StrJoin(failures, "\n");
  EXPECT_NE(failures[0].find("newNodeClaims"), std::string::npos);
  EXPECT_NE(failures[1].find("d/z -> existingNodes[n1]"), std::string::npos);
  EXPECT_NE(failures[2].find("nodePool"), std::string::npos);
  EXPECT_NE(failures[3].find("got 1500m"), std::string::npos);
}

}  // namespace
}  // namespace karpenter::scenario
