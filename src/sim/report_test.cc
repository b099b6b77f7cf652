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
  RunResult ca = karpenter;
  ca.autoscaler = Autoscaler::kClusterAutoscaler;
  ca.unschedulable_pods = 3;
  report.runs = {karpenter, ca};
  EXPECT_EQ(
      EncodeReportJson(report, 0.5),
      "{\"autoscalers\":{\"karpenter\":{\"podPendingSeconds\":{\"p50\":52.639,\"p95\":54.1,"
      "\"max\":60},\"nodeReadySeconds\":{\"p50\":50.25,\"p95\":58},\"costPerHour\":{\"mean\":"
      "1.9076,\"final\":2},\"nodes\":{\"max\":9,\"final\":8},\"evictions\":20,"
      "\"unschedulablePods\":0},\"cluster-autoscaler\":{\"podPendingSeconds\":{\"p50\":52.639,"
      "\"p95\":54.1,\"max\":60},\"nodeReadySeconds\":{\"p50\":50.25,\"p95\":58},\"costPerHour\":"
      "{\"mean\":1.9076,\"final\":2},\"nodes\":{\"max\":9,\"final\":8},\"evictions\":20,"
      "\"unschedulablePods\":3}},\"simulatedSeconds\":2700,\"wallSeconds\":0.5,\"seed\":9}");
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

}  // namespace
}  // namespace karpenter::sim
