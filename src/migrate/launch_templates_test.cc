#include "src/migrate/launch_templates.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::migrate {
namespace {

using ::testing::HasSubstr;

constexpr char kVersions[] = R"({"LaunchTemplateVersions": [
  {"LaunchTemplateId": "lt-1", "LaunchTemplateName": "web", "VersionNumber": 1,
   "DefaultVersion": true, "LaunchTemplateData": {}},
  {"LaunchTemplateId": "lt-1", "LaunchTemplateName": "web", "VersionNumber": 4,
   "DefaultVersion": false, "LaunchTemplateData": {"ImageId": "ami-4"}}]})";

TEST(LaunchTemplates, FindsTheVersionByNumberDefaultOrLatest) {
  absl::StatusOr<std::vector<LaunchTemplateVersion>> versions =
      ParseLaunchTemplateVersions(kVersions, "lt.json");
  ASSERT_TRUE(versions.ok()) << versions.status();
  EXPECT_EQ(FindLaunchTemplate(*versions, "web", "")->version, 1);
  EXPECT_EQ(FindLaunchTemplate(*versions, "lt-1", "$Default")->version, 1);
  EXPECT_EQ(FindLaunchTemplate(*versions, "web", "$Latest")->image_id, "ami-4");
  EXPECT_EQ(FindLaunchTemplate(*versions, "web", "4")->image_id, "ami-4");
  EXPECT_EQ(FindLaunchTemplate(*versions, "web", "7"), nullptr);
  EXPECT_EQ(FindLaunchTemplate(*versions, "api", ""), nullptr);
}

TEST(LaunchTemplates, NamesEveryBadFieldByItsPath) {
  absl::StatusOr<std::vector<LaunchTemplateVersion>> versions = ParseLaunchTemplateVersions(
      R"({"LaunchTemplateVersions": [{"LaunchTemplateData": {
          "BlockDeviceMappings": [{"Ebs": {"VolumeSize": -1, "VolumeType": "gp9",
                                           "Encrypted": "yes"}}],
          "MetadataOptions": {"HttpTokens": "sometimes", "HttpPutResponseHopLimit": 99},
          "SecurityGroupIds": [7]}}]})",
      "lt.json");
  ASSERT_FALSE(versions.ok());
  const std::string message(versions.status().message());
  const std::string at = "lt.json: LaunchTemplateVersions[0]";
  EXPECT_THAT(message, HasSubstr(at + ".LaunchTemplateId: required"));
  const std::string data = "LaunchTemplateVersions[0].LaunchTemplateData";
  EXPECT_THAT(message, HasSubstr(data + ".BlockDeviceMappings[0].DeviceName: required"));
  EXPECT_THAT(message, HasSubstr(data + ".BlockDeviceMappings[0].Ebs.VolumeSize: -1 is out of"));
  EXPECT_THAT(message, HasSubstr(data + ".BlockDeviceMappings[0].Ebs.VolumeType: \"gp9\""));
  EXPECT_THAT(message, HasSubstr(data + ".BlockDeviceMappings[0].Ebs.Encrypted: must be true"));
  EXPECT_THAT(message, HasSubstr(data + ".MetadataOptions.HttpTokens: \"sometimes\""));
  EXPECT_THAT(message, HasSubstr(data + ".MetadataOptions.HttpPutResponseHopLimit: 99 is out"));
  EXPECT_THAT(message, HasSubstr(data + ".SecurityGroupIds[0]: must be a string"));
}

TEST(LaunchTemplates, RefusesWhatIsNotADescribeOutput) {
  absl::StatusOr<std::vector<LaunchTemplateVersion>> versions =
      ParseLaunchTemplateVersions(R"({"LaunchTemplates": []})", "lt.json");
  ASSERT_FALSE(versions.ok());
  EXPECT_THAT(versions.status().message(), HasSubstr("lt.json: LaunchTemplateVersions: required"));
}

}  // namespace
}  // namespace karpenter::migrate
