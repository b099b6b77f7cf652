#include "src/sim/cluster.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/cloudprovider/aws_conventions.h"
#include "src/controllers/pod_events.h"
#include "src/provisioning/daemon_overhead.h"
#include "src/provisioning/scheduler.h"
#include "src/scheduling/selector_conversion.h"
#include "src/sim/kube_scheduler.h"
#include "src/state/daemonset_pods.h"
#include "src/state/generated_names.h"
#include "src/state/pod_predicates.h"

namespace karpenter::sim {
namespace {

// A pod condition as the kubelet and kube-scheduler keep them: its transition time moves only
// when its status does.
void SetCondition(api::Pod& pod, std::string_view type, std::string_view status,
                  std::string_view reason, api::Time now) {
  auto it =
      std::find_if(pod.status.conditions.begin(), pod.status.conditions.end(),
                   [type](const api::PodCondition& condition) { return condition.type == type; });
  if (it == pod.status.conditions.end()) {
    it = pod.status.conditions.insert(pod.status.conditions.end(), api::PodCondition{});
    it->type = std::string(type);
  }
  if (it->status != status) it->last_transition_time = now;
  it->status = std::string(status);
  it->reason = std::string(reason);
}

std::string Key(const api::ObjectMeta& metadata) {
  return metadata.namespace_.empty() ? metadata.name
                                     : absl::StrCat(metadata.namespace_, "/", metadata.name);
}

api::Taint MakeTaint(std::string key) {
  api::Taint taint;
  taint.key = std::move(key);
  taint.effect = "NoSchedule";
  return taint;
}

// "nodegroup/<name>" or "nodeclaim/<name>": who asked for the instance.
std::string Owner(const InstanceRequest& request) {
  return request.node_group.empty() ? "nodeclaim/" + request.node_claim
                                    : "nodegroup/" + request.node_group;
}

void RemoveTaint(std::vector<api::Taint>& taints, std::string_view key) {
  std::erase_if(taints, [&](const api::Taint& taint) { return taint.key == key; });
}

}  // namespace

std::optional<double> ParseJobRunSeconds(std::string_view text) {
  const size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  auto digits = [](std::string_view part) {
    return std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (whole.empty() || !digits(whole) || !digits(fraction) ||
      (dot != std::string_view::npos && fraction.empty())) {
    return std::nullopt;
  }
  double seconds = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return seconds;
}

Cluster::Cluster(EventQueue& queue, Random& random, const LatencyModel& latency, EventLog& log,
                 const Ec2& ec2, std::vector<std::string> zones)
    : queue_(queue),
      random_(random),
      latency_(latency),
      log_(log),
      ec2_(ec2),
      zones_(std::move(zones)) {}

absl::Status Cluster::Apply(api::Object object, bool initial) {
  MarkUnconsolidated();
  if (auto* deployment = std::get_if<api::Deployment>(&object)) {
    const std::string key = Key(deployment->metadata);
    DeploymentState& state = deployments_[key];
    state.deployment = std::move(*deployment);
    state.initial = initial;
    log_.Record(
        queue_.now(), "DeploymentApplied",
        {Str("deployment", key),
         Count("replicas", static_cast<int64_t>(state.deployment.spec.replicas.value_or(1)))});
    ReconcileDeployment(key);
    return absl::OkStatus();
  }
  if (auto* daemon_set = std::get_if<api::DaemonSet>(&object)) {
    const std::string key = Key(daemon_set->metadata);
    Notify("DaemonSet", (daemon_sets_[key] = std::move(*daemon_set)).metadata);
    for (const auto& [id, instance] : instances_) {
      if (instance.phase == NodePhase::kRegistered || instance.phase == NodePhase::kReady) {
        PlaceDaemonSetPods(instance);
      }
    }
    return absl::OkStatus();
  }
  if (auto* node_pool = std::get_if<api::NodePool>(&object)) {
    log_.Record(queue_.now(), "NodePoolApplied", {Str("nodePool", node_pool->metadata.name)});
    Notify("NodePool", (node_pools_[node_pool->metadata.name] = std::move(*node_pool)).metadata);
    return absl::OkStatus();
  }
  if (auto* node_class = std::get_if<api::EC2NodeClass>(&object)) {
    node_class->status.subnets.clear();
    for (const std::string& zone : zones_) {
      api::Subnet subnet;
      subnet.id = "subnet-" + zone;
      subnet.zone = zone;
      node_class->status.subnets.push_back(std::move(subnet));
    }
    log_.Record(queue_.now(), "EC2NodeClassApplied",
                {Str("ec2NodeClass", node_class->metadata.name)});
    Notify("EC2NodeClass",
           (node_classes_[node_class->metadata.name] = std::move(*node_class)).metadata);
    return absl::OkStatus();
  }
  if (auto* job = std::get_if<api::Job>(&object)) {
    const std::string key = Key(job->metadata);
    JobState& state = jobs_[key];
    double run_seconds = kDefaultJobRunSeconds;
    if (auto annotation = job->metadata.annotations.find(kJobRunSecondsAnnotation);
        annotation != job->metadata.annotations.end()) {
      // The scenario reader refused anything else with the field named.
      run_seconds = ParseJobRunSeconds(annotation->second).value_or(kDefaultJobRunSeconds);
    }
    state.run_millis = SecondsToMillis(run_seconds);
    state.job = std::move(*job);
    state.initial = initial;
    log_.Record(queue_.now(), "JobApplied", {Str("job", key)});
    ReconcileJob(key);
    return absl::OkStatus();
  }
  if (auto* stateful_set = std::get_if<api::StatefulSet>(&object)) {
    return ApplyStatefulSet(std::move(*stateful_set), initial);
  }
  if (auto* pdb = std::get_if<api::PodDisruptionBudget>(&object)) {
    const std::string key = Key(pdb->metadata);
    log_.Record(queue_.now(), "PodDisruptionBudgetApplied", {Str("podDisruptionBudget", key)});
    Notify("PodDisruptionBudget", (pdbs_[key] = std::move(*pdb)).metadata);
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      "the twin runs Deployments, StatefulSets, Jobs, DaemonSets, PodDisruptionBudgets, NodePools "
      "and EC2NodeClasses only");
}

absl::Status Cluster::ScaleDeployment(const std::string& key, int replicas) {
  auto it = deployments_.find(key);
  if (it == deployments_.end()) return absl::NotFoundError("no deployment " + key);
  it->second.deployment.spec.replicas = replicas;
  it->second.scaled = true;
  log_.Record(queue_.now(), "DeploymentScaled",
              {Str("deployment", key), Count("replicas", static_cast<int64_t>(replicas))});
  ReconcileDeployment(key);
  return absl::OkStatus();
}

absl::Status Cluster::DeleteDeployment(const std::string& key) {
  if (deployments_.erase(key) == 0) return absl::NotFoundError("no deployment " + key);
  std::vector<std::string> owned;
  for (const auto& [pod_key, record] : pods_.OwnedBy(key)) {
    if (!record->job && !record->stateful_set) owned.emplace_back(pod_key);
  }
  for (const std::string& pod_key : owned) DeletePod(pod_key);
  log_.Record(queue_.now(), "DeploymentDeleted", {Str("deployment", key)});
  RequestSchedulingPass();
  return absl::OkStatus();
}

void Cluster::ReconcileDeployment(const std::string& key) {
  auto it = deployments_.find(key);
  if (it == deployments_.end()) return;
  DeploymentState& state = it->second;
  std::vector<std::string> owned;
  for (const auto& [pod_key, record] : pods_.OwnedBy(key)) {
    if (!record->job && !record->stateful_set && !record->terminating()) {
      owned.emplace_back(pod_key);
    }
  }
  const int want = state.deployment.spec.replicas.value_or(1);
  const int have = static_cast<int>(owned.size());
  for (int i = have; i < want; ++i) CreatePod(state, key);
  // Scaled in below what it had: pods taken away earlier will not be replaced.
  if (have >= want) replacement_sets_.erase(key);
  if (have > want) {
    // Scale-in removes unbound pods first, then the newest (ReplicaSet's deletion ranking).
    std::stable_sort(owned.begin(), owned.end(), [&](const std::string& a, const std::string& b) {
      const PodRecord& pa = pods_.at(a);
      const PodRecord& pb = pods_.at(b);
      const bool bound_a = !pa.pod.spec.node_name.empty();
      const bool bound_b = !pb.pod.spec.node_name.empty();
      if (bound_a != bound_b) return !bound_a;
      return pa.created_at > pb.created_at;
    });
    for (int i = 0; i < have - want; ++i) DeletePod(owned[i]);
  }
  if (have != want) RequestSchedulingPass();
}

void Cluster::CreatePod(DeploymentState& state, const std::string& key) {
  const api::Deployment& deployment = state.deployment;
  AddPod(deployment.spec.template_, deployment.metadata.namespace_, "ReplicaSet",
         deployment.metadata.name, key, state.initial, !state.initial || state.scaled);
}

PodRecord& Cluster::AddPod(const api::PodTemplateSpec& template_spec, const std::string& ns,
                           const std::string& owner_kind, const std::string& owner_name,
                           const std::string& key, bool initial, bool workload,
                           const std::string& name) {
  api::Pod pod;
  pod.metadata.namespace_ = ns;
  // Deployments keep the bare key their pods were always named from; other owners are prefixed
  // with their kind so a Job and a Deployment of one name never share pod names.
  const std::string owner_key = owner_kind == "ReplicaSet" ? key : owner_kind + "/" + key;
  const std::string ordinal = std::to_string(pods_created_[owner_key]++);
  pod.metadata.name = !name.empty() ? name
                                    : state::GeneratedName(owner_name + "-",
                                                           state::StableHash({owner_key, ordinal}));
  pod.metadata.uid = state::DeterministicUid({"pod", owner_key, ordinal});
  pod.metadata.labels = template_spec.metadata.labels;
  pod.metadata.annotations = template_spec.metadata.annotations;
  pod.metadata.creation_timestamp = queue_.Now();
  api::OwnerReference owner;
  owner.api_version = owner_kind == "Job" ? "batch/v1" : "apps/v1";
  owner.kind = owner_kind;
  owner.name = owner_name;
  owner.controller = true;
  pod.metadata.owner_references.push_back(std::move(owner));
  pod.spec = template_spec.spec;
  pod.status.phase = "Pending";
  api::ApplyDefaults(pod);
  PodRecord record;
  record.created_at = queue_.now();
  record.measured = !initial;
  if (auto replaced = replacement_sets_.find(key); replaced != replacement_sets_.end()) {
    record.set = replaced->second.front();
    replaced->second.pop_front();
    if (replaced->second.empty()) replacement_sets_.erase(replaced);
  } else if (workload) {
    record.set = PodSet::kWorkload;
  }
  if (record.set) ++counters_.pod_sets[static_cast<size_t>(*record.set)].pods;
  record.owner = key;
  record.job = owner_kind == "Job";
  record.stateful_set = owner_kind == "StatefulSet";
  const std::string pod_key = Key(pod.metadata);
  record.pod = std::move(pod);
  log_.Record(queue_.now(), "PodCreated", {Str("pod", pod_key)});
  ++generation_;
  PodChanged(pod_key, record.pod.metadata);
  return pods_.Put(pod_key, std::move(record));
}

void Cluster::ReconcileJob(const std::string& key) {
  auto it = jobs_.find(key);
  if (it == jobs_.end()) return;
  JobState& state = it->second;
  const int32_t parallelism = state.job.spec.parallelism.value_or(1);
  const int32_t completions = state.job.spec.completions.value_or(1);
  int32_t active = 0;
  for (const auto& [pod_key, record] : pods_.OwnedBy(key)) {
    active += record->job && !record->terminating();
  }
  const int32_t wanted = std::min(parallelism, completions - state.succeeded) - active;
  for (int32_t i = 0; i < wanted; ++i) {
    AddPod(state.job.spec.template_, state.job.metadata.namespace_, "Job", state.job.metadata.name,
           key, state.initial, !state.initial);
  }
  if (wanted > 0) RequestSchedulingPass();
}

void Cluster::CompleteJobPod(const std::string& pod_key, const std::string& uid) {
  auto it = pods_.find(pod_key);
  if (it == pods_.end() || it->second.pod.metadata.uid != uid || it->second.terminating()) {
    return;  // evicted meanwhile
  }
  const std::string job = it->second.owner;
  log_.Record(queue_.now(), "PodSucceeded", {Str("pod", pod_key)});
  DeletePod(pod_key);
  auto state = jobs_.find(job);
  if (state == jobs_.end()) return;
  ++state->second.succeeded;
  if (state->second.succeeded == state->second.job.spec.completions.value_or(1)) {
    log_.Record(queue_.now(), "JobCompleted", {Str("job", job)});
  }
  ReconcileJob(job);
}

void Cluster::DeletePod(const std::string& key) {
  auto it = pods_.find(key);
  if (it != pods_.end() && !it->second.pod.spec.node_name.empty()) {
    // A pod that was terminating had its event as it started to; its removal is none.
    if (!it->second.terminating()) NotePodEvent(it->second.pod);
    NoteCapacityEvent();
  }
  MarkUnconsolidated();
  if (it != pods_.end()) {
    PodChanged(key, it->second.pod.metadata);
    pods_.Erase(it);
  }
  log_.Record(queue_.now(), "PodDeleted", {Str("pod", key)});
}

void Cluster::PutNodeClaim(api::NodeClaim node_claim) {
  std::string name = node_claim.metadata.name;
  const api::NodeClaim& stored = node_claims_[name] = std::move(node_claim);
  NodeClaimChanged(stored.metadata);
  MarkUnconsolidated();
}

void Cluster::DeleteNodeClaim(const std::string& name) {
  auto it = node_claims_.find(name);
  if (it != node_claims_.end()) {
    NodeClaimChanged(it->second.metadata);
    node_claims_.erase(it);
  }
  MarkUnconsolidated();
}

bool Cluster::MarkNodeClaimDeleting(const std::string& name) {
  auto it = node_claims_.find(name);
  if (it == node_claims_.end() || it->second.metadata.deletion_timestamp) return false;
  it->second.metadata.deletion_timestamp = queue_.Now();
  NodeClaimChanged(it->second.metadata);
  MarkUnconsolidated();
  return true;
}

SimMillis Cluster::ConsolidationState() {
  if (queue_.now() - unconsolidated_at_ >= kConsolidationStateRefreshMillis) MarkUnconsolidated();
  return unconsolidated_at_;
}

const api::NodeClaim* Cluster::FindNodeClaim(const std::string& name) const {
  auto it = node_claims_.find(name);
  return it == node_claims_.end() ? nullptr : &it->second;
}

const api::NodePool* Cluster::FindNodePool(const std::string& name) const {
  auto it = node_pools_.find(name);
  return it == node_pools_.end() ? nullptr : &it->second;
}

void Cluster::PutNodePool(api::NodePool pool) {
  MarkUnconsolidated();
  Notify("NodePool", (node_pools_[pool.metadata.name] = std::move(pool)).metadata);
}

void Cluster::PutNodeClass(api::EC2NodeClass node_class) {
  MarkUnconsolidated();
  Notify("EC2NodeClass",
         (node_classes_[node_class.metadata.name] = std::move(node_class)).metadata);
}

bool Cluster::RemoveNodePool(const std::string& name) {
  auto it = node_pools_.find(name);
  if (it == node_pools_.end()) return false;
  MarkUnconsolidated();
  Notify("NodePool", it->second.metadata);
  node_pools_.erase(it);
  return true;
}

bool Cluster::RemoveNodeClass(const std::string& name) {
  auto it = node_classes_.find(name);
  if (it == node_classes_.end()) return false;
  MarkUnconsolidated();
  Notify("EC2NodeClass", it->second.metadata);
  node_classes_.erase(it);
  return true;
}

const api::EC2NodeClass* Cluster::FindNodeClass(const std::string& name) const {
  auto it = node_classes_.find(name);
  return it == node_classes_.end() ? nullptr : &it->second;
}

std::string Cluster::LaunchInstance(InstanceRequest request, bool initial) {
  Instance instance;
  instance.ordinal = ++instance_count_;
  instance.id = fmt::format("i-{:016x}", instance.ordinal);
  instance.request = std::move(request);
  instance.initial = initial;
  instance.launched_at = queue_.now();
  const std::string id = instance.id;
  ChangeBilling(instance.request.capacity_type, instance.request.price, +1);
  log_.Record(
      queue_.now(), "InstanceLaunched",
      {Str("instance", id), Str("instanceType", instance.request.instance_type),
       Str("zone", instance.request.zone), Str("capacityType", instance.request.capacity_type),
       Str("owner", Owner(instance.request)), Num("pricePerHour", instance.request.price)});
  NodeChanged(instances_[id] = std::move(instance));
  counters_.max_instances = std::max(counters_.max_instances, LiveInstanceCount());
  if (initial) {
    Register(id);
    MarkReady(id);
    return id;
  }
  const InstanceRequest& launched = instances_.at(id).request;
  if (ec2_.NeverRegisters(launched.instance_type, launched.zone, launched.capacity_type,
                          queue_.now())) {
    log_.Record(queue_.now(), "InstanceNeverRegisters", {Str("instance", id)});
    return id;
  }
  queue_.After(Sample(latency_.instance_boot_to_registered, random_), [this, id] {
    Register(id);
    queue_.After(Sample(latency_.registered_to_ready, random_), [this, id] { MarkReady(id); });
  });
  return id;
}

api::Node Cluster::BuildNode(const Instance& instance) const {
  api::Node node;
  const uint64_t n = instance.ordinal;
  node.metadata.name =
      fmt::format("ip-10-{}-{}-{}.ec2.internal", (n >> 16) & 255, (n >> 8) & 255, n & 255);
  node.metadata.uid = state::DeterministicUid({"node", instance.id});
  node.metadata.creation_timestamp = queue_.Now();
  const cloudprovider::InstanceType* type = ec2_.catalog().Find(instance.request.instance_type);
  if (type != nullptr) {
    node.metadata.labels = type->labels;
    node.status.capacity = type->capacity;
    node.status.allocatable = type->Allocatable();
  }
  if (!instance.request.allocatable.empty()) node.status.allocatable = instance.request.allocatable;
  if (!instance.request.capacity.empty()) node.status.capacity = instance.request.capacity;
  for (const auto& [key, value] : instance.request.labels) node.metadata.labels[key] = value;
  node.metadata.labels[std::string(api::kLabelTopologyZone)] = instance.request.zone;
  node.metadata.labels[std::string(api::kLabelHostname)] = node.metadata.name;
  node.spec.provider_id = cloudprovider::AwsProviderId(instance.request.zone, instance.id);
  node.spec.taints = instance.request.taints;
  node.spec.taints.push_back(MakeTaint(kNotReadyTaintKey));
  return node;
}

void Cluster::Register(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end() || it->second.phase != NodePhase::kBooting) return;
  Instance& instance = it->second;
  instance.phase = NodePhase::kRegistered;
  instance.node = BuildNode(instance);
  NodeChanged(instance);
  if (on_node_registered_) on_node_registered_(instance.request, instance.node);
  instance_by_node_[instance.node.metadata.name] = id;
  MarkUnconsolidated();
  log_.Record(queue_.now(), "NodeRegistered",
              {Str("node", instance.node.metadata.name), Str("instance", id),
               Str("owner", Owner(instance.request))});
  PlaceDaemonSetPods(instance);
}

void Cluster::MarkReady(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end() || it->second.phase != NodePhase::kRegistered) return;
  Instance& instance = it->second;
  instance.phase = NodePhase::kReady;
  instance.ready_at = queue_.now();
  NodeChanged(instance);
  NoteCapacityEvent();
  MarkUnconsolidated();
  RemoveTaint(instance.node.spec.taints, kNotReadyTaintKey);
  api::NodeCondition ready;
  ready.type = "Ready";
  ready.status = "True";
  instance.node.status.conditions = {ready};
  if (on_node_ready_) on_node_ready_(instance.request, instance.node);
  // A DaemonSet that a taint gone by now (a startup taint) kept away lands.
  PlaceDaemonSetPods(instance);
  if (!instance.initial) {
    counters_.node_ready_seconds.push_back(
        MillisToSeconds(instance.ready_at - instance.request.requested_at));
  }
  log_.Record(queue_.now(), "NodeReady",
              {Str("node", instance.node.metadata.name), Str("instance", id),
               Str("owner", Owner(instance.request)),
               Num("sinceRequestSeconds",
                   MillisToSeconds(instance.ready_at - instance.request.requested_at))});
  RequestSchedulingPass();
}

