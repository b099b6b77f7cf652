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

// One MixedInstancesPolicy.LaunchTemplate.Overrides entry.
struct InstanceOverride {
  std::string instance_type;
  std::string weighted_capacity;  // as the CLI prints it ("2"); empty when unweighted
};

// The launch template an Auto Scaling group launches from (LaunchTemplate, or
// MixedInstancesPolicy.LaunchTemplate.LaunchTemplateSpecification): by id or name, and a version
// number, "$Latest" or "$Default" (empty: the default version).
struct LaunchTemplateSpec {
  std::string id;
  std::string name;
  std::string version;
};

struct AutoScalingGroupRecord {
  std::string name;        // AutoScalingGroupName
  std::string node_group;  // the eks:nodegroup-name tag, or empty
  int min_size = 0;
  int max_size = 0;
  bool autoscaled = false;                // tagged k8s.io/cluster-autoscaler/enabled
  std::vector<std::string> instance_ids;  // Instances[].InstanceId
  // MixedInstancesPolicy, for `karpenter migrate` to say what a NodePool cannot carry.
  std::vector<InstanceOverride> overrides;
  int on_demand_base = 0;          // InstancesDistribution.OnDemandBaseCapacity
  int on_demand_percentage = 100;  // InstancesDistribution.OnDemandPercentageAboveBaseCapacity
  // For `karpenter migrate` to carry a self-managed group's template; empty without one.
  LaunchTemplateSpec launch_template;
};

// Every problem is reported, one per line, as "SOURCE: AutoScalingGroups[i].Field: why".
absl::StatusOr<std::vector<AutoScalingGroupRecord>> ParseAutoScalingGroups(std::string_view text,
                                                                           std::string_view source);
absl::StatusOr<std::vector<AutoScalingGroupRecord>> LoadAutoScalingGroupsFile(
    const std::string& path);

}  // namespace karpenter::sim
