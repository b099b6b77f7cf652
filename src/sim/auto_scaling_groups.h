// The twin's EC2 Auto Scaling: groups with one instance type over fixed zones (managed node
// groups are ASGs underneath), a desired capacity that launches after `asgLaunchDelay` into the
// least-used zone, other zones tried on InsufficientInstanceCapacity, and a failed scaling
// activity when no zone has capacity (what Cluster Autoscaler notices at its next refresh).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/sim/cluster.h"
#include "src/sim/scenario.h"

namespace karpenter::sim {

struct GroupState {
  NodeGroup spec;
  int desired = 0;
  std::vector<std::string> instances;  // live instance ids, launch order
  int launches_in_flight = 0;
  // When each not-yet-launched slot was requested (oldest first), for provision timeouts.
  std::vector<SimMillis> requested;
  std::optional<SimMillis> last_failed_activity;
};

class AutoScalingGroups {
 public:
  AutoScalingGroups(Cluster& cluster, const std::vector<NodeGroup>& groups);

  // Every group's initial instances, Ready at t=0, spread over its zones.
  void LaunchInitial();
  // Raises or lowers desired (clamped to [min, max]); raising starts launches. NotFound for an
  // unknown group.
  absl::Status SetDesiredCapacity(const std::string& group, int desired);
  // Removes one instance and lowers desired by one (TerminateInstanceInAutoScalingGroup).
  void TerminateInstance(const std::string& group, const std::string& id);
  // EC2 took an instance away (a spot reclaim): the group notices it is below desired and
  // launches a replacement after `asgLaunchDelay`, as an ASG's health check would.
  void InstanceLost(const std::string& id);
  // The article's Phase 4: size 0, cordon every node and drain it as `kubectl drain` does
  // (evictions a PodDisruptionBudget refuses are retried every 5 s, never forced); each
  // instance is terminated once its node is drained. The pods it takes away are replaced as
  // migration pods (pod_sets.h).
  void Retire(const std::string& group);

  GroupState* Find(const std::string& group);
  std::map<std::string, GroupState>& groups() { return groups_; }
  // The group owning a node, or nullptr.
  const GroupState* GroupOfNode(const std::string& node_name) const;

 private:
  void LaunchOne(const std::string& group);
  std::vector<std::string> ZonesByUse(const GroupState& state) const;

  Cluster& cluster_;
  std::map<std::string, GroupState> groups_;
};

}  // namespace karpenter::sim
