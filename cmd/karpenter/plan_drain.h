// `karpenter plan --drain SELECTOR`: the selectors parsed as kubectl reads `-l`, and the priced
// drain report attached to the plan made after the drain (src/state/drain.h,
// src/provisioning/drain_report.h).
#pragma once

#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/provisioning/plan.h"
#include "src/state/drain.h"
#include "src/state/snapshot.h"

namespace karpenter::cli {

// Each --drain value parsed; InvalidArgument naming the flag and the value for a malformed one.
absl::StatusOr<std::vector<state::DrainSelector>> ParseDrainSelectors(
    const std::vector<std::string>& values);

// Prices `drain` (computed on `before`) with the catalog the plan used and adds it to `plan`,
// with its warnings joining the plan's.
absl::Status AttachDrain(state::DrainResult drain, const state::ClusterSnapshot& before,
                         const provisioning::PlanOptions& options, provisioning::PlanResult& plan);

}  // namespace karpenter::cli