void Cluster::PlaceDaemonSetPods(const Instance& instance) {
  const scheduling::Requirements node_requirements =
      scheduling::FromLabels(instance.node.metadata.labels);
  for (const auto& [key, daemon_set] : daemon_sets_) {
    const std::string pod_key = absl::StrCat(key, "-", instance.id);
    if (pods_.contains(pod_key)) continue;
    api::Pod pod = state::DaemonSetPodTemplate(daemon_set);
    // The DaemonSet controller tolerates cordoning, and a pod waiting for not-ready to clear
    // is still that node's pod: only the node's other taints keep a DaemonSet away.
    std::vector<api::Taint> taints = instance.node.spec.taints;
    RemoveTaint(taints, kNotReadyTaintKey);
    RemoveTaint(taints, kUnschedulableTaintKey);
    if (!provisioning::DaemonRequirementsOn(pod, node_requirements, taints, nullptr)) continue;
    pod.metadata.name = absl::StrCat(daemon_set.metadata.name, "-", instance.id);
    pod.metadata.uid = state::DeterministicUid({"daemon", pod_key});
    pod.metadata.creation_timestamp = queue_.Now();
    pod.spec.node_name = instance.node.metadata.name;
    pod.status.phase = "Running";
    PodRecord record;
    record.pod = std::move(pod);
    record.created_at = queue_.now();
    record.measured = false;
    PodChanged(pod_key, record.pod.metadata);
    pods_.Put(pod_key, std::move(record));
    ++daemon_pod_count_;
    ++generation_;
  }
}

