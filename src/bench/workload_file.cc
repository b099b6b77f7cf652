#include "src/bench/workload_file.h"

#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/bench/scheduling_solve.h"
#include "src/provisioning/resources.h"
#include "src/provisioning/scheduler.h"
#include "src/state/daemonset_pods.h"

namespace karpenter::bench {
namespace {

bool OwnedByDaemonSet(const api::Pod& pod) {
  for (const api::OwnerReference& owner : pod.metadata.owner_references) {
    if (owner.kind == "DaemonSet") return true;
  }
  return false;
}

provisioning::ExistingNodeView NodeView(const api::Node& node) {
  provisioning::ExistingNodeView view;
  view.name = node.metadata.name;
  view.labels = node.metadata.labels;
  view.taints = node.spec.taints;
  view.allocatable = node.status.allocatable;
  view.capacity = node.status.capacity;
  view.managed = node.metadata.labels.contains(std::string(api::kNodePoolLabelKey));
  return view;
}

void Charge(provisioning::ExistingNodeView& node, const api::Pod& pod) {
  const api::ResourceList requests = provisioning::RequestsForPod(pod);
  node.requested = provisioning::Merge(node.requested, requests);
  if (OwnedByDaemonSet(pod)) {
    node.daemon_requested = provisioning::Merge(node.daemon_requested, requests);
  }
  for (const api::Container& container : pod.spec.containers) {
    for (const api::ContainerPort& port : container.ports) {
      if (port.host_port > 0) node.host_ports_used.push_back(port);
    }
  }
}

}  // namespace

absl::StatusOr<WorkloadInput> BuildWorkloadInput(const std::vector<api::Manifest>& manifests,
                                                 const provisioning::InstanceTypeFile& catalog,
                                                 const provisioning::SchedulerOptions& options) {
  WorkloadInput out;
  out.bound_pods = std::make_unique<std::vector<api::Pod>>();
  provisioning::SchedulerInput& input = out.input;
  std::vector<api::NodePool> pools;
  std::map<std::string, size_t> node_index;  // Name -> index in input.existing_nodes.
  for (const api::Manifest& manifest : manifests) {
    const std::string where = absl::StrCat(manifest.source, ": ", manifest.Ref());
    if (!manifest.object) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": kind ", manifest.kind, " is not modelled"));
    }
    if (const auto* pod = std::get_if<api::Pod>(&*manifest.object)) {
      if (pod->spec.node_name.empty()) {
        input.pending_pods.push_back(*pod);
      } else {
        out.bound_pods->push_back(*pod);
      }
    } else if (const auto* pool = std::get_if<api::NodePool>(&*manifest.object)) {
      pools.push_back(*pool);
    } else if (const auto* daemon_set = std::get_if<api::DaemonSet>(&*manifest.object)) {
      input.daemonset_pods.push_back(state::DaemonSetPodTemplate(*daemon_set));
    } else if (const auto* node = std::get_if<api::Node>(&*manifest.object)) {
      if (!node_index.emplace(node->metadata.name, input.existing_nodes.size()).second) {
        return absl::InvalidArgumentError(absl::StrCat(where, ": duplicate node"));
      }
      input.existing_nodes.push_back(NodeView(*node));
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": a workload holds Pods, NodePools, DaemonSets and Nodes, not ", manifest.kind));
    }
  }
  if (input.pending_pods.empty()) {
    return absl::InvalidArgumentError("workload: no pending pod (a Pod without spec.nodeName)");
  }
  for (const api::Pod& pod : *out.bound_pods) {
    auto found = node_index.find(pod.spec.node_name);
    if (found == node_index.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Pod/", pod.metadata.namespace_, "/", pod.metadata.name,
                       ": spec.nodeName: no Node \"", pod.spec.node_name, "\" in the workload"));
    }
    Charge(input.existing_nodes[found->second], pod);
    input.bound_pods.push_back(&pod);
  }
  if (pools.empty())
    pools.push_back(BenchNodePool(static_cast<int64_t>(input.pending_pods.size())));
  const provisioning::SharedVector<provisioning::InstanceTypeView> shared(catalog.instance_types);
  for (api::NodePool& pool : pools) input.node_pools.push_back({std::move(pool), shared});
  input.options = options;
  provisioning::DeclareWellKnownLabels(catalog, input.options.well_known_labels);
  return out;
}

absl::StatusOr<Decisions> SolveWorkload(const std::vector<api::Manifest>& manifests,
                                        const provisioning::InstanceTypeFile& catalog,
                                        const provisioning::SchedulerOptions& options) {
  KP_ASSIGN_OR_RETURN(const WorkloadInput workload,
                      BuildWorkloadInput(manifests, catalog, options));
  return DecisionsOf(provisioning::Solve(workload.input));
}

}  // namespace karpenter::bench
