// Resource-list arithmetic the scheduler needs (upstream pkg/utils/resources): a pod's requests
// including its pod slot, fitting, subtraction and the compact JSON-like rendering used in
// scheduling error messages.
#pragma once

#include <string>

#include "src/api/pod.h"
#include "src/api/resource_list.h"

namespace karpenter::provisioning {

inline constexpr char kResourcePods[] = "pods";
inline constexpr char kResourceNodes[] = "nodes";

// api::PodRequests plus `pods: 1`: every pod takes one of the node's pod slots.
api::ResourceList RequestsForPod(const api::Pod& pod);
// a + b, key by key.
api::ResourceList Merge(const api::ResourceList& a, const api::ResourceList& b);
// a - b, key by key, for keys of `a` (results may be negative).
api::ResourceList Subtract(const api::ResourceList& a, const api::ResourceList& b);
// a - b for every key of either side, clamped at zero.
api::ResourceList SubtractClamped(const api::ResourceList& a, const api::ResourceList& b);
// Whether every requested quantity is at most what `available` has (absent = zero).
bool Fits(const api::ResourceList& requests, const api::ResourceList& available);
// {"cpu":"1","memory":"1Gi"} in key order, as upstream's resources.String.
std::string ResourcesString(const api::ResourceList& list);

}  // namespace karpenter::provisioning
