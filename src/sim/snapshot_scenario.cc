#include "src/sim/snapshot_scenario.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <variant>

#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "src/api/validation.h"
#include "src/sim/cluster.h"
#include "src/sim/scenario_reader.h"

namespace karpenter::sim {
namespace {

// Labels the twin gives a group's nodes itself (from the instance type, zone and group) or that
// name one node: a node group's own labels are the others its nodes share.
bool TwinSetsLabel(const std::string& key) {
  static constexpr std::string_view kPrefixes[] = {
      "node.kubernetes.io/",      "topology.kubernetes.io/", "kubernetes.io/",
      "beta.kubernetes.io/",      "failure-domain.",         "eks.amazonaws.com/",
      "karpenter.k8s.aws/",       "karpenter.sh/",           "topology.ebs.csi.aws.com/",
      "k8s.io/cloud-provider-aws"};
  return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                     [&](std::string_view prefix) { return key.starts_with(prefix); });
}

struct GroupDraft {
  NodeGroup group;
  const AutoScalingGroupRecord* asg = nullptr;  // its Auto Scaling group, when given
  std::set<std::string> zones;
  std::string first_node;
  bool labels_set = false;
};

class SnapshotReader {
 public:
  SnapshotReader(const cloudprovider::Catalog& catalog,
                 const std::vector<AutoScalingGroupRecord>& asgs)
      : catalog_(catalog) {
    for (const AutoScalingGroupRecord& asg : asgs) {
      for (const std::string& id : asg.instance_ids) asg_of_instance_.emplace(id, &asg);
    }
  }
  void Node(const api::Manifest& manifest, const api::Node& node);
  void Pod(const api::Manifest& manifest, const api::Pod& pod);
  void Workload(const api::Manifest& manifest, const api::Object& object);
  void Error(const api::Manifest& manifest, const std::string& message) {
    errors_.push_back(fmt::format("{}: {}: {}", manifest.source, manifest.Ref(), message));
  }
  const std::vector<std::string>& errors() const { return errors_; }
  std::map<std::string, GroupDraft>& groups() { return groups_; }
  std::vector<api::Object>& objects() { return objects_; }
  std::vector<api::Object>& workloads() { return workloads_; }

 private:
  // The label's value, or an error naming its path and why it is needed.
  const std::string* Label(const api::Manifest& manifest, const api::Node& node,
                           const std::string& key, std::string_view why) {
    auto it = node.metadata.labels.find(key);
    if (it != node.metadata.labels.end() && !it->second.empty()) return &it->second;
    Error(manifest, fmt::format("metadata.labels[{}]: required: {}", key, why));
    return nullptr;
  }

  // The Auto Scaling group of the node's instance (spec.providerID aws:///ZONE/i-...), if any.
  const AutoScalingGroupRecord* AsgOf(const api::Node& node) const {
    const std::string& provider_id = node.spec.provider_id;
    const std::string id = provider_id.substr(provider_id.rfind('/') + 1);
    auto it = asg_of_instance_.find(id);
    return it == asg_of_instance_.end() ? nullptr : it->second;
  }

