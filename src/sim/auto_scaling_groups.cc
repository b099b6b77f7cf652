#include "src/sim/auto_scaling_groups.h"

#include <algorithm>

#include "src/api/karpenter_labels.h"
#include "src/sim/drain.h"

namespace karpenter::sim {
namespace {

// `kubectl drain` evicts through the eviction API and, when a PodDisruptionBudget refuses, waits
// 5 s and tries again, without a deadline unless --timeout is given: nothing is forced.
DrainOptions KubectlDrain() {
  DrainOptions options;
  options.retry_base = 5000;
  options.retry_max = 5000;
  return options;
}

InstanceRequest RequestFor(const NodeGroup& spec, const std::string& zone, double price) {
  InstanceRequest request;
  request.instance_type = spec.instance_type;
  request.zone = zone;
  request.capacity_type = spec.capacity_type;
  request.price = price;
  request.node_group = spec.name;
  request.labels = spec.labels;
  request.labels[kNodeGroupLabelKey] = spec.name;
  request.labels["eks.amazonaws.com/capacityType"] =
      spec.capacity_type == "spot" ? "SPOT" : "ON_DEMAND";
  request.taints = spec.taints;
  return request;
}

}  // namespace

AutoScalingGroups::AutoScalingGroups(Cluster& cluster, const std::vector<NodeGroup>& groups)
    : cluster_(cluster) {
  for (const NodeGroup& group : groups) groups_[group.name].spec = group;
}

void AutoScalingGroups::LaunchInitial() {
  for (auto& [name, state] : groups_) {
    for (int i = 0; i < state.spec.initial_size; ++i) {
      const std::string zone = ZonesByUse(state).front();
      absl::StatusOr<double> price =
          cluster_.ec2().Price(state.spec.instance_type, zone, state.spec.capacity_type);
      state.instances.push_back(cluster_.LaunchInstance(
          RequestFor(state.spec, zone, price.value_or(0)), /*initial=*/true));
    }
    state.desired = state.spec.initial_size;
  }
}

std::vector<std::string> AutoScalingGroups::ZonesByUse(const GroupState& state) const {
  std::map<std::string, int> use;
  for (const std::string& zone : state.spec.zones) use[zone] = 0;
  for (const std::string& id : state.instances) {
    auto it = cluster_.instances().find(id);
    if (it != cluster_.instances().end()) ++use[it->second.request.zone];
  }
  std::vector<std::string> zones = state.spec.zones;
  std::stable_sort(zones.begin(), zones.end(), [&](const std::string& a, const std::string& b) {
    if (use[a] != use[b]) return use[a] < use[b];
    return a < b;
  });
  return zones;
}

absl::Status AutoScalingGroups::SetDesiredCapacity(const std::string& group, int desired) {
  GroupState* state = Find(group);
  if (state == nullptr) return absl::NotFoundError("no auto scaling group " + group);
  desired = std::clamp(desired, state->spec.min_size, state->spec.max_size);
  const int current = static_cast<int>(state->instances.size()) + state->launches_in_flight;
  cluster_.log().Record(
      cluster_.queue().now(), "SetDesiredCapacity",
      {Str("nodeGroup", group), Count("from", static_cast<int64_t>(state->desired)),
       Count("to", static_cast<int64_t>(desired))});
  state->desired = desired;
  for (int i = current; i < desired; ++i) {
    ++state->launches_in_flight;
    state->requested.push_back(cluster_.queue().now());
    cluster_.queue().After(Sample(cluster_.latency().asg_launch_delay, cluster_.random()),
                           [this, group] { LaunchOne(group); });
  }
  return absl::OkStatus();
}

void AutoScalingGroups::InstanceLost(const std::string& id) {
  for (auto& [name, state] : groups_) {
    if (std::find(state.instances.begin(), state.instances.end(), id) == state.instances.end()) {
      continue;
    }
    std::erase(state.instances, id);
    ++state.launches_in_flight;
    state.requested.push_back(cluster_.queue().now());
    const std::string group = name;
    cluster_.queue().After(Sample(cluster_.latency().asg_launch_delay, cluster_.random()),
                           [this, group] { LaunchOne(group); });
    return;
  }
}

void AutoScalingGroups::LaunchOne(const std::string& group) {
  GroupState* state = Find(group);
  if (state == nullptr || state->launches_in_flight == 0) return;
  --state->launches_in_flight;
  const SimMillis requested_at =
      state->requested.empty() ? cluster_.queue().now() : state->requested.front();
  if (!state->requested.empty()) state->requested.erase(state->requested.begin());
  // Desired was lowered meanwhile (CA gave up on the slot): nothing to launch.
  if (static_cast<int>(state->instances.size()) >= state->desired) return;
  for (const std::string& zone : ZonesByUse(*state)) {
    absl::StatusOr<double> price = cluster_.ec2().RunInstance(
        state->spec.instance_type, zone, state->spec.capacity_type, cluster_.queue().now());
    if (!price.ok()) continue;
    InstanceRequest request = RequestFor(state->spec, zone, *price);
    request.requested_at = requested_at;
    state->instances.push_back(cluster_.LaunchInstance(std::move(request)));
    return;
  }
  state->last_failed_activity = cluster_.queue().now();
  cluster_.log().Record(cluster_.queue().now(), "ScalingActivityFailed",
                        {Str("nodeGroup", group), Str("reason", "InsufficientInstanceCapacity")});
}

void AutoScalingGroups::TerminateInstance(const std::string& group, const std::string& id) {
  GroupState* state = Find(group);
  if (state == nullptr) return;
  std::erase(state->instances, id);
  state->desired = std::max(0, state->desired - 1);
  cluster_.TerminateInstance(id);
}

void AutoScalingGroups::Retire(const std::string& group) {
  GroupState* state = Find(group);
  if (state == nullptr) return;
  // The group stops launching at once; its instances leave as their drains finish.
  state->desired = 0;
  state->spec.min_size = 0;
  state->spec.max_size = 0;
  state->spec.autoscaled = false;
  state->launches_in_flight = 0;
  state->requested.clear();
  const std::vector<std::string> ids = state->instances;
  // Pods these drains take away are replaced as migration pods (pod_sets.h).
  for (const std::string& id : ids) cluster_.SetRemovalCause(id, PodSet::kMigration);
  for (const std::string& id : ids) cluster_.Cordon(id);
  for (const std::string& id : ids) {
    auto instance = cluster_.instances().find(id);
    const std::string node_name =
        instance == cluster_.instances().end() ? "" : instance->second.node.metadata.name;
    StartDrain(cluster_, node_name, KubectlDrain(), [this, group, id](bool) {
      GroupState* retired = Find(group);
      if (retired != nullptr) std::erase(retired->instances, id);
      cluster_.TerminateInstance(id);
    });
  }
}

GroupState* AutoScalingGroups::Find(const std::string& group) {
  auto it = groups_.find(group);
  return it == groups_.end() ? nullptr : &it->second;
}

const GroupState* AutoScalingGroups::GroupOfNode(const std::string& node_name) const {
  const Instance* instance = cluster_.FindInstanceByNode(node_name);
  if (instance == nullptr) return nullptr;
  auto it = groups_.find(instance->request.node_group);
  return it == groups_.end() ? nullptr : &it->second;
}

}  // namespace karpenter::sim
