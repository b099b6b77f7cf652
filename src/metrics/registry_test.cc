#include "src/metrics/registry.h"

#include <cmath>

#include "gtest/gtest.h"
#include "src/metrics/karpenter_metrics.h"

namespace karpenter::metrics {
namespace {

Registry Small() {
  return Registry({{"karpenter_nodes_created_total",
                    MetricType::kCounter,
                    "Nodes created.",
                    {"nodepool", "zone"},
                    {}},
                   {"karpenter_cluster_state_synced", MetricType::kGauge, "Synced.", {}, {}},
                   {"karpenter_scheduler_scheduling_duration_seconds",
                    MetricType::kHistogram,
                    "Solve time.",
                    {"controller"},
                    {0.1, 1}}});
}

TEST(Registry, WritesPrometheusTextSortedByNameAndLabels) {
  Registry registry = Small();
  registry.Add("karpenter_nodes_created_total", {{"zone", "us-east-1b"}, {"nodepool", "default"}},
               1);
  registry.Add("karpenter_nodes_created_total", {{"nodepool", "default"}, {"zone", "us-east-1a"}},
               2);
  registry.Set("karpenter_cluster_state_synced", {}, 1);
  registry.Observe("karpenter_scheduler_scheduling_duration_seconds",
                   {{"controller", "provisioner"}}, 0.05);
  registry.Observe("karpenter_scheduler_scheduling_duration_seconds",
                   {{"controller", "provisioner"}}, 3);
  EXPECT_EQ(
      registry.PrometheusText(),
      "# HELP karpenter_cluster_state_synced Synced.\n"
      "# TYPE karpenter_cluster_state_synced gauge\n"
      "karpenter_cluster_state_synced 1\n"
      "# HELP karpenter_nodes_created_total Nodes created.\n"
      "# TYPE karpenter_nodes_created_total counter\n"
      "karpenter_nodes_created_total{nodepool=\"default\",zone=\"us-east-1a\"} 2\n"
      "karpenter_nodes_created_total{nodepool=\"default\",zone=\"us-east-1b\"} 1\n"
      "# HELP karpenter_scheduler_scheduling_duration_seconds Solve time.\n"
      "# TYPE karpenter_scheduler_scheduling_duration_seconds histogram\n"
      "karpenter_scheduler_scheduling_duration_seconds_bucket{controller=\"provisioner\","
      "le=\"0.1\"} 1\n"
      "karpenter_scheduler_scheduling_duration_seconds_bucket{controller=\"provisioner\","
      "le=\"1\"} 1\n"
      "karpenter_scheduler_scheduling_duration_seconds_bucket{controller=\"provisioner\","
      "le=\"+Inf\"} 2\n"
      "karpenter_scheduler_scheduling_duration_seconds_sum{controller=\"provisioner\"} "
      "3.05\n"
      "karpenter_scheduler_scheduling_duration_seconds_count{controller=\"provisioner\"} 2\n");
}

TEST(Registry, UndeclaredOrMistypedWritesAreNotedNotExposed) {
  Registry registry = Small();
  registry.Add("karpenter_made_up_total", {}, 1);
  registry.Set("karpenter_nodes_created_total", {}, 5);  // a counter written as a gauge
  EXPECT_EQ(registry.PrometheusText(), "");
  EXPECT_EQ(registry.undeclared(),
            (std::set<std::string>{"karpenter_made_up_total", "karpenter_nodes_created_total"}));
}

TEST(Registry, CountersNeverGoDownAndDeleteDropsASeries) {
  Registry registry = Small();
  registry.Add("karpenter_nodes_created_total", {{"nodepool", "a"}}, 2);
  registry.Add("karpenter_nodes_created_total", {{"nodepool", "a"}}, -1);
  EXPECT_EQ(registry.Value("karpenter_nodes_created_total", {{"nodepool", "a"}}), 2);
  registry.Delete("karpenter_nodes_created_total", {{"nodepool", "a"}});
  EXPECT_EQ(registry.Value("karpenter_nodes_created_total", {{"nodepool", "a"}}), 0);
}

TEST(Registry, SummariesReportUpstreamsQuantilesOverRecentObservations) {
  Registry registry(KarpenterCatalog());
  for (int seconds = 1; seconds <= 10; ++seconds) {
    registry.Observe("karpenter_pods_startup_duration_seconds", {}, seconds);
  }
  const std::string text = registry.PrometheusText();
  EXPECT_NE(text.find("# TYPE karpenter_pods_startup_duration_seconds summary\n"
                      "karpenter_pods_startup_duration_seconds{quantile=\"0\"} 1\n"
                      "karpenter_pods_startup_duration_seconds{quantile=\"0.5\"} 5\n"
                      "karpenter_pods_startup_duration_seconds{quantile=\"0.9\"} 9\n"
                      "karpenter_pods_startup_duration_seconds{quantile=\"0.99\"} 10\n"
                      "karpenter_pods_startup_duration_seconds{quantile=\"1\"} 10\n"
                      "karpenter_pods_startup_duration_seconds_sum 55\n"
                      "karpenter_pods_startup_duration_seconds_count 10\n"),
            std::string::npos)
      << text;
  // Old observations leave the quantiles, not the count.
  for (size_t i = 0; i < kSummaryWindow; ++i) {
    registry.Observe("karpenter_pods_startup_duration_seconds", {}, 100);
  }
  const std::string later = registry.PrometheusText();
  EXPECT_NE(later.find("karpenter_pods_startup_duration_seconds{quantile=\"0\"} 100\n"),
            std::string::npos);
  EXPECT_EQ(registry.Value("karpenter_pods_startup_duration_seconds", {}), 10 + kSummaryWindow);
}

TEST(Registry, LabelValuesAreEscaped) {
  EXPECT_EQ(EscapeLabelValue("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
}

TEST(KarpenterCatalog, DeclaresEveryDashboardMetricOnceWithTheKarpenterPrefix) {
  Registry registry(KarpenterCatalog());
  for (std::string_view name : DashboardMetricNames()) {
    EXPECT_TRUE(registry.catalog().contains(name)) << name;
  }
  size_t declared = 0;
  for (const MetricDescription& description : KarpenterCatalog()) {
    ++declared;
    EXPECT_EQ(description.name.rfind("karpenter_", 0), 0u) << description.name;
  }
  EXPECT_EQ(registry.catalog().size(), declared) << "no name declared twice";
}

TEST(OperatorCatalog, FourMetricsPerStatusKindWithOperatorpkgsBuckets) {
  Registry registry(OperatorCatalog());
  EXPECT_EQ(registry.catalog().size(), 16u);
  const MetricDescription& nodeclaim =
      registry.catalog().at("operator_nodeclaim_status_condition_transition_seconds");
  ASSERT_EQ(nodeclaim.buckets.size(), 15u);
  EXPECT_EQ(nodeclaim.buckets.front(), 0.5);
  EXPECT_EQ(nodeclaim.buckets.back(), 8192);
  EXPECT_EQ(registry.catalog()
                .at("operator_ec2nodeclass_status_condition_transition_seconds")
                .buckets.back(),
            10);
  EXPECT_EQ(registry.catalog().at("operator_node_status_condition_count").labels,
            (std::vector<std::string>{"namespace", "name", "type", "status", "reason"}));
}

TEST(ClientCatalog, ClientGoAndAwsSdkNamesWithTheirBuckets) {
  Registry registry(ClientCatalog());
  EXPECT_EQ(registry.catalog().size(), 7u);
  const MetricDescription& client_go = registry.catalog().at("client_go_request_duration_seconds");
  ASSERT_EQ(client_go.buckets.size(), 20u);
  EXPECT_EQ(client_go.buckets.front(), 0.001);
  EXPECT_EQ(registry.catalog().at("aws_sdk_go_request_attempt_total").labels,
            (std::vector<std::string>{"service", "action", "code"}));
  EXPECT_EQ(registry.catalog().at("aws_sdk_go_request_retry_count").buckets.back(), 10);
  // The middleware's exponential buckets: 0.01 s growing by 1.5, twenty of them (to ~22 s).
  const std::vector<double>& aws =
      registry.catalog().at("aws_sdk_go_request_duration_seconds").buckets;
  ASSERT_EQ(aws.size(), 20u);
  EXPECT_EQ(aws.front(), 0.01);
  EXPECT_NEAR(aws.back(), 0.01 * std::pow(1.5, 19), 1e-9);
  EXPECT_EQ(registry.catalog().at("aws_sdk_go_request_attempt_duration_seconds").buckets, aws);
}

TEST(RuntimeCatalog, ControllerRuntimeNamesBesideKarpentersWithoutClashing) {
  std::vector<MetricDescription> catalog = KarpenterCatalog();
  const size_t karpenter = catalog.size();
  for (MetricDescription& runtime : RuntimeCatalog()) {
    EXPECT_TRUE(runtime.name.starts_with("controller_runtime_reconcile_") ||
                runtime.name == "leader_election_master_status")
        << runtime.name;
    catalog.push_back(std::move(runtime));
  }
  Registry registry(catalog);
  EXPECT_EQ(registry.catalog().size(), karpenter + RuntimeCatalog().size());
  registry.Observe("controller_runtime_reconcile_time_seconds", {{"controller", "provisioner"}},
                   0.02);
  EXPECT_EQ(
      registry.Value("controller_runtime_reconcile_time_seconds", {{"controller", "provisioner"}}),
      1);
  EXPECT_TRUE(registry.undeclared().empty());
  EXPECT_EQ(ReconcileTimeBuckets().back(), 60) << "controller-runtime's last bucket";
}

TEST(KarpenterCatalog, DurationBucketsAscend) {
  std::vector<double> buckets = DurationBuckets();
  EXPECT_TRUE(std::is_sorted(buckets.begin(), buckets.end()));
  EXPECT_EQ(buckets.front(), 0.005);
  EXPECT_EQ(buckets.back(), 600);
}

}  // namespace
}  // namespace karpenter::metrics
