#include "src/controllers/status_condition_metrics.h"

#include <string>
#include <variant>

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_kube_cluster.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"

namespace karpenter::controllers {
namespace {

constexpr std::string_view kCount = "operator_nodepool_status_condition_count";
constexpr std::string_view kCurrent = "operator_nodepool_status_condition_current_status_seconds";
constexpr std::string_view kTransitions = "operator_nodepool_status_condition_transitions_total";
constexpr std::string_view kTransitionSeconds =
    "operator_nodepool_status_condition_transition_seconds";

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  metrics::Registry metrics{metrics::OperatorCatalog()};
  StatusConditionMetrics conditions{clock, cluster, metrics, "NodePool"};

  // The pool's Ready condition set to `status`, transitioned now.
  void SetReady(const std::string& status, const std::string& reason) {
    std::optional<api::Object> object = cluster.Get({"NodePool", "", "default"});
    api::NodePool pool;
    if (object) {
      pool = std::get<api::NodePool>(*object);
    } else {
      pool.metadata.name = "default";
      pool = std::get<api::NodePool>(*cluster.Create(pool));
    }
    pool.status.conditions = {
        {.type = "Ready", .status = status, .last_transition_time = clock.Now(), .reason = reason}};
    ASSERT_TRUE(cluster.UpdateStatus(pool).ok());
  }
  static MetricLabels Series(const std::string& status, const std::string& reason) {
    return {{"namespace", ""},
            {"name", "default"},
            {"type", "Ready"},
            {"status", status},
            {"reason", reason}};
  }
};

TEST(StatusConditionMetrics, ConditionsAreCountedAgedAndTheirTransitionsTimed) {
  Fixture f;
  f.SetReady("Unknown", "AwaitingReconciliation");
  f.clock.Advance(1'000);
  f.conditions.Start();
  f.clock.RunDue();
  EXPECT_EQ(f.metrics.Value(kCount, Fixture::Series("Unknown", "AwaitingReconciliation")), 1);
  EXPECT_EQ(f.metrics.Value(kCurrent, Fixture::Series("Unknown", "AwaitingReconciliation")), 1);
  // First seen: a transition into Unknown, with nothing to time.
  EXPECT_EQ(f.metrics.Value(
                kTransitions,
                {{"type", "Ready"}, {"status", "Unknown"}, {"reason", "AwaitingReconciliation"}}),
            1);

  // Unknown for 30 s, then Ready (the change is reconciled at once).
  f.clock.Advance(29'000);
  f.SetReady("True", "Ready");
  f.clock.RunDue();
  EXPECT_EQ(f.metrics.Value(kCount, Fixture::Series("True", "Ready")), 1);
  const std::string text = f.metrics.PrometheusText();
  EXPECT_EQ(text.find("operator_nodepool_status_condition_count{name=\"default\",namespace=\"\","
                      "reason=\"AwaitingReconciliation\""),
            std::string::npos)
      << "the Unknown series went\n"
      << text;
  EXPECT_EQ(
      f.metrics.Value(kTransitions, {{"type", "Ready"}, {"status", "True"}, {"reason", "Ready"}}),
      1);
  EXPECT_EQ(f.metrics.Value(kTransitionSeconds, {{"type", "Ready"}, {"status", "Unknown"}}), 1);
  EXPECT_NE(
      text.find("operator_nodepool_status_condition_transition_seconds_sum{status=\"Unknown\","
                "type=\"Ready\"} 30\n"),
      std::string::npos)
      << text;

  // The requeue ages the condition; no new transition.
  EXPECT_EQ(f.metrics.Value(kCurrent, Fixture::Series("True", "Ready")), 0);
  f.clock.Advance(kStatusConditionMetricsRequeueMillis);
  ASSERT_TRUE(f.conditions.Reconcile("default").ok());
  EXPECT_EQ(f.metrics.Value(kCurrent, Fixture::Series("True", "Ready")), 10);
  EXPECT_EQ(
      f.metrics.Value(kTransitions, {{"type", "Ready"}, {"status", "True"}, {"reason", "Ready"}}),
      1);
  EXPECT_TRUE(f.metrics.undeclared().empty());
}

TEST(StatusConditionMetrics, AGoneObjectLeavesNoSeries) {
  Fixture f;
  f.SetReady("True", "Ready");
  f.conditions.Start();
  f.clock.Advance(1'000);
  ASSERT_EQ(f.metrics.Value(kCount, Fixture::Series("True", "Ready")), 1);
  ASSERT_TRUE(f.cluster.Delete({"NodePool", "", "default"}).ok());
  f.clock.Advance(1'000);
  const std::string text = f.metrics.PrometheusText();
  EXPECT_EQ(text.find("operator_nodepool_status_condition_count{"), std::string::npos) << text;
  EXPECT_EQ(text.find("operator_nodepool_status_condition_current_status_seconds{"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace karpenter::controllers
