#include "src/controllers/disrupted_metrics.h"

#include <cctype>
#include <string>

#include "src/api/karpenter_labels.h"
#include "src/controllers/nodeclaim_lifecycle.h"
#include "src/controllers/object_fields.h"

namespace karpenter::controllers {
namespace {

// "WhenEmptyOrUnderutilized" -> "when_empty_or_underutilized", as upstream's metric labels
// spell policies.
std::string CamelToSnakeCase(std::string_view camel) {
  std::string out;
  for (size_t i = 0; i < camel.size(); ++i) {
    const auto c = static_cast<unsigned char>(camel[i]);
    if (std::isupper(c) && i > 0 &&
        (std::islower(static_cast<unsigned char>(camel[i - 1])) ||
         std::isdigit(static_cast<unsigned char>(camel[i - 1])))) {
      out += '_';
    }
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

}  // namespace

MetricLabels DisruptedLabels(const api::NodeClaim& claim, std::string_view reason,
                             std::string_view consolidation_policy) {
  return {{"reason", std::string(reason)},
          {"nodepool", LabelOf(claim.metadata.labels, api::kNodePoolLabelKey)},
          {"capacity_type", LabelOf(claim.metadata.labels, api::kCapacityTypeLabelKey)},
          {"consolidation_policy", std::string(consolidation_policy)},
          {"termination_mode", std::string(TerminationMode(claim))}};
}

std::string ConsolidationPolicyLabel(const api::NodePool* pool) {
  std::string_view stored = pool != nullptr && pool->spec.disruption
                                ? pool->spec.disruption->consolidation_policy
                                : std::string_view();
  return CamelToSnakeCase(stored.empty() ? api::kConsolidationPolicyWhenEmptyOrUnderutilized
                                         : stored);
}

void CountDisrupted(const MetricLabels& labels, std::optional<size_t> reschedulable_pods,
                    Metrics& metrics) {
  metrics.Add("karpenter_nodeclaims_disrupted_total", labels, 1);
  if (reschedulable_pods) {
    metrics.Add("karpenter_pods_disruption_initiated_total", labels,
                static_cast<double>(*reschedulable_pods));
  }
}

}  // namespace karpenter::controllers
