#include "src/aws/aws_stack.h"

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_kube_cluster.h"

namespace karpenter::aws {
namespace {

// AwsStack reads the process environment as the SDKs do; each test sets what it needs and
// restores it. Nothing here reaches the network: clients connect on first use.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, /*overwrite=*/1);
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_.c_str(), old_->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }

 private:
  std::string name_;
  std::optional<std::string> old_;
};

std::unique_ptr<AwsStack> MustCreate(const char* region) {
  ScopedEnv env_region("AWS_REGION", region);
  ScopedEnv key("AWS_ACCESS_KEY_ID", "test");
  ScopedEnv secret("AWS_SECRET_ACCESS_KEY", "test");
  ScopedEnv imds("AWS_EC2_METADATA_DISABLED", "true");
  // The stack asks EKS DescribeCluster at start: a closed local port answers at once, so no test
  // reaches AWS (the answer is only logged, since the endpoint is set).
  ScopedEnv endpoint("AWS_ENDPOINT_URL", "http://127.0.0.1:1");
  static fakes::FakeClock clock;
  static fakes::FakeKubeCluster cluster(clock);
  static cloudprovider::UnavailableOfferings unavailable(clock, [] { return 180'000; });
  absl::StatusOr<std::unique_ptr<AwsStack>> stack = AwsStack::Create(
      AwsStackOptions{.cluster_name = "c", .cluster_endpoint = "https://example.invalid"}, cluster,
      unavailable);
  EXPECT_TRUE(stack.ok()) << stack.status();
  return stack.ok() ? *std::move(stack) : nullptr;
}

TEST(AwsStack, PicksTheCatalogOfItsRegion) {
  std::unique_ptr<AwsStack> stack = MustCreate("us-west-2");
  ASSERT_NE(stack, nullptr);
  EXPECT_EQ(stack->region(), "us-west-2");
  EXPECT_EQ(stack->catalog().region(), "us-west-2");
  EXPECT_EQ(stack->catalog().zones().front(), "us-west-2a");
  EXPECT_TRUE(stack->catalog().OnDemandPrice("m5.large").has_value());
  // Only the prices are kept: the types come from EC2, and resolving the catalog's would hold
  // megabytes for nothing.
  EXPECT_TRUE(stack->catalog().Types().empty());
}

TEST(AwsStack, RegionTheCatalogLacksFallsBackToUsEast1Prices) {
  std::unique_ptr<AwsStack> stack = MustCreate("us-gov-west-1");
  ASSERT_NE(stack, nullptr);
  EXPECT_EQ(stack->region(), "us-gov-west-1");
  EXPECT_EQ(stack->catalog().region(), "us-east-1");
}

}  // namespace
}  // namespace karpenter::aws
