#include "src/sim/twin_cluster_reader.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <utility>

#include "src/cloudprovider/aws_conventions.h"
#include "src/state/pod_predicates.h"

namespace karpenter::sim {
namespace {

// Keys of the maps the cluster keeps its namespaced objects in.
std::string NamespacedKey(const ObjectKey& key) {
  return key.namespace_.empty() ? key.name : key.namespace_ + "/" + key.name;
}

template <class T>
std::optional<api::Object> Find(const std::map<std::string, T>& objects, const std::string& key) {
  auto it = objects.find(key);
  if (it == objects.end()) return std::nullopt;
  return api::Object(it->second);
}

// By namespace, then name, as a List answers.
void SortByKey(std::vector<api::Object>& objects) {
  std::sort(objects.begin(), objects.end(), [](const api::Object& a, const api::Object& b) {
    const ObjectKey key_a = KeyOf(a);
    const ObjectKey key_b = KeyOf(b);
    return std::tie(key_a.namespace_, key_a.name) < std::tie(key_b.namespace_, key_b.name);
  });
}

// The pod as the API server would show it. The twin runs no containers, so it keeps no Ready
// condition (every copy of a pod the engine makes would carry it): a Running pod is Ready
// from the instant it bound (DaemonSet pods, placed running, from their creation).
api::Pod PodView(const api::Pod& pod) {
  api::Pod view = pod;
  if (pod.status.phase != "Running") return view;
  api::PodCondition ready;
  ready.type = std::string(state::kPodConditionReady);
  ready.status = "True";
  ready.last_transition_time = pod.metadata.creation_timestamp;
  for (const api::PodCondition& condition : pod.status.conditions) {
    if (condition.type == state::kPodConditionScheduled && condition.status == "True") {
      ready.last_transition_time = condition.last_transition_time;
    }
  }
  view.status.conditions.push_back(std::move(ready));
  return view;
}

template <class T>
void Append(const std::map<std::string, T>& objects, std::vector<api::Object>& out) {
  for (const auto& [key, object] : objects) out.emplace_back(object);
}

// The instance whose registered Node is `node_name`, if any.
const Instance* RegisteredInstance(const Cluster& cluster, const std::string& node_name) {
  const Instance* instance = cluster.FindInstanceByNode(node_name);
  if (instance == nullptr || instance->phase == NodePhase::kBooting ||
      instance->phase == NodePhase::kTerminated) {
    return nullptr;
  }
  return instance;
}

// Whether the twin holds the object now.
bool Exists(const Cluster& cluster, const ObjectKey& key) {
  if (key.kind == "Pod") {
    return cluster.pod_store().find(NamespacedKey(key)) != cluster.pod_store().end();
  }
  if (key.kind == "Node") return RegisteredInstance(cluster, key.name) != nullptr;
  if (key.kind == "NodeClaim") return cluster.node_claims().contains(key.name);
  if (key.kind == "NodePool") return cluster.node_pools().contains(key.name);
  if (key.kind == "EC2NodeClass") return cluster.node_classes().contains(key.name);
  if (key.kind == "DaemonSet") return cluster.daemon_sets().contains(NamespacedKey(key));
  if (key.kind == "PodDisruptionBudget") return cluster.pdbs().contains(NamespacedKey(key));
  return false;
}

}  // namespace

TwinClusterReader::TwinClusterReader(Cluster& cluster) : cluster_(cluster) {
  watches_->cluster = &cluster_;
}

TwinClusterReader::~TwinClusterReader() {
  if (observer_id_) cluster_.RemoveObserver(*observer_id_);
}

void TwinClusterReader::Stamp(std::string_view kind, api::ObjectMeta& metadata) const {
  if (!watches_->tracking_versions) return;
  auto it =
      watches_->versions.find(ObjectKey{std::string(kind), metadata.namespace_, metadata.name});
  metadata.resource_version = it == watches_->versions.end() ? "1" : std::to_string(it->second);
}

std::optional<api::Object> TwinClusterReader::Get(const ObjectKey& key) const {
  std::optional<api::Object> object = GetUnstamped(key);
  if (object) std::visit([&](auto& typed) { Stamp(key.kind, typed.metadata); }, *object);
  return object;
}

std::optional<api::Object> TwinClusterReader::GetUnstamped(const ObjectKey& key) const {
  if (key.kind == "Pod") {
    auto it = cluster_.pod_store().find(NamespacedKey(key));
    if (it == cluster_.pod_store().end()) return std::nullopt;
    return api::Object(PodView(it->second.pod));
  }
  if (key.kind == "Node") {
    const Instance* instance = RegisteredInstance(cluster_, key.name);
    if (instance == nullptr) return std::nullopt;
    return api::Object(instance->node);
  }
  if (key.kind == "NodeClaim") return Find(cluster_.node_claims(), key.name);
  if (key.kind == "NodePool") return Find(cluster_.node_pools(), key.name);
  if (key.kind == "EC2NodeClass") return Find(cluster_.node_classes(), key.name);
  if (key.kind == "DaemonSet") return Find(cluster_.daemon_sets(), NamespacedKey(key));
  if (key.kind == "PodDisruptionBudget") {
    auto it = cluster_.pdbs().find(NamespacedKey(key));
    if (it == cluster_.pdbs().end()) return std::nullopt;
    api::PodDisruptionBudget pdb = it->second;
    pdb.status = cluster_.PdbStatus(pdb);
    return api::Object(std::move(pdb));
  }
  return std::nullopt;
}

std::vector<api::Object> TwinClusterReader::List(std::string_view kind) const {
  std::vector<api::Object> out;
  if (kind == "Pod") {
    out.reserve(cluster_.pods().size());
    for (const auto& [key, record] : cluster_.pods()) out.emplace_back(PodView(record.pod));
  } else if (kind == "Node") {
    for (const auto& [id, instance] : cluster_.instances()) {
      if (RegisteredInstance(cluster_, instance.node.metadata.name) == &instance) {
        out.emplace_back(instance.node);
      }
    }
  } else if (kind == "NodeClaim") {
    Append(cluster_.node_claims(), out);
  } else if (kind == "NodePool") {
    Append(cluster_.node_pools(), out);
  } else if (kind == "EC2NodeClass") {
    Append(cluster_.node_classes(), out);
  } else if (kind == "DaemonSet") {
    Append(cluster_.daemon_sets(), out);
  } else if (kind == "PodDisruptionBudget") {
    for (const auto& [key, pdb] : cluster_.pdbs()) {
      api::PodDisruptionBudget with_status = pdb;
      with_status.status = cluster_.PdbStatus(pdb);
      out.emplace_back(std::move(with_status));
    }
  }
  SortByKey(out);
  for (api::Object& object : out) {
    std::visit([&](auto& typed) { Stamp(kind, typed.metadata); }, object);
  }
  return out;
}

std::vector<api::Pod> TwinClusterReader::PodsOnNode(std::string_view node_name) const {
  std::vector<api::Pod> pods;
  for (const auto& [key, record] : cluster_.pod_store().OnNode(node_name)) {
    pods.push_back(Stamped("Pod", PodView(record->pod)));
  }
  std::sort(pods.begin(), pods.end(), [](const api::Pod& a, const api::Pod& b) {
    return std::tie(a.metadata.namespace_, a.metadata.name) <
           std::tie(b.metadata.namespace_, b.metadata.name);
  });
  return pods;
}

std::optional<api::Node> TwinClusterReader::NodeByProviderId(std::string_view provider_id) const {
  auto it = cluster_.instances().find(cloudprovider::InstanceIdOf(provider_id));
  if (it == cluster_.instances().end()) return std::nullopt;
  const Instance& instance = it->second;
  if (RegisteredInstance(cluster_, instance.node.metadata.name) != &instance ||
      instance.node.spec.provider_id != provider_id) {
    return std::nullopt;
  }
  return Stamped("Node", instance.node);
}

std::optional<api::NodeClaim> TwinClusterReader::NodeClaimByProviderId(
    std::string_view provider_id) const {
  for (const auto& [name, claim] : cluster_.node_claims()) {
    if (!claim.status.provider_id.empty() && claim.status.provider_id == provider_id) {
      return Stamped("NodeClaim", claim);
    }
  }
  return std::nullopt;
}

void TwinClusterReader::Watch(std::string_view kind,
                              std::function<void(const ObjectKey&)> on_change) {
  Subscribe();
  auto it = watches_->handlers.find(kind);
  if (it == watches_->handlers.end())
    it = watches_->handlers.emplace(std::string(kind), HandlerList{}).first;
  it->second.push_back(std::move(on_change));
}

void TwinClusterReader::TrackResourceVersions() {
  watches_->tracking_versions = true;
  Subscribe();
}

void TwinClusterReader::Subscribe() {
  // The cluster announces changes only once someone watches or tracks versions: a run without
  // either pays nothing for them.
  if (observer_id_) return;
  observer_id_ = cluster_.AddObserver(
      [this](std::string_view changed, const api::ObjectMeta& meta) { Announce(changed, meta); });
}

void TwinClusterReader::Announce(std::string_view kind, const api::ObjectMeta& metadata) {
  if (!watches_->tracking_versions && !watches_->handlers.contains(kind)) return;
  ObjectKey key{std::string(kind), metadata.namespace_, metadata.name};
  if (watches_->tracking_versions) watches_->versions[key] = ++watches_->last_version;
  watches_->changed.push_back(std::move(key));
  if (watches_->delivery_scheduled) return;
  watches_->delivery_scheduled = true;
  cluster_.queue().AtEventEnd([weak = std::weak_ptr<Watches>(watches_)] {
    if (std::shared_ptr<Watches> watches = weak.lock()) watches->Deliver();
  });
}

void TwinClusterReader::Watches::Deliver() {
  std::vector<ObjectKey> keys = std::move(changed);
  changed.clear();
  delivery_scheduled = false;
  std::set<ObjectKey> delivered;
  for (const ObjectKey& key : keys) {
    if (!delivered.insert(key).second) continue;
    if (tracking_versions && !Exists(*cluster, key)) versions.erase(key);
    auto it = handlers.find(key.kind);
    if (it == handlers.end()) continue;
    // By index: a handler may add another watch.
    for (size_t i = 0; i < it->second.size(); ++i) it->second[i](key);
  }
}

}  // namespace karpenter::sim
