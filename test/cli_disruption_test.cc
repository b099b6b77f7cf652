// `karpenter plan --disruption` as a user runs it: the docs/contracts.md keys added to the plan
// document, a text explanation people can act on, the evaluation time, and bad feature gates.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test/cli_runner.h"

namespace karpenter::cli_test {
namespace {

// The snapshot of a disruption scenario (everything after its header document) in a temp file:
// two underutilized nodes, one with a pod behind a PDB that allows no disruption. One file per
// test: ctest runs each test in its own process, in parallel, and a shared file could be read
// while another process is rewriting it.
std::string ClusterFile(
    const std::string& relative = "test/scenarios/disruption/blocked-pdb-zero-disruptions.yaml") {
  std::ifstream in(SourcePath(relative));
  std::stringstream text;
  text << in.rdbuf();
  const std::string scenario = text.str();
  const size_t header_end = scenario.find("\n---\n");
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("kp_cli_disruption_" +
       std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".yaml");
  std::ofstream(path) << scenario.substr(header_end + 5);
  return path.string();
}

TEST(CliDisruption, JsonAddsCommandsAndBlockedToThePlanDocument) {
  CliRun run = RunKarpenter({"plan", "-f", ClusterFile(), "--disruption", "-o", "json",
                             "--deterministic", "--now", "2026-12-02T00:00:00Z"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::ordered_json out = nlohmann::ordered_json::parse(run.out, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << run.out;
  std::vector<std::string> keys;
  for (const auto& item : out.items()) keys.push_back(item.key());
  // `warnings`, `assumptions`, `notes` and `nodeNotes` extend the plan document (issue 28); the
  // contract keys stay.
  EXPECT_EQ(keys, (std::vector<std::string>{"nodeClaims", "existingNodes", "unschedulable",
                                            "summary", "warnings", "assumptions", "commands",
                                            "blocked", "notes", "nodeNotes"}));
  EXPECT_EQ(out["assumptions"]["policies"]["featureGates"], "");
  ASSERT_EQ(out["commands"].size(), 1u) << run.out;
  const nlohmann::ordered_json& command = out["commands"][0];
  EXPECT_EQ(command["method"], "SingleNodeConsolidation");
  EXPECT_EQ(command["reason"], "Underutilized");
  EXPECT_EQ(command["candidates"], nlohmann::ordered_json::array({"n2"}));
  EXPECT_TRUE(command["replacements"].empty());
  EXPECT_DOUBLE_EQ(command["savingsPerHour"].get<double>(), 0.192);
  ASSERT_EQ(out["blocked"].size(), 1u);
  EXPECT_EQ(out["blocked"][0]["node"], "n1");
  EXPECT_EQ(out["blocked"][0]["reason"],
            "PDB default/web allows 0 disruptions (pod default/web-1)");
}

TEST(CliDisruption, TextExplainsEachDecision) {
  CliRun run =
      RunKarpenter({"plan", "-f", ClusterFile(), "--disruption", "--now", "2026-12-02T00:00:00Z"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("delete node n2, its 1 pod moves to n1, saves $0.1920/h"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("node n1 blocked: PDB default/web allows 0 disruptions"),
            std::string::npos)
      << run.out;
}

TEST(CliDisruption, JsonNotesAreTheTextNotes) {
  const std::string file = ClusterFile("test/scenarios/disruption/budget-per-nodepool.yaml");
  const std::vector<std::string> args = {
      "plan", "-f", file, "--disruption", "--deterministic", "--now", "2026-12-02T00:00:00Z"};
  CliRun text = RunKarpenter(args);
  std::vector<std::string> json_args = args;
  json_args.insert(json_args.end(), {"-o", "json"});
  CliRun json = RunKarpenter(json_args);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  ASSERT_EQ(json.exit_code, 0) << json.err;
  nlohmann::json out = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_FALSE(out["notes"].empty()) << json.out;
  size_t notes_in_text = 0;
  for (size_t at = text.out.find("  note: "); at != std::string::npos;
       at = text.out.find("  note: ", at + 1)) {
    ++notes_in_text;
  }
  EXPECT_EQ(notes_in_text, out["notes"].size()) << text.out;
  for (const auto& note : out["notes"]) {
    EXPECT_NE(text.out.find("  note: " + note.get<std::string>() + "\n"), std::string::npos)
        << note;
  }
}

// The notes again, structured: per node left alone, each method's reason code and message.
TEST(CliDisruption, JsonNodeNotesGiveNodeMethodAndReasonCode) {
  const std::string file = ClusterFile("test/scenarios/disruption/budget-per-nodepool.yaml");
  CliRun run = RunKarpenter({"plan", "-f", file, "--disruption", "--deterministic", "--now",
                             "2026-12-02T00:00:00Z", "-o", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(out["nodeNotes"].empty()) << run.out;
  std::set<std::string> acting;
  for (const auto& command : out["commands"]) {
    for (const auto& node : command["candidates"]) acting.insert(node);
  }
  bool budget_note = false;
  for (const auto& note : out["nodeNotes"]) {
    ASSERT_TRUE(note.contains("node") && note.contains("method") && note.contains("code") &&
                note.contains("message"))
        << note;
    EXPECT_FALSE(acting.contains(note["node"].get<std::string>())) << note;
    EXPECT_NE(note["code"], "acts");
    if (note["code"] == "budget") {
      budget_note = true;
      EXPECT_NE(note["message"].get<std::string>().find("budget allows no more"), std::string::npos)
          << note;
    }
  }
  EXPECT_TRUE(budget_note) << out["nodeNotes"];
}

TEST(CliDisruption, WithoutTheFlagThePlanIsUnchanged) {
  CliRun run = RunKarpenter({"plan", "-f", ClusterFile(), "-o", "json", "--deterministic"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(out.contains("commands"));
  EXPECT_FALSE(out.contains("blocked"));
}

TEST(CliDisruption, MalformedFeatureGatesFail) {
  CliRun run = RunKarpenter(
      {"plan", "-f", ClusterFile(), "--disruption", "--feature-gates", "SpotToSpotConsolidation"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("--feature-gates"), std::string::npos) << run.err;
}

TEST(CliDisruption, UnknownConsolidationSearchFails) {
  CliRun run = RunKarpenter(
      {"plan", "-f", ClusterFile(), "--disruption", "--consolidation-search", "exhaustive"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("--consolidation-search: want upstream or extended"), std::string::npos)
      << run.err;
}

TEST(CliDisruption, BadNowFails) {
  CliRun run = RunKarpenter({"plan", "-f", ClusterFile(), "--disruption", "--now", "yesterday"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("--now"), std::string::npos) << run.err;
}

TEST(CliBenchDisruption, ReportsDecisionTimeAndCostsWithinTheBound) {
  CliRun run = RunKarpenter({"bench", "disruption", "--nodes", "20", "--json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << run.out;
  EXPECT_EQ(out["nodes"], 20);
  EXPECT_GT(out["pods"].get<int>(), 20);
  EXPECT_GE(out["decisionMillis"].get<double>(), 0.0);
  const double before = out["costPerHourBefore"].get<double>();
  const double after = out["costPerHourAfterOneCommand"].get<double>();
  const double bound = out["lowerBoundPerHour"].get<double>();
  EXPECT_LT(after, before) << "a 30-60% utilised cluster always has something to consolidate";
  EXPECT_LE(bound, after);
  EXPECT_GT(bound, 0.0);
}

TEST(CliBenchDisruption, TimesEachConsolidationMethodAlone) {
  CliRun run = RunKarpenter({"bench", "disruption", "--nodes", "20", "--json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << run.out;
  ASSERT_EQ(out["method"], "MultiNodeConsolidation") << run.out;
  const nlohmann::json& multi = out["multiNode"];
  const nlohmann::json& single = out["singleNode"];
  for (const nlohmann::json* alone : {&multi, &single}) {
    for (const char* key : {"millis", "cpuMillis", "candidates", "savingsPerHour"}) {
      ASSERT_TRUE(alone->contains(key)) << key << ": " << run.out;
    }
    EXPECT_GE((*alone)["cpuMillis"].get<double>(), 0.0);
  }
  // Multi-node alone is the decision itself; single-node alone replaces or deletes one node, and
  // saves less than the many-node move on a 30-60 % utilised cluster.
  EXPECT_EQ(multi["candidates"], out["candidates"]);
  const double saved =
      out["costPerHourBefore"].get<double>() - out["costPerHourAfterOneCommand"].get<double>();
  EXPECT_NEAR(multi["savingsPerHour"].get<double>(), saved, 1e-3);
  EXPECT_EQ(single["candidates"], 1) << run.out;
  EXPECT_GT(single["savingsPerHour"].get<double>(), 0.0);
  EXPECT_LT(single["savingsPerHour"].get<double>(), saved);
}

TEST(CliBenchDisruption, UntilStableFollowsConsolidationToASteadyState) {
  CliRun run = RunKarpenter({"bench", "disruption", "--nodes", "20", "--json", "--until-stable"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << run.out;
  EXPECT_GE(out["rounds"].get<int>(), 1);
  const double after_one = out["costPerHourAfterOneCommand"].get<double>();
  const double stable = out["costPerHourStable"].get<double>();
  const double bound = out["lowerBoundPerHour"].get<double>();
  EXPECT_LE(stable, after_one + 1e-9);  // every later command saves too
  EXPECT_LE(bound, stable);
  EXPECT_LT(out["stableNodes"].get<int>(), 20);
  EXPECT_NEAR(out["stableOverBound"].get<double>(), stable / bound, 1e-3);
}

TEST(CliBenchDisruption, UntilStableReportsTheLongestDecisionInWallAndCpuTime) {
  CliRun run = RunKarpenter({"bench", "disruption", "--nodes", "20", "--json", "--until-stable"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << run.out;
  for (const char* key : {"decisionCpuMillis", "stableDecisionCpuMillis", "maxDecisionMillis",
                          "maxDecisionCpuMillis"}) {
    ASSERT_TRUE(out.contains(key)) << key << ": " << run.out;
    EXPECT_GE(out[key].get<double>(), 0.0) << key;
  }
  // The longest decision is one of them: at least the first, at most all of them together.
  const double first = out["decisionMillis"].get<double>();
  const double max = out["maxDecisionMillis"].get<double>();
  EXPECT_GE(max, first);
  EXPECT_LE(max, first + out["stableDecisionMillis"].get<double>() + 0.1);
  EXPECT_GE(out["maxDecisionCpuMillis"].get<double>(), out["decisionCpuMillis"].get<double>());
}

TEST(CliBenchDisruption, ExtendedSearchKeepsTheFirstDecisionAndLowersTheSteadyState) {
  // At 150 nodes upstream's moves stop at 1.12x the bound; the opt-in search goes on. Its first
  // decision is upstream's, since the extension only runs when upstream finds nothing.
  CliRun upstream =
      RunKarpenter({"bench", "disruption", "--nodes", "150", "--json", "--until-stable"});
  CliRun extended = RunKarpenter({"bench", "disruption", "--nodes", "150", "--json",
                                  "--until-stable", "--consolidation-search", "extended"});
  ASSERT_EQ(upstream.exit_code, 0) << upstream.err;
  ASSERT_EQ(extended.exit_code, 0) << extended.err;
  nlohmann::json a = nlohmann::json::parse(upstream.out, nullptr, false);
  nlohmann::json b = nlohmann::json::parse(extended.out, nullptr, false);
  ASSERT_FALSE(a.is_discarded() || b.is_discarded()) << upstream.out << extended.out;
  for (const char* key : {"method", "candidates", "costPerHourAfterOneCommand"}) {
    EXPECT_EQ(a[key], b[key]) << key;
  }
  EXPECT_LT(b["costPerHourStable"].get<double>(), a["costPerHourStable"].get<double>() - 0.1);
  EXPECT_LE(b["lowerBoundPerHour"].get<double>(), b["costPerHourStable"].get<double>());
}

TEST(CliBenchDisruption, TraceWritesOneLinePerDecision) {
  CliRun run =
      RunKarpenter({"bench", "disruption", "--nodes", "20", "--json", "--until-stable", "--trace"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << run.out;
  const int decisions = out["rounds"].get<int>() + 1;  // the last one finds nothing
  std::vector<std::string> lines;
  std::istringstream err(run.err);
  for (std::string line; std::getline(err, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), static_cast<size_t>(decisions)) << run.err;
  EXPECT_EQ(lines.front().rfind("decision 0: 20 nodes, $", 0), 0u) << lines.front();
  EXPECT_NE(lines.front().find("MultiNodeConsolidation of "), std::string::npos) << lines.front();
  char last[128];
  std::snprintf(last, sizeof(last), "decision %d: %d nodes, $%.4f/h: nothing;", decisions - 1,
                out["stableNodes"].get<int>(), out["costPerHourStable"].get<double>());
  EXPECT_EQ(lines.back().rfind(last, 0), 0u) << lines.back();
}

TEST(CliBenchDisruption, MultiNodeCandidatesSetsTheCapAndZeroLiftsIt) {
  auto candidates = [](const char* cap) {
    CliRun run = RunKarpenter(
        {"bench", "disruption", "--nodes", "300", "--json", "--multi-node-candidates", cap});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
    EXPECT_EQ(out.value("method", ""), "MultiNodeConsolidation") << run.out;
    return out.value("candidates", -1);
  };
  // Upstream's binary search lets one more than the cap through (see MultiNodeConsolidation).
  EXPECT_EQ(candidates("5"), 6);
  EXPECT_EQ(candidates("100"), 101);  // upstream's cap, the default
  EXPECT_GT(candidates("0"), 101);    // more than half of 300 nodes at 30-60 % merge uncapped
  CliRun negative =
      RunKarpenter({"bench", "disruption", "--nodes", "5", "--multi-node-candidates", "-1"});
  EXPECT_EQ(negative.exit_code, 1);
  EXPECT_NE(negative.err.find("--multi-node-candidates must be 0 or more"), std::string::npos)
      << negative.err;
}

TEST(CliBenchDisruption, UnknownConsolidationSearchIsAnError) {
  CliRun run =
      RunKarpenter({"bench", "disruption", "--nodes", "5", "--consolidation-search", "greedy"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("--consolidation-search must be upstream or extended"), std::string::npos)
      << run.err;
}

TEST(CliBenchDisruption, BreakdownAddsUpToTheSteadyStateCost) {
  CliRun run =
      RunKarpenter({"bench", "disruption", "--nodes", "30", "--until-stable", "--breakdown"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const size_t at = run.out.find("  $/h ");
  ASSERT_NE(at, std::string::npos) << run.out;
  double cost = 0, bound = 0, cpu = 0, memory = 0, pods = 0, premium = 0;
  ASSERT_EQ(std::sscanf(run.out.c_str() + at,
                        "  $/h %lf = bound %lf + idle cpu %lf + idle memory %lf + idle pod slots "
                        "%lf + type premium %lf",
                        &cost, &bound, &cpu, &memory, &pods, &premium),
            6)
      << run.out;
  EXPECT_NEAR(bound + cpu + memory + pods + premium, cost, 1e-3);
  EXPECT_GE(cpu, 0);
  EXPECT_GE(memory, 0);
  EXPECT_GE(premium, -1e-6);
  EXPECT_NE(run.out.find("nodes $"), std::string::npos) << run.out;  // the per-type lines
}

TEST(CliBenchDisruption, SameSeedSameCluster) {
  CliRun a = RunKarpenter({"bench", "disruption", "--nodes", "10", "--json", "--seed", "7"});
  CliRun b = RunKarpenter({"bench", "disruption", "--nodes", "10", "--json", "--seed", "7"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  nlohmann::json x = nlohmann::json::parse(a.out, nullptr, false);
  nlohmann::json y = nlohmann::json::parse(b.out, nullptr, false);
  for (const char* timing : {"decisionMillis", "decisionCpuMillis"}) {
    x.erase(timing);
    y.erase(timing);
  }
  for (const char* alone : {"multiNode", "singleNode"}) {
    for (const char* timing : {"millis", "cpuMillis"}) {
      x[alone].erase(timing);
      y[alone].erase(timing);
    }
  }
  EXPECT_EQ(x, y);
}

}  // namespace
}  // namespace karpenter::cli_test
