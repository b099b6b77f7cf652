#include "src/sim/report.h"

#include <gtest/gtest.h>

#include <new>
#include <utility>
#include <vector>

#include "src/sim/builtin_scenario.h"
#include "src/sim/runner.h"
#include "src/sim/scenario_file.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

TEST(RunOrOutOfMemory, TurnsBadAllocIntoAnErrorNamingTheRun) {
  // A run's own thread would call std::terminate on an escaping std::bad_alloc.
  absl::StatusOr<RunResult> result =
      RunOrOutOfMemory(Autoscaler::kClusterAutoscaler, []() -> absl::StatusOr<RunResult> {
        std::__throw_bad_alloc();  // what a failed allocation raises, without a `throw` here
      });
  EXPECT_EQ(result.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(result.status().message(),
            "the cluster-autoscaler run ran out of memory: the scenario asks for more than this "
            "machine has");
  EXPECT_TRUE(RunOrOutOfMemory(Autoscaler::kKarpenter, [] {
                return absl::StatusOr<RunResult>(RunResult{});
              }).ok());
}

TEST(ComputePercentiles, UsesNearestRank) {
  const Percentiles p = ComputePercentiles({5, 1, 4, 2, 3, 6, 7, 8, 9, 10});
  EXPECT_EQ(p.p50, 5);
  EXPECT_EQ(p.p95, 10);
  EXPECT_EQ(p.max, 10);
  const Percentiles none = ComputePercentiles({});
  EXPECT_EQ(none.p50, 0);
  EXPECT_EQ(none.max, 0);
}

TEST(EncodeReportJson, FollowsTheDesignShapeWithRoundedNumbers) {
  SimReport report;
  report.seed = 9;
  report.simulated_seconds = 2700;
  RunResult karpenter;
  karpenter.pod_pending_seconds = {52.6394, 54.1, 60};
  karpenter.node_ready_seconds = {50.25, 58};
  karpenter.cost_per_hour_mean = 1.90764;
  karpenter.cost_per_hour_final = 2;
  karpenter.nodes_max = 9;
  karpenter.nodes_final = 8;
  karpenter.evictions = 20;
  karpenter.by_capacity_type["on-demand"] = {1.78418, 1.9, 7, 7};
  karpenter.by_capacity_type["spot"] = {0.12346, 0.1, 2, 1};
  PodSetResult& workload = karpenter.pod_sets[static_cast<size_t>(PodSet::kWorkload)];
  workload.pods = 10;
  workload.pending_seconds = {1.0004, 52.6394, 60};
  workload.waited_pods = 2;
  workload.waited_pending_seconds = {52.6394, 60, 60};
  karpenter.pod_sets[static_cast<size_t>(PodSet::kMigration)].evictions = 20;
  RunResult ca = karpenter;
  ca.autoscaler = Autoscaler::kClusterAutoscaler;
  ca.unschedulable_pods = 3;
  report.runs = {karpenter, ca};
  const std::string json = EncodeReportJson(report, 0.5);
  // docs/contracts.md's fields in its order, each block widened by the capacity-type split.
  EXPECT_EQ(
      json.rfind("{\"autoscalers\":{\"karpenter\":{\"podPendingSeconds\":{\"p50\":52.639,\"p95\":"
                 "54.1,\"max\":60},\"nodeReadySeconds\":{\"p50\":50.25,\"p95\":58},"
                 "\"costPerHour\":{\"mean\":1.9076,\"final\":2,\"byCapacityType\":{\"on-demand\":"
                 "{\"mean\":1.7842,\"final\":1.9},\"spot\":{\"mean\":0.1235,\"final\":0.1}}},"
                 "\"nodes\":{\"max\":9,\"final\":8,\"byCapacityType\":{\"on-demand\":{\"max\":7,"
                 "\"final\":7},\"spot\":{\"max\":2,\"final\":1}}},\"evictions\":20,"
                 "\"unschedulablePods\":0,\"podSets\":{\"workload\":{\"pods\":10,"
                 "\"pendingSeconds\":{\"p50\":1,\"p95\":52.639,\"max\":60},\"evictions\":0,"
                 "\"waitedForCapacity\":{\"pods\":2,\"pendingSeconds\":{\"p50\":52.639,\"p95\":60,"
                 "\"max\":60}}},\"migration\":{\"pods\":0,\"pendingSeconds\":{\"p50\":0,\"p95\":0,"
                 "\"max\":0},\"evictions\":20,",
                 0),
      0u)
      << json;
  EXPECT_NE(json.find("\"interruption\":{\"pods\":0,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"unschedulablePods\":3,\"podSets\":{"), std::string::npos) << json;
  EXPECT_TRUE(
      json.ends_with("\"max\":0}}}}}},\"simulatedSeconds\":2700,\"wallSeconds\":0.5,\"seed\":9}"))
      << json;
}

TEST(RunScenario, SameSeedSameResultAndStepsRunOnlyWhereAsked) {
  absl::StatusOr<Scenario> scenario = ParseScenario(R"yaml(
name: t
durationSeconds: 400
zones: [us-east-1a]
nodeGroups:
  - {name: general, instanceType: c6i.2xlarge, maxSize: 5}
steps:
  - at: 10
    apply: |
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: default}
      spec:
        replicas: 3
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers: [{name: web, image: nginx, resources: {requests: {cpu: "3"}}}]
  - {at: 200, only: karpenter, drainNodeGroup: general}
)yaml",
                                                    "t.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  scenario->autoscalers = {Autoscaler::kClusterAutoscaler};
  EventLog log_a(true);
  EventLog log_b(true);
  absl::StatusOr<SimReport> a = RunScenario(*scenario, 5, testing::TestCatalog(), log_a);
  absl::StatusOr<SimReport> b = RunScenario(*scenario, 5, testing::TestCatalog(), log_b);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(EncodeReportJson(*a, 0), EncodeReportJson(*b, 0));
  EXPECT_EQ(log_a.lines(), log_b.lines());
  const RunResult& run = a->runs.front();
  EXPECT_EQ(run.pods_measured, 3u);
  EXPECT_EQ(run.nodes_final, 2u);  // the Karpenter-only drain did not run
  EXPECT_EQ(run.evictions, 0);
  EXPECT_GT(run.pod_pending_seconds.p50, 55);
}

