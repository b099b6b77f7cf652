#include "src/cloudprovider/aws_conventions.h"

#include <gtest/gtest.h>

namespace karpenter::cloudprovider {
namespace {

TEST(AwsConventions, AProviderIdNamesItsInstance) {
  EXPECT_EQ(AwsProviderId("us-east-1a", "i-0123"), "aws:///us-east-1a/i-0123");
  EXPECT_EQ(InstanceIdOf(AwsProviderId("us-east-1a", "i-0123")), "i-0123");
  EXPECT_EQ(InstanceIdOf("kwok:///us-east-1a/i-0123"), "");
  EXPECT_EQ(InstanceIdOf("aws:///us-east-1a/node-7"), "");
}

TEST(AwsConventions, NodesNotReadyForHalfAnHourAreRepaired) {
  const std::vector<RepairPolicy> policies = AwsRepairPolicies();
  ASSERT_EQ(policies.size(), 2u);
  EXPECT_EQ(policies[0].condition_status, "False");
  EXPECT_EQ(policies[1].condition_status, "Unknown");
  for (const RepairPolicy& policy : policies) {
    EXPECT_EQ(policy.condition_type, "Ready");
    EXPECT_EQ(policy.toleration_millis, 30 * 60 * 1000);
  }
}

}  // namespace
}  // namespace karpenter::cloudprovider
