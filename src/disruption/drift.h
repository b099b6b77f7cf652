// Upstream: pkg/controllers/nodeclaim/disruption/drift.go (kubernetes-sigs/karpenter) and
// pkg/cloudprovider/drift.go (aws/karpenter-provider-aws).
// Whether a candidate has drifted from its NodePool or EC2NodeClass (features §7), judged from
// what a snapshot carries: the Drifted condition the controller already set, the hash annotations
// the hash controllers stamp on pools, classes and NodeClaims, the pool's requirements against
// the NodeClaim's labels, whether the instance type still exists, and the EC2NodeClass's
// resolved AMIs, subnets, security groups and capacity reservations (its status).
#pragma once

#include <string>

#include "src/api/time.h"
#include "src/disruption/candidates.h"
#include "src/state/snapshot.h"

namespace karpenter::disruption {

// A NodeClaim whose instance type left the catalog counts as drifted only past this age.
inline const api::Duration kInstanceTypeNotFoundAge = api::Duration::FromHours(1);

struct Drift {
  std::string reason;  // "" when not drifted, else e.g. "NodePoolDrifted", "RequirementsDrifted"
  // When the drift was observed: the Drifted condition's lastTransitionTime, else `now` (a drift
  // found here is news to the controller). Drifted nodes are disrupted oldest first.
  api::Time since;
};

// The first drift found, in upstream order: an existing Drifted=True condition, static fields
// (karpenter.sh/nodepool-hash when both hash versions match), requirements (the NodeClaim's labels
// plus its instance type's catalog labels against the pool's requirements), instance type gone
// or without an offering in the NodeClaim's zone and capacity type (NodeClaims older than 1 h),
// then the AWS provider's checks on the pool's EC2NodeClass (aws_drift.h: NodeClassDrift, AMIDrift,
// SecurityGroupDrift, SubnetDrift, CapacityReservationDrift).
Drift DetectDrift(const state::ClusterSnapshot& snapshot, const Candidate& candidate,
                  api::Time now);

}  // namespace karpenter::disruption
