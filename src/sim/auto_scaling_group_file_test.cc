#include "src/sim/auto_scaling_group_file.h"

#include <gtest/gtest.h>

namespace karpenter::sim {
namespace {

// Trimmed `aws autoscaling describe-auto-scaling-groups` output.
constexpr char kDescribe[] = R"json({
  "AutoScalingGroups": [
    {
      "AutoScalingGroupName": "eks-general-2ac6",
      "MinSize": 1, "MaxSize": 8, "DesiredCapacity": 2,
      "Instances": [{"InstanceId": "i-0a", "AvailabilityZone": "us-east-1a"},
                    {"InstanceId": "i-0b", "AvailabilityZone": "us-east-1b"}],
      "Tags": [{"Key": "eks:nodegroup-name", "Value": "general"},
               {"Key": "k8s.io/cluster-autoscaler/enabled", "Value": "true"}]
    },
    {"AutoScalingGroupName": "self-managed", "MinSize": 0, "MaxSize": 3, "Instances": [],
     "Tags": []}
  ]
})json";

TEST(ParseAutoScalingGroups, ReadsBoundsInstancesAndTags) {
  absl::StatusOr<std::vector<AutoScalingGroupRecord>> groups =
      ParseAutoScalingGroups(kDescribe, "asgs.json");
  ASSERT_TRUE(groups.ok()) << groups.status();
  ASSERT_EQ(groups->size(), 2u);
  const AutoScalingGroupRecord& general = (*groups)[0];
  EXPECT_EQ(general.name, "eks-general-2ac6");
  EXPECT_EQ(general.node_group, "general");
  EXPECT_EQ(general.min_size, 1);
  EXPECT_EQ(general.max_size, 8);
  EXPECT_TRUE(general.autoscaled);
  EXPECT_EQ(general.instance_ids, (std::vector<std::string>{"i-0a", "i-0b"}));
  EXPECT_FALSE((*groups)[1].autoscaled);  // no auto-discovery tag: Cluster Autoscaler leaves it
  EXPECT_EQ((*groups)[1].node_group, "");
}

TEST(ParseAutoScalingGroups, NamesTheFieldPathOfEveryProblem) {
  absl::StatusOr<std::vector<AutoScalingGroupRecord>> groups = ParseAutoScalingGroups(
      R"({"AutoScalingGroups": [{"MinSize": "x", "MaxSize": 2, "Instances": [{}]},
                                {"AutoScalingGroupName": "b", "MinSize": 3, "MaxSize": 2}]})",
      "asgs.json");
  ASSERT_FALSE(groups.ok());
  EXPECT_EQ(groups.status().message(),
            "asgs.json: AutoScalingGroups[0].AutoScalingGroupName: required\n"
            "asgs.json: AutoScalingGroups[0].MinSize: must be an integer\n"
            "asgs.json: AutoScalingGroups[0].Instances[0].InstanceId: required\n"
            "asgs.json: AutoScalingGroups[1].MaxSize: must be at least MinSize (3)");
  EXPECT_FALSE(ParseAutoScalingGroups("[1, 2]", "asgs.json").ok());
  EXPECT_FALSE(ParseAutoScalingGroups("{\"AutoScalingGroups\": [", "asgs.json").ok());
  // yaml-cpp 0.7 loops forever on a comma after the root object: refused before it parses.
  EXPECT_FALSE(ParseAutoScalingGroups("{\"AutoScalingGroups\": []},", "asgs.json").ok());
}

TEST(ParseAutoScalingGroups, ReadsTheMixedInstancesPolicy) {
  absl::StatusOr<std::vector<AutoScalingGroupRecord>> groups = ParseAutoScalingGroups(
      R"({"AutoScalingGroups": [{"AutoScalingGroupName": "mixed", "MinSize": 0, "MaxSize": 4,
          "MixedInstancesPolicy": {
            "LaunchTemplate": {"Overrides": [{"InstanceType": "m5.xlarge", "WeightedCapacity": "1"},
                                             {"InstanceType": "m5.2xlarge", "WeightedCapacity": "2"},
                                             {"InstanceType": "m5a.xlarge"}]},
            "InstancesDistribution": {"OnDemandBaseCapacity": 1,
                                      "OnDemandPercentageAboveBaseCapacity": 25}}}]})",
      "asgs.json");
  ASSERT_TRUE(groups.ok()) << groups.status();
  const AutoScalingGroupRecord& mixed = (*groups)[0];
  ASSERT_EQ(mixed.overrides.size(), 3u);
  EXPECT_EQ(mixed.overrides[1].instance_type, "m5.2xlarge");
  EXPECT_EQ(mixed.overrides[1].weighted_capacity, "2");
  EXPECT_EQ(mixed.overrides[2].weighted_capacity, "");
  EXPECT_EQ(mixed.on_demand_base, 1);
  EXPECT_EQ(mixed.on_demand_percentage, 25);
}

