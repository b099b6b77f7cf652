// Upstream's two counters for a NodeClaim Karpenter deletes: karpenter_nodeclaims_disrupted_total
// and karpenter_pods_disruption_initiated_total. Every deleter labels them alike (the disruption
// queue, expiration, garbage collection, launch failures, liveness), so they are written once,
// here, for the controllers and the twin.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "karpenter/metrics.h"
#include "src/api/nodeclaim.h"
#include "src/api/nodepool.h"

namespace karpenter::controllers {

// The labels: `reason` as upstream spells it in snake case ("underutilized", "expired",
// "insufficient_capacity"), the claim's NodePool and capacity type, the consolidation policy
// (empty unless a consolidation method deleted it) and the claim's termination mode.
MetricLabels DisruptedLabels(const api::NodeClaim& claim, std::string_view reason,
                             std::string_view consolidation_policy = "");

// The consolidation policy label of a claim a consolidation method deletes: the pool's policy in
// snake case, upstream's default when the pool sets none.
std::string ConsolidationPolicyLabel(const api::NodePool* pool);

// Counts one NodeClaim deleted under `labels` (DisruptedLabels); with `reschedulable_pods`, also
// the pods it was running that must move (launch failures and liveness pass none: nothing ran).
void CountDisrupted(const MetricLabels& labels, std::optional<size_t> reschedulable_pods,
                    Metrics& metrics);

}  // namespace karpenter::controllers
