// Upstream's controllers ask CloudProvider.GetInstanceTypes for every NodePool each time they
// simulate scheduling (the provisioner's passes, disruption's replacement simulations): live
// offerings, the ones an ICE marked unavailable, current prices. The scheduler input is built
// from the embedded catalog first (as `karpenter plan` uses it); this swaps in the cloud's.
#pragma once

#include <string_view>

#include "karpenter/cloud_provider.h"
#include "karpenter/logger.h"
#include "src/provisioning/snapshot_input.h"
#include "src/state/snapshot.h"

namespace karpenter::controllers {

// Replaces each NodePool's instance types in `input` with `cloud`'s, cut to the zones of its
// EC2NodeClass's subnets. A pool whose types cannot be resolved is left out, with a warning in
// `input.warnings` and upstream's "skipping, unable to resolve instance types" line logged for
// `controller`. Does nothing when `cloud` is null.
void UseCloudInstanceTypes(CloudProvider* cloud, Logger* logger, std::string_view controller,
                           const state::ClusterSnapshot& snapshot,
                           provisioning::SnapshotSchedulerInput& input);

}  // namespace karpenter::controllers
