// Upstream: pkg/utils/pod/scheduling.go (kubernetes-sigs/karpenter)
#include "src/state/pod_predicates.h"

#include <algorithm>
#include <string>

#include "src/api/duration.h"
#include "src/api/karpenter_labels.h"
#include "src/api/taint_match.h"

namespace karpenter::state {

bool IsTerminal(const api::Pod& pod) {
  return pod.status.phase == kPodPhaseSucceeded || pod.status.phase == kPodPhaseFailed;
}

bool IsTerminating(const api::Pod& pod) { return pod.metadata.deletion_timestamp.has_value(); }

bool IsActive(const api::Pod& pod) { return !IsTerminal(pod) && !IsTerminating(pod); }

bool IsScheduled(const api::Pod& pod) { return !pod.spec.node_name.empty(); }

bool IsPreempting(const api::Pod& pod) { return !pod.status.nominated_node_name.empty(); }

bool IsSchedulingGated(const api::Pod& pod) { return !pod.spec.scheduling_gates.empty(); }

bool FailedToSchedule(const api::Pod& pod) {
  return std::any_of(pod.status.conditions.begin(), pod.status.conditions.end(),
                     [](const api::PodCondition& condition) {
                       return condition.type == kPodConditionScheduled &&
                              condition.reason == kPodReasonUnschedulable;
                     });
}

bool IsOwnedBy(const api::Pod& pod, std::string_view api_version, std::string_view kind) {
  for (const api::OwnerReference& owner : pod.metadata.owner_references) {
    if (owner.api_version == api_version && owner.kind == kind) return true;
  }
  return false;
}

bool IsOwnedByDaemonSet(const api::Pod& pod) { return IsOwnedBy(pod, "apps/v1", "DaemonSet"); }

bool IsOwnedByStatefulSet(const api::Pod& pod) { return IsOwnedBy(pod, "apps/v1", "StatefulSet"); }

bool IsOwnedByNode(const api::Pod& pod) { return IsOwnedBy(pod, "v1", "Node"); }

bool IsMirrorPod(const api::Pod& pod) {
  return IsOwnedByNode(pod) ||
         pod.metadata.annotations.contains(std::string(kMirrorPodAnnotationKey));
}

bool IsReschedulable(const api::Pod& pod) {
  return (IsActive(pod) || (IsOwnedByStatefulSet(pod) && IsTerminating(pod))) &&
         !IsOwnedByDaemonSet(pod) && !IsMirrorPod(pod);
}

bool IsDoNotDisruptActive(const api::Pod& pod, api::Time now) {
  auto it = pod.metadata.annotations.find(api::KeyString<api::kDoNotDisruptAnnotationKey>());
  if (it == pod.metadata.annotations.end()) return false;
  if (it->second == "true") return true;
  absl::StatusOr<api::Duration> duration = api::Duration::Parse(it->second);
  // Upstream publishes an event for an unparsable or non-positive value and ignores it.
  if (!duration.ok() || *duration <= api::Duration()) return false;
  // Without a start time the pod's age is unknown; keeping the protection is the safe choice.
  if (!pod.status.start_time.has_value()) return true;
  return now - *pod.status.start_time < *duration;
}

bool IsDisruptable(const api::Pod& pod, api::Time now) {
  return !IsActive(pod) || !IsDoNotDisruptActive(pod, now);
}

bool ToleratesDisruptedNoScheduleTaint(const api::Pod& pod) {
  const api::Taint disrupted{.key = std::string(api::kDisruptedTaintKey),
                             .effect = std::string(api::kTaintEffectNoSchedule)};
  for (const api::Toleration& toleration : pod.spec.tolerations) {
    if (api::ToleratesTaint(toleration, disrupted)) return true;
  }
  return false;
}

bool IsEvictable(const api::Pod& pod, api::Time now) {
  return IsActive(pod) && !ToleratesDisruptedNoScheduleTaint(pod) && !IsMirrorPod(pod) &&
         !IsDoNotDisruptActive(pod, now);
}

}  // namespace karpenter::state
