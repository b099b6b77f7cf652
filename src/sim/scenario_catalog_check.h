// Checks a scenario against the catalog the twin runs it on. The reader cannot: the catalog is
// loaded afterwards (its spot prices come from the scenario). Without this, an unknown zone, an
// unknown instance type or a NodePool whose EC2NodeClass no manifest defines ran silently with
// every pod unschedulable.
#pragma once

#include "absl/status/status.h"
#include "src/cloudprovider/catalog.h"
#include "src/sim/scenario.h"

namespace karpenter::sim {

// InvalidArgument naming every problem with its field path, one per line; OK otherwise.
absl::Status CheckScenarioAgainstCatalog(const Scenario& scenario,
                                         const cloudprovider::Catalog& catalog);

}  // namespace karpenter::sim
