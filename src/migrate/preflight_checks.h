// The article's production gotchas checked on the snapshot before anything is applied: critical
// add-ons on a static group, PDBs on every workload and none that blocks a drain, pods that opt
// out of disruption, and the discovery tag on the subnets.
#pragma once

#include <vector>

#include "src/cloudprovider/catalog.h"
#include "src/migrate/cluster_snapshot.h"
#include "src/migrate/migration_plan.h"

namespace karpenter::migrate {

// In a fixed order; each names the objects it is about, sorted.
std::vector<Check> PreflightChecks(const ClusterSnapshot& snapshot, const MigrationInputs& inputs,
                                   const MigrationPlan& plan,
                                   const cloudprovider::Catalog& catalog);

}  // namespace karpenter::migrate
