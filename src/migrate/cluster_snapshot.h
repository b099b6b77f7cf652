// What a migration reads from `kubectl get nodes,pods,deployments,statefulsets,pdb -A -o yaml`:
// the node groups the Nodes belong to (one per `eks.amazonaws.com/nodegroup` label, or per Auto
// Scaling group holding the node's instance), what they share, and the critical add-ons pinned
// to them.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/manifest.h"
#include "src/migrate/aws_inputs.h"

namespace karpenter::migrate {

inline constexpr char kNodeGroupLabel[] = "eks.amazonaws.com/nodegroup";
inline constexpr char kEksCapacityTypeLabel[] = "eks.amazonaws.com/capacityType";
inline constexpr char kInstanceTypeLabel[] = "node.kubernetes.io/instance-type";
inline constexpr char kZoneLabel[] = "topology.kubernetes.io/zone";

struct ObservedGroup {
  std::string name;
  std::set<std::string> instance_types;
  std::set<std::string> zones;
  std::set<std::string> capacity_types;  // Karpenter's spelling: on-demand, spot
  // Labels every node of the group carries, without those Kubernetes, EKS or Karpenter set.
  std::map<std::string, std::string> labels;
  std::vector<api::Taint> taints;  // of the group's first node (by name)
  std::vector<std::string> nodes;  // sorted
  // Every node carries `eks.amazonaws.com/nodegroup` (a self-managed group's are grouped by
  // their Auto Scaling group and may carry none): Phase 4 then selects them by that label.
  bool labelled = true;
  // "coredns (Pod kube-system/coredns-5d8f)" for each critical add-on pod on the group's nodes
  // that is not a DaemonSet's (DaemonSet pods follow every node, Karpenter's included).
  std::vector<std::string> critical_addons;
};

struct NodePlace {
  std::string zone;
  std::string instance_type;
};

struct ClusterSnapshot {
  std::vector<ObservedGroup> groups;             // by name
  std::vector<std::string> other_nodes;          // nodes of no group (Karpenter's, Fargate's...)
  std::map<std::string, NodePlace> node_places;  // of the groups' nodes, by node name
  // Critical add-on pods on no node of any group: "coredns (Pod kube-system/coredns-x)".
  std::vector<std::string> unpinned_addons;
  std::vector<const api::Manifest*> pods, pdbs, workloads;  // workloads: Deployments, StatefulSets
};

// The add-on a pod is (coredns, aws-node, kube-proxy, aws-load-balancer-controller, karpenter),
// or empty, from the labels their charts and EKS add-ons set.
std::string CriticalAddonOf(const api::Pod& pod);

// InvalidArgument naming "SOURCE: Kind/name: field.path: why" for every object that fails to
// decode and every node without the labels a group needs. The manifests must outlive the result.
absl::StatusOr<ClusterSnapshot> ReadClusterSnapshot(const std::vector<api::Manifest>& manifests,
                                                    const std::vector<AsgBounds>& asgs);

}  // namespace karpenter::migrate
