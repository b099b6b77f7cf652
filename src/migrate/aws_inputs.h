// The AWS side of a cluster as the AWS CLI describes it: managed node groups
// (`aws eks describe-nodegroup`), subnets (`aws ec2 describe-subnets`) and the bounds of the
// Auto Scaling groups, reduced to what a migration plan maps.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"

namespace karpenter::migrate {

// A managed node group is at most 1,000 nodes (EKS's quota, never raised past that).
inline constexpr int64_t kMaxGroupSize = 1000;

struct EksTaint {
  std::string key;
  std::string value;
  std::string effect;  // EKS spelling: NO_SCHEDULE, NO_EXECUTE, PREFER_NO_SCHEDULE
};

struct EksNodegroup {
  std::string name;             // nodegroupName
  std::string cluster;          // clusterName
  std::string ami_type;         // amiType: AL2023_x86_64_STANDARD, BOTTLEROCKET_ARM_64, CUSTOM...
  std::string release_version;  // releaseVersion: "1.30.0-20240625"
  std::string capacity_type;    // ON_DEMAND | SPOT | CAPACITY_BLOCK
  std::vector<std::string> instance_types;
  int64_t min_size = 0;
  int64_t max_size = 0;
  int64_t desired_size = 0;
  std::map<std::string, std::string> labels;
  std::vector<EksTaint> taints;
  std::vector<std::string> subnets;
  std::string node_role;        // ARN
  int64_t disk_size_gib = 0;    // 0 when a launch template sets the disk
  std::string launch_template;  // its name or id, empty without one
  std::string launch_template_id;
  std::string launch_template_version;  // a number, "$Default" or "$Latest"
  std::vector<std::string> asg_names;   // resources.autoScalingGroups[].name
};

struct Subnet {
  std::string id;
  std::string zone;
  std::string vpc;
  int64_t available_ips = 0;
  std::map<std::string, std::string> tags;
};

// The bounds `aws autoscaling describe-auto-scaling-groups` gives a group when no
// describe-nodegroup output does.
struct AsgBounds {
  std::string name;
  std::string node_group;  // the eks:nodegroup-name tag
  int64_t min_size = 0;
  int64_t max_size = 0;
  std::vector<std::string> instance_ids;
  // MixedInstancesPolicy: the types of its overrides, "type=weight" for each weighted one, and
  // the on-demand split (100% on-demand unless the policy says otherwise).
  std::vector<std::string> override_types;
  std::vector<std::string> weights;
  int64_t on_demand_base = 0;
  int64_t on_demand_percentage = 100;
  // The launch template it launches from (LaunchTemplate or the MixedInstancesPolicy's
  // LaunchTemplateSpecification): by id or name; a version number, "$Latest", "$Default" or
  // empty (the default). What a self-managed group carries into its EC2NodeClass.
  std::string launch_template_id;
  std::string launch_template_name;
  std::string launch_template_version;
};

// `aws eks describe-nodegroup` output ({"nodegroup": {...}}); errors name "nodegroup.Field".
absl::StatusOr<EksNodegroup> ParseEksNodegroup(std::string_view text, std::string_view source);
absl::StatusOr<EksNodegroup> LoadEksNodegroupFile(const std::string& path);

// `aws ec2 describe-subnets` output ({"Subnets": [...]}); errors name "Subnets[i].Field".
absl::StatusOr<std::vector<Subnet>> ParseSubnets(std::string_view text, std::string_view source);
absl::StatusOr<std::vector<Subnet>> LoadSubnetsFile(const std::string& path);

}  // namespace karpenter::migrate
