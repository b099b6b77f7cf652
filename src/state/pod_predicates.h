// Upstream: pkg/utils/pod/scheduling.go (kubernetes-sigs/karpenter)
// Questions asked of a single pod by provisioning (P3, P4) and disruption (D2): is it terminal or
// terminating, who owns it, may it be moved elsewhere, does `karpenter.sh/do-not-disrupt` still
// protect it. Pure functions of the pod (and, for time-limited protection, of `now`).
#pragma once

#include <string_view>

#include "src/api/pod.h"
#include "src/api/time.h"

namespace karpenter::state {

// Pod annotation the kubelet sets on the API mirror of a static pod.
inline constexpr std::string_view kMirrorPodAnnotationKey = "kubernetes.io/config.mirror";
inline constexpr std::string_view kPodPhasePending = "Pending";
inline constexpr std::string_view kPodPhaseRunning = "Running";
inline constexpr std::string_view kPodPhaseSucceeded = "Succeeded";
inline constexpr std::string_view kPodPhaseFailed = "Failed";
inline constexpr std::string_view kPodConditionScheduled = "PodScheduled";
inline constexpr std::string_view kPodConditionReady = "Ready";
inline constexpr std::string_view kPodReasonUnschedulable = "Unschedulable";

// Phase Succeeded or Failed: the pod will never run again.
bool IsTerminal(const api::Pod& pod);
// Has a deletionTimestamp.
bool IsTerminating(const api::Pod& pod);
// Neither terminal nor terminating.
bool IsActive(const api::Pod& pod);
// Bound to a node (spec.nodeName set).
bool IsScheduled(const api::Pod& pod);
// The scheduler nominated a node for it while preempting other pods there.
bool IsPreempting(const api::Pod& pod);
// Carries scheduling gates, so kube-scheduler holds it back and never marks it unschedulable.
bool IsSchedulingGated(const api::Pod& pod);
// kube-scheduler tried the pod and found no node for it: a PodScheduled condition with reason
// Unschedulable (whatever its status, as upstream reads it).
bool FailedToSchedule(const api::Pod& pod);

// True when some owner reference has exactly this apiVersion and kind (upstream compares both,
// so an `extensions/v1beta1` DaemonSet owner does not count as an `apps/v1` one).
bool IsOwnedBy(const api::Pod& pod, std::string_view api_version, std::string_view kind);
bool IsOwnedByDaemonSet(const api::Pod& pod);
bool IsOwnedByStatefulSet(const api::Pod& pod);
// A static pod's API mirror is owned by its Node.
bool IsOwnedByNode(const api::Pod& pod);
// Owned by a Node or carrying the kubelet's mirror annotation: the API cannot move or delete it.
bool IsMirrorPod(const api::Pod& pod);

// May be recreated elsewhere when its node goes away: active (or a terminating StatefulSet pod,
// which must be gone before its replacement is created, so its capacity is needed anyway), and
// neither a DaemonSet pod nor a static pod.
bool IsReschedulable(const api::Pod& pod);

// `karpenter.sh/do-not-disrupt` still protects the pod at `now`: the value "true", or a positive
// Go duration measured from status.startTime (protection holds while the pod is younger; with no
// start time it holds). Any other value is ignored as if the annotation were absent.
bool IsDoNotDisruptActive(const api::Pod& pod, api::Time now);
// Not active, or not protected by do-not-disrupt.
bool IsDisruptable(const api::Pod& pod, api::Time now);
// Tolerates the `karpenter.sh/disrupted:NoSchedule` taint, which marks pods that are never evicted.
bool ToleratesDisruptedNoScheduleTaint(const api::Pod& pod);
// Karpenter would evict it: active, not tolerating the disrupted taint, not a static pod, not
// protected by do-not-disrupt.
bool IsEvictable(const api::Pod& pod, api::Time now);

}  // namespace karpenter::state
