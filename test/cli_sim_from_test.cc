// `karpenter sim --from SNAPSHOT`: a user's cluster (examples/sim/snapshot/cluster.yaml, a
// `kubectl get ... -o yaml` List) through both autoscalers, with or without a trace scenario,
// and a bad snapshot refused whole: every problem with its field path, exit 1, nothing written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "test/cli_runner.h"

namespace {

namespace fs = std::filesystem;

using karpenter::cli_test::CliRun;

fs::path TempPath(const std::string& name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return fs::temp_directory_path() /
         ("kp_cli_sim_from_" + std::string(test ? test->name() : "none") + "_" + name);
}

CliRun RunCli(const std::string& args) {
  return karpenter::cli_test::RunKarpenterCommandLine(args);
}

std::string Snapshot() {
  return karpenter::cli_test::SourcePath("examples/sim/snapshot/cluster.yaml");
}

TEST(CliSimFrom, RunsTheSnapshotsClusterThroughBothAutoscalers) {
  CliRun run = RunCli("sim --from " + Snapshot() + " --duration 10m --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json json = nlohmann::json::parse(run.out);
  for (const char* autoscaler : {"karpenter", "cluster-autoscaler"}) {
    const nlohmann::json& block = json["autoscalers"][autoscaler];
    // Three nodes in the snapshot, and more for the web pods that no longer fit them.
    EXPECT_GT(block["nodes"]["max"].get<int>(), 3) << autoscaler;
    EXPECT_EQ(block["unschedulablePods"], 0) << autoscaler;
    EXPECT_EQ(block["podSets"]["workload"]["pods"], 10) << autoscaler;
    EXPECT_GE(block["podSets"]["workload"]["waitedForCapacity"]["pods"].get<int>(), 1);
  }
}

// The Auto Scaling groups' bounds hold Cluster Autoscaler: `general` may grow by one node only,
// so some web pods stay pending; Karpenter's NodePool has no such bound.
TEST(CliSimFrom, TheAutoScalingGroupsBoundTheNodeGroups) {
  CliRun run = RunCli("sim --from " + Snapshot() + " --asgs " +
                      karpenter::cli_test::SourcePath("examples/sim/snapshot/asgs.json") +
                      " --duration 10m --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json json = nlohmann::json::parse(run.out);
  const nlohmann::json& ca = json["autoscalers"]["cluster-autoscaler"];
  EXPECT_EQ(ca["nodes"]["max"], 4);
  EXPECT_GE(ca["unschedulablePods"].get<int>(), 1);
  EXPECT_EQ(json["autoscalers"]["karpenter"]["unschedulablePods"], 0);
  const fs::path bad = TempPath("asgs.json");
  {
    std::ofstream out(bad);
    out << R"({"AutoScalingGroups": [{"AutoScalingGroupName": "g", "MinSize": -1, "MaxSize": 2}]})";
  }
  CliRun refused = RunCli("sim --from " + Snapshot() + " --asgs " + bad.string() + " --json");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.out, "");
  EXPECT_NE(refused.err.find(bad.string() + ": AutoScalingGroups[0].MinSize: "), std::string::npos)
      << refused.err;
}

TEST(CliSimFrom, TakesTheScenarioFileAsTheWorkloadTrace) {
  const fs::path trace = TempPath("trace.yaml");
  {
    std::ofstream out(trace);
    out << "name: web-peak\ndurationSeconds: 600\nzones: [us-east-1a]\nsteps:\n"
           "  - {at: 120, scale: {deployment: default/web, replicas: 16}, note: peak}\n";
  }
  CliRun run = RunCli("sim " + trace.string() + " --from " + Snapshot() + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["simulatedSeconds"], 600);
  EXPECT_EQ(json["autoscalers"]["karpenter"]["podSets"]["workload"]["pods"], 16);
}

TEST(CliSimFrom, ABadSnapshotFailsWithFieldPathsAndWritesNothing) {
  const fs::path bad = TempPath("bad.yaml");
  {
    std::ofstream out(bad);
    out << "apiVersion: v1\nkind: List\nitems:\n"
           "  - {apiVersion: v1, kind: Node, metadata: {name: n1, labels: "
           "{node.kubernetes.io/instance-type: m6i.large, topology.kubernetes.io/zone: "
           "us-east-1a}}}\n";
  }
  const fs::path report = TempPath("report.html");
  fs::remove(report);
  CliRun run = RunCli("sim --from " + bad.string() + " --report " + report.string() + " --json");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_FALSE(fs::exists(report));
  EXPECT_NE(run.err.find(bad.string() + ": Node/n1: metadata.labels[eks.amazonaws.com/nodegroup]: "
                                        "required"),
            std::string::npos)
      << run.err;
  CliRun missing = RunCli("sim --from /nonexistent/snapshot.yaml");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("/nonexistent/snapshot.yaml: "), std::string::npos) << missing.err;
}

// The snapshot's region comes from its nodes' zones: the example moved to eu-west-1 runs there,
// at eu-west-1's zones and price level, and a --region or trace naming another region is refused.
TEST(CliSimFrom, RunsTheSnapshotInItsOwnRegion) {
  CliRun flag = RunCli("sim --from " + Snapshot() + " --region eu-west-1 --duration 10m --json");
  EXPECT_EQ(flag.exit_code, 1);
  EXPECT_NE(flag.err.find("--region eu-west-1 disagrees with the input: Node/"), std::string::npos)
      << flag.err;
  std::string text;
  {
    std::ifstream in(Snapshot());
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  for (size_t at = text.find("us-east-1"); at != std::string::npos;
       at = text.find("us-east-1", at)) {
    text.replace(at, 9, "eu-west-1");
  }
  const fs::path eu_snapshot = TempPath("eu.yaml");
  std::ofstream(eu_snapshot) << text;
  const fs::path events = TempPath("eu.events");
  CliRun eu = RunCli("sim --from " + eu_snapshot.string() + " --duration 10m --json --events " +
                     events.string());
  ASSERT_EQ(eu.exit_code, 0) << eu.err;
  CliRun us = RunCli("sim --from " + Snapshot() + " --duration 10m --json");
  ASSERT_EQ(us.exit_code, 0) << us.err;
  const nlohmann::json eu_json = nlohmann::json::parse(eu.out);
  const nlohmann::json us_json = nlohmann::json::parse(us.out);
  // The same decisions at eu-west-1's higher on-demand level.
  EXPECT_EQ(eu_json["autoscalers"]["karpenter"]["nodes"],
            us_json["autoscalers"]["karpenter"]["nodes"]);
  EXPECT_GT(eu_json["autoscalers"]["karpenter"]["costPerHour"]["final"].get<double>(),
            us_json["autoscalers"]["karpenter"]["costPerHour"]["final"].get<double>() * 1.05);
  std::ifstream lines(events);
  int zones = 0;
  for (std::string line; std::getline(lines, line);) {
    const size_t at = line.find("\"zone\":\"");
    if (at == std::string::npos) continue;
    ++zones;
    EXPECT_EQ(line.compare(at + 8, 9, "eu-west-1"), 0) << line;
  }
  EXPECT_GT(zones, 0);
  const fs::path trace = TempPath("trace.yaml");
  std::ofstream(trace) << "name: t\nregion: us-east-1\ndurationSeconds: 600\nzones: [us-east-1a]\n";
  CliRun mismatch = RunCli("sim " + trace.string() + " --from " + eu_snapshot.string() + " --json");
  EXPECT_EQ(mismatch.exit_code, 1);
  EXPECT_NE(mismatch.err.find(trace.string() +
                              ": region: \"us-east-1\" disagrees with the snapshot, which is in "
                              "eu-west-1"),
            std::string::npos)
      << mismatch.err;
  EXPECT_EQ(RunCli("sim --region us-east-1 --duration 10m").exit_code, 1);
}

}  // namespace
