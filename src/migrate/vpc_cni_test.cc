#include "src/migrate/vpc_cni.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::migrate {
namespace {

using ::testing::HasSubstr;

cloudprovider::InstanceTypeInfo M5Xlarge() {
  cloudprovider::InstanceTypeInfo info;
  info.name = "m5.xlarge";
  info.enis = 4;
  info.ipv4_per_eni = 15;
  return info;
}

TEST(NodeAddresses, WarmEniTargetHoldsASpareEniOfAddresses) {
  VpcCniSettings settings;
  EXPECT_EQ(NodeAddresses(2, M5Xlarge(), settings), 30);   // in use + 1 warm ENI, 15 each
  EXPECT_EQ(NodeAddresses(20, M5Xlarge(), settings), 45);  // 2 in use + 1 warm
  settings.warm_eni_target = 0;
  EXPECT_EQ(NodeAddresses(2, M5Xlarge(), settings), 15);
  settings.warm_eni_target = 9;  // capped at the type's 4 ENIs
  EXPECT_EQ(NodeAddresses(2, M5Xlarge(), settings), 60);
}

TEST(NodeAddresses, WarmAndMinimumIpTargetsCountAddresses) {
  VpcCniSettings settings;
  settings.warm_ip_target = 2;
  EXPECT_EQ(NodeAddresses(2, M5Xlarge(), settings), 5);  // 4 secondary + the primary
  settings.minimum_ip_target = 20;
  EXPECT_EQ(NodeAddresses(2, M5Xlarge(), settings), 22);  // 20 secondary over 2 ENIs
}

TEST(NodeAddresses, PrefixDelegationTakesWholePrefixes) {
  VpcCniSettings settings;
  settings.prefix_delegation = true;
  EXPECT_EQ(NodeAddresses(2, M5Xlarge(), settings), 33);   // 1 used + 1 warm /28, 1 primary
  EXPECT_EQ(NodeAddresses(40, M5Xlarge(), settings), 65);  // 3 used + 1 warm
  settings.warm_ip_target = 1;
  EXPECT_EQ(NodeAddresses(16, M5Xlarge(), settings), 33);  // 17 addresses: 2 prefixes
}

TEST(VpcCni, ReadsTheAwsNodeEnvAndNamesABadValue) {
  absl::StatusOr<std::vector<KubeDocument>> documents = ParseKubeDocuments(
      R"(kind: DaemonSet
metadata: {name: aws-node, namespace: kube-system}
spec:
  template:
    spec:
      containers:
      - name: aws-vpc-cni-init
      - name: aws-node
        env:
        - {name: ENABLE_PREFIX_DELEGATION, value: "true"}
        - {name: WARM_ENI_TARGET, value: "2"}
        - {name: MINIMUM_IP_TARGET, value: "ten"}
)",
      "cluster.yaml");
  ASSERT_TRUE(documents.ok()) << documents.status();
  VpcCniSettings settings;
  absl::Status status = ReadVpcCni(*documents, settings);
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(
      status.message(),
      HasSubstr("cluster.yaml: DaemonSet/kube-system/aws-node: "
                "spec.template.spec.containers[1].env[2].value: MINIMUM_IP_TARGET=\"ten\""));
  EXPECT_TRUE(settings.found);
  EXPECT_TRUE(settings.prefix_delegation);
  EXPECT_EQ(settings.warm_eni_target, 2);
}

}  // namespace
}  // namespace karpenter::migrate
