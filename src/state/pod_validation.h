// Upstream: pkg/controllers/provisioning/provisioner.go (Validate) and
// pkg/controllers/provisioning/scheduling/volumetopology.go (ValidatePersistentVolumeClaims).
// Pods Karpenter refuses to provision for even though they are pending (P3): the reason is
// reported (an event upstream, `unschedulable` in `plan`) and counted as ignored.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/pod.h"
#include "src/state/snapshot.h"

namespace karpenter::state {

// Annotation the PV controller sets once a claim and its volume are bound to each other;
// kube-scheduler treats a claim naming a volume without it as unbound.
inline constexpr std::string_view kBindCompletedAnnotationKey = "pv.kubernetes.io/bind-completed";

// The reason for a pod that opts out of Karpenter capacity; upstream skips the event for it.
inline constexpr std::string_view kNodePoolDoesNotExistMessage =
    "configured to not run on a Karpenter provisioned node (requirement karpenter.sh/nodepool "
    "DoesNotExist)";

struct IgnoreReason {
  std::string message;  // every problem found, joined with "; "
  // The pod requires `karpenter.sh/nodepool DoesNotExist` (e.g. the Karpenter controller itself):
  // intentionally not ours, so no event is published for it.
  bool silent = false;
};

// The pod's node requirements (nodeSelector, then its heaviest preferred node-affinity term, then
// its first required term, intersected per key as Karpenter builds them) leave
// `karpenter.sh/nodepool` with no allowed value.
bool RequiresNoNodePool(const api::Pod& pod);

// Problems with the pod's node selector and required node affinity: each requirement under the
// runtime rules (restricted or malformed keys, unsupported operators, bad values; see
// api::ValidateRequirementRuntime) and `matchFields` terms, which Karpenter cannot satisfy. Paths
// are the pod's ("spec.nodeSelector[key]: ...").
std::vector<std::string> NodeSelectionProblems(const api::Pod& pod);

// The first problem with the pod's persistent volume claims (claimed volumes and generic
// ephemeral ones), in volume order, as kube-scheduler would refuse them: claim missing or being
// deleted, claim lost or bound to a missing or deleting volume, bound without the bind-completed
// annotation, unbound without a StorageClass, StorageClass missing, or unbound under an Immediate
// StorageClass. nullopt when the claims are usable.
std::optional<std::string> VolumeClaimProblem(const ClusterSnapshot& snapshot, const api::Pod& pod);

// All of the above; nullopt when Karpenter would provision for the pod.
std::optional<IgnoreReason> ValidateForProvisioning(const ClusterSnapshot& snapshot,
                                                    const api::Pod& pod);

}  // namespace karpenter::state
