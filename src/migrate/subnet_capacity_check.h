// The article's gotcha 3, subnet IP exhaustion, checked for Phase 4: under the VPC CNI every pod
// and node takes an address of its zone's subnets, and the replacements Karpenter launches need
// theirs before the drained nodes give theirs back.
#pragma once

#include "src/cloudprovider/catalog.h"
#include "src/migrate/cluster_snapshot.h"
#include "src/migrate/migration_plan.h"

namespace karpenter::migrate {

// Per zone of the drained groups: the addresses their nodes hold under the VPC CNI settings of
// the aws-node DaemonSet (its defaults without it; see vpc_cni.h), against the free addresses of
// the zone's subnets (those carrying the discovery tag, or all of the zone's when none does yet).
// Warn when short, with advice on the CNI's settings; a warning also without --subnets.
Check SubnetCapacity(const ClusterSnapshot& snapshot, const MigrationInputs& inputs,
                     const MigrationPlan& plan, const cloudprovider::Catalog& catalog);

// Warn for each migrated group's instance type the catalog does not offer in one of the group's
// zones (or the subnets' zones, when --subnets is given).
Check TypeOfferings(const ClusterSnapshot& snapshot, const MigrationInputs& inputs,
                    const MigrationPlan& plan, const cloudprovider::Catalog& catalog);

}  // namespace karpenter::migrate
