// Upstream: pkg/controllers/provisioning/scheduling/volumetopology.go
// Volume topology (P13): a pod whose claim is bound to a PersistentVolume with node affinity must
// run where that volume is (typically one zone); a pod whose claim is not bound yet must run
// where its StorageClass can provision (allowedTopologies). Karpenter folds these into the
// pod's required node affinity before scheduling, so the NodeClaim it launches lands there.
#pragma once

#include <vector>

#include "src/api/pod.h"
#include "src/api/selector.h"
#include "src/state/snapshot.h"

namespace karpenter::state {

// The node requirements the pod's volumes add, in volume order. For a bound claim: the first
// term of its volume's required node affinity (terms are ORed; upstream uses the first), minus
// kubernetes.io/hostname for local and hostPath volumes, which a new node cannot honour. For an
// unbound claim: the first allowedTopologies term of its StorageClass, as `In` requirements.
// Claims, volumes and classes that cannot be found add nothing (pod validation reports them).
std::vector<api::NodeSelectorRequirement> VolumeRequirements(const ClusterSnapshot& snapshot,
                                                             const api::Pod& pod);

// Appends VolumeRequirements to every required node-affinity term of `pod`, creating a term
// when it has none. A pod without volume requirements is left unchanged.
void InjectVolumeRequirements(const ClusterSnapshot& snapshot, api::Pod& pod);

}  // namespace karpenter::state
