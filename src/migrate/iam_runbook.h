// The runbook's IAM step: the commands that create Karpenter's controller role with
// docs/iam/controller-policy.json (EKS Pod Identity, or IRSA instead) and, when the plan needs a
// new one, the node role; each with its rollback.
#pragma once

#include <string>

#include "src/migrate/migration_plan.h"

namespace karpenter::migrate {

// Indented lines for Phase 1 of `PlanRunbook`; shell variables (AWS_ACCOUNT_ID, AWS_REGION,
// AWS_PARTITION, OIDC_PROVIDER) are left for the operator to set.
std::string IamRunbookSteps(const MigrationPlan& plan);

}  // namespace karpenter::migrate
