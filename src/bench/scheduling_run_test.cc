#include "src/bench/scheduling_run.h"

#include <gtest/gtest.h>

namespace karpenter::bench {
namespace {

// A fake clock that advances one second per reading, so the solve "takes" exactly 1 s.
SecondsClock Ticking() {
  auto now = std::make_shared<double>(0);
  return [now] { return (*now)++; };
}

TEST(RunSchedulingBenchmark, TimesTheSolveWithTheGivenClock) {
  absl::StatusOr<SchedulingReport> report = RunSchedulingBenchmark({.pods = 50}, Ticking());
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->workload, "diverse");
  EXPECT_EQ(report->pods, 50);
  EXPECT_EQ(report->instance_types, 400);
  ASSERT_TRUE(report->solve.has_value());
  EXPECT_DOUBLE_EQ(report->solve->seconds, 1.0);
  EXPECT_EQ(report->solve->pods_scheduled + report->solve->unschedulable, 50);
  EXPECT_GT(report->lower_bound_per_hour, 0);
  // Any placement costs at least the fluid bound.
  EXPECT_GE(report->solve->price_per_hour, report->lower_bound_per_hour * 0.999);
}

TEST(RunSchedulingBenchmark, PreferenceWorkloadsFollowThePolicy) {
  absl::StatusOr<SchedulingReport> respect = RunSchedulingBenchmark(
      {.pods = 40, .workload = BenchWorkload::kPreferencesRespect}, Ticking());
  absl::StatusOr<SchedulingReport> ignore = RunSchedulingBenchmark(
      {.pods = 40, .workload = BenchWorkload::kPreferencesIgnore}, Ticking());
  ASSERT_TRUE(respect.ok() && ignore.ok());
  EXPECT_EQ(respect->workload, "preferences-respect");
  EXPECT_EQ(ignore->workload, "preferences-ignore");
  // Respecting hostname anti-affinity preferences spreads the pods over more nodes.
  EXPECT_GT(respect->solve->nodes, ignore->solve->nodes);
}

}  // namespace
}  // namespace karpenter::bench
