// The provisioner's view of offerings the cloud recently refused: before a solve, every such
// offering in the scheduler input is marked unavailable (upstream's instance types come from
// the provider with the unavailable-offerings cache already applied).
#pragma once

#include "src/cloudprovider/unavailable_offerings.h"
#include "src/provisioning/types.h"

namespace karpenter::controllers {

// Marks the offerings `unavailable` holds (after expiring the stale ones) unavailable in
// `input`. NodePools whose types carry none of them keep sharing their types with the catalog
// cache; the others get a private copy first.
void MarkUnavailableOfferings(cloudprovider::UnavailableOfferings& unavailable,
                              provisioning::SchedulerInput& input);

}  // namespace karpenter::controllers
