// Test fixtures for topology spread and pod (anti-)affinity: constraint builders, bound pods,
// and per-zone / per-node views of a solve's result.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/api/pod.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/scheduler_test_util.h"

namespace karpenter::provisioning::testing {

inline constexpr char kZoneKey[] = "topology.kubernetes.io/zone";
inline constexpr char kHostnameKey[] = "kubernetes.io/hostname";

inline api::LabelSelector Selects(std::map<std::string, std::string> labels) {
  api::LabelSelector selector;
  selector.match_labels = std::move(labels);
  return selector;
}

inline api::TopologySpreadConstraint Spread(const std::string& key, int32_t max_skew,
                                            std::map<std::string, std::string> labels,
                                            const char* when = "DoNotSchedule") {
  api::TopologySpreadConstraint tsc;
  tsc.max_skew = max_skew;
  tsc.topology_key = key;
  tsc.when_unsatisfiable = when;
  tsc.label_selector = Selects(std::move(labels));
  return tsc;
}

inline api::PodAffinityTerm AffinityTerm(const std::string& key,
                                         std::map<std::string, std::string> labels) {
  api::PodAffinityTerm term;
  term.topology_key = key;
  term.label_selector = Selects(std::move(labels));
  return term;
}

inline api::PodAffinity& PodAffinityOf(api::Pod& pod) {
  if (!pod.spec.affinity) pod.spec.affinity.emplace();
  if (!pod.spec.affinity->pod_affinity) pod.spec.affinity->pod_affinity.emplace();
  return *pod.spec.affinity->pod_affinity;
}

inline api::PodAffinity& AntiAffinityOf(api::Pod& pod) {
  if (!pod.spec.affinity) pod.spec.affinity.emplace();
  if (!pod.spec.affinity->pod_anti_affinity) pod.spec.affinity->pod_anti_affinity.emplace();
  return *pod.spec.affinity->pod_anti_affinity;
}

inline void RequireAffinity(api::Pod& pod, api::PodAffinityTerm term) {
  PodAffinityOf(pod).required_during_scheduling_ignored_during_execution.push_back(std::move(term));
}

inline void RequireAntiAffinity(api::Pod& pod, api::PodAffinityTerm term) {
  AntiAffinityOf(pod).required_during_scheduling_ignored_during_execution.push_back(
      std::move(term));
}

inline api::Pod Labeled(const std::string& name, std::map<std::string, std::string> labels,
                        const char* cpu = "100m") {
  api::Pod pod = MakePod(name, cpu);
  pod.metadata.labels = std::move(labels);
  return pod;
}

// `count` pods "<prefix>-<i>" with the same labels and spread constraint.
inline std::vector<api::Pod> SpreadPods(const std::string& prefix, int count,
                                        const api::TopologySpreadConstraint& tsc,
                                        std::map<std::string, std::string> labels) {
  std::vector<api::Pod> pods;
  for (int i = 0; i < count; ++i) {
    api::Pod pod = Labeled(prefix + "-" + std::to_string(i), labels);
    pod.spec.topology_spread_constraints = {tsc};
    pods.push_back(std::move(pod));
  }
  return pods;
}

// A node in `zone` that has no room left (pods: 0), so nothing new lands on it.
inline ExistingNodeView FullNode(const std::string& name, const std::string& zone) {
  ExistingNodeView node = MakeNode(name, "1", "1Gi", "0");
  node.labels[kZoneKey] = zone;
  return node;
}

// A running pod bound to `node`.
inline api::Pod Bound(const std::string& name, const std::string& node,
                      std::map<std::string, std::string> labels) {
  api::Pod pod = Labeled(name, std::move(labels));
  pod.spec.node_name = node;
  pod.status.phase = "Running";
  return pod;
}

// What SchedulerInput::bound_pods holds: pointers to pods the test keeps alive.
inline std::vector<const api::Pod*> PointersTo(const std::vector<api::Pod>& pods) {
  std::vector<const api::Pod*> out;
  for (const api::Pod& pod : pods) out.push_back(&pod);
  return out;
}

// The claim's zone when it has exactly one, else "".
inline std::string ZoneOf(const NewNodeClaim& claim) {
  return claim.zones.size() == 1 ? claim.zones[0] : "";
}

// Zone -> number of the claims' pods (keys) whose name starts with `prefix`.
inline std::map<std::string, int> PodsPerZone(const SchedulerResult& result,
                                              const std::string& prefix = "default/") {
  std::map<std::string, int> out;
  for (const NewNodeClaim& claim : result.new_node_claims) {
    for (const std::string& pod : claim.pods) {
      if (pod.rfind(prefix, 0) == 0) ++out[ZoneOf(claim)];
    }
  }
  return out;
}

// The index of the claim holding `key`, or nullopt.
inline std::optional<size_t> ClaimOf(const SchedulerResult& result, const std::string& key) {
  for (size_t i = 0; i < result.new_node_claims.size(); ++i) {
    for (const std::string& pod : result.new_node_claims[i].pods) {
      if (pod == key) return i;
    }
  }
  return std::nullopt;
}

}  // namespace karpenter::provisioning::testing
