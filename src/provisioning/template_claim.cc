#include "src/provisioning/template_claim.h"

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/provisioning/instance_filter.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/nodeclaim.h"
#include "src/provisioning/scheduler.h"
#include "src/scheduling/selector_conversion.h"

namespace karpenter::provisioning {

absl::StatusOr<scheduling::Requirements> TemplateRequirements(const api::NodePool& pool) {
  const api::NodeClaimTemplate& tmpl = pool.spec.template_;
  scheduling::Requirements requirements = scheduling::FromLabels(tmpl.metadata.labels);
  for (const api::NodeSelectorRequirementWithMinValues& in : tmpl.spec.requirements) {
    KP_ASSIGN_OR_RETURN(scheduling::Requirement requirement,
                        scheduling::FromRequirementWithMinValues(in));
    requirements.Add(std::move(requirement));
  }
  requirements.Add(scheduling::Requirement::In(api::kNodePoolLabelKey, {pool.metadata.name}));
  return requirements;
}

absl::StatusOr<NewNodeClaim> TemplateNodeClaim(const NodePoolInstanceTypes& pool,
                                               const SchedulerOptions& options) {
  NodeClaimTemplate tmpl;
  tmpl.node_pool = pool.node_pool.metadata.name;
  KP_ASSIGN_OR_RETURN(tmpl.requirements, TemplateRequirements(pool.node_pool));
  tmpl.labels = pool.node_pool.spec.template_.metadata.labels;
  tmpl.labels[std::string(api::kNodePoolLabelKey)] = tmpl.node_pool;
  tmpl.taints = pool.node_pool.spec.template_.spec.taints;
  // As the provider's Create: the type must satisfy the claim's requirements (undefined
  // well-known labels allowed) and offer an available zone and capacity type they allow.
  const OfferingFilter allowed(tmpl.requirements);
  for (const InstanceTypeView& type : pool.instance_types) {
    if (!tmpl.requirements.IsCompatible(type.requirements, options.well_known_labels) ||
        !allowed.AnyAvailable(type)) {
      continue;
    }
    tmpl.candidates.push_back(MakeTypeCandidate(type, {}));
  }
  if (tmpl.candidates.empty()) {
    return absl::NotFoundError(fmt::format(
        "nodepool {}: no instance type satisfies the template's requirements", tmpl.node_pool));
  }
  InFlightNodeClaim claim(tmpl, AllCandidates(tmpl.candidates));
  return FinalizeNodeClaim(claim, options, kMaxInstanceTypes);
}

}  // namespace karpenter::provisioning