void Cluster::TerminateInstance(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end() || it->second.phase == NodePhase::kTerminated) return;
  Instance& instance = it->second;
  const std::string node_name = instance.node.metadata.name;
  std::vector<std::string> on_node;
  std::set<std::string> owners;
  for (const auto& [key, record] : pods_.OnNode(node_name)) {
    on_node.emplace_back(key);
    if (!record->owner.empty()) owners.insert(record->owner);
    if (!record->terminating()) NoteTakenAway(*record);
  }
  for (const std::string& key : on_node) DeletePod(key);
  instance.phase = NodePhase::kTerminated;
  instance.terminated_at = queue_.now();
  NodeChanged(instance);
  ++counters_.nodes_terminated;
  MarkUnconsolidated();
  // The NodeClaim goes with its instance; left behind it would count as capacity in flight.
  if (auto claim = node_claims_.find(instance.request.node_claim); claim != node_claims_.end()) {
    NodeClaimChanged(claim->second.metadata);
    node_claims_.erase(claim);
  }
  instance_by_node_.erase(node_name);
  ChangeBilling(instance.request.capacity_type, instance.request.price, -1);
  log_.Record(queue_.now(), "InstanceTerminated", {Str("instance", id), Str("node", node_name)});
  RecreateLater(owners);
}

