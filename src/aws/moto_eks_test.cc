// EksClient and AwsStack's cluster discovery against moto_server: the endpoint from
// DescribeCluster when CLUSTER_ENDPOINT is not set, and the service CIDR node user data uses.
#include <cstdlib>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/aws_stack.h"
#include "src/aws/eks_client.h"
#include "src/aws/errors.h"
#include "src/aws/test_moto_server.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_kube_cluster.h"

namespace karpenter::aws {
namespace {

class MotoEks : public MotoTest {
 protected:
  // The process environment AwsStack reads, pointed at this test's moto (each ctest test runs in
  // its own process).
  void UseMotoFromEnvironment() {
    setenv("AWS_ENDPOINT_URL", moto_->url().c_str(), 1);
    setenv("AWS_REGION", "us-west-2", 1);
    setenv("AWS_ACCESS_KEY_ID", "AKIDMOTO", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "moto-secret", 1);
    setenv("AWS_EC2_METADATA_DISABLED", "true", 1);
  }
  absl::StatusOr<std::unique_ptr<AwsStack>> Stack(const std::string& endpoint) {
    return AwsStack::Create(AwsStackOptions{.cluster_name = "demo", .cluster_endpoint = endpoint},
                            cluster_, unavailable_);
  }

  fakes::FakeClock kube_clock_;
  fakes::FakeKubeCluster cluster_{kube_clock_};
  cloudprovider::UnavailableOfferings unavailable_{kube_clock_, [] { return int64_t{180'000}; }};
};

TEST_F(MotoEks, DescribeClusterAnswersWhatCreateClusterMade) {
  AwsClient client = Client(EksService());
  EksClient eks(client);
  auto created = eks.CreateCluster("demo", "arn:aws:iam::123456789012:role/eks", "172.20.0.0/16");
  ASSERT_TRUE(created.ok()) << created.status();
  auto described = eks.DescribeCluster("demo");
  ASSERT_TRUE(described.ok()) << described.status();
  EXPECT_EQ(described->name, "demo");
  EXPECT_EQ(described->status, "ACTIVE");
  EXPECT_TRUE(described->endpoint.starts_with("https://")) << described->endpoint;
  EXPECT_FALSE(described->certificate_authority.empty());
  EXPECT_EQ(described->service_ipv4_cidr, "172.20.0.0/16");

  auto missing = eks.DescribeCluster("nope");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound) << missing.status();
  EXPECT_EQ(AwsErrorCode(missing.status()), "ResourceNotFoundException");
}

TEST_F(MotoEks, WithoutClusterEndpointTheStackAsksEks) {
  UseMotoFromEnvironment();
  AwsClient client = Client(EksService());
  auto created = EksClient(client).CreateCluster("demo", "arn:aws:iam::123456789012:role/eks",
                                                 "172.20.0.0/16");
  ASSERT_TRUE(created.ok()) << created.status();
  auto stack = Stack("");
  ASSERT_TRUE(stack.ok()) << stack.status();
  std::string expected = created->endpoint;
  while (expected.ends_with('/')) expected.pop_back();
  ASSERT_EQ((*stack)->notes().size(), 1u);
  EXPECT_EQ((*stack)->notes()[0], "discovered cluster endpoint " + expected);
}

TEST_F(MotoEks, WithoutClusterEndpointAnUnknownClusterIsOneClearError) {
  UseMotoFromEnvironment();
  auto stack = Stack("");
  ASSERT_FALSE(stack.ok());
  EXPECT_TRUE(absl::StrContains(stack.status().message(), "failed to resolve cluster endpoint"))
      << stack.status();
  EXPECT_TRUE(absl::StrContains(stack.status().message(), "ResourceNotFoundException"))
      << stack.status();
}

TEST_F(MotoEks, WithClusterEndpointAnUnknownClusterOnlyCostsTheServiceCidr) {
  UseMotoFromEnvironment();
  auto stack = Stack("https://demo.example");
  ASSERT_TRUE(stack.ok()) << stack.status();
  ASSERT_EQ((*stack)->notes().size(), 1u);
  EXPECT_TRUE(absl::StrContains((*stack)->notes()[0], "assumes service CIDR 10.100.0.0/16"))
      << (*stack)->notes()[0];
}

}  // namespace
}  // namespace karpenter::aws
