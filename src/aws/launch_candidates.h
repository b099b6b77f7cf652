// Upstream: aws/karpenter-provider-aws pkg/providers/instance/filter/filter.go and
// instance.go getCapacityType. Which of a NodeClaim's offerings one CreateFleet call asks for:
// the filters upstream runs before a launch (reservation kind, capacity block, one reservation
// per zone, exotic types, spot dearer than on demand), then one capacity type.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/api/nodeclaim.h"
#include "src/cloudprovider/instance_type.h"

namespace karpenter::aws {

// An offering the NodeClaim allows, on a type that fits its requests, with the image it would
// boot.
struct Candidate {
  const cloudprovider::InstanceType* type;
  const cloudprovider::Offering* offering;
  std::string image_id;
};

// Narrows `candidates` to what one fleet launches and returns its capacity type: reserved, else
// spot, else on demand, the first some remaining candidate offers. Before that, as upstream:
//   - with reserved offerings, only those of one kind of reservation (the cheapest kind; on equal
//     prices default, then capacity block, then interruptible), one capacity block at most, and
//     per type and zone the reservation with the most instances left;
//   - unless a requirement has minValues, metal and accelerator types only when no other type is
//     left, and, when the NodeClaim allows both spot and on demand, no spot offering dearer than
//     the cheapest on-demand one.
// Leaves the candidates cheapest first (then by type name, then zone). `candidates` must not be
// empty.
std::string_view ChooseLaunchCandidates(const api::NodeClaim& node_claim,
                                        std::vector<Candidate>& candidates);

}  // namespace karpenter::aws