void Cluster::RecreateLater(const std::set<std::string>& owners) {
  for (const std::string& owner : owners) {
    queue_.After(Sample(latency_.controller_recreate, random_), [this, owner] {
      ReconcileDeployment(owner);
      ReconcileJob(owner);
      ReconcileStatefulSet(owner);
    });
  }
}

void Cluster::NoteTakenAway(const PodRecord& record) {
  if (record.owner.empty()) return;  // a DaemonSet's pod goes with its node
  const Instance* instance = FindInstanceByNode(record.pod.spec.node_name);
  const PodSet cause = instance == nullptr ? PodSet::kDisruption : instance->removal_cause;
  ++counters_.pod_sets[static_cast<size_t>(cause)].evictions;
  replacement_sets_[record.owner].push_back(cause);
}

void Cluster::SetRemovalCause(const std::string& id, PodSet cause) {
  if (auto it = instances_.find(id); it != instances_.end()) it->second.removal_cause = cause;
}

void Cluster::Cordon(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end() || it->second.node.spec.unschedulable) return;
  it->second.node.spec.unschedulable = true;
  it->second.node.spec.taints.push_back(MakeTaint(kUnschedulableTaintKey));
  NodeChanged(it->second);
  ++generation_;
  log_.Record(queue_.now(), "NodeCordoned", {Str("node", it->second.node.metadata.name)});
}

