// The Auto Scaling groups of a cluster as `aws autoscaling describe-auto-scaling-groups` prints
// them (JSON, or the same as YAML): what `sim --from` cannot read from Kubernetes — a node
// group's bounds and whether Cluster Autoscaler may resize it (its auto-discovery tag).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"

namespace karpenter::sim {

// Cluster Autoscaler's auto-discovery tag: a group without it is not resized.
inline constexpr char kAutoDiscoveryTag[] = "k8s.io/cluster-autoscaler/enabled";
// The managed node group an Auto Scaling group runs.
inline constexpr char kEksNodeGroupTag[] = "eks:nodegroup-name";

struct AutoScalingGroupRecord {
  std::string name;        // AutoScalingGroupName
  std::string node_group;  // the eks:nodegroup-name tag, or empty
  int min_size = 0;
  int max_size = 0;
  bool autoscaled = false;                // tagged k8s.io/cluster-autoscaler/enabled
  std::vector<std::string> instance_ids;  // Instances[].InstanceId
};

// Every problem is reported, one per line, as "SOURCE: AutoScalingGroups[i].Field: why".
absl::StatusOr<std::vector<AutoScalingGroupRecord>> ParseAutoScalingGroups(std::string_view text,
                                                                           std::string_view source);
absl::StatusOr<std::vector<AutoScalingGroupRecord>> LoadAutoScalingGroupsFile(
    const std::string& path);

}  // namespace karpenter::sim