TEST(ParseAutoScalingGroups, NamesTheMixedInstancesPolicyFieldThatIsWrong) {
  absl::StatusOr<std::vector<AutoScalingGroupRecord>> groups = ParseAutoScalingGroups(
      R"({"AutoScalingGroups": [{"AutoScalingGroupName": "mixed", "MinSize": 0, "MaxSize": 4,
          "MixedInstancesPolicy": {"LaunchTemplate": {"Overrides": [{}]},
            "InstancesDistribution": {"OnDemandPercentageAboveBaseCapacity": 150}}}]})",
      "asgs.json");
  ASSERT_FALSE(groups.ok());
  EXPECT_EQ(groups.status().message(),
            "asgs.json: AutoScalingGroups[0].MixedInstancesPolicy.LaunchTemplate.Overrides[0]."
            "InstanceType: required\n"
            "asgs.json: AutoScalingGroups[0].MixedInstancesPolicy.InstancesDistribution."
            "OnDemandPercentageAboveBaseCapacity: must be at most 100");
}

TEST(ParseAutoScalingGroups, ReadsTheLaunchTemplateOfEitherPlace) {
  absl::StatusOr<std::vector<AutoScalingGroupRecord>> groups = ParseAutoScalingGroups(
      R"({"AutoScalingGroups": [
          {"AutoScalingGroupName": "plain", "MinSize": 0, "MaxSize": 4,
           "LaunchTemplate": {"LaunchTemplateId": "lt-0a", "LaunchTemplateName": "batch",
                              "Version": "$Latest"}},
          {"AutoScalingGroupName": "mixed", "MinSize": 0, "MaxSize": 4,
           "MixedInstancesPolicy": {"LaunchTemplate": {
             "LaunchTemplateSpecification": {"LaunchTemplateName": "spot", "Version": "3"},
             "Overrides": [{"InstanceType": "c5.xlarge"}]}}},
          {"AutoScalingGroupName": "none", "MinSize": 0, "MaxSize": 4}]})",
      "asgs.json");
  ASSERT_TRUE(groups.ok()) << groups.status();
  EXPECT_EQ((*groups)[0].launch_template.id, "lt-0a");
  EXPECT_EQ((*groups)[0].launch_template.name, "batch");
  EXPECT_EQ((*groups)[0].launch_template.version, "$Latest");
  EXPECT_EQ((*groups)[1].launch_template.id, "");
  EXPECT_EQ((*groups)[1].launch_template.name, "spot");
  EXPECT_EQ((*groups)[1].launch_template.version, "3");
  EXPECT_EQ((*groups)[2].launch_template.name, "");
  EXPECT_EQ((*groups)[2].launch_template.version, "");
}

TEST(ParseAutoScalingGroups, NamesTheLaunchTemplateFieldThatIsWrong) {
  absl::StatusOr<std::vector<AutoScalingGroupRecord>> groups = ParseAutoScalingGroups(
      R"({"AutoScalingGroups": [
          {"AutoScalingGroupName": "a", "MinSize": 0, "MaxSize": 4,
           "LaunchTemplate": {"Version": "$Newest"}},
          {"AutoScalingGroupName": "b", "MinSize": 0, "MaxSize": 4,
           "MixedInstancesPolicy": {"LaunchTemplate": {
             "LaunchTemplateSpecification": {"LaunchTemplateName": "x", "Version": "0"}}}},
          {"AutoScalingGroupName": "c", "MinSize": 0, "MaxSize": 4, "LaunchTemplate": 7}]})",
      "asgs.json");
  ASSERT_FALSE(groups.ok());
  EXPECT_EQ(groups.status().message(),
            "asgs.json: AutoScalingGroups[0].LaunchTemplate.LaunchTemplateId: required: the "
            "template's LaunchTemplateId or LaunchTemplateName\n"
            "asgs.json: AutoScalingGroups[0].LaunchTemplate.Version: \"$Newest\": must be a "
            "version number, $Latest or $Default\n"
            "asgs.json: AutoScalingGroups[1].MixedInstancesPolicy.LaunchTemplate."
            "LaunchTemplateSpecification.Version: \"0\": must be a version number, $Latest or "
            "$Default\n"
            "asgs.json: AutoScalingGroups[2].LaunchTemplate: must be an object");
}

}  // namespace
}  // namespace karpenter::sim
