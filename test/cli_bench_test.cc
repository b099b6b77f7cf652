// `karpenter bench scheduling` as a user runs it: the JSON contract of issue #3 and figures that
// must hold for any correct solve (never timings).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "test/cli_runner.h"

namespace {

using karpenter::cli_test::CliRun;
using karpenter::cli_test::RunKarpenter;

std::vector<nlohmann::json> JsonLines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    out.push_back(nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false));
  }
  return out;
}

TEST(CliBench, SchedulingJsonCarriesTheContractFieldsPerSize) {
  CliRun run = RunKarpenter({"bench", "scheduling", "--pods", "60,200", "--json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::vector<nlohmann::json> reports = JsonLines(run.out);
  ASSERT_EQ(reports.size(), 2u) << run.out;
  EXPECT_EQ(reports[0]["pods"], 60);
  EXPECT_EQ(reports[1]["pods"], 200);
  for (const nlohmann::json& report : reports) {
    ASSERT_TRUE(report.is_object()) << run.out;
    for (const char* key : {"pods", "nodes", "nodeFloor", "seconds", "podsPerSecond",
                            "pricePerHour", "lowerBoundPerHour", "peakRssMB"}) {
      EXPECT_TRUE(report.contains(key)) << key << " missing in " << report;
    }
    EXPECT_EQ(report["workload"], "diverse");
    EXPECT_EQ(report["unschedulable"], 0) << report;
    // Any placement needs at least the anti-affinity floor of nodes and costs at least the LP
    // bound.
    EXPECT_GE(report["nodes"].get<int64_t>(), report["nodeFloor"].get<int64_t>()) << report;
    EXPECT_GE(report["pricePerHour"].get<double>(),
              report["lowerBoundPerHour"].get<double>() * (1 - 1e-9))
        << report;
    EXPECT_GT(report["lowerBoundPerHour"].get<double>(), 0) << report;
    EXPECT_GT(report["peakRssMB"].get<double>(), 0) << report;
  }
}

TEST(CliBench, PreferencePodsRunUnderBothPolicies) {
  for (const std::string policy : {"respect", "ignore"}) {
    CliRun run =
        RunKarpenter({"bench", "scheduling", "--pods", "40", "--preferences", policy, "--json"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    nlohmann::json report = nlohmann::json::parse(run.out, nullptr, false);
    ASSERT_TRUE(report.is_object()) << run.out;
    EXPECT_EQ(report["workload"], "preferences-" + policy);
    EXPECT_EQ(report["pods"], 40);
  }
}

TEST(CliBench, HostnameSpreadWorkloadGivesEachPodANode) {
  CliRun run = RunKarpenter(
      {"bench", "scheduling", "--pods", "50", "--workload", "hostname-spread", "-o", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json report = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_TRUE(report.is_object()) << run.out;
  EXPECT_EQ(report["workload"], "hostname-spread");
  EXPECT_EQ(report["unschedulable"], 0) << report;
  EXPECT_EQ(report["nodes"], 50) << report;
  CliRun both = RunKarpenter(
      {"bench", "scheduling", "--workload", "hostname-spread", "--preferences", "respect"});
  EXPECT_EQ(both.exit_code, 1) << both.err;
}

// `--catalog` read its file with a plain stream, which waits forever on a FIFO with no writer.
TEST(CliBench, CatalogThatIsAFifoIsRefusedAtOnce) {
  const std::filesystem::path fifo =
      std::filesystem::temp_directory_path() / ("kp_catalog_fifo_" + std::to_string(getpid()));
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  CliRun run = RunKarpenter({"bench", "scheduling", "--pods-file",
                             karpenter::cli_test::SourcePath("examples/article/nodepool.yaml"),
                             "--catalog", fifo.string()});
  std::filesystem::remove(fifo);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("--catalog " + fifo.string() + ": not a regular file"), std::string::npos)
      << run.err;
}

TEST(CliBench, TextIsOneLinePerSize) {
  CliRun run = RunKarpenter({"bench", "scheduling", "--pods", "30"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 1) << run.out;
}

TEST(CliBench, CostPackingIsCheaperAndKeepsTheFloor) {
  CliRun upstream = RunKarpenter({"bench", "scheduling", "--pods", "300", "--json"});
  CliRun cost =
      RunKarpenter({"bench", "scheduling", "--pods", "300", "--packing", "cost", "--json"});
  ASSERT_EQ(upstream.exit_code, 0) << upstream.err;
  ASSERT_EQ(cost.exit_code, 0) << cost.err;
  const nlohmann::json a = nlohmann::json::parse(upstream.out, nullptr, false);
  const nlohmann::json b = nlohmann::json::parse(cost.out, nullptr, false);
  ASSERT_TRUE(a.is_object() && b.is_object()) << upstream.out << cost.out;
  EXPECT_EQ(a["packing"], "upstream");
  EXPECT_EQ(b["packing"], "cost");
  EXPECT_EQ(b["unschedulable"], 0) << b;
  EXPECT_EQ(b["nodes"], b["nodeFloor"]) << b;
  EXPECT_LT(b["pricePerHour"].get<double>(), a["pricePerHour"].get<double>());
  // The floor bound is another valid bound, at least the plain one.
  EXPECT_GE(b["lowerBoundWithFloorPerHour"].get<double>(), b["lowerBoundPerHour"].get<double>());
  EXPECT_GE(b["pricePerHour"].get<double>(),
            b["lowerBoundWithFloorPerHour"].get<double>() * (1 - 1e-9));
}

TEST(CliBench, CreationClaimTiesAreAnOptInThatChangesDecisions) {
  CliRun upstream = RunKarpenter({"bench", "scheduling", "--pods", "300", "--json"});
  CliRun creation =
      RunKarpenter({"bench", "scheduling", "--pods", "300", "--claim-ties", "creation", "--json"});
  ASSERT_EQ(upstream.exit_code, 0) << upstream.err;
  ASSERT_EQ(creation.exit_code, 0) << creation.err;
  const nlohmann::json a = nlohmann::json::parse(upstream.out, nullptr, false);
  const nlohmann::json b = nlohmann::json::parse(creation.out, nullptr, false);
  ASSERT_TRUE(a.is_object() && b.is_object()) << upstream.out << creation.out;
  EXPECT_EQ(a["claimTies"], "upstream");
  EXPECT_EQ(b["claimTies"], "creation");
  EXPECT_NE(a["decisionDigest"], b["decisionDigest"]);
  EXPECT_NE(RunKarpenter({"bench", "scheduling", "--claim-ties", "random"}).exit_code, 0);
}

TEST(CliBench, BreakdownFollowsTheSummaryLine) {
  CliRun run = RunKarpenter({"bench", "scheduling", "--pods", "100", "--breakdown"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("= bound"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("fake-it-"), std::string::npos) << run.out;
}

TEST(CliBench, RejectsBadSizesAndPolicies) {
  EXPECT_NE(RunKarpenter({"bench", "scheduling", "--pods", "0"}).exit_code, 0);
  EXPECT_NE(RunKarpenter({"bench", "scheduling", "--pods", "ten"}).exit_code, 0);
  EXPECT_NE(RunKarpenter({"bench", "scheduling", "--preferences", "maybe"}).exit_code, 0);
  EXPECT_NE(RunKarpenter({"bench", "scheduling", "--packing", "best"}).exit_code, 0);
  EXPECT_NE(RunKarpenter({"bench"}).exit_code, 0);
}

}  // namespace
