// `karpenter plan --catalog fake400|FILE`: plan with any instance-type list (docs/differential.md
// has the format) instead of the embedded AWS catalog, as upstream's scheduler would with a cloud
// provider offering those types. Every NodePool gets the whole list whatever its nodeClassRef, so
// no EC2NodeClass is needed; the file's extra label keys become well-known. What only the AWS
// catalog can answer (pinned spot prices, a region, the disruption controller's prices of
// existing nodes, a drain's cost delta) is refused with --catalog.
#pragma once

#include <string>

#include "cmd/karpenter/plan_command.h"
#include "karpenter/common/status.h"
#include "src/provisioning/plan.h"

namespace karpenter::cli {

// Loads `options.catalog` (when set) into `plan_options`: its types for every pool, its labels
// well-known. InvalidArgument, naming the flag, for a malformed file (with the field path) or a
// flag that cannot go with it; `plan_options` is untouched then.
absl::Status ApplyPlanCatalog(const PlanCommandOptions& options,
                              provisioning::PlanOptions& plan_options);

// The assumptions of a plan made with --catalog: the zones are those of the catalog's available
// offerings, every price is the file's, and the region is marked unused.
void DescribeCatalogAssumptions(const std::string& catalog,
                                const provisioning::PlanOptions& plan_options,
                                provisioning::PlanAssumptions& assumptions);

}  // namespace karpenter::cli