  const cloudprovider::Catalog& catalog_;
  std::map<std::string, const AutoScalingGroupRecord*> asg_of_instance_;
  std::vector<std::string> errors_;
  std::map<std::string, GroupDraft> groups_;
  std::vector<api::Object> objects_;    // at t=0 in every run: DaemonSets, PDBs, Karpenter's
  std::vector<api::Object> workloads_;  // applied by the first step: their pods are measured
};

std::string CapacityTypeOf(const api::Node& node) {
  const auto& labels = node.metadata.labels;
  if (auto it = labels.find("karpenter.sh/capacity-type"); it != labels.end()) return it->second;
  if (auto it = labels.find(kEksCapacityTypeLabelKey); it != labels.end()) {
    return it->second == "SPOT" ? "spot" : it->second == "ON_DEMAND" ? "on-demand" : it->second;
  }
  return "on-demand";  // assumed: managed node groups default to ON_DEMAND
}

void SnapshotReader::Node(const api::Manifest& manifest, const api::Node& node) {
  if (node.metadata.labels.contains("karpenter.sh/nodepool")) {
    Error(manifest,
          "metadata.labels[karpenter.sh/nodepool]: a node Karpenter launched: the twin starts "
          "both runs from node groups only; leave it out of the snapshot (its pods are placed "
          "again at t=0)");
    return;
  }
  const AutoScalingGroupRecord* asg = AsgOf(node);
  const std::string* group_name = nullptr;
  if (asg != nullptr && !node.metadata.labels.contains(kNodeGroupLabelKey)) {
    group_name = asg->node_group.empty() ? &asg->name : &asg->node_group;
  } else {
    group_name = Label(manifest, node, kNodeGroupLabelKey,
                       "the node group its Auto Scaling group runs (or give the Auto Scaling "
                       "groups holding its spec.providerID instance)");
  }
  const std::string* type = Label(manifest, node, kInstanceTypeLabelKey, "the node's EC2 type");
  const std::string* zone = Label(manifest, node, kZoneLabelKey, "the node's availability zone");
  if (group_name == nullptr || type == nullptr || zone == nullptr) return;
  if (catalog_.Find(*type) == nullptr) {
    Error(manifest, fmt::format("metadata.labels[{}]: unknown instance type \"{}\": not in the "
                                "catalog",
                                kInstanceTypeLabelKey, *type));
    return;
  }
  const std::vector<std::string>& zones = catalog_.zones();
  if (std::find(zones.begin(), zones.end(), *zone) == zones.end()) {
    Error(manifest,
          fmt::format("metadata.labels[{}]: unknown zone \"{}\": the catalog's {} "
                      "zones are {}",
                      kZoneLabelKey, *zone, catalog_.region(), absl::StrJoin(zones, ", ")));
    return;
  }
  const std::string capacity_type = CapacityTypeOf(node);
  if (capacity_type != "on-demand" && capacity_type != "spot") {
    Error(manifest, fmt::format("metadata.labels[{}]: \"{}\": must be ON_DEMAND or SPOT",
                                kEksCapacityTypeLabelKey, capacity_type));
    return;
  }
  auto [it, fresh] = groups_.try_emplace(*group_name);
  GroupDraft& draft = it->second;
  if (fresh) {
    draft.group.name = *group_name;
    draft.group.instance_type = *type;
    draft.group.capacity_type = capacity_type;
    draft.first_node = node.metadata.name;
    for (const api::Taint& taint : node.spec.taints) {
      if (!taint.key.starts_with("node.kubernetes.io/") &&
          !taint.key.starts_with("karpenter.sh/")) {
        draft.group.taints.push_back(taint);
      }
    }
  } else if (*type != draft.group.instance_type || capacity_type != draft.group.capacity_type) {
    Error(manifest,
          fmt::format("metadata.labels[{}]: {} {} differs from {} {} of node {} in node group "
                      "{}: the twin's node groups run one instance type and capacity type",
                      kInstanceTypeLabelKey, *type, capacity_type, draft.group.instance_type,
                      draft.group.capacity_type, draft.first_node, *group_name));
    return;
  }
  ++draft.group.initial_size;
  draft.zones.insert(*zone);
  if (draft.asg == nullptr) draft.asg = asg;  // any node of the group may name its ASG
  // The group's labels: those every node of it carries with the same value.
  std::map<std::string, std::string> own;
  for (const auto& [key, value] : node.metadata.labels) {
    if (!TwinSetsLabel(key)) own.emplace(key, value);
  }
  if (!draft.labels_set) {
    draft.group.labels = std::move(own);
    draft.labels_set = true;
    return;
  }
  std::erase_if(draft.group.labels, [&](const auto& entry) {
    auto found = own.find(entry.first);
    return found == own.end() || found->second != entry.second;
  });
}

void SnapshotReader::Pod(const api::Manifest& manifest, const api::Pod& pod) {
  // Pods of controllers come back from their controllers at t=0; a bare pod has none.
  for (const api::OwnerReference& owner : pod.metadata.owner_references) {
    if (owner.controller.value_or(false)) return;
  }
  Error(manifest,
        "metadata.ownerReferences: a pod without a controller: the twin runs the pods of "
        "Deployments, StatefulSets, Jobs and DaemonSets; include its controller instead");
}

void SnapshotReader::Workload(const api::Manifest& manifest, const api::Object& object) {
  if (const auto* set = std::get_if<api::StatefulSet>(&object);
      set != nullptr && !set->spec.volume_claim_templates.empty()) {
    Error(manifest, "spec.volumeClaimTemplates: the twin models no PersistentVolumes");
    return;
  }
  const auto too_many = [](const std::optional<int32_t>& count) {
    return count && *count > kMaxScenarioReplicas;
  };
  if (const auto* deployment = std::get_if<api::Deployment>(&object);
      deployment != nullptr && too_many(deployment->spec.replicas)) {
    Error(manifest, fmt::format("spec.replicas: must be at most {}", kMaxScenarioReplicas));
    return;
  }
  const bool makes_pods = std::holds_alternative<api::Deployment>(object) ||
                          std::holds_alternative<api::StatefulSet>(object) ||
                          std::holds_alternative<api::Job>(object);
  (makes_pods ? workloads_ : objects_).push_back(object);
}

}  // namespace

