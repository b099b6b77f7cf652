#include "src/sim/cluster_autoscaler.h"

#include <algorithm>
#include <set>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/pod_resources.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/snapshot_input.h"
#include "src/sim/ca_balance.h"
#include "src/sim/drain.h"
#include "src/state/pod_predicates.h"

namespace karpenter::sim {
namespace {

double Fraction(const api::ResourceList& requested, const api::ResourceList& allocatable,
                const std::string& resource) {
  auto a = allocatable.find(resource);
  if (a == allocatable.end() || a->second.MilliValue() == 0) return 0;
  auto r = requested.find(resource);
  if (r == requested.end()) return 0;
  return static_cast<double>(r->second.MilliValue()) / static_cast<double>(a->second.MilliValue());
}

double Cores(const api::ResourceList& list) {
  auto it = list.find("cpu");
  return it == list.end() ? 0 : static_cast<double>(it->second.MilliValue()) / 1000.0;
}

double Bytes(const api::ResourceList& list) {
  auto it = list.find("memory");
  return it == list.end() ? 0 : static_cast<double>(it->second.Value());
}

}  // namespace

void ClusterAutoscaler::Start() {
  // CA was started at some unknown moment before the trace: its scan tick and ASG refresh run
  // at a random phase relative to the workload (peers.md §3.3 C1: a U(0, scan interval) wait).
  Random& random = cluster_.random();
  const SimMillis now = cluster_.queue().now();
  ScheduleLoop(now + static_cast<SimMillis>(random.Uniform01() *
                                            Sample(cluster_.latency().ca_scan_interval, random)));
  if (options_.frequent_loops) cluster_.set_on_unschedulable([this] { OnPodsUnschedulable(); });
  const SimMillis refresh = static_cast<SimMillis>(
      random.Uniform01() * Sample(cluster_.latency().asg_refresh_interval, random));
  cluster_.queue().At(now + refresh, [this] { Refresh(); });
}

provisioning::ExistingNodeView ClusterAutoscaler::TemplateNode(const GroupState& group) const {
  provisioning::ExistingNodeView view;
  view.name = group.spec.name;
  const cloudprovider::InstanceType* type = cluster_.ec2().catalog().Find(group.spec.instance_type);
  if (type != nullptr) {
    view.labels = type->labels;
    view.allocatable = type->Allocatable();
    view.capacity = type->capacity;
  }
  for (const auto& [key, value] : group.spec.labels) view.labels[key] = value;
  view.labels[kNodeGroupLabelKey] = group.spec.name;
  if (!group.spec.zones.empty()) {
    view.labels[std::string(api::kLabelTopologyZone)] = group.spec.zones.front();
  }
  view.taints = group.spec.taints;
  return view;
}

void ClusterAutoscaler::ScheduleLoop(SimMillis at) {
  const uint64_t generation = ++loop_generation_;
  cluster_.queue().At(std::max(at, busy_until_), [this, generation] { Loop(generation); });
}

void ClusterAutoscaler::OnPodsUnschedulable() {
  // Only pods not seen before start a loop; the rest wait for the tick as usual.
  bool new_pod = false;
  for (const PodRecord* record : cluster_.UnschedulablePods()) {
    new_pod = seen_unschedulable_.insert(provisioning::PodKey(record->pod)).second || new_pod;
  }
  if (new_pod) ScheduleLoop(cluster_.queue().now());
}

void ClusterAutoscaler::Loop(uint64_t generation) {
  if (stopped_ || generation != loop_generation_) return;
  const SimMillis now = cluster_.queue().now();
  absl::Status built = BuildInput();
  if (!built.ok()) {
    cluster_.log().Record(now, "ClusterAutoscalerError", {Str("error", built.ToString())});
  } else {
    std::vector<api::Pod> pending;
    for (const PodRecord* record : cluster_.UnschedulablePods()) pending.push_back(record->pod);
    const bool scaled = !pending.empty() && ScaleUp(pending, input_->input.daemonset_pods);
    if (!scaled && options_.scale_down_enabled) ScaleDown(input_->input);
  }
  ScheduleLoop(now + Sample(cluster_.latency().ca_scan_interval, cluster_.random()));
}

absl::Status ClusterAutoscaler::BuildInput() {
  if (input_ != nullptr && input_generation_ == cluster_.generation()) return absl::OkStatus();
  input_ = nullptr;
  KP_ASSIGN_OR_RETURN(std::shared_ptr<const state::ClusterSnapshot> snapshot,
                      cluster_.SharedSnapshot(/*schedulable_only=*/true));
  // The region's catalog, should the snapshot carry NodePools the groups' nodes never use.
  provisioning::CatalogCache catalogs(cluster_.ec2().catalog().spot_prices(),
                                      cluster_.ec2().catalog().region());
  KP_ASSIGN_OR_RETURN(provisioning::SnapshotSchedulerInput input,
                      provisioning::BuildSchedulerInput(
                          *snapshot, {.bound_pod_charges = &bound_pod_charges_}, catalogs));
  input_ = std::make_unique<provisioning::SnapshotSchedulerInput>(std::move(input));
  input_generation_ = cluster_.generation();
  return absl::OkStatus();
}

std::vector<api::Pod> ClusterAutoscaler::NotFittingUpcomingNodes(
    const std::vector<api::Pod>& pending, const std::vector<api::Pod>& daemons) const {
  std::vector<provisioning::ExistingNodeView> upcoming;
  for (const auto& [name, group] : groups_.groups()) {
    int ready = 0;
    for (const std::string& id : group.instances) {
      auto it = cluster_.instances().find(id);
      if (it != cluster_.instances().end() && it->second.phase == NodePhase::kReady) ++ready;
    }
    for (int i = ready; i < group.desired; ++i) {
      provisioning::ExistingNodeView view = TemplateNode(group);
      view.name = fmt::format("{}-upcoming-{:05d}", name, i);
      upcoming.push_back(std::move(view));
    }
  }
  std::vector<api::Pod> remaining = pending;
  if (upcoming.empty()) return remaining;
  provisioning::SchedulerInput input;
  input.existing_nodes = std::move(upcoming);
  input.daemonset_pods = daemons;
  input.pending_pods = pending;
  provisioning::SchedulerResult result = provisioning::Solve(input);
  std::set<std::string> placed;
  for (const auto& [node, pods] : result.existing_node_pods)
    placed.insert(pods.begin(), pods.end());
  std::erase_if(remaining,
                [&](const api::Pod& pod) { return placed.contains(provisioning::PodKey(pod)); });
  return remaining;
}

std::vector<ExpansionOption> ClusterAutoscaler::ExpansionOptions(
    const std::vector<api::Pod>& pods, const std::vector<api::Pod>& daemons) const {
  const SimMillis now = cluster_.queue().now();
  std::vector<ExpansionOption> options;
  for (const auto& [name, group] : groups_.groups()) {
    if (!group.spec.autoscaled || group.desired >= group.spec.max_size) continue;
    auto backoff = backoff_until_.find(name);
    if (backoff != backoff_until_.end() && backoff->second > now) continue;
    const provisioning::ExistingNodeView node = TemplateNode(group);
    const int room = group.spec.max_size - group.desired;
    Estimate estimate =
        EstimateNodes(node, std::min<int>(room, static_cast<int>(pods.size())), pods, daemons);
    if (estimate.nodes == 0) continue;
    options.push_back({name, std::move(estimate), Cores(node.allocatable), Bytes(node.allocatable),
                       group.spec.priority});
  }
  return options;
}

bool ClusterAutoscaler::ScaleUp(const std::vector<api::Pod>& pending,
                                const std::vector<api::Pod>& daemons) {
  const SimMillis now = cluster_.queue().now();
  // Pods that fit on nodes already requested (desired but not yet Ready) wait for those.
  const std::vector<api::Pod> remaining = NotFittingUpcomingNodes(pending, daemons);
  if (remaining.empty()) return false;
  const std::vector<ExpansionOption> options = ExpansionOptions(remaining, daemons);
  if (options.empty()) {
    cluster_.log().Record(now, "NoScaleUp",
                          {Count("pods", static_cast<int64_t>(remaining.size()))});
    return false;
  }
  for (const ExpansionOption& option : options) {
    const double cpu = option.estimate.nodes * option.node_cpu;
    cluster_.log().Record(now, "ExpansionOption",
                          {Str("nodeGroup", option.group),
                           Count("nodes", static_cast<int64_t>(option.estimate.nodes)),
                           Count("pods", static_cast<int64_t>(option.estimate.pods.size())),
                           Num("idleCpu", cpu - option.estimate.cpu_requested)});
  }
  const ExpansionOption& chosen =
      options[ChooseExpansion(options_.expander, options, cluster_.random())];
  const int nodes = chosen.estimate.nodes;
  cluster_.log().Record(
      now, "ScaleUp",
      {Str("nodeGroup", chosen.group), Count("nodes", static_cast<int64_t>(chosen.estimate.nodes)),
       Count("pods", static_cast<int64_t>(chosen.estimate.pods.size())),
       Count("options", static_cast<int64_t>(options.size()))});
  std::map<std::string, int> increases = {{chosen.group, nodes}};
  if (options_.balance_similar_node_groups) increases = Balance(chosen, options);
  const SimMillis decided = now + Sample(cluster_.latency().ca_loop_compute, cluster_.random());
  last_scale_up_ = decided;
  busy_until_ = decided;
  // The request (and the node-ready clock) starts when IncreaseSize is called.
  // IncreaseSize is relative: a refresh in between may have lowered desired.
  for (const auto& [name, count] : increases) {
    cluster_.queue().At(decided, [this, name = name, count = count] {
      GroupState* group = groups_.Find(name);
      if (group != nullptr) groups_.SetDesiredCapacity(name, group->desired + count).IgnoreError();
    });
  }
  return true;
}

std::map<std::string, int> ClusterAutoscaler::Balance(const ExpansionOption& chosen,
                                                      const std::vector<ExpansionOption>& options) {
  const GroupState* chosen_group = groups_.Find(chosen.group);
  const provisioning::ExistingNodeView chosen_node = TemplateNode(*chosen_group);
  // The chosen group first (it wins ties), then the similar ones that could also take the pods.
  std::vector<BalanceGroup> similar = {
      {chosen.group, chosen_group->desired, chosen_group->spec.max_size}};
  for (const ExpansionOption& option : options) {
    const GroupState* group = groups_.Find(option.group);
    if (option.group == chosen.group || !SimilarNodeGroups(chosen_node, TemplateNode(*group))) {
      continue;
    }
    similar.push_back({option.group, group->desired, group->spec.max_size});
  }
  std::map<std::string, int> increases = BalanceScaleUp(similar, chosen.estimate.nodes);
  if (increases.size() > 1) {
    for (const auto& [name, count] : increases) {
      cluster_.log().Record(cluster_.queue().now(), "ScaleUpBalanced",
                            {Str("nodeGroup", name), Count("nodes", static_cast<int64_t>(count)),
                             Count("similarGroups", static_cast<int64_t>(similar.size()))});
    }
  }
  return increases;
}

void ClusterAutoscaler::BackOff(GroupState& group, const std::string& reason) {
  const SimMillis now = cluster_.queue().now();
  SimMillis& duration = backoff_duration_[group.spec.name];
  const SimMillis initial = Sample(cluster_.latency().node_group_backoff, cluster_.random());
  const SimMillis max = Sample(cluster_.latency().node_group_max_backoff, cluster_.random());
  duration = duration == 0 ? initial : std::min(max, duration * 2);
  backoff_until_[group.spec.name] = now + duration;
  // Placeholders are removed: desired falls back to what actually exists.
  const int actual = static_cast<int>(group.instances.size());
  cluster_.log().Record(
      now, "NodeGroupBackoff",
      {Str("nodeGroup", group.spec.name), Str("reason", reason),
       Num("seconds", MillisToSeconds(duration)),
       Count("placeholdersRemoved", static_cast<int64_t>(group.desired - actual))});
  group.desired = actual;
  group.launches_in_flight = 0;
  group.requested.clear();
}

void ClusterAutoscaler::Refresh() {
  if (stopped_) return;
  const SimMillis now = cluster_.queue().now();
  const SimMillis timeout = Sample(cluster_.latency().max_node_provision_time, cluster_.random());
  for (auto& [name, group] : groups_.groups()) {
    if (group.last_failed_activity && *group.last_failed_activity >= last_refresh_) {
      BackOff(group, "placeholder-cannot-be-fulfilled");
      continue;
    }
    // Instances that launched but never registered are deleted, as CA deletes the leftovers.
    std::vector<std::string> stuck;
    for (const std::string& id : group.instances) {
      auto it = cluster_.instances().find(id);
      if (it != cluster_.instances().end() && it->second.phase == NodePhase::kBooting &&
          now - it->second.launched_at >= timeout) {
        stuck.push_back(id);
      }
    }
    for (const std::string& id : stuck) groups_.TerminateInstance(name, id);
    if (!stuck.empty() || (!group.requested.empty() && now - group.requested.front() >= timeout)) {
      BackOff(group, "max-node-provision-time");
    }
  }
  last_refresh_ = now;
  cluster_.queue().After(Sample(cluster_.latency().asg_refresh_interval, cluster_.random()),
                         [this] { Refresh(); });
}

bool ClusterAutoscaler::PodsFitElsewhere(provisioning::SchedulerInput& others,
                                         std::unique_ptr<provisioning::SolveCache>& cache,
                                         const std::string& node_name) const {
  others.pending_pods.clear();
  for (const PodRecord* record : cluster_.WorkloadPodsOn(node_name)) {
    api::Pod pod = record->pod;
    pod.spec.node_name.clear();
    others.pending_pods.push_back(std::move(pod));
  }
  if (others.pending_pods.empty()) return true;
  if (cache == nullptr) cache = std::make_unique<provisioning::SolveCache>(others);
  others.removed_nodes = {node_name};
  return provisioning::Solve(others, *cache).unschedulable.empty();
}

const std::set<std::string>& ClusterAutoscaler::UnneededNodes(
    const provisioning::SchedulerInput& schedulable) {
  if (unneeded_generation_ == cluster_.generation()) return unneeded_nodes_;
  unneeded_nodes_.clear();
  provisioning::SchedulerInput others;
  others.existing_nodes = schedulable.existing_nodes;
  others.daemonset_pods = schedulable.daemonset_pods;
  std::unique_ptr<provisioning::SolveCache> cache;
  for (const provisioning::ExistingNodeView& node : schedulable.existing_nodes) {
    const GroupState* group = groups_.GroupOfNode(node.name);
    if (group == nullptr || !group->spec.autoscaled) continue;
    const double utilisation = std::max(Fraction(node.requested, node.allocatable, "cpu"),
                                        Fraction(node.requested, node.allocatable, "memory"));
    if (utilisation >= options_.scale_down_utilization_threshold) continue;
    bool system_pod = false;
    for (const PodRecord* record : cluster_.WorkloadPodsOn(node.name)) {
      system_pod = system_pod || record->pod.metadata.namespace_ == "kube-system";
    }
    if (system_pod || !PodsFitElsewhere(others, cache, node.name)) continue;
    unneeded_nodes_.insert(node.name);
  }
  unneeded_generation_ = cluster_.generation();
  return unneeded_nodes_;
}

void ClusterAutoscaler::ScaleDown(const provisioning::SchedulerInput& schedulable) {
  const SimMillis now = cluster_.queue().now();
  const std::set<std::string>& still_unneeded = UnneededNodes(schedulable);
  for (const std::string& node : still_unneeded) unneeded_since_.try_emplace(node, now);
  std::erase_if(unneeded_since_,
                [&](const auto& entry) { return !still_unneeded.contains(entry.first); });
  const SimMillis cooldown =
      Sample(cluster_.latency().scale_down_delay_after_add, cluster_.random());
  if (last_scale_up_ >= 0 && now - last_scale_up_ < cooldown) return;
  const SimMillis unneeded_time =
      Sample(cluster_.latency().scale_down_unneeded_time, cluster_.random());
  int empty_deleted = 0;
  bool drained = false;
  std::vector<std::string> removed;
  for (const auto& [node_name, since] : unneeded_since_) {
    if (now - since < unneeded_time) continue;
    const Instance* instance = cluster_.FindInstanceByNode(node_name);
    GroupState* group = instance ? groups_.Find(instance->request.node_group) : nullptr;
    // A node being drained still counts in `desired` until it goes: it is not spare capacity.
    if (group == nullptr ||
        group->desired - draining_in_[group->spec.name] <= group->spec.min_size) {
      continue;
    }
    const bool empty = cluster_.WorkloadPodsOn(node_name).empty();
    if (empty && empty_deleted >= options_.max_empty_bulk_delete) continue;
    if (!empty && (drained || draining_)) continue;  // --max-drain-parallelism 1
    const std::string id = instance->id;
    cluster_.log().Record(now, "ScaleDown",
                          {Str("nodeGroup", group->spec.name), Str("node", node_name),
                           Str("kind", empty ? "empty" : "drain")});
    removed.push_back(node_name);
    if (empty) {
      ++empty_deleted;
      groups_.TerminateInstance(group->spec.name, id);
      continue;
    }
    drained = true;
    draining_ = true;
    ++draining_in_[group->spec.name];
    cluster_.Cordon(id);
    // Evictions honour PDBs, retried every 10 s for up to 2 minutes; a drain that cannot
    // finish leaves the node (uncordoned) in its group.
    const DrainOptions drain{.retry_base = kEvictionRetryMillis,
                             .retry_max = kEvictionRetryMillis,
                             .give_up_after = kMaxPodEvictionMillis};
    const std::string group_name = group->spec.name;
    StartDrain(cluster_, node_name, drain, [this, group_name, id](bool drained_all) {
      draining_ = false;
      --draining_in_[group_name];
      if (drained_all) {
        groups_.TerminateInstance(group_name, id);
      } else {
        cluster_.Uncordon(id);
      }
    });
  }
  for (const std::string& node_name : removed) unneeded_since_.erase(node_name);
}

}  // namespace karpenter::sim