void Cluster::Uncordon(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end() || !it->second.node.spec.unschedulable) return;
  it->second.node.spec.unschedulable = false;
  RemoveTaint(it->second.node.spec.taints, kUnschedulableTaintKey);
  NodeChanged(it->second);
  NoteCapacityEvent();
  MarkUnconsolidated();
  log_.Record(queue_.now(), "NodeUncordoned", {Str("node", it->second.node.metadata.name)});
  RequestSchedulingPass();
}

int Cluster::Drain(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end()) return 0;
  const std::string node_name = it->second.node.metadata.name;
  std::set<std::string> owners;
  std::vector<std::string> evicted;
  std::vector<std::string> terminating;  // evicted before: their replacements exist already
  for (const PodRecord* record : WorkloadPodsOn(node_name)) {
    (record->terminating() ? terminating : evicted).push_back(Key(record->pod.metadata));
    if (!record->owner.empty()) owners.insert(record->owner);
    if (!record->terminating()) NoteTakenAway(*record);
  }
  for (const std::string& key : terminating) DeletePod(key);
  MarkUnconsolidated();
  if (!evicted.empty()) NoteCapacityEvent();
  for (const std::string& key : evicted) {
    if (auto evicted_pod = pods_.find(key); evicted_pod != pods_.end()) {
      NotePodEvent(evicted_pod->second.pod);
      PodChanged(key, evicted_pod->second.pod.metadata);
      pods_.Erase(evicted_pod);
    }
    ++counters_.evictions;
    log_.Record(queue_.now(), "PodEvicted", {Str("pod", key), Str("node", node_name)});
  }
  RecreateLater(owners);
  return static_cast<int>(evicted.size());
}

bool Cluster::TaintNode(const std::string& node_name, const std::string& key) {
  auto it = instance_by_node_.find(node_name);
  if (it == instance_by_node_.end()) return false;
  Instance& instance = instances_.at(it->second);
  std::vector<api::Taint>& taints = instance.node.spec.taints;
  for (const api::Taint& taint : taints) {
    if (taint.key == key) return true;
  }
  taints.push_back(MakeTaint(key));
  NodeChanged(instance);
  MarkUnconsolidated();
  return true;
}

bool Cluster::PutNode(const api::Node& node) {
  auto it = instance_by_node_.find(node.metadata.name);
  if (it == instance_by_node_.end()) return false;
  Instance& instance = instances_.at(it->second);
  if (instance.phase == NodePhase::kBooting || instance.phase == NodePhase::kTerminated) {
    return false;
  }
  api::Node& stored = instance.node;
  const bool taint_removed = std::any_of(
      stored.spec.taints.begin(), stored.spec.taints.end(), [&](const api::Taint& taint) {
        return std::find(node.spec.taints.begin(), node.spec.taints.end(), taint) ==
               node.spec.taints.end();
      });
  const bool may_fit_more = taint_removed ||
                            (stored.spec.unschedulable && !node.spec.unschedulable) ||
                            stored.metadata.labels != node.metadata.labels;
  stored.metadata = node.metadata;
  stored.spec = node.spec;
  const bool tainted =
      std::any_of(stored.spec.taints.begin(), stored.spec.taints.end(),
                  [](const api::Taint& taint) { return taint.key == kUnschedulableTaintKey; });
  if (stored.spec.unschedulable && !tainted) {
    stored.spec.taints.push_back(MakeTaint(kUnschedulableTaintKey));
  } else if (!stored.spec.unschedulable && tainted) {
    RemoveTaint(stored.spec.taints, kUnschedulableTaintKey);
  }
  NodeChanged(instance);
  MarkUnconsolidated();
  if (may_fit_more) {
    NoteCapacityEvent();
    RequestSchedulingPass();
  }
  return true;
}

void Cluster::NotePodEvent(const api::Pod& pod) {
  if (pod.spec.node_name.empty() || state::IsOwnedByDaemonSet(pod)) return;
  auto it = instance_by_node_.find(pod.spec.node_name);
  if (it == instance_by_node_.end()) return;
  auto claim = node_claims_.find(instances_.at(it->second).request.node_claim);
  if (claim == node_claims_.end() || !controllers::RecordsPodEvent(claim->second, queue_.Now())) {
    return;
  }
  claim->second.status.last_pod_event_time = queue_.Now();
  NodeClaimChanged(claim->second.metadata);
}

