#include "src/controllers/metered_cloud_provider.h"

#include <variant>

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_cloud_provider.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"

namespace karpenter::controllers {
namespace {

TEST(MeteredCloudProvider, TimesEveryCallAndCountsErrorsByUpstreamsTypeNames) {
  fakes::FakeClock clock;
  fakes::FakeCloudProvider cloud;
  metrics::Registry metrics(metrics::KarpenterCatalog());
  MeteredCloudProvider metered(cloud, metrics, clock, "nodeclaim.lifecycle");
  const std::string provider(cloud.Name());

  ASSERT_TRUE(std::holds_alternative<std::vector<api::NodeClaim>>(metered.List()));
  cloud.FailNext(fakes::FakeCloudProvider::Method::kGet,
                 CloudError{.kind = CloudErrorKind::kNotFound, .message = "gone"});
  ASSERT_TRUE(std::holds_alternative<CloudError>(metered.Get("aws:///us-east-1a/i-1")));
  cloud.FailNext(fakes::FakeCloudProvider::Method::kGet,
                 CloudError{.kind = CloudErrorKind::kUnavailable, .message = "throttled"});
  ASSERT_TRUE(std::holds_alternative<CloudError>(metered.Get("aws:///us-east-1a/i-1")));

  const MetricLabels list = {
      {"controller", "nodeclaim.lifecycle"}, {"method", "List"}, {"provider", provider}};
  const MetricLabels get = {
      {"controller", "nodeclaim.lifecycle"}, {"method", "Get"}, {"provider", provider}};
  EXPECT_EQ(metrics.Value("karpenter_cloudprovider_duration_seconds", list), 1);
  EXPECT_EQ(metrics.Value("karpenter_cloudprovider_duration_seconds", get), 2);
  MetricLabels not_found = get;
  not_found.emplace_back("error", "NodeClaimNotFoundError");
  MetricLabels other = get;
  other.emplace_back("error", "");
  EXPECT_EQ(metrics.Value("karpenter_cloudprovider_errors_total", not_found), 1);
  EXPECT_EQ(metrics.Value("karpenter_cloudprovider_errors_total", other), 1);
  MetricLabels list_error = list;
  list_error.emplace_back("error", "");
  EXPECT_EQ(metrics.Value("karpenter_cloudprovider_errors_total", list_error), 0);
  EXPECT_TRUE(metrics.undeclared().empty());
}

}  // namespace
}  // namespace karpenter::controllers
