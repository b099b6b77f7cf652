// What moves a disruption decision while no object changes. ComputeDisruption is a function of
// the snapshot and `now`, and `now` enters only through the predicates below; a host that polls
// (the twin, every 10 s) can therefore skip a poll when its objects are unchanged, the last
// decision found no command and this state equals the last poll's.
#pragma once

#include <string>

#include "src/api/time.h"
#include "src/state/snapshot.h"

namespace karpenter::disruption {

// A compact encoding of every clock-dependent predicate the engine evaluates: per NodeClaim
// whether it is consolidatable (consolidateAfter), expired, and old enough for
// InstanceTypeNotFound drift; per NodePool budget whether its schedule window is open; per pod
// carrying do-not-disrupt whether it still protects the pod. For the same objects, equal strings
// mean equal predicates.
std::string TimeDependentState(const state::ClusterSnapshot& snapshot, api::Time now);

}  // namespace karpenter::disruption