const Instance* Cluster::FindInstanceByNode(const std::string& node_name) const {
  auto it = instance_by_node_.find(node_name);
  return it == instance_by_node_.end() ? nullptr : &instances_.at(it->second);
}

std::vector<const PodRecord*> Cluster::WorkloadPodsOn(const std::string& node_name) const {
  std::vector<const PodRecord*> out;
  for (const auto& [key, record] : pods_.WorkloadOn(node_name)) out.push_back(record);
  return out;
}

std::vector<const PodRecord*> Cluster::UnschedulablePods() const {
  std::vector<const PodRecord*> out;
  for (const auto& [key, record] : pods_.Unbound()) {
    if (record->unschedulable) out.push_back(record);
  }
  return out;
}

size_t Cluster::LiveInstanceCount() const {
  size_t count = 0;
  for (const auto& [id, instance] : instances_) {
    if (instance.phase != NodePhase::kTerminated) ++count;
  }
  return count;
}

namespace {

// Whether a snapshot keeping the pods of `nodes` (and every unbound pod) keeps `pod`.
bool KeepsPod(bool schedulable_only, const std::set<std::string>& nodes, const api::Pod& pod) {
  return !schedulable_only || pod.spec.node_name.empty() || nodes.contains(pod.spec.node_name);
}

// A pod as snapshots list it: namespaced objects without a namespace are in "default".
api::Pod SnapshotCopy(const api::Pod& pod) {
  api::Pod copy = pod;
  if (copy.metadata.namespace_.empty()) copy.metadata.namespace_ = "default";
  return copy;
}

// The (namespace, name) a snapshot lists the pod under.
std::pair<std::string, std::string> SnapshotKeyOf(const api::ObjectMeta& metadata) {
  return {metadata.namespace_.empty() ? std::string("default") : metadata.namespace_,
          metadata.name};
}

}  // namespace

uint64_t Cluster::AddObserver(ObjectObserver observer) {
  observers_.emplace_back(next_observer_, std::move(observer));
  return next_observer_++;
}

void Cluster::RemoveObserver(uint64_t id) {
  std::erase_if(observers_, [id](const auto& entry) { return entry.first == id; });
}

void Cluster::PodChanged(const std::string& key, const api::ObjectMeta& metadata) {
  Notify("Pod", metadata);
  for (CachedSnapshot& cached : snapshot_cache_) {
    if (cached.snapshot == nullptr) continue;
    cached.changed_pods.emplace(SnapshotKeyOf(metadata), key);
  }
}

absl::StatusOr<state::ClusterSnapshot> Cluster::Snapshot(bool schedulable_only) const {
  std::set<std::string> nodes;
  return SnapshotFrom(schedulable_only, SnapshotObjects(schedulable_only, &nodes), nodes);
}

absl::StatusOr<state::ClusterSnapshot> Cluster::SnapshotFrom(
    bool schedulable_only, std::vector<state::SourcedObject> objects,
    const std::set<std::string>& nodes) const {
  for (const auto& [key, record] : pods_.all()) {
    if (KeepsPod(schedulable_only, nodes, record.pod)) objects.push_back({record.pod, key});
  }
  state::SnapshotOptions options;
  options.expand_workloads = false;
  return state::ClusterSnapshot::FromObjects(std::move(objects), options);
}

std::vector<state::SourcedObject> Cluster::SnapshotObjects(bool schedulable_only,
                                                           std::set<std::string>* nodes,
                                                           bool node_claims) const {
  std::vector<state::SourcedObject> objects;
  // Moving the objects as the list grows cost a tenth of the copying them did.
  objects.reserve(
      (nodes != nullptr ? instance_by_node_.size() : 0) + daemon_sets_.size() + pdbs_.size() +
      (schedulable_only
           ? 0
           : node_pools_.size() + node_classes_.size() + (node_claims ? node_claims_.size() : 0)));
  for (const auto& [id, instance] : instances_) {
    if (nodes == nullptr) break;  // the caller shares the last snapshot's nodes
    if (instance.phase == NodePhase::kBooting || instance.phase == NodePhase::kTerminated) {
      continue;
    }
    if (schedulable_only &&
        (instance.phase != NodePhase::kReady || instance.node.spec.unschedulable)) {
      continue;
    }
    nodes->insert(instance.node.metadata.name);
    objects.push_back({instance.node, id});
  }
  for (const auto& [key, daemon_set] : daemon_sets_) objects.push_back({daemon_set, key});
  for (const auto& [key, pdb] : pdbs_) {
    api::PodDisruptionBudget with_status = pdb;
    with_status.status = PdbStatus(pdb);
    objects.push_back({std::move(with_status), key});
  }
  if (!schedulable_only) {
    for (const auto& [name, pool] : node_pools_) objects.push_back({pool, name});
    for (const auto& [name, node_class] : node_classes_) objects.push_back({node_class, name});
    if (node_claims) {
      for (const auto& [name, claim] : node_claims_) objects.push_back({claim, name});
    }
  }
  return objects;
}

