#include "src/migrate/aws_inputs.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::migrate {
namespace {

using ::testing::HasSubstr;

TEST(EksNodegroupFile, ReadsTheFieldsAPlanMaps) {
  absl::StatusOr<EksNodegroup> group = LoadEksNodegroupFile(
      std::string(KP_SOURCE_DIR) + "/examples/migrate/article/nodegroup-spot-batch.json");
  ASSERT_TRUE(group.ok()) << group.status();
  EXPECT_EQ(group->name, "spot-batch");
  EXPECT_EQ(group->cluster, "production-eks");
  EXPECT_EQ(group->capacity_type, "SPOT");
  EXPECT_EQ(group->instance_types, (std::vector<std::string>{"c5.2xlarge", "c5a.2xlarge"}));
  EXPECT_EQ(group->max_size, 6);
  ASSERT_EQ(group->taints.size(), 1u);
  EXPECT_EQ(group->taints[0].effect, "NO_SCHEDULE");
  EXPECT_EQ(group->launch_template, "spot-batch-lt");
  EXPECT_EQ(group->labels.at("workload-type"), "batch");
}

TEST(EksNodegroupFile, NamesEveryBadFieldByItsPath) {
  absl::StatusOr<EksNodegroup> group = ParseEksNodegroup(
      R"({"nodegroup": {"nodegroupName": 7, "capacityType": "CHEAP",
          "scalingConfig": {"minSize": 3, "maxSize": 2},
          "taints": [{"key": "a", "effect": "NoSchedule"}], "instanceTypes": ["m5.large", 1]}})",
      "ng.json");
  ASSERT_FALSE(group.ok());
  const std::string message(group.status().message());
  EXPECT_THAT(message, HasSubstr("ng.json: nodegroup.nodegroupName: must be a string"));
  EXPECT_THAT(message, HasSubstr("nodegroup.capacityType: \"CHEAP\""));
  EXPECT_THAT(message, HasSubstr("nodegroup.scalingConfig.maxSize: must be at least minSize"));
  EXPECT_THAT(message, HasSubstr("nodegroup.taints[0].effect: \"NoSchedule\""));
  EXPECT_THAT(message, HasSubstr("nodegroup.instanceTypes[1]: must be a string"));
}

TEST(EksNodegroupFile, RefusesWhatIsNotADescribeNodegroupOutput) {
  absl::StatusOr<EksNodegroup> group = ParseEksNodegroup(R"({"Subnets": []})", "x.json");
  ASSERT_FALSE(group.ok());
  EXPECT_THAT(group.status().message(), HasSubstr("x.json: nodegroup: required"));
}

TEST(EksNodegroupFile, RefusesInputNestedBeyondTheLimit) {
  const std::string deep = std::string(300, '[') + std::string(300, ']');
  absl::StatusOr<EksNodegroup> group = ParseEksNodegroup(deep, "deep.json");
  ASSERT_FALSE(group.ok());
  EXPECT_THAT(group.status().message(), HasSubstr("nested deeper than 256"));
}

TEST(EksNodegroupFile, ReportsSyntaxErrorsWithTheSource) {
  absl::StatusOr<EksNodegroup> group = ParseEksNodegroup("{\"nodegroup\": ", "cut.json");
  ASSERT_FALSE(group.ok());
  EXPECT_THAT(group.status().message(), HasSubstr("cut.json: not the JSON the AWS CLI prints"));
}

TEST(SubnetsFile, ReadsZonesFreeAddressesAndTags) {
  absl::StatusOr<std::vector<Subnet>> subnets =
      LoadSubnetsFile(std::string(KP_SOURCE_DIR) + "/examples/migrate/article/subnets.json");
  ASSERT_TRUE(subnets.ok()) << subnets.status();
  ASSERT_EQ(subnets->size(), 3u);
  EXPECT_EQ((*subnets)[2].zone, "us-east-1c");
  EXPECT_EQ((*subnets)[2].available_ips, 812);
  EXPECT_EQ((*subnets)[0].tags.at("karpenter.sh/discovery"), "production-eks");
  EXPECT_FALSE((*subnets)[2].tags.contains("karpenter.sh/discovery"));
}

TEST(SubnetsFile, NamesEveryBadFieldByItsPath) {
  absl::StatusOr<std::vector<Subnet>> subnets = ParseSubnets(
      R"({"Subnets": [{"SubnetId": "subnet-1"}, {"SubnetId": "subnet-2",
          "AvailabilityZone": "us-east-1a", "AvailableIpAddressCount": -1,
          "Tags": [{"Value": "x"}]}]})",
      "subnets.json");
  ASSERT_FALSE(subnets.ok());
  const std::string message(subnets.status().message());
  EXPECT_THAT(message, HasSubstr("subnets.json: Subnets[0].AvailabilityZone: required"));
  EXPECT_THAT(message, HasSubstr("Subnets[1].AvailableIpAddressCount: -1 is out of range"));
  EXPECT_THAT(message, HasSubstr("Subnets[1].Tags[0].Key: required"));
}

TEST(SubnetsFile, ReportsAFileThatCannotBeRead) {
  absl::StatusOr<std::vector<Subnet>> subnets = LoadSubnetsFile("/nonexistent/subnets.json");
  ASSERT_FALSE(subnets.ok());
  EXPECT_THAT(subnets.status().message(),
              HasSubstr("/nonexistent/subnets.json: cannot read the file"));
}

TEST(SubnetsFile, RefusesAnEmptySubnetIdOrZone) {
  absl::StatusOr<std::vector<Subnet>> subnets =
      ParseSubnets(R"({"Subnets": [{"SubnetId": "", "AvailabilityZone": ""}]})", "subnets.json");
  ASSERT_FALSE(subnets.ok());
  EXPECT_THAT(subnets.status().message(), HasSubstr("Subnets[0].SubnetId: must not be empty"));
  EXPECT_THAT(subnets.status().message(),
              HasSubstr("Subnets[0].AvailabilityZone: must not be empty"));
}

}  // namespace
}  // namespace karpenter::migrate
