#include "src/sim/report_html.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "fmt/format.h"
#include "src/sim/report.h"
#include "src/sim/scenario_file.h"
#include "src/sim/sim_test_util.h"
#include "src/sim/svg_chart.h"

namespace karpenter::sim {
namespace {

constexpr char kScenario[] = R"yaml(
name: burst
durationSeconds: 400
zones: [us-east-1a]
nodeGroups:
  - {name: general, instanceType: c6i.2xlarge, maxSize: 5}
manifests: |
  apiVersion: karpenter.k8s.aws/v1
  kind: EC2NodeClass
  metadata: {name: default}
  spec:
    amiSelectorTerms: [{alias: al2023@latest}]
    role: KarpenterNodeRole
    subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
    securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
  ---
  apiVersion: karpenter.sh/v1
  kind: NodePool
  metadata: {name: default}
  spec:
    template:
      spec:
        nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
        requirements: []
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
)yaml";

SimReport RunBurst(uint64_t seed) {
  absl::StatusOr<Scenario> scenario = ParseScenario(kScenario, "burst.yaml");
  EXPECT_TRUE(scenario.ok()) << scenario.status();
  EventLog log(false);
  absl::StatusOr<SimReport> report = RunScenario(*scenario, seed, testing::TestCatalog(), log);
  EXPECT_TRUE(report.ok()) << report.status();
  return *report;
}

TEST(TimelineLaneOf, SortsDecisionsIntoLanes) {
  EXPECT_EQ(TimelineLaneOf("NodeClaimCreated"), TimelineLane::kScaleUp);
  EXPECT_EQ(TimelineLaneOf("ScaleUp"), TimelineLane::kScaleUp);
  EXPECT_EQ(TimelineLaneOf("SetDesiredCapacity"), TimelineLane::kLaunch);
  EXPECT_EQ(TimelineLaneOf("NodeReady"), TimelineLane::kReady);
  EXPECT_EQ(TimelineLaneOf("ScaleDown"), TimelineLane::kScaleDown);
  EXPECT_EQ(TimelineLaneOf("NodeClaimExpired"), TimelineLane::kScaleDown);
  EXPECT_EQ(TimelineLaneOf("ScalingActivityFailed"), TimelineLane::kFault);
  EXPECT_EQ(TimelineLaneOf("NodeClaimLaunchTimeout"), TimelineLane::kFault);
  EXPECT_EQ(TimelineLaneOf("PodBound"), std::nullopt);
}

TEST(RunScenario, SamplesEveryTenSimulatedSecondsAndKeepsTheTimeline) {
  const SimReport report = RunBurst(3);
  ASSERT_EQ(report.runs.size(), 2u);
  for (const RunResult& run : report.runs) {
    SCOPED_TRACE(AutoscalerName(run.autoscaler));
    ASSERT_EQ(run.samples.size(), 41u);
    EXPECT_EQ(run.samples.front().seconds, 0);
    EXPECT_EQ(run.samples[1].seconds, 10);
    EXPECT_EQ(run.samples.back().seconds, 400);
    EXPECT_EQ(run.samples.back().nodes, run.nodes_final);
    EXPECT_DOUBLE_EQ(run.samples.back().cost_per_hour, run.cost_per_hour_final);
    size_t most_pending = 0;
    for (const ClusterSample& s : run.samples)
      most_pending = std::max(most_pending, s.pending_pods);
    EXPECT_GE(most_pending, 1u);  // the burst waited for capacity
    EXPECT_EQ(run.pod_pending_samples.size(), run.pods_measured);
    EXPECT_TRUE(std::is_sorted(run.pod_pending_samples.begin(), run.pod_pending_samples.end()));
    const auto ready = std::count_if(run.timeline.begin(), run.timeline.end(),
                                     [](auto& mark) { return mark.lane == TimelineLane::kReady; });
    EXPECT_EQ(static_cast<size_t>(ready), run.nodes_launched);
    EXPECT_GE(std::count_if(run.timeline.begin(), run.timeline.end(),
                            [](auto& mark) { return mark.lane == TimelineLane::kScaleUp; }),
              1);
  }
}

// The samples carry eks-node-viewer's breakdowns: every billed node once by capacity type and
// once by instance type, and the bound requests within the registered nodes' allocatable.
TEST(RunScenario, SamplesBreakNodesDownAndMeasureUtilisation) {
  const SimReport report = RunBurst(3);
  for (const RunResult& run : report.runs) {
    SCOPED_TRACE(AutoscalerName(run.autoscaler));
    bool used = false;
    for (const ClusterSample& s : run.samples) {
      size_t by_capacity = 0, by_type = 0;
      for (const auto& [type, count] : s.nodes_by_capacity_type) by_capacity += count;
      for (const auto& [type, count] : s.nodes_by_instance_type) by_type += count;
      EXPECT_EQ(by_capacity, s.nodes);
      EXPECT_EQ(by_type, s.nodes);
      EXPECT_LE(s.cpu_requested, s.cpu_allocatable + 1e-9);
      EXPECT_LE(s.memory_requested, s.memory_allocatable + 1e-9);
      used = used || s.cpu_requested >= 9;  // the three 3-CPU replicas, bound
    }
    EXPECT_TRUE(used);
  }
  // Cluster Autoscaler's only group is c6i.2xlarge on-demand.
  const ClusterSample& last = report.runs[1].samples.back();
  EXPECT_EQ(last.nodes_by_capacity_type.begin()->first, "on-demand");
  EXPECT_EQ(last.nodes_by_instance_type.begin()->first, "c6i.2xlarge");
}

TEST(RunScenario, CarriesTheScenariosDescriptionStepsAndFaults) {
  absl::StatusOr<Scenario> scenario = ParseScenario(kScenario, "burst.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  scenario->description = "a burst";
  scenario->steps.front().note = "Phase 3: deploy web";
  scenario->faults.push_back({.instance_type = "c6i.2xlarge",
                              .capacity_type = "on-demand",
                              .from_seconds = 100,
                              .to_seconds = 900});
  EventLog log(false);
  absl::StatusOr<SimReport> report = RunScenario(*scenario, 1, testing::TestCatalog(), log);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->description, "a burst");
  ASSERT_EQ(report->steps.size(), 1u);
  EXPECT_EQ(report->steps[0].label, "Phase 3: deploy web");
  ASSERT_EQ(report->faults.size(), 1u);
  EXPECT_EQ(report->faults[0].to_seconds, 400);  // clipped to the run
  const std::string html = RenderReportHtml(*report);
  EXPECT_NE(html.find("<p class=\"description\">a burst</p>"), std::string::npos);
  // Every time chart (three, four breakdowns, utilisation, two timelines) has the step and the
  // shaded fault; the CDF, which is not over time, has neither.
  size_t marked = 0, shaded = 0;
  for (size_t at = html.find("<title>Phase 3: deploy web</title>"); at != std::string::npos;
       at = html.find("<title>Phase 3: deploy web</title>", at + 1)) {
    ++marked;
  }
  for (size_t at = html.find("class=\"band\""); at != std::string::npos;
       at = html.find("class=\"band\"", at + 1)) {
    ++shaded;
  }
  EXPECT_EQ(marked, 10u);
  EXPECT_EQ(shaded, 10u);
  // 400 s is shown in minutes, ending at 6.7 min.
  EXPECT_NE(html.find(">simulated time (min)</text>"), std::string::npos);
  EXPECT_EQ(html.find("simulated time (s)"), std::string::npos);
}

TEST(RenderReportHtml, IsByteIdenticalForTheSameSeed) {
  const std::string a = RenderReportHtml(RunBurst(4));
  EXPECT_EQ(a, RenderReportHtml(RunBurst(4)));
  EXPECT_NE(a, RenderReportHtml(RunBurst(5)));
}

TEST(RenderReportHtml, HasEverySectionEscapesTextAndLinksNothing) {
  SimReport report = RunBurst(1);
  report.scenario = R"(<script>alert("x")</script>)";
  const std::string html = RenderReportHtml(report);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* id :
       {"scenario", "headline", "time-series", "breakdowns", "pending-distribution", "timeline"}) {
    EXPECT_NE(html.find("id=\"" + std::string(id) + "\""), std::string::npos) << id;
  }
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&quot;x&quot;)"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
  EXPECT_NE(html.find(">karpenter</th>"), std::string::npos);
  EXPECT_NE(html.find(">cluster-autoscaler</th>"), std::string::npos);
  EXPECT_NE(html.find("seed 1"), std::string::npos);
  EXPECT_NE(html.find("400 simulated seconds"), std::string::npos);
  // Three time-series charts, two breakdowns per run and the utilisation, the CDF and one lane
  // chart per run.
  size_t charts = 0;
  for (size_t at = html.find("<svg "); at != std::string::npos; at = html.find("<svg ", at + 1)) {
    ++charts;
  }
  EXPECT_EQ(charts, 11u);
  EXPECT_NE(html.find("<title>Nodes by capacity type: cluster-autoscaler</title>"),
            std::string::npos);
  EXPECT_NE(html.find("<title>Nodes by instance type: karpenter</title>"), std::string::npos);
  EXPECT_NE(html.find(">karpenter cpu</text>"), std::string::npos);
  EXPECT_NE(html.find(">cluster-autoscaler memory</text>"), std::string::npos);
  // Decision marks carry their event and fields in a tooltip.
  EXPECT_NE(html.find("<title>ScaleUp at "), std::string::npos);
  EXPECT_NE(html.find("nodeGroup=general, nodes="), std::string::npos);
  const std::string p50 =
      fmt::format("<td>{:.1f} / {:.1f}</td>", report.runs.front().pod_pending_seconds.p50,
                  report.runs.front().pod_pending_seconds.p95);
  EXPECT_NE(html.find(p50), std::string::npos) << p50;
}

