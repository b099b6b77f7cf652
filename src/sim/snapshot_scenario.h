// `karpenter sim --from SNAPSHOT`: a user's own cluster as the twin's starting point. The
// snapshot's Nodes become node groups (one per `eks.amazonaws.com/nodegroup` label), its
// workloads, PodDisruptionBudgets, NodePools and EC2NodeClasses the objects at t=0; the rest of
// the scenario (duration, steps, faults, arrivals, latency) comes from an optional trace
// scenario. docs/sim.md "Your own cluster" lists what is inferred and what is assumed.
#pragma once

#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/manifest.h"
#include "src/cloudprovider/catalog.h"
#include "src/sim/auto_scaling_group_file.h"
#include "src/sim/scenario.h"

namespace karpenter::sim {

inline constexpr char kInstanceTypeLabelKey[] = "node.kubernetes.io/instance-type";
inline constexpr char kZoneLabelKey[] = "topology.kubernetes.io/zone";
inline constexpr char kEksCapacityTypeLabelKey[] = "eks.amazonaws.com/capacityType";
// A node group of the snapshot that Cluster Autoscaler may grow to at least this many nodes,
// or twice its size: the group's real bounds live in its Auto Scaling group, not in Kubernetes.
inline constexpr int kSnapshotGroupMinMaxSize = 10;

// The snapshot's objects over `trace` (its node groups, initial objects, steps, faults and the
// rest are kept). Every problem of the snapshot is reported, one per line, as
// "FILE: Kind/name: field.path: what is wrong", in an InvalidArgument; nothing is returned then.
// A node's instance type and zone must be in `catalog`. With `asgs`, a node belongs to the Auto
// Scaling group holding its instance (`spec.providerID`), which gives its group's name (when
// the node has no nodegroup label), bounds and auto-discovery.
absl::StatusOr<Scenario> ScenarioFromSnapshot(const std::vector<api::Manifest>& snapshot,
                                              Scenario trace, const cloudprovider::Catalog& catalog,
                                              const std::vector<AutoScalingGroupRecord>& asgs = {});

}  // namespace karpenter::sim
