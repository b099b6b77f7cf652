// Upstream: pkg/apis/core/v1/defaults.go (kubernetes/kubernetes)
// API-server defaulting for pods and pod specs (k8s.io/kubernetes pkg/apis/core/v1
// defaults.go and the declarative defaults in k8s.io/api core/v1 types), limited to the
// fields this project models.
#include <string>
#include <utility>
#include <vector>

#include "src/api/core_validation_internal.h"
#include "src/api/pod.h"
#include "src/api/pod_resources.h"
#include "src/api/storage.h"

namespace karpenter::api {
namespace {

void DefaultContainerPorts(std::vector<Container>& containers) {
  for (Container& container : containers) {
    for (ContainerPort& port : container.ports) {
      if (port.protocol.empty()) port.protocol = kProtocolTcp;
    }
  }
}

// A container that states limits but not requests is scheduled as if it requested its limits.
void DefaultRequestsFromLimits(std::vector<Container>& containers) {
  for (Container& container : containers) {
    for (const auto& [name, limit] : container.resources.limits) {
      container.resources.requests.try_emplace(name, limit);
    }
  }
}

// With host networking every container port is a host port.
void DefaultHostNetworkPorts(std::vector<Container>& containers) {
  for (Container& container : containers) {
    for (ContainerPort& port : container.ports) {
      if (port.host_port == 0) port.host_port = port.container_port;
    }
  }
}

// Pod-level requests are filled in only when pod-level limits exist: from the containers'
// aggregate requests where those name the resource (overcommittable resources only), else
// from the pod-level limit itself.
void DefaultPodLevelRequests(PodSpec& spec) {
  if (!spec.resources.has_value() || spec.resources->limits.empty()) return;
  ResourceList requests = spec.resources->requests;
  for (const auto& [name, quantity] : AggregateContainerRequests(spec)) {
    if (IsSupportedPodLevelResource(name) && validation_internal::IsOvercommitAllowed(name)) {
      requests.try_emplace(name, quantity);
    }
  }
  for (const auto& [name, limit] : spec.resources->limits) {
    if (IsSupportedPodLevelResource(name)) requests.try_emplace(name, limit);
  }
  spec.resources->requests = std::move(requests);
}

}  // namespace

void ApplyPodSpecDefaults(PodSpec& spec) {
  if (spec.restart_policy.empty()) spec.restart_policy = kRestartPolicyAlways;
  if (!spec.termination_grace_period_seconds.has_value()) {
    spec.termination_grace_period_seconds = kDefaultTerminationGracePeriodSeconds;
  }
  if (spec.scheduler_name.empty()) spec.scheduler_name = kDefaultSchedulerName;
  DefaultContainerPorts(spec.init_containers);
  DefaultContainerPorts(spec.containers);
  for (Volume& volume : spec.volumes) {
    if (volume.ephemeral.has_value() && volume.ephemeral->volume_claim_template.has_value()) {
      ApplyDefaults(volume.ephemeral->volume_claim_template->spec);
    }
  }
}

void ApplyDefaults(Pod& pod) {
  ApplyPodSpecDefaults(pod.spec);
  DefaultRequestsFromLimits(pod.spec.containers);
  DefaultRequestsFromLimits(pod.spec.init_containers);
  DefaultPodLevelRequests(pod.spec);
  if (pod.spec.host_network) {
    DefaultHostNetworkPorts(pod.spec.containers);
    DefaultHostNetworkPorts(pod.spec.init_containers);
  }
}

}  // namespace karpenter::api
