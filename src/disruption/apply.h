// What the cluster looks like once a disruption command has run: its candidates gone, each
// replacement a Node and an initialized NodeClaim of the predicted launch, and every moved pod
// bound where the simulation put it. Offline hosts use it to follow consolidation to a steady
// state (`karpenter bench disruption --until-stable`); the twin runs commands for real instead.
#pragma once

#include <vector>

#include "karpenter/common/status.h"
#include "src/api/time.h"
#include "src/disruption/command.h"
#include "src/state/snapshot.h"

namespace karpenter::disruption {

// `commands` must come from ComputeDisruption on `snapshot`, with their replacements'
// instance_type_options still alive (they give the new nodes' capacity). Replacement nodes are
// named "replacement-N" (the first N not in use), created at `now`. Pods of a candidate that the
// command does not move (DaemonSet pods, pods that would not be evicted) go with their node.
absl::StatusOr<state::ClusterSnapshot> ApplyCommands(const state::ClusterSnapshot& snapshot,
                                                     const std::vector<Command>& commands,
                                                     api::Time now);

}  // namespace karpenter::disruption
