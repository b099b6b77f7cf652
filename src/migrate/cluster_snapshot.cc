#include "src/migrate/cluster_snapshot.h"

#include <algorithm>
#include <utility>
#include <variant>

#include "absl/strings/str_join.h"
#include "fmt/format.h"

namespace karpenter::migrate {
namespace {

// Labels Kubernetes, EKS, the cloud provider or Karpenter put on a node themselves, or that
// name one node: a NodePool may not set most of them, and the rest it sets on its own.
bool IsSystemLabel(const std::string& key) {
  static constexpr std::string_view kPrefixes[] = {
      "node.kubernetes.io/",       "topology.kubernetes.io/", "kubernetes.io/",
      "beta.kubernetes.io/",       "failure-domain.",         "eks.amazonaws.com/",
      "karpenter.k8s.aws/",        "karpenter.sh/",           "topology.ebs.csi.aws.com/",
      "k8s.io/cloud-provider-aws", "alpha.eksctl.io/",        "node-role.kubernetes.io/"};
  return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                     [&](std::string_view prefix) { return key.starts_with(prefix); });
}

std::string CapacityTypeOf(const api::Node& node) {
  const auto& labels = node.metadata.labels;
  if (auto it = labels.find("karpenter.sh/capacity-type"); it != labels.end()) return it->second;
  auto it = labels.find(kEksCapacityTypeLabel);
  if (it == labels.end() || it->second == "ON_DEMAND") return "on-demand";
  if (it->second == "SPOT") return "spot";
  return it->second;
}

bool OwnedByDaemonSet(const api::Pod& pod) {
  return std::any_of(pod.metadata.owner_references.begin(), pod.metadata.owner_references.end(),
                     [](const api::OwnerReference& ref) { return ref.kind == "DaemonSet"; });
}

class SnapshotBuilder {
 public:
  explicit SnapshotBuilder(const std::vector<AsgBounds>& asgs) {
    for (const AsgBounds& asg : asgs) {
      for (const std::string& id : asg.instance_ids) asg_of_instance_.emplace(id, &asg);
    }
  }

  void Error(const api::Manifest& manifest, const std::string& message) {
    errors_.push_back(fmt::format("{}: {}: {}", manifest.source, manifest.Ref(), message));
  }

  void AddNode(const api::Manifest& manifest, const api::Node& node) {
    const auto& labels = node.metadata.labels;
    std::string group = GroupOf(node);
    if (group.empty()) {
      snapshot_.other_nodes.push_back(node.metadata.name);
      return;
    }
    auto type = labels.find(kInstanceTypeLabel);
    auto zone = labels.find(kZoneLabel);
    if (type == labels.end() || type->second.empty()) {
      Error(manifest, fmt::format("metadata.labels[{}]: required: the node's EC2 instance type",
                                  kInstanceTypeLabel));
      return;
    }
    if (zone == labels.end() || zone->second.empty()) {
      Error(manifest,
            fmt::format("metadata.labels[{}]: required: the node's availability zone", kZoneLabel));
      return;
    }
    auto [it, fresh] = groups_.try_emplace(group);
    ObservedGroup& observed = it->second;
    observed.name = group;
    observed.instance_types.insert(type->second);
    observed.zones.insert(zone->second);
    observed.capacity_types.insert(CapacityTypeOf(node));
    observed.nodes.push_back(node.metadata.name);
    if (!labels.contains(kNodeGroupLabel)) observed.labelled = false;
    group_of_node_[node.metadata.name] = group;
    snapshot_.node_places[node.metadata.name] = {zone->second, type->second};
    KeepSharedLabels(observed, node, fresh);
    if (fresh || node.metadata.name < first_node_[group]) {
      first_node_[group] = node.metadata.name;
      observed.taints = node.spec.taints;
    }
  }

  void AddPod(const api::Manifest& manifest, const api::Pod& pod) {
    snapshot_.pods.push_back(&manifest);
    const std::string addon = CriticalAddonOf(pod);
    if (addon.empty() || OwnedByDaemonSet(pod)) return;
    const std::string entry =
        fmt::format("{} (Pod {}/{})", addon, pod.metadata.namespace_, pod.metadata.name);
    pinned_.emplace_back(pod.spec.node_name, entry);
  }

