#include "src/controllers/disruption_gauges.h"

#include "src/disruption/budgets.h"

namespace karpenter::controllers {

std::string EligibilityReason(disruption::Method method) {
  switch (method) {
    case disruption::Method::kEmptiness:
      return "empty";
    case disruption::Method::kStaticDrift:
    case disruption::Method::kDrift:
      return "drifted";
    case disruption::Method::kMultiNodeConsolidation:
    case disruption::Method::kSingleNodeConsolidation:
      return "underutilized";
    case disruption::Method::kExpiration:
      return "expired";
  }
  return "";
}

void SetDisruptionGauges(const disruption::DisruptionResult& result, Metrics& metrics) {
  for (const auto& [key, budget] : result.budgets) {
    const MetricLabels labels = {{"nodepool", key.first},
                                 {"reason", std::string(disruption::ReasonName(key.second))}};
    metrics.Set("karpenter_nodepools_allowed_disruptions", labels, budget.allowed);
    metrics.Set("karpenter_nodepools_nodes_consuming_budgets", labels, budget.disrupting);
  }
  for (const auto& [method, count] : result.eligible_nodes) {
    metrics.Set("karpenter_voluntary_disruption_eligible_nodes",
                {{"reason", EligibilityReason(method)}}, static_cast<double>(count));
  }
}

}  // namespace karpenter::controllers
