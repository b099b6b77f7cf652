// Upstream: pkg/controllers/provisioning/scheduling/nodeclaimtemplate.go (NewNodeClaimTemplate)
// and the AWS provider's Create, which for a static NodeClaim picks among every instance type
// its requirements allow.
// A NodeClaim made from a NodePool's template alone, with no pods: what static provisioning
// launches and what StaticDrift replaces a drifted static node with.
#pragma once

#include "karpenter/common/status.h"
#include "src/provisioning/types.h"
#include "src/scheduling/requirements.h"

namespace karpenter::provisioning {

// The template's requirements, its labels as `In` requirements, and karpenter.sh/nodepool.
// InvalidArgument for a requirement admission would have refused.
absl::StatusOr<scheduling::Requirements> TemplateRequirements(const api::NodePool& pool);

// The claim with the pool's instance types that the template allows and that have an available
// allowed offering (cheapest first, at most kMaxInstanceTypes). Its instance_type_options point
// into `pool`. NotFound when no type qualifies.
absl::StatusOr<NewNodeClaim> TemplateNodeClaim(const NodePoolInstanceTypes& pool,
                                               const SchedulerOptions& options);

}  // namespace karpenter::provisioning