  absl::StatusOr<ClusterSnapshot> Finish() {
    if (!errors_.empty()) return absl::InvalidArgumentError(absl::StrJoin(errors_, "\n"));
    for (auto& [node, entry] : pinned_) {
      auto it = group_of_node_.find(node);
      if (it == group_of_node_.end()) {
        snapshot_.unpinned_addons.push_back(entry);
        continue;
      }
      groups_[it->second].critical_addons.push_back(entry);
    }
    for (auto& [name, group] : groups_) {
      std::sort(group.nodes.begin(), group.nodes.end());
      std::sort(group.critical_addons.begin(), group.critical_addons.end());
      snapshot_.groups.push_back(std::move(group));
    }
    std::sort(snapshot_.other_nodes.begin(), snapshot_.other_nodes.end());
    std::sort(snapshot_.unpinned_addons.begin(), snapshot_.unpinned_addons.end());
    return std::move(snapshot_);
  }

  ClusterSnapshot& snapshot() { return snapshot_; }

 private:
  std::string GroupOf(const api::Node& node) const {
    if (auto it = node.metadata.labels.find(kNodeGroupLabel); it != node.metadata.labels.end()) {
      return it->second;
    }
    const std::string& provider_id = node.spec.provider_id;
    auto asg = asg_of_instance_.find(provider_id.substr(provider_id.rfind('/') + 1));
    if (asg == asg_of_instance_.end()) return "";
    return asg->second->node_group.empty() ? asg->second->name : asg->second->node_group;
  }

  static void KeepSharedLabels(ObservedGroup& group, const api::Node& node, bool first) {
    if (first) {
      for (const auto& [key, value] : node.metadata.labels) {
        if (!IsSystemLabel(key)) group.labels.emplace(key, value);
      }
      return;
    }
    std::erase_if(group.labels, [&](const auto& entry) {
      auto it = node.metadata.labels.find(entry.first);
      return it == node.metadata.labels.end() || it->second != entry.second;
    });
  }

  std::map<std::string, const AsgBounds*> asg_of_instance_;
  std::map<std::string, ObservedGroup> groups_;
  std::map<std::string, std::string> first_node_;
  std::map<std::string, std::string> group_of_node_;
  std::vector<std::pair<std::string, std::string>> pinned_;  // (node, add-on entry)
  std::vector<std::string> errors_;
  ClusterSnapshot snapshot_;
};

}  // namespace

std::string CriticalAddonOf(const api::Pod& pod) {
  const auto& labels = pod.metadata.labels;
  auto label = [&](const char* key) {
    auto it = labels.find(key);
    return it == labels.end() ? std::string() : it->second;
  };
  const std::string k8s_app = label("k8s-app");
  if (k8s_app == "kube-dns") return "coredns";
  if (k8s_app == "aws-node") return "aws-node";
  if (k8s_app == "kube-proxy") return "kube-proxy";
  const std::string name = label("app.kubernetes.io/name");
  if (name == "aws-load-balancer-controller" || name == "karpenter") return name;
  return "";
}

absl::StatusOr<ClusterSnapshot> ReadClusterSnapshot(const std::vector<api::Manifest>& manifests,
                                                    const std::vector<AsgBounds>& asgs) {
  SnapshotBuilder builder(asgs);
  for (const api::Manifest& manifest : manifests) {
    if (!manifest.report.errors.empty()) {
      for (const api::FieldError& error : manifest.report.errors.errors()) {
        builder.Error(manifest, error.ToString());
      }
      continue;
    }
    if (!manifest.object.has_value()) continue;
    const api::Object& object = *manifest.object;
    if (const auto* node = std::get_if<api::Node>(&object)) builder.AddNode(manifest, *node);
    if (const auto* pod = std::get_if<api::Pod>(&object)) builder.AddPod(manifest, *pod);
    if (std::holds_alternative<api::PodDisruptionBudget>(object)) {
      builder.snapshot().pdbs.push_back(&manifest);
    }
    if (std::holds_alternative<api::Deployment>(object) ||
        std::holds_alternative<api::StatefulSet>(object)) {
      builder.snapshot().workloads.push_back(&manifest);
    }
  }
  return builder.Finish();
}

}  // namespace karpenter::migrate
