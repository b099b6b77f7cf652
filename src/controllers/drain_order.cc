#include "src/controllers/drain_order.h"

#include "src/state/pod_predicates.h"

namespace karpenter::controllers {

bool IsCriticalPod(const api::Pod& pod) {
  return pod.spec.priority_class_name == "system-cluster-critical" ||
         pod.spec.priority_class_name == "system-node-critical";
}

DrainTier DrainTierOf(const api::Pod& pod) {
  const bool daemon = state::IsOwnedByDaemonSet(pod);
  if (IsCriticalPod(pod)) return daemon ? DrainTier::kCriticalDaemon : DrainTier::kCriticalWorkload;
  return daemon ? DrainTier::kDaemon : DrainTier::kWorkload;
}

}  // namespace karpenter::controllers
