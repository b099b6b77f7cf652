// Upstream: staging/src/k8s.io/component-helpers/resource/helpers.go (kubernetes/kubernetes)
#include "src/api/pod_resources.h"

#include <string>

namespace karpenter::api {
namespace {

constexpr std::string_view kHugePagesPrefix = "hugepages-";

enum class Side { kRequests, kLimits };

const ResourceList& Pick(const ResourceRequirements& resources, Side side) {
  return side == Side::kRequests ? resources.requests : resources.limits;
}

// The sidecar-aware aggregation of KEP-753: regular containers and sidecars are summed, and
// each init container is weighed against the sidecars already running when it starts.
ResourceList Aggregate(const PodSpec& spec, Side side) {
  ResourceList result;
  for (const Container& container : spec.containers) {
    AddResources(result, Pick(container.resources, side));
  }
  ResourceList running_sidecars;
  ResourceList init_peak;
  for (const Container& container : spec.init_containers) {
    const ResourceList& own = Pick(container.resources, side);
    if (IsSidecar(container)) {
      // A sidecar keeps running, so it adds to the steady state too.
      AddResources(result, own);
      AddResources(running_sidecars, own);
      MaxResources(init_peak, running_sidecars);
    } else {
      ResourceList during_init = own;
      AddResources(during_init, running_sidecars);
      MaxResources(init_peak, during_init);
    }
  }
  MaxResources(result, init_peak);
  return result;
}

void ApplyPodLevel(ResourceList& result, const ResourceList& pod_level) {
  for (const auto& [name, quantity] : pod_level) {
    if (IsSupportedPodLevelResource(name)) result[name] = quantity;
  }
}

bool HasSupportedResource(const ResourceList& list) {
  for (const auto& [name, quantity] : list) {
    if (IsSupportedPodLevelResource(name)) return true;
  }
  return false;
}

}  // namespace

bool IsSidecar(const Container& container) {
  return container.restart_policy.has_value() && *container.restart_policy == kRestartPolicyAlways;
}

void AddResources(ResourceList& list, const ResourceList& other) {
  for (const auto& [name, quantity] : other) {
    auto [it, inserted] = list.try_emplace(name, quantity);
    if (!inserted) it->second.Add(quantity);
  }
}

bool FitsWithin(const ResourceList& requests, const ResourceList& allocatable) {
  for (const auto& [name, quantity] : requests) {
    if (quantity.MilliValue() <= 0) continue;
    auto it = allocatable.find(name);
    if (it == allocatable.end() || it->second.Cmp(quantity) < 0) return false;
  }
  return true;
}

void MaxResources(ResourceList& list, const ResourceList& other) {
  for (const auto& [name, quantity] : other) {
    auto [it, inserted] = list.try_emplace(name, quantity);
    if (!inserted && quantity.Cmp(it->second) > 0) it->second = quantity;
  }
}

bool IsSupportedPodLevelResource(std::string_view name) {
  return name == "cpu" || name == "memory" || name.starts_with(kHugePagesPrefix);
}

bool IsPodLevelRequestsSet(const PodSpec& spec) {
  return spec.resources.has_value() && HasSupportedResource(spec.resources->requests);
}

bool IsPodLevelResourcesSet(const PodSpec& spec) {
  return spec.resources.has_value() && (HasSupportedResource(spec.resources->requests) ||
                                        HasSupportedResource(spec.resources->limits));
}

ResourceList AggregateContainerRequests(const PodSpec& spec) {
  return Aggregate(spec, Side::kRequests);
}

ResourceList AggregateContainerLimits(const PodSpec& spec) {
  return Aggregate(spec, Side::kLimits);
}

ResourceList PodRequests(const PodSpec& spec) {
  ResourceList requests = AggregateContainerRequests(spec);
  if (IsPodLevelRequestsSet(spec)) ApplyPodLevel(requests, spec.resources->requests);
  AddResources(requests, spec.overhead);
  return requests;
}

ResourceList PodLimits(const PodSpec& spec) {
  ResourceList limits = AggregateContainerLimits(spec);
  if (IsPodLevelResourcesSet(spec)) ApplyPodLevel(limits, spec.resources->limits);
  for (const auto& [name, quantity] : spec.overhead) {
    auto it = limits.find(name);
    if (it != limits.end() && !it->second.IsZero()) it->second.Add(quantity);
  }
  return limits;
}

}  // namespace karpenter::api