absl::StatusOr<Scenario> ScenarioFromSnapshot(const std::vector<api::Manifest>& snapshot,
                                              Scenario trace, const cloudprovider::Catalog& catalog,
                                              const std::vector<AutoScalingGroupRecord>& asgs) {
  SnapshotReader reader(catalog, asgs);
  for (const api::Manifest& manifest : snapshot) {
    const api::FieldErrors problems = api::ValidateManifest(manifest);
    for (const api::FieldError& problem : problems.errors()) {
      reader.Error(manifest, problem.ToString());
    }
    if (!problems.errors().empty() || !manifest.object) continue;  // kinds the twin ignores
    const api::Object& object = *manifest.object;
    if (const auto* node = std::get_if<api::Node>(&object)) {
      reader.Node(manifest, *node);
    } else if (const auto* pod = std::get_if<api::Pod>(&object)) {
      reader.Pod(manifest, *pod);
    } else if (std::holds_alternative<api::Deployment>(object) ||
               std::holds_alternative<api::DaemonSet>(object) ||
               std::holds_alternative<api::StatefulSet>(object) ||
               std::holds_alternative<api::Job>(object) ||
               std::holds_alternative<api::PodDisruptionBudget>(object) ||
               std::holds_alternative<api::NodePool>(object) ||
               std::holds_alternative<api::EC2NodeClass>(object)) {
      reader.Workload(manifest, object);
    }
  }
  if (reader.groups().empty() && reader.errors().empty()) {
    return absl::InvalidArgumentError(
        "the snapshot has no Node: the twin starts from the snapshot's nodes (kubectl get "
        "nodes -o yaml)");
  }
  for (const NodeGroup& group : trace.node_groups) {
    if (reader.groups().contains(group.name)) {
      return absl::InvalidArgumentError(fmt::format(
          "nodeGroups: {} is both in the trace scenario and in the snapshot", group.name));
    }
  }
  if (!reader.errors().empty()) {
    return absl::InvalidArgumentError(absl::StrJoin(reader.errors(), "\n"));
  }
  std::set<std::string> zones(trace.zones.begin(), trace.zones.end());
  for (auto& [name, draft] : reader.groups()) {
    NodeGroup& group = draft.group;
    group.zones.assign(draft.zones.begin(), draft.zones.end());
    zones.insert(draft.zones.begin(), draft.zones.end());
    if (draft.asg != nullptr) {
      // The group's own bounds, widened to the nodes the snapshot shows.
      group.min_size = std::min(draft.asg->min_size, group.initial_size);
      group.max_size = std::max(draft.asg->max_size, group.initial_size);
      group.autoscaled = draft.asg->autoscaled;
    } else {
      group.min_size = 0;
      group.max_size = std::max(kSnapshotGroupMinMaxSize, 2 * group.initial_size);
    }
    trace.node_groups.push_back(std::move(group));
  }
  trace.zones.assign(zones.begin(), zones.end());
  trace.initial_objects.insert(trace.initial_objects.begin(), reader.objects().begin(),
                               reader.objects().end());
  if (!reader.workloads().empty()) {
    Step step;
    step.objects = std::move(reader.workloads());
    step.note = "the snapshot's workloads";
    trace.steps.insert(trace.steps.begin(), std::move(step));
  }
  return trace;
}

}  // namespace karpenter::sim
