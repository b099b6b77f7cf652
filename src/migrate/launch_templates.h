// Launch templates as `aws ec2 describe-launch-template-versions` prints them, reduced to what an
// EC2NodeClass can carry: the AMI, block devices, IMDS settings and security groups (user data
// is only noted: Karpenter writes its own bootstrap).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"
#include "nlohmann/json.hpp"

namespace karpenter::migrate {

struct LaunchTemplateVersion {
  std::string id;    // LaunchTemplateId
  std::string name;  // LaunchTemplateName
  int64_t version = 0;
  bool default_version = false;
  std::string image_id;
  // EC2NodeClass blockDeviceMappings, already in Karpenter's spelling (deviceName, ebs{...}).
  nlohmann::ordered_json block_device_mappings = nlohmann::ordered_json::array();
  // EC2NodeClass metadataOptions; null when the template sets none.
  nlohmann::ordered_json metadata_options;
  bool instance_metadata_tags = false;
  std::vector<std::string> security_groups;  // SecurityGroupIds and NetworkInterfaces[].Groups
  bool has_user_data = false;
};

// InvalidArgument with every bad field as "SOURCE: LaunchTemplateVersions[i].Field: why".
absl::StatusOr<std::vector<LaunchTemplateVersion>> ParseLaunchTemplateVersions(
    std::string_view text, std::string_view source);
absl::StatusOr<std::vector<LaunchTemplateVersion>> LoadLaunchTemplateVersionsFile(
    const std::string& path);

// The version a node group uses: `ref` is the template's name or id, `version` a number,
// "$Default", "$Latest" or empty (the default version).
const LaunchTemplateVersion* FindLaunchTemplate(const std::vector<LaunchTemplateVersion>& versions,
                                                const std::string& ref, const std::string& version);

}  // namespace karpenter::migrate
