// The AWS region of a cluster snapshot, shared by `sim --from` and `migrate --report`: both run
// the twin on the embedded catalog of the region the snapshot's nodes are in.
#pragma once

#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/manifest.h"

namespace karpenter::cli {

// The region the snapshot's nodes' region and zone labels and its EC2NodeClasses' subnet zones
// name, which must agree with each other and with `flag` (--region; empty when not given).
absl::StatusOr<std::string> SnapshotRegion(const std::vector<api::Manifest>& snapshot,
                                           const std::string& flag);

}  // namespace karpenter::cli
