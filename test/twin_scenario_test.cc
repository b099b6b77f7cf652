// Runs every scenario of test/scenarios/twin through `karpenter sim --events` as a user would,
// and checks the run's event log against the scenario's expectations (twin_checks.h). One test
// per file, named after it; scenarios marked `pending` are skipped with their reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "test/cli_runner.h"
#include "test/scenario_file.h"
#include "test/twin_checks.h"

namespace karpenter::scenario {
namespace {

namespace fs = std::filesystem;

using cli_test::CliRun;
using cli_test::RunKarpenter;

class TwinScenario : public testing::TestWithParam<std::string> {};

TEST_P(TwinScenario, MatchesExpectations) {
  absl::StatusOr<Scenario> scenario = LoadScenario(GetParam());
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  if (!scenario->pending.empty()) GTEST_SKIP() << "pending: " << scenario->pending;

  const fs::path dir = fs::temp_directory_path() / "kp_twin_scenarios";
  fs::create_directories(dir);
  const fs::path file = dir / (scenario->name + ".yaml");
  const fs::path events_file = dir / (scenario->name + ".events.jsonl");
  std::ofstream(file) << scenario->snapshot;
  fs::remove(events_file);

  std::vector<std::string> args = {"sim", file.string(), "--events", events_file.string()};
  args.insert(args.end(), scenario->args.begin(), scenario->args.end());
  CliRun run = RunKarpenter(args);
  const std::string context = "scenario " + scenario->name + " (" + scenario->description + ")\n";
  ASSERT_EQ(run.exit_code, 0) << context << "karpenter " << absl::StrJoin(args, " ")
                              << "\nstderr: " << run.err;

  std::vector<std::string> failures;
  const std::vector<nlohmann::json> events =
      ParseEventLines(cli_test::ReadTextFile(events_file), failures);
  for (std::string& failure : CheckTwinEvents(scenario->expect, events)) {
    failures.push_back(std::move(failure));
  }
  for (const std::string& failure : failures) ADD_FAILURE() << context << failure;
  if (!failures.empty()) std::cerr << "events of " << scenario->name << ": " << events_file << "\n";
}

std::string TestName(const testing::TestParamInfo<std::string>& info) {
  return ScenarioTestName(info.param);
}

INSTANTIATE_TEST_SUITE_P(Twin, TwinScenario,
                         testing::ValuesIn(ListScenarioFiles(
                             (fs::path(KP_SOURCE_DIR) / "test" / "scenarios" / "twin").string())),
                         TestName);

// The checker itself, on a hand-written log, so a scenario cannot pass by a checker that
// accepts anything.
std::vector<nlohmann::json> Log() {
  std::vector<std::string> problems;
  std::vector<nlohmann::json> events = ParseEventLines(
      R"({"t":260.000,"event":"DisruptionCommandComputed","method":"SingleNodeConsolidation","savingsPerHour":0.085}
{"t":275.000,"event":"DisruptionNodeTainted","node":"ip-10-0-0-2.ec2.internal"}
{"t":277.942,"event":"InstanceLaunched","owner":"nodeclaim/default-8wg4n"}
{"t":325.000,"event":"DisruptionNodeDeleted","node":"ip-10-0-0-2.ec2.internal"}
)",
      problems);
  EXPECT_TRUE(problems.empty());
  return events;
}

std::vector<std::string> Check(const std::string& expect_yaml) {
  return CheckTwinEvents(YAML::Load(expect_yaml), Log());
}

TEST(TwinChecks, ASubsequenceInOrderWithFieldsTimesAndGaps) {
  EXPECT_TRUE(Check("events:\n"
                    "- {event: DisruptionCommandComputed, method: SingleNodeConsolidation, at: 260,"
                    " savingsPerHour: 0.085}\n"
                    "- {event: DisruptionNodeTainted, secondsAfterPrevious: 15}\n"
                    "- {event: DisruptionNodeDeleted, node: ip-10-0-0-*}\n")
                  .empty());
}

TEST(TwinChecks, OrderGapsValuesAndFieldNamesAreEachChecked) {
  EXPECT_EQ(
      Check("events: [{event: DisruptionNodeDeleted}, {event: DisruptionNodeTainted}]").size(), 1u);
  EXPECT_EQ(Check("events: [{event: DisruptionCommandComputed},"
                  " {event: DisruptionNodeTainted, secondsAfterPrevious: 10}]")
                .size(),
            1u);
  EXPECT_EQ(Check("events: [{event: DisruptionCommandComputed, method: Emptiness}]").size(), 1u);
  EXPECT_EQ(
      Check("events: [{event: DisruptionCommandComputed, methd: SingleNodeConsolidation}]").size(),
      1u);
  EXPECT_EQ(Check("events: [{event: DisruptionCommandComputed, at: 261}]").size(), 1u);
}

TEST(TwinChecks, AbsentAndCounts) {
  EXPECT_TRUE(Check("absent: [{event: DisruptionRolledBack}]\n"
                    "counts: [{event: InstanceLaunched, owner: 'nodeclaim/*', count: 1}]")
                  .empty());
  EXPECT_EQ(Check("absent: [{event: DisruptionNodeTainted}]").size(), 1u);
  EXPECT_EQ(Check("counts: [{event: InstanceLaunched, count: 2}]").size(), 1u);
}

TEST(TwinChecks, MalformedExpectationsFail) {
  EXPECT_EQ(Check("evnets: []").size(), 1u);
  EXPECT_EQ(Check("events: [{method: Emptiness}]").size(), 1u);
  EXPECT_EQ(Check("events: [{event: DisruptionNodeTainted, secondsAfterPrevious: 15}]").size(), 1u);
  EXPECT_EQ(Check("counts: [{event: InstanceLaunched}]").size(), 1u);
  EXPECT_EQ(Check("absent: {event: X}").size(), 1u);
  std::vector<std::string> problems;
  ParseEventLines("{\"t\":1}\nnot json\n", problems);
  EXPECT_EQ(problems.size(), 1u);
}

}  // namespace
}  // namespace karpenter::scenario