// The built-in scenario's two runs on threads of their own report and log exactly what they
// report and log one after the other, and the one progress line only moves forward.
TEST(RunScenario, ParallelRunsMatchSequentialOnes) {
  absl::StatusOr<Scenario> scenario = BuiltinScenario();
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  scenario->duration_seconds = 900;
  ASSERT_EQ(scenario->autoscalers.size(), 2u);
  EventLog parallel_log(true);
  EventLog sequential_log(true);
  std::vector<std::pair<Autoscaler, SimMillis>> progress;
  absl::StatusOr<SimReport> parallel = RunScenario(
      *scenario, 3, testing::TestCatalog(), parallel_log,
      [&](Autoscaler autoscaler, SimMillis now, SimMillis) {
        progress.emplace_back(autoscaler, now);
      },
      RunMode::kParallel);
  absl::StatusOr<SimReport> sequential =
      RunScenario(*scenario, 3, testing::TestCatalog(), sequential_log, {}, RunMode::kSequential);
  ASSERT_TRUE(parallel.ok() && sequential.ok());
  EXPECT_EQ(EncodeReportJson(*parallel, 0), EncodeReportJson(*sequential, 0));
  ASSERT_FALSE(sequential_log.lines().empty());
  EXPECT_EQ(parallel_log.lines(), sequential_log.lines());
  for (size_t i = 0; i < parallel->runs.size(); ++i) {
    EXPECT_EQ(parallel->runs[i].timeline.size(), sequential->runs[i].timeline.size());
  }
  ASSERT_FALSE(progress.empty());
  for (size_t i = 1; i < progress.size(); ++i) {
    EXPECT_LE(progress[i - 1].second, progress[i].second) << "report " << i;
  }
  EXPECT_EQ(progress.back().second, SecondsToMillis(900));
}

