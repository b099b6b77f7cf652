// The built-in scenario (docs/sim.md): the migration of reference/migration-article.txt —
// a static 3-node managed node group for CoreDNS, the VPC CNI and the controller, legacy
// Cluster Autoscaler groups running compute-heavy, memory-heavy and bursty CI workloads, then
// the article's Phases 2–4 (its EC2NodeClass, NodePool and workload-sample verbatim; the legacy
// groups cordoned, drained and retired) in the Karpenter run, and the same workload trace under
// Cluster Autoscaler alone. A spot capacity shortage hits the CI runners' first-choice offering.
#pragma once

#include <string_view>

#include "karpenter/common/status.h"
#include "src/sim/scenario.h"

namespace karpenter::sim {

// The scenario file text compiled into the binary.
std::string_view BuiltinScenarioYaml();

absl::StatusOr<Scenario> BuiltinScenario();

}  // namespace karpenter::sim
