// The 1,000-node day (examples/sim/day-1000-nodes.yaml) scaled down so that it stays fast under
// ASan: the same Deployments, Jobs, DaemonSets, node groups and daily curve, with every replica
// count, parallelism and completion count divided by 100 (at least 1) and the day compressed
// into one simulated hour (a trace hour is 150 s; node and autoscaler latencies are unchanged).
#include <algorithm>
#include <cmath>
#include <string>

#include "gtest/gtest.h"
#include "src/sim/runner.h"
#include "src/sim/scenario_file.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

constexpr int kScaleDown = 100;
constexpr double kTimeScale = 24;  // 24 h -> 1 h

int32_t Scaled(int32_t count) { return std::max<int32_t>(1, count / kScaleDown); }

absl::StatusOr<Scenario> LoadDay() {
  return LoadScenarioFile(std::string(KP_SOURCE_DIR) + "/examples/sim/day-1000-nodes.yaml");
}

Scenario ScaledDown(Scenario scenario) {
  scenario.duration_seconds /= kTimeScale;
  for (Step& step : scenario.steps) {
    step.at_seconds /= kTimeScale;
    if (step.kind == StepKind::kScale) step.replicas = Scaled(step.replicas);
    for (api::Object& object : step.objects) {
      if (auto* deployment = std::get_if<api::Deployment>(&object)) {
        deployment->spec.replicas = Scaled(deployment->spec.replicas.value_or(1));
      }
      if (auto* job = std::get_if<api::Job>(&object)) {
        job->spec.parallelism = Scaled(job->spec.parallelism.value_or(1));
        job->spec.completions = Scaled(job->spec.completions.value_or(1));
      }
    }
  }
  return scenario;
}

// The run's sample at `hour` of the compressed day (samples are every 10 s from 0).
const ClusterSample& SampleAt(const RunResult& run, double hour) {
  const double seconds = hour * 3600 / kTimeScale;
  auto it =
      std::lower_bound(run.samples.begin(), run.samples.end(), seconds,
                       [](const ClusterSample& sample, double at) { return sample.seconds < at; });
  return it == run.samples.end() ? run.samples.back() : *it;
}

TEST(DayShape, ShippedDayParsesWithItsShape) {
  absl::StatusOr<Scenario> day = LoadDay();
  ASSERT_TRUE(day.ok()) << day.status();
  EXPECT_EQ(day->duration_seconds, 86400);
  EXPECT_EQ(day->autoscalers.size(), 2u);
  // Room for the peak in Cluster Autoscaler's groups: more than 1,000 nodes together.
  int max_nodes = 0;
  for (const NodeGroup& group : day->node_groups) {
    if (group.autoscaled) max_nodes += group.max_size;
  }
  EXPECT_GT(max_nodes, 1000);
  // The Deployments' replicas at the daytime peak: about 19,000 pods.
  std::map<std::string, int> replicas;
  int peak = 0;
  for (const Step& step : day->steps) {
    if (step.kind == StepKind::kScale) replicas[step.target] = step.replicas;
    for (const api::Object& object : step.objects) {
      if (const auto* deployment = std::get_if<api::Deployment>(&object)) {
        replicas["shop/" + deployment->metadata.name] = deployment->spec.replicas.value_or(1);
      }
    }
    int total = 0;
    for (const auto& [name, count] : replicas) total += count;
    peak = std::max(peak, total);
  }
  EXPECT_EQ(replicas.size(), 5u);
  EXPECT_GE(peak, 18000);
  EXPECT_LE(peak, 20000);
}

// Both autoscalers follow the day: the cluster at the 13:00 peak is at least twice the one of
// the 04:00 trough, and shrinks again by midnight; every pod is running at the peak and at the
// end; and Karpenter, free to pick spot and right-sized types, costs less over the day.
TEST(DayShape, ScaledDownDayGrowsByDayAndShrinksByNightWithBothAutoscalers) {
  absl::StatusOr<Scenario> day = LoadDay();
  ASSERT_TRUE(day.ok()) << day.status();
  const Scenario scenario = ScaledDown(*std::move(day));
  EventLog log(/*enabled=*/false);
  absl::StatusOr<SimReport> report = RunScenario(scenario, 1, testing::TestCatalog(), log);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->runs.size(), 2u);
  for (const RunResult& run : report->runs) {
    SCOPED_TRACE(std::string(AutoscalerName(run.autoscaler)));
    const ClusterSample& trough = SampleAt(run, 4);
    const ClusterSample& peak = SampleAt(run, 13);
    const ClusterSample& end = run.samples.back();
    EXPECT_GE(peak.nodes, 2 * trough.nodes);
    EXPECT_LT(end.nodes, peak.nodes);
    EXPECT_EQ(peak.pending_pods, 0u);
    EXPECT_EQ(run.unschedulable_pods, 0u);
    EXPECT_GT(run.pods_measured, 0u);
  }
  EXPECT_LT(report->runs[0].cost_per_hour_mean, report->runs[1].cost_per_hour_mean);
}

}  // namespace
}  // namespace karpenter::sim
