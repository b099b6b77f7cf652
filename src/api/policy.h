// policy/v1 PodDisruptionBudget: disruption candidates are blocked when a pod's PDB allows no
// further disruptions (D2, D12); the engine reads the selector, the budget and the status the
// disruption controller maintains.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/api/meta.h"
#include "src/api/selector.h"
#include "src/api/time.h"

namespace karpenter::api {

inline constexpr char kUnhealthyPodEvictionIfHealthyBudget[] = "IfHealthyBudget";
inline constexpr char kUnhealthyPodEvictionAlwaysAllow[] = "AlwaysAllow";

struct PodDisruptionBudgetSpec {
  std::optional<IntOrString> min_available;
  std::optional<LabelSelector> selector;
  std::optional<IntOrString> max_unavailable;
  // IfHealthyBudget when unset; AlwaysAllow lets not-ready pods be evicted regardless.
  std::optional<std::string> unhealthy_pod_eviction_policy;
  bool operator==(const PodDisruptionBudgetSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("minAvailable", min_available);
    v("selector", selector);
    v("maxUnavailable", max_unavailable);
    v("unhealthyPodEvictionPolicy", unhealthy_pod_eviction_policy);
  }
};

struct PodDisruptionBudgetStatus {
  int64_t observed_generation = 0;
  // Pods the eviction API has admitted but the controller has not yet seen go away.
  std::map<std::string, Time> disrupted_pods;
  int32_t disruptions_allowed = 0;
  int32_t current_healthy = 0;
  int32_t desired_healthy = 0;
  int32_t expected_pods = 0;
  std::vector<Condition> conditions;
  bool operator==(const PodDisruptionBudgetStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v("observedGeneration", observed_generation);
    v("disruptedPods", disrupted_pods);
    v("disruptionsAllowed", disruptions_allowed);
    v("currentHealthy", current_healthy);
    v("desiredHealthy", desired_healthy);
    v("expectedPods", expected_pods);
    v("conditions", conditions);
  }
};

struct PodDisruptionBudget {
  std::string api_version = "policy/v1";
  std::string kind = "PodDisruptionBudget";
  ObjectMeta metadata;
  PodDisruptionBudgetSpec spec;
  PodDisruptionBudgetStatus status;
  bool operator==(const PodDisruptionBudget&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// policy/v1 has no API-server defaults (an unset policy is read as IfHealthyBudget); provided
// so every kind can be defaulted uniformly.
inline void ApplyDefaults(PodDisruptionBudget&) {}

}  // namespace karpenter::api
