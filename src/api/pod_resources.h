// Effective resource requests and limits of a pod, computed exactly as Kubernetes does for
// scheduling (k8s.io/component-helpers/resource PodRequests/PodLimits with default options):
// regular containers and sidecars run together, each plain init container runs alone next to
// the sidecars started before it, the pod needs the larger of the two phases; pod-level
// resources replace cpu/memory/hugepages when set; runtime-class overhead is added on top.
#pragma once

#include <string_view>

#include "src/api/pod.h"
#include "src/api/resource_list.h"

namespace karpenter::api {

// An init container with restartPolicy Always: it starts in init order and then keeps running
// alongside the regular containers.
bool IsSidecar(const Container& container);

// list[name] += other[name] for every entry of `other`.
void AddResources(ResourceList& list, const ResourceList& other);
// list[name] = max(list[name], other[name]) for every entry of `other`.
void MaxResources(ResourceList& list, const ResourceList& other);
// Whether every positive request is at most the quantity of its name in `allocatable` (a
// resource `allocatable` lacks holds nothing): what a cloud provider checks before launching a
// type for a NodeClaim's requests.
bool FitsWithin(const ResourceList& requests, const ResourceList& allocatable);

// Resources that may be set at pod level (spec.resources): cpu, memory and hugepages-*.
bool IsSupportedPodLevelResource(std::string_view name);
// True when spec.resources has requests (or, for PodLimits, requests or limits) naming at
// least one supported pod-level resource.
bool IsPodLevelRequestsSet(const PodSpec& spec);
bool IsPodLevelResourcesSet(const PodSpec& spec);

// The containers' combined requests, before pod-level resources and overhead:
// max(sum(regular containers) + sum(sidecars), max over plain init containers i of
// (requests(i) + sum(sidecars declared before i)), max over sidecars j of
// sum(sidecars up to and including j)).
ResourceList AggregateContainerRequests(const PodSpec& spec);
// The same aggregation over limits.
ResourceList AggregateContainerLimits(const PodSpec& spec);

// What the scheduler reserves for the pod: the aggregate container requests, with pod-level
// requests of supported resources taking precedence, plus spec.overhead.
ResourceList PodRequests(const PodSpec& spec);
inline ResourceList PodRequests(const Pod& pod) { return PodRequests(pod.spec); }

// The pod's effective limits: aggregate container limits, pod-level limits taking precedence,
// and overhead added to every non-zero limit (a resource with no limit stays unlimited).
ResourceList PodLimits(const PodSpec& spec);
inline ResourceList PodLimits(const Pod& pod) { return PodLimits(pod.spec); }

}  // namespace karpenter::api
