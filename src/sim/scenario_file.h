// Scenario files: YAML describing a twin run (docs/sim.md). Top-level keys: name, description,
// durationSeconds, zones, autoscalers, latency, clusterAutoscaler, nodeGroups, manifests (a
// multi-document YAML string of Kubernetes objects present at t=0), steps (at, apply | scale |
// delete | drainNodeGroup, only, note) and faults (insufficientCapacity windows). Every problem
// is reported with its field path ("steps[2].scale.replicas: must be an integer"), all at once.
#pragma once

#include <string>
#include <string_view>

#include "karpenter/common/status.h"
#include "src/sim/scenario.h"

namespace karpenter::sim {

// InvalidArgument listing every problem, one "path: message" per line.
absl::StatusOr<Scenario> ParseScenario(std::string_view yaml, std::string_view source);
absl::StatusOr<Scenario> LoadScenarioFile(const std::string& path);

}  // namespace karpenter::sim
