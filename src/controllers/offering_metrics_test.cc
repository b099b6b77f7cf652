#include "src/controllers/offering_metrics.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_cloud_provider.h"
#include "src/fakes/fake_kube_cluster.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"

namespace karpenter::controllers {
namespace {

constexpr std::string_view kAvailable = "karpenter_cloudprovider_instance_type_offering_available";
constexpr std::string_view kPrice = "karpenter_cloudprovider_instance_type_offering_price_estimate";

struct Fixture {
  explicit Fixture(bool reserved_capacity = true)
      : offerings(clock, cluster, cloud, metrics, reserved_capacity) {
    cloudprovider::InstanceType type;
    type.name = "m5.large";
    type.labels = {{std::string(api::kLabelInstanceCPU), "2"},
                   {std::string(api::kLabelInstanceMemory), "8192"}};
    type.offerings = {
        {.zone = "us-east-1a", .capacity_type = "spot", .price = 0.04, .available = true},
        {.zone = "us-east-1a", .capacity_type = "on-demand", .price = 0.096, .available = false},
        {.zone = "us-east-1b", .capacity_type = "on-demand", .price = 0.096, .available = true}};
    cloud.SetInstanceTypes({type});
    for (const char* name : {"a", "b"}) {
      api::NodePool pool;
      pool.metadata.name = name;
      EXPECT_TRUE(cluster.Create(pool).ok());
    }
  }
  static MetricLabels Offering(const std::string& capacity_type, const std::string& zone) {
    return {{"instance_type", "m5.large"}, {"capacity_type", capacity_type}, {"zone", zone}};
  }

  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  fakes::FakeCloudProvider cloud;
  metrics::Registry metrics{metrics::KarpenterCatalog()};
  OfferingMetrics offerings;
};

TEST(OfferingMetrics, EveryOfferingOfEveryNodePoolsTypesIsPublishedWithItsPriceAndSize) {
  Fixture f;
  absl::StatusOr<ReconcileResult> result = f.offerings.Reconcile();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->requeue_after_millis, kOfferingMetricsPeriodMillis);
  EXPECT_EQ(f.metrics.Value(kAvailable, Fixture::Offering("spot", "us-east-1a")), 1);
  EXPECT_EQ(f.metrics.Value(kPrice, Fixture::Offering("spot", "us-east-1a")), 0.04);
  EXPECT_EQ(f.metrics.Value(kAvailable, Fixture::Offering("on-demand", "us-east-1b")), 1);
  // Known but unavailable: published as 0, with its price.
  EXPECT_NE(f.metrics.PrometheusText().find(
                "karpenter_cloudprovider_instance_type_offering_available{capacity_type=\"on-"
                "demand\",instance_type=\"m5.large\",zone=\"us-east-1a\"} 0"),
            std::string::npos);
  EXPECT_EQ(f.metrics.Value(kPrice, Fixture::Offering("on-demand", "us-east-1a")), 0.096);
  // ReservedCapacity: every zone of the type gets a reserved offering, unavailable and free.
  const std::string text = f.metrics.PrometheusText();
  for (const char* zone : {"us-east-1a", "us-east-1b"}) {
    EXPECT_NE(text.find(absl::StrCat("karpenter_cloudprovider_instance_type_offering_price_"
                                     "estimate{capacity_type=\"reserved\",instance_type=\"m5."
                                     "large\",zone=\"",
                                     zone, "\"} 0")),
              std::string::npos)
        << text;
  }
  EXPECT_EQ(f.metrics.Value("karpenter_cloudprovider_instance_type_cpu_cores",
                            {{"instance_type", "m5.large"}}),
            2);
  EXPECT_EQ(f.metrics.Value("karpenter_cloudprovider_instance_type_memory_bytes",
                            {{"instance_type", "m5.large"}}),
            8192.0 * 1024 * 1024);
  EXPECT_TRUE(f.metrics.undeclared().empty());
}

TEST(OfferingMetrics, WithoutTheReservedCapacityGateNoReservedOfferingIsMadeUp) {
  Fixture f(/*reserved_capacity=*/false);
  ASSERT_TRUE(f.offerings.Reconcile().ok());
  EXPECT_EQ(f.metrics.PrometheusText().find("capacity_type=\"reserved\""), std::string::npos);
}

TEST(OfferingMetrics, ANodePoolWhoseTypesCannotBeReadCostsOnlyItsOwnSeries) {
  Fixture f;
  f.cloud.FailNext(fakes::FakeCloudProvider::Method::kGetInstanceTypes,
                   CloudError{.kind = CloudErrorKind::kUnavailable, .message = "throttled"});
  absl::StatusOr<ReconcileResult> result = f.offerings.Reconcile();
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("NodePool a"), std::string::npos) << result.status();
  // Pool b's types were still read and published.
  EXPECT_EQ(f.metrics.Value(kAvailable, Fixture::Offering("spot", "us-east-1a")), 1);
}

}  // namespace
}  // namespace karpenter::controllers