// Another command (migrate) names itself and puts its own section ahead of the twin's.
TEST(RenderReportHtml, FrameNamesTheCommandAndLeadsWithItsSection) {
  const SimReport report = RunBurst(1);
  const std::string html = RenderReportHtml(
      report, {.command = "karpenter migrate", .lead_section = "<section id=\"lead\"></section>"});
  EXPECT_NE(html.find("<title>karpenter migrate: burst</title>"), std::string::npos);
  EXPECT_NE(html.find("<h1>karpenter migrate: burst</h1>"), std::string::npos);
  EXPECT_NE(html.find("Generated by <code>karpenter migrate</code>"), std::string::npos);
  EXPECT_EQ(html.find("karpenter sim"), std::string::npos);
  const size_t lead = html.find("<section id=\"lead\">");
  ASSERT_NE(lead, std::string::npos);
  EXPECT_LT(lead, html.find("<section id=\"scenario\">"));
  EXPECT_EQ(RenderReportHtml(report), RenderReportHtml(report, {}));
  EXPECT_NE(RenderReportHtml(report).find("<h1>karpenter sim: burst</h1>"), std::string::npos);
}

// The instance-type chart draws the six types with the highest peak and sums the rest as
// "other"; the capacity-type chart lists on-demand and spot even when one is never billed.
// The page's headline is the text report's table (pod sets, capacity types, delta) and verdict,
// so both compare the same pods.
TEST(RenderReportHtml, HeadlineIsTheTextTableWithItsDeltaAndVerdict) {
  const SimReport report = RunBurst(1);
  ASSERT_EQ(report.runs.size(), 2u);
  const std::string html = RenderReportHtml(report);
  const size_t headline = html.find("<section id=\"headline\">");
  ASSERT_NE(headline, std::string::npos);
  const std::string section = html.substr(headline, html.find("</section>", headline) - headline);
  const std::string verdict = ReportVerdict(report);
  ASSERT_FALSE(verdict.empty());
  EXPECT_NE(section.find("<p class=\"verdict\">" +
                         EscapeXml(verdict.substr(0, verdict.size() - 1)) + "</p>"),
            std::string::npos)
      << section;
  EXPECT_NE(section.find("<th>delta</th>"), std::string::npos);
  for (const ComparisonRow& row : ComparisonTable(report)) {
    const size_t indent = row.label.find_first_not_of(' ');
    std::string cells = "<td>" + row.label.substr(indent) + "</td>";
    for (const std::string& cell : row.cells) cells += "<td>" + cell + "</td>";
    cells += "<td class=\"delta\">" + row.delta + "</td>";
    EXPECT_NE(section.find(fmt::format("<tr class=\"depth{}\">{}</tr>", indent / 2, cells)),
              std::string::npos)
        << row.label << "\n"
        << section;
  }
  EXPECT_NE(section.find("<td>workload pods / evictions</td>"), std::string::npos);
  EXPECT_NE(section.find("<tr class=\"depth1\"><td>on-demand</td>"), std::string::npos);
}

TEST(RenderReportHtml, InstanceTypeBreakdownKeepsTheBusiestTypesAndSumsTheRest) {
  SimReport report;
  report.scenario = "synthetic";
  report.simulated_seconds = 20;
  RunResult run;
  for (double t : {0.0, 10.0, 20.0}) {
    ClusterSample sample;
    sample.seconds = t;
    size_t peak = 9;
    for (const char* type :
         {"a.large", "b.large", "c.large", "d.large", "e.large", "f.large", "g.large", "h.large"}) {
      sample.nodes_by_instance_type[type] = peak--;
    }
    sample.nodes_by_capacity_type["on-demand"] = 44;
    run.samples.push_back(sample);
  }
  report.runs.push_back(run);
  const std::string html = RenderReportHtml(report);
  for (const char* shown : {">a.large</text>", ">f.large</text>", ">other</text>", ">spot</text>",
                            ">on-demand</text>"}) {
    EXPECT_NE(html.find(shown), std::string::npos) << shown;
  }
  EXPECT_EQ(html.find(">g.large</text>"), std::string::npos);
  EXPECT_EQ(html.find(">h.large</text>"), std::string::npos);
}

}  // namespace
}  // namespace karpenter::sim