std::shared_ptr<state::ClusterSnapshot> Cluster::RefreshedSnapshot(
    bool schedulable_only, std::vector<state::SourcedObject> objects,
    const std::set<std::string>& nodes, CachedSnapshot& cached) const {
  std::map<std::pair<std::string, std::string>, std::string> redo = std::move(cached.changed_pods);
  cached.changed_pods.clear();
  if (&nodes != &cached.nodes && nodes != cached.nodes) {
    std::set<std::string> moved;
    std::set_symmetric_difference(nodes.begin(), nodes.end(), cached.nodes.begin(),
                                  cached.nodes.end(), std::inserter(moved, moved.end()));
    for (const std::string& node : moved) {
      for (const auto& [key, record] : pods_.OnNode(node)) {
        redo.emplace(SnapshotKeyOf(record->pod.metadata), std::string(key));
      }
    }
  }
  // The records' versions of the changed pods, in (namespace, name) order as `redo` is.
  std::vector<state::PodChange> changes;
  changes.reserve(redo.size());
  for (const auto& [snapshot_key, key] : redo) {
    state::PodChange& change = changes.emplace_back();
    change.namespace_ = snapshot_key.first;
    change.name = snapshot_key.second;
    auto record = pods_.find(key);
    if (record != pods_.end() && KeepsPod(schedulable_only, nodes, record->second.pod)) {
      change.pod = std::make_shared<const state::SnapshotPod>(SnapshotCopy(record->second.pod));
    }
  }

  state::SnapshotOptions options;
  options.expand_workloads = false;
  absl::StatusOr<state::ClusterSnapshot> snapshot =
      state::ClusterSnapshot::FromObjects(std::move(objects), options);
  if (!snapshot.ok() || !snapshot->CarryPodsOver(*cached.snapshot, std::move(changes)).ok()) {
    return nullptr;
  }
  return std::make_shared<state::ClusterSnapshot>(*std::move(snapshot));
}

absl::StatusOr<std::shared_ptr<const state::ClusterSnapshot>> Cluster::SharedSnapshot(
    bool schedulable_only) const {
  CachedSnapshot& cached = snapshot_cache_[schedulable_only ? 1 : 0];
  if (cached.snapshot != nullptr && cached.generation == generation_) return cached.snapshot;
  // The last snapshot's unchanged pods are shared with the new one, and so are its nodes, and
  // its NodeClaims, when none of them changed since.
  const bool carry_over = cached.snapshot != nullptr;
  const bool same_nodes = carry_over && cached.node_changes == node_changes_;
  // Only the full snapshot lists NodeClaims.
  const bool same_node_claims =
      carry_over && !schedulable_only && cached.node_claim_changes == node_claim_changes_;
  std::set<std::string> fresh_nodes;
  std::vector<state::SourcedObject> objects =
      SnapshotObjects(schedulable_only, same_nodes ? nullptr : &fresh_nodes, !same_node_claims);
  const std::set<std::string>& nodes = same_nodes ? cached.nodes : fresh_nodes;
  std::shared_ptr<state::ClusterSnapshot> snapshot;
  if (carry_over) {
    snapshot = RefreshedSnapshot(schedulable_only, std::move(objects), nodes, cached);
    if (snapshot != nullptr && same_nodes) snapshot->ShareNodes(cached.snapshot->shared_nodes());
    if (snapshot != nullptr && same_node_claims) {
      snapshot->ShareNodeClaims(cached.snapshot->shared_node_claims());
    }
    if (snapshot != nullptr) ++snapshots_carried_over_;
    if (snapshot != nullptr && verify_snapshots_) VerifySnapshot(*snapshot, schedulable_only);
  }
  if (snapshot == nullptr) {
    // A failed carry-over has used `objects` up; otherwise they are still this generation's.
    KP_ASSIGN_OR_RETURN(state::ClusterSnapshot built,
                        carry_over ? Snapshot(schedulable_only)
                                   : SnapshotFrom(schedulable_only, std::move(objects), nodes));
    snapshot = std::make_shared<state::ClusterSnapshot>(std::move(built));
  }
  cached.generation = generation_;
  cached.node_changes = node_changes_;
  cached.node_claim_changes = node_claim_changes_;
  cached.snapshot = std::move(snapshot);
  if (!same_nodes) cached.nodes = std::move(fresh_nodes);
  cached.changed_pods.clear();
  return std::shared_ptr<const state::ClusterSnapshot>(cached.snapshot);
}

namespace {

// The first pod list a snapshot finds by index (per node, unbound, do-not-disrupt) that differs
// between the two, or empty.
std::string PodIndexDifference(const state::ClusterSnapshot& want,
                               const state::ClusterSnapshot& got) {
  const auto keys = [](const std::vector<const api::Pod*>& pods) {
    std::vector<std::string> out;
    for (const api::Pod* pod : pods) out.push_back(Key(pod->metadata));
    return out;
  };
  if (want.NodeNamesWithPods() != got.NodeNamesWithPods()) return "nodes with pods";
  for (const std::string& node : want.NodeNamesWithPods()) {
    if (keys(want.PodsOnNode(node)) != keys(got.PodsOnNode(node))) return "pods on " + node;
  }
  if (keys(want.UnboundPods()) != keys(got.UnboundPods())) return "unbound pods";
  if (keys(want.PodsWithDoNotDisrupt()) != keys(got.PodsWithDoNotDisrupt())) {
    return "do-not-disrupt pods";
  }
  return "";
}

}  // namespace

void Cluster::VerifySnapshot(const state::ClusterSnapshot& refreshed, bool schedulable_only) const {
  absl::StatusOr<state::ClusterSnapshot> built = Snapshot(schedulable_only);
  std::string difference;
  if (!built.ok()) {
    difference = built.status().ToString();
  } else if (built->nodes().size() != refreshed.nodes().size()) {
    difference = fmt::format("{} nodes, built from scratch {}", refreshed.nodes().size(),
                             built->nodes().size());
  } else if (built->node_claims().size() != refreshed.node_claims().size()) {
    difference = fmt::format("{} NodeClaims, built from scratch {}", refreshed.node_claims().size(),
                             built->node_claims().size());
  } else if (built->pods().size() != refreshed.pods().size()) {
    difference = fmt::format("{} pods, built from scratch {}", refreshed.pods().size(),
                             built->pods().size());
  } else {
    // Both lists have the same length here; the first object that encodes differently is named.
    const auto compare = [&difference](const char* kind, const auto& want, const auto& got) {
      for (size_t i = 0; i < want.size() && difference.empty(); ++i) {
        if (api::EncodeJson(want[i]) != api::EncodeJson(got[i])) {
          difference = fmt::format("{} {} differs", kind, got[i].metadata.name);
        }
      }
    };
    compare("node", built->nodes(), refreshed.nodes());
    compare("NodeClaim", built->node_claims(), refreshed.node_claims());
    compare("pod", built->pods(), refreshed.pods());
    if (difference.empty()) difference = PodIndexDifference(*built, refreshed);
  }
  if (difference.empty()) {
    const std::string index = pods_.IndexMismatch();
    if (!index.empty()) difference = "pod index: " + index;
  }
  if (!difference.empty()) {
    log_.Record(queue_.now(), "SnapshotMismatch", {Str("difference", difference)});
  }
}

