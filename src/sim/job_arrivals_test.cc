#include "src/sim/job_arrivals.h"

#include <gtest/gtest.h>

#include "fmt/format.h"
#include "src/sim/runner.h"
#include "src/sim/scenario_file.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::EventLines;

JobArrivals Process(double from, double to, double rate) {
  JobArrivals arrivals;
  arrivals.from_seconds = from;
  arrivals.to_seconds = to;
  arrivals.rate_per_hour = rate;
  arrivals.job.metadata.name = "ci";
  arrivals.job.metadata.namespace_ = "default";
  arrivals.job.spec.template_ = testing::MakeDeployment("ci", 1, "1", "1Gi").spec.template_;
  return arrivals;
}

TEST(JobArrivals, APoissonProcessInsideItsWindow) {
  // 360 an hour for 10,000 s: 1,000 expected, gaps of 10 s on average.
  const std::vector<SimMillis> times = ArrivalTimes(Process(500, 10500, 360), 1, 0);
  ASSERT_GT(times.size(), 900u);
  ASSERT_LT(times.size(), 1100u);
  EXPECT_GE(times.front(), 500000);
  EXPECT_LT(times.back(), 10500000);
  EXPECT_TRUE(std::is_sorted(times.begin(), times.end()));
  // Exponential gaps: about e^-1 of them exceed the mean.
  size_t long_gaps = 0;
  for (size_t i = 1; i < times.size(); ++i) long_gaps += times[i] - times[i - 1] > 10000;
  const double share = static_cast<double>(long_gaps) / static_cast<double>(times.size() - 1);
  EXPECT_GT(share, 0.30);
  EXPECT_LT(share, 0.44);
}

TEST(JobArrivals, TheSeedAndTheProcessIndexPickTheStream) {
  const JobArrivals process = Process(0, 3600, 30);
  EXPECT_EQ(ArrivalTimes(process, 1, 0), ArrivalTimes(process, 1, 0));
  EXPECT_NE(ArrivalTimes(process, 1, 0), ArrivalTimes(process, 2, 0));
  EXPECT_NE(ArrivalTimes(process, 1, 0), ArrivalTimes(process, 1, 1));
}

TEST(JobArrivals, EachArrivalAppliesANumberedCopyOfTheJob) {
  testing::World world;
  JobArrivals only_ca = Process(0, 3600, 30);
  only_ca.only = Autoscaler::kClusterAutoscaler;
  const std::vector<JobArrivals> processes = {Process(0, 3600, 30), only_ca};
  ScheduleJobArrivals(processes, 5, Autoscaler::kKarpenter, world.cluster);
  const std::vector<SimMillis> times = ArrivalTimes(processes[0], 5, 0);
  ASSERT_GE(times.size(), 2u);
  world.queue.RunUntil(times[1]);
  const std::vector<std::string> applied = EventLines(world.log, "JobApplied");
  ASSERT_EQ(applied.size(), 2u);  // the second process is Cluster Autoscaler's only
  EXPECT_NE(applied[0].find("\"job\":\"default/ci-1\""), std::string::npos) << applied[0];
  EXPECT_NE(applied[1].find("\"job\":\"default/ci-2\""), std::string::npos) << applied[1];
  EXPECT_NE(applied[0].find(fmt::format("\"t\":{:.3f}", MillisToSeconds(times[0]))),
            std::string::npos)
      << applied[0];
}

constexpr char kScenario[] = R"yaml(
name: arrivals
durationSeconds: 1800
zones: [us-east-1a]
autoscalers: [cluster-autoscaler]
nodeGroups:
  - {name: general, instanceType: m6i.2xlarge, maxSize: 4, initialSize: 1}
arrivals:
  - from: 60
    to: 1800
    ratePerHour: 20
    job: |
      apiVersion: batch/v1
      kind: Job
      metadata: {name: ci, namespace: default, annotations: {sim.karpenter.sh/run-seconds: "120"}}
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [{name: r, image: runner, resources: {requests: {cpu: "1"}}}]
)yaml";

std::vector<std::string> RunEvents(const Scenario& scenario, uint64_t seed) {
  EventLog log(true);
  absl::StatusOr<SimReport> report =
      RunScenario(scenario, seed, testing::TestCatalog(), log, nullptr);
  EXPECT_TRUE(report.ok()) << report.status();
  return log.lines();
}

TEST(JobArrivals, ScenarioFilesDeclareThemAndTheSeedDecides) {
  absl::StatusOr<Scenario> scenario = ParseScenario(kScenario, "s.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  ASSERT_EQ(scenario->arrivals.size(), 1u);
  EXPECT_EQ(scenario->arrivals[0].job.metadata.name, "ci");
  EXPECT_EQ(scenario->arrivals[0].rate_per_hour, 20);
  const std::vector<std::string> first = RunEvents(*scenario, 1);
  EXPECT_EQ(first, RunEvents(*scenario, 1));
  EXPECT_NE(first, RunEvents(*scenario, 2));
  size_t succeeded = 0;
  for (const std::string& line : first) succeeded += line.find("PodSucceeded") != line.npos;
  EXPECT_GT(succeeded, 0u);
}

TEST(JobArrivals, BadValuesAreReportedWithTheirPath) {
  std::string yaml = kScenario;
  yaml.replace(yaml.find("ratePerHour: 20"), 15, "ratePerHour: 0");
  yaml.replace(yaml.find("to: 1800"), 8, "to: 30");
  yaml.replace(yaml.find("kind: Job"), 9, "kind: Deployment");
  absl::StatusOr<Scenario> bad = ParseScenario(yaml, "s.yaml");
  ASSERT_FALSE(bad.ok());
  const std::string errors(bad.status().message());
  EXPECT_NE(errors.find("s.yaml: arrivals[0].ratePerHour: must be positive"), errors.npos)
      << errors;
  EXPECT_NE(errors.find("s.yaml: arrivals[0].to: must follow from"), errors.npos) << errors;
  EXPECT_NE(errors.find("s.yaml: arrivals[0].job"), errors.npos) << errors;

  std::string flood = kScenario;
  flood.replace(flood.find("ratePerHour: 20"), 15, "ratePerHour: 1e9");
  bad = ParseScenario(flood, "s.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("arrivals[0].ratePerHour: expects more than"),
            std::string::npos)
      << bad.status();
}

}  // namespace
}  // namespace karpenter::sim
