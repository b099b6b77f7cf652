// Upstream: kubernetes-sigs/karpenter pkg/controllers/node/termination/terminator
// (terminator.go, the eviction groups). The order a Karpenter drain evicts a node's pods in,
// shared by the termination controller and the twin's drain: each tier only once every pod of
// the tiers before it is gone.
#pragma once

#include <cstddef>

#include "src/api/pod.h"

namespace karpenter::controllers {

// Non-critical pods before critical ones and, within each, other pods before DaemonSet pods
// (the order of the kubelet's graceful node shutdown).
enum class DrainTier { kWorkload, kDaemon, kCriticalWorkload, kCriticalDaemon };
inline constexpr size_t kDrainTierCount = 4;

// Priority class system-cluster-critical or system-node-critical.
bool IsCriticalPod(const api::Pod& pod);
DrainTier DrainTierOf(const api::Pod& pod);

}  // namespace karpenter::controllers