void Cluster::RequestSchedulingPass() {
  if (pass_scheduled_) return;
  pass_scheduled_ = true;
  queue_.After(Sample(latency_.kube_scheduler_bind, random_), [this] { RunSchedulingPass(); });
}

void Cluster::RunSchedulingPass() {
  pass_scheduled_ = false;
  // With every pod bound there is nothing to place: the pass would bind nothing and mark
  // nothing unschedulable, so it is not worth a snapshot.
  if (pods_.Unbound().empty()) return;
  // Unbound and not (yet) found unschedulable.
  const bool any_untried =
      std::any_of(pods_.Unbound().begin(), pods_.Unbound().end(),
                  [](const auto& entry) { return !entry.second->unschedulable; });
  const SimMillis now = queue_.now();
  if (!any_untried && capacity_events_ == capacity_events_at_last_pass_ &&
      now - last_pass_ < kPodMaxInUnschedulableMillis) {
    return;
  }
  capacity_events_at_last_pass_ = capacity_events_;
  last_pass_ = now;
  ++scheduling_passes_;
  absl::StatusOr<std::shared_ptr<const state::ClusterSnapshot>> snapshot =
      SharedSnapshot(/*schedulable_only=*/true);
  if (!snapshot.ok()) {
    log_.Record(queue_.now(), "SchedulerError", {Str("error", snapshot.status().ToString())});
    return;
  }
  absl::StatusOr<Bindings> bindings = SchedulePending(**snapshot, &scheduler_charges_);
  if (!bindings.ok()) {
    log_.Record(queue_.now(), "SchedulerError", {Str("error", bindings.status().ToString())});
    return;
  }
  for (const auto& [pod, node] : bindings->pod_to_node) Bind(pod, node);
  bool any_unschedulable = false;
  for (const auto& [pod, reason] : bindings->unschedulable) {
    auto it = pods_.find(pod);
    if (it == pods_.end()) continue;
    if (!it->second.unschedulable) {
      log_.Record(queue_.now(), "PodUnschedulable", {Str("pod", pod), Str("reason", reason)});
      // What Karpenter waits for before it plans for the pod (upstream's FailedToSchedule).
      SetCondition(it->second.pod, state::kPodConditionScheduled, "False",
                   state::kPodReasonUnschedulable, queue_.Now());
      PodChanged(it->first, it->second.pod.metadata);
      ++generation_;
    }
    it->second.unschedulable = true;
    it->second.waited_for_capacity = true;
    any_unschedulable = true;
  }
  if (any_unschedulable && on_unschedulable_) on_unschedulable_();
}

void Cluster::Bind(const std::string& pod_key, const std::string& node_name) {
  auto it = pods_.find(pod_key);
  if (it == pods_.end()) return;
  PodRecord& record = it->second;
  pods_.Bind(it, node_name);
  record.pod.status.phase = "Running";
  SetCondition(record.pod, state::kPodConditionScheduled, "True", "", queue_.Now());
  PodChanged(it->first, record.pod.metadata);
  record.unschedulable = false;
  NotePodEvent(record.pod);
  MarkUnconsolidated();
  if (record.job) {
    auto job = jobs_.find(record.owner);
    const SimMillis run = job == jobs_.end() ? 0 : job->second.run_millis;
    queue_.After(run,
                 [this, pod_key, uid = record.pod.metadata.uid] { CompleteJobPod(pod_key, uid); });
  }
  if (record.stateful_set) ReconcileStatefulSetLater(record.owner);
  const double pending = MillisToSeconds(queue_.now() - record.created_at);
  if (record.measured && record.waited_for_capacity) {
    counters_.pod_pending_seconds.push_back(pending);
  }
  if (record.set) {
    PodSetCounters& set = counters_.pod_sets[static_cast<size_t>(*record.set)];
    set.pending_seconds.push_back(pending);
    if (record.waited_for_capacity) set.waited_pending_seconds.push_back(pending);
  }
  log_.Record(queue_.now(), "PodBound",
              {Str("pod", pod_key), Str("node", node_name), Num("pendingSeconds", pending)});
}

void Cluster::ChangeBilling(const std::string& capacity_type, double price, int direction) {
  SettleCost();
  price_per_hour_ += direction * price;
  if (price_per_hour_ < 1e-9) price_per_hour_ = 0;
  CapacityTypeCounters& by_type = counters_.by_capacity_type[capacity_type];
  by_type.price_per_hour += direction * price;
  if (by_type.price_per_hour < 1e-9) by_type.price_per_hour = 0;
  if (direction > 0) {
    ++by_type.nodes;
  } else {
    --by_type.nodes;
  }
  by_type.max_nodes = std::max(by_type.max_nodes, by_type.nodes);
}

void Cluster::SettleCost() {
  counters_.cost_dollar_seconds +=
      price_per_hour_ * MillisToSeconds(queue_.now() - cost_settled_at_);
  for (auto& [capacity_type, by_type] : counters_.by_capacity_type) {
    by_type.cost_dollar_seconds +=
        by_type.price_per_hour * MillisToSeconds(queue_.now() - cost_settled_at_);
  }
  cost_settled_at_ = queue_.now();
}

}  // namespace karpenter::sim
