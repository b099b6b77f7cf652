#include "src/provisioning/snapshot_input.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/api/pod_resources.h"
#include "src/provisioning/resources.h"
#include "src/provisioning/scheduler.h"
#include "src/state/daemonset_pods.h"
#include "src/state/pending.h"
#include "src/state/pod_predicates.h"
#include "src/state/volume_topology.h"
#include "src/state/volume_usage.h"

namespace karpenter::provisioning {
namespace {

std::string Quoted(const std::string& text) { return "\"" + text + "\""; }

// Why the pool cannot launch anything right now, or empty when it can.
std::string NodePoolNotReadyReason(const state::ClusterSnapshot& snapshot,
                                   const api::NodePool& pool, bool needs_node_class) {
  if (pool.metadata.deletion_timestamp) return "it is being deleted";
  if (!needs_node_class) return "";
  const std::optional<api::NodeClassReference>& ref = pool.spec.template_.spec.node_class_ref;
  if (!ref) return "it has no nodeClassRef";
  if (snapshot.FindEC2NodeClass(ref->name) == nullptr) {
    return absl::StrCat("EC2NodeClass ", Quoted(ref->name), " not found");
  }
  return "";
}

absl::Status AddNodePools(const state::ClusterSnapshot& snapshot, const PlanOptions& options,
                          CatalogCache& catalogs, SnapshotSchedulerInput& out) {
  for (const api::NodePool& pool : snapshot.node_pools()) {
    std::string not_ready =
        NodePoolNotReadyReason(snapshot, pool, !options.instance_types.has_value());
    if (!not_ready.empty()) {
      out.not_ready_node_pools.push_back(
          absl::StrCat("nodepool ", Quoted(pool.metadata.name), " is not ready: ", not_ready));
      out.warnings.push_back(out.not_ready_node_pools.back());
      continue;
    }
    if (options.instance_types) {
      out.input.node_pools.push_back({pool, *options.instance_types});
      continue;
    }
    if (options.host_supplies_node_pool_types) {
      out.input.node_pools.push_back({pool, {}});
      continue;
    }
    const api::EC2NodeClass* node_class =
        snapshot.FindEC2NodeClass(pool.spec.template_.spec.node_class_ref->name);
    KP_ASSIGN_OR_RETURN(SharedVector<InstanceTypeView> types,
                        catalogs.InstanceTypesFor(*node_class));
    out.input.node_pools.push_back({pool, std::move(types)});
  }
  return absl::OkStatus();
}

// What the pods bound to a node use of it; `pods` are all of them (SharedPodsOnNode). Returns
// whether a pod that counts claims volumes.
bool ChargeBoundPods(const state::ClusterSnapshot& snapshot,
                     const std::vector<const state::SharedPod*>& pods, ExistingNodeView& view,
                     std::vector<const api::Pod*>& live_pods) {
  bool claims_volumes = false;
  int64_t live = 0;
  int64_t daemons = 0;
  for (const state::SharedPod* shared : pods) {
    const api::Pod* pod = &(*shared)->pod;
    const state::PodCharge& charge = (*shared)->charge;
    if (charge.terminal) continue;
    live_pods.push_back(pod);
    ++live;
    daemons += charge.daemon ? 1 : 0;
    if (charge.claims_volumes) {
      claims_volumes = true;
      state::AddVolumes(view.volumes_in_use, state::PodVolumes(snapshot, *pod));
    }
    api::AddResources(view.requested, charge.requests);
    if (charge.daemon) api::AddResources(view.daemon_requested, charge.requests);
    if (!charge.host_ports) continue;
    for (const api::Container& container : pod->spec.containers) {
      for (const api::ContainerPort& port : container.ports) {
        if (port.host_port > 0) view.host_ports_used.push_back(port);
      }
    }
  }
  // Each takes one of the node's pod slots (upstream's RequestsForPods counts them), as a pod
  // the solve places there does (RequestsForPod).
  if (live > 0) {
    view.requested[kResourcePods].Add(
        api::Quantity::FromInt(live, api::Quantity::Format::kDecimalSI));
  }
  if (daemons > 0) {
    view.daemon_requested[kResourcePods].Add(
        api::Quantity::FromInt(daemons, api::Quantity::Format::kDecimalSI));
  }
  return claims_volumes;
}

// ChargeBoundPods through `memo` (may be null); the node's live pods go to `bound_pods`.
void ChargeBoundPods(const state::ClusterSnapshot& snapshot,
                     const std::vector<const state::SharedPod*>& pods, BoundPodCharges* memo,
                     ExistingNodeView& view, std::vector<const api::Pod*>& bound_pods) {
  if (memo != nullptr) {
    if (const BoundPodCharges::Charge* charge = memo->Find(view.name, pods)) {
      view.requested = charge->requested;
      view.daemon_requested = charge->daemon_requested;
      view.host_ports_used = charge->host_ports_used;
      bound_pods.insert(bound_pods.end(), charge->live_pods.begin(), charge->live_pods.end());
      return;
    }
  }
  std::vector<const api::Pod*> live_pods;
  const bool claims_volumes = ChargeBoundPods(snapshot, pods, view, live_pods);
  bound_pods.insert(bound_pods.end(), live_pods.begin(), live_pods.end());
  if (memo == nullptr || claims_volumes) return;
  memo->Remember(view.name, pods,
                 {.requested = view.requested,
                  .daemon_requested = view.daemon_requested,
                  .host_ports_used = view.host_ports_used,
                  .live_pods = std::move(live_pods)});
}

// The node (one of the snapshot's) as the scheduler sees it, its labels borrowed from the
// snapshot; the pods bound to it are charged by ChargeBoundPods.
ExistingNodeView NodeView(const state::ClusterSnapshot& snapshot, const api::Node& node) {
  ExistingNodeView view;
  view.name = node.metadata.name;
  view.labels = SharedLabels::Borrow(snapshot.shared_nodes(), node.metadata.labels);
  view.taints = node.spec.taints;
  view.allocatable = node.status.allocatable;
  view.capacity = node.status.capacity;
  const api::NodeClaim* node_claim = snapshot.NodeClaimForNode(node);
  view.managed =
      node_claim != nullptr || node.metadata.labels.contains(std::string(api::kNodePoolLabelKey));
  view.initialized = node_claim == nullptr ||
                     node.metadata.labels.contains(std::string(api::kNodeInitializedLabelKey));
  if (const api::CSINode* csi_node = snapshot.FindCSINode(node.metadata.name)) {
    view.volume_limits = state::VolumeLimits(*csi_node);
  }
  return view;
}

// The instance type an in-flight NodeClaim was (or will be) launched as: its label, else a
// single-valued requirement on the type.
std::string NodeClaimInstanceType(const api::NodeClaim& node_claim) {
  const std::string key(api::kLabelInstanceTypeStable);
  if (auto it = node_claim.metadata.labels.find(key); it != node_claim.metadata.labels.end()) {
    return it->second;
  }
  for (const api::NodeSelectorRequirementWithMinValues& requirement :
       node_claim.spec.requirements) {
    if (requirement.key == key && requirement.operator_ == api::kNodeSelectorOpIn &&
        requirement.values.size() == 1) {
      return requirement.values.front();
    }
  }
  return "";
}

// The catalog type of an in-flight claim, resolved under its own EC2NodeClass when the snapshot
// has it (kubelet overrides change allocatable), else under the default options.
absl::StatusOr<const cloudprovider::InstanceType*> CatalogTypeOf(
    const state::ClusterSnapshot& snapshot, const api::NodeClaim& node_claim,
    const std::string& type_name, CatalogCache& catalogs) {
  cloudprovider::ResolveOptions options;
  const std::optional<api::NodeClassReference>& ref = node_claim.spec.node_class_ref;
  const api::EC2NodeClass* node_class = ref ? snapshot.FindEC2NodeClass(ref->name) : nullptr;
  if (node_class != nullptr) {
    KP_ASSIGN_OR_RETURN(options, ResolveOptionsFor(*node_class));
  }
  KP_ASSIGN_OR_RETURN(const cloudprovider::Catalog* catalog, catalogs.Get(options));
  return catalog->Find(type_name);
}

// An in-flight NodeClaim as a node: labels from its single-valued requirements, size from its
// status or else from the catalog. nullopt (with a warning) when neither tells its size.
absl::StatusOr<std::optional<ExistingNodeView>> InFlightView(const state::ClusterSnapshot& snapshot,
                                                             const api::NodeClaim& node_claim,
                                                             CatalogCache& catalogs,
                                                             std::vector<std::string>& warnings) {
  ExistingNodeView view;
  view.name = node_claim.metadata.name;
  view.managed = true;
  view.initialized = false;
  view.taints = node_claim.spec.taints;
  view.taints.insert(view.taints.end(), node_claim.spec.startup_taints.begin(),
                     node_claim.spec.startup_taints.end());
  view.allocatable = node_claim.status.allocatable;
  view.capacity = node_claim.status.capacity;
  const std::string type_name = NodeClaimInstanceType(node_claim);
  if (!type_name.empty()) {
    KP_ASSIGN_OR_RETURN(const cloudprovider::InstanceType* type,
                        CatalogTypeOf(snapshot, node_claim, type_name, catalogs));
    if (type != nullptr) {
      view.labels = type->labels;
      if (view.allocatable.empty()) view.allocatable = type->Allocatable();
      if (view.capacity.empty()) view.capacity = type->capacity;
    }
  }
  if (view.allocatable.empty()) {
    warnings.push_back(absl::StrCat("nodeclaim ", Quoted(view.name),
                                    " is left out: neither its status nor the catalog gives "
                                    "its size (instance type ",
                                    Quoted(type_name), ")"));
    return std::optional<ExistingNodeView>();
  }
  for (const api::NodeSelectorRequirementWithMinValues& requirement :
       node_claim.spec.requirements) {
    if (requirement.operator_ == api::kNodeSelectorOpIn && requirement.values.size() == 1) {
      view.labels[requirement.key] = requirement.values.front();
    }
  }
  for (const auto& [key, value] : node_claim.metadata.labels) view.labels[key] = value;
  return std::optional<ExistingNodeView>(std::move(view));
}

absl::Status AddExistingNodes(const state::ClusterSnapshot& snapshot, const PlanOptions& options,
                              CatalogCache& catalogs, SnapshotSchedulerInput& out) {
  BoundPodCharges* charges = options.bound_pod_charges;
  if (charges != nullptr) charges->StartInput();
  for (const api::Node& node : snapshot.nodes()) {
    if (state::IsNodeDeleting(snapshot, node, options.marked_for_deletion)) continue;
    ExistingNodeView& view = out.input.existing_nodes.emplace_back(NodeView(snapshot, node));
    ChargeBoundPods(snapshot, snapshot.SharedPodsOnNode(node.metadata.name), charges, view,
                    out.input.bound_pods);
  }
  if (charges != nullptr) charges->ForgetUnused();
  for (const api::NodeClaim& node_claim : snapshot.node_claims()) {
    if (node_claim.metadata.deletion_timestamp ||
        snapshot.NodeForNodeClaim(node_claim) != nullptr) {
      continue;
    }
    KP_ASSIGN_OR_RETURN(std::optional<ExistingNodeView> view,
                        InFlightView(snapshot, node_claim, catalogs, out.warnings));
    if (view) out.input.existing_nodes.push_back(*std::move(view));
  }
  return absl::OkStatus();
}

void AddPodVolumes(const state::ClusterSnapshot& snapshot, const api::Pod& pod,
                   SchedulerInput& input) {
  state::VolumesByDriver volumes = state::PodVolumes(snapshot, pod);
  if (!volumes.empty()) input.pod_volumes[PodKey(pod)] = std::move(volumes);
}

void AddPods(const state::ClusterSnapshot& snapshot, const PlanOptions& options,
             SnapshotSchedulerInput& out) {
  state::PendingPods pending = state::SelectPendingPods(snapshot, options.pending);
  for (const api::Pod* pod : pending.pods) {
    out.input.pending_pods.push_back(*pod);
    state::InjectVolumeRequirements(snapshot, out.input.pending_pods.back());
    AddPodVolumes(snapshot, *pod, out.input);
  }
  for (const state::IgnoredPod& ignored : pending.ignored) {
    out.ignored_pods.push_back({PodKey(*ignored.pod), ignored.reason.message});
  }
  // Pods of deleting nodes need a new home; they are planned for as if unbound.
  for (const api::Pod* pod : state::ReschedulablePodsOfDeletingNodes(snapshot, options.now,
                                                                     options.marked_for_deletion)) {
    api::Pod moving = *pod;
    moving.spec.node_name.clear();
    state::InjectVolumeRequirements(snapshot, moving);
    AddPodVolumes(snapshot, moving, out.input);
    out.input.pending_pods.push_back(std::move(moving));
  }
}

}  // namespace

const BoundPodCharges::Charge* BoundPodCharges::Find(
    const std::string& node, const std::vector<const state::SharedPod*>& pods) {
  auto it = entries_.find(node);
  if (it == entries_.end()) return nullptr;
  const std::vector<state::SharedPod>& remembered = it->second.pods;
  if (remembered.size() != pods.size()) return nullptr;
  for (size_t i = 0; i < pods.size(); ++i) {
    if (remembered[i] != *pods[i]) return nullptr;
  }
  it->second.input = input_;
  return &it->second.charge;
}

void BoundPodCharges::Remember(const std::string& node,
                               const std::vector<const state::SharedPod*>& pods, Charge charge) {
  Entry& entry = entries_[node];
  entry.pods.clear();
  for (const state::SharedPod* pod : pods) entry.pods.push_back(*pod);
  entry.charge = std::move(charge);
  entry.input = input_;
}

void BoundPodCharges::ForgetUnused() {
  std::erase_if(entries_, [this](const auto& entry) { return entry.second.input != input_; });
}

absl::StatusOr<SnapshotSchedulerInput> BuildSchedulerInput(const state::ClusterSnapshot& snapshot,
                                                           const PlanOptions& options,
                                                           CatalogCache& catalogs) {
  SnapshotSchedulerInput out;
  out.input.options = options.scheduler;
  KP_RETURN_IF_ERROR(AddNodePools(snapshot, options, catalogs, out));
  KP_RETURN_IF_ERROR(AddExistingNodes(snapshot, options, catalogs, out));
  out.input.daemonset_pods = state::DaemonSetPods(snapshot);
  AddPods(snapshot, options, out);
  std::sort(out.warnings.begin(), out.warnings.end());
  return out;
}

}  // namespace karpenter::provisioning
