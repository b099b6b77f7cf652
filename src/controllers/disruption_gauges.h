// Upstream: kubernetes-sigs/karpenter pkg/controllers/disruption (controller.go, the methods'
// metrics) and the budget gauges of its NodePool budget mapping. What one evaluation of the
// disruption methods publishes, written once here for the controller and the twin's.
#pragma once

#include <string>

#include "karpenter/metrics.h"
#include "src/disruption/disruption.h"

namespace karpenter::controllers {

// The reason label of a method's eligible-node gauge and evaluation histogram: upstream's
// lower-cased disruption reason ("empty", "drifted", "underutilized", "expired").
std::string EligibilityReason(disruption::Method method);

// Sets, from one evaluation: karpenter_nodepools_allowed_disruptions and
// karpenter_nodepools_nodes_consuming_budgets per NodePool and reason (as the API spells it,
// "Underutilized"), and karpenter_voluntary_disruption_eligible_nodes per method that ran.
void SetDisruptionGauges(const disruption::DisruptionResult& result, Metrics& metrics);

}  // namespace karpenter::controllers
