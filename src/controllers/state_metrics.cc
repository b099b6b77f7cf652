#include "src/controllers/state_metrics.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "src/api/karpenter_labels.h"
#include "src/api/pod_resources.h"
#include "src/state/pod_predicates.h"

namespace karpenter::controllers {
namespace {

using Fresh = std::map<std::string, std::map<MetricLabels, double>>;

// Prometheus label names and resource types are snake case: "ephemeral-storage" →
// "ephemeral_storage", "karpenter.k8s.aws/instance-size" → "instance_size".
std::string SnakeCase(std::string_view text) {
  return absl::StrReplaceAll(absl::AsciiStrToLower(std::string(text)), {{"-", "_"}});
}

// CPU in cores, everything else in its unit.
double GaugeValue(std::string_view resource, const api::Quantity& quantity) {
  return resource == "cpu" ? static_cast<double>(quantity.MilliValue()) / 1000.0
                           : static_cast<double>(quantity.Value());
}

void AddInto(api::ResourceList& total, const api::ResourceList& more) {
  for (const auto& [name, quantity] : more) {
    auto [it, inserted] = total.emplace(name, quantity);
    if (!inserted) it->second.Add(quantity);
  }
}

std::string LabelOr(const std::map<std::string, std::string>& labels, std::string_view key) {
  auto it = labels.find(std::string(key));
  return it == labels.end() ? std::string() : it->second;
}

// node_name, phase, managed and the snake-cased last segment of each well-known label.
MetricLabels NodeLabels(const api::Node& node, bool managed) {
  MetricLabels labels = {{"node_name", node.metadata.name},
                         {"phase", ""},  // Node status.phase: deprecated, never set by kubelets
                         {"managed", managed ? "true" : "false"}};
  for (std::string_view key : api::WellKnownLabels()) {
    const size_t slash = key.find('/');
    if (slash == std::string_view::npos) continue;
    labels.emplace_back(SnakeCase(key.substr(slash + 1)), LabelOr(node.metadata.labels, key));
  }
  return labels;
}

MetricLabels WithResource(MetricLabels labels, std::string_view resource) {
  labels.emplace_back("resource_type", SnakeCase(resource));
  return labels;
}

std::optional<api::PodCondition> ConditionOf(const api::Pod& pod, std::string_view type) {
  for (const api::PodCondition& condition : pod.status.conditions) {
    if (condition.type == type) return condition;
  }
  return std::nullopt;
}

bool IsTrue(const std::optional<api::PodCondition>& condition) {
  return condition && condition->status == "True";
}

// Seconds from the pod's creation to the condition's transition, when both are known.
std::optional<double> SecondsSinceCreation(const api::Pod& pod,
                                           const std::optional<api::PodCondition>& condition) {
  if (!condition || !condition->last_transition_time || !pod.metadata.creation_timestamp) {
    return std::nullopt;
  }
  return static_cast<double>(
             (*condition->last_transition_time - *pod.metadata.creation_timestamp).Nanos()) /
         1e9;
}

// The labels of a waiting pod's unstarted and unbound gauges.
MetricLabels WaitingLabels(const std::string& namespace_, const std::string& name) {
  return {{"name", name}, {"namespace", namespace_}};
}

// The owner as the self link Kubernetes no longer sets: /apis/<apiVersion>/namespaces/<ns>/
// <lower-case kind>s/<name>, from the first owner reference.
std::string OwnerLink(const api::Pod& pod) {
  if (pod.metadata.owner_references.empty()) return "";
  const api::OwnerReference& owner = pod.metadata.owner_references.front();
  return absl::StrCat("/apis/", owner.api_version, "/namespaces/", pod.metadata.namespace_, "/",
                      absl::AsciiStrToLower(owner.kind), "s/", owner.name);
}

}  // namespace

StateMetrics::StateMetrics(Clock& clock, ClusterReader& reader, Metrics& metrics)
    : clock_(clock),
      reader_(reader),
      metrics_(metrics),
      node_loop_("metrics.node", clock, [this] { return ReconcileNodes(); }),
      pod_controller_("metrics.pod", clock,
                      [this](const std::string& key) { return ReconcilePod(key); }) {}

void StateMetrics::Start() {
  reader_.Watch("Pod", [this](const ObjectKey& key) {
    pod_controller_.Enqueue(absl::StrCat(key.namespace_, "/", key.name));
  });
  for (const api::Object& object : reader_.List("Pod")) {
    const ObjectKey key = KeyOf(object);
    pod_controller_.Enqueue(absl::StrCat(key.namespace_, "/", key.name));
  }
  node_loop_.Start();
}

void StateMetrics::Replace(std::map<std::string, std::set<MetricLabels>>& published,
                           const Fresh& fresh) {
  for (auto& [name, series] : published) {
    auto now = fresh.find(name);
    for (const MetricLabels& labels : series) {
      if (now == fresh.end() || !now->second.contains(labels)) metrics_.Delete(name, labels);
    }
  }
  published.clear();
  for (const auto& [name, series] : fresh) {
    for (const auto& [labels, value] : series) {
      metrics_.Set(name, labels, value);
      published[name].insert(labels);
    }
  }
}

absl::StatusOr<ReconcileResult> StateMetrics::ReconcileNodes() {
  const api::Time now = clock_.Now();
  std::set<std::string> claimed;  // provider IDs of NodeClaims: their Nodes are Karpenter's
  for (const api::Object& object : reader_.List("NodeClaim")) {
    const auto& claim = std::get<api::NodeClaim>(object);
    if (!claim.status.provider_id.empty()) claimed.insert(claim.status.provider_id);
  }
  Fresh fresh;
  std::set<std::string> tracked = claimed;  // cluster state's nodes, by provider ID or name
  api::ResourceList cluster_allocatable;
  api::ResourceList cluster_requests;
  for (const api::Object& object : reader_.List("Node")) {
    const auto& node = std::get<api::Node>(object);
    tracked.insert(node.spec.provider_id.empty() ? "node/" + node.metadata.name
                                                 : node.spec.provider_id);
    const MetricLabels labels =
        NodeLabels(node, !node.spec.provider_id.empty() && claimed.contains(node.spec.provider_id));
    api::ResourceList pod_requests, pod_limits, daemon_requests, daemon_limits;
    for (const api::Pod& pod : reader_.PodsOnNode(node.metadata.name)) {
      if (state::IsTerminal(pod)) continue;
      const api::ResourceList requests = api::PodRequests(pod);
      const api::ResourceList limits = api::PodLimits(pod);
      AddInto(pod_requests, requests);
      AddInto(pod_limits, limits);
      if (state::IsOwnedByDaemonSet(pod)) {
        AddInto(daemon_requests, requests);
        AddInto(daemon_limits, limits);
      }
    }
    api::ResourceList overhead;
    for (const auto& [name, capacity] : node.status.capacity) {
      api::Quantity reserved = capacity;
      if (auto allocatable = node.status.allocatable.find(name);
          allocatable != node.status.allocatable.end()) {
        reserved.Sub(allocatable->second);
      }
      overhead[name] = reserved;
    }
    for (const auto& [metric, resources] :
         {std::pair<std::string_view, const api::ResourceList*>{"karpenter_nodes_allocatable",
                                                                &node.status.allocatable},
          {"karpenter_nodes_total_pod_requests", &pod_requests},
          {"karpenter_nodes_total_pod_limits", &pod_limits},
          {"karpenter_nodes_total_daemon_requests", &daemon_requests},
          {"karpenter_nodes_total_daemon_limits", &daemon_limits},
          {"karpenter_nodes_system_overhead", &overhead}}) {
      for (const auto& [resource, quantity] : *resources) {
        fresh[std::string(metric)][WithResource(labels, resource)] = GaugeValue(resource, quantity);
      }
    }
    if (node.metadata.creation_timestamp) {
      fresh["karpenter_nodes_current_lifetime_seconds"][labels] =
          static_cast<double>((now - *node.metadata.creation_timestamp).Nanos()) / 1e9;
    }
    AddInto(cluster_allocatable, node.status.allocatable);
    AddInto(cluster_requests, pod_requests);
  }
  for (const auto& [resource, allocatable] : cluster_allocatable) {
    const double total = GaugeValue(resource, allocatable);
    if (total == 0) continue;
    auto used = cluster_requests.find(resource);
    const double requested =
        used == cluster_requests.end() ? 0 : GaugeValue(resource, used->second);
    fresh["karpenter_cluster_utilization_percent"][{{"resource_type", SnakeCase(resource)}}] =
        100 * requested / total;
  }
  fresh["karpenter_cluster_state_node_count"][{}] = static_cast<double>(tracked.size());
  for (const api::Object& object : reader_.List("NodePool")) {
    const auto& pool = std::get<api::NodePool>(object);
    for (const auto& [metric, resources] :
         {std::pair<std::string_view, const api::ResourceList*>{"karpenter_nodepools_usage",
                                                                &pool.status.resources},
          {"karpenter_nodepools_limit", &pool.spec.limits}}) {
      for (const auto& [resource, quantity] : *resources) {
        fresh[std::string(metric)]
             [{{"nodepool", pool.metadata.name}, {"resource_type", SnakeCase(resource)}}] =
                 GaugeValue(resource, quantity);
      }
    }
  }
  Replace(node_series_, fresh);
  return ReconcileResult{.requeue_after_millis = kNodeMetricsPeriodMillis};
}

absl::StatusOr<ReconcileResult> StateMetrics::ReconcilePod(const std::string& key) {
  const size_t slash = key.find('/');
  const ObjectKey object_key{"Pod", key.substr(0, slash), key.substr(slash + 1)};
  std::optional<api::Object> object = reader_.Get(object_key);
  const auto* pod = object ? std::get_if<api::Pod>(&*object) : nullptr;
  auto previous = pod_series_.find(key);
  if (pod == nullptr) {
    if (previous != pod_series_.end()) {
      metrics_.Delete("karpenter_pods_state", previous->second);
      pod_series_.erase(previous);
    }
    const MetricLabels waiting = WaitingLabels(object_key.namespace_, object_key.name);
    metrics_.Delete("karpenter_pods_unstarted_time_seconds", waiting);
    metrics_.Delete("karpenter_pods_unbound_time_seconds", waiting);
    unstarted_pods_.erase(key);
    unbound_pods_.erase(key);
    return ReconcileResult{};
  }

  std::map<std::string, std::string> node_labels;
  if (!pod->spec.node_name.empty()) {
    std::optional<api::Object> node = reader_.Get(ObjectKey{"Node", "", pod->spec.node_name});
    if (const auto* found = node ? std::get_if<api::Node>(&*node) : nullptr) {
      node_labels = found->metadata.labels;
    }
  }
  const std::optional<api::PodCondition> ready = ConditionOf(*pod, state::kPodConditionReady);
  const std::optional<api::PodCondition> scheduled =
      ConditionOf(*pod, state::kPodConditionScheduled);
  const std::string nodepool = LabelOr(node_labels, api::kNodePoolLabelKey);
  MetricLabels labels = {
      {"name", pod->metadata.name},
      {"namespace", pod->metadata.namespace_},
      {"owner", OwnerLink(*pod)},
      {"node", pod->spec.node_name},
      {"scheduled", pod->spec.node_name.empty() ? "false" : "true"},
      {"nodepool", nodepool},
      {"zone", LabelOr(node_labels, api::kLabelTopologyZone)},
      {"arch", LabelOr(node_labels, api::kLabelArchStable)},
      {"capacity_type", LabelOr(node_labels, api::kCapacityTypeLabelKey)},
      {"instance_type", LabelOr(node_labels, api::kLabelInstanceTypeStable)},
      {"phase", pod->status.phase},
      {"ready", IsTrue(ready) ? "true" : "false"},
      {"managed", nodepool.empty() ? "false" : "true"},
  };
  std::sort(labels.begin(), labels.end());
  if (previous != pod_series_.end() && previous->second != labels) {
    metrics_.Delete("karpenter_pods_state", previous->second);
  }
  metrics_.Set("karpenter_pods_state", labels, 1);
  pod_series_[key] = std::move(labels);

  RecordStartup(key, *pod, ready);
  RecordBinding(key, *pod, scheduled);
  return ReconcileResult{.requeue_after_millis = kPodMetricsRequeueMillis};
}

// Startup is measured only for pods this controller saw pending; until they are Ready (or
// terminal) their age is the unstarted gauge, as upstream's pod metrics controller keeps it.
void StateMetrics::RecordStartup(const std::string& key, const api::Pod& pod,
                                 const std::optional<api::PodCondition>& ready) {
  const MetricLabels waiting = WaitingLabels(pod.metadata.namespace_, pod.metadata.name);
  if (pod.status.phase == "Pending") {
    metrics_.Set("karpenter_pods_unstarted_time_seconds", waiting, AgeSeconds(pod));
    unstarted_pods_.insert(key);
    return;
  }
  if (!unstarted_pods_.contains(key)) return;
  if (!IsTrue(ready) && !state::IsTerminal(pod)) {
    metrics_.Set("karpenter_pods_unstarted_time_seconds", waiting, AgeSeconds(pod));
    return;
  }
  metrics_.Delete("karpenter_pods_unstarted_time_seconds", waiting);
  // A terminal pod's Ready=False transition would make a negative or meaningless duration.
  if (IsTrue(ready)) {
    if (std::optional<double> seconds = SecondsSinceCreation(pod, ready)) {
      metrics_.Observe("karpenter_pods_startup_duration_seconds", {}, *seconds);
    }
  }
  unstarted_pods_.erase(key);
}

// Binding likewise: a pending pod not yet scheduled shows its age in the unbound gauge, which
// goes once the pod has left Pending bound (upstream leaves a pending pod's gauge as it was
// when the scheduler bound it, and so does this).
void StateMetrics::RecordBinding(const std::string& key, const api::Pod& pod,
                                 const std::optional<api::PodCondition>& scheduled) {
  const MetricLabels waiting = WaitingLabels(pod.metadata.namespace_, pod.metadata.name);
  if (pod.status.phase == "Pending") {
    if (!IsTrue(scheduled)) {
      metrics_.Set("karpenter_pods_unbound_time_seconds", waiting, AgeSeconds(pod));
    }
    unbound_pods_.insert(key);
    return;
  }
  if (!unbound_pods_.contains(key) || !IsTrue(scheduled)) return;
  metrics_.Delete("karpenter_pods_unbound_time_seconds", waiting);
  if (std::optional<double> seconds = SecondsSinceCreation(pod, scheduled)) {
    metrics_.Observe("karpenter_pods_bound_duration_seconds", {}, *seconds);
  }
  unbound_pods_.erase(key);
}

double StateMetrics::AgeSeconds(const api::Pod& pod) const {
  if (!pod.metadata.creation_timestamp) return 0;
  return static_cast<double>((clock_.Now() - *pod.metadata.creation_timestamp).Nanos()) / 1e9;
}

}  // namespace karpenter::controllers
