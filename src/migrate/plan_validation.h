// The manifests a migration plan prints, read back the way `karpenter validate` reads a file and
// checked by the same rules: a plan never prints what the API server would reject.
#pragma once

#include "karpenter/common/status.h"
#include "src/migrate/migration_plan.h"

namespace karpenter::migrate {

// OK, or InvalidArgument with one "Kind/name: path: error" line per problem.
absl::Status ValidatePlanManifests(const MigrationPlan& plan);

}  // namespace karpenter::migrate
