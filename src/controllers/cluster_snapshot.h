// The engine's view of the cluster as the controllers' informers hold it: every kind the
// solver and the disruption engine read, listed through the cluster seam.
#pragma once

#include "karpenter/common/status.h"
#include "karpenter/kube_cluster.h"
#include "src/state/snapshot.h"

namespace karpenter::controllers {

// The API's pods are the workloads' pods already: nothing is expanded from their controllers.
absl::StatusOr<state::ClusterSnapshot> SnapshotOf(const ClusterReader& reader);

// Whether decisions may be made on the cluster view (upstream state.Cluster.Synced): the
// informers have listed, and every NodeClaim has launched. A NodeClaim without a provider ID
// is capacity of unknown type and size; the pods it was made for are still pending, so a solve
// now would launch for them twice, and a consolidation would not see where they are going.
bool ClusterStateSynced(const ClusterReader& reader);

}  // namespace karpenter::controllers
