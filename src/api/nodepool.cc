// Upstream: pkg/apis/v1/nodepool.go (ToNodeClaim), pkg/apis/crds/karpenter.sh_nodepools.yaml
// (defaults of the v1.14 CRD)
#include "src/api/nodepool.h"

namespace karpenter::api {

void ApplyDefaults(NodePool& node_pool) {
  NodeClaimTemplateSpec& spec = node_pool.spec.template_.spec;
  if (!spec.expire_after) spec.expire_after = DefaultExpireAfter();
  std::optional<Disruption>& disruption = node_pool.spec.disruption;
  if (!disruption) {
    // The block's own default; the API server then applies the defaults nested inside it.
    disruption.emplace();
    disruption->consolidate_after =
        NillableDuration{.duration = Duration(), .raw = std::string(kDefaultConsolidateAfter)};
  }
  if (disruption->consolidation_policy.empty()) {
    disruption->consolidation_policy = std::string(kConsolidationPolicyWhenEmptyOrUnderutilized);
  }
  if (!disruption->budgets) {
    disruption->budgets.emplace().push_back(Budget{.nodes = std::string(kDefaultBudgetNodes)});
  }
  for (Budget& budget : *disruption->budgets) {
    if (!budget.nodes) budget.nodes = std::string(kDefaultBudgetNodes);
  }
}

NodeClaim TemplateToNodeClaim(const NodeClaimTemplate& node_claim_template) {
  NodeClaim node_claim;
  node_claim.metadata.labels = node_claim_template.metadata.labels;
  node_claim.metadata.annotations = node_claim_template.metadata.annotations;
  const NodeClaimTemplateSpec& spec = node_claim_template.spec;
  node_claim.spec.taints = spec.taints;
  node_claim.spec.startup_taints = spec.startup_taints;
  node_claim.spec.requirements = spec.requirements;
  node_claim.spec.node_class_ref = spec.node_class_ref;
  node_claim.spec.termination_grace_period = spec.termination_grace_period;
  node_claim.spec.expire_after = spec.expire_after;
  return node_claim;
}

}  // namespace karpenter::api