// The sets compare like with like: the workload steps make the same pods in both runs, and
// only Karpenter's run has the operator's Phase 4 drain and so migration pods.
TEST(RunScenario, TheBuiltinScenariosPodSetsMatchAcrossRuns) {
  absl::StatusOr<Scenario> scenario = BuiltinScenario();
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  scenario->duration_seconds = 900;
  EventLog log(false);
  absl::StatusOr<SimReport> report = RunScenario(*scenario, 1, testing::TestCatalog(), log);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->runs.size(), 2u);
  const RunResult& karpenter = report->runs[0];
  const RunResult& ca = report->runs[1];
  ASSERT_EQ(karpenter.autoscaler, Autoscaler::kKarpenter);
  auto set = [](const RunResult& run, PodSet which) {
    return run.pod_sets[static_cast<size_t>(which)];
  };
  EXPECT_GT(set(karpenter, PodSet::kWorkload).pods, 0u);
  EXPECT_EQ(set(karpenter, PodSet::kWorkload).pods, set(ca, PodSet::kWorkload).pods);
  EXPECT_GT(set(karpenter, PodSet::kMigration).evictions, 0);
  EXPECT_EQ(set(karpenter, PodSet::kMigration).pods,
            static_cast<size_t>(set(karpenter, PodSet::kMigration).evictions));
  EXPECT_EQ(set(ca, PodSet::kMigration).pods, 0u);
  // Every eviction (the operator's drain and Karpenter's disruption alike) is in some set.
  int64_t in_sets = 0;
  for (PodSet which : kPodSets) in_sets += set(karpenter, which).evictions;
  EXPECT_EQ(in_sets, karpenter.evictions);
}

RunResult TableRun(Autoscaler autoscaler, double waited_p50, double cost_mean) {
  RunResult run;
  run.autoscaler = autoscaler;
  PodSetResult& workload = run.pod_sets[static_cast<size_t>(PodSet::kWorkload)];
  workload.pods = 100;
  workload.waited_pods = 20;
  workload.waited_pending_seconds = {waited_p50, waited_p50 + 10, waited_p50 + 20};
  run.cost_per_hour_mean = cost_mean;
  run.by_capacity_type["on-demand"] = {cost_mean, cost_mean, 3, 2};
  return run;
}

TEST(RenderReportText, AddsADeltaColumnAndAVerdictForTwoRuns) {
  SimReport report;
  report.runs = {TableRun(Autoscaler::kKarpenter, 50, 2),
                 TableRun(Autoscaler::kClusterAutoscaler, 150, 5)};
  const std::string text = RenderReportText(report, 0);
  EXPECT_NE(text.find("delta"), std::string::npos) << text;
  EXPECT_NE(text.find("-100.0 / -100.0"), std::string::npos) << text;  // waited p50 / p95
  EXPECT_NE(text.find("  on-demand"), std::string::npos) << text;
  EXPECT_NE(text.find("Verdict: karpenter's workload pods that waited for capacity (20 of 100) "
                      "waited p50 50.0 s against 150.0 s (20 of 100) under cluster-autoscaler "
                      "(3.0x faster), at a mean $2.00/h against $5.00/h (2.5x cheaper).\n"),
            std::string::npos)
      << text;
  // One run: nothing to compare.
  report.runs.pop_back();
  EXPECT_EQ(RenderReportText(report, 0).find("delta"), std::string::npos);
  EXPECT_EQ(ReportVerdict(report), "");
}

TEST(ReportVerdict, SaysSlowerAndDearerWhenTheFirstLoses) {
  SimReport report;
  report.runs = {TableRun(Autoscaler::kKarpenter, 100, 6),
                 TableRun(Autoscaler::kClusterAutoscaler, 50, 3)};
  const std::string verdict = ReportVerdict(report);
  EXPECT_NE(verdict.find("(2.0x slower)"), std::string::npos) << verdict;
  EXPECT_NE(verdict.find("(2.0x dearer)"), std::string::npos) << verdict;
}

}  // namespace
}  // namespace karpenter::sim
