// The engine's view of the cluster as the controllers' informers hold it: every kind the
// solver and the disruption engine read, listed through the cluster seam.
#pragma once

#include "karpenter/common/status.h"
#include "karpenter/kube_cluster.h"
#include "src/state/snapshot.h"

namespace karpenter::controllers {

// The API's pods are the workloads' pods already: nothing is expanded from their controllers.
absl::StatusOr<state::ClusterSnapshot> SnapshotOf(const ClusterReader& reader);

}  // namespace karpenter::controllers
